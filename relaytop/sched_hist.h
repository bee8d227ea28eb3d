/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_hist.h - a distribution of latencies (nanoseconds): how many,
 * how many are missing, their sum and maximum, a log2 histogram of
 * microseconds as runqlat draws it, and finer buckets (16 per power of
 * two) for percentiles.  A percentile is the upper bound of the fine
 * bucket that holds it (at most 1/16, 6.25 %, above the true value, and
 * never above the maximum, which is exact), so two distributions of the
 * same latencies give the same percentiles whatever their order.
 */
#ifndef RELAYTOP_SCHED_HIST_H
#define RELAYTOP_SCHED_HIST_H

#include <stdint.h>

#define SCHED_HIST_LOG2 32	/* log2 buckets of us: [2^k, 2^(k+1)) */
#define SCHED_HIST_SUB 16	/* fine buckets per power of two */
#define SCHED_HIST_FINE (64 * SCHED_HIST_SUB)

struct sched_hist {
	uint64_t count;		/* latencies seen */
	uint64_t missed;	/* wakeups whose switch-in fell in a gap */
	uint64_t sum_ns;
	uint64_t max_ns;
	/* bucket 0: 0-1 us; k >= 1: [2^k, 2^(k+1)) us; the last takes more */
	uint64_t log2[SCHED_HIST_LOG2];
	uint64_t fine[SCHED_HIST_FINE];
};

void sched_hist_add(struct sched_hist *h, uint64_t ns);
/* h += o */
void sched_hist_merge(struct sched_hist *h, const struct sched_hist *o);
/* The latency (ns) at or below which pct percent of them are; 0 if none. */
uint64_t sched_hist_percentile(const struct sched_hist *h, double pct);
/* The bounds of log2 bucket k, in microseconds: [lo, hi]. */
void sched_hist_bucket_us(unsigned int k, uint64_t *lo, uint64_t *hi);
/* The highest log2 bucket holding any, +1 (0: empty). */
unsigned int sched_hist_log2_used(const struct sched_hist *h);

#endif /* RELAYTOP_SCHED_HIST_H */

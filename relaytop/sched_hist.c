// SPDX-License-Identifier: GPL-2.0
/*
 * sched_hist.c - latency distributions (see sched_hist.h).
 *
 * Fine bucket of v (ns): values below SCHED_HIST_SUB each have their own;
 * above, the power of two e = floor(log2 v) and the next log2(SUB) bits
 * below the top one pick one of SUB buckets of [2^e, 2^(e+1)).
 */
#include "sched_hist.h"

#include <string.h>

#define SUB_BITS 4	/* log2(SCHED_HIST_SUB) */

static unsigned int log2_of(uint64_t v)
{
	return v ? 63u - (unsigned int)__builtin_clzll(v) : 0;
}

static unsigned int fine_of(uint64_t v)
{
	unsigned int e;

	if (v < SCHED_HIST_SUB)
		return (unsigned int)v;
	e = log2_of(v);
	return (e - SUB_BITS + 1) * SCHED_HIST_SUB +
	       (unsigned int)((v >> (e - SUB_BITS)) & (SCHED_HIST_SUB - 1));
}

/* The largest value of fine bucket i. */
static uint64_t fine_top(unsigned int i)
{
	unsigned int e, s;

	if (i < SCHED_HIST_SUB)
		return i;
	e = i / SCHED_HIST_SUB + SUB_BITS - 1;
	s = i % SCHED_HIST_SUB;
	if (e >= 63 && s == SCHED_HIST_SUB - 1)
		return UINT64_MAX;
	return ((uint64_t)(SCHED_HIST_SUB + s + 1) << (e - SUB_BITS)) - 1;
}

void sched_hist_add(struct sched_hist *h, uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned int k = us < 2 ? 0 : log2_of(us);

	if (k >= SCHED_HIST_LOG2)
		k = SCHED_HIST_LOG2 - 1;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->log2[k]++;
	h->fine[fine_of(ns)]++;
}

void sched_hist_merge(struct sched_hist *h, const struct sched_hist *o)
{
	h->count += o->count;
	h->missed += o->missed;
	h->sum_ns += o->sum_ns;
	if (o->max_ns > h->max_ns)
		h->max_ns = o->max_ns;
	for (unsigned int k = 0; k < SCHED_HIST_LOG2; k++)
		h->log2[k] += o->log2[k];
	for (unsigned int i = 0; i < SCHED_HIST_FINE; i++)
		h->fine[i] += o->fine[i];
}

uint64_t sched_hist_percentile(const struct sched_hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	/* the smallest value with at least pct % of them at or below */
	rank = (uint64_t)((double)h->count * pct / 100.0 + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned int i = 0; i < SCHED_HIST_FINE; i++) {
		seen += h->fine[i];
		if (seen >= rank) {
			uint64_t top = fine_top(i);

			return top < h->max_ns ? top : h->max_ns;
		}
	}
	return h->max_ns;
}

void sched_hist_bucket_us(unsigned int k, uint64_t *lo, uint64_t *hi)
{
	*lo = k ? 1ull << k : 0;
	*hi = k + 1 >= SCHED_HIST_LOG2 ? UINT64_MAX :
	      (k ? (1ull << (k + 1)) - 1 : 1);
}

unsigned int sched_hist_log2_used(const struct sched_hist *h)
{
	unsigned int n = SCHED_HIST_LOG2;

	while (n && !h->log2[n - 1])
		n--;
	return n;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - per-CPU rates, drops and history for the screen and batch
 * output.  Counts come in as they are read (stats_add()), the producer's
 * drop count as it reports it (stats_set_dropped()); stats_tick() closes an
 * interval, turning counts into rates over the time it really lasted and
 * pushing the event rate onto each CPU's history for the sparkline.
 */
#ifndef RELAYTOP_STATS_H
#define RELAYTOP_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "sched_relay.h"

#define STATS_HISTORY 256	/* intervals of history kept per CPU */

struct cpu_stats {
	bool present;		/* the channel has a buffer for this CPU */
	/* totals since the channel was reset (or relaytop started) */
	uint64_t events;
	uint64_t bytes;
	uint64_t dropped;	/* by the producer, as it counts them */
	uint64_t lost;		/* by relaytop: overwritten before read */
	/* what the views show: the same since relaytop's own zeroing (z) */
	uint64_t shown_dropped, shown_lost;
	uint64_t zero_dropped, zero_lost;	/* the counts at the zeroing */
	/* the interval in progress */
	uint64_t iv_events;
	uint64_t iv_mix[SCHED_RELAY_NR_EVENTS];
	uint64_t iv_other;	/* records of an unknown type */
	uint64_t iv_lost;
	uint64_t iv_dropped_base;	/* 'dropped' when it began */
	double iv_fill;		/* peak backlog (0..1) seen in it */
	/* the last interval that ended */
	double events_rate;	/* events per second */
	double bytes_rate;
	double dropped_rate;
	double lost_rate;
	double fill;		/* 0..1 */
	uint64_t mix[SCHED_RELAY_NR_EVENTS];	/* its events per type */
	uint64_t mix_other;
	double history[STATS_HISTORY];	/* events_rate, oldest first */
	unsigned int history_len;
};

enum stats_sort {
	SORT_CPU,		/* CPU number */
	SORT_EVENTS,		/* events/s, busiest first */
	SORT_DROPS,		/* dropped + lost, most first */
	SORT_FILL,		/* fill, fullest first */
	SORT_NR
};

struct stats {
	unsigned int ncpus;		/* entries of cpu[] (it may hold more) */
	struct cpu_stats *cpu;
	struct cpu_stats total;		/* sums (fill: the worst CPU) */
	uint64_t start_ns;		/* when counting began */
	uint64_t tick_ns;		/* when the last interval ended */
	double interval;		/* length of the last one, seconds */
	unsigned int intervals;		/* intervals ended */
};

void stats_init(struct stats *st, unsigned int ncpus, uint64_t now_ns);
void stats_free(struct stats *st);
/* Make dst (initialised or zeroed) an independent copy of src. */
void stats_copy(struct stats *dst, const struct stats *src);
/* Make room for cpu (a CPU came online) and mark it present. */
void stats_cpu_present(struct stats *st, unsigned int cpu, bool present);

/* nrec records of cpu were read, mix[] of them per type, other unknown. */
void stats_add(struct stats *st, unsigned int cpu, uint64_t nrec,
	       const uint32_t mix[SCHED_RELAY_NR_EVENTS], uint64_t other);
/* relaytop lost n more records of cpu. */
void stats_add_lost(struct stats *st, unsigned int cpu, uint64_t n);
/* The producer's count of drops on cpu since the reset (only grows). */
void stats_set_dropped(struct stats *st, unsigned int cpu, uint64_t dropped);
/* The reader's backlog on cpu right now, as a fraction of the buffer. */
void stats_note_fill(struct stats *st, unsigned int cpu, double fill);

/* End the interval at now_ns: rates, history, totals. */
void stats_tick(struct stats *st, uint64_t now_ns);
/* The channel was reset: every count of cpu starts again from zero. */
void stats_clear_cpu(struct stats *st, unsigned int cpu);
/* Zero what the views show of drops and losses (relaytop's z): the counts
 * since the reset that the status report gives stay as they are. */
void stats_zero(struct stats *st);

/* CPU numbers of the present CPUs in the order of key; returns how many. */
unsigned int stats_order(const struct stats *st, enum stats_sort key,
			 unsigned int *out);
const char *stats_sort_name(enum stats_sort key);
/* The order a name means (cpu, events or events/s, drops, fill), or -1. */
int stats_sort_parse(const char *name);

/*
 * The last width history values of cs as levels 0..levels-1 (0 also for
 * "no sample"), scaled so that scale maps to the top level; out[width-1]
 * is the newest.  Returns how many of the positions hold samples.
 */
unsigned int stats_sparkline(const struct cpu_stats *cs, double scale,
			     unsigned int width, unsigned int levels,
			     unsigned char *out);
/* The largest of the last width history values of c. */
double stats_cpu_history_max(const struct cpu_stats *c, unsigned int width);
/* The largest history value of any present CPU over the last width. */
double stats_history_max(const struct stats *st, unsigned int width);

#endif /* RELAYTOP_STATS_H */

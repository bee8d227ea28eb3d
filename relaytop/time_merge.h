/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_merge.h - the live records of every CPU in time order.  A live
 * source yields each CPU's records a chunk at a time, CPU after CPU, so
 * a wakeup on one CPU may come after the switch-in it caused on another;
 * the scheduler model needs them in the order they happened.  Records
 * and gaps are queued per CPU as they come and handed on, merged by time,
 * up to a watermark: a time before which every CPU's records have been
 * read (live_source.h says how a live source knows it).  A gap goes out
 * right before the record after it on its CPU (where the missing events
 * end, as a recording places it), or at the end of everything if none
 * comes.  A configuration change goes out at its time, before records of
 * the same time, as a recording's CONFIG does (record_merge.h).  So the
 * model sees what --report's sees, in the same order.
 *
 * A record that comes after the merge has passed its time (the watermark
 * was wrong: a record committed long after its timestamp was taken) goes
 * out at the next flush, its CPU's order kept, and is counted in 'late':
 * then, and only then, the live figures may differ from --report's.
 *
 * Memory: each item waiting takes sizeof(struct time_merge_item) (72
 * bytes); the watermark moves every tick, so a refresh interval's and a
 * drain period's records wait.  At most max_queued items wait: past that,
 * the oldest are handed on at once, as if the watermark had passed them
 * (counted in 'forced', with the configuration changes among them), and
 * a record that comes later than them counts as late.  That bounds the
 * items, not quite the memory: the per-CPU arrays grow by doubling, count
 * the items already handed on before their head until they are reused,
 * and never shrink, so a CPU's array can reach about 4 times the most
 * items it ever held.  A gap that no record follows yet is never forced
 * out: it must stay in its place.
 */
#ifndef RELAYTOP_TIME_MERGE_H
#define RELAYTOP_TIME_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched_relay.h"

/* The bound of the items waiting (2^19 of 72 bytes: 36 MiB of items). */
#define TIME_MERGE_MAX_QUEUED (1u << 19)

struct time_merge_item {
	bool gap;			/* events went missing here */
	struct sched_relay_record rec;	/* !gap */
};

struct time_merge_cpu {
	struct time_merge_item *items;
	size_t head, n, cap;
};

/* A configuration change (its event mask) at a time. */
struct time_merge_config {
	uint64_t ts;
	uint32_t events;
};

struct time_merge_ops {
	void (*record)(void *ctx, unsigned int cpu,
		       const struct sched_relay_record *r);
	void (*gap)(void *ctx, unsigned int cpu);
	void (*config)(void *ctx, uint32_t events);
	void *ctx;
};

struct time_merge {
	unsigned int ncpus;		/* size of cpu[] */
	struct time_merge_cpu *cpu;
	struct time_merge_ops ops;
	uint64_t queued;		/* items waiting */
	struct time_merge_config *cfg;	/* changes waiting, in time order */
	size_t cfg_head, ncfg, cfg_cap;
	uint64_t released;		/* the latest time handed on */
	uint64_t late;			/* records handed on after it passed */
	uint64_t max_queued;		/* the bound of queued (see above) */
	uint64_t forced;		/* items handed on to keep to it */
};

void time_merge_init(struct time_merge *tm, const struct time_merge_ops *ops);
void time_merge_free(struct time_merge *tm);
/* Queue n records of cpu (copied), or a gap. */
void time_merge_records(struct time_merge *tm, unsigned int cpu,
			const struct sched_relay_record *r, size_t n);
void time_merge_gap(struct time_merge *tm, unsigned int cpu);
/* Queue a configuration change noticed at ts. */
void time_merge_config(struct time_merge *tm, uint64_t ts, uint32_t events);
/* Hand on, in time order, every record and change at or before
 * watermark (and the gaps among them); UINT64_MAX: everything queued. */
void time_merge_flush(struct time_merge *tm, uint64_t watermark);

#endif /* RELAYTOP_TIME_MERGE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * time_merge.c - live records merged in time (see time_merge.h).  The
 * merge looks at each CPU's next record: O(CPUs) a record, which is
 * little beside reading it for the CPU counts a live screen shows.
 */
#include "time_merge.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void time_merge_init(struct time_merge *tm, const struct time_merge_ops *ops)
{
	memset(tm, 0, sizeof(*tm));
	tm->ops = *ops;
	tm->max_queued = TIME_MERGE_MAX_QUEUED;
}

void time_merge_free(struct time_merge *tm)
{
	for (unsigned int c = 0; c < tm->ncpus; c++)
		free(tm->cpu[c].items);
	free(tm->cpu);
	free(tm->cfg);
	memset(tm, 0, sizeof(*tm));
}

static struct time_merge_item *push(struct time_merge *tm, unsigned int cpu)
{
	struct time_merge_cpu *q;

	tm->cpu = xgrow(tm->cpu, &tm->ncpus, cpu, sizeof(*tm->cpu));
	q = &tm->cpu[cpu];
	if (q->head == q->n) {
		q->head = q->n = 0;
	} else if (q->n == q->cap && q->head > q->cap / 2) {
		memmove(q->items, q->items + q->head,
			(q->n - q->head) * sizeof(*q->items));
		q->n -= q->head;
		q->head = 0;
	}
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->items = realloc(q->items, q->cap * sizeof(*q->items));
		if (!q->items)
			fatal("out of memory");
	}
	tm->queued++;
	return &q->items[q->n++];
}

static void make_room(struct time_merge *tm);

void time_merge_records(struct time_merge *tm, unsigned int cpu,
			const struct sched_relay_record *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct time_merge_item *it;

		if (tm->released && r[i].ts < tm->released)
			tm->late++;
		it = push(tm, cpu);
		it->gap = false;
		it->rec = r[i];
		if (tm->queued > tm->max_queued)
			make_room(tm);
	}
}

void time_merge_config(struct time_merge *tm, uint64_t ts, uint32_t events)
{
	if (tm->cfg_head == tm->ncfg)
		tm->cfg_head = tm->ncfg = 0;
	if (tm->ncfg == tm->cfg_cap) {
		tm->cfg_cap = tm->cfg_cap ? 2 * tm->cfg_cap : 4;
		tm->cfg = realloc(tm->cfg, tm->cfg_cap * sizeof(*tm->cfg));
		if (!tm->cfg)
			fatal("out of memory");
	}
	/* noticed in time order; a clock that went back keeps it so */
	if (tm->ncfg > tm->cfg_head && ts < tm->cfg[tm->ncfg - 1].ts)
		ts = tm->cfg[tm->ncfg - 1].ts;
	tm->cfg[tm->ncfg++] = (struct time_merge_config) { ts, events };
}

/* Hand on the next configuration change. */
static void config(struct time_merge *tm)
{
	const struct time_merge_config *c = &tm->cfg[tm->cfg_head++];

	if (c->ts > tm->released)
		tm->released = c->ts;
	if (tm->ops.config)
		tm->ops.config(tm->ops.ctx, c->events);
}

void time_merge_gap(struct time_merge *tm, unsigned int cpu)
{
	push(tm, cpu)->gap = true;
	if (tm->queued > tm->max_queued)
		make_room(tm);
}

/* Hand on the gaps at the head of q. */
static void gaps(struct time_merge *tm, unsigned int cpu)
{
	struct time_merge_cpu *q = &tm->cpu[cpu];

	while (q->head < q->n && q->items[q->head].gap) {
		q->head++;
		tm->queued--;
		if (tm->ops.gap)
			tm->ops.gap(tm->ops.ctx, cpu);
	}
}

/* The first record of q at or after its head (gaps before it), or NULL. */
static const struct time_merge_item *next_record(const struct time_merge_cpu *q)
{
	for (size_t i = q->head; i < q->n; i++)
		if (!q->items[i].gap)
			return &q->items[i];
	return NULL;
}

/* Hand on the next item at or before watermark: false when there is none
 * (then, at the end of everything, the gaps no record follows are out). */
static bool hand_on(struct time_merge *tm, uint64_t watermark)
{
	unsigned int best = tm->ncpus;
	uint64_t best_ts = 0;

	for (unsigned int c = 0; c < tm->ncpus; c++) {
		const struct time_merge_item *it =
			next_record(&tm->cpu[c]);

		/* a gap ends where its CPU's records go on: until
		 * they come, only the end of everything places it */
		if (!it) {
			if (watermark == UINT64_MAX)
				gaps(tm, c);
			continue;
		}
		if (it->rec.ts <= watermark &&
		    (best == tm->ncpus || it->rec.ts < best_ts)) {
			best = c;
			best_ts = it->rec.ts;
		}
	}
	/* a change goes before the records of its time */
	if (tm->cfg_head < tm->ncfg &&
	    tm->cfg[tm->cfg_head].ts <= watermark &&
	    (best == tm->ncpus ||
	     tm->cfg[tm->cfg_head].ts <= best_ts)) {
		config(tm);
		return true;
	}
	if (best == tm->ncpus)
		return false;
	if (best_ts > tm->released)
		tm->released = best_ts;
	gaps(tm, best);
	tm->cpu[best].head++;
	tm->queued--;
	if (tm->ops.record)
		tm->ops.record(tm->ops.ctx, best,
			       &tm->cpu[best].items[tm->cpu[best].head - 1].rec);
	return true;
}

void time_merge_flush(struct time_merge *tm, uint64_t watermark)
{
	while (hand_on(tm, watermark))
		;
}

/*
 * More than max_queued items wait (the watermark has not moved for long:
 * a source that does not tick, a CPU whose records stopped coming): the
 * oldest go on without waiting for it, down to seven eighths of the
 * bound, so that this is rare.  A record that comes later than them
 * is late, as any other.
 */
static void make_room(struct time_merge *tm)
{
	uint64_t low = tm->max_queued - tm->max_queued / 8;

	/* below UINT64_MAX: a gap no record follows yet stays */
	while (tm->queued > low && hand_on(tm, UINT64_MAX - 1))
		tm->forced++;
}

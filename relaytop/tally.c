// SPDX-License-Identifier: GPL-2.0
/* tally.c - statistics and the scheduler model from a feed (see tally.h). */
#include "tally.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void merged_record(void *ctx, unsigned int cpu,
			  const struct sched_relay_record *r)
{
	struct tally *t = ctx;

	sched_model_record(&t->merged, cpu, r, NULL);
}

static void merged_gap(void *ctx, unsigned int cpu)
{
	struct tally *t = ctx;

	sched_model_gap(&t->merged, cpu);
}

static void merged_config(void *ctx, uint32_t events)
{
	struct tally *t = ctx;

	sched_model_events(&t->merged, events);
}

void tally_init(struct tally *t, unsigned int ncpus, uint64_t start_ns,
		bool follow_tasks)
{
	struct time_merge_ops ops = {
		.record = merged_record, .gap = merged_gap,
		.config = merged_config, .ctx = t,
	};

	memset(t, 0, sizeof(*t));
	stats_init(&t->st, ncpus, start_ns);
	t->follow_tasks = follow_tasks;
	sched_model_init(&t->model, ncpus);
	sched_model_init(&t->merged, ncpus);
	sched_model_start(&t->merged, start_ns);
	time_merge_init(&t->merge, &ops);
}

void tally_figures(struct tally *t, bool on)
{
	t->figures = on && t->follow_tasks;
}

void tally_filter(struct tally *t, const struct filter *f)
{
	t->filter = f;
	t->model.filter = f;
	t->merged.filter = f;
}

void tally_free(struct tally *t)
{
	stats_free(&t->st);
	sched_model_free(&t->model);
	sched_model_free(&t->merged);
	time_merge_free(&t->merge);
	free(t->staged);
	memset(t, 0, sizeof(*t));
}

static void stage(void *ctx, const struct subbuf_chunk *c)
{
	struct tally *t = ctx;

	if (!t->follow_tasks)
		return;
	if (c->nrec > t->staged_cap) {
		free(t->staged);
		t->staged = xcalloc(c->nrec, sizeof(*t->staged));
		t->staged_cap = c->nrec;
	}
	memcpy(t->staged, c->recs, c->nrec * sizeof(*t->staged));
}

static bool is_self(const struct tally *t, const struct sched_relay_record *r)
{
	return t->self_pid && (r->pid == t->self_pid ||
			       (r->type == SCHED_RELAY_SWITCH &&
				r->pid2 == t->self_pid));
}

/* Whether the CPU table shows cpu (-C): its statistics are kept. */
static bool shown(const struct tally *t, unsigned int cpu)
{
	return filter_cpu(t->filter, cpu);
}

static void settle(void *ctx, const struct subbuf_chunk *c, bool intact)
{
	struct tally *t = ctx;
	uint32_t mix[SCHED_RELAY_NR_EVENTS], nrec = c->nrec, unknown = c->unknown;

	if (!intact)
		return;
	memcpy(mix, c->mix, sizeof(mix));
	for (uint32_t i = 0; t->follow_tasks && i < c->nrec; i++) {
		const struct sched_relay_record *r = &t->staged[i];

		/* -F: the command's tree grows as its forks are read,
		 * before the figures take the children's records (time
		 * merge) */
		if (r->type == SCHED_RELAY_FORK && t->filter &&
		    t->filter->tree)
			pid_tree_fork(t->filter->tree, r->pid, r->tgid,
				      r->pid2);

		if (is_self(t, r)) {
			t->self_events++;
			if (t->hide_self) {
				nrec--;
				if (r->type >= SCHED_RELAY_NR_EVENTS)
					unknown--;
				else if (mix[r->type])
					mix[r->type]--;
				continue;
			}
		}
		sched_model_record(&t->model, c->cpu, r, NULL);
	}
	if (shown(t, c->cpu))
		stats_add(&t->st, c->cpu, nrec, mix, unknown);
	/* the models take every CPU's records: a wakeup on a CPU -C
	 * leaves out may be the start of a latency on one it takes */
	if (t->follow_tasks && t->figures)
		time_merge_records(&t->merge, c->cpu, t->staged, c->nrec);
}

static void gap(struct tally *t, unsigned int cpu)
{
	if (!t->follow_tasks)
		return;
	sched_model_gap(&t->model, cpu);
	if (t->figures)
		time_merge_gap(&t->merge, cpu);
}

static void event(void *ctx, const struct feed_event *e)
{
	struct tally *t = ctx;

	switch (e->kind) {
	case FEED_CPU_ON:
	case FEED_CPU_OFF:
		if (shown(t, e->cpu))
			stats_cpu_present(&t->st, e->cpu,
					  e->kind == FEED_CPU_ON);
		break;
	case FEED_FILL:
		if (shown(t, e->cpu))
			stats_note_fill(&t->st, e->cpu, e->fill);
		break;
	case FEED_GAP:
		gap(t, e->cpu);
		break;
	case FEED_RESTART:
		if (shown(t, e->cpu))
			stats_clear_cpu(&t->st, e->cpu);
		gap(t, e->cpu);
		break;
	case FEED_LOST:
		if (shown(t, e->cpu))
			stats_add_lost(&t->st, e->cpu, e->count);
		break;
	case FEED_DROPPED:
		if (shown(t, e->cpu))
			stats_set_dropped(&t->st, e->cpu, e->count);
		break;
	case FEED_GONE:
		if (e->cpu == FEED_ALL_CPUS) {
			/* what was read before it went away comes first */
			time_merge_flush(&t->merge, UINT64_MAX);
			sched_model_gap_all(&t->model);
			sched_model_gap_all(&t->merged);
		} else {
			gap(t, e->cpu);
		}
		break;
	case FEED_CONFIG:
		sched_model_events(&t->model, e->config->events);
		/* at its time among the records, which may still come (a
		 * change of no known time: after all that was read) */
		if (t->figures && e->config->ts) {
			time_merge_config(&t->merge, e->config->ts,
					  e->config->events);
			break;
		}
		time_merge_flush(&t->merge, UINT64_MAX);
		sched_model_events(&t->merged, e->config->events);
		break;
	case FEED_SEQ_DROPPED:
	case FEED_STATUS:
		break;
	}
}

struct feed_sink tally_sink(struct tally *t)
{
	return (struct feed_sink) {
		.stage = stage, .settle = settle, .event = event, .ctx = t,
	};
}

void tally_tick(struct tally *t, uint64_t now, uint64_t watermark)
{
	stats_tick(&t->st, now);
	if (!t->figures)
		return;
	time_merge_flush(&t->merge, watermark);
	if (watermark > t->merged.iv_start)
		sched_model_interval(&t->merged, watermark);
}

void tally_flush(struct tally *t)
{
	time_merge_flush(&t->merge, UINT64_MAX);
}

void tally_zero(struct tally *t)
{
	stats_zero(&t->st);
	sched_model_zero(&t->merged);
}

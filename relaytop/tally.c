// SPDX-License-Identifier: GPL-2.0
/* tally.c - statistics and the scheduler model from a feed (see tally.h). */
#include "tally.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void tally_init(struct tally *t, unsigned int ncpus, uint64_t start_ns,
		bool follow_tasks)
{
	memset(t, 0, sizeof(*t));
	stats_init(&t->st, ncpus, start_ns);
	t->follow_tasks = follow_tasks;
	sched_model_init(&t->model, ncpus);
}

void tally_free(struct tally *t)
{
	stats_free(&t->st);
	sched_model_free(&t->model);
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

static void settle(void *ctx, const struct subbuf_chunk *c, bool intact)
{
	struct tally *t = ctx;
	uint32_t mix[SCHED_RELAY_NR_EVENTS], nrec = c->nrec, unknown = c->unknown;

	if (!intact)
		return;
	memcpy(mix, c->mix, sizeof(mix));
	for (uint32_t i = 0; t->follow_tasks && i < c->nrec; i++) {
		const struct sched_relay_record *r = &t->staged[i];

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
	stats_add(&t->st, c->cpu, nrec, mix, unknown);
}

static void event(void *ctx, const struct feed_event *e)
{
	struct tally *t = ctx;

	switch (e->kind) {
	case FEED_CPU_ON:
	case FEED_CPU_OFF:
		stats_cpu_present(&t->st, e->cpu, e->kind == FEED_CPU_ON);
		break;
	case FEED_FILL:
		stats_note_fill(&t->st, e->cpu, e->fill);
		break;
	case FEED_GAP:
		sched_model_gap(&t->model, e->cpu);
		break;
	case FEED_RESTART:
		stats_clear_cpu(&t->st, e->cpu);
		sched_model_gap(&t->model, e->cpu);
		break;
	case FEED_LOST:
		stats_add_lost(&t->st, e->cpu, e->count);
		break;
	case FEED_DROPPED:
		stats_set_dropped(&t->st, e->cpu, e->count);
		break;
	case FEED_GONE:
		if (e->cpu == FEED_ALL_CPUS)
			sched_model_gap_all(&t->model);
		else
			sched_model_gap(&t->model, e->cpu);
		break;
	case FEED_CONFIG:
		sched_model_events(&t->model, e->config->events);
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

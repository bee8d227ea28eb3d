// SPDX-License-Identifier: GPL-2.0
/* collect.c - a test sink that checks order and totals gaps (collect.h). */
#include "collect.h"

#include <stdlib.h>
#include <string.h>

void collect_init(struct collect *c)
{
	memset(c, 0, sizeof(*c));
	c->in_order = true;
}

void collect_free(struct collect *c)
{
	free(c->staged);
	c->staged = NULL;
}

static void stage(void *ctx, const struct subbuf_chunk *chunk)
{
	struct collect *c = ctx;

	free(c->staged);
	c->staged = malloc(chunk->nrec * sizeof(*c->staged) + 1);
	memcpy(c->staged, chunk->recs, chunk->nrec * sizeof(*c->staged));
	c->nstaged = chunk->nrec;
	if (c->on_stage)
		c->on_stage(c->on_stage_arg);
}

static void settle(void *ctx, const struct subbuf_chunk *chunk, bool intact)
{
	struct collect *c = ctx;

	if (!intact) {
		c->thrown += c->nstaged;
		return;
	}
	for (uint32_t i = 0; i < c->nstaged; i++) {
		uint64_t id = (uint64_t)c->staged[i].pid;
		uint32_t ev = c->staged[i].event_seq;

		if (id <= c->last_id) {
			c->in_order = false;
			c->misordered++;
		} else {
			c->gaps += id - c->last_id - 1;
		}
		c->last_id = id;
		if (c->have_event && ev != c->next_event)
			c->event_jumps++;
		c->have_event = true;
		c->next_event = ev + 1;
	}
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		c->mix[t] += chunk->mix[t];
	c->delivered += c->nstaged;
}

static void restart(void *ctx, unsigned int cpu, uint64_t generation)
{
	struct collect *c = ctx;

	(void)cpu;
	(void)generation;
	c->restarts++;
	c->have_event = false;
}

struct subbuf_sink collect_sink(struct collect *c)
{
	return (struct subbuf_sink) {
		.stage = stage, .settle = settle, .restart = restart, .ctx = c,
	};
}

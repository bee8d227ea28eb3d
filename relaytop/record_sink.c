// SPDX-License-Identifier: GPL-2.0
/* record_sink.c - a feed written into a recording (see record_sink.h). */
#include "record_sink.h"

#include <string.h>

void record_sink_init(struct record_sink *s, struct recorder *rec)
{
	memset(s, 0, sizeof(*s));
	s->rec = rec;
}

struct record_meta record_sink_meta(const struct feed_config *c)
{
	struct record_meta m = {
		.channel = c->channel,
		.nr_cpus = c->nr_cpus,
		.geom = c->geom,
		.events = c->events,
		.flags = (c->overwrite ? RECORD_F_OVERWRITE : 0) |
			 (c->enabled ? RECORD_F_ENABLED : 0),
		.generation = c->generation,
		.ts = c->ts,
	};

	return m;
}

static void stage(void *ctx, const struct subbuf_chunk *chunk)
{
	struct record_sink *s = ctx;

	if (!s->failed)
		recorder_stage(s->rec, chunk);
}

static void settle(void *ctx, const struct subbuf_chunk *chunk, bool intact)
{
	struct record_sink *s = ctx;

	(void)chunk;
	if (!s->failed)
		recorder_settle(s->rec, intact);
}

static void event(void *ctx, const struct feed_event *e)
{
	struct record_sink *s = ctx;
	struct record_meta m;

	if (s->failed)
		return;
	switch (e->kind) {
	case FEED_CPU_ON:
		recorder_track_cpu(s->rec, e->cpu, e->lost, e->dropped,
				   e->first);
		break;
	case FEED_RESTART:
		recorder_restart(s->rec, e->cpu, e->generation, e->lost);
		break;
	case FEED_LOST:
		recorder_note_lost(s->rec, e->cpu, e->lost);
		break;
	case FEED_SEQ_DROPPED:
		recorder_note_dropped(s->rec, e->cpu, e->count);
		break;
	case FEED_GONE:
		/* a block staged when the buffers went away is torn */
		recorder_settle(s->rec, false);
		recorder_gone(s->rec, e->cpu == FEED_ALL_CPUS ?
			      RECORD_NO_CPU : e->cpu);
		break;
	case FEED_CONFIG:
		m = record_sink_meta(e->config);
		recorder_config(s->rec, &m);
		break;
	default:
		break;
	}
}

static void commit(void *ctx)
{
	struct record_sink *s = ctx;

	if (!s->failed)
		recorder_commit(s->rec);
}

struct feed_sink record_sink(struct record_sink *s)
{
	return (struct feed_sink) {
		.stage = stage, .settle = settle, .event = event,
		.commit = commit, .ctx = s,
	};
}

bool record_sink_newly_failed(struct record_sink *s)
{
	if (!s->rec || s->failed || !s->rec->error)
		return false;
	s->failed = true;
	return true;
}

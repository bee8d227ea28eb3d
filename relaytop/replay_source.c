// SPDX-License-Identifier: GPL-2.0
/*
 * replay_source.c - a recording as a source (see replay_source.h).
 *
 * Each tick takes the items of one interval of the recording's clock into
 * the feed: records as one-record chunks, the gaps before them, resets,
 * the channel going away and configurations, with what the status line
 * says of each.
 */
#include "replay_source.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "util.h"

static bool next_item(struct replay_source *rp)
{
	if (rp->have_item)
		return true;
	if (rp->done)
		return false;
	if (record_stream_next(&rp->rs, &rp->item) <= 0) {
		rp->done = true;
		return false;
	}
	rp->have_item = true;
	return true;
}

static void event(struct replay_source *rp, enum feed_kind kind,
		  unsigned int cpu, uint64_t count)
{
	struct feed_event e = { .kind = kind, .cpu = cpu, .count = count };

	feed_event(rp->feed, &e);
}

static void feed_record(struct replay_source *rp, unsigned int cpu,
			const struct sched_relay_record *r)
{
	struct subbuf_chunk c = { .cpu = cpu, .nrec = 1, .recs = r };

	if (r->type < SCHED_RELAY_NR_EVENTS)
		c.mix[r->type] = 1;
	else
		c.unknown = 1;
	feed_stage(rp->feed, &c);
	feed_settle(rp->feed, &c, true);
}

static void take(struct replay_source *rp)
{
	const struct record_item *it = &rp->item;
	struct feed_config fc;
	struct feed_event e;
	char events[128];

	rp->have_item = false;
	switch (it->kind) {
	case ITEM_RECORD:
		feed_record(rp, it->cpu, it->rec);
		break;
	case ITEM_DROPPED:
		rp->dropped[it->cpu] += it->count;
		event(rp, FEED_DROPPED, it->cpu, rp->dropped[it->cpu]);
		event(rp, FEED_GAP, it->cpu, 0);
		break;
	case ITEM_LOST:
		e = (struct feed_event) { .kind = FEED_LOST, .cpu = it->cpu,
					  .count = it->count };
		feed_event(rp->feed, &e);
		event(rp, FEED_GAP, it->cpu, 0);
		break;
	case ITEM_RESTART:
		e = (struct feed_event) { .kind = FEED_RESTART,
					  .cpu = it->cpu,
					  .generation = it->generation };
		feed_event(rp->feed, &e);
		rp->dropped[it->cpu] = 0;
		if (it->generation != rp->restart_gen) {
			rp->restart_gen = it->generation;
			feed_status(rp->feed, false, false, "the channel was "
				    "reset (generation %" PRIu64 ")",
				    it->generation);
		}
		break;
	case ITEM_GONE:
		event(rp, FEED_GONE, it->cpu == RECORD_NO_CPU ?
		      FEED_ALL_CPUS : it->cpu, 0);
		feed_status(rp->feed, true, false, "the channel went away here");
		break;
	case ITEM_CONFIG:
		rp->cfg.geom.subbuf_size = it->config.subbuf_size;
		rp->cfg.geom.n_subbufs = it->config.n_subbufs;
		rp->cfg.events = it->config.events;
		rp->cfg.overwrite = it->config.flags & RECORD_F_OVERWRITE;
		rp->cfg.enabled = it->config.flags & RECORD_F_ENABLED;
		rp->cfg.generation = it->config.generation;
		fc = (struct feed_config) {
			.channel = rp->rs.rd.hdr.channel,
			.nr_cpus = it->config.nr_cpus, .geom = rp->cfg.geom,
			.events = rp->cfg.events,
			.overwrite = rp->cfg.overwrite,
			.enabled = rp->cfg.enabled,
			.generation = rp->cfg.generation,
			.ts = it->ts,
		};
		e = (struct feed_event) { .kind = FEED_CONFIG, .config = &fc };
		feed_event(rp->feed, &e);
		events_format(rp->cfg.events, " ", events, sizeof(events));
		feed_status(rp->feed, false, false, "configuration: %s, events "
			    "%s", rp->cfg.overwrite ? "overwrite" :
			    "no-overwrite", events);
		break;
	}
}

/*
 * One interval of the recording's time.  Work follows the items, not the
 * time they span: an interval that holds nothing and is followed by more
 * than REPLAY_MAX_IDLE others that hold nothing becomes one interval up
 * to the one of the next item (a recording's quiet hour, or a damaged
 * timestamp centuries ahead, is one block, not millions), and the end of
 * time is where the clock stops.
 */
static uint64_t tick(void *self, double interval)
{
	struct replay_source *rp = self;
	uint64_t iv = interval * 1e9 >= 1 ? (uint64_t)(interval * 1e9) : 1;
	uint64_t until = rp->now > UINT64_MAX - iv ? UINT64_MAX : rp->now + iv;
	bool took = false;

	while (next_item(rp) && (rp->item.ts < until || until == UINT64_MAX)) {
		take(rp);
		took = true;
	}
	if (!took && next_item(rp) &&
	    (rp->item.ts - until) / iv > REPLAY_MAX_IDLE) {
		uint64_t skip = (rp->item.ts - until) / iv * iv;

		feed_status(rp->feed, false, false, "nothing was recorded for "
			    "%.3f s: skipped to the next record", (double)
			    (skip + (until - rp->now)) / 1e9);
		until += skip;
	}
	rp->now = until;
	if (!next_item(rp) && !rp->ended) {
		rp->ended = true;
		if (rp->rs.rd.error[0])
			feed_status(rp->feed, true, false, "%s",
				    rp->rs.rd.error);
		else
			feed_status(rp->feed, false, false, "the end of the "
				    "recording (q quits)");
	}
	return until;
}

static void state(const void *self, struct source_state *st)
{
	const struct replay_source *rp = self;

	*st = (struct source_state) {
		.name = rp->rs.rd.path, .recorded = true, .have_cfg = true,
		.cfg = rp->cfg, .ended = rp->ended,
		.error = rp->rs.rd.error[0] ? rp->rs.rd.error : NULL,
	};
}

static int can_change(const void *self, const char *what, char *msg,
		      size_t len)
{
	(void)self;
	snprintf(msg, len, "%s: not while replaying a recording", what);
	return -1;
}

const struct source_ops replay_source_ops = {
	.tick = tick, .state = state, .can_change = can_change,
};

struct source replay_source(struct replay_source *rp)
{
	return (struct source) { &replay_source_ops, rp };
}

int replay_source_open(struct replay_source *rp, const char *path,
		       const struct feed *feed)
{
	const struct record_file_header *h;

	memset(rp, 0, sizeof(*rp));
	rp->feed = feed;
	if (record_stream_open(&rp->rs, path))
		return -1;
	h = &rp->rs.rd.hdr;
	rp->cfg.geom.subbuf_size = h->subbuf_size;
	rp->cfg.geom.n_subbufs = h->n_subbufs;
	rp->cfg.events = h->events;
	rp->cfg.overwrite = h->flags & RECORD_F_OVERWRITE;
	rp->cfg.enabled = h->flags & RECORD_F_ENABLED;
	rp->cfg.generation = h->generation;
	rp->restart_gen = h->generation;
	rp->dropped = xcalloc(rp->rs.rd.ncpus + 1, sizeof(*rp->dropped));
	/* the clock starts at the first item (or the recording's start) */
	rp->now = h->start_mono_ns;
	if (next_item(rp) && rp->item.ts)
		rp->now = rp->item.ts;
	return 0;
}

unsigned int replay_source_ncpus(const struct replay_source *rp)
{
	return rp->rs.rd.ncpus;
}

uint64_t replay_source_start_ns(struct replay_source *rp)
{
	return rp->now;
}

void replay_source_start(struct replay_source *rp)
{
	for (unsigned int cpu = 0; cpu < rp->rs.rd.ncpus; cpu++)
		if (rp->rs.rd.summary[cpu].present)
			event(rp, FEED_CPU_ON, cpu, 0);
}

void replay_source_close(struct replay_source *rp)
{
	record_stream_close(&rp->rs);
	free(rp->dropped);
	rp->dropped = NULL;
}

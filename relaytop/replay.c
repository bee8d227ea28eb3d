// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a recording shown as it was recorded (see replay.h).
 *
 * The recording is read as one stream of items merged by timestamp; each
 * interval of the recording's clock takes the items inside it into the
 * same statistics the live screen uses.  On a terminal the intervals pass
 * at the refresh rate (p pauses, + and - change it); in batch mode they
 * are printed as fast as they are read.
 */
#include "replay.h"

#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "events.h"
#include "keys.h"
#include "record_merge.h"
#include "session.h"
#include "ui.h"
#include "util.h"

struct replay {
	struct session s;
	struct record_stream rs;
	struct record_item item;	/* read but not yet taken */
	bool have_item;
	bool done;
	uint64_t *dropped;		/* per CPU, since the last reset */
};

static bool next_item(struct replay *r)
{
	int n;

	if (r->have_item)
		return true;
	if (r->done)
		return false;
	n = record_stream_next(&r->rs, &r->item);
	if (n <= 0) {
		r->done = true;
		return false;
	}
	r->have_item = true;
	return true;
}

static void take(struct replay *r)
{
	struct session *s = &r->s;
	const struct record_item *it = &r->item;
	uint32_t mix[SCHED_RELAY_NR_EVENTS] = { 0 };
	char events[128];

	r->have_item = false;
	switch (it->kind) {
	case ITEM_RECORD:
		if (it->rec->type < SCHED_RELAY_NR_EVENTS)
			mix[it->rec->type] = 1;
		stats_add(&s->st, it->cpu, 1, mix,
			  it->rec->type >= SCHED_RELAY_NR_EVENTS);
		break;
	case ITEM_DROPPED:
		r->dropped[it->cpu] += it->count;
		stats_set_dropped(&s->st, it->cpu, r->dropped[it->cpu]);
		break;
	case ITEM_LOST:
		stats_add_lost(&s->st, it->cpu, it->count);
		break;
	case ITEM_RESTART:
		stats_clear_cpu(&s->st, it->cpu);
		r->dropped[it->cpu] = 0;
		if (it->generation != s->restart_gen) {
			s->restart_gen = it->generation;
			session_status(s, false, "the channel was reset "
				       "(generation %" PRIu64 ")",
				       it->generation);
		}
		break;
	case ITEM_GONE:
		session_status(s, true, "the channel went away here");
		break;
	case ITEM_CONFIG:
		s->cfg.geom.subbuf_size = it->config.subbuf_size;
		s->cfg.geom.n_subbufs = it->config.n_subbufs;
		s->cfg.events = it->config.events;
		s->cfg.overwrite = it->config.flags & RECORD_F_OVERWRITE;
		s->cfg.enabled = it->config.flags & RECORD_F_ENABLED;
		s->cfg.generation = it->config.generation;
		events_format(s->cfg.events, " ", events, sizeof(events));
		session_status(s, false, "configuration: %s, events %s",
			       s->cfg.overwrite ? "overwrite" : "no-overwrite",
			       events);
		break;
	}
}

/* One interval of the recording's time. */
static void replay_tick(struct replay *r)
{
	struct session *s = &r->s;
	uint64_t until = s->st.tick_ns + (uint64_t)(s->interval * 1e9);

	while (next_item(r) && r->item.ts < until)
		take(r);
	stats_tick(&s->st, until);
	s->ticks++;
	if (!next_item(r) && !s->ended) {
		s->ended = true;
		if (r->rs.rd.error[0])
			session_status(s, true, "%s", r->rs.rd.error);
		else
			session_status(s, false, "the end of the recording "
				       "(q quits)");
	}
	session_render(s);
	if (s->opt->count && s->ticks >= s->opt->count)
		s->quit = true;
	if (s->ended && s->out != OUT_CURSES)
		s->quit = true;
}

static void setup(struct replay *r, const struct options *opt)
{
	struct session *s = &r->s;
	const struct record_file_header *h = &r->rs.rd.hdr;
	uint64_t t0 = h->start_mono_ns;

	s->opt = opt;
	s->replay = true;
	s->interval = opt->interval;
	s->cfg.geom.subbuf_size = h->subbuf_size;
	s->cfg.geom.n_subbufs = h->n_subbufs;
	s->cfg.events = h->events;
	s->cfg.overwrite = h->flags & RECORD_F_OVERWRITE;
	s->cfg.enabled = h->flags & RECORD_F_ENABLED;
	s->cfg.generation = h->generation;
	s->have_cfg = true;
	s->restart_gen = h->generation;
	r->dropped = xcalloc(r->rs.rd.ncpus + 1, sizeof(*r->dropped));
	/* the clock starts at the first item (or the recording's start) */
	if (next_item(r) && r->item.ts)
		t0 = r->item.ts;
	stats_init(&s->st, r->rs.rd.ncpus, t0);
	for (unsigned int cpu = 0; cpu < r->rs.rd.ncpus; cpu++)
		stats_cpu_present(&s->st, cpu, r->rs.rd.summary[cpu].present);
}

static void run_curses(struct replay *r)
{
	struct session *s = &r->s;
	uint64_t next = mono_ns();

	while (!s->quit && !session_signalled()) {
		uint64_t now = mono_ns();
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		int timeout = next > now ? (int)((next - now) / 1000000) : 0;
		unsigned int redraw = 0;
		int key;

		if (poll(&pfd, 1, timeout) < 0 && session_signalled())
			break;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;		/* no terminal any more */
		while ((key = ui_read_key()) >= 0)
			redraw |= keys_dispatch(s, key);
		if (redraw && !s->quit) {
			ui_repaint();	/* as live: a key repaints all */
			session_render(s);
		}
		if (mono_ns() >= next) {
			if (!s->paused && !s->ended)
				replay_tick(r);
			next = mono_ns() + (uint64_t)(s->interval * 1e9);
		}
	}
}

int replay_run(const struct options *opt)
{
	struct replay r;
	const char *note = NULL;
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	int status;

	memset(&r, 0, sizeof(r));
	if (record_stream_open(&r.rs, opt->replay)) {
		warn("%s", r.rs.rd.error);
		record_stream_close(&r.rs);
		return 1;
	}
	setup(&r, opt);
	r.s.out = opt->batch || opt->no_ui || !tty ? OUT_BATCH : OUT_CURSES;
	session_install_signals();
	if (r.s.out == OUT_CURSES && ui_init(&note)) {
		warn("%s: printing text instead", note);
		r.s.out = OUT_BATCH;
	} else if (note) {
		session_status(&r.s, false, "%s", note);
	}
	if (r.s.out == OUT_CURSES) {
		session_render(&r.s);
		run_curses(&r);
		ui_done();
	} else {
		while (!r.s.quit && !session_signalled())
			replay_tick(&r);
	}
	status = r.rs.rd.error[0] || r.s.exit_status ? 1 : 0;
	if (status)
		warn("%s", r.rs.rd.error);
	record_stream_close(&r.rs);
	stats_free(&r.s.st);
	free(r.dropped);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - the live mode and the replay (see top.h).
 *
 * The parts, and who talks to whom:
 *
 *   source (live_source.c | replay_source.c)
 *     -> feed -> tally.c (stats, scheduler model)   -> view -> ui.c | batch.c
 *             -> record_sink.c (the recording)
 *             -> app.c (the status line)
 *   loop.c: fds, the refresh timer, signals -> this file -> source, keys
 *   keys.c: key -> command; controller.c: command -> app, source
 *
 * A replay is paced by the loop's timer on a terminal (p pauses, + and -
 * change the rate) and runs its intervals back to back in batch mode.
 */
#include "top.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "controller.h"
#include "ui.h"
#include "util.h"

/* ---- what is shown ---- */

static void live_view(const struct top *t, struct view *v)
{
	struct source_state st;

	t->src.ops->state(t->src.self, &st);
	memset(v, 0, sizeof(*v));
	v->source = st.name;
	v->replay = st.recorded;
	v->have_cfg = st.have_cfg;
	v->cfg = st.cfg;
	v->channel_ok = st.channel_ok;
	v->st = &t->tally.st;
	v->model = t->tally.follow_tasks ? &t->tally.model : NULL;
	v->elapsed = (double)(t->tally.st.tick_ns - t->tally.st.start_ns) / 1e9;
	v->interval = t->app.interval;
	v->sort = t->app.sort;
	v->paused = t->app.paused;
	v->show_help = t->app.show_help;
	v->ended = st.ended;
	v->status = t->app.status;
	v->status_error = t->app.status_error;
	v->prompt = controller_prompt(&t->app);
	v->self_known = t->tally.self_pid && t->tally.follow_tasks;
	v->self_events = t->tally.self_events;
	v->self_hidden = t->tally.hide_self;
	if (t->rec) {
		v->record_path = t->rec->path;
		v->record_bytes = t->rec->file_bytes + t->rec->len;
		v->record_events = t->rec->records;
	}
}

/* The figures of this moment, for a paused live screen. */
static void freeze(struct top *t)
{
	if (!t->app.paused || t->recorded)
		return;
	live_view(t, &t->frozen);
	stats_copy(&t->frozen_st, &t->tally.st);
	t->frozen.st = &t->frozen_st;
}

void top_set_paused(struct top *t, bool paused)
{
	t->app.paused = paused;
	freeze(t);
}

/*
 * Paused, a live screen shows the figures of the moment it was paused, so
 * that it stands still (and a repaint restores it exactly); what the keys
 * change (help, sort, interval, the status line) still shows.
 */
void top_view(const struct top *t, struct view *v)
{
	if (!t->app.paused || t->recorded) {
		live_view(t, v);
		return;
	}
	*v = t->frozen;
	v->interval = t->app.interval;
	v->sort = t->app.sort;
	v->paused = true;
	v->show_help = t->app.show_help;
	v->status = t->app.status;
	v->status_error = t->app.status_error;
	v->prompt = controller_prompt(&t->app);
}

void top_render(struct top *t)
{
	struct view v;
	sigset_t saved;

	top_view(t, &v);
	/* the terminal or the pipe may not take it (^S, | less): a stop
	 * signal must still get through */
	saved = loop_signals_in();
	if (t->app.out == OUT_CURSES && ui_active()) {
		ui_draw(&v);
	} else if (t->app.out == OUT_BATCH && !t->output_failed &&
		   batch_print(stdout, &v)) {
		int err = errno ? errno : EIO;

		t->output_failed = true;
		t->app.quit = true;
		/* a stop signal cut the write short: that is a stop */
		if (err != EINTR || !loop_signalled()) {
			/* nobody reads us any more (| head -1: EPIPE), or
			 * the disk is full: stop, rather than run on
			 * writing nothing */
			t->app.exit_status = 1;
			warn("standard output: %s", strerror(err));
		}
	}
	loop_signals_out(&saved);
}

/* ---- the recording ---- */

/*
 * A write of the recording failed: the recording is what relaytop was
 * asked for, so it stops here (status 1), with the reason on the screen
 * and, at the end, on standard error.
 */
static void recording_failed(struct top *t)
{
	if (!t->rec || !record_sink_newly_failed(&t->rsink))
		return;
	t->rec_failed = true;
	t->app.quit = true;
	t->app.exit_status = 1;
	app_status(&t->app, true, "recording stopped: %s: %s", t->rec->path,
		   strerror(-t->rec->error));
}

/* ---- reading ---- */

void top_drain(struct top *t)
{
	if (t->src.ops->drain)
		t->src.ops->drain(t->src.self);
	recording_failed(t);
}

void top_tick(struct top *t)
{
	uint64_t now;

	/* a paused (or finished) replay stands where it is */
	if (t->recorded && (t->app.paused || t->rp.ended) &&
	    t->app.out == OUT_CURSES)
		return;
	now = t->src.ops->tick(t->src.self, t->app.interval);
	stats_tick(&t->tally.st, now);
	t->app.ticks++;
	if (t->rec && !t->rec_failed)
		recorder_flush(t->rec);
	recording_failed(t);
	if (!t->app.paused || t->app.out != OUT_CURSES)
		top_render(t);
	if (t->app.opt->count && t->app.ticks >= t->app.opt->count)
		t->app.quit = true;
	if (t->recorded && t->rp.ended && t->app.out != OUT_CURSES)
		t->app.quit = true;
}

unsigned int top_key(struct top *t, int key)
{
	unsigned int react = controller_key(&t->app, &t->src, key);

	t->tally.hide_self = t->app.hide_self;
	if (react & REACT_PAUSE)
		freeze(t);
	if (react & REACT_INTERVAL) {
		/* live: the next tick is an interval from now; a replay's
		 * next one stays where it is */
		if (t->recorded)
			t->loop.interval_ns = (uint64_t)(t->app.interval * 1e9);
		else
			loop_set_interval(&t->loop, t->app.interval);
	}
	return react;
}

/* ---- the loop's callbacks ---- */

static bool reading_keys(const struct top *t)
{
	return t->app.out == OUT_CURSES && ui_active();
}

static unsigned int loop_pollfds(void *ctx, struct pollfd *pfd,
				 unsigned int max)
{
	struct top *t = ctx;
	unsigned int n = 0;

	if (reading_keys(t) && max) {
		pfd[0] = (struct pollfd) { .fd = STDIN_FILENO, .events = POLLIN };
		n = 1;
	}
	if (t->src.ops->pollfds)
		n += t->src.ops->pollfds(t->src.self, pfd + n, max - n);
	return n;
}

static void loop_ready(void *ctx, const struct pollfd *pfd, unsigned int n,
		       bool interrupted)
{
	struct top *t = ctx;
	unsigned int k = 0;

	if (reading_keys(t) && n) {
		unsigned int redraw = 0;
		int key;

		k = 1;
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			t->app.quit = true;	/* no terminal any more */
			return;
		}
		/* keys, and a resize (SIGWINCH interrupts the wait) */
		if (interrupted || pfd[0].revents)
			while ((key = ui_read_key()) >= 0)
				redraw |= top_key(t, key) & REACT_REDRAW;
		/* Something else may have written on the terminal (a console
		 * that is not ours alone): a key repaints all of it. */
		if (redraw && !t->app.quit) {
			ui_repaint();
			top_render(t);
		}
	}
	if (!interrupted && t->src.ops->ready)
		t->src.ops->ready(t->src.self, pfd + k, n - k);
	recording_failed(t);
}

static void loop_tick(void *ctx)
{
	top_tick(ctx);
}

/*
 * SIGUSR1: read every buffer up to what the producer committed, then print
 * per CPU, on standard error, what relaytop has of the current generation:
 *
 *   relaytop: status generation G
 *   relaytop: cpu N generation G events E dropped D lost L
 *   relaytop: status end
 *
 * (events read intact, the producer's drops, events relaytop lost, all
 * since the CPU's last reset).  A script that stopped the producer can
 * compare them with the stats file to know that relaytop has everything.
 * Not on the curses screen, which it would garble, nor in a replay.
 */
static void loop_status(void *ctx)
{
	struct top *t = ctx;
	const struct live_source *ls = &t->live;
	const struct stats *st = &t->tally.st;

	if (t->recorded)
		return;
	top_drain(t);
	live_source_read_drops(&t->live);
	if (reading_keys(t))
		return;
	fprintf(stderr, "%s: status generation %" PRIu64 "\n", progname,
		ls->cfg.generation);
	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n; i++) {
		const struct channel_cpu *cc = &ls->ch.cpus[i];
		const struct cpu_stats *c = cc->cpu < st->ncpus ?
					    &st->cpu[cc->cpu] : NULL;

		if (!c)
			continue;
		fprintf(stderr, "%s: cpu %u generation %" PRIu64 " events %"
			PRIu64 " dropped %" PRIu64 " lost %" PRIu64 "\n",
			progname, cc->cpu, cc->reader.cur_gen, c->events,
			c->dropped, c->lost);
	}
	fprintf(stderr, "%s: status end\n", progname);
	fflush(stderr);
}

static uint64_t loop_deadline(void *ctx)
{
	const struct top *t = ctx;

	return t->src.ops->deadline ? t->src.ops->deadline(t->src.self) : 0;
}

static bool loop_done(void *ctx)
{
	const struct top *t = ctx;

	return t->app.quit;
}

static void loop_init(struct top *t)
{
	t->loop.ops = (struct loop_ops) {
		.pollfds = loop_pollfds, .ready = loop_ready,
		.tick = loop_tick, .status = loop_status, .done = loop_done,
		.deadline = loop_deadline, .ctx = t,
	};
}

/* ---- start and end ---- */

static void sinks(struct top *t)
{
	struct feed_sink s;

	s = tally_sink(&t->tally);
	feed_add(&t->feed, &s);
	s = app_sink(&t->app);
	feed_add(&t->feed, &s);
}

void top_start(struct top *t, const struct options *opt,
	       enum output_mode out)
{
	uint64_t start;
	char msg[512];

	memset(t, 0, sizeof(*t));
	app_init(&t->app, opt, out);
	loop_init(t);
	start = mono_ns();
	tally_init(&t->tally, 0, start, out != OUT_NONE);
	t->tally.self_pid = (int)getpid();
	t->tally.hide_self = t->app.hide_self;
	sinks(t);
	if (live_source_open(&t->live, opt->channel, &t->feed, msg,
			     sizeof(msg)))
		fatal("%s", msg);
	if (out == OUT_NONE)
		live_source_count_mix(&t->live, false);	/* nothing shows it */
	t->src = live_source(&t->live);
	if (opt->record) {
		struct feed_config c;
		struct record_meta m;
		struct feed_sink s;

		live_source_config(&t->live, &c);
		m = record_sink_meta(&c);
		t->rec = recorder_create(opt->record, &m);
		if (!t->rec)
			fatal("%s: %s", opt->record, strerror(errno));
		/* blocks written from the mapping when the file allows */
		recorder_zero_copy(t->rec, true);
		record_sink_init(&t->rsink, t->rec);
		s = record_sink(&t->rsink);
		feed_add(&t->feed, &s);
		t->live.seq_drops = true;
		for (unsigned int i = 0; i < t->live.ch.n; i++) {
			struct channel_cpu *cc = &t->live.ch.cpus[i];

			recorder_track_cpu(t->rec, cc->cpu, cc->reader.lost,
					   cc->reader.dropped, true);
		}
	}
	loop_timer(&t->loop, t->app.interval,
		   start + (uint64_t)(t->app.interval * 1e9));
	if (opt->duration > 0)
		t->loop.end_ns = start + (uint64_t)(opt->duration * 1e9);
	if (t->live.ch.read_only)
		app_status(&t->app, true, "buffers opened read-only: "
			   "sub-buffers cannot be handed back");
}

int top_start_replay(struct top *t, const struct options *opt,
		     enum output_mode out)
{
	memset(t, 0, sizeof(*t));
	app_init(&t->app, opt, out);
	loop_init(t);
	t->recorded = true;
	if (replay_source_open(&t->rp, opt->replay, &t->feed)) {
		warn("%s", t->rp.rs.rd.error);
		replay_source_close(&t->rp);
		return -1;
	}
	tally_init(&t->tally, replay_source_ncpus(&t->rp),
		   replay_source_start_ns(&t->rp), out != OUT_NONE);
	sinks(t);
	replay_source_start(&t->rp);
	t->src = replay_source(&t->rp);
	/* the first interval at once; in batch mode, one after another */
	loop_timer(&t->loop, out == OUT_CURSES ? t->app.interval : 0,
		   mono_ns());
	return 0;
}

int top_finish(struct top *t)
{
	int status = 0;

	/* everything committed until now goes into the recording */
	if (t->src.ops->finish)
		t->src.ops->finish(t->src.self);
	if (t->rec) {
		int err = recorder_finish(t->rec);

		if (err) {
			warn("%s: %s", t->rec->path, strerror(-err));
			status = 1;
		}
	}
	return status;
}

void top_free(struct top *t)
{
	if (t->recorded)
		replay_source_close(&t->rp);
	else
		live_source_close(&t->live);
	recorder_free(t->rec);
	t->rec = NULL;
	tally_free(&t->tally);
	stats_free(&t->frozen_st);
}

/* The producer's event numbers disagreed with its own counts: say so
 * (relaytop --check FILE tells where, for a recording). */
static void warn_misplaced(const struct live_source *ls)
{
	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n; i++) {
		const struct subbuf_reader *r = &ls->ch.cpus[i].reader;

		if (r->misplaced || r->unaccounted)
			warn("cpu %u: %" PRIu64 " chunks of records not where "
			     "their event numbers say, %" PRIu64 " events "
			     "missing (or extra) that no count says",
			     ls->ch.cpus[i].cpu, r->misplaced, r->unaccounted);
	}
}

static enum output_mode output_mode(const struct options *opt)
{
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);

	if (opt->replay)
		return opt->batch || opt->no_ui || !tty ? OUT_BATCH : OUT_CURSES;
	if (opt->batch)
		return OUT_BATCH;
	if (opt->record && (opt->no_ui || !tty))
		return OUT_NONE;
	if (!tty || opt->no_ui)
		return OUT_BATCH;
	return OUT_CURSES;
}

int top_run(const struct options *opt)
{
	enum output_mode out = output_mode(opt);
	const char *note = NULL;
	struct top t;
	int status;

	loop_install_signals();
	if (opt->replay) {
		if (top_start_replay(&t, opt, out))
			return 1;
	} else {
		top_start(&t, opt, out);
	}
	if (out == OUT_CURSES) {
		if (ui_init(&note)) {
			warn("%s: printing text instead", note ? note :
			     "no usable terminal");
			t.app.out = OUT_BATCH;
			if (t.recorded)
				loop_timer(&t.loop, 0, mono_ns());
		} else {
			if (note)
				app_status(&t.app, false, "%s", note);
			top_render(&t);
		}
	}
	if (t.app.out == OUT_NONE && opt->record)
		fprintf(stderr, "%s: recording to %s%s\n", progname,
			opt->record, opt->duration > 0 ? "" :
			" (Ctrl-C or SIGTERM stops)");

	if (loop_run(&t.loop) != LOOP_DONE)
		t.app.quit = true;

	if (t.recorded) {
		if (ui_active())
			ui_done();
		status = t.rp.rs.rd.error[0] || t.app.exit_status ? 1 : 0;
		if (t.rp.rs.rd.error[0])
			warn("%s", t.rp.rs.rd.error);
		top_free(&t);
		return status;
	}
	status = top_finish(&t);
	if (t.app.exit_status)
		status = t.app.exit_status;
	warn_misplaced(&t.live);
	if (ui_active())
		ui_done();
	if (t.rec) {
		FILE *out = t.app.out == OUT_BATCH ? stderr : stdout;

		batch_print_record_summary(out, t.rec);
		/* how the reading went: wake-ups and writes */
		fprintf(out, "drains: %" PRIu64 " timed, %" PRIu64 " woken; %"
			PRIu64 " writev; %" PRIu64 " records skipped\n",
			t.live.timed_drains, t.live.woken_drains,
			t.rec->writevs, t.rec->skipped);
	}
	if (t.rec_failed)
		status = 1;
	top_free(&t);
	return status;
}

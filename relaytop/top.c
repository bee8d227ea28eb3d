// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - the live mode and the replay put together (see top.h).
 *
 * The parts, and who talks to whom:
 *
 *   source (live_source.c | replay_source.c)
 *     -> feed -> tally.c (stats, scheduler model)   -> view -> ui.c | batch.c
 *             -> record_sink.c (the recording)
 *             -> app.c (the status line)
 *   loop.c: fds, the refresh timer, signals -> top_serve.c -> top_step.c
 *   keys.c: key -> command; controller.c: command -> app, source
 *   top_show.c: the view, drawn by ui.c or batch.c
 *
 * A replay is paced by the loop's timer on a terminal (p pauses, + and -
 * change the rate) and runs its intervals back to back in batch mode.
 */
#include "top.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "source_report.h"
#include "top_serve.h"
#include "ui.h"
#include "util.h"

static void sinks(struct top *t)
{
	const struct filter *f = &t->app.opt->filter;
	struct feed_sink s;

	/* the figures, for a screen (t and l may ask for them) or the
	 * batch tables; they count what the filter lets through */
	tally_figures(&t->tally, t->app.out == OUT_CURSES ||
		      t->app.opt->tasks || t->app.opt->latency);
	if (filter_any(f))
		tally_filter(&t->tally, f);
	filter_format(f, t->filter_text, sizeof(t->filter_text));

	s = tally_sink(&t->tally);
	feed_add(&t->feed, &s);
	s = app_sink(&t->app);
	feed_add(&t->feed, &s);
}

/* Record what the source yields from now on; each CPU's counts so far
 * are where the recording starts counting. */
static void start_recording(struct top *t, const char *path)
{
	struct feed_config c;
	struct record_meta m;
	struct feed_sink s;
	struct source_cpu sc;

	live_source_config(&t->live, &c);
	m = record_sink_meta(&c);
	t->rec = recorder_create(path, &m);
	if (!t->rec)
		fatal("%s: %s", path, strerror(errno));
	/* blocks written from the mapping when the file allows */
	recorder_zero_copy(t->rec, true);
	/* after a stop signal, a reader that stalls gets an interval */
	recorder_grace(t->rec, (uint64_t)(t->app.interval * 1e9));
	record_sink_init(&t->rsink, t->rec);
	s = record_sink(&t->rsink);
	feed_add(&t->feed, &s);
	if (t->src.ops->recording)
		t->src.ops->recording(t->src.self);
	for (unsigned int i = 0; t->src.ops->cpu &&
	     t->src.ops->cpu(t->src.self, i, &sc); i++)
		recorder_track_cpu(t->rec, sc.cpu, sc.lost, sc.dropped, true);
}

void top_start(struct top *t, const struct options *opt,
	       enum output_mode out)
{
	struct source_state st;
	uint64_t start;
	char msg[512];

	memset(t, 0, sizeof(*t));
	app_init(&t->app, opt, out);
	top_serve_init(t);
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
	if (opt->record)
		start_recording(t, opt->record);
	loop_timer(&t->loop, t->app.interval,
		   start + (uint64_t)(t->app.interval * 1e9));
	if (opt->duration > 0)
		t->loop.end_ns = start + (uint64_t)(opt->duration * 1e9);
	t->src.ops->state(t->src.self, &st);
	if (st.read_only)
		app_status(&t->app, true, "buffers opened read-only: "
			   "sub-buffers cannot be handed back");
}

int top_start_replay(struct top *t, const struct options *opt,
		     enum output_mode out)
{
	memset(t, 0, sizeof(*t));
	app_init(&t->app, opt, out);
	top_serve_init(t);
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
			warn("%s: %s", t->rec->path, recorder_strerror(t->rec));
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
	sched_model_free(&t->frozen_now);
	sched_model_free(&t->frozen_fig);
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

/* A replay's end: its reading error, if any, decides the status. */
static int end_replay(struct top *t)
{
	struct source_state st;
	int status;

	if (ui_active())
		ui_done();
	top_render_final(t);
	t->src.ops->state(t->src.self, &st);
	status = st.error || t->app.exit_status ? 1 : 0;
	if (st.error)
		warn("%s", st.error);
	top_free(t);
	return status;
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
		if (ui_init(&note, !opt->no_color)) {
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

	if (t.recorded)
		return end_replay(&t);
	status = top_finish(&t);
	top_render_final(&t);
	if (t.app.exit_status)
		status = t.app.exit_status;
	source_report_misplaced(&t.src);
	if (ui_active())
		ui_done();
	if (t.rec) {
		FILE *out = t.app.out == OUT_BATCH ? stderr : stdout;

		batch_print_record_summary(out, t.rec);
		/* how the reading went: wake-ups, writes, and how late the
		 * timer's drains came at worst */
		fprintf(out, "drains: %" PRIu64 " timed, %" PRIu64 " woken; %"
			PRIu64 " writev; %" PRIu64 " records skipped; timed "
			"drains up to %.1f ms late\n",
			t.live.timed_drains, t.live.woken_drains,
			t.rec->writevs, t.rec->skipped,
			(double)t.live.drain_late_ns / 1e6);
	}
	if (t.rec_failed)
		status = 1;
	top_free(&t);
	return status;
}

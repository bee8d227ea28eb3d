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
#include "realtime.h"
#include "record_keep.h"
#include "source_report.h"
#include "top_seek.h"
#include "top_serve.h"
#include "ui.h"
#include "util.h"

/* Record what the source yields from now on; each CPU's counts so far
 * are where the recording starts counting. */
static void start_recording(struct top *t, const char *path)
{
	struct feed_config c;
	struct record_meta m;
	struct feed_sink s;
	struct source_cpu sc;
	char kept[512];
	int old = record_keep_old(path, kept, sizeof(kept));

	if (old < 0)
		fatal("%s", kept);
	if (old > 0) {
		app_status(&t->app, false, "%s", kept);
		if (t->app.out != OUT_CURSES)
			fprintf(stderr, "%s: %s\n", progname, kept);
	}
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

/*
 * -C names only CPUs the source has (the channel's buffers when it
 * starts, the recording's): 0, or -1 after saying which it has.
 */
static int check_cpus(struct top *t)
{
	const struct filter *f = &t->app.opt->filter;
	struct filter have;
	struct source_cpu sc;
	char list[256];
	int max = filter_max_cpu(f);

	if (max < 0)
		return 0;
	memset(&have, 0, sizeof(have));
	have.have_cpus = true;
	if (t->recorded) {
		for (unsigned int c = 0; c < t->rp.rs.rd.ncpus; c++)
			if (t->rp.rs.rd.summary[c].present &&
			    c < FILTER_MAX_CPUS)
				have.cpus[c / 8] |= (uint8_t)(1u << (c % 8));
	} else {
		for (unsigned int i = 0; t->src.ops->cpu &&
		     t->src.ops->cpu(t->src.self, i, &sc); i++)
			if (sc.cpu < FILTER_MAX_CPUS)
				have.cpus[sc.cpu / 8] |=
					(uint8_t)(1u << (sc.cpu % 8));
	}
	for (int c = 0; c <= max; c++) {
		if (!filter_cpu(f, (unsigned int)c) ||
		    filter_cpu(&have, (unsigned int)c))
			continue;
		filter_format(&have, list, sizeof(list));
		warn("-C %d: %s has no CPU %d (its CPUs: %s)", c,
		     t->recorded ? "the recording" : "the channel", c,
		     filter_max_cpu(&have) < 0 ? "none" : list + 3);
		return -1;
	}
	return 0;
}

int top_start(struct top *t, const struct options *opt,
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
	top_sinks(t);
	if (live_source_open(&t->live, opt->channel, &t->feed, msg,
			     sizeof(msg)))
		fatal("%s", msg);
	if (out == OUT_NONE)
		live_source_count_mix(&t->live, false);	/* nothing shows it */
	/* started by the loop, after --realtime: they take its policy */
	t->live.threads = opt->threads > 0 ? LIVE_THREADS_ON :
			  opt->threads < 0 ? LIVE_THREADS_OFF :
			  LIVE_THREADS_AUTO;
	t->src = live_source(&t->live);
	if (check_cpus(t))
		return -1;
	if (opt->record)
		start_recording(t, opt->record);
	loop_timer(&t->loop, t->app.interval,
		   start + (uint64_t)(t->app.interval * 1e9));
	if (opt->duration > 0)
		t->loop.end_ns = start + (uint64_t)(opt->duration * 1e9);
	t->src.ops->state(t->src.self, &st);
	/* (in overwrite mode nothing needs handing back) */
	if (st.read_only && !(st.have_cfg && st.cfg.overwrite))
		app_status(&t->app, true, "buffers opened read-only: "
			   "sub-buffers cannot be handed back");
	return 0;
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
	top_sinks(t);
	replay_source_start(&t->rp);
	t->src = replay_source(&t->rp);
	if (check_cpus(t))
		return -2;
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

	/* the terminal is the command's, as with perf record -- CMD */
	if (opt->command)
		return opt->batch ? OUT_BATCH : OUT_NONE;
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

/* The command of -- CMD let go: 0, or the exit status a shell gives a
 * command that could not run (126, 127), said. */
static int run_workload(struct top *t)
{
	int err;

	if (!t->work)
		return 0;
	err = workload_go(t->work);
	if (!err)
		return 0;
	warn("%s: %s", t->work->name, strerror(err));
	t->app.quit = true;
	return err == ENOENT ? 127 : 126;
}

/* The end of -- CMD: stopped if it still runs; its status, unless it
 * could not run or relaytop itself failed (status). */
static int end_workload(struct top *t, int status, int not_run)
{
	workload_stop(t->work);
	if (not_run)
		return not_run;
	if (status)
		return status;
	return workload_status(t->work);
}

int top_run(const struct options *given)
{
	struct options opt_copy = *given;
	const struct options *opt = &opt_copy;
	enum output_mode out = output_mode(opt);
	const char *note = NULL;
	struct workload work;
	struct pid_tree tree;
	struct top t;
	int status, not_run = 0, err;

	/* before anything starts, so that a refusal changes nothing; the
	 * command forked below runs at the normal policy */
	if (opt->realtime) {
		char why[200];

		if (realtime_enter(opt->realtime, why, sizeof(why))) {
			warn("%s", why);
			return 1;
		}
	}
	loop_install_signals();
	/* the command first: its pid is the filter's before anything is
	 * read (it waits to exec until the recording is there) */
	if (opt->command) {
		err = workload_start(&work, opt->command);
		if (err) {
			/* as a shell says a command could not run */
			warn("%s: %s", opt->command[0], strerror(-err));
			return err == -ENOENT ? 127 : err == -EACCES ? 126 : 1;
		}
		if (opt->follow) {
			pid_tree_init(&tree, work.pid);
			opt_copy.filter.tree = &tree;
		}
	}
	if (opt->replay) {
		status = top_start_replay(&t, opt, out);
		if (status == -1)
			return 1;
	} else {
		status = top_start(&t, opt, out);
	}
	if (status) {
		top_free(&t);
		if (opt->command) {
			workload_stop(&work);
			workload_free(&work);
			if (opt->follow)
				pid_tree_free(&tree);
		}
		return 2;	/* -C: a bad command line */
	}
	if (opt->command)
		t.work = &work;
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
	if (t.app.out == OUT_NONE && opt->record && opt->command)
		fprintf(stderr, "%s: recording to %s while %s runs\n",
			progname, opt->record, opt->command[0]);
	else if (t.app.out == OUT_NONE && opt->record)
		fprintf(stderr, "%s: recording to %s%s\n", progname,
			opt->record, opt->duration > 0 ? "" :
			" (Ctrl-C or SIGTERM stops)");
	not_run = run_workload(&t);

	if (!t.app.quit && loop_run(&t.loop) != LOOP_DONE)
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
		/* standard output is the command's, or the blocks' */
		FILE *out = t.app.out == OUT_BATCH || t.work ? stderr : stdout;

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
	if (t.work)
		status = end_workload(&t, status, not_run);
	top_free(&t);
	if (opt->command) {
		workload_free(&work);
		if (opt->follow)
			pid_tree_free(&tree);
	}
	return status;
}

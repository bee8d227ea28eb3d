// SPDX-License-Identifier: GPL-2.0
/* top_show.c - what a running mode shows, and drawing it (see top_show.h). */
#include "top_show.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "controller.h"
#include "task_find.h"
#include "ui.h"
#include "util.h"

/* What the keys change: shown even while the figures stand still. */
static void keyed(const struct top *t, struct view *v)
{
	v->interval = t->app.interval;
	v->speed = t->app.speed;
	v->sort = t->app.sort;
	v->mode = t->app.mode;
	v->lat_kind = t->app.lat_kind;
	v->tasks = t->app.tasks;
	v->summary = t->app.summary;
	v->scroll = t->app.scroll;
	v->paused = t->app.paused;
	v->show_help = t->app.show_help;
	v->status = t->app.status;
	v->status_error = t->app.status_error;
	v->status_new = t->app.status_seq != t->status_printed;
	v->prompt = controller_prompt(&t->app);
	v->typing = t->app.typing;
	v->find = t->app.find;
	v->find_missed = t->app.find_missed;
	v->found_id = -1;
	v->self_hidden = t->tally.hide_self;
}

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
	v->figures = t->tally.figures ? &t->tally.merged : NULL;
	v->batch_tasks = t->app.opt->tasks;
	v->format = t->app.opt->format;
	v->block = t->blocks_printed;
	v->batch_latency = t->app.opt->latency;
	v->filter = t->filter_text;
	v->elapsed = (double)(t->tally.st.tick_ns - t->tally.st.start_ns) / 1e9;
	v->ended = st.ended;
	v->self_known = t->tally.self_pid && t->tally.follow_tasks;
	v->self_events = t->tally.self_events;
	keyed(t, v);
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
	if (t->tally.follow_tasks) {
		sched_model_copy(&t->frozen_now, &t->tally.model);
		t->frozen.model = &t->frozen_now;
	}
	if (t->tally.figures) {
		sched_model_copy(&t->frozen_fig, &t->tally.merged);
		t->frozen.figures = &t->frozen_fig;
	}
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
	keyed(t, v);
}

/* The row the tasks view's search is on, in the rows the view shows. */
static void find(struct top *t, struct view *v)
{
	struct task_table_opts o = v->tasks;
	struct task_row *rows;
	size_t n;
	long at;

	if (v->mode != VIEW_TASKS || !v->figures || !t->app.find[0])
		return;
	o.since_start = false;
	rows = task_table(v->figures, &o, &n);
	at = task_find(rows, n, t->app.find, &t->app.found_id,
		       t->app.find_next);
	free(rows);
	t->app.find_next = false;
	t->app.find_missed = at < 0;
	v->find_missed = at < 0;
	v->found_id = at < 0 ? -1 : t->app.found_id;
}

static void render(struct top *t, bool final)
{
	struct view v;
	sigset_t saved;

	top_view(t, &v);
	v.final = final;
	find(t, &v);
	/* the terminal or the pipe may not take it (^S, | less): a stop
	 * signal must still get through */
	saved = loop_signals_in();
	if (t->app.out == OUT_CURSES && ui_active()) {
		t->app.scroll = ui_draw(&v);
	} else if (t->app.out == OUT_BATCH && !t->output_failed &&
		   !batch_print(stdout, &v)) {
		t->status_printed = t->app.status_seq;
		t->blocks_printed++;
	} else if (t->app.out == OUT_BATCH && !t->output_failed) {
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

void top_render(struct top *t)
{
	render(t, false);
}

void top_render_final(struct top *t)
{
	if (t->app.out != OUT_BATCH || t->output_failed ||
	    !(t->app.opt->tasks || t->app.opt->latency) ||
	    !t->tally.figures)
		return;
	tally_flush(&t->tally);
	render(t, true);
}

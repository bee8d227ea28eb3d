// SPDX-License-Identifier: GPL-2.0
/* top_step.c - a running mode's work, a step at a time (see top_step.h). */
#include "top_step.h"

#include <string.h>

#include "controller.h"
#include "top_seek.h"
#include "top_show.h"

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
		   recorder_strerror(t->rec));
}

void top_drain(struct top *t)
{
	if (t->src.ops->drain)
		t->src.ops->drain(t->src.self);
	recording_failed(t);
}

void top_tick(struct top *t)
{
	struct source_state st;
	uint64_t now;

	t->src.ops->state(t->src.self, &st);
	/* a paused (or finished) replay stands where it is */
	if (t->recorded && (t->app.paused || st.ended) &&
	    t->app.out == OUT_CURSES)
		return;
	now = t->src.ops->tick(t->src.self, t->app.interval *
			       (t->recorded ? t->app.speed : 1));
	/* a recording is fed in time order up to now; live, the source
	 * says up to when every CPU's records have been read */
	tally_tick(&t->tally, now, t->src.ops->complete ?
		   t->src.ops->complete(t->src.self) : now);
	t->app.ticks++;
	if (t->rec && !t->rec_failed)
		recorder_flush(t->rec);
	recording_failed(t);
	if (!t->app.paused || t->app.out != OUT_CURSES)
		top_render(t);
	if (t->app.opt->count && t->app.ticks >= t->app.opt->count)
		t->app.quit = true;
	/* without a pidfd, the command's end is asked for at each tick */
	if (t->work && workload_ended(t->work))
		t->app.quit = true;
	t->src.ops->state(t->src.self, &st);
	if (t->recorded && st.ended && t->app.out != OUT_CURSES)
		t->app.quit = true;
}

unsigned int top_key(struct top *t, int key)
{
	unsigned int react = controller_key(&t->app, &t->src, key,
					    t->tally.st.ncpus);

	t->tally.hide_self = t->app.hide_self;
	if (react & REACT_ZERO)
		tally_zero(&t->tally);
	if (react & REACT_SEEK)
		top_seek(t, t->app.seek_ns);
	if (react & REACT_PAUSE)
		top_set_paused(t, t->app.paused);
	if (react & REACT_INTERVAL) {
		/* live: the next tick is an interval from now; a replay's
		 * next one stays where it is */
		if (t->recorded)
			t->loop.interval_ns = (uint64_t)(t->app.interval * 1e9);
		else
			loop_set_interval(&t->loop, t->app.interval);
		if (t->rec)
			recorder_grace(t->rec, t->loop.interval_ns);
	}
	return react;
}

void top_check_recording(struct top *t)
{
	recording_failed(t);
}

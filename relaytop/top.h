/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - relaytop's live mode and its replay (the default, -b, --record,
 * --replay): a source (the channel or a recording) feeding the tally
 * behind the views and, when recording, the recorder; the loop; the keys
 * through the controller; the screen or the batch blocks at each tick;
 * and the end: the recording finished, its summary printed.
 */
#ifndef RELAYTOP_TOP_H
#define RELAYTOP_TOP_H

#include <stdbool.h>

#include "app.h"
#include "feed.h"
#include "live_source.h"
#include "loop.h"
#include "options.h"
#include "record_sink.h"
#include "record_writer.h"
#include "replay_source.h"
#include "source.h"
#include "tally.h"
#include "view.h"

struct top {
	struct app app;
	struct tally tally;
	struct feed feed;
	bool recorded;			/* replaying a recording */
	struct live_source live;	/* !recorded */
	struct replay_source rp;	/* recorded */
	struct source src;		/* one of them */
	struct recorder *rec;		/* --record, or NULL */
	struct record_sink rsink;
	bool rec_failed;		/* a write of it failed: stopped */
	struct loop loop;
	struct view frozen;		/* live and paused: what is shown */
	struct stats frozen_st;		/* the statistics frozen.st shows */
	bool output_failed;		/* writing the batch output failed */
};

/* Set up the live mode: open (fatal if it cannot) the channel, create the
 * recording.  Nothing is drawn yet. */
void top_start(struct top *t, const struct options *opt,
	       enum output_mode out);
/* Set up a replay of opt->replay: 0, or -1 after saying why the file
 * cannot be shown. */
int top_start_replay(struct top *t, const struct options *opt,
		     enum output_mode out);
/* Read everything there is now (a tick does this too). */
void top_drain(struct top *t);
/* End the interval now: read, rates, draw. */
void top_tick(struct top *t);
/* Do what key means; returns REACT_* flags (controller.h). */
unsigned int top_key(struct top *t, int key);
/* Pause or resume the screen; a paused live screen stands still (the
 * statistics it shows are a copy) while reading goes on. */
void top_set_paused(struct top *t, bool paused);
/* Gather what to show. */
void top_view(const struct top *t, struct view *v);
/* Draw the screen or print the batch block. */
void top_render(struct top *t);
/* Final read, close the recording: the exit status. */
int top_finish(struct top *t);
void top_free(struct top *t);

/* The whole program in these modes: start, loop until the end, finish. */
int top_run(const struct options *opt);

#endif /* RELAYTOP_TOP_H */

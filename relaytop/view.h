/* SPDX-License-Identifier: GPL-2.0 */
/*
 * view.h - everything a screen or a batch block shows, gathered by top.c
 * from the application's state, its source and its tally, drawn by ui.c
 * (curses) or batch.c (plain text).
 */
#ifndef RELAYTOP_VIEW_H
#define RELAYTOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "control.h"
#include "sched_model.h"
#include "stats.h"

struct view {
	const char *source;		/* channel directory or recording */
	bool replay;			/* showing a recording */
	bool have_cfg;			/* cfg is known */
	struct control_state cfg;
	bool channel_ok;		/* buffers mapped (live) */
	const struct stats *st;
	/* who runs on each CPU (sched_model_current()), or NULL when not
	 * followed; live even while the figures are paused */
	const struct sched_model *model;
	double elapsed;			/* seconds since the start */
	double interval;		/* refresh interval, seconds */
	enum stats_sort sort;
	bool paused;
	bool show_help;
	bool ended;			/* replay: the recording is over */
	const char *status;		/* what just happened, or "" */
	bool status_error;
	const char *prompt;		/* a question awaiting a key, or NULL */
	bool self_known;		/* self_events is counted (live) */
	uint64_t self_events;		/* relaytop's own switches, wake-ups */
	bool self_hidden;		/* and they are left out of the figures */
	const char *record_path;	/* recording to this file, or NULL */
	uint64_t record_bytes;
	uint64_t record_events;
};

#endif /* RELAYTOP_VIEW_H */

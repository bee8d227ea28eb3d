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
#include "options.h"
#include "sched_model.h"
#include "stats.h"
#include "task_table.h"

enum view_mode {
	VIEW_CPUS,		/* per-CPU rates, drops, who runs */
	VIEW_TASKS,		/* the tasks table (task_table.h) */
	VIEW_LATENCY,		/* a latency per CPU, its histogram */
};

struct view {
	const char *source;		/* channel directory or recording */
	bool replay;			/* showing a recording */
	bool have_cfg;			/* cfg is known */
	struct control_state cfg;
	bool channel_ok;		/* buffers mapped (live) */
	const struct stats *st;
	/* who runs on each CPU (sched_model_current()), or NULL when not
	 * followed; a copy, as the figures, while a live screen is paused */
	const struct sched_model *model;
	/* the figures (tasks, latency): every CPU's records in time order,
	 * one interval behind; NULL when not followed */
	const struct sched_model *figures;
	enum view_mode mode;
	enum sched_lat_kind lat_kind;	/* the latency the screen shows */
	struct task_table_opts tasks;
	bool summary;			/* only the all row */
	unsigned int scroll;		/* first row shown */
	bool batch_tasks;		/* batch: a tasks block too (--tasks) */
	bool batch_latency;		/* batch: a latency block (--latency) */
	bool final;			/* the last block: since the start */
	enum output_format format;	/* batch: text, CSV or JSON */
	unsigned long block;		/* batch: blocks printed before */
	bool status_new;		/* batch: the status not printed yet */
	const char *filter;		/* "-p 12 -C 0-3", or "" */
	double elapsed;			/* seconds since the start */
	double interval;		/* refresh interval, seconds */
	double speed;			/* replay: recorded seconds a second */
	enum stats_sort sort;
	bool paused;
	bool show_help;
	bool ended;			/* replay: the recording is over */
	const char *status;		/* what just happened, or "" */
	bool status_error;
	const char *prompt;		/* a question awaiting a key, or NULL */
	int typing;			/* '/' search or '\\' filter typed */
	const char *find;		/* the search's text, or "" */
	bool find_missed;		/* it names no row */
	int32_t found_id;		/* the row it found, or -1 */
	bool self_known;		/* self_events is counted (live) */
	uint64_t self_events;		/* relaytop's own switches, wake-ups */
	bool self_hidden;		/* and they are left out of the figures */
	const char *record_path;	/* recording to this file, or NULL */
	uint64_t record_bytes;
	uint64_t record_events;
};

#endif /* RELAYTOP_VIEW_H */

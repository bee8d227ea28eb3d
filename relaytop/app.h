/* SPDX-License-Identifier: GPL-2.0 */
/*
 * app.h - the state of a running relaytop that the keys change and the
 * views show: the refresh interval, the sort, pause, help, the status
 * line, and whether and how it is to end.  The controller changes it
 * (controller.h); sources speak to its status line through their feed.
 */
#ifndef RELAYTOP_APP_H
#define RELAYTOP_APP_H

#include <stdbool.h>

#include "feed.h"
#include "options.h"
#include "stats.h"
#include "task_table.h"
#include "view.h"

enum output_mode {
	OUT_CURSES,		/* the live screen */
	OUT_BATCH,		/* text blocks on stdout */
	OUT_NONE,		/* nothing until the end (headless recording) */
};

struct app {
	const struct options *opt;
	enum output_mode out;
	double interval;	/* seconds */
	double speed;		/* a replay's seconds a second (--speed) */
	enum stats_sort sort;
	enum view_mode mode;	/* CPUs, tasks or latency */
	enum sched_lat_kind lat_kind;	/* wakeup or run-queue latency */
	struct task_table_opts tasks;	/* the tasks view's sort and choices */
	bool summary;		/* only the all row (top's 1) */
	unsigned int scroll;	/* the first row shown of a long table */
	bool paused;
	bool show_help;
	bool hide_self;		/* relaytop's own events left out of the view */
	int prompt;		/* a key waiting for its second key, or 0 */
	int confirm;		/* a key waiting for y or n, or 0 */
	/* the tasks view's search (/, F3) and filter (\, F4; its text is
	 * tasks.match): which text is being typed ('/' or '\', or 0) */
	int typing;
	char find[TASK_MATCH_MAX];	/* the search's text ("": none) */
	int32_t found_id;	/* the row it is on (followed as rows move) */
	bool find_next;		/* F3: on to the next match at the next draw */
	bool find_missed;	/* no row matches the search */
	char status[256];
	bool status_error;
	unsigned long status_seq;	/* how many times it was set */
	unsigned long ticks;
	int64_t seek_ns;	/* a replay's move asked for (REACT_SEEK) */
	bool quit;
	int exit_status;
};

void app_init(struct app *a, const struct options *opt, enum output_mode out);
/* Set the status line. */
__attribute__((format(printf, 3, 4)))
void app_status(struct app *a, bool error, const char *fmt, ...);
/* The status line as a sink of a source's FEED_STATUS events. */
struct feed_sink app_sink(struct app *a);

#endif /* RELAYTOP_APP_H */

// SPDX-License-Identifier: GPL-2.0
/* app.c - the running program's state and its status line (see app.h). */
#include "app.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void app_init(struct app *a, const struct options *opt, enum output_mode out)
{
	memset(a, 0, sizeof(*a));
	a->opt = opt;
	a->out = out;
	a->interval = opt->interval;
	a->speed = opt->speed > 0 ? opt->speed : 1;
	a->mode = opt->latency ? VIEW_LATENCY : opt->tasks ? VIEW_TASKS :
		  VIEW_CPUS;
	a->lat_kind = opt->latency_runq ? SCHED_LAT_RUNQ : SCHED_LAT_WAKEUP;
	a->tasks = (struct task_table_opts) { .cpu = -1,
					      .sort = TCOL_CPU };
	a->hide_self = opt->hide_self;
	if (opt->have_task_sort)
		a->tasks.sort = (enum task_col)opt->task_sort;
	if (opt->have_cpu_sort)
		a->sort = (enum stats_sort)opt->cpu_sort;
	/* a sort by one latency's column shows that latency */
	if (!task_col_shown(a->tasks.sort, a->lat_kind))
		a->lat_kind = a->lat_kind == SCHED_LAT_RUNQ ?
			      SCHED_LAT_WAKEUP : SCHED_LAT_RUNQ;
}

void app_status(struct app *a, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_error = error;
	a->status_seq++;
}

static void event(void *ctx, const struct feed_event *e)
{
	struct app *a = ctx;

	if (e->kind != FEED_STATUS || (e->quiet && a->status_error))
		return;
	app_status(a, e->error, "%s", e->text);
}

struct feed_sink app_sink(struct app *a)
{
	return (struct feed_sink) { .event = event, .ctx = a };
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - relaytop --report FILE: what a recording says of the tasks
 * and of how long woken tasks waited for a CPU, as perf sched latency
 * tells it: per task the switches, wakeups, migrations, involuntary
 * share, runtime and wakeup-to-switch-in latency (mean, max, missed);
 * per CPU and all the latency's count, missed, p50, p90, p99, max and
 * mean; and runqlat's log2 histogram.  The figures are the scheduler
 * model's (sched_model.h), fed the recording in time order, so they are
 * the ones a live or replayed view shows since its start.
 */
#ifndef RELAYTOP_REPORT_H
#define RELAYTOP_REPORT_H

#include <stdio.h>

#include "filter.h"

/* Report on path, counting what f lets through (NULL: all), the tasks
 * sorted by the run-queue latency's maximum (as perf sched latency);
 * returns the exit status (0, or 1 after saying why). */
int report_recording(const char *path, const struct filter *f, FILE *out);
/* The same with the tasks sorted by column sort (enum task_col). */
int report_recording_by(const char *path, const struct filter *f, int sort,
			FILE *out);

#endif /* RELAYTOP_REPORT_H */

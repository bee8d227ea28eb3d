/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_text.h - the scheduler model's figures as plain text, for the
 * batch blocks and --report: the tasks table (rates over an interval, or
 * counts over a recording) and the latency table (per CPU and all:
 * count, missed, p50, p90, p99, max, mean), and the log2 histogram as
 * runqlat draws it.  Columns are separated by blanks and hold plain
 * numbers (a task's name, which may hold blanks, is the last column), so
 * awk can read them.
 */
#ifndef RELAYTOP_SCHED_TEXT_H
#define RELAYTOP_SCHED_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "sched_model.h"
#include "task_table.h"

/* The tasks table: per-second rates over secs when secs > 0, else the
 * counts; at most max rows (0: all). */
void sched_text_tasks(FILE *out, const struct sched_model *m,
		      const struct task_table_opts *o, double secs,
		      size_t max);
/* The table of latency kind over the last interval (since_start: since
 * the start) for the CPUs the model's filter takes and has seen
 * (sched_model_cpu_seen()); the "all" row merges them; a "# late" line
 * after it counts the records that came out of time order.  Its header
 * names the kind: "wake" or "runq". */
void sched_text_latency(FILE *out, const struct sched_model *m,
			bool since_start, enum sched_lat_kind kind);
/* The distribution of latency kind of every CPU the filter takes
 * (since_start or the last interval), merged into h. */
void sched_text_merged(const struct sched_model *m, bool since_start,
		       enum sched_lat_kind kind, struct sched_hist *h);
/* What a kind is called ("wakeup latency", "run-queue latency"), and
 * what it spans, in words. */
const char *sched_text_lat_name(enum sched_lat_kind kind);
const char *sched_text_lat_span(enum sched_lat_kind kind);
/* The log2 histogram of h (microseconds), as runqlat prints it. */
void sched_text_histogram(FILE *out, const struct sched_hist *h);

#endif /* RELAYTOP_SCHED_TEXT_H */

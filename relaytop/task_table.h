/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_table.h - the rows of the tasks view, from the scheduler model: one
 * row a task (or a process: its threads summed, by the tgid the records
 * carry), over the last interval or since the start, of every CPU or of
 * the tasks last switched in on one, sorted by any column.  The screen,
 * the batch blocks and --report take their rows from here.
 */
#ifndef RELAYTOP_TASK_TABLE_H
#define RELAYTOP_TASK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched_model.h"

enum task_col {
	TCOL_PID,		/* pid (a process: its tgid) */
	TCOL_COMM,
	TCOL_SWITCHES,		/* switches/s */
	TCOL_WAKEUPS,		/* wakeups/s */
	TCOL_MIGRATIONS,	/* migrations/s */
	TCOL_INVOL,		/* involuntary share of switch-outs */
	TCOL_CPU,		/* CPU share: runtime / span */
	TCOL_LAST,		/* the CPU it was last switched in on */
	TCOL_LAT_AVG,		/* wakeup latency, mean */
	TCOL_LAT_MAX,
	TCOL_RQ_AVG,		/* run-queue latency, mean */
	TCOL_RQ_MAX,
	TCOL_NR
};

struct task_row {
	int32_t id;		/* pid, or tgid when grouped */
	char comm[SCHED_RELAY_COMM_LEN + 1];
	unsigned int threads;	/* grouped: how many; else 1 */
	struct sched_counts c;
	bool have_cpu;
	unsigned int last_cpu;
};

#define TASK_MATCH_MAX 32	/* bytes of a filter's text, NUL included */

struct task_table_opts {
	bool since_start;	/* the since-start counts, not the interval's */
	int cpu;		/* -1: all; else tasks last switched in on it */
	bool group;		/* one row a process */
	enum task_col sort;
	bool reverse;
	/* only the rows this text names (task_find.h); "": all */
	char match[TASK_MATCH_MAX];
};

/* The rows (allocated, *n of them; free() them), sorted: the busiest
 * first for the figures, by number or name ascending, or the other way
 * round when reverse.  Tasks with nothing counted, and rows the match
 * leaves out, are left out. */
struct task_row *task_table(const struct sched_model *m,
			    const struct task_table_opts *o, size_t *n);
/* A column's name as the header shows it, and its full name. */
const char *task_col_name(enum task_col c);
const char *task_col_title(enum task_col c);
/* The column a name means (its header, case aside, with or without /s
 * and %, or its name in the batch tables: switches, wakeups,
 * migrations), or -1. */
int task_col_parse(const char *name);
/* Whether the tasks view shows column c beside latency kind (the
 * other latency's columns are not shown). */
bool task_col_shown(enum task_col c, enum sched_lat_kind kind);
/* Whether row r is one text names, for the search and the filter typed
 * on the screen: its name holds the text (letters in either case; the
 * name as the screen shows it, escaped), or, for a text of digits, its
 * id is that number.  "" names every row. */
bool task_row_matches(const struct task_row *r, const char *text);
/* The involuntary share of a row's switch-outs, 0..1 (0: none). */
double task_row_invol(const struct task_row *r);

#endif /* RELAYTOP_TASK_TABLE_H */

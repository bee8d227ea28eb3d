// SPDX-License-Identifier: GPL-2.0
/* ui_help.c - the help screen (see ui_help.h). */
#include "ui_help.h"

#include <stdio.h>

#include "keys.h"
#include "ui_paint.h"
#include "util.h"

#define HELP_LINES 64
#define KEY_WIDTH (1 + KEYS_LABEL_MAX + 1 + KEYS_HELP_MAX + 1)	/* 41 */

/* What the columns of each view mean: lines of 79 characters at most. */
static const char *const cpu_columns[] = {
	"DROPPED  events the producer dropped (buffer full), since reset or z",
	"DROP/s   dropped and lost per second, red while it happens",
	"LOST     events overwritten before relaytop read them",
	"FILL     how far relaytop was behind, at worst, in the interval",
	"MIX      S switch W wakeup N wakeup_new M migrate F fork X exit K waking",
	"RUNNING  the task on the CPU now (idle; ?: not known since a gap)",
	"HISTORY  the event rate, the newest on the right",
};

static const char *const task_columns[] = {
	"SW/s WAKE/s MIG/s  switched in, woken, migrated, per second",
	"INV%     its switch-outs that left it runnable (preempted, yielded)",
	"CPU%     time it ran, of one CPU     LAST  the CPU it last ran on",
	"WAKAVG WAKMAX  wakeup latency: sched_waking (or wakeup) to switch-in",
	"RQAVG RQMAX    run-queue latency (L): wakeup or preemption to switch-in",
	"The last interval, one behind the CPU table; a new task with a pid",
	"starts its row again.  c: the tasks last switched in on one CPU",
};

static const char *const latency_columns[] = {
	"The wakeup latency (L: the run-queue latency, as runqlat and perf",
	"sched latency count it) per CPU switched in on, the last interval",
	"COUNT    waits that ended      MISSED  waits whose switch-in fell in a gap",
	"P50 P90 P99  at most 1/16 above the true value; MAX exact; AVG the mean",
	"late     (under all) records out of time order, since the start or z",
	"usecs    runqlat's log2 histogram of all CPUs, or of the one c chose",
};

unsigned int ui_draw_help(enum view_mode mode, unsigned int scroll, int top,
			  int bottom)
{
	size_t n, ncols = mode == VIEW_TASKS ? ARRAY_SIZE(task_columns) :
			  mode == VIEW_LATENCY ? ARRAY_SIZE(latency_columns) :
			  ARRAY_SIZE(cpu_columns);
	const char *const *cols = mode == VIEW_TASKS ? task_columns :
				  mode == VIEW_LATENCY ? latency_columns :
				  cpu_columns;
	const struct key_binding *keys = keys_table(&n);
	const struct key_binding *shown[HELP_LINES];
	char lines[HELP_LINES][2 * KEY_WIDTH + 1];
	bool bold[HELP_LINES] = { false };
	unsigned int total = 0, nkeys = 0, rows, first, room;
	unsigned int per_line = COLS >= 2 * KEY_WIDTH - 2 ? 2 : 1;
	int y = top;

	room = bottom > top ? (unsigned int)(bottom - top) : 0;
	for (size_t i = 0; i < n && nkeys < HELP_LINES; i++)
		if (keys[i].label)
			shown[nkeys++] = &keys[i];
	bold[total] = true;
	snprintf(lines[total++], sizeof(lines[0]), "Keys (h, F1 or Esc: back)");
	/* down the first column, then the second */
	rows = (nkeys + per_line - 1) / per_line;
	for (unsigned int r = 0; r < rows && total < HELP_LINES; r++) {
		int at = 0;

		for (unsigned int c = 0; c < per_line; c++) {
			unsigned int k = c * rows + r;

			if (k >= nkeys)
				break;
			at += snprintf(lines[total] + at,
				       sizeof(lines[0]) - (size_t)at,
				       " %-*s %-*s ", KEYS_LABEL_MAX,
				       shown[k]->label, KEYS_HELP_MAX,
				       shown[k]->help);
		}
		total++;
	}
	lines[total++][0] = '\0';
	bold[total] = true;
	snprintf(lines[total++], sizeof(lines[0]), "%s",
		 mode == VIEW_TASKS ? "The tasks view" :
		 mode == VIEW_LATENCY ? "The latency view" :
		 "The CPU table (the help of t and l tells their columns)");
	for (size_t i = 0; i < ncols && total < HELP_LINES; i++)
		snprintf(lines[total++], sizeof(lines[0]), " %s", cols[i]);
	if (total > room && room > 1)
		room--;		/* for the line that says there is more */
	first = paint_first_row(scroll, total, room);
	for (unsigned int row = first; row < first + room && row < total; row++) {
		if (bold[row])
			attron(A_BOLD);
		paint_put(y++, 0, "%s", lines[row]);
		if (bold[row])
			attroff(A_BOLD);
	}
	if (first + room < total && room) {
		attron(A_REVERSE);
		paint_put(bottom - 1, 2, " %u more lines: Down or PgDn ",
			  total - first - room);
		attroff(A_REVERSE);
	}
	return first;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - what each key means: a table of keys, the command each gives
 * and its help text (the help screen is drawn from it).  Keys follow htop
 * where it has one: q and F10 quit, h, ? and F1 help, / and F3 search,
 * \ and F4 filter, F6 sorts, I inverts the sort, arrows and pages
 * scroll; top's 1 shows the summary only; z zeroes relaytop's own
 * counters (perf top's z).  p and space pause (htop tags with space and
 * top refreshes: relaytop has neither, and pausing is what a live trace
 * needs most).  What a command does is the controller's (controller.h).
 */
#ifndef RELAYTOP_KEYS_H
#define RELAYTOP_KEYS_H

#include <stddef.h>

/* Key codes beyond ASCII, as ui_read_key() returns them. */
#define KEY_CODE_RESIZE	0x10000
#define KEY_CODE_F(n)	(0x10000 + (n))		/* F1 to F12 */
#define KEY_CODE_UP	0x10020
#define KEY_CODE_DOWN	0x10021
#define KEY_CODE_PGUP	0x10022
#define KEY_CODE_PGDN	0x10023
#define KEY_CODE_HOME	0x10024
#define KEY_CODE_END	0x10025
#define KEY_CODE_LEFT	0x10026
#define KEY_CODE_RIGHT	0x10027
#define KEY_CODE_BACKSPACE 0x10028
#define KEY_CODE_ENTER	0x10029
#define KEY_CODE_CTRL_L	0x0c
#define KEY_CODE_ESC	0x1b

enum command {
	CMD_NONE,		/* not a key of the table */
	CMD_QUIT,
	CMD_HELP,		/* show or hide the help */
	CMD_PAUSE,		/* pause or resume the screen */
	CMD_RESET,		/* reset the channel */
	CMD_SLOWER,		/* refresh less often */
	CMD_FASTER,		/* refresh more often */
	CMD_SORT,		/* the next sort order */
	CMD_EVENTS,		/* ask which event type to turn on or off */
	CMD_OVERWRITE,		/* toggle overwrite mode */
	CMD_REDRAW,		/* repaint the whole screen */
	CMD_TASKS,		/* the tasks view, or back to the CPUs */
	CMD_LATENCY,		/* the latency view, or back to the CPUs */
	CMD_REVERSE,		/* reverse the tasks' sort */
	CMD_GROUP,		/* tasks by process, or by thread */
	CMD_CPU,		/* the next CPU to show tasks and latency of */
	CMD_SUMMARY,		/* only the all row, or every CPU */
	CMD_ZERO,		/* zero relaytop's own counters */
	CMD_UP,			/* scroll a row up */
	CMD_DOWN,
	CMD_PGUP,		/* a page up */
	CMD_PGDN,
	CMD_HOME,		/* to the first row */
	CMD_SELF,		/* hide or show relaytop's own events */
	CMD_LAT_KIND,		/* wakeup or run-queue latency */
	CMD_FIND,		/* search the tasks (type the text) */
	CMD_FIND_NEXT,		/* the next match, or a new search */
	CMD_FILTER,		/* filter the tasks (type the text) */
	CMD_SEEK_BACK,		/* a replay: 10 s back */
	CMD_SEEK_FORWARD,	/* 10 s on */
	CMD_SEEK_BACK_MORE,	/* a minute back */
	CMD_SEEK_FORWARD_MORE,	/* a minute on */
};

struct key_binding {
	int key;
	const char *label;	/* how the help screen shows the key */
	enum command cmd;
	const char *help;	/* NULL: another key of the one above */
};

/* The help's widths (two columns fit 80). */
enum {
	KEYS_LABEL_MAX = 7,
	KEYS_HELP_MAX = 31,
};

/* The table, for the help screen. */
const struct key_binding *keys_table(size_t *n);
/* The command of key, or CMD_NONE. */
enum command keys_command(int key);

#endif /* RELAYTOP_KEYS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - what each key means: a table of keys, the command each gives
 * and its help text (the help screen is drawn from it).  Keys follow top
 * and htop where they have one: q and F10 quit, h, ? and F1 help, space
 * pauses, F6 sorts, I inverts the sort, 1 shows the summary only, z
 * zeroes relaytop's own counters (perf top), arrows and pages scroll.
 * What a command does is the controller's (controller.h).
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
};

struct key_binding {
	int key;
	const char *label;	/* how the help screen shows the key */
	enum command cmd;
	const char *help;	/* NULL: another key of the one above */
};

/* The table, for the help screen. */
const struct key_binding *keys_table(size_t *n);
/* The command of key, or CMD_NONE. */
enum command keys_command(int key);

#endif /* RELAYTOP_KEYS_H */

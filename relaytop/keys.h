/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - what each key means: a table of keys, the command each gives
 * and its help text (the help screen is drawn from it).  Keys follow top
 * and htop where they have one: q quits, h and ? help, space pauses.
 * What a command does is the controller's (controller.h).
 */
#ifndef RELAYTOP_KEYS_H
#define RELAYTOP_KEYS_H

#include <stddef.h>

/* Key codes beyond ASCII, as ui_read_key() returns them. */
#define KEY_CODE_RESIZE	0x10000
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
	CMD_SELF,		/* hide or show relaytop's own events */
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - what each key does, as a table of keys, actions and help text
 * (the help screen is drawn from it).  Actions return what needs redrawing.
 */
#ifndef RELAYTOP_KEYS_H
#define RELAYTOP_KEYS_H

#include <stddef.h>

struct session;

/* Key codes beyond ASCII, as ui_read_key() returns them. */
#define KEY_CODE_RESIZE	0x10000
#define KEY_CODE_CTRL_L	0x0c
#define KEY_CODE_ESC	0x1b

struct key_binding {
	int key;
	const char *label;	/* how the help screen shows the key */
	unsigned int (*action)(struct session *s);
	const char *help;
};

/* The table, for the help screen. */
const struct key_binding *keys_table(size_t *n);

/* Do what key means in session s; returns REDRAW flags. */
unsigned int keys_dispatch(struct session *s, int key);

/* The refresh interval after '+' or '-' from cur (seconds). */
double keys_next_interval(double cur, int direction);

/* The prompt shown while a second key is awaited, or NULL. */
const char *keys_prompt(const struct session *s);

#endif /* RELAYTOP_KEYS_H */

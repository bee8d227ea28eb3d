/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui.h - the curses screen.  ui.c is the only owner of terminal state:
 * ui_init() takes the terminal (falling back to a plain terminal type when
 * TERM is unknown), ui_done() gives it back, and a fatal error on the way
 * calls ui_done() before its message is printed.  A signal that ends
 * relaytop at once (SIGQUIT, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL)
 * gives it back too, then ends it as it would have.  colors: false for
 * NO_COLOR or --no-color.
 */
#ifndef RELAYTOP_UI_H
#define RELAYTOP_UI_H

#include <stdbool.h>

#include "view.h"

/*
 * Take the terminal.  Returns 0, or -1 when no terminal type works (then
 * nothing was changed and the caller prints text instead); *note gets a
 * message worth showing (a TERM fallback) or NULL.
 */
int ui_init(const char **note, bool colors);
void ui_done(void);
bool ui_active(void);

/* Draw v; returns the first row shown of a table longer than the screen
 * (v->scroll, or less when that would leave the screen part empty). */
unsigned int ui_draw(const struct view *v);
/* Make the next ui_draw() repaint every cell, not only what changed: for a
 * screen that something else wrote on, or after a resize. */
void ui_repaint(void);

/* The next key typed (keys.h codes), or -1 when none is pending. */
int ui_read_key(void);

#endif /* RELAYTOP_UI_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui_paint.h - what the curses screens (ui.c, ui_sched.c) draw with: text
 * cut at the right edge, colour pairs (plain attributes without colours:
 * a terminal that has none, NO_COLOR or --no-color), whether the
 * terminal takes UTF-8, a table's header bar, and durations in a few
 * characters.  With ui.c and ui_sched.c, the only files that know curses.
 */
#ifndef RELAYTOP_UI_PAINT_H
#define RELAYTOP_UI_PAINT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	PAIR_HEADER = 1,
	PAIR_WARN,		/* yellow */
	PAIR_BAD,		/* red */
	PAIR_SPARK,
	PAIR_TYPE0,		/* one per event type */
};

/* Colours on (when the terminal has them) or off; UTF-8 or not. */
void paint_setup(bool colors, bool utf8);
bool paint_utf8(void);
/* The attribute of colour pair p, or A_NORMAL without colours. */
attr_t paint_pair(int p);
/* printf at (y, x), cut at the right edge. */
__attribute__((format(printf, 3, 4)))
void paint_put(int y, int x, const char *fmt, ...);
/* A reverse-video header bar on line y with text. */
void paint_bar(int y, const char *text);
/* The first of rows to show in room lines, scrolled to scroll: a
 * table's end stays at the bottom of the screen. */
unsigned int paint_first_row(unsigned int scroll, unsigned int rows,
			     unsigned int room);
/* ns in at most 7 characters: "850ns", "12.3us", "4.56ms", "1.20s". */
void paint_ns(char *buf, size_t len, uint64_t ns);

#endif /* RELAYTOP_UI_PAINT_H */

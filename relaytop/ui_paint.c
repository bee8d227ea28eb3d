// SPDX-License-Identifier: GPL-2.0
/* ui_paint.c - the screens' drawing helpers (see ui_paint.h). */
#include "ui_paint.h"

#include <stdarg.h>
#include <stdio.h>

static struct {
	bool colors;
	bool utf8;
} paint;

void paint_setup(bool colors, bool utf8)
{
	paint.colors = colors;
	paint.utf8 = utf8;
}

bool paint_utf8(void)
{
	return paint.utf8;
}

attr_t paint_pair(int p)
{
	return paint.colors ? COLOR_PAIR(p) : A_NORMAL;
}

void paint_put(int y, int x, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (y >= LINES || x >= COLS || y < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	mvaddnstr(y, x, buf, COLS - x);
}

void paint_bar(int y, const char *text)
{
	attron(A_REVERSE | paint_pair(PAIR_HEADER));
	mvhline(y, 0, ' ', COLS);
	paint_put(y, 0, "%s", text);
	attroff(A_REVERSE | paint_pair(PAIR_HEADER));
}

void paint_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%uns", (unsigned int)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
}

unsigned int paint_first_row(unsigned int scroll, unsigned int rows,
			     unsigned int room)
{
	if (rows <= room)
		return 0;
	return scroll > rows - room ? rows - room : scroll;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - the curses screen; the only file that knows about curses.
 *
 *   relaytop  /sys/kernel/sched_relay   gen 3   up 1:23   every 1s
 *   8 x 64K per CPU  no-overwrite  enabled  switch wakeup wakeup_new ...
 *
 *   CPU  EVENTS/s  BYTES/s DROPPED DROP/s   LOST FILL MIX          HISTORY
 *     0     12.3K     790K       0      0      0   3% SSSSSWWWWMMN ▂▃▅▇▆
 *   ...
 *   all     49.1K    3.07M       0      0      0   3% SSSSSWWWWMMN ▂▃▅▇▆
 *
 *   status line
 *
 * Drops and losses are drawn in red while they happen (yellow once they
 * stopped); fill is yellow above half, red above three quarters.
 */
#include "ui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "keys.h"
#include "util.h"

enum {
	PAIR_HEADER = 1,
	PAIR_WARN,		/* yellow */
	PAIR_BAD,		/* red */
	PAIR_SPARK,
	PAIR_TYPE0,		/* one per event type */
};

static struct {
	SCREEN *screen;
	bool colors;
	bool utf8;
	char note[160];
} ui;

bool ui_active(void)
{
	return ui.screen != NULL;
}

void ui_done(void)
{
	if (!ui.screen)
		return;
	set_fatal_hook(NULL);
	curs_set(1);
	endwin();
	delscreen(ui.screen);
	ui.screen = NULL;
	fflush(stdout);
}

/* TERM, or a type every terminal understands enough of. */
static SCREEN *open_screen(void)
{
	static const char *const fallbacks[] = { "vt100", "ansi", "dumb" };
	const char *term = getenv("TERM");
	SCREEN *scr = NULL;

	if (term && *term)
		scr = newterm(term, stdout, stdin);
	for (size_t i = 0; !scr && i < ARRAY_SIZE(fallbacks); i++) {
		scr = newterm(fallbacks[i], stdout, stdin);
		if (scr)
			snprintf(ui.note, sizeof(ui.note),
				 "TERM=%s is not known here: using %s",
				 term && *term ? term : "(unset)",
				 fallbacks[i]);
	}
	return scr;
}

int ui_init(const char **note)
{
	const char *codeset;

	*note = NULL;
	ui.note[0] = '\0';
	if (setlocale(LC_ALL, "") && (codeset = nl_langinfo(CODESET)))
		ui.utf8 = !strcmp(codeset, "UTF-8");
	ui.screen = open_screen();
	if (!ui.screen) {
		snprintf(ui.note, sizeof(ui.note), "no usable terminal type "
			 "(TERM=%s)", getenv("TERM") ? getenv("TERM") : "");
		*note = ui.note;
		return -1;
	}
	set_term(ui.screen);
	set_fatal_hook(ui_done);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	ui.colors = has_colors();
	if (ui.colors) {
		static const short type_colors[SCHED_RELAY_NR_EVENTS] = {
			COLOR_CYAN, COLOR_GREEN, COLOR_YELLOW, COLOR_MAGENTA,
			COLOR_BLUE, COLOR_RED, COLOR_WHITE,
		};

		start_color();
		use_default_colors();
		init_pair(PAIR_HEADER, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
		init_pair(PAIR_BAD, COLOR_RED, -1);
		init_pair(PAIR_SPARK, COLOR_GREEN, -1);
		for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
			init_pair((short)(PAIR_TYPE0 + t), type_colors[t], -1);
	}
	if (ui.note[0])
		*note = ui.note;
	return 0;
}

int ui_read_key(void)
{
	int c;

	if (!ui.screen)
		return -1;
	c = getch();
	if (c == ERR)
		return -1;
	if (c == KEY_RESIZE)
		return KEY_CODE_RESIZE;
	return c;
}

static attr_t pair(int p)
{
	return ui.colors ? COLOR_PAIR(p) : A_NORMAL;
}

/* printf at (y, x), cut at the right edge. */
__attribute__((format(printf, 3, 4)))
static void put(int y, int x, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (y >= LINES || x >= COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	mvaddnstr(y, x, buf, COLS - x);
}

static void draw_header(const struct view *v)
{
	char elapsed[32], events[128], buf[64];

	fmt_elapsed(elapsed, sizeof(elapsed), v->elapsed);
	attron(A_BOLD);
	put(0, 0, "relaytop");
	attroff(A_BOLD);
	if (v->replay)
		put(0, 9, " replay of %s   at %s   every %gs%s", v->source,
		    elapsed, v->interval, v->ended ? "   (the end)" : "");
	else if (v->have_cfg)
		put(0, 9, " %s   gen %llu   up %s   every %gs", v->source,
		    (unsigned long long)v->cfg.generation, elapsed,
		    v->interval);
	else
		put(0, 9, " %s   up %s   every %gs", v->source, elapsed,
		    v->interval);
	if (v->self_known) {	/* after the line above, cut at the edge */
		int y, x;

		getyx(stdscr, y, x);
		if (y == 0)
			put(0, x, "   self %llu%s",
			    (unsigned long long)v->self_events,
			    v->self_hidden ? " (hidden)" : "");
	}
	if (v->paused) {
		attron(A_REVERSE);
		put(0, COLS > 8 ? COLS - 8 : 0, " PAUSED ");
		attroff(A_REVERSE);
	}
	if (!v->have_cfg) {
		put(1, 0, "%s", v->replay ? "" : "no channel");
		return;
	}
	if (v->cfg.events == SCHED_RELAY_ALL_EVENTS)
		snprintf(events, sizeof(events), "all");
	else
		events_format(v->cfg.events, " ", events, sizeof(events));
	fmt_size(buf, sizeof(buf), v->cfg.geom.subbuf_size);
	put(1, 0, "%u x %s per CPU  %s  %s  events: %s",
	    v->cfg.geom.n_subbufs, buf,
	    v->cfg.overwrite ? "overwrite" : "no-overwrite",
	    v->cfg.enabled ? "enabled" : "DISABLED", events);
	if (v->record_path) {
		fmt_count(buf, sizeof(buf), (double)v->record_bytes, true);
		attron(A_BOLD | pair(PAIR_BAD));
		put(2, 0, "recording");
		attroff(A_BOLD | pair(PAIR_BAD));
		put(2, 10, "to %s: %llu events, %sB", v->record_path,
		    (unsigned long long)v->record_events, buf);
	}
}

/* The event-type mix as width letters, each type's share, coloured. */
static void draw_mix(int y, int x, int width, const struct cpu_stats *c)
{
	uint64_t total = c->mix_other;
	int cols[SCHED_RELAY_NR_EVENTS], used = 0;

	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		total += c->mix[t];
	if (!total || y >= LINES || x >= COLS)
		return;
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++) {
		cols[t] = (int)((double)c->mix[t] * width / (double)total + 0.5);
		if (c->mix[t] && !cols[t])
			cols[t] = 1;	/* a type present is never invisible */
		used += cols[t];
	}
	while (used > width) {	/* trim the widest */
		int w = 0;

		for (int t = 1; t < SCHED_RELAY_NR_EVENTS; t++)
			if (cols[t] > cols[w])
				w = t;
		cols[w]--;
		used--;
	}
	move(y, x);
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++) {
		char letter = (char)(event_type((unsigned int)t)->key - 'a' + 'A');

		attron(pair(PAIR_TYPE0 + t));
		for (int i = 0; i < cols[t] && x + i < COLS; i++)
			addch((chtype)letter);
		attroff(pair(PAIR_TYPE0 + t));
		x += cols[t];
	}
}

static void draw_spark(int y, int x, int width, const struct cpu_stats *c,
		       double scale)
{
	static const char *const blocks[] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585",
		"\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = " .:-=+*#%@";
	unsigned char levels[STATS_HISTORY];
	unsigned int n = ui.utf8 ? ARRAY_SIZE(blocks) : sizeof(ascii) - 1;

	if (width <= 0 || y >= LINES || x >= COLS)
		return;
	if (width > STATS_HISTORY)
		width = STATS_HISTORY;
	stats_sparkline(c, scale, (unsigned int)width, n, levels);
	move(y, x);
	attron(pair(PAIR_SPARK));
	for (int i = 0; i < width && x + i < COLS; i++) {
		if (ui.utf8)
			addstr(blocks[levels[i]]);
		else
			addch((chtype)ascii[levels[i]]);
	}
	attroff(pair(PAIR_SPARK));
}

#define MIX_WIDTH 12

static void draw_row(int y, const char *name, const struct cpu_stats *c,
		     double scale, bool bold)
{
	char ev[16], by[16], dr[16], drs[16], lo[16];
	int fill = (int)(c->fill * 100 + 0.5);
	attr_t drop_attr = A_NORMAL, fill_attr = A_NORMAL, b = bold ? A_BOLD : 0;
	int x;

	fmt_count(ev, sizeof(ev), c->events_rate, false);
	fmt_count(by, sizeof(by), c->bytes_rate, true);
	fmt_count(dr, sizeof(dr), (double)c->dropped, false);
	fmt_count(drs, sizeof(drs), c->dropped_rate + c->lost_rate, false);
	fmt_count(lo, sizeof(lo), (double)c->lost, false);
	if (c->dropped_rate > 0 || c->lost_rate > 0)
		drop_attr = A_BOLD | pair(PAIR_BAD);
	else if (c->dropped || c->lost)
		drop_attr = pair(PAIR_WARN);
	if (fill >= 75)
		fill_attr = A_BOLD | pair(PAIR_BAD);
	else if (fill >= 50)
		fill_attr = pair(PAIR_WARN);

	attron(b);
	put(y, 0, "%3s %8s %8s", name, ev, by);
	attroff(b);
	attron(drop_attr | b);
	put(y, 21, " %7s %6s %6s", dr, drs, lo);
	attroff(drop_attr | b);
	attron(fill_attr | b);
	put(y, 43, " %3d%%", fill);
	attroff(fill_attr | b);
	x = 49;
	draw_mix(y, x, MIX_WIDTH, c);
	x += MIX_WIDTH + 1;
	draw_spark(y, x, COLS - x, c, scale);
}

static void draw_table(const struct view *v, int top, int bottom)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order));
	unsigned int n = stats_order(v->st, v->sort, order);
	int spark_width = COLS - (49 + MIX_WIDTH + 1);
	double scale = stats_history_max(v->st, spark_width > 0 ?
					 (unsigned int)spark_width : 1);
	int y = top + 1, room = bottom - top - 2;	/* minus header, total */

	attron(A_REVERSE | pair(PAIR_HEADER));
	mvhline(top, 0, ' ', COLS);
	put(top, 0, "CPU %8s %8s %7s %6s %6s %4s %-*s HISTORY", "EVENTS/s",
	    "BYTES/s", "DROPPED", "DROP/s", "LOST", "FILL", MIX_WIDTH, "MIX");
	if (v->sort != SORT_CPU)
		put(top, COLS > 20 ? COLS - 18 : 0, " sort: %s",
		    stats_sort_name(v->sort));
	attroff(A_REVERSE | pair(PAIR_HEADER));
	for (unsigned int i = 0; i < n && (int)i < room; i++, y++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", order[i]);
		draw_row(y, name, &v->st->cpu[order[i]], scale, false);
	}
	if ((int)n > room && room > 0)
		put(y - 1, 0, "... %u more CPUs (a larger terminal shows them)",
		    n - (unsigned int)room + 1);
	/* the total's history has its own scale: it sums the CPUs */
	draw_row(y, "all", &v->st->total,
		 stats_cpu_history_max(&v->st->total, spark_width > 0 ?
				       (unsigned int)spark_width : 1), true);
	free(order);
}

static void draw_help(void)
{
	size_t n;
	const struct key_binding *keys = keys_table(&n);
	int y = 4;

	attron(A_BOLD);
	put(y++, 2, "Keys");
	attroff(A_BOLD);
	for (size_t i = 0; i < n; i++) {
		if (!keys[i].label)
			continue;
		put(y++, 4, "%-8s %s", keys[i].label, keys[i].help);
	}
	y++;
	attron(A_BOLD);
	put(y++, 2, "Columns");
	attroff(A_BOLD);
	put(y++, 4, "DROPPED  events the producer dropped (buffer full), since the reset");
	put(y++, 4, "DROP/s   dropped and lost per second, in red while it happens");
	put(y++, 4, "LOST     events overwritten before relaytop read them");
	put(y++, 4, "FILL     how far relaytop was behind, at worst, in the interval");
	put(y, 4, "MIX      ");
	for (int t = 0, x = 13; t < SCHED_RELAY_NR_EVENTS; t++) {
		const struct event_type *e = event_type((unsigned int)t);

		attron(pair(PAIR_TYPE0 + t));
		put(y, x, "%c=%s ", e->key - 'a' + 'A', e->name);
		attroff(pair(PAIR_TYPE0 + t));
		x += (int)strlen(e->name) + 3;
	}
	y += 2;
	put(y, 2, "h, ? or Esc returns");
}

void ui_repaint(void)
{
	if (ui.screen)
		clearok(curscr, TRUE);
}

void ui_draw(const struct view *v)
{
	int status_y = LINES - 1;

	if (!ui.screen)
		return;
	erase();
	draw_header(v);
	if (v->show_help)
		draw_help();
	else
		draw_table(v, 4, status_y - 1);
	if (v->prompt) {
		attron(A_BOLD);
		put(status_y, 0, "%s", v->prompt);
		attroff(A_BOLD);
	} else if (v->status && v->status[0]) {
		attr_t a = v->status_error ? A_BOLD | pair(PAIR_BAD) : A_NORMAL;

		attron(a);
		put(status_y, 0, "%s", v->status);
		attroff(a);
	} else {
		put(status_y, 0, "h: help  q: quit");
	}
	refresh();
}

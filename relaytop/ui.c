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
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "events.h"
#include "keys.h"
#include "text.h"
#include "ui_help.h"
#include "ui_paint.h"
#include "ui_sched.h"
#include "util.h"

/* Signals that end relaytop at once (it does not catch them to stop
 * cleanly, as it does SIGINT, SIGTERM and SIGHUP): the terminal is given
 * back before they do. */
static const int deadly[] = { SIGQUIT, SIGSEGV, SIGABRT, SIGBUS, SIGFPE,
			      SIGILL };

static struct {
	SCREEN *screen;
	char note[160];
	/* what a deadly signal's handler writes to give the terminal back
	 * (curses is no use in a signal handler), and the modes it sets */
	char restore[256];
	size_t restore_len;
	struct termios modes;
	bool have_modes;
	struct sigaction old[ARRAY_SIZE(deadly)];
} ui;

/* Give the terminal back, as endwin() would: async-signal-safe. */
static void give_back_terminal(void)
{
	ssize_t n = write(STDOUT_FILENO, ui.restore, ui.restore_len);

	(void)n;
	if (ui.have_modes)
		tcsetattr(STDIN_FILENO, TCSANOW, &ui.modes);
}

static void on_deadly(int sig)
{
	int saved = errno;

	for (size_t i = 0; i < ARRAY_SIZE(deadly); i++) {
		void (*old)(int) = ui.old[i].sa_handler;

		/* SIGBUS: the channel's guard first (channel.h): a mapping
		 * that went away jumps back there, and the screen goes on */
		if (deadly[i] == sig && sig == SIGBUS &&
		    !(ui.old[i].sa_flags & SA_SIGINFO) && old != SIG_DFL &&
		    old != SIG_IGN)
			old(sig);
	}
	give_back_terminal();
	/* and die of it as if it was not caught (when the handler returns) */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

/* Append a terminfo string (tigetstr()'s) to the restore string. */
static void restore_cap(const char *value)
{
	size_t len;

	if (!value || value == (const char *)-1)
		return;
	len = strlen(value);
	if (ui.restore_len + len >= sizeof(ui.restore))
		return;
	memcpy(ui.restore + ui.restore_len, value, len);
	ui.restore_len += len;
}

static void catch_deadly(void)
{
	struct sigaction sa;

	ui.restore_len = 0;
	/* as endwin(): attributes off, the cursor to the last line, the
	 * keypad and the cursor as they were, the screen before ours */
	restore_cap(tigetstr("sgr0"));
	if (tigetstr("cup") && tigetstr("cup") != (char *)-1)
		restore_cap(tiparm(tigetstr("cup"), LINES - 1, 0));
	restore_cap(tigetstr("rmkx"));
	restore_cap(tigetstr("cnorm"));
	restore_cap(tigetstr("rmcup"));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deadly;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(deadly); i++)
		sigaction(deadly[i], &sa, &ui.old[i]);
}

static void release_deadly(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(deadly); i++)
		sigaction(deadly[i], &ui.old[i], NULL);
}

bool ui_active(void)
{
	return ui.screen != NULL;
}

void ui_done(void)
{
	if (!ui.screen)
		return;
	set_fatal_hook(NULL);
	release_deadly();
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

int ui_init(const char **note, bool colors)
{
	const char *codeset;
	bool utf8 = false;

	*note = NULL;
	ui.note[0] = '\0';
	if (setlocale(LC_ALL, "") && (codeset = nl_langinfo(CODESET)))
		utf8 = !strcmp(codeset, "UTF-8");
	/* the modes to give back if curses cannot (see on_deadly()) */
	ui.have_modes = !tcgetattr(STDIN_FILENO, &ui.modes);
	ui.screen = open_screen();
	if (!ui.screen) {
		snprintf(ui.note, sizeof(ui.note), "no usable terminal type "
			 "(TERM=%s)", getenv("TERM") ? getenv("TERM") : "");
		*note = ui.note;
		return -1;
	}
	set_term(ui.screen);
	set_fatal_hook(ui_done);
	catch_deadly();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* Esc is a key here (it clears a search): not a second's wait for
	 * the rest of a sequence that never comes */
	set_escdelay(25);
	curs_set(0);
	colors = colors && has_colors();
	paint_setup(colors, utf8);
	if (colors) {
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
	switch (c) {
	case KEY_RESIZE:
		return KEY_CODE_RESIZE;
	case KEY_UP:
		return KEY_CODE_UP;
	case KEY_DOWN:
		return KEY_CODE_DOWN;
	case KEY_PPAGE:
		return KEY_CODE_PGUP;
	case KEY_NPAGE:
		return KEY_CODE_PGDN;
	case KEY_HOME:
		return KEY_CODE_HOME;
	case KEY_END:
		return KEY_CODE_END;
	case KEY_LEFT:
		return KEY_CODE_LEFT;
	case KEY_RIGHT:
		return KEY_CODE_RIGHT;
	case KEY_BACKSPACE:
		return KEY_CODE_BACKSPACE;
	case KEY_ENTER:
		return KEY_CODE_ENTER;
	}
	if (c >= KEY_F(1) && c <= KEY_F(12))
		return KEY_CODE_F(c - KEY_F(0));
	return c;
}


static void draw_header(const struct view *v)
{
	char elapsed[32], events[128], buf[64];

	fmt_elapsed(elapsed, sizeof(elapsed), v->elapsed);
	attron(A_BOLD);
	paint_put(0, 0, "relaytop");
	attroff(A_BOLD);
	if (v->replay && v->speed != 1)
		paint_put(0, 9, " replay of %s   at %s   every %gs   x%g%s",
		    v->source, elapsed, v->interval, v->speed,
		    v->ended ? "   (the end)" : "");
	else if (v->replay)
		paint_put(0, 9, " replay of %s   at %s   every %gs%s", v->source,
		    elapsed, v->interval, v->ended ? "   (the end)" : "");
	else if (v->have_cfg)
		paint_put(0, 9, " %s   gen %llu   up %s   every %gs", v->source,
		    (unsigned long long)v->cfg.generation, elapsed,
		    v->interval);
	else
		paint_put(0, 9, " %s   up %s   every %gs", v->source, elapsed,
		    v->interval);
	if (v->self_known) {	/* after the line above, cut at the edge */
		int y, x;

		getyx(stdscr, y, x);
		if (y == 0)
			paint_put(0, x, "   self %llu%s",
			    (unsigned long long)v->self_events,
			    v->self_hidden ? " (hidden)" : "");
	}
	if (v->paused) {
		attron(A_REVERSE);
		paint_put(0, COLS > 8 ? COLS - 8 : 0, " PAUSED ");
		attroff(A_REVERSE);
	}
	if (!v->have_cfg) {
		paint_put(1, 0, "%s", v->replay ? "" : "no channel");
		return;
	}
	if (v->cfg.events == SCHED_RELAY_ALL_EVENTS)
		snprintf(events, sizeof(events), "all");
	else
		events_format(v->cfg.events, " ", events, sizeof(events));
	fmt_size(buf, sizeof(buf), v->cfg.geom.subbuf_size);
	paint_put(1, 0, "%u x %s per CPU  %s  %s  events: %s%s",
	    v->cfg.geom.n_subbufs, buf,
	    v->cfg.overwrite ? "overwrite" : "no-overwrite",
	    v->cfg.enabled ? "enabled" : "DISABLED", events,
	    v->cfg.unnotified ? "  (attributes not notified: "
	    "changes seen each interval)" : "");
	if (v->record_path) {
		fmt_count(buf, sizeof(buf), (double)v->record_bytes, true);
		attron(A_BOLD | paint_pair(PAIR_BAD));
		paint_put(2, 0, "recording");
		attroff(A_BOLD | paint_pair(PAIR_BAD));
		paint_put(2, 10, "to %s: %llu events, %sB", v->record_path,
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

		attron(paint_pair(PAIR_TYPE0 + t));
		for (int i = 0; i < cols[t] && x + i < COLS; i++)
			addch((chtype)letter);
		attroff(paint_pair(PAIR_TYPE0 + t));
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
	unsigned int n = paint_utf8() ? ARRAY_SIZE(blocks) : sizeof(ascii) - 1;

	if (width <= 0 || y >= LINES || x >= COLS)
		return;
	if (width > STATS_HISTORY)
		width = STATS_HISTORY;
	stats_sparkline(c, scale, (unsigned int)width, n, levels);
	move(y, x);
	attron(paint_pair(PAIR_SPARK));
	for (int i = 0; i < width && x + i < COLS; i++) {
		if (paint_utf8())
			addstr(blocks[levels[i]]);
		else
			addch((chtype)ascii[levels[i]]);
	}
	attroff(paint_pair(PAIR_SPARK));
}

#define MIX_WIDTH 10	/* (HISTORY's header then fits 80 columns) */

static void draw_row(int y, const char *name, const struct cpu_stats *c,
		     int spark_x, double scale, bool bold)
{
	char ev[16], by[16], dr[16], drs[16], lo[16];
	int fill = (int)(c->fill * 100 + 0.5);
	attr_t drop_attr = A_NORMAL, fill_attr = A_NORMAL, b = bold ? A_BOLD : 0;

	fmt_count(ev, sizeof(ev), c->events_rate, false);
	fmt_count(by, sizeof(by), c->bytes_rate, true);
	fmt_count(dr, sizeof(dr), (double)c->shown_dropped, false);
	fmt_count(drs, sizeof(drs), c->dropped_rate + c->lost_rate, false);
	fmt_count(lo, sizeof(lo), (double)c->shown_lost, false);
	if (c->dropped_rate > 0 || c->lost_rate > 0)
		drop_attr = A_BOLD | paint_pair(PAIR_BAD);
	else if (c->shown_dropped || c->shown_lost)
		drop_attr = paint_pair(PAIR_WARN);
	if (fill >= 75)
		fill_attr = A_BOLD | paint_pair(PAIR_BAD);
	else if (fill >= 50)
		fill_attr = paint_pair(PAIR_WARN);

	attron(b);
	paint_put(y, 0, "%3s %8s %8s", name, ev, by);
	attroff(b);
	attron(drop_attr | b);
	paint_put(y, 21, " %7s %6s %6s", dr, drs, lo);
	attroff(drop_attr | b);
	attron(fill_attr | b);
	paint_put(y, 43, " %3d%%", fill);
	attroff(fill_attr | b);
	draw_mix(y, 49, MIX_WIDTH, c);
	draw_spark(y, spark_x, COLS - spark_x, c, scale);
}

#define RUN_X (49 + MIX_WIDTH + 1)	/* the RUNNING column */
#define RUN_WIDTH 13

/* Who runs on cpu now, as the model says. */
static void draw_running(int y, const struct view *v, unsigned int cpu)
{
	struct sched_task t;
	char what[TEXT_ESCAPED_SIZE(sizeof(t.comm))] = "?";

	if (!v->model)
		return;
	if (sched_model_current(v->model, cpu, &t) && !t.pid)
		snprintf(what, sizeof(what), "idle");
	else if (sched_model_current(v->model, cpu, &t))
		text_escape(what, sizeof(what), t.comm, sizeof(t.comm),
			    paint_utf8());
	paint_put(y, RUN_X, "%-*.*s", RUN_WIDTH - 1, RUN_WIDTH - 1, what);
}

static unsigned int draw_table(const struct view *v, int top, int bottom)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order));
	unsigned int n = stats_order(v->st, v->sort, order), first;
	int spark_x = RUN_X + (v->model ? RUN_WIDTH : 0);
	int spark_width = COLS - spark_x;
	double scale = stats_history_max(v->st, spark_width > 0 ?
					 (unsigned int)spark_width : 1);
	int y = top + 1, room = bottom - top - 2;	/* minus header, total */
	char bar[256];

	if (v->summary)
		n = 0;
	if (room < 0)
		room = 0;
	first = paint_first_row(v->scroll, n, (unsigned int)room);
	snprintf(bar, sizeof(bar), "CPU %8s %8s %7s %6s %6s %4s %-*s %s",
		 "EVENTS/s", "BYTES/s", "DROPPED", "DROP/s", "LOST", "FILL",
		 MIX_WIDTH, "MIX", v->model ? "RUNNING      HISTORY" :
		 "HISTORY");
	paint_bar(top, bar);
	attron(A_REVERSE | paint_pair(PAIR_HEADER));
	if (n > (unsigned int)room)
		paint_put(top, COLS > 28 ? COLS - 26 : 0, " CPUs %u-%u of %u ",
			  first, first + (unsigned int)room - 1, n);
	else if (v->sort != SORT_CPU)
		paint_put(top, COLS > 20 ? COLS - 18 : 0, " sort: %s",
			  stats_sort_name(v->sort));
	attroff(A_REVERSE | paint_pair(PAIR_HEADER));
	for (unsigned int i = first; i < n && (int)(i - first) < room; i++, y++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", order[i]);
		draw_row(y, name, &v->st->cpu[order[i]], spark_x, scale, false);
		draw_running(y, v, order[i]);
	}
	/* the total's history has its own scale: it sums the CPUs */
	draw_row(y, "all", &v->st->total, spark_x,
		 stats_cpu_history_max(&v->st->total, spark_width > 0 ?
				       (unsigned int)spark_width : 1), true);
	free(order);
	return first;
}

void ui_repaint(void)
{
	if (ui.screen)
		clearok(curscr, TRUE);
}

unsigned int ui_draw(const struct view *v)
{
	int status_y = LINES - 1;
	unsigned int first;

	if (!ui.screen)
		return v->scroll;
	erase();
	if (v->show_help) {
		/* the whole screen but the status line, as htop's */
		first = ui_draw_help(v->mode, v->scroll, 0, status_y);
	} else {
		draw_header(v);
		if (v->mode == VIEW_TASKS)
			first = ui_draw_tasks(v, 3, status_y - 1);
		else if (v->mode == VIEW_LATENCY)
			first = ui_draw_latency(v, 3, status_y - 1);
		else
			first = draw_table(v, 4, status_y - 1);
	}
	if (v->typing) {
		/* printable ASCII only: what controller.c lets be typed */
		attron(A_BOLD);
		paint_put(status_y, 0, "%s: %s_", v->typing == '/' ? "search" :
			  "filter", v->typing == '/' ? v->find :
			  v->tasks.match);
		attroff(A_BOLD);
		/* after "search: ", the text, its cursor and two blanks */
		paint_put(status_y, (int)strlen(v->typing == '/' ? v->find :
						v->tasks.match) + 11,
			  "%s", v->typing == '/' && v->find_missed &&
			  v->find[0] ? "no task matches; Esc clears" :
			  v->typing == '/' ? "Enter keeps, F3 next, Esc clears" :
			  "Enter keeps, Esc clears");
	} else if (v->prompt) {
		attron(A_BOLD);
		paint_put(status_y, 0, "%s", v->prompt);
		attroff(A_BOLD);
	} else if (v->status && v->status[0]) {
		attr_t a = v->status_error ? A_BOLD | paint_pair(PAIR_BAD) : A_NORMAL;

		attron(a);
		paint_put(status_y, 0, "%s", v->status);
		attroff(a);
	} else {
		paint_put(status_y, 0, "h: help  q: quit");
	}
	refresh();
	return first;
}

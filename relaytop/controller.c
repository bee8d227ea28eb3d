// SPDX-License-Identifier: GPL-2.0
/* controller.c - the commands applied (see controller.h). */
#include "controller.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "util.h"

/* Refresh intervals '+' and '-' step through, in seconds. */
static const double intervals[] = {
	0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 30, 60,
};

double controller_next_interval(double cur, int direction)
{
	if (direction > 0) {
		for (size_t i = 0; i < ARRAY_SIZE(intervals); i++)
			if (intervals[i] > cur * 1.0001)
				return intervals[i];
		return intervals[ARRAY_SIZE(intervals) - 1];
	}
	for (size_t i = ARRAY_SIZE(intervals); i-- > 0;)
		if (intervals[i] < cur * 0.9999)
			return intervals[i];
	return intervals[0];
}

/* Changing the channel: only when the source can, and say why not. */
static bool can_change(struct app *a, const struct source *src,
		       const char *what)
{
	char msg[200];

	if (!src->ops->can_change(src->self, what, msg, sizeof(msg)))
		return true;
	app_status(a, true, "%s", msg);
	return false;
}

/* Ask the source; say what came of it. */
static int change(struct app *a, const struct source *src,
		  enum source_request req, uint32_t value, const char *attr)
{
	struct source_state st;
	int err = src->ops->change ? src->ops->change(src->self, req, value) :
		  -EPERM;

	if (err) {
		src->ops->state(src->self, &st);
		app_status(a, true, "writing %s/%s: %s%s", st.name, attr,
			   strerror(-err), err == -EACCES || err == -EPERM ?
			   " (needs root)" : "");
	}
	return err;
}

static const struct control_state *config(const struct source *src,
					  struct source_state *st)
{
	src->ops->state(src->self, st);
	return &st->cfg;
}

/* The second key after 'e': which event type to turn on or off. */
static unsigned int event_key(struct app *a, const struct source *src,
			      int key)
{
	struct source_state st;
	int type = event_by_key(key);
	uint32_t mask;

	a->prompt = 0;
	if (key == KEY_CODE_ESC || key == 'q') {
		app_status(a, false, "events unchanged");
		return REACT_REDRAW;
	}
	if (type < 0) {
		app_status(a, true, "no event type on key '%c'",
			   key > 32 && key < 127 ? key : '?');
		return REACT_REDRAW;
	}
	mask = config(src, &st)->events ^ (1u << type);
	if (!change(a, src, REQ_EVENTS, mask, "events"))
		app_status(a, false, "%s %s",
			   event_type((unsigned int)type)->name,
			   mask & (1u << type) ? "on" : "off");
	return REACT_REDRAW;
}

/* The channel changes once the answer is y. */
static unsigned int confirmed(struct app *a, const struct source *src,
			      int what)
{
	struct source_state st;
	bool on;

	switch (what) {
	case 'r':
		if (!change(a, src, REQ_RESET, 1, "reset"))
			app_status(a, false, "reset the channel");
		break;
	case 'e':
		a->prompt = 'e';
		break;
	case 'o':
		on = !config(src, &st)->overwrite;
		if (!change(a, src, REQ_OVERWRITE, on, "overwrite"))
			app_status(a, false, "switching to %s mode",
				   on ? "overwrite" : "no-overwrite");
		break;
	}
	return REACT_REDRAW;
}

/* The answer to "...? y/n". */
static unsigned int confirm_key(struct app *a, const struct source *src,
				int key)
{
	int what = a->confirm;

	a->confirm = 0;
	if (key == 'y' || key == 'Y')
		return confirmed(a, src, what);
	app_status(a, false, "cancelled: the channel is unchanged");
	return REACT_REDRAW;
}

/* Ask before changing what other readers of the channel share. */
static unsigned int ask(struct app *a, const struct source *src, int what,
			const char *name)
{
	if (a->opt && a->opt->read_only) {
		app_status(a, true, "%c: not with --read-only (the channel's "
			   "%s is left as it is)", what, name);
		return REACT_REDRAW;
	}
	if (can_change(a, src, name))
		a->confirm = what;
	return REACT_REDRAW;
}

/* Say how the tasks are sorted. */
static void tasks_sort_status(struct app *a)
{
	app_status(a, false, "tasks sorted by %s%s",
		   task_col_title(a->tasks.sort),
		   a->tasks.reverse ? ", reversed" : "");
}

/* The next sort of the view shown. */
static void next_sort(struct app *a)
{
	if (a->mode == VIEW_TASKS) {
		/* the columns shown: the latency not shown is skipped */
		do {
			a->tasks.sort = (a->tasks.sort + 1) % TCOL_NR;
		} while (!task_col_shown(a->tasks.sort, a->lat_kind));
		tasks_sort_status(a);
		return;
	}
	a->sort = (a->sort + 1) % SORT_NR;
	app_status(a, false, "sorted by %s", stats_sort_name(a->sort));
}

/* The latency the views show: wakeup or run-queue (sched_model.h); a
 * sort by the one hidden goes to the one shown. */
static void latency_kind(struct app *a)
{
	static const enum task_col wake[] = { TCOL_LAT_AVG, TCOL_LAT_MAX };
	static const enum task_col runq[] = { TCOL_RQ_AVG, TCOL_RQ_MAX };
	bool to_runq = a->lat_kind == SCHED_LAT_WAKEUP;

	a->lat_kind = to_runq ? SCHED_LAT_RUNQ : SCHED_LAT_WAKEUP;
	for (size_t i = 0; i < ARRAY_SIZE(wake); i++)
		if (a->tasks.sort == (to_runq ? wake[i] : runq[i]))
			a->tasks.sort = to_runq ? runq[i] : wake[i];
	app_status(a, false, "%s", to_runq ?
		   "run-queue latency: wakeup or preemption to switch-in "
		   "(as runqlat, perf sched latency)" :
		   "wakeup latency: wakeup to switch-in");
}

static void view(struct app *a, enum view_mode mode)
{
	a->mode = a->mode == mode ? VIEW_CPUS : mode;
	a->scroll = 0;
}

/* Type the text of a search ('/') or a filter ('\\') of the tasks. */
static void start_typing(struct app *a, int what)
{
	if (a->mode != VIEW_TASKS)
		view(a, VIEW_TASKS);
	a->show_help = false;
	a->typing = what;
	if (what == '/') {
		a->find[0] = '\0';
		a->found_id = -1;
	}
}

/* A replay moves by s seconds; nothing else can. */
static unsigned int seek(struct app *a, const struct source *src, int s)
{
	struct source_state st;

	src->ops->state(src->self, &st);
	if (!st.recorded) {
		app_status(a, true, "the live channel cannot be moved in time "
			   "(a replay can: --replay)");
		return REACT_REDRAW;
	}
	a->seek_ns = (int64_t)s * 1000000000;
	return REACT_REDRAW | REACT_SEEK;
}

static void scroll(struct app *a, int rows)
{
	if (rows < 0 && (unsigned int)-rows > a->scroll)
		a->scroll = 0;
	else
		a->scroll = (unsigned int)((int)a->scroll + rows);
}

unsigned int controller_apply(struct app *a, const struct source *src,
			      enum command cmd, unsigned int ncpus)
{
	switch (cmd) {
	case CMD_QUIT:
		a->quit = true;
		return 0;
	case CMD_HELP:
		a->show_help = !a->show_help;
		return REACT_REDRAW;
	case CMD_PAUSE:
		a->paused = !a->paused;
		app_status(a, false, "%s", a->paused ?
			   "paused: the screen stands still (reading goes on); "
			   "p or space resumes" : "resumed");
		return REACT_REDRAW | REACT_PAUSE;
	case CMD_RESET:
		return ask(a, src, 'r', "reset");
	case CMD_SLOWER:
	case CMD_FASTER:
		a->interval = controller_next_interval(a->interval,
						       cmd == CMD_SLOWER ?
						       +1 : -1);
		app_status(a, false, "refresh every %gs", a->interval);
		return REACT_REDRAW | REACT_INTERVAL;
	case CMD_SORT:
		next_sort(a);
		return REACT_REDRAW;
	case CMD_EVENTS:
		return ask(a, src, 'e', "events");
	case CMD_OVERWRITE:
		return ask(a, src, 'o', "overwrite");
	case CMD_REDRAW:
		return REACT_REDRAW;
	case CMD_TASKS:
		view(a, VIEW_TASKS);
		return REACT_REDRAW;
	case CMD_LATENCY:
		view(a, VIEW_LATENCY);
		return REACT_REDRAW;
	case CMD_REVERSE:
		a->tasks.reverse = !a->tasks.reverse;
		tasks_sort_status(a);
		return REACT_REDRAW;
	case CMD_GROUP:
		a->tasks.group = !a->tasks.group;
		app_status(a, false, "tasks %s", a->tasks.group ?
			   "by process (tgid)" : "by thread");
		return REACT_REDRAW;
	case CMD_CPU:
		a->tasks.cpu = a->tasks.cpu + 1 >= (int)ncpus ? -1 :
			       a->tasks.cpu + 1;
		if (a->tasks.cpu < 0)
			app_status(a, false, "tasks and latency of all CPUs");
		else
			app_status(a, false, "tasks last switched in on CPU "
				   "%d, latency of CPU %d", a->tasks.cpu,
				   a->tasks.cpu);
		a->scroll = 0;
		return REACT_REDRAW;
	case CMD_SUMMARY:
		a->summary = !a->summary;
		return REACT_REDRAW;
	case CMD_ZERO:
		app_status(a, false, "relaytop's counters zeroed (the "
			   "channel's are not)");
		return REACT_REDRAW | REACT_ZERO;
	case CMD_UP:
		scroll(a, -1);
		return REACT_REDRAW;
	case CMD_DOWN:
		scroll(a, 1);
		return REACT_REDRAW;
	case CMD_PGUP:
		scroll(a, -10);
		return REACT_REDRAW;
	case CMD_PGDN:
		scroll(a, 10);
		return REACT_REDRAW;
	case CMD_HOME:
		a->scroll = 0;
		return REACT_REDRAW;
	case CMD_FIND:
		start_typing(a, '/');
		return REACT_REDRAW;
	case CMD_FIND_NEXT:
		if (a->find[0] && a->mode == VIEW_TASKS)
			a->find_next = true;
		else
			start_typing(a, '/');
		return REACT_REDRAW;
	case CMD_FILTER:
		start_typing(a, '\\');
		return REACT_REDRAW;
	case CMD_SEEK_BACK:
		return seek(a, src, -10);
	case CMD_SEEK_FORWARD:
		return seek(a, src, 10);
	case CMD_SEEK_BACK_MORE:
		return seek(a, src, -60);
	case CMD_SEEK_FORWARD_MORE:
		return seek(a, src, 60);
	case CMD_LAT_KIND:
		latency_kind(a);
		return REACT_REDRAW;
	case CMD_SELF:
		a->hide_self = !a->hide_self;
		app_status(a, false, "relaytop's own switches and wake-ups: %s",
			   a->hide_self ? "hidden (still recorded)" : "shown");
		return REACT_REDRAW;
	case CMD_NONE:
		break;
	}
	return 0;
}

/* A key while the text of a search or a filter is typed: letters go
 * into it, Backspace takes one back, Enter keeps it, Esc clears it, F3
 * finds the next match; any other key ends the typing and does what it
 * does.  Returns -1 for that other key. */
static int typing_key(struct app *a, int key)
{
	bool find = a->typing == '/';
	char *text = find ? a->find : a->tasks.match;
	size_t len = strlen(text);

	if (key == KEY_CODE_ESC) {
		text[0] = '\0';
		a->typing = 0;
		app_status(a, false, "%s cleared", find ? "search" : "filter");
	} else if (key == '\r' || key == '\n' || key == KEY_CODE_ENTER) {
		a->typing = 0;
		if (text[0])
			app_status(a, false, "%s \"%s\"%s", find ? "search" :
				   "filter", text, find ? " (F3: next, Esc: "
				   "clear)" : " (Esc clears)");
	} else if (key == KEY_CODE_BACKSPACE || key == 127 || key == 8) {
		if (len)
			text[len - 1] = '\0';
	} else if (key == KEY_CODE_F(3) && find) {
		a->find_next = true;
	} else if (key >= 0x20 && key < 0x7f) {
		if (len + 1 < TASK_MATCH_MAX) {
			text[len] = (char)key;
			text[len + 1] = '\0';
		}
	} else {
		a->typing = 0;
		return -1;
	}
	if (!find)
		a->scroll = 0;
	return REACT_REDRAW;
}

/* Esc outside a prompt: the help goes, else the search, else the
 * filter. */
static bool escape(struct app *a)
{
	if (a->show_help)
		a->show_help = false;
	else if (a->find[0])
		a->find[0] = '\0';
	else if (a->tasks.match[0])
		a->tasks.match[0] = '\0';
	else
		return false;
	return true;
}

unsigned int controller_key(struct app *a, const struct source *src, int key,
			    unsigned int ncpus)
{
	enum command cmd;

	if (a->confirm)
		return confirm_key(a, src, key);
	if (a->prompt == 'e')
		return event_key(a, src, key);
	if (a->typing) {
		int react = typing_key(a, key);

		if (react >= 0)
			return (unsigned int)react;
	}
	cmd = keys_command(key);
	if (cmd != CMD_NONE)
		return controller_apply(a, src, cmd, ncpus);
	if (key == KEY_CODE_ESC && escape(a))
		return REACT_REDRAW;
	app_status(a, true, "unknown key (h shows the keys)");
	return REACT_REDRAW;
}

const char *controller_prompt(const struct app *a)
{
	if (a->confirm == 'r')
		return "reset the channel? every reader of it loses what is "
		       "in the buffers (y/n)";
	if (a->confirm == 'e')
		return "change the recorded events? every reader of the "
		       "channel sees it (y/n)";
	if (a->confirm == 'o')
		return "toggle overwrite mode? every reader of the channel "
		       "sees it (y/n)";
	if (a->prompt == 'e')
		return "toggle event: s)witch w)akeup n) wakeup_new "
		       "m)igrate f)ork x) exit wa(k)ing, Esc cancels";
	return NULL;
}

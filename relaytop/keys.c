// SPDX-License-Identifier: GPL-2.0
/*
 * keys.c - the key table and its actions (see keys.h).  Keys follow top
 * and htop where they have one: q quits, h and ? help, space pauses.
 */
#include "keys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "events.h"
#include "session.h"
#include "util.h"

/* Refresh intervals '+' and '-' step through, in seconds. */
static const double intervals[] = {
	0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 30, 60,
};

double keys_next_interval(double cur, int direction)
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

/* Changing the channel: not while showing a recording, and say why not. */
static bool live(struct session *s, const char *what)
{
	if (s->replay) {
		session_status(s, true, "%s: not while replaying a recording",
			       what);
		return false;
	}
	if (!s->have_ctl) {
		session_status(s, true, "%s: the channel is gone", what);
		return false;
	}
	return true;
}

static void write_failed(struct session *s, const char *attr, int err)
{
	session_status(s, true, "writing %s/%s: %s%s", s->opt->channel, attr,
		       strerror(-err), err == -EACCES || err == -EPERM ?
		       " (needs root)" : "");
}

static unsigned int act_quit(struct session *s)
{
	s->quit = true;
	return 0;
}

static unsigned int act_help(struct session *s)
{
	s->show_help = !s->show_help;
	return REDRAW;
}

static unsigned int act_pause(struct session *s)
{
	session_set_paused(s, !s->paused);
	session_status(s, false, "%s", s->paused ?
		       "paused: the screen stands still (reading goes on); "
		       "p or space resumes" : "resumed");
	return REDRAW;
}

static unsigned int act_reset(struct session *s)
{
	int err;

	if (!live(s, "reset"))
		return REDRAW;
	err = control_reset(&s->ctl);
	if (err)
		write_failed(s, "reset", err);
	else
		session_status(s, false, "reset the channel");
	return REDRAW;
}

static void set_interval(struct session *s, int direction)
{
	s->interval = keys_next_interval(s->interval, direction);
	if (!s->replay)
		s->next_tick_ns = mono_ns() + (uint64_t)(s->interval * 1e9);
	session_status(s, false, "refresh every %gs", s->interval);
}

static unsigned int act_slower(struct session *s)
{
	set_interval(s, +1);
	return REDRAW;
}

static unsigned int act_faster(struct session *s)
{
	set_interval(s, -1);
	return REDRAW;
}

static unsigned int act_sort(struct session *s)
{
	s->sort = (s->sort + 1) % SORT_NR;
	session_status(s, false, "sorted by %s", stats_sort_name(s->sort));
	return REDRAW;
}

static unsigned int act_events(struct session *s)
{
	if (!live(s, "events"))
		return REDRAW;
	s->prompt = 'e';
	return REDRAW;
}

static unsigned int act_overwrite(struct session *s)
{
	bool on = !s->cfg.overwrite;
	int err;

	if (!live(s, "overwrite"))
		return REDRAW;
	err = control_set_overwrite(&s->ctl, on);
	if (err)
		write_failed(s, "overwrite", err);
	else
		session_status(s, false, "switching to %s mode",
			       on ? "overwrite" : "no-overwrite");
	return REDRAW;
}

static unsigned int act_redraw(struct session *s)
{
	(void)s;
	return REDRAW;
}

static const struct key_binding table[] = {
	{ 'q', "q", act_quit, "quit" },
	{ 'h', "h ?", act_help, "show or hide this help" },
	{ '?', NULL, act_help, NULL },
	{ 'p', "p space", act_pause, "pause or resume the screen" },
	{ ' ', NULL, act_pause, NULL },
	{ 'r', "r", act_reset, "reset the channel (empties the buffers, zeroes the counters)" },
	{ '+', "+", act_slower, "refresh less often" },
	{ '-', "-", act_faster, "refresh more often" },
	{ 's', "s", act_sort, "sort by CPU, events/s, drops, fill" },
	{ 'e', "e", act_events, "turn an event type on or off (then s w n m f x k)" },
	{ 'o', "o", act_overwrite, "toggle overwrite (flight recorder) mode" },
	{ KEY_CODE_CTRL_L, "^L", act_redraw, "repaint the whole screen" },
	{ KEY_CODE_RESIZE, NULL, act_redraw, NULL },
};

const struct key_binding *keys_table(size_t *n)
{
	*n = ARRAY_SIZE(table);
	return table;
}

/* The second key after 'e': which event type to turn on or off. */
static unsigned int event_key(struct session *s, int key)
{
	int type = event_by_key(key);
	uint32_t mask;
	int err;

	s->prompt = 0;
	if (key == KEY_CODE_ESC || key == 'q') {
		session_status(s, false, "events unchanged");
		return REDRAW;
	}
	if (type < 0) {
		session_status(s, true, "no event type on key '%c'",
			       key > 32 && key < 127 ? key : '?');
		return REDRAW;
	}
	mask = s->cfg.events ^ (1u << type);
	err = control_set_events(&s->ctl, mask);
	if (err)
		write_failed(s, "events", err);
	else
		session_status(s, false, "%s %s", event_type((unsigned int)type)->name,
			       mask & (1u << type) ? "on" : "off");
	return REDRAW;
}

const char *keys_prompt(const struct session *s)
{
	if (s->prompt == 'e')
		return "toggle event: s)witch w)akeup n) wakeup_new "
		       "m)igrate f)ork x) exit wa(k)ing, Esc cancels";
	return NULL;
}

unsigned int keys_dispatch(struct session *s, int key)
{
	if (s->prompt == 'e')
		return event_key(s, key);
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].key == key)
			return table[i].action(s);
	if (key == KEY_CODE_ESC && s->show_help) {
		s->show_help = false;
		return REDRAW;
	}
	session_status(s, true, "unknown key (h shows the keys)");
	return REDRAW;
}

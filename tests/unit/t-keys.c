// SPDX-License-Identifier: GPL-2.0
/*
 * t-keys.c - pins the keys (relaytop/keys.c) on a live session over a fake
 * channel: q quits; h and ? toggle help; p and space pause; r writes "1"
 * to reset; + and - step the refresh interval through its ladder and stay
 * within it; s cycles the sort; e then a type letter toggles that type in
 * events (Esc cancels, an unknown letter is refused); o toggles overwrite;
 * an unknown key says so; keys that change the channel refuse to while
 * replaying; every table entry with help text has a label.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fake-channel.h"
#include "keys.h"
#include "session.h"
#include "test-lib.h"

/* What a write left at the start of a regular file. */
static const char *written(struct fake_channel *fc, const char *name)
{
	static char line[256];
	const char *text = fake_channel_read(fc, name);

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(text, "\n"), text);
	return line;
}

struct rig {
	struct fake_channel fc;
	struct options opt;
	struct session s;
};

static bool rig_start(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	if (!fake_channel_create(&r->fc, 2, 4096, 4, false))
		return false;
	r->opt.channel = r->fc.dir;
	r->opt.interval = 1;
	session_start(&r->s, &r->opt, OUT_NONE);
	return true;
}

static void rig_stop(struct rig *r)
{
	session_free(&r->s);
	fake_channel_destroy(&r->fc);
}

static void test_simple_keys(void)
{
	struct rig r;
	unsigned int redraw;

	if (!check(rig_start(&r)))
		return;
	redraw = keys_dispatch(&r.s, 'h');
	check_uint(redraw, ==, REDRAW);
	check(r.s.show_help);
	keys_dispatch(&r.s, '?');
	check(!r.s.show_help);
	keys_dispatch(&r.s, ' ');
	check(r.s.paused);
	check(strstr(r.s.status, "paused") != NULL);
	keys_dispatch(&r.s, 'p');
	check(!r.s.paused);
	keys_dispatch(&r.s, 's');
	check_int(r.s.sort, ==, SORT_EVENTS);
	keys_dispatch(&r.s, 's');
	keys_dispatch(&r.s, 's');
	keys_dispatch(&r.s, 's');
	check_int(r.s.sort, ==, SORT_CPU);
	keys_dispatch(&r.s, 'Z');
	check(r.s.status_error);
	check(strstr(r.s.status, "unknown key") != NULL);
	keys_dispatch(&r.s, 'q');
	check(r.s.quit);
	rig_stop(&r);
}

static void test_interval_ladder(void)
{
	struct rig r;

	check_int((int)(keys_next_interval(1, +1) * 10), ==, 20);
	check_int((int)(keys_next_interval(1, -1) * 10), ==, 5);
	check_int((int)(keys_next_interval(0.7, +1) * 10), ==, 10);
	check_int((int)(keys_next_interval(0.7, -1) * 10), ==, 5);
	check_int((int)(keys_next_interval(0.1, -1) * 10), ==, 1);	/* floor */
	check_int((int)keys_next_interval(60, +1), ==, 60);		/* ceiling */
	if (!check(rig_start(&r)))
		return;
	keys_dispatch(&r.s, '+');
	check_int((int)r.s.interval, ==, 2);
	check(strstr(r.s.status, "every 2s") != NULL);
	keys_dispatch(&r.s, '-');
	keys_dispatch(&r.s, '-');
	check_int((int)(r.s.interval * 10), ==, 5);
	rig_stop(&r);
}

static void test_channel_keys(void)
{
	struct rig r;

	if (!check(rig_start(&r)))
		return;
	keys_dispatch(&r.s, 'r');
	check_str(written(&r.fc, "reset"), "1");
	check(!r.s.status_error);
	keys_dispatch(&r.s, 'e');
	check(keys_prompt(&r.s) != NULL);
	keys_dispatch(&r.s, 'w');		/* wakeup off */
	check(keys_prompt(&r.s) == NULL);
	check_str(written(&r.fc, "events"), "0x7d");
	check(strstr(r.s.status, "wakeup off") != NULL);
	keys_dispatch(&r.s, 'e');
	keys_dispatch(&r.s, KEY_CODE_ESC);	/* cancelled */
	check(strstr(r.s.status, "unchanged") != NULL);
	keys_dispatch(&r.s, 'e');
	keys_dispatch(&r.s, 'z');		/* no such type */
	check(r.s.status_error);
	check(keys_prompt(&r.s) == NULL);
	keys_dispatch(&r.s, 'o');
	check_str(written(&r.fc, "overwrite"), "1");
	/* while replaying, the channel is not touched */
	r.s.replay = true;
	{
		char path[128];

		snprintf(path, sizeof(path), "%s/reset", r.fc.dir);
		check_int(truncate(path, 0), ==, 0);
	}
	keys_dispatch(&r.s, 'r');
	check(r.s.status_error);
	check(strstr(r.s.status, "not while replaying") != NULL);
	check_str(written(&r.fc, "reset"), "");
	rig_stop(&r);
}

static void test_table(void)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	int labelled = 0;

	for (size_t i = 0; i < n; i++) {
		check(t[i].action != NULL);
		if (t[i].help) {
			check(t[i].label != NULL);
			labelled++;
		}
	}
	check_int(labelled, >=, 10);
}

int main(void)
{
	TEST(test_simple_keys(), "q, h/?, p/space, s, unknown keys");
	TEST(test_interval_ladder(), "+ and - step the refresh interval within its ladder");
	TEST(test_channel_keys(), "r, e+letter, o write the channel's attributes");
	TEST(test_table(), "the key table is complete for the help screen");
	return test_done();
}

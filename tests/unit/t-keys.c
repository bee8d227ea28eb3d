// SPDX-License-Identifier: GPL-2.0
/*
 * t-keys.c - pins the keys (relaytop/keys.c, the commands of
 * relaytop/controller.c) on the live mode over a fake channel: q and F10
 * quit; h, ? and F1 toggle help; p and space pause; r, e and o ask y/n
 * first and change nothing but on y: then r writes "1" to reset, e then
 * a type letter toggles that type in events (Esc cancels, an unknown
 * letter is refused), o toggles overwrite; + and - step the refresh
 * interval through its ladder and stay within it; s and F6 cycle the
 * sort of the view shown; t and l switch to the tasks and latency views
 * and back; L switches between the wakeup and the run-queue latency
 * (a sort by one's column goes to the other's; s skips those hidden); I reverses the tasks' sort, g groups them by process, c
 * steps through all CPUs and each, 1 toggles the summary, z zeroes
 * relaytop's own counters (not the channel's), arrows and pages scroll;
 * an unknown key says so; keys that change the channel refuse to while
 * replaying (a replay source is asked, and says no) and with
 * --read-only (nothing asked, nothing written); Left and Right refuse
 * on the live channel; every table entry
 * with help text has a label and a command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake-channel.h"
#include "controller.h"
#include "keys.h"
#include "record_writer.h"
#include "top.h"
#include "test-lib.h"

/* What a write left at the start of a regular file. */
static const char *written(struct fake_channel *fc, const char *name)
{
	static char line[256];
	const char *text = fake_channel_read(fc, name);

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(text, "\n"), text);
	return line;
}

static char record_path[] = "/tmp/t-keys.XXXXXX";

/* An empty recording, for a replay source. */
static void make_recording(void)
{
	struct record_meta meta = {
		.channel = "c", .nr_cpus = 1, .geom = { 4096, 4 },
		.events = SCHED_RELAY_ALL_EVENTS, .generation = 1,
	};
	struct recorder *rec;
	int fd = mkstemp(record_path);

	close(fd);
	rec = recorder_create(record_path, &meta);
	if (!rec || recorder_finish(rec))
		exit(2);
	recorder_free(rec);
}

struct rig {
	struct fake_channel fc;
	struct options opt;
	struct top t;
};

static bool rig_start(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	if (!fake_channel_create(&r->fc, 2, 4096, 4, false))
		return false;
	r->opt.channel = r->fc.dir;
	r->opt.interval = 1;
	top_start(&r->t, &r->opt, OUT_NONE);
	return true;
}

static void rig_stop(struct rig *r)
{
	top_free(&r->t);
	fake_channel_destroy(&r->fc);
}

static void test_simple_keys(void)
{
	struct rig r;
	unsigned int redraw;

	if (!check(rig_start(&r)))
		return;
	redraw = top_key(&r.t, 'h');
	check_uint(redraw, ==, REACT_REDRAW);
	check(r.t.app.show_help);
	top_key(&r.t, '?');
	check(!r.t.app.show_help);
	top_key(&r.t, ' ');
	check(r.t.app.paused);
	check(strstr(r.t.app.status, "paused") != NULL);
	top_key(&r.t, 'p');
	check(!r.t.app.paused);
	top_key(&r.t, 's');
	check_int(r.t.app.sort, ==, SORT_EVENTS);
	top_key(&r.t, 's');
	top_key(&r.t, 's');
	top_key(&r.t, 's');
	check_int(r.t.app.sort, ==, SORT_CPU);
	top_key(&r.t, KEY_CODE_F(6));
	check_int(r.t.app.sort, ==, SORT_EVENTS);
	top_key(&r.t, 'Z');
	check(r.t.app.status_error);
	check(strstr(r.t.app.status, "unknown key") != NULL);
	top_key(&r.t, KEY_CODE_F(1));
	check(r.t.app.show_help);
	top_key(&r.t, 'h');
	top_key(&r.t, 'q');
	check(r.t.app.quit);
	r.t.app.quit = false;
	top_key(&r.t, KEY_CODE_F(10));
	check(r.t.app.quit);
	rig_stop(&r);
}

static void test_view_keys(void)
{
	struct rig r;
	unsigned int react;

	if (!check(rig_start(&r)))
		return;
	top_key(&r.t, 't');
	check_int(r.t.app.mode, ==, VIEW_TASKS);
	top_key(&r.t, 's');		/* the tasks' sort, not the CPUs' */
	check_int(r.t.app.tasks.sort, ==, (TCOL_CPU + 1) % TCOL_NR);
	check_int(r.t.app.sort, ==, SORT_CPU);
	top_key(&r.t, 'I');
	check(r.t.app.tasks.reverse);
	check(strstr(r.t.app.status, "reversed") != NULL);
	top_key(&r.t, 'g');
	check(r.t.app.tasks.group);
	/* L: the run-queue latency; a sort by the wakeup latency's
	 * maximum becomes one by the run-queue latency's, and s skips the
	 * columns not shown */
	check_int(r.t.app.lat_kind, ==, SCHED_LAT_WAKEUP);
	r.t.app.tasks.sort = TCOL_LAT_MAX;
	top_key(&r.t, 'L');
	check_int(r.t.app.lat_kind, ==, SCHED_LAT_RUNQ);
	check_int(r.t.app.tasks.sort, ==, TCOL_RQ_MAX);
	check(strstr(r.t.app.status, "run-queue latency") != NULL);
	r.t.app.tasks.sort = TCOL_LAST;
	top_key(&r.t, 's');
	check_int(r.t.app.tasks.sort, ==, TCOL_RQ_AVG);
	top_key(&r.t, 'L');
	check_int(r.t.app.lat_kind, ==, SCHED_LAT_WAKEUP);
	check_int(r.t.app.tasks.sort, ==, TCOL_LAT_AVG);
	top_key(&r.t, 's');
	top_key(&r.t, 's');
	check_int(r.t.app.tasks.sort, ==, TCOL_PID);
	top_key(&r.t, 'l');
	check_int(r.t.app.mode, ==, VIEW_LATENCY);
	top_key(&r.t, 'l');
	check_int(r.t.app.mode, ==, VIEW_CPUS);
	/* c: all, CPU 0, CPU 1, all (the fake channel has 2) */
	check_int(r.t.app.tasks.cpu, ==, -1);
	top_key(&r.t, 'c');
	check_int(r.t.app.tasks.cpu, ==, 0);
	top_key(&r.t, 'c');
	check_int(r.t.app.tasks.cpu, ==, 1);
	top_key(&r.t, 'c');
	check_int(r.t.app.tasks.cpu, ==, -1);
	top_key(&r.t, '1');
	check(r.t.app.summary);
	top_key(&r.t, KEY_CODE_DOWN);
	top_key(&r.t, KEY_CODE_PGDN);
	check_uint(r.t.app.scroll, ==, 11);
	top_key(&r.t, KEY_CODE_UP);
	check_uint(r.t.app.scroll, ==, 10);
	top_key(&r.t, KEY_CODE_PGUP);
	top_key(&r.t, KEY_CODE_PGUP);
	check_uint(r.t.app.scroll, ==, 0);
	/* z: relaytop's counts from now; the channel is not written */
	r.t.tally.st.cpu[0].lost = 5;
	r.t.tally.st.cpu[0].dropped = 7;
	react = top_key(&r.t, 'z');
	check(react & REACT_ZERO);
	check_uint(r.t.tally.st.cpu[0].zero_lost, ==, 5);
	check_uint(r.t.tally.st.cpu[0].zero_dropped, ==, 7);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, 7);	/* the status report's */
	check_str(written(&r.fc, "reset"), "");
	rig_stop(&r);
}

static void test_interval_ladder(void)
{
	struct rig r;

	check_int((int)(controller_next_interval(1, +1) * 10), ==, 20);
	check_int((int)(controller_next_interval(1, -1) * 10), ==, 5);
	check_int((int)(controller_next_interval(0.7, +1) * 10), ==, 10);
	check_int((int)(controller_next_interval(0.7, -1) * 10), ==, 5);
	check_int((int)(controller_next_interval(0.1, -1) * 10), ==, 1);	/* floor */
	check_int((int)controller_next_interval(60, +1), ==, 60);		/* ceiling */
	if (!check(rig_start(&r)))
		return;
	top_key(&r.t, '+');
	check_int((int)r.t.app.interval, ==, 2);
	check(strstr(r.t.app.status, "every 2s") != NULL);
	top_key(&r.t, '-');
	top_key(&r.t, '-');
	check_int((int)(r.t.app.interval * 10), ==, 5);
	rig_stop(&r);
}

/* The keys that change the channel, given to a replay source instead of
 * r's live one: refused, the channel untouched.  r's own source is put
 * back, whatever happens, for rig_stop(). */
static void check_replay_keys(struct rig *r)
{
	char path[128];
	struct replay_source rp;
	struct source live = r->t.src;

	snprintf(path, sizeof(path), "%s/reset", r->fc.dir);
	check_int(truncate(path, 0), ==, 0);
	make_recording();
	if (check_int(replay_source_open(&rp, record_path, &r->t.feed), ==, 0)) {
		r->t.src = replay_source(&rp);
		top_key(&r->t, 'r');
		check(r->t.app.status_error);
		check(strstr(r->t.app.status, "not while replaying") != NULL);
		check_str(written(&r->fc, "reset"), "");
		top_key(&r->t, 'e');
		check(strstr(r->t.app.status, "events: not while replaying") != NULL);
		check(controller_prompt(&r->t.app) == NULL);
	}
	replay_source_close(&rp);
	unlink(record_path);
	r->t.src = live;
}

static void test_channel_keys(void)
{
	struct rig r;

	if (!check(rig_start(&r)))
		return;
	top_key(&r.t, 'r');
	check(strstr(controller_prompt(&r.t.app), "(y/n)") != NULL);
	check_str(written(&r.fc, "reset"), "");
	top_key(&r.t, 'n');
	check_str(written(&r.fc, "reset"), "");
	check(strstr(r.t.app.status, "cancelled") != NULL);
	check(controller_prompt(&r.t.app) == NULL);
	top_key(&r.t, 'r');
	top_key(&r.t, 'y');
	check_str(written(&r.fc, "reset"), "1");
	check(!r.t.app.status_error);
	top_key(&r.t, 'e');
	top_key(&r.t, 'y');
	check(controller_prompt(&r.t.app) != NULL);
	top_key(&r.t, 'w');		/* wakeup off */
	check(controller_prompt(&r.t.app) == NULL);
	check_str(written(&r.fc, "events"), "0x7d");
	check(strstr(r.t.app.status, "wakeup off") != NULL);
	top_key(&r.t, 'e');
	top_key(&r.t, 'y');
	top_key(&r.t, KEY_CODE_ESC);	/* cancelled */
	check(strstr(r.t.app.status, "unchanged") != NULL);
	top_key(&r.t, 'e');
	top_key(&r.t, 'y');
	top_key(&r.t, 'z');		/* no such type */
	check(r.t.app.status_error);
	check(controller_prompt(&r.t.app) == NULL);
	top_key(&r.t, 'o');
	top_key(&r.t, KEY_CODE_ESC);	/* not y: unchanged */
	check_str(written(&r.fc, "overwrite"), "0");
	top_key(&r.t, 'o');
	top_key(&r.t, 'y');
	check_str(written(&r.fc, "overwrite"), "1");
	/* while replaying, the channel is not touched: the keys go to a
	 * replay source */
	check_replay_keys(&r);
	rig_stop(&r);
}

/* --read-only: r, e and o change nothing and ask nothing, and say why;
 * a live channel cannot be moved in time (Left, Right). */
static void test_read_only(void)
{
	struct rig r;

	memset(&r, 0, sizeof(r));
	if (!check(fake_channel_create(&r.fc, 2, 4096, 4, false)))
		return;
	r.opt.channel = r.fc.dir;
	r.opt.interval = 1;
	r.opt.read_only = true;
	top_start(&r.t, &r.opt, OUT_NONE);
	for (const char *k = "reo"; *k; k++) {
		top_key(&r.t, *k);
		check(controller_prompt(&r.t.app) == NULL);
		check(r.t.app.status_error);
		check(strstr(r.t.app.status, "not with --read-only") != NULL);
		top_key(&r.t, 'y');
	}
	check_str(written(&r.fc, "reset"), "");
	check_str(written(&r.fc, "overwrite"), "0");
	check_str(written(&r.fc, "events"), "switch wakeup wakeup_new migrate fork exit waking");
	check(!(top_key(&r.t, KEY_CODE_RIGHT) & REACT_SEEK));
	check(strstr(r.t.app.status, "cannot be moved in time") != NULL);
	rig_stop(&r);
}

static void test_table(void)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	int labelled = 0;

	for (size_t i = 0; i < n; i++) {
		check(t[i].cmd != CMD_NONE);
		check(keys_command(t[i].key) == t[i].cmd);
		if (t[i].help) {
			check(t[i].label != NULL);
			labelled++;
		}
	}
	check_int(labelled, >=, 18);
}

int main(void)
{
	TEST(test_simple_keys(), "q, h/?, p/space, s, unknown keys");
	TEST(test_view_keys(), "t, l, s in a view, I, g, c, 1, arrows and pages, z");
	TEST(test_interval_ladder(), "+ and - step the refresh interval within its ladder");
	TEST(test_channel_keys(), "r, e+letter, o write the channel's attributes");
	TEST(test_read_only(), "--read-only: r, e and o refuse and change nothing; no seeking live");
	TEST(test_table(), "the key table is complete for the help screen");
	return test_done();
}

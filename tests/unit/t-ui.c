// SPDX-License-Identifier: GPL-2.0
/*
 * t-ui.c - pins the curses screen (relaytop/ui.c) on a real terminal: the
 * built relaytop runs in a tmux pane of 80x24 on a fake channel whose
 * producer keeps writing, and the pane's text is checked:
 * - the header names the channel, geometry, mode and events;
 * - there is one row per CPU and an "all" row, with moving rates;
 * - h shows the help screen and h takes it away again;
 * - a resize redraws at the new width;
 * - an unknown TERM falls back to vt100 and says so instead of dying;
 * - q quits with status 0 and gives the terminal back;
 * - recording with the screen on, closing the terminal (SIGHUP) still
 *   leaves a complete recording.
 * Needs tmux (make deps) and $RELAYTOP, the binary (make check sets it).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake-channel.h"
#include "test-lib.h"

static struct fake_channel fc;
static pid_t producer;
static char session[64];
static const char *relaytop;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A producer writing to every CPU until killed. */
static void start_producer(void)
{
	producer = fork();
	if (producer)
		return;
	for (;;) {
		for (unsigned int c = 0; c < fc.ncpus; c++)
			fake_relay_events(&fc.relay[c], 20 + 10 * c);
		sleep_ms(10);
	}
}

static char *capture(void)
{
	static char text[16384];
	char cmd[128];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "tmux capture-pane -p -t %s 2>/dev/null",
		 session);
	p = popen(cmd, "r");
	n = p ? fread(text, 1, sizeof(text) - 1, p) : 0;
	text[n] = '\0';
	if (p)
		pclose(p);
	return text;
}

/* Wait up to 5 s for needle on the screen. */
static bool wait_for(const char *needle)
{
	for (int i = 0; i < 50; i++) {
		if (strstr(capture(), needle))
			return true;
		sleep_ms(100);
	}
	test_msg("waited for \"%s\"; the screen:\n%s", needle, capture());
	return false;
}

static void tmux(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, session, arg);
	if (system(cmd))
		test_msg("failed: %s", cmd);
}

/* Start relaytop in a fresh 80x24 pane (as nobody when root: the fake
 * buffers are regular files and must not receive hand-back writes). */
static void start_relaytop(const char *env, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "tmux kill-session -t %s 2>/dev/null; "
		 "tmux new-session -d -s %s -x 80 -y 24 "
		 "\"%s %s %s -c %s -d 0.2 %s; echo EXITED=\\$?; sleep 60\"",
		 session, session, env,
		 geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 "
				  "--clear-groups" : "",
		 relaytop, fc.dir, args);
	if (system(cmd))
		test_msg("failed: %s", cmd);
}

static void test_screen(void)
{
	char *s, row[16];

	start_relaytop("", "");
	if (!check(wait_for("CPU EVENTS/s")))
		return;
	s = capture();
	check(strstr(s, "relaytop  ") == s);
	check(strstr(s, fc.dir) != NULL);
	check(strstr(s, "8 x 4 KiB per CPU  overwrite  enabled  events: all")
	      != NULL);
	for (unsigned int c = 0; c < fc.ncpus; c++) {
		snprintf(row, sizeof(row), "\n  %u ", c);
		if (!check(strstr(s, row) != NULL))
			test_msg("no row for CPU %u", c);
	}
	check(strstr(s, "\nall ") != NULL);
	check(strstr(s, "h: help  q: quit") != NULL ||
	      strstr(s, "read-only") != NULL);
}

static void test_rates_move(void)
{
	char *s, *all;
	double rate = 0;

	sleep_ms(1000);
	s = capture();
	all = strstr(s, "\nall ");
	if (!check(all != NULL))
		return;
	check_int(sscanf(all + 5, "%lf", &rate), ==, 1);
	check(rate > 0);
}

static void test_help(void)
{
	tmux("tmux send-keys -t %s h%s", "");
	check(wait_for("Keys"));
	check(strstr(capture(), "toggle overwrite") != NULL);
	tmux("tmux send-keys -t %s h%s", "");
	check(wait_for("CPU EVENTS/s"));
}

static void test_resize(void)
{
	char *s, *line;
	size_t longest = 0;

	tmux("tmux resize-window -t %s -x 120 -y 30%s", "");
	sleep_ms(800);
	s = capture();
	for (line = s; line && *line; line = strchr(line, '\n')) {
		size_t len;

		if (*line == '\n')
			line++;
		len = strcspn(line, "\n");
		if (len > longest)
			longest = len;
	}
	check_uint(longest, >, 80);
	check(strstr(s, "CPU EVENTS/s") != NULL);
}

static void test_quit(void)
{
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
	check(strstr(capture(), "CPU EVENTS/s") == NULL);	/* screen given back */
}

static void test_unknown_term(void)
{
	start_relaytop("TERM=no-such-terminal", "");
	check(wait_for("CPU EVENTS/s"));
	check(wait_for("TERM=no-such-terminal is not known here: using vt100"));
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
}

static void test_hangup_while_recording(void)
{
	char dir[] = "/tmp/t-ui.XXXXXX", args[128], cmd[256];
	bool complete = false;

	if (!check(mkdtemp(dir) != NULL))
		return;
	chmod(dir, 0777);
	snprintf(args, sizeof(args), "--record %s/r.bin", dir);
	start_relaytop("", args);
	check(wait_for("recording"));
	sleep_ms(500);
	tmux("tmux kill-session -t %s%s", "");	/* SIGHUP */
	snprintf(cmd, sizeof(cmd), "%s --dump %s/r.bin >/dev/null 2>&1",
		 relaytop, dir);
	for (int i = 0; i < 50 && !complete; i++) {
		sleep_ms(100);
		complete = system(cmd) == 0;
	}
	check(complete);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		test_msg("could not remove %s", dir);
}

int main(void)
{
	snprintf(session, sizeof(session), "t-ui-%d", (int)getpid());
	relaytop = getenv("RELAYTOP");
	if (!relaytop || system("command -v tmux >/dev/null 2>&1")) {
		TEST(check(false), "tmux is installed and RELAYTOP set (make deps; make check)");
		return test_done();
	}
	if (!fake_channel_create(&fc, 4, 4096, 8, true))
		return 2;
	chmod(fc.dir, 0755);
	for (unsigned int c = 0; c < fc.ncpus; c++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/buffers/cpu%u", fc.dir, c);
		chmod(path, 0444);
	}
	start_producer();
	TEST(test_screen(), "header, one row per CPU, the all row, the status line");
	TEST(test_rates_move(), "rates move while the producer writes");
	TEST(test_help(), "h shows the help and h takes it away");
	TEST(test_resize(), "a resize redraws at the new size");
	TEST(test_quit(), "q quits with status 0 and gives the terminal back");
	TEST(test_unknown_term(), "an unknown TERM falls back to vt100, says so");
	TEST(test_hangup_while_recording(), "a closed terminal (SIGHUP) still leaves a complete recording");
	tmux("tmux kill-session -t %s 2>/dev/null || true%s", "");
	kill(producer, SIGKILL);
	waitpid(producer, NULL, 0);
	fake_channel_destroy(&fc);
	return test_done();
}

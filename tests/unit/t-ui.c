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
 * - the CPU table has a RUNNING column naming who runs; 1 leaves only the
 *   all row and 1 brings the CPUs back;
 * - t shows the tasks view (its title, columns and the producer's
 *   tasks), l the latency view (per CPU rows, all, the late records'
 *   count, the histogram's header; no row for CPUs 1 and 3, which have
 *   no records, the last one too, and a line that says so), L the
 *   run-queue latency there and its columns (RQAVG RQMAX) in the tasks
 *   view, L again the wakeup latency, and l again the CPU table;
 * - h shows, at 80x24, every key's line whole and the columns of the
 *   view it was pressed in (the CPU table's, the latency view's, the
 *   tasks view's), nothing more to scroll to; Esc leaves it;
 * - -C 0,2 narrows every table: the CPU table shows rows 0 and 2 only,
 *   the latency view too, and its title names the filter;
 * - with NO_COLOR (or --no-color) the screen has no colours;
 * - q quits with status 0 and gives the terminal back;
 * - recording with the screen on, closing the terminal (SIGHUP) still
 *   leaves a complete recording;
 * - SIGQUIT (Ctrl-\\), SIGSEGV and SIGABRT give the terminal back too
 *   (the screen's own is left, echo and line mode are on again) before
 *   relaytop dies of them;
 * - tasks named by escape sequences ("\033]0;x\007", "\033[2J", C1
 *   bytes; hostile-recording.h), replayed: the RUNNING column and the
 *   tasks view show them escaped (\x1b]0;x\x07), and what relaytop
 *   wrote to the terminal (tmux pipe-pane) holds no BEL and no title
 *   change, the pane's title is not theirs.
 * Needs tmux (make deps) and $RELAYTOP, the binary (make check sets it).
 */
#define _GNU_SOURCE		/* memmem() */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake-channel.h"
#include "hostile-recording.h"
#include "keys.h"
#include "test-lib.h"
#include "tmux-pane.h"

static struct fake_channel fc;
static pid_t producer;

/* A producer writing to CPUs 0 and 2 until killed (1 and 3 stay
 * quiet, in the middle and at the end). */
static void start_producer(void)
{
	producer = fork();
	if (producer)
		return;
	for (;;) {
		for (unsigned int c = 0; c < fc.ncpus; c++)
			if (c % 2 == 0)
				fake_relay_events(&fc.relay[c], 20 + 10 * c);
		pane_sleep_ms(10);
	}
}

static char *capture_with(const char *flags)
{
	return pane_capture(flags);
}

static char *capture(void)
{
	return pane_capture("");
}

static bool wait_until(bool (*holds)(const char *screen), const char *what)
{
	return pane_wait_until(holds, what);
}

static bool wait_for(const char *needle)
{
	return pane_wait_for(needle);
}

/* The "all" row's events/s, or 0. */
static double all_rate(const char *screen)
{
	const char *all = strstr(screen, "\nall ");
	double rate = 0;

	if (!all || sscanf(all + 5, "%lf", &rate) != 1)
		return 0;
	return rate;
}

static bool rates_moved(const char *screen)
{
	return all_rate(screen) > 0;
}

/* The longest line's length. */
static size_t widest(const char *s)
{
	size_t longest = 0;

	for (const char *line = s; line && *line; line = strchr(line, '\n')) {
		size_t len;

		if (*line == '\n')
			line++;
		len = strcspn(line, "\n");
		if (len > longest)
			longest = len;
	}
	return longest;
}

static bool redrawn_wider(const char *screen)
{
	return widest(screen) > 80 && strstr(screen, "CPU EVENTS/s");
}

/* The recording line counts events: some are in the file. */
static bool recorded_some(const char *screen)
{
	const char *at = strstr(screen, " events, ");
	unsigned long long n = 0;

	while (at && at > screen && at[-1] >= '0' && at[-1] <= '9')
		at--;
	return at && sscanf(at, "%llu", &n) == 1 && n > 0;
}

static void tmux(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, pane_session(), arg);
	if (system(cmd))
		test_msg("failed: %s", cmd);
}

/* relaytop on the fake channel (a replay: on its recording), refreshing
 * every 0.2 s, in a fresh 80x24 pane; then: run after it. */
static void start_relaytop_then(const char *env, const char *args,
				const char *then)
{
	char all[1024];

	if (strstr(args, "--replay"))
		snprintf(all, sizeof(all), "-d 0.2 %s", args);
	else
		snprintf(all, sizeof(all), "-c %s -d 0.2 %s", fc.dir, args);
	pane_relaytop(env, all, then);
}

static void start_relaytop(const char *env, const char *args)
{
	start_relaytop_then(env, args, "");
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
	check(wait_until(rates_moved, "a rate above 0 in the all row"));
}

static bool a_view(const char *screen)
{
	return !strstr(screen, "Keys (h") &&
	       (strstr(screen, "EVENTS/s") || strstr(screen, "SW/s") ||
		strstr(screen, "P50"));
}

/*
 * At 80x24 the help holds every key's line whole and the columns of the
 * view shown, with nothing left to scroll to.  Before, its lines were
 * cut at the edge and it went on below the screen.
 */
static void help_whole(const char *last_line)
{
	size_t n;
	const struct key_binding *keys = keys_table(&n);
	char *s;

	tmux("tmux send-keys -t %s h%s", "");
	check(wait_for("Keys (h, F1 or Esc: back)"));
	check(wait_for(last_line));
	s = capture();
	for (size_t i = 0; i < n; i++) {
		char line[96];

		if (!keys[i].label)
			continue;
		snprintf(line, sizeof(line), " %-7s %s", keys[i].label,
			 keys[i].help);
		if (!check(strstr(s, line) != NULL))
			test_msg("the help has no whole line \"%s\"", line);
	}
	check(strstr(s, "more lines") == NULL);
	if (test_failed())
		test_msg("the help:\n%s", s);
	tmux("tmux send-keys -t %s Escape%s", "");
	check(wait_until(a_view, "a view, not the help"));
}

static void test_help(void)
{
	help_whole("HISTORY  the event rate, the newest on the right");
}

static void test_resize(void)
{
	tmux("tmux resize-window -t %s -x 120 -y 30%s", "");
	check(wait_until(redrawn_wider, "the table redrawn wider than 80"));
}

static bool no_cpu_rows(const char *screen)
{
	return !strstr(screen, "\n  0 ") && strstr(screen, "\nall ");
}

static bool cpu_rows_back(const char *screen)
{
	return strstr(screen, "\n  0 ") && strstr(screen, "\n  3 ");
}

/* The RUNNING column names the fake producer's tasks ("next"). */
static bool running_named(const char *screen)
{
	const char *row = strstr(screen, "\n  0 ");

	return row && strstr(row, " next ") &&
	       strstr(row, " next ") < strchr(row + 1, '\n');
}

static void test_views(void)
{
	char *s;

	check(wait_for("RUNNING"));
	check(wait_until(running_named, "a CPU row naming who runs"));
	tmux("tmux send-keys -t %s 1%s", "");
	check(wait_until(no_cpu_rows, "only the all row"));
	tmux("tmux send-keys -t %s 1%s", "");
	check(wait_until(cpu_rows_back, "the CPU rows back"));
	tmux("tmux send-keys -t %s t%s", "");
	check(wait_for("TASKS all CPUs"));
	check(wait_for("SW/s"));
	check(wait_for(" next "));
	tmux("tmux send-keys -t %s l%s", "");
	check(wait_for("LATENCY wakeup -> switch-in"));
	check(wait_for("P50"));
	check(wait_for("usecs : count"));
	/* CPUs 1 and 3 have no record: no row, and the line under all
	 * says so */
	check(wait_for(" (records out of time order); 2 CPUs with no record "
		       "not shown"));
	s = capture();
	check(strstr(s, "\nall ") != NULL);
	check(strstr(s, "\nlate ") != NULL);
	check(strstr(s, "\n  0 ") != NULL);
	check(strstr(s, "\n  2 ") != NULL);
	if (!check(strstr(s, "\n  1 ") == NULL && strstr(s, "\n  3 ") == NULL))
		test_msg("the latency view:\n%s", s);
	/* the latency view's help: its columns, whole */
	help_whole("usecs    runqlat's log2 histogram");
	/* L: the run-queue latency, here and in the tasks view */
	tmux("tmux send-keys -t %s L%s", "");
	check(wait_for("RUN-QUEUE LATENCY wakeup or preemption -> switch-in"));
	check(wait_for("run-queue latency: wakeup or preemption to switch-in"));
	tmux("tmux send-keys -t %s t%s", "");
	check(wait_for("  RQAVG   RQMAX"));
	help_whole("RQAVG RQMAX    run-queue latency (L)");
	tmux("tmux send-keys -t %s L%s", "");
	check(wait_for(" WAKAVG  WAKMAX"));
	tmux("tmux send-keys -t %s l%s", "");
	check(wait_for("LATENCY wakeup -> switch-in"));
	tmux("tmux send-keys -t %s l%s", "");
	check(wait_for("CPU EVENTS/s"));
}

static bool rows_0_2_only(const char *screen)
{
	return strstr(screen, "\n  0 ") && strstr(screen, "\n  2 ") &&
	       !strstr(screen, "\n  1 ") && !strstr(screen, "\n  3 ") &&
	       strstr(screen, "\nall ");
}

static void test_cpu_filter(void)
{
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
	start_relaytop("", "-C 0,2");
	check(wait_for("CPU EVENTS/s"));
	check(wait_until(rates_moved, "a rate above 0 in the all row"));
	check(wait_until(rows_0_2_only, "rows of CPUs 0 and 2 only"));
	tmux("tmux send-keys -t %s l%s", "");
	check(wait_for("LATENCY wakeup -> switch-in all CPUs"));
	check(wait_for("-C 0,2"));
	check(wait_until(rows_0_2_only, "latency rows of CPUs 0 and 2 only"));
	tmux("tmux send-keys -t %s l%s", "");
	check(wait_for("CPU EVENTS/s"));
}

static void test_no_color(void)
{
	/* colours: the header bar's background (cyan) */
	check(strstr(capture_with("-e"), "46m") != NULL);
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
	start_relaytop("NO_COLOR=1", "");
	check(wait_for("CPU EVENTS/s"));
	check(strstr(capture_with("-e"), "46m") == NULL);
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
	start_relaytop("", "--no-color");
	check(wait_for("CPU EVENTS/s"));
	check(strstr(capture_with("-e"), "46m") == NULL);
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
	check(wait_until(recorded_some, "events in the recording"));
	tmux("tmux kill-session -t %s%s", "");	/* SIGHUP */
	snprintf(cmd, sizeof(cmd), "%s --dump %s/r.bin >/dev/null 2>&1",
		 pane_relaytop_bin(), dir);
	for (int i = 0; i < 50 && !complete; i++) {
		pane_sleep_ms(100);
		complete = system(cmd) == 0;
	}
	check(complete);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		test_msg("could not remove %s", dir);
}

/* What the pane's program wrote to the terminal (pipe-pane), raw. */
static size_t raw_output(const char *file, char *buf, size_t size)
{
	FILE *f = fopen(file, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return n;
}

static void test_hostile_names(void)
{
	char dir[] = "/tmp/t-ui-names.XXXXXX", args[256], cmd[512];
	char raw_file[300], title[64] = "";
	static char raw[1 << 20];
	size_t n;
	FILE *p;

	if (!check(mkdtemp(dir) != NULL))
		return;
	chmod(dir, 0777);
	snprintf(args, sizeof(args), "%s/hostile.rec", dir);
	hostile_recording(args);
	chmod(args, 0644);
	snprintf(raw_file, sizeof(raw_file), "%s/raw", dir);
	/* one interval takes all of it; a finished replay stands still */
	snprintf(args, sizeof(args), "--replay %s/hostile.rec -d 5", dir);
	start_relaytop("", args);
	snprintf(cmd, sizeof(cmd), "tmux pipe-pane -o -t %s 'cat > %s'",
		 pane_session(), raw_file);
	if (system(cmd))
		test_msg("failed: %s", cmd);
	check(wait_for("RUNNING"));
	check(wait_for("\\x1b]0;x\\x0"));	/* cut to the column */
	tmux("tmux send-keys -t %s t%s", "");
	check(wait_for("TASKS"));
	check(wait_for(HOSTILE_TITLE_ESCAPED));
	check(wait_for(HOSTILE_ERASE_ESCAPED));
	n = raw_output(raw_file, raw, sizeof(raw));
	check_uint(n, >, 0);
	check(memchr(raw, '\a', n) == NULL);
	check(memmem(raw, n, "\033]0;", 4) == NULL);
	check(memmem(raw, n, HOSTILE_ERASE_ESCAPED,
		     strlen(HOSTILE_ERASE_ESCAPED)) != NULL);
	snprintf(cmd, sizeof(cmd), "tmux display -p -t %s '#{pane_title}'",
		 pane_session());
	p = popen(cmd, "r");
	if (p && fgets(title, sizeof(title), p))
		title[strcspn(title, "\n")] = '\0';
	if (p)
		pclose(p);
	check(strcmp(title, "x") != 0);
	tmux("tmux send-keys -t %s q%s", "");
	check(wait_for("EXITED=0"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		test_msg("could not remove %s", dir);
}

/*
 * A signal that kills relaytop (sig) leaves the terminal as it found it:
 * the screen it had before (the alternate screen left), echo and
 * canonical mode on (stty says no -echo, no -icanon).  Before, only
 * fatal() restored it: the pane still showed the CPU table, and the
 * shell after it ran with -icanon -echo.
 */
static void killed_by(int sig)
{
	char want[32];
	pid_t p;

	/* after it: the modes that curses changes, if they still are */
	start_relaytop_then("", "", "stty -a | tr ' ' '\\n' | grep -x -e "
			    "-echo -e -icanon | tr '\\n' ' '; echo TTY;");
	if (!check(wait_for("CPU EVENTS/s")))
		return;
	p = pane_child_pid();
	if (!check_int(p, >, 0))
		return;
	kill(p, sig);
	snprintf(want, sizeof(want), "EXITED=%d", 128 + sig);
	check(wait_for(want));
	check(wait_for("TTY"));
	/* -J: lines the terminal wrapped joined again */
	if (!check(strstr(capture_with("-J"), "CPU EVENTS/s") == NULL &&
		   strstr(capture_with("-J"), "\nall ") == NULL))
		test_msg("the screen after %s:\n%s", strsignal(sig), capture());
	if (!check(strstr(capture_with("-J"), "-echo") == NULL &&
		   strstr(capture_with("-J"), "-icanon") == NULL))
		test_msg("the terminal's modes after %s:\n%s",
			 strsignal(sig), capture());
}

static void test_killed(void)
{
	killed_by(SIGQUIT);
	killed_by(SIGSEGV);
	killed_by(SIGABRT);
}

int main(void)
{
	if (!pane_setup()) {
		pane_teardown();
		return test_done();
	}
	if (!fake_channel_create(&fc, 4, 4096, 8, true))
		return 2;
	pane_share_channel(fc.dir, fc.ncpus);
	start_producer();
	TEST(test_screen(), "header, one row per CPU, the all row, the status line");
	TEST(test_rates_move(), "rates move while the producer writes");
	TEST(test_help(), "h shows the help and h takes it away");
	TEST(test_resize(), "a resize redraws at the new size");
	TEST(test_views(), "RUNNING, the summary toggle, the tasks and latency views, the help scrolls");
	TEST(test_cpu_filter(), "-C 0,2: the CPU table and the latency view show CPUs 0 and 2 only");
	TEST(test_no_color(), "NO_COLOR and --no-color: no colours");
	TEST(test_quit(), "q quits with status 0 and gives the terminal back");
	TEST(test_unknown_term(), "an unknown TERM falls back to vt100, says so");
	TEST(test_killed(), "SIGQUIT, SIGSEGV, SIGABRT: the terminal is given back before relaytop dies");
	TEST(test_hostile_names(), "tasks named by escape sequences show escaped; none reaches the terminal");
	TEST(test_hangup_while_recording(), "a closed terminal (SIGHUP) still leaves a complete recording");
	kill(producer, SIGKILL);
	waitpid(producer, NULL, 0);
	fake_channel_destroy(&fc);
	pane_teardown();
	return test_done();
}

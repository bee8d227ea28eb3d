// SPDX-License-Identifier: GPL-2.0
/*
 * t-screen-keys.c - pins, on a real terminal (a tmux pane of 80x24), the
 * keys and options of issue 31: the built relaytop runs on a fake
 * channel whose producer keeps switching between five named tasks
 * (alpha 501, beta 502, gamma 503, delta 504, kworker/1:2 505) and
 * waking them:
 * - / types a search (the status line shows it), the row found is shown
 *   in reverse video and, by pid too; F3 goes on to the next match; Esc
 *   clears it;
 * - \ types a filter: only the rows it names stay, the title says so;
 *   Esc while typing clears it; F4 and Enter keep one; Esc clears it;
 * - --sort pid starts the tasks sorted by pid (its header marked, 501
 *   first), --sort rqmax by the run-queue latency (its columns shown);
 * - --comm alpha,beta shows those two only, --tid 503 gamma only, and a
 *   16-byte --comm name is refused with status 2;
 * - --read-only: r says it will not and asks nothing; the channel's
 *   reset file is not written;
 * - -C 9 on a channel of 4 CPUs: status 2 and the CPUs it has;
 * - --replay --speed 2 says x2 in the header; Right and Left move the
 *   replay 10 s on and back, saying where it is;
 * - README.md's screenshot is of 80 columns, and its table header and
 *   status line are the screen's at 80x24, its first two lines in the
 *   screen's form.
 * Needs tmux (make deps) and $RELAYTOP, the binary (make check sets it).
 */
#define _GNU_SOURCE		/* strcasestr() */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake-channel.h"
#include "synth-recording.h"
#include "test-lib.h"
#include "test-util.h"
#include "tmux-pane.h"

static struct fake_channel fc;
static pid_t producer;

static const struct {
	int32_t pid;
	const char *comm;
} tasks[] = {
	{ 501, "alpha" }, { 502, "beta" }, { 503, "gamma" },
	{ 504, "delta" }, { 505, "kworker/1:2" },
};
#define NTASKS (sizeof(tasks) / sizeof(tasks[0]))

/* Every other record a switch from one task (preempted) to the next, the
 * others wakeups of a third. */
static void fill(void *arg, struct sched_relay_record *r)
{
	static unsigned int k;
	unsigned int i = (k / 2) % NTASKS, j = (i + 1) % NTASKS;

	(void)arg;
	if (k++ % 2 == 0) {
		r->type = SCHED_RELAY_SWITCH;
		r->state = SCHED_RELAY_STATE_PREEMPTED;
		r->pid = r->tgid = tasks[i].pid;
		snprintf(r->comm, sizeof(r->comm), "%s", tasks[i].comm);
		r->pid2 = r->tgid2 = tasks[j].pid;
		snprintf(r->comm2, sizeof(r->comm2), "%s", tasks[j].comm);
	} else {
		j = (i + 2) % NTASKS;
		r->type = SCHED_RELAY_WAKEUP;
		r->pid = r->tgid = tasks[j].pid;
		memset(r->comm, 0, sizeof(r->comm));
		snprintf(r->comm, sizeof(r->comm), "%s", tasks[j].comm);
		r->pid2 = r->tgid2 = 0;
		memset(r->comm2, 0, sizeof(r->comm2));
	}
}

static void start_producer(void)
{
	producer = fork();
	if (producer)
		return;
	for (unsigned int c = 0; c < fc.ncpus; c++)
		fc.relay[c].fill = fill;
	for (;;) {
		for (unsigned int c = 0; c < 3; c++)
			fake_relay_events(&fc.relay[c], 6 + 2 * c);
		pane_sleep_ms(10);
	}
}

static void start(const char *args)
{
	char all[512];

	snprintf(all, sizeof(all), "-c %s -d 0.3 %s", fc.dir, args);
	pane_relaytop("", all, "");
}

static void quit(void)
{
	pane_keys("q");
	check(pane_wait_for("EXITED=0"));
}

/*
 * Whether the line of the pane that holds needle shows it in reverse
 * video (the search's row).  The pane's text with its escapes (capture
 * -e) gives attributes as they change, maybe on a line before: the state
 * is followed through the text.
 */
static bool reversed(const char *needle)
{
	const char *e = pane_capture("-e");
	char line[512];
	bool rev[512], on = false;
	size_t n = 0;

	for (const char *p = e;; p++) {
		if (*p == '\033' && p[1] == '[') {
			long v = 0;

			for (p += 2; *p && *p != 'm'; p++) {
				if (*p >= '0' && *p <= '9') {
					v = v * 10 + (*p - '0');
					continue;
				}
				on = v == 7 ? true : v == 0 || v == 27 ? false : on;
				v = 0;
			}
			on = v == 7 ? true : v == 0 || v == 27 ? false : on;
			if (!*p)
				break;
			continue;
		}
		if (*p == '\n' || !*p) {
			char *at;

			line[n] = '\0';
			at = strstr(line, needle);
			if (at)
				return rev[at - line];
			n = 0;
			if (!*p)
				break;
			continue;
		}
		if (n < sizeof(line) - 1) {
			rev[n] = on;
			line[n++] = *p;
		}
	}
	return false;
}

static const char *search_name;

static bool found_shown(const char *screen)
{
	(void)screen;
	return reversed(search_name);
}

static bool no_row_reversed(const char *screen)
{
	char name[32];

	(void)screen;
	/* the header bar is reverse video too: only rows of tasks count */
	for (size_t i = 0; i < NTASKS; i++) {
		snprintf(name, sizeof(name), " %s ", tasks[i].comm);
		if (reversed(name))
			return false;
	}
	return true;
}

static bool every_task_shown(const char *screen)
{
	for (size_t i = 0; i < NTASKS; i++)
		if (!strstr(screen, tasks[i].comm))
			return false;
	return true;
}

static void test_search(void)
{
	start("--tasks");
	if (!check(pane_wait_until(every_task_shown, "the five tasks")))
		return;
	pane_keys("/ g a m");
	check(pane_wait_for("search: gam_  Enter keeps, F3 next, Esc clears"));
	search_name = " gamma ";
	check(pane_wait_until(found_shown, "gamma's row in reverse video"));
	pane_keys("Enter");
	check(pane_wait_for("search \"gam\" (F3: next, Esc: clear)"));
	check(reversed(" gamma "));
	pane_keys("Escape");
	check(pane_wait_until(no_row_reversed, "no row in reverse video"));
	/* by pid */
	pane_keys("/ 5 0 4 Enter");
	search_name = " delta ";
	check(pane_wait_until(found_shown, "delta's row (pid 504)"));
	/* F3: the next row holding "a" after the one found */
	pane_keys("Escape");
	check(pane_wait_until(no_row_reversed, "no row in reverse video"));
	pane_keys("/ a");
	check(pane_wait_for("search: a_"));
	pane_keys("Enter");
	pane_sleep_ms(500);
	{
		char first[64] = "", name[32];

		for (size_t i = 0; i < NTASKS; i++) {
			snprintf(name, sizeof(name), " %s ", tasks[i].comm);
			if (reversed(name))
				snprintf(first, sizeof(first), "%s", name);
		}
		check(first[0] != '\0');
		pane_keys("F3");
		search_name = first;
		for (int i = 0; i < 30 && reversed(first); i++)
			pane_sleep_ms(100);
		if (!check(!reversed(first)))
			test_msg("F3 left %s found", first);
	}
	pane_keys("Escape");
	check(pane_wait_until(no_row_reversed, "no row in reverse video"));
	quit();
}

static bool only_kworker(const char *screen)
{
	return strstr(screen, "kworker/1:2") && !strstr(screen, " alpha ") &&
	       !strstr(screen, " gamma ");
}

static bool a_names_only(const char *screen)
{
	return strstr(screen, " alpha ") && strstr(screen, " beta ") &&
	       strstr(screen, " gamma ") && strstr(screen, " delta ") &&
	       !strstr(screen, " kworker/1:2 ");
}

static void test_filter(void)
{
	start("--tasks");
	if (!check(pane_wait_until(every_task_shown, "the five tasks")))
		return;
	pane_keys("'\\' k w");
	check(pane_wait_for("filter: kw_"));
	check(pane_wait_until(only_kworker, "kworker's row only"));
	check(pane_wait_for("filter \"kw\""));	/* in the title */
	pane_keys("Escape");
	check(pane_wait_until(every_task_shown, "every task again"));
	pane_keys("F4 a Enter");
	check(pane_wait_until(a_names_only, "the names with an a"));
	check(pane_wait_for("filter \"a\" (Esc clears)"));
	pane_keys("Escape");
	check(pane_wait_until(every_task_shown, "every task again"));
	quit();
}

static bool pid_first(const char *screen)
{
	const char *bar = strstr(screen, "PIDv COMM");
	const char *row = bar ? strchr(bar, '\n') : NULL;

	return row && !strncmp(row + 1, "    501 alpha ", 14);
}

static void test_options(void)
{
	start("--tasks --sort pid");
	check(pane_wait_until(pid_first, "sorted by pid, 501 first"));
	quit();
	start("--tasks --sort rqmax");
	check(pane_wait_for("  RQAVG  RQMAXv"));
	quit();
	start("--tasks --comm alpha,beta");
	check(pane_wait_for(" alpha "));
	check(pane_wait_for(" beta "));
	check(pane_wait_for("--comm alpha,beta"));
	check(!strstr(pane_capture(""), " gamma "));
	quit();
	start("--tasks --tid 503");
	check(pane_wait_for(" gamma "));
	check(pane_wait_for("--tid 503"));
	check(!strstr(pane_capture(""), " alpha "));
	quit();
	start("--comm sixteen-bytes-xx");
	check(pane_wait_for("a task name is 1 to 15 bytes"));
	check(pane_wait_for("EXITED=2"));
	start("-C 9");
	check(pane_wait_for("-C 9: the channel has no CPU 9 (its CPUs: 0-3)"));
	check(pane_wait_for("EXITED=2"));
}

static void test_read_only(void)
{
	start("--read-only");
	check(pane_wait_for("CPU EVENTS/s"));
	pane_keys("r");
	check(pane_wait_for("r: not with --read-only"));
	pane_keys("y");
	pane_sleep_ms(300);
	check(strstr(pane_capture(""), "(y/n)") == NULL);
	check_str(fake_channel_read(&fc, "reset"), "");
	quit();
}

static void test_replay_keys(void)
{
	char file[] = "/tmp/t-screen-keys.XXXXXX", args[128];
	int fd = mkstemp(file);

	close(fd);
	synth_write_paced(file, 2, 60);
	chmod(file, 0644);
	snprintf(args, sizeof(args), "--replay %s -d 0.5 --speed 2", file);
	pane_relaytop("", args, "");
	check(pane_wait_for("every 0.5s   x2"));
	pane_keys("Right");
	check(pane_wait_for(" of the recording"));
	check(strstr(pane_capture(""), "at 0:1") != NULL);
	pane_keys("Left Left");
	check(pane_wait_for("at 0:0"));
	pane_keys("Right Right Right Right Right Right Right");
	check(pane_wait_for("at 1:"));
	quit();
	unlink(file);
}

/* The screenshot: the indented block of README.md that starts with
 * "    relaytop  " (its lines without the indent, *n of them). */
static char **screenshot(char *readme, int *n)
{
	static char *lines[64];
	char *at = strstr(readme, "\n    relaytop  ");

	*n = 0;
	for (char *l = at ? at + 1 : NULL; l && *n < 64;) {
		char *end = strchr(l, '\n');

		if (end)
			*end = '\0';
		if (strncmp(l, "    ", 4) && l[0])
			break;
		lines[(*n)++] = l[0] ? l + 4 : l;
		l = end ? end + 1 : NULL;
	}
	while (*n && !lines[*n - 1][0])
		(*n)--;
	return lines;
}

static bool rates_and_names(const char *screen)
{
	const char *all = strstr(screen, "\nall ");
	double rate = 0;

	return all && sscanf(all + 5, "%lf", &rate) == 1 && rate > 0 &&
	       (strstr(screen, " alpha ") || strstr(screen, " beta "));
}

/* The columns a line of UTF-8 takes (the sparkline's blocks are 3
 * bytes each): its bytes but continuation bytes. */
static size_t columns(const char *line)
{
	size_t n = 0;

	for (; *line; line++)
		n += ((unsigned char)*line & 0xc0) != 0x80;
	return n;
}

/* Whether line has the words of the screen's first line, in order. */
static bool title_form(const char *line)
{
	const char *p = line;
	static const char *const words[] = { "relaytop  ", "   gen ",
					     "   up ", "   every " };

	for (size_t i = 0; i < 4; i++) {
		p = strstr(p, words[i]);
		if (!p)
			return false;
	}
	return !strncmp(line, "relaytop  ", 10);
}

/* Lines of the screen: the pane's text, each a copy without trailing
 * blanks. */
static int screen_lines(char *text, char **lines, int max)
{
	int n = 0;

	for (char *l = text; l && n < max;) {
		char *end = strchr(l, '\n');
		size_t len;

		if (end)
			*end = '\0';
		len = strlen(l);
		while (len && l[len - 1] == ' ')
			l[--len] = '\0';
		lines[n++] = l;
		l = end ? end + 1 : NULL;
	}
	return n;
}

static void test_readme_screenshot(void)
{
	const char *at = strstr(__FILE__, "tests/unit/");
	char path[1024], *readme, **shot, *screen[64], *text;
	int n, rows;

	snprintf(path, sizeof(path), "%.*sREADME.md",
		 at ? (int)(at - __FILE__) : 0, __FILE__);
	readme = slurp_text(path, NULL);
	if (!check(readme != NULL))
		return;
	shot = screenshot(readme, &n);
	if (!check_int(n, >=, 8))
		return;
	for (int i = 0; i < n; i++)
		if (!check_uint(columns(shot[i]), <=, 80))
			test_msg("README's screenshot is wider than 80: %s",
				 shot[i]);
	start("");
	check(pane_wait_for("RUNNING"));
	check(pane_wait_for("h: help  q: quit"));
	check(pane_wait_until(rates_and_names, "rates and a task running"));
	text = strdup(pane_capture(""));
	rows = screen_lines(text, screen, 64);
	if (check_int(rows, >=, 24)) {
		int hs = -1, hr = -1;

		for (int i = 0; i < n && hs < 0; i++)
			if (!strncmp(shot[i], "CPU ", 4))
				hs = i;
		for (int i = 0; i < rows && hr < 0; i++)
			if (!strncmp(screen[i], "CPU ", 4))
				hr = i;
		/* the whole screen, its header bar where the screen's is */
		check_int(n, ==, 24);
		check_int(hs, ==, hr);
		if (hs >= 0 && hr >= 0)
			check_str(shot[hs], screen[hr]);
		/* the first line's form; the second's words */
		check(title_form(shot[0]));
		check(title_form(screen[0]));
		check(strstr(shot[1], " per CPU  ") && strstr(shot[1], "  enabled  events: "));
		check(strstr(screen[1], " per CPU  ") && strstr(screen[1], "  enabled  events: "));
		/* the status line: the last of each */
		check_str(shot[n - 1], screen[23]);
	}
	if (test_failed())
		test_msg("the screen:\n%s", pane_capture(""));
	free(text);
	free(readme);
	quit();
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
	TEST(test_search(), "/ finds a task by name or pid, F3 the next, Esc clears");
	TEST(test_filter(), "\\ and F4 keep the tasks named, Esc shows all again");
	TEST(test_options(), "--sort, --comm a,b, --tid start the view so; a 16-byte name and -C 9 exit 2");
	TEST(test_read_only(), "--read-only: r refuses and writes nothing");
	TEST(test_replay_keys(), "--replay --speed 2, Right and Left seek");
	TEST(test_readme_screenshot(), "README's screenshot has the screen's header at 80x24");
	kill(producer, SIGKILL);
	waitpid(producer, NULL, 0);
	fake_channel_destroy(&fc);
	pane_teardown();
	return test_done();
}

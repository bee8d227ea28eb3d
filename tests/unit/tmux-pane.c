// SPDX-License-Identifier: GPL-2.0
/* tmux-pane.c - relaytop on a real terminal, for tests (see tmux-pane.h). */
#include "tmux-pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test-lib.h"

static char session[64];	/* the tmux session the program runs in */
static unsigned int sessions;	/* sessions started: names the next one */
static char tmux_dir[] = "/tmp/tmux-pane.XXXXXX";	/* our own server's */
static const char *relaytop;

void pane_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

bool pane_setup(void)
{
	relaytop = getenv("RELAYTOP");
	/* a tmux server of our own: no other tmux user can end it */
	if (!mkdtemp(tmux_dir) || setenv("TMUX_TMPDIR", tmux_dir, 1))
		return false;
	unsetenv("TMUX");
	if (!relaytop || system("command -v tmux >/dev/null 2>&1")) {
		TEST(check(false), "tmux is installed and RELAYTOP set (make deps; make check)");
		return false;
	}
	return true;
}

const char *pane_relaytop_bin(void)
{
	return relaytop;
}

const char *pane_session(void)
{
	return session;
}

static void run(const char *cmd)
{
	if (system(cmd))
		test_msg("failed: %s", cmd);
}

void pane_run(const char *cmd, const char *then, int cols, int rows)
{
	char line[2048], old[sizeof(session)];

	snprintf(old, sizeof(old), "%s", session);
	snprintf(session, sizeof(session), "pane-%d-%u", (int)getpid(),
		 ++sessions);
	snprintf(line, sizeof(line),
		 "tmux new-session -d -s %s -x %d -y %d "
		 "\"%s; echo EXITED=\\$?; %s sleep 60\"", session, cols, rows,
		 cmd, then);
	run(line);
	if (old[0]) {
		snprintf(line, sizeof(line), "tmux kill-session -t %s", old);
		run(line);
	}
}

void pane_relaytop(const char *env, const char *args, const char *then)
{
	char cmd[1536];

	snprintf(cmd, sizeof(cmd), "%s %s %s %s", env, geteuid() == 0 ?
		 "setpriv --reuid=65534 --regid=65534 --clear-groups" : "",
		 relaytop, args);
	pane_run(cmd, then, 80, 24);
}

char *pane_capture(const char *flags)
{
	static char text[32768];
	char cmd[128];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "tmux capture-pane -p %s -t %s 2>/dev/null",
		 flags, session);
	p = popen(cmd, "r");
	n = p ? fread(text, 1, sizeof(text) - 1, p) : 0;
	text[n] = '\0';
	if (p)
		pclose(p);
	return text;
}

void pane_keys(const char *keys)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "tmux send-keys -t %s %s", session, keys);
	run(cmd);
}

bool pane_wait_until(bool (*holds)(const char *screen), const char *what)
{
	for (int i = 0; i < 100; i++) {
		if (holds(pane_capture("")))
			return true;
		pane_sleep_ms(100);
	}
	test_msg("waited for %s; the screen:\n%s", what, pane_capture(""));
	return false;
}

static const char *wanted;

static bool has_wanted(const char *screen)
{
	return strstr(screen, wanted) != NULL;
}

bool pane_wait_for(const char *needle)
{
	char what[256];

	wanted = needle;
	snprintf(what, sizeof(what), "\"%s\"", needle);
	return pane_wait_until(has_wanted, what);
}

pid_t pane_child_pid(void)
{
	char cmd[256], path[64], line[64] = "";
	long shell = 0, child = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "tmux display -p -t %s '#{pane_pid}'",
		 session);
	p = popen(cmd, "r");
	if (p && fgets(line, sizeof(line), p))
		shell = atol(line);
	if (p)
		pclose(p);
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", shell,
		 shell);
	p = fopen(path, "r");
	if (p && fscanf(p, "%ld", &child) != 1)
		child = 0;
	if (p)
		fclose(p);
	return (pid_t)child;
}

void pane_share_channel(const char *dir, unsigned int ncpus)
{
	char path[1024];

	chmod(dir, 0755);
	for (unsigned int c = 0; c < ncpus; c++) {
		snprintf(path, sizeof(path), "%s/buffers/cpu%u", dir, c);
		chmod(path, 0444);
	}
}

void pane_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "tmux kill-server 2>/dev/null; rm -rf %s",
		 tmux_dir);
	if (system(cmd))
		test_msg("could not remove %s", tmux_dir);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * t-workload.c - pins relaytop's workload mode (relaytop/workload.c,
 * top.c) and --record's FILE.old (relaytop/record_keep.c) on a real
 * terminal (a tmux pane of 80x24) over a fake channel:
 * - relaytop --record FILE -- CMD: CMD has the terminal (its output is
 *   there, relaytop's screen is not), relaytop says what it records
 *   while CMD runs, ends when CMD ends and exits with CMD's status (3 for
 *   exit 3, 143 for a SIGTERM); the recording is whole (--check 0);
 * - a command that does not exist: status 127, said, and no file
 *   touched (an existing recording stays as it was, no FILE.old);
 * - --record over an existing recording keeps it as FILE.old (the same
 *   bytes), says so, and the new one is whole;
 * - -b --tasks -F -- CMD counts only CMD's process tree as the records
 *   name it: the children a fork record gives CMD, and theirs, are in
 *   the tasks table; a task of another tree, and its child, are not.
 * Needs tmux (make deps) and $RELAYTOP, the binary (make check sets it).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake-channel.h"
#include "synth-record.h"
#include "test-lib.h"
#include "test-util.h"
#include "tmux-pane.h"

static struct fake_channel fc;
static char dir[] = "/tmp/t-workload.XXXXXX";

/* relaytop args in the pane, on the fake channel (a shell runs them in
 * double quotes: a $ of the command's own is written \\$). */
static void run(const char *args)
{
	char all[1024];

	snprintf(all, sizeof(all), "-c %s -d 0.2 %s", fc.dir, args);
	pane_relaytop("", all, "");
}

/* relaytop's own verdict of a recording: its exit status. */
static int checked(const char *file)
{
	char cmd[512];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s --check %s >/dev/null 2>&1",
		 pane_relaytop_bin(), file);
	rc = system(cmd);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static void test_exit_status(void)
{
	char args[512], rec[300];

	snprintf(rec, sizeof(rec), "%s/exit.rec", dir);
	snprintf(args, sizeof(args), "--record %s -- sh -c 'echo from-the-"
		 "command; sleep 0.5; exit 3'", rec);
	run(args);
	check(pane_wait_for("from-the-command"));
	check(pane_wait_for("recording to"));
	check(pane_wait_for(" while sh runs"));
	check(pane_wait_for("EXITED=3"));
	/* no screen took the terminal: the command's line is still there */
	check(strstr(pane_capture(""), "CPU EVENTS/s") == NULL);
	check_int(checked(rec), ==, 0);
	snprintf(args, sizeof(args), "--record %s -- sh -c 'kill -TERM \\$\\$'",
		 rec);
	run(args);
	check(pane_wait_for("EXITED=143"));
}

static void test_not_found(void)
{
	char args[512], rec[300], old[310];
	char *before, *after;

	snprintf(rec, sizeof(rec), "%s/exit.rec", dir);
	snprintf(old, sizeof(old), "%s.old", rec);
	unlink(old);
	before = slurp_text(rec, NULL);
	snprintf(args, sizeof(args), "--record %s -- no-such-command-here",
		 rec);
	run(args);
	check(pane_wait_for("no-such-command-here: No such file or directory"));
	check(pane_wait_for("EXITED=127"));
	after = slurp_text(rec, NULL);
	check(before && after && !strcmp(before, after));
	check(access(old, F_OK) != 0);
	free(before);
	free(after);
}

static void test_old_kept(void)
{
	char args[512], rec[300], old[310];
	size_t len_first = 0, len_old = 0;
	char *first, *kept;

	snprintf(rec, sizeof(rec), "%s/exit.rec", dir);
	snprintf(old, sizeof(old), "%s.old", rec);
	first = slurp_text(rec, &len_first);
	if (!check(first != NULL))
		return;
	snprintf(args, sizeof(args), "--record %s -- true", rec);
	run(args);
	check(pane_wait_for("kept the existing "));
	check(pane_wait_for(".rec.old"));
	check(pane_wait_for("EXITED=0"));
	kept = slurp_text(old, &len_old);
	check(kept && len_old == len_first && !memcmp(kept, first, len_old));
	check_int(checked(old), ==, 0);
	check_int(checked(rec), ==, 0);
	free(first);
	free(kept);
}

/* ---- -F: the command's tree, as the records name it ------------------ */

static struct sched_relay_record script[16];
static unsigned int nscript, next;

static void fill(void *arg, struct sched_relay_record *r)
{
	uint32_t seq = r->event_seq;
	uint64_t ts = r->ts;

	(void)arg;
	if (next < nscript)
		*r = script[next++];
	r->event_seq = seq;		/* the relay's */
	r->ts = ts;
}

static void fork_rec(int32_t parent, const char *pcomm, int32_t child,
		     const char *ccomm)
{
	struct sched_relay_record r = synth_record(0, SCHED_RELAY_FORK, parent,
						   pcomm);

	synth_record_task2(&r, child, 120, ccomm);
	script[nscript++] = r;
}

static void switch_rec(int32_t prev, const char *pcomm, int32_t next_pid,
		       const char *ncomm)
{
	struct sched_relay_record r = synth_record(0, SCHED_RELAY_SWITCH, prev,
						   pcomm);

	r.state = SCHED_RELAY_STATE_SLEEPING;
	synth_record_task2(&r, next_pid, 120, ncomm);
	script[nscript++] = r;
}

static void test_follow(void)
{
	char args[1024], pidfile[300], done[300], out[300], *text, *final;
	int32_t wpid = 0;
	char want[64];

	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	snprintf(done, sizeof(done), "%s/done", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(args, sizeof(args), "-b --tasks -F -- sh -c 'echo \\$\\$ > %s; "
		 "while [ ! -e %s ]; do sleep 0.05; done; exit 5' > %s",
		 pidfile, done, out);
	run(args);
	for (int i = 0; i < 100 && !wpid; i++) {
		char *p = slurp_text(pidfile, NULL);

		wpid = p ? atoi(p) : 0;
		free(p);
		pane_sleep_ms(100);
	}
	if (!check_int(wpid, >, 0))
		return;
	/* the command's child 7001 and grandchild 7002; another tree's
	 * 9001 and its child 9002 */
	nscript = next = 0;
	fork_rec(wpid, "sh", 7001, "child");
	fork_rec(7001, "child", 7002, "grandchild");
	fork_rec(9001, "stranger", 9002, "strangerkid");
	switch_rec(9001, "stranger", 7001, "child");
	switch_rec(7001, "child", 7002, "grandchild");
	switch_rec(7002, "grandchild", 9002, "strangerkid");
	switch_rec(9002, "strangerkid", 9001, "stranger");
	fc.relay[0].fill = fill;
	while (next < nscript)
		fake_relay_event(&fc.relay[0], SCHED_RELAY_SWITCH);
	fc.relay[0].fill = NULL;
	pane_sleep_ms(800);		/* read by relaytop */
	close(creat(done, 0644));
	check(pane_wait_for("EXITED=5"));
	text = slurp_text(out, NULL);
	if (!check(text != NULL))
		return;
	snprintf(want, sizeof(want), "# tasks since the start -F %d\n",
		 (int)wpid);
	final = strstr(text, want);
	if (check(final != NULL)) {
		check(strstr(final, "\n7001 ") != NULL);
		check(strstr(final, "\n7002 ") != NULL);
		check(strstr(final, "\n9001 ") == NULL);
		check(strstr(final, "\n9002 ") == NULL);
	}
	if (test_failed())
		test_msg("the output:\n%s", text);
	free(text);
}

int main(void)
{
	if (!pane_setup()) {
		pane_teardown();
		return test_done();
	}
	if (!mkdtemp(dir) || !fake_channel_create(&fc, 2, 4096, 8, true))
		return 2;
	chmod(dir, 0777);
	pane_share_channel(fc.dir, fc.ncpus);
	TEST(test_exit_status(), "--record FILE -- CMD: CMD has the terminal, relaytop exits with its status");
	TEST(test_not_found(), "a command that does not exist: 127, no file touched");
	TEST(test_old_kept(), "--record over an existing recording keeps it as FILE.old");
	TEST(test_follow(), "-b -F -- CMD counts CMD's tree as the fork records name it");
	fake_channel_destroy(&fc);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			test_msg("could not remove %s", dir);
	}
	pane_teardown();
	return test_done();
}

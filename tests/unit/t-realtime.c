// SPDX-License-Identifier: GPL-2.0
/*
 * t-realtime.c - pins --realtime (relaytop/realtime.c): a priority out of
 * 1-99 is refused before anything changes; a granted one puts relaytop
 * at SCHED_FIFO with that priority, and a command it forks runs at the
 * normal policy (SCHED_RESET_ON_FORK); a refused one (EPERM) says what
 * it needs and leaves the policy as it was.  Each case runs in a child,
 * so the test itself never runs at a real-time priority.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "realtime.h"
#include "test-lib.h"

/* Run fn in a child; its exit status (0: all its checks held). */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static int bad_priorities(void)
{
	char err[200];

	if (realtime_enter(0, err, sizeof(err)) != -1 ||
	    !strstr(err, "not a priority (1 to 99)"))
		return 1;
	if (realtime_enter(100, err, sizeof(err)) != -1)
		return 2;
	return sched_getscheduler(0) == SCHED_OTHER ? 0 : 3;
}

static int granted(void)
{
	struct sched_param sp;
	char err[200];
	int status;
	pid_t pid;

	if (realtime_enter(7, err, sizeof(err)))
		return 1;
	if ((sched_getscheduler(0) & ~SCHED_RESET_ON_FORK) != SCHED_FIFO ||
	    sched_getparam(0, &sp) || sp.sched_priority != 7)
		return 2;
	pid = fork();
	if (pid == 0)	/* the command relaytop runs */
		_exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return 3;
	return 0;
}

static int refused(void)
{
	struct rlimit none = { 0, 0 };
	char err[200];

	/* no CAP_SYS_NICE (not root) and no RLIMIT_RTPRIO */
	if (setrlimit(RLIMIT_RTPRIO, &none))
		return 1;
	if (realtime_enter(5, err, sizeof(err)) != -1)
		return 2;
	if (!strstr(err, "--realtime 5: ") || !strstr(err, "CAP_SYS_NICE"))
		return 3;
	return sched_getscheduler(0) == SCHED_OTHER ? 0 : 4;
}

static int refused_unprivileged(void)
{
	/* nobody: a user without CAP_SYS_NICE */
	if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
		return 10;
	return refused();
}

int main(void)
{
	TEST(check_int(in_child(bad_priorities), ==, 0),
	     "0 and 100 are refused, naming the range, and change nothing");
	if (geteuid() == 0)
		TEST(check_int(in_child(granted), ==, 0),
		     "granted: SCHED_FIFO at the priority, a forked command at "
		     "the normal policy");
	TEST(check_int(in_child(refused_unprivileged), ==, 0),
	     "refused (EPERM): the message says what it needs, the policy "
	     "stays");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * cputime - run a command and say how much CPU it used.
 *
 *   cputime CMD [ARG]...
 *
 * Runs CMD, waits for it, and prints "cpu_us=N user_us=N sys_us=N" on
 * standard error: the user and system time of CMD and everything it
 * waited for (getrusage(RUSAGE_CHILDREN), which the kernel keeps to the
 * nanosecond from the scheduler's run time, not sampled at ticks).  Exits
 * with CMD's status, 127 if it could not be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static long long usec(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: cputime CMD [ARG]...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "cputime: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("cputime: waitpid");
			return 127;
		}
	getrusage(RUSAGE_CHILDREN, &ru);
	fprintf(stderr, "cpu_us=%lld user_us=%lld sys_us=%lld\n",
		usec(ru.ru_utime) + usec(ru.ru_stime), usec(ru.ru_utime),
		usec(ru.ru_stime));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

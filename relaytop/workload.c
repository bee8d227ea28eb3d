// SPDX-License-Identifier: GPL-2.0
/* workload.c - the command whose life is recorded (see workload.h). */
#define _GNU_SOURCE		/* pipe2() */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434	/* every architecture since Linux 5.3 */
#endif

/* In the child: what relaytop changed of the signals goes back to the
 * defaults, the mask empty; then wait for the go and exec. */
static void child(int go, int exec_err, char *const argv[])
{
	static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1,
				     SIGCONT, SIGPIPE, SIGQUIT, SIGSEGV,
				     SIGABRT, SIGBUS, SIGFPE, SIGILL };
	sigset_t none;
	char c;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(reset); i++)
		signal(reset[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* relaytop went away before letting it go: nothing runs */
	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	execvp(argv[0], argv);
	err = errno;
	if (write(exec_err, &err, sizeof(err)) != sizeof(err))
		_exit(127);
	_exit(err == ENOENT ? 127 : 126);
}

/*
 * Whether execvp() would find an executable file for name: looked for
 * before anything is recorded, so that a mistyped command changes no
 * file (execvp's own failure, which the exec_err pipe reports, remains
 * for what this cannot foresee).  0 or -errno.
 */
static int findable(const char *name)
{
	const char *path = getenv("PATH");
	char file[4096];

	if (!name[0])
		return -ENOENT;
	if (strchr(name, '/'))
		return access(name, X_OK) ? -errno : 0;
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		size_t len = strcspn(p, ":");

		snprintf(file, sizeof(file), "%.*s%s%s", (int)len, p,
			 len ? "/" : "", name);
		if (!access(file, X_OK))
			return 0;
		p += len;
		if (!*p)
			return -ENOENT;
	}
}

int workload_start(struct workload *w, char *const argv[])
{
	int go[2], err[2], e;

	memset(w, 0, sizeof(*w));
	w->pidfd = w->go = w->exec_err = -1;
	snprintf(w->name, sizeof(w->name), "%s", argv[0]);
	e = findable(argv[0]);
	if (e)
		return e;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (w->pid == 0) {
		close(go[1]);
		close(err[0]);
		child(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	w->go = go[1];
	w->exec_err = err[0];
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	if (w->pidfd < 0)
		w->pidfd = -1;	/* before Linux 5.3: asked at each tick */
	return 0;
}

int workload_go(struct workload *w)
{
	ssize_t n;
	int err = 0;

	if (write(w->go, "g", 1) != 1)
		err = errno ? errno : EPIPE;
	close(w->go);
	w->go = -1;
	if (err)
		return err;
	/* EOF: the exec closed it; a number: exec failed with it */
	do {
		n = read(w->exec_err, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(w->exec_err);
	w->exec_err = -1;
	return n == (ssize_t)sizeof(err) ? err : 0;
}

bool workload_ended(struct workload *w)
{
	pid_t p;

	if (w->ended || w->pid <= 0)
		return true;
	p = waitpid(w->pid, &w->wait_status, WNOHANG);
	if (p == w->pid)
		w->ended = true;
	return w->ended;
}

void workload_stop(struct workload *w)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	if (w->go >= 0) {		/* never let go: it exits 127 */
		close(w->go);
		w->go = -1;
	}
	if (workload_ended(w))
		return;
	kill(w->pid, SIGTERM);
	for (int i = 0; i < 250 && !workload_ended(w); i++)
		nanosleep(&tick, NULL);
	if (!w->ended) {
		kill(w->pid, SIGKILL);
		if (waitpid(w->pid, &w->wait_status, 0) == w->pid)
			w->ended = true;
	}
}

int workload_status(const struct workload *w)
{
	if (WIFEXITED(w->wait_status))
		return WEXITSTATUS(w->wait_status);
	if (WIFSIGNALED(w->wait_status))
		return 128 + WTERMSIG(w->wait_status);
	return 1;
}

int workload_fd(const struct workload *w)
{
	return w->ended ? -1 : w->pidfd;
}

void workload_free(struct workload *w)
{
	if (w->pidfd >= 0)
		close(w->pidfd);
	if (w->go >= 0)
		close(w->go);
	if (w->exec_err >= 0)
		close(w->exec_err);
	w->pidfd = w->go = w->exec_err = -1;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the command relaytop records the life of
 * (relaytop --record FILE -- CMD ARGS, as perf record -- CMD): forked
 * first, so that its pid is known before anything is recorded, and held
 * until workload_go() lets it exec; its end seen through a pidfd (the
 * loop waits on it) or, where there is none, by asking at each tick; and
 * its exit status as a shell gives it.
 */
#ifndef RELAYTOP_WORKLOAD_H
#define RELAYTOP_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;
	int pidfd;		/* readable once it ended; -1: none */
	int go;			/* write end: a byte lets it exec */
	int exec_err;		/* read end: exec's errno, or EOF once it ran */
	bool ended;
	int wait_status;	/* as waitpid() gives it */
	char name[64];		/* argv[0], for messages */
};

/* Fork argv[0] with argv; it waits for workload_go().  0, or -errno
 * (-ENOENT: no such command in PATH, nothing forked). */
int workload_start(struct workload *w, char *const argv[]);
/* Let it exec.  0, or the errno exec failed with (it exited 127). */
int workload_go(struct workload *w);
/* Whether it ended (it is reaped then); never waits. */
bool workload_ended(struct workload *w);
/* End it if it still runs (SIGTERM, then after 5 s SIGKILL) and reap it;
 * one that was never let go exits without running. */
void workload_stop(struct workload *w);
/* Its exit status as a shell says it: the code it exited with, or 128
 * plus the signal that killed it. */
int workload_status(const struct workload *w);
/* The pidfd to wait on, or -1. */
int workload_fd(const struct workload *w);
void workload_free(struct workload *w);

#endif /* RELAYTOP_WORKLOAD_H */

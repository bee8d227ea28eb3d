/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop.h - relaytop's one event loop: it waits for file descriptors, the
 * refresh timer, the end of -t and signals, and is the one place that
 * decides when to wake.
 *
 * SIGINT, SIGTERM and SIGHUP (stop) and SIGUSR1 (print the status) are
 * blocked except while the loop waits in ppoll(), which lets them in
 * atomically, and around writes that may block for ever
 * (loop_signals_in()): one that comes at any other moment is taken at
 * the next wait, which is never longer than what the loop is doing now
 * (long drains look at loop_signalled() and stop early).  So a SIGTERM ends the program
 * within one interval whatever it is doing, with nothing lost: the caller
 * finishes its recording after loop_run() returns.
 */
#ifndef RELAYTOP_LOOP_H
#define RELAYTOP_LOOP_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* What the loop serves (all but ctx may be NULL). */
struct loop_ops {
	/* the file descriptors to wait on; returns how many (<= max) */
	unsigned int (*pollfds)(void *ctx, struct pollfd *pfd,
				unsigned int max);
	/* what they said; interrupted: a signal (a resize) cut the wait */
	void (*ready)(void *ctx, const struct pollfd *pfd, unsigned int n,
		      bool interrupted);
	/* the refresh timer fired */
	void (*tick)(void *ctx);
	/* SIGUSR1 came */
	void (*status)(void *ctx);
	/* true once the program is to end */
	bool (*done)(void *ctx);
	/* the latest moment (CLOCK_MONOTONIC ns) the next wait may end
	 * besides the tick, or 0; ready() is called when it passes */
	uint64_t (*deadline)(void *ctx);
	void *ctx;
};

struct loop {
	struct loop_ops ops;
	uint64_t interval_ns;	/* of the refresh timer */
	uint64_t next_tick_ns;	/* CLOCK_MONOTONIC */
	uint64_t end_ns;	/* -t: the end; 0: none */
};

/* Take SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGCONT (once per program). */
void loop_install_signals(void);
/* A stop signal came (or is waiting): long work should end soon. */
bool loop_signalled(void);
/*
 * SIGCONT came since the last call: the program was stopped (SIGSTOP,
 * ^Z) and continued, so a wait that overran did not measure the load.
 * Taken at once, not only in ppoll(), and restarts what it interrupts.
 */
bool loop_take_continued(void);
/*
 * Let the signals in around a write that may block for ever (standard
 * output into a pipe nobody reads, a terminal stopped with ^S, a
 * recording into a FIFO): one that comes then interrupts the write
 * (EINTR, or a short count) instead of waiting behind it.
 * loop_signals_in() returns the mask to give back to loop_signals_out().
 */
sigset_t loop_signals_in(void);
void loop_signals_out(const sigset_t *saved);

/* The refresh timer: every interval seconds, the first at first_ns. */
void loop_timer(struct loop *l, double interval, uint64_t first_ns);
/* A new interval, counted from now. */
void loop_set_interval(struct loop *l, double interval);

enum loop_end {
	LOOP_DONE,		/* ops.done() said so */
	LOOP_SIGNALLED,		/* SIGINT, SIGTERM or SIGHUP */
	LOOP_TIME_UP,		/* end_ns passed */
};
/* Run until one of enum loop_end. */
enum loop_end loop_run(struct loop *l);

#endif /* RELAYTOP_LOOP_H */

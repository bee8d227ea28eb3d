// SPDX-License-Identifier: GPL-2.0
/*
 * loop.c - the event loop (see loop.h): one ppoll() with the stop and
 * status signals let in only there (and around writes that may block),
 * a refresh timer that keeps its
 * cadence (and starts again from now when it fell behind), and the end
 * of -t.
 */
#define _GNU_SOURCE		/* ppoll(): not in POSIX, so not in _XOPEN_SOURCE */
#include "loop.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "util.h"

#define MAX_FDS (1024 + 16)	/* buffers, control files, the keyboard */

static volatile sig_atomic_t got_signal;	/* SIGINT, SIGTERM or SIGHUP */
static volatile sig_atomic_t got_status;	/* SIGUSR1 */
static volatile sig_atomic_t got_continued;	/* SIGCONT: we were stopped */
static sigset_t waiting_mask;	/* the mask while ppoll() waits */
static bool installed;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_status = 1;
	else
		got_signal = sig;
}

static void on_continued(int sig)
{
	(void)sig;
	got_continued = 1;
}

static void ours(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	/* the terminal went away: stop as cleanly (finish the recording) */
	sigaddset(set, SIGHUP);
	/* read everything now and say how far we are (as dd does) */
	sigaddset(set, SIGUSR1);
}

void loop_install_signals(void)
{
	struct sigaction sa;
	sigset_t set;

	if (installed)
		return;
	installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	/* not blocked: it must be seen before any work after the stop */
	sa.sa_handler = on_continued;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCONT, &sa, NULL);
	ours(&set);
	sigprocmask(SIG_BLOCK, &set, &waiting_mask);
	sigdelset(&waiting_mask, SIGINT);
	sigdelset(&waiting_mask, SIGTERM);
	sigdelset(&waiting_mask, SIGHUP);
	sigdelset(&waiting_mask, SIGUSR1);
}

bool loop_signalled(void)
{
	sigset_t pending;

	if (got_signal)
		return true;
	if (!installed || sigpending(&pending))
		return false;
	return sigismember(&pending, SIGINT) == 1 ||
	       sigismember(&pending, SIGTERM) == 1 ||
	       sigismember(&pending, SIGHUP) == 1;
}

bool loop_take_continued(void)
{
	bool was = got_continued;

	got_continued = 0;
	return was;
}

sigset_t loop_signals_in(void)
{
	sigset_t saved;

	sigemptyset(&saved);
	if (installed)
		sigprocmask(SIG_SETMASK, &waiting_mask, &saved);
	return saved;
}

void loop_signals_out(const sigset_t *saved)
{
	if (installed)
		sigprocmask(SIG_SETMASK, saved, NULL);
}

void loop_timer(struct loop *l, double interval, uint64_t first_ns)
{
	l->interval_ns = (uint64_t)(interval * 1e9);
	l->next_tick_ns = first_ns;
}

void loop_set_interval(struct loop *l, double interval)
{
	loop_timer(l, interval, mono_ns() + (uint64_t)(interval * 1e9));
}

/* Wait for pfd until deadline (CLOCK_MONOTONIC ns): ppoll()'s result. */
static int wait_until(struct pollfd *pfd, unsigned int n, uint64_t deadline)
{
	uint64_t now = mono_ns(), left = deadline > now ? deadline - now : 0;
	struct timespec ts = {
		.tv_sec = (time_t)(left / 1000000000u),
		.tv_nsec = (long)(left % 1000000000u),
	};

	/* a signal that came while we worked is waiting: take it now */
	if (got_signal || got_status)
		ts.tv_sec = ts.tv_nsec = 0;
	return ppoll(pfd, n, &ts, installed ? &waiting_mask : NULL);
}

enum loop_end loop_run(struct loop *l)
{
	struct pollfd pfd[MAX_FDS];

	while (!(l->ops.done && l->ops.done(l->ops.ctx))) {
		unsigned int n = l->ops.pollfds ?
				 l->ops.pollfds(l->ops.ctx, pfd, MAX_FDS) : 0;
		uint64_t until = l->next_tick_ns, soon = l->ops.deadline ?
				 l->ops.deadline(l->ops.ctx) : 0;
		int ready;

		if (l->end_ns && l->end_ns < until)
			until = l->end_ns;
		if (soon && soon < until)
			until = soon;
		ready = wait_until(pfd, n, until);
		if (ready < 0 && errno != EINTR)
			fatal("ppoll: %s", strerror(errno));
		if (got_signal)
			return LOOP_SIGNALLED;
		if (got_status) {
			got_status = 0;
			if (l->ops.status)
				l->ops.status(l->ops.ctx);
		}
		if (l->ops.ready)
			l->ops.ready(l->ops.ctx, pfd, n, ready < 0);
		if (l->ops.done && l->ops.done(l->ops.ctx))
			break;
		if (l->end_ns && mono_ns() >= l->end_ns)
			return LOOP_TIME_UP;
		if (mono_ns() >= l->next_tick_ns) {
			if (l->ops.tick)
				l->ops.tick(l->ops.ctx);
			l->next_tick_ns += l->interval_ns;
			if (l->next_tick_ns <= mono_ns())	/* fell behind */
				l->next_tick_ns = mono_ns() + l->interval_ns;
		}
	}
	return LOOP_DONE;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * top_serve.c - the loop's callbacks for a running mode (see top_serve.h).
 * Keys come from the terminal when the curses screen is up; SIGUSR1
 * prints the source's status report, except on the curses screen (which
 * it would garble) and in a replay.
 */
#include "top_serve.h"

#include <stdio.h>
#include <unistd.h>

#include "controller.h"
#include "source_report.h"
#include "top_show.h"
#include "top_step.h"
#include "ui.h"

static bool reading_keys(const struct top *t)
{
	return t->app.out == OUT_CURSES && ui_active();
}

static unsigned int serve_pollfds(void *ctx, struct pollfd *pfd,
				  unsigned int max)
{
	struct top *t = ctx;
	unsigned int n = 0;

	if (reading_keys(t) && max) {
		pfd[0] = (struct pollfd) { .fd = STDIN_FILENO, .events = POLLIN };
		n = 1;
	}
	/* the command's end (its pidfd), right after the keys */
	if (t->work && workload_fd(t->work) >= 0 && n < max)
		pfd[n++] = (struct pollfd) { .fd = workload_fd(t->work),
					     .events = POLLIN };
	if (t->src.ops->pollfds)
		n += t->src.ops->pollfds(t->src.self, pfd + n, max - n);
	return n;
}

static void serve_ready(void *ctx, const struct pollfd *pfd, unsigned int n,
			bool interrupted)
{
	struct top *t = ctx;
	unsigned int k = 0;

	if (reading_keys(t) && n) {
		unsigned int redraw = 0;
		int key;

		k = 1;
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			t->app.quit = true;	/* no terminal any more */
			return;
		}
		/* keys, and a resize (SIGWINCH interrupts the wait) */
		if (interrupted || pfd[0].revents)
			while ((key = ui_read_key()) >= 0)
				redraw |= top_key(t, key) & REACT_REDRAW;
		/* Something else may have written on the terminal (a console
		 * that is not ours alone): a key repaints all of it. */
		if (redraw && !t->app.quit) {
			ui_repaint();
			top_render(t);
		}
	}
	if (t->work && k < n && pfd[k].fd == workload_fd(t->work)) {
		if (pfd[k].revents && workload_ended(t->work))
			t->app.quit = true;	/* its life is over */
		k++;
	}
	if (!interrupted && t->src.ops->ready)
		t->src.ops->ready(t->src.self, pfd + k, n - k);
	top_check_recording(t);
}

static void serve_tick(void *ctx)
{
	top_tick(ctx);
}

/* SIGUSR1: bring everything up to date, then report (source_report.h). */
static void serve_status(void *ctx)
{
	struct top *t = ctx;

	if (t->recorded)
		return;
	if (t->src.ops->sync)
		t->src.ops->sync(t->src.self);
	top_check_recording(t);
	if (reading_keys(t))
		return;
	source_report_status(stderr, &t->src, &t->tally.st);
}

static uint64_t serve_deadline(void *ctx)
{
	const struct top *t = ctx;

	return t->src.ops->deadline ? t->src.ops->deadline(t->src.self) : 0;
}

static bool serve_done(void *ctx)
{
	const struct top *t = ctx;

	return t->app.quit;
}

void top_serve_init(struct top *t)
{
	t->loop.ops = (struct loop_ops) {
		.pollfds = serve_pollfds, .ready = serve_ready,
		.tick = serve_tick, .status = serve_status,
		.done = serve_done, .deadline = serve_deadline, .ctx = t,
	};
}

// SPDX-License-Identifier: GPL-2.0
/*
 * t-loop.c - pins relaytop's event loop (relaytop/loop.c): the refresh
 * timer fires at its cadence; -t's end ends the loop; SIGUSR1 asks for
 * the status and the loop goes on; a SIGTERM that comes while the loop
 * waits, or that came while it was busy (before the wait, when no
 * self-pipe or flag check could see it), ends the loop at once however
 * long the interval, and loop_signalled() sees it while still pending, so
 * long work can stop early.  Each signal test runs in a child of its own.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loop.h"
#include "test-lib.h"
#include "test-util.h"
#include "util.h"

struct counts {
	unsigned int ticks;
	unsigned int status;
	unsigned int quit_after;	/* ticks; 0: never */
	bool raised;
};

static void on_tick(void *ctx)
{
	((struct counts *)ctx)->ticks++;
}

static void on_status(void *ctx)
{
	((struct counts *)ctx)->status++;
}

static bool done(void *ctx)
{
	const struct counts *c = ctx;

	return (c->quit_after && c->ticks >= c->quit_after) || c->status >= 2;
}

static void setup(struct loop *l, struct counts *c, double interval)
{
	*l = (struct loop) { 0 };
	*c = (struct counts) { 0 };
	l->ops = (struct loop_ops) {
		.tick = on_tick, .status = on_status, .done = done, .ctx = c,
	};
	loop_timer(l, interval, mono_ns() + (uint64_t)(interval * 1e9));
}

static void test_timer(void)
{
	struct loop l;
	struct counts c;
	uint64_t t0 = mono_ns(), took;

	setup(&l, &c, 0.02);
	c.quit_after = 5;
	check_int(loop_run(&l), ==, LOOP_DONE);
	took = mono_ns() - t0;
	check_uint(c.ticks, ==, 5);
	check_uint(took, >=, 100000000u);	/* 5 x 20 ms */
	check_uint(took, <, 1000000000u);
}

static void test_end(void)
{
	struct loop l;
	struct counts c;
	uint64_t t0 = mono_ns();

	setup(&l, &c, 10);
	l.end_ns = t0 + 50000000u;		/* -t 0.05 */
	check_int(loop_run(&l), ==, LOOP_TIME_UP);
	check_uint(mono_ns() - t0, <, 2000000000u);
	check_uint(c.ticks, ==, 0);
}

/* Run fn in a child; its exit status (0: its checks held). */
static int in_child(int (*fn)(void))
{
	pid_t p;
	int st;

	fflush(stdout);
	p = fork();
	if (p == 0) {
		alarm(10);	/* a loop that misses the signal: killed */
		_exit(fn());
	}
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* SIGUSR1 twice, the second after the first was handled: two status
 * calls, the loop running on between them */
static bool status_then_more(void *ctx)
{
	struct counts *c = ctx;

	if (c->status == 1 && !c->raised) {
		c->raised = true;
		raise(SIGUSR1);
	}
	return c->status >= 2;
}

static int status_twice_child(void)
{
	struct loop l;
	struct counts c;

	setup(&l, &c, 10);
	l.ops.done = status_then_more;
	raise(SIGUSR1);
	if (loop_run(&l) != LOOP_DONE || c.status != 2)
		return 1;
	return 0;
}

/* A SIGTERM that came while busy (blocked: pending) ends the next wait
 * at once, and loop_signalled() saw it before. */
static int pending_term_child(void)
{
	struct loop l;
	struct counts c;
	uint64_t t0;

	setup(&l, &c, 30);
	if (loop_signalled())
		return 2;
	raise(SIGTERM);
	if (!loop_signalled())
		return 3;
	t0 = mono_ns();
	if (loop_run(&l) != LOOP_SIGNALLED)
		return 4;
	if (mono_ns() - t0 > 1000000000u)
		return 5;
	return 0;
}

/*
 * A SIGTERM from another process while the loop waits (30 s): sent once
 * the loop sleeps in its ppoll() (before, after a 100 ms sleep, which a
 * loaded machine could pass before the loop got there; the test then
 * checked a pending signal, not one that comes during the wait).
 */
static int waiting_term_child(void)
{
	struct loop l;
	struct counts c;
	pid_t me = getpid(), killer;
	uint64_t t0 = mono_ns();
	int st;

	setup(&l, &c, 30);
	killer = fork();
	if (killer == 0) {
		while (!sleeps_in(me, "poll"))
			usleep(1000);
		kill(me, SIGTERM);
		_exit(0);
	}
	if (loop_run(&l) != LOOP_SIGNALLED)
		return 1;
	waitpid(killer, &st, 0);
	return mono_ns() - t0 < 5000000000u ? 0 : 2;
}

static void test_status(void)
{
	loop_install_signals();
	check_int(in_child(status_twice_child), ==, 0);
}

static void test_signals(void)
{
	check_int(in_child(pending_term_child), ==, 0);
	check_int(in_child(waiting_term_child), ==, 0);
}

int main(void)
{
	TEST(test_timer(), "the refresh timer fires at its interval");
	TEST(test_end(), "-t's end ends the loop");
	TEST(test_status(), "SIGUSR1 asks for the status, the loop goes on");
	TEST(test_signals(), "SIGTERM ends the loop at once, whether it came while waiting or while busy");
	return test_done();
}

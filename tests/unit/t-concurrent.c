// SPDX-License-Identifier: GPL-2.0
/*
 * t-concurrent.c - pins the sub-buffer header protocol under real
 * concurrency: a writer thread (fake-relay.c, overwrite mode, flat out)
 * and the real reader (relaytop/subbuf.c) in another thread, on one
 * buffer of 4 x 512 bytes, with a stall injected in the middle of every
 * header set-up (the writer waits there until the reader has looked
 * twice, at most 200 us).  Pinned, for the version 2 seqlock order (seq
 * SCHED_RELAY_SEQ_BUSY, the fields and committed, then seq with
 * release):
 * - no record is delivered twice or out of order (ids in pid and event
 *   numbers both strictly follow), none sits where its number says it
 *   does not (misplaced), no gap goes uncounted;
 * - every event written is delivered once or counted lost, exactly;
 * - the stall was hit while the reader was looking, and the writer did
 *   overtake the reader (so the test exercises the race).
 * And that the rig catches the bug it guards against: with the old order
 * (seq first, committed after; fake_relay.old_order) the same run
 * delivers stale records under the new seq.
 *
 * How it failed before this change, measured with the reader of f5bc5c4
 * (the one before version 2) built into this test, 3 s a run:
 * - the writer's old order (seq first, committed after): 32447
 *   misordered deliveries (records of the previous lap delivered again
 *   under the new seq), while every count was equal: 1669474 delivered
 *   + 29662 lost = 1699136 written.  Totals cannot see it; ids can.
 * - the seqlock order: 80626 misordered and 2808693656 events "lost" of
 *   2417600 written: it took SEQ_BUSY for a seq of 2^64 - 1, an overtake.
 * The reader of this change passes both halves (typically 250000-450000
 * written in 1.5 s here, 0 misordered, counts exact).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "fake-relay.h"
#include "subbuf.h"
#include "test-lib.h"
#include "util.h"

#define SUBBUF 512
#define NSUB 4
#define RUN_NS 1500000000ull	/* 1.5 s a run */
#define STALL_NS 200000ull

struct rig {
	unsigned char *buf;
	struct fake_relay relay;
	struct subbuf_reader reader;
	struct collect got;
	struct subbuf_sink sink;
	atomic_ulong looks;	/* reads the reader made */
	atomic_bool stop;
	uint64_t stalls;	/* set-ups the reader looked at */
	uint64_t written;
};

/* In the middle of a header set-up: let the reader look, twice. */
static void stall(void *arg)
{
	struct rig *g = arg;
	unsigned long start = atomic_load(&g->looks);
	uint64_t t0 = mono_ns();

	while (atomic_load(&g->looks) < start + 2) {
		if (mono_ns() - t0 > STALL_NS)
			return;
	}
	g->stalls++;
}

static void *writer(void *arg)
{
	struct rig *g = arg;
	uint64_t end = mono_ns() + RUN_NS;

	while (mono_ns() < end)
		for (int i = 0; i < 64; i++)
			g->written += fake_relay_event(&g->relay,
				(uint8_t)(g->relay.next_id % SCHED_RELAY_NR_EVENTS));
	atomic_store(&g->stop, true);
	return NULL;
}

static void *reader(void *arg)
{
	struct rig *g = arg;

	while (!atomic_load(&g->stop)) {
		subbuf_reader_read(&g->reader, &g->sink);
		atomic_fetch_add(&g->looks, 1);
	}
	return NULL;
}

static void run(struct rig *g, bool old_order)
{
	struct subbuf_geometry geom = { SUBBUF, NSUB };
	pthread_t w, r;

	memset(g, 0, sizeof(*g));
	g->buf = aligned_alloc(64, SUBBUF * NSUB);
	memset(g->buf, 0, SUBBUF * NSUB);
	fake_relay_init(&g->relay, g->buf, SUBBUF, NSUB, 0, true, 1);
	g->relay.old_order = old_order;
	g->relay.stall = stall;
	g->relay.stall_arg = g;
	subbuf_reader_init(&g->reader, g->buf, &geom, 0);
	subbuf_reader_sync(&g->reader, true, 0);
	collect_init(&g->got);
	g->sink = collect_sink(&g->got);
	pthread_create(&r, NULL, reader, g);
	pthread_create(&w, NULL, writer, g);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	/* what is left, with the writer stopped */
	while (subbuf_reader_read(&g->reader, &g->sink) & SUBBUF_MORE)
		;
	test_msg("%s order: %llu written, %llu delivered, %llu lost, %llu "
		 "torn, %llu misordered, %llu misplaced, %llu unaccounted, "
		 "%llu stalls looked at", old_order ? "old" : "seqlock",
		 (unsigned long long)g->written,
		 (unsigned long long)g->got.delivered,
		 (unsigned long long)g->reader.lost,
		 (unsigned long long)g->reader.torn,
		 (unsigned long long)g->got.misordered,
		 (unsigned long long)g->reader.misplaced,
		 (unsigned long long)g->reader.unaccounted,
		 (unsigned long long)g->stalls);
}

static void done(struct rig *g)
{
	collect_free(&g->got);
	free(g->buf);
}

static void test_seqlock_order(void)
{
	struct rig g;

	run(&g, false);
	check_uint(g.got.misordered, ==, 0);
	check(g.got.in_order);
	check_uint(g.reader.misplaced, ==, 0);
	check_uint(g.reader.unaccounted, ==, 0);
	check_uint(g.got.delivered + g.reader.lost, ==, g.written);
	check_uint(g.got.gaps, ==, g.reader.lost);
	/* the race was run: set-ups looked at, the reader overtaken */
	check_uint(g.stalls, >, 0);
	check_uint(g.reader.lost, >, 0);
	check_uint(g.got.delivered, >, 0);
	done(&g);
}

static void test_old_order_caught(void)
{
	struct rig g;

	run(&g, true);
	check_uint(g.got.misordered + g.reader.unaccounted, >, 0);
	done(&g);
}

int main(void)
{
	TEST(test_seqlock_order(), "seqlocked headers: every record once, in order, counts exact");
	TEST(test_old_order_caught(), "the rig catches the old order (stale records under a new seq)");
	return test_done();
}

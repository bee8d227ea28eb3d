// SPDX-License-Identifier: GPL-2.0
/*
 * t-session.c - pins the live mode (relaytop/top.c over live_source.c) end
 * to end on a
 * fake channel with producers running: every event the producers write is
 * counted and recorded; finished sub-buffers are handed back so a
 * no-overwrite producer never has to drop while relaytop keeps up; a reset
 * is noticed, announced and counted from zero; buffers that disappear
 * under the mapping (SIGBUS) are announced and picked up again when they
 * come back; a CPU that comes online later (its buffer file appears) is
 * followed too; drops are counted, the stats file's final count included,
 * and drops only the stats file counted are kept across a reset and
 * across buffers that go away;
 * and the recording says all of it: records per CPU, drops, the reset and
 * the disappearance, matching what the producers did; a paused screen
 * (its CPU figures, who runs, the tasks and latency figures)
 * stands still (its figures are a copy) while reading goes on, and shows
 * the live figures again once resumed; buffers that cannot be handed
 * back (opened read-only) are announced in no-overwrite mode, where the
 * producer will drop, and not at all in overwrite mode; the tick reads
 * 'generation' alone unless it moved, the stats file only once a buffer
 * was found nearly full, and no record for the mix without a screen;
 * busy buffers are read on a timer sized from their rate and free room
 * (once two estimates in a row found them busy, counted from a drain's
 * start, less how long drains take, never put off by a woken read),
 * quiet ones (and busy ones found past a fill threshold) when they wake
 * the loop, so a burst after a quiet period is read at once and nothing
 * is dropped while relaytop keeps up; relaytop's
 * own switches and wake-ups are counted and can be hidden from the
 * figures, not from the recording.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-session.h"
#include "loop.h"
#include "record_merge.h"
#include "record_writer.h"
#include "top.h"
#include "test-lib.h"
#include "util.h"

static char record_path[sizeof("/tmp/t-session.XXXXXX")];

/* The live mode on a fake channel of small sub-buffers (4 of 4096 bytes). */
static bool rig_start(struct fake_session *r, unsigned int ncpus,
		      bool overwrite, const char *record)
{
	memset(r, 0, sizeof(*r));
	r->opt.record = record;
	return fake_session_start(r, ncpus, 4096, 4, overwrite, OUT_NONE);
}

/* The same, recording (no-overwrite) into a new file, record_path. */
static bool rig_start_recording(struct fake_session *r, unsigned int ncpus)
{
	int fd;

	strcpy(record_path, "/tmp/t-session.XXXXXX");
	fd = mkstemp(record_path);
	if (!check(fd >= 0))
		return false;
	close(fd);
	return check(rig_start(r, ncpus, false, record_path));
}

static void test_counts_and_flow(void)
{
	struct fake_session r;
	uint64_t produced = 0;

	if (!check(rig_start(&r, 3, false, NULL)))
		return;
	check(r.t.live.have_ch);
	check_uint(r.t.live.ch.n, ==, 3);
	check(r.t.live.has_stats_file);
	/* 40 rounds of most of a buffer (4 x 63 records) each: without
	 * hand-back the producers would drop in the second */
	for (int round = 0; round < 40; round++) {
		for (unsigned int c = 0; c < 3; c++)
			fake_relay_events(&r.fc.relay[c], 150 + c * 17);
		top_drain(&r.t);
	}
	for (unsigned int c = 0; c < 3; c++) {
		check_uint(r.fc.relay[c].full, ==, 0);
		check_uint(r.t.tally.st.cpu[c].events, ==, r.fc.relay[c].events);
		check_uint(r.fc.relay[c].consumed, >, 40);
		produced += r.fc.relay[c].events;
	}
	top_tick(&r.t);
	check_uint(r.t.tally.st.total.events, ==, produced);
	check_uint(r.t.app.ticks, ==, 1);
	check(r.t.tally.st.total.events_rate > 0);
	fake_session_stop(&r);
}

static void test_reset_noticed(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	fake_relay_events(&r.fc.relay[0], 100);
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 100);
	fake_channel_reset(&r.fc);
	fake_relay_events(&r.fc.relay[0], 7);
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 7);
	check(strstr(r.t.app.status, "channel reset (generation 2)") != NULL);
	fake_session_stop(&r);
}

static void test_buffers_go_and_come_back(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	fake_relay_events(&r.fc.relay[1], 10);
	top_drain(&r.t);
	fake_channel_remove_buffers(&r.fc);
	top_drain(&r.t);	/* SIGBUS inside, caught */
	check(!r.t.live.have_ch);
	check(strstr(r.t.app.status, "channel went away") != NULL);
	check(r.t.app.status_error);
	top_tick(&r.t);	/* still gone: waits */
	check(!r.t.live.have_ch);
	fake_channel_restore_buffers(&r.fc);
	fake_relay_events(&r.fc.relay[1], 5);
	top_tick(&r.t);
	check(r.t.live.have_ch);
	check(strstr(r.t.app.status, "channel is back") != NULL);
	check_uint(r.t.live.cfg.generation, ==, r.fc.generation);
	fake_session_stop(&r);
}

static void test_cpu_comes_online(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	fake_relay_events(&r.fc.relay[1], 30);
	top_drain(&r.t);
	if (!check(fake_channel_add_cpu(&r.fc)))
		return;
	fake_relay_events(&r.fc.relay[2], 40);
	fake_relay_events(&r.fc.relay[1], 5);
	top_tick(&r.t);
	check_uint(r.t.live.ch.n, ==, 3);
	check(strstr(r.t.app.status, "CPU 2 came online") != NULL);
	check_uint(r.t.tally.st.cpu[2].events, ==, 40);
	check_uint(r.t.tally.st.cpu[1].events, ==, 35);
	check(r.t.tally.st.cpu[2].present);
	/* and it keeps flowing: hand-back works for the new one */
	for (int i = 0; i < 10; i++) {
		fake_relay_events(&r.fc.relay[2], 150);
		top_drain(&r.t);
	}
	check_uint(r.fc.relay[2].full, ==, 0);
	check_uint(r.t.tally.st.cpu[2].events, ==, 40 + 1500);
	fake_session_stop(&r);
}

/*
 * A buffer file that appears but cannot be opened (here a directory named
 * cpu5): the CPUs already followed go on, and a reset after it is
 * noticed on them.  Before, channel_add_new() had moved cpus[] (realloc)
 * and returned the error, the readers' sinks were left pointing into the
 * freed array, and the reset's restart callback read it: ASan reported a
 * heap-use-after-free in buf_restart().
 */
static void test_cpu_that_cannot_be_opened(void)
{
	struct fake_session r;
	char path[128];

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	fake_relay_events(&r.fc.relay[0], 10);
	top_drain(&r.t);
	snprintf(path, sizeof(path), "%s/buffers/cpu5", r.fc.dir);
	check_int(mkdir(path, 0755), ==, 0);
	top_tick(&r.t);		/* finds cpu5, cannot open it */
	check_uint(r.t.live.ch.n, ==, 2);
	check(strstr(r.t.app.status, "cpu5") != NULL);
	fake_channel_reset(&r.fc);
	fake_relay_events(&r.fc.relay[0], 7);
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 7);
	check(strstr(r.t.app.status, "channel reset") != NULL);
	rmdir(path);
	fake_session_stop(&r);
}

/* A producer that outruns relaytop: each chunk read of CPU 0 brings
 * another sub-buffer of it (up to a bound, so the old reader ended). */
struct outrun {
	struct fake_channel *fc;
	unsigned long chunks[2];
	unsigned long cpu0_before_cpu1;	/* CPU 0's chunks before CPU 1's first */
};

static void outrun_stage(void *ctx, const struct subbuf_chunk *c)
{
	struct outrun *o = ctx;

	if (c->cpu > 1)
		return;
	if (c->cpu == 1 && !o->chunks[1])
		o->cpu0_before_cpu1 = o->chunks[0];
	o->chunks[c->cpu]++;
	if (c->cpu == 0 && o->chunks[0] < 5000)
		fake_relay_events(&o->fc->relay[0], 63);
}

/*
 * A drain reads each buffer at most a lap (n_subbufs + 2 sub-buffers)
 * before it reads the next, whatever the producer writes meanwhile, and
 * the loop is woken at once for the rest.  Before, read_buffer() called
 * the reader again for as long as it said there was more: CPU 1 was read
 * only after the bound stopped CPU 0's producer (2003 chunks of CPU 0
 * in the run; 5000 here), and the screen froze meanwhile.
 */
static void test_busy_cpu_starves_none(void)
{
	struct fake_session r;
	struct outrun o = { .fc = &r.fc };
	struct feed_sink sink = { .stage = outrun_stage, .ctx = &o };
	unsigned long before;

	if (!check(rig_start(&r, 2, true, NULL)))
		return;
	feed_add(&r.t.feed, &sink);
	fake_relay_events(&r.fc.relay[0], 4 * 63);
	fake_relay_events(&r.fc.relay[1], 10);
	top_drain(&r.t);
	check_uint(o.chunks[1], >, 0);
	check_uint(o.cpu0_before_cpu1, <=, 4 + 2);
	/* the rest of CPU 0 waits for the loop, which is called at once */
	check_uint(r.t.src.ops->deadline(r.t.src.self), <=, mono_ns());
	before = o.chunks[0];
	top_drain(&r.t);
	check_uint(o.chunks[0] - before, <=, 4 + 2);
	fake_session_stop(&r);
}

/* What the producer of CPU 0 had back when CPU 1's first chunk was read. */
struct handback_order {
	struct fake_channel *fc;
	bool seen;
	uint64_t cpu0_consumed;
};

static void handback_order_stage(void *ctx, const struct subbuf_chunk *c)
{
	struct handback_order *h = ctx;

	if (c->cpu == 1 && !h->seen) {
		h->seen = true;
		h->cpu0_consumed = h->fc->relay[0].consumed;
	}
}

/*
 * A drain writes each buffer's records and hands its sub-buffers back
 * before it reads the next buffer.  Before, it read every buffer, wrote
 * them all and only then handed any back: in a storm (issue 33) a drain
 * preempted while writing held all four buffers for 34 ms, and a CPU
 * whose rate had just risen fourfold dropped 474 events meanwhile.
 */
static void test_each_buffer_handed_back_before_the_next(void)
{
	struct fake_session r;
	struct handback_order h = { .fc = &r.fc };
	struct feed_sink sink = { .stage = handback_order_stage, .ctx = &h };

	if (!rig_start_recording(&r, 2))
		return;
	feed_add(&r.t.feed, &sink);
	fake_relay_events(&r.fc.relay[0], 3 * 63 + 1);	/* 3 finished */
	fake_relay_events(&r.fc.relay[1], 10);
	top_drain(&r.t);
	check(h.seen);
	check_uint(h.cpu0_consumed, ==, 3);
	check_uint(r.fc.relay[1].consumed, ==, 0);	/* not finished */
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);
	unlink(record_path);
}

/* What the producer of CPU 0 had back as each of its chunks was read. */
struct subbuf_handback {
	struct fake_channel *fc;
	unsigned int n;
	uint64_t seq[8], consumed[8];
};

/* Hand-backs that came while the recording still had records of the
 * drain to write. */
static struct top *unwritten_top;
static unsigned int unwritten_at_handback;

static int written_first_give_back(void *cc, uint64_t n)
{
	if (unwritten_top->rec->len || unwritten_top->rec->nbatch)
		unwritten_at_handback++;
	return fake_channel_give_back(cc, n);
}

static void subbuf_handback_stage(void *ctx, const struct subbuf_chunk *c)
{
	struct subbuf_handback *h = ctx;

	if (c->cpu != 0 || h->n == 8)
		return;
	h->seq[h->n] = c->seq;
	h->consumed[h->n++] = h->fc->relay[0].consumed;
}

/*
 * Within a buffer, each sub-buffer is written, then handed back, before
 * the next is read.  Before, a buffer's lap was read, written with one
 * writev() and only then handed back: a drain preempted while it wrote
 * (a storm's tasks share its CPU) held the whole buffer, full, until it
 * ran again.
 */
static void test_each_subbuf_handed_back_before_the_next(void)
{
	struct fake_session r;
	struct subbuf_handback h = { .fc = &r.fc };
	struct feed_sink sink = { .stage = subbuf_handback_stage, .ctx = &h };

	if (!rig_start_recording(&r, 1))
		return;
	feed_add(&r.t.feed, &sink);
	unwritten_top = &r.t;
	unwritten_at_handback = 0;
	r.t.live.give_back = written_first_give_back;
	fake_relay_events(&r.fc.relay[0], 3 * 63 + 5);	/* 3 finished */
	top_drain(&r.t);
	check_uint(unwritten_at_handback, ==, 0);
	check_uint(h.n, ==, 4);
	for (unsigned int k = 0; k < h.n; k++) {
		check_uint(h.seq[k], ==, h.seq[0] + k);
		check_uint(h.consumed[k], ==, h.seq[0] + k);
	}
	check_uint(r.fc.relay[0].consumed, ==, h.seq[0] + 3);
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);
	unlink(record_path);
}

/* The CPUs in the order a drain first staged their chunks. */
struct first_chunks {
	unsigned int order[4], n;
};

static void first_chunks_stage(void *ctx, const struct subbuf_chunk *c)
{
	struct first_chunks *f = ctx;

	for (unsigned int k = 0; k < f->n; k++)
		if (f->order[k] == c->cpu)
			return;
	if (f->n < 4)
		f->order[f->n++] = c->cpu;
}

/*
 * A drain reads first the buffer that fills soonest: with no rate known
 * yet, the fullest; then, by the free room over the rate.  Before, it
 * read them in CPU order: in a storm the last CPU, its rate up fourfold,
 * waited behind the other three's writes and dropped 4386 events.
 */
static void test_soonest_full_read_first(void)
{
	struct fake_session r;
	struct first_chunks f = { .n = 0 };
	struct feed_sink sink = { .stage = first_chunks_stage, .ctx = &f };

	if (!check(rig_start(&r, 3, false, NULL)))
		return;
	feed_add(&r.t.feed, &sink);
	fake_relay_events(&r.fc.relay[0], 10);
	fake_relay_events(&r.fc.relay[1], 2 * 63);
	fake_relay_events(&r.fc.relay[2], 3 * 63);
	top_drain(&r.t);
	check_uint(f.n, ==, 3);
	check_uint(f.order[0], ==, 2);
	check_uint(f.order[1], ==, 1);
	check_uint(f.order[2], ==, 0);
	fake_session_stop(&r);
}

static void test_drops_counted(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 1, false, NULL)))
		return;
	/* relaytop does not get to read: 4 sub-buffers of 63, then drops */
	fake_relay_events(&r.fc.relay[0], 4 * 63 + 30);
	fake_channel_sync_files(&r.fc);
	top_tick(&r.t);
	check_uint(r.fc.relay[0].full, ==, 30);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, 30);	/* from the stats file */
	check_uint(r.t.tally.st.cpu[0].events, ==, 4 * 63);
	fake_session_stop(&r);
}

static void put(struct fake_session *r, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->fc.dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * The tick reads 'generation' alone, the other attributes when it moved,
 * and the stats file only after a buffer was found nearly full; without
 * a screen no record is read for the event mix.
 */
static void test_tick_reads_little(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 1, false, NULL)))
		return;
	check(!r.t.live.ch.cpus[0].reader.count_mix);
	fake_relay_events(&r.fc.relay[0], 10);
	put(&r, "events", "switch\n");		/* generation stays */
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 10);
	check_uint(r.t.live.cfg.events, !=, 1u << SCHED_RELAY_SWITCH);
	r.fc.events = 1u << SCHED_RELAY_SWITCH;
	r.fc.generation++;
	fake_channel_sync_files(&r.fc);
	top_tick(&r.t);
	check_uint(r.t.live.cfg.events, ==, 1u << SCHED_RELAY_SWITCH);
	check_uint(r.t.live.cfg.generation, ==, r.fc.generation);
	/* a stats file that says more than happened: not read */
	put(&r, "stats", "cpu produced dropped subbufs_produced "
	    "subbufs_consumed fill_bytes\n0 10 77 1 0 640\n");
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, 0);
	/* the buffer fills up and the producer drops: read */
	fake_relay_events(&r.fc.relay[0], 4 * 63 + 20 - 10);
	fake_channel_sync_files(&r.fc);
	top_tick(&r.t);
	check_uint(r.fc.relay[0].full, >, 0);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, r.fc.relay[0].full);
	check_uint(r.t.tally.st.cpu[0].events + r.fc.relay[0].full, ==,
		   4 * 63 + 20);
	/* handed back and read again: the headers' count stays */
	fake_relay_events(&r.fc.relay[0], 70);
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, r.fc.relay[0].full);
	fake_session_stop(&r);
}

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return fake_now;
}

/* A rig of ncpus CPUs on the fake clock, after the first look. */
static struct live_source *timer_rig(struct fake_session *r,
				     unsigned int ncpus)
{
	if (!check(rig_start(r, ncpus, false, NULL)))
		return NULL;
	r->t.live.clock = fake_clock;
	/* the timer's steps at 4 x 4 KiB, whose room lasts less than a
	 * busy CPU's wait to run at these rates: no margin for that here
	 * (test_timer_leaves_room_to_run() has it) */
	r->t.live.late_margin_ns = 0;
	fake_now = 1000000000ull;
	top_drain(&r->t);			/* the first look */
	return &r->t.live;
}

/* Which buffers the loop would poll now (their CPUs, as a bit mask). */
static unsigned int polled(struct fake_session *r, struct pollfd *pfd,
			   unsigned int *n)
{
	struct live_source *ls = &r->t.live;
	unsigned int mask = 0;

	*n = r->t.src.ops->pollfds(ls, pfd, 64);
	for (unsigned int i = 0; i < ls->nbuf; i++)
		mask |= 1u << ls->ch.cpus[ls->map[i]].cpu;
	return mask;
}

/*
 * The drain timer: a buffer that fills a sub-buffer within the refresh
 * interval (by two estimates in a row) is not polled but read every
 * drain_ns (sized from its rate and free room); a quiet one stays
 * polled, so a burst is read as soon as it wakes us; a timed one found
 * past the backstop fill is polled again.
 */
static void test_drain_timer(void)
{
	struct fake_session r;
	struct live_source *ls;
	struct pollfd pfd[64];
	unsigned int n, cap = 63;
	uint64_t t0;

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	ls = &r.t.live;
	ls->clock = fake_clock;
	ls->late_margin_ns = 0;		/* as timer_rig() */
	fake_now = t0 = 1000000000ull;
	top_drain(&r.t);			/* the first look */
	check_uint(ls->drain_at, ==, 0);
	check_uint(polled(&r, pfd, &n), ==, 3);
	/* CPU 0: 1.5 sub-buffers in 10 ms; CPU 1: nothing.  One estimate
	 * is not enough: it may average a quiet spell in */
	fake_now += 10000000;
	fake_relay_events(&r.fc.relay[0], cap + cap / 2);
	top_drain(&r.t);
	check(!ls->ch.cpus[0].timed);
	check_uint(polled(&r, pfd, &n), ==, 3);
	/* the same again: the second estimate in a row puts it on a timer */
	fake_now += 10000000;
	fake_relay_events(&r.fc.relay[0], cap + cap / 2);
	top_drain(&r.t);
	check(ls->ch.cpus[0].timed);
	check(!ls->ch.cpus[1].timed);
	check_uint(polled(&r, pfd, &n), ==, 2);	/* CPU 1 alone */
	check_uint(ls->drain_at, >, fake_now);
	check_uint(ls->drain_at, <=, fake_now + ls->interval_ns);
	check_uint(r.t.src.ops->deadline(ls), ==, ls->drain_at);
	/* before the deadline nothing of CPU 0 is read */
	fake_relay_events(&r.fc.relay[0], 20);
	fake_now = ls->drain_at - 1;
	polled(&r, pfd, &n);
	r.t.src.ops->ready(ls, pfd, n);
	check_uint(r.t.tally.st.cpu[0].events, ==, 2 * (cap + cap / 2));
	/* at it (here 3 ms after it), everything is, and the delay counts */
	fake_now = ls->drain_at + 3000000;
	polled(&r, pfd, &n);
	r.t.src.ops->ready(ls, pfd, n);
	check_uint(r.t.tally.st.cpu[0].events, ==, 2 * (cap + cap / 2) + 20);
	check_uint(ls->timed_drains, ==, 1);
	check_uint(ls->drain_late_ns, ==, 3000000);
	/* a burst on quiet CPU 1 wakes us (POLLIN) and is read at once */
	fake_now += 1000;
	fake_relay_events(&r.fc.relay[1], 2 * cap);
	polled(&r, pfd, &n);
	for (unsigned int i = 0; i < n; i++)
		if (pfd[i].fd == ls->ch.cpus[1].fd)
			pfd[i].revents = POLLIN;
	r.t.src.ops->ready(ls, pfd, n);
	check_uint(r.t.tally.st.cpu[1].events, ==, 2 * cap);
	check_uint(ls->woken_drains, ==, 1);
	/* CPU 0 found past the backstop fill: polled again */
	fake_relay_events(&r.fc.relay[0], 3 * cap);
	fake_now = ls->drain_at;
	polled(&r, pfd, &n);
	r.t.src.ops->ready(ls, pfd, n);
	check(!ls->ch.cpus[0].timed);
	check_uint(polled(&r, pfd, &n) & 1u, ==, 1);
	check_uint(r.fc.relay[0].full, ==, 0);
	(void)t0;
	fake_session_stop(&r);
}

/*
 * steps of step_ns each, CPU 0 writing per_step events and CPU 1 (if
 * there is one) per_step1 each step, the loop doing what it would: the
 * tick every tick_steps steps, a drain when the timer says, else a read
 * of the polled buffers that have a finished sub-buffer (POLLIN).
 */
static void run_steps(struct fake_session *r, unsigned int steps,
		      uint64_t step_ns, unsigned int tick_steps,
		      unsigned int per_step, unsigned int per_step1)
{
	struct live_source *ls = &r->t.live;
	struct pollfd pfd[64];
	unsigned int n;

	for (unsigned int t = 1; t <= steps; t++) {
		bool woke = false;

		fake_now += step_ns;
		fake_relay_events(&r->fc.relay[0], per_step);
		if (r->fc.ncpus > 1)
			fake_relay_events(&r->fc.relay[1], per_step1);
		if (t % tick_steps == 0) {
			top_tick(&r->t);
			continue;
		}
		polled(r, pfd, &n);
		for (unsigned int i = 0; i < ls->nbuf; i++) {
			const struct fake_relay *f =
				&r->fc.relay[ls->ch.cpus[ls->map[i]].cpu];

			if (f->produced > f->consumed) {
				pfd[ls->nctl + i].revents = POLLIN;
				woke = true;
			}
		}
		if (woke || (ls->drain_at && fake_now >= ls->drain_at))
			r->t.src.ops->ready(ls, pfd, n);
	}
}

/* ms steps of a millisecond, the tick every second */
static void run_load2(struct fake_session *r, unsigned int ms,
		      unsigned int per_ms, unsigned int per_ms1)
{
	run_steps(r, ms, 1000000, 1000, per_ms, per_ms1);
}

static void run_load(struct fake_session *r, unsigned int ms,
		     unsigned int per_ms)
{
	run_load2(r, ms, per_ms, 0);
}

/*
 * A burst after a quiet spell, and a buffer that filled up: the rate a
 * first look finds is an average over time the buffer was quiet (or
 * misses the drops the next header tells), so the buffer stays polled
 * until a second estimate; going on a timer sized from the first one
 * let the producer drop nearly everything until the next tick.  Once
 * the rate is known the timer takes over (few wake-ups).
 */
static void test_burst_after_quiet(void)
{
	struct fake_session r;
	struct live_source *ls;
	/* a sub-buffer (63 records) every 12.6 ms: the buffer's free room
	 * (3 sub-buffers) fills in 37.8 ms */
	unsigned int per_ms = 5, n;
	struct pollfd pfd[64];
	uint64_t dropped;

	ls = timer_rig(&r, 1);
	if (!ls)
		return;
	run_load(&r, 700, 0);			/* quiet */
	run_load(&r, 1200, per_ms);		/* the burst, a tick inside */
	check_uint(r.fc.relay[0].full, ==, 0);
	check(ls->ch.cpus[0].timed);
	check_uint(ls->timed_drains, >, 0);
	check_uint(ls->woken_drains, <, 1200 / 13 / 2);
	/* relaytop held up for 100 ms: the buffer fills up, the drops are
	 * counted, and then it keeps up again */
	for (unsigned int t = 0; t < 100; t++) {
		fake_now += 1000000;
		fake_relay_events(&r.fc.relay[0], per_ms);
	}
	polled(&r, pfd, &n);			/* the late timed drain */
	r.t.src.ops->ready(ls, pfd, n);
	dropped = r.fc.relay[0].full;
	check_uint(dropped, >, 0);
	check(!ls->ch.cpus[0].timed);		/* found full: polled */
	/* the wake-up that follows at once (too soon to estimate) leaves
	 * it polled: the rate it has misses the drops */
	fake_now += 100000;
	fake_relay_events(&r.fc.relay[0], 1);
	polled(&r, pfd, &n);
	for (unsigned int i = 0; i < n; i++)
		if (pfd[i].fd == ls->ch.cpus[0].fd)
			pfd[i].revents = POLLIN;
	r.t.src.ops->ready(ls, pfd, n);
	check(!ls->ch.cpus[0].timed);
	run_load(&r, 1500, per_ms);		/* a tick inside */
	check_uint(r.fc.relay[0].full, ==, dropped);
	check(ls->ch.cpus[0].timed);
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].events + dropped, ==,
		   2800 * per_ms + 1);
	check_uint(r.t.tally.st.cpu[0].dropped, ==, dropped);
	fake_session_stop(&r);
}

static struct fake_session *slow_rig;
static struct live_source *slow_ls;
static unsigned int slow_ms, slow_per_ms;
static uint64_t slow_drains_seen;

/* A drain's first commit (the write of what it read first, before that
 * sub-buffer goes back) takes slow_ms (the write took that long, or the
 * reader was preempted in it): CPU 0's producer goes on meanwhile.  Once
 * per drain. */
static void slow_commit(void *ctx)
{
	uint64_t drains = slow_ls->timed_drains + slow_ls->woken_drains;

	(void)ctx;
	if (drains == slow_drains_seen)
		return;
	slow_drains_seen = drains;
	fake_now += slow_ms * 1000000ull;
	fake_relay_events(&slow_rig->fc.relay[0],
			  (uint64_t)slow_ms * slow_per_ms);
}

/*
 * Drains that take time: the producer fills the buffer from one drain's
 * start until the next one's hand-back, so the timer counts from a
 * drain's start and leaves room for how long drains take.  Counting the
 * period from a drain's end, with no room for the next one's length,
 * dropped events with drains of 15 ms against 38 ms of free room.
 */
static void test_slow_drains(void)
{
	struct fake_session r;
	struct live_source *ls;
	struct feed_sink sink = { .commit = slow_commit };

	ls = timer_rig(&r, 1);
	if (!ls)
		return;
	slow_rig = &r;
	slow_ls = ls;
	slow_drains_seen = 0;
	slow_ms = 15;
	slow_per_ms = 5;			/* 38 ms of free room */
	feed_add(&r.t.feed, &sink);
	run_load(&r, 3000, slow_per_ms);
	check_uint(r.fc.relay[0].full, ==, 0);
	check_uint(ls->timed_drains, >, 0);
	check_uint(ls->drain_took_ns, >=, 15000000);
	/* drains of 5 ms: 40% of the free room lasts 15.4 ms, less 5 */
	slow_ms = 5;
	run_load(&r, 3000, slow_per_ms);
	check_uint(r.fc.relay[0].full, ==, 0);
	check_uint(ls->drain_took_ns, >=, 5000000);
	check_uint(ls->drain_took_ns, <, 6000000);
	check_uint(ls->drain_ns, >=, 9000000);
	check_uint(ls->drain_ns, <=, 11000000);
	fake_session_stop(&r);
	slow_rig = NULL;
	slow_ls = NULL;
}

/*
 * Small buffers at a high rate: 40% of the free room (3 sub-buffers of
 * 63 records) fills in 0.19 ms at 400 records/ms, faster than the
 * timer's shortest period (LIVE_MIN_DRAIN_NS).  Such a buffer stays
 * polled, read at each sub-buffer's wake-up, instead of going on a timer
 * that cannot come in time: on the timer, every 1 ms drain found the
 * buffer full (150 of 400 records dropped), then polled again, then
 * timed again.  The steps here are 100 us, the wake-ups that fast.
 */
static void test_timer_too_slow_stays_polled(void)
{
	struct fake_session r;
	struct live_source *ls;
	unsigned int per_step = 40;

	ls = timer_rig(&r, 1);
	if (!ls)
		return;
	run_steps(&r, 30000, 100000, 10000, per_step, 0);
	check_uint(r.fc.relay[0].full, ==, 0);
	check(!ls->ch.cpus[0].timed);
	check_uint(ls->timed_drains, ==, 0);
	check_uint(ls->drain_at, ==, 0);
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 30000 * per_step);
	fake_session_stop(&r);
}

/*
 * The drain schedule at a small geometry, with the margin for a wait to
 * run (LIVE_LATE_MARGIN_NS): 4 x 4 KiB at 9.4k events/s (1.5 sub-buffers
 * in 10 ms) fills its 12 KiB of free room in 20 ms; a timed drain at 40%
 * of it leaves 12 ms, less than a normal-priority reader on a busy CPU
 * waits to run, so the buffer stays polled.  At 1.9k events/s (the room
 * lasts 101 ms: 61 ms left after the drain's 40%) it goes on the timer.
 */
static void test_timer_leaves_room_to_run(void)
{
	struct fake_session r;
	struct live_source *ls;
	unsigned int cap = 63;

	ls = timer_rig(&r, 1);
	if (!ls)
		return;
	ls->late_margin_ns = LIVE_LATE_MARGIN_NS;
	for (unsigned int k = 0; k < 4; k++) {
		fake_now += 10000000;
		fake_relay_events(&r.fc.relay[0], cap + cap / 2);
		top_drain(&r.t);
	}
	check(!ls->ch.cpus[0].timed);
	check_uint(ls->drain_at, ==, 0);
	/* slower: the rate falls by halves, so a few estimates */
	for (unsigned int k = 0; k < 8; k++) {
		fake_now += 10000000;
		fake_relay_events(&r.fc.relay[0], 19);
		top_drain(&r.t);
	}
	check(ls->ch.cpus[0].timed);
	check_uint(ls->drain_at, >, fake_now);
	check_uint(r.fc.relay[0].full, ==, 0);
	fake_session_stop(&r);
}

/*
 * A busy buffer still polled (its rate not yet known, or found past the
 * backstop) wakes us more often than the timer's period: those reads
 * must not put off the timed drain of the others.
 */
static void test_woken_reads_keep_timer(void)
{
	struct fake_session r;
	struct live_source *ls;

	ls = timer_rig(&r, 2);
	if (!ls)
		return;
	/* CPU 0 goes on the timer (37.8 ms of free room) */
	run_load2(&r, 200, 5, 0);
	if (!check(ls->ch.cpus[0].timed))
		goto out;
	/* CPU 1 busy but kept polled: found past the backstop each time */
	for (unsigned int t = 0; t < 300; t++) {
		struct pollfd pfd[64];
		unsigned int n;
		uint64_t due = ls->drain_at;

		fake_now += 1000000;
		fake_relay_events(&r.fc.relay[0], 5);
		/* CPU 1 a sub-buffer and more each step: every read finds
		 * it nearly full */
		fake_relay_events(&r.fc.relay[1], 3 * 63);
		polled(&r, pfd, &n);
		for (unsigned int i = 0; i < n; i++)
			if (pfd[i].fd == ls->ch.cpus[1].fd)
				pfd[i].revents = POLLIN;
		r.t.src.ops->ready(ls, pfd, n);
		/* the timer's drain came when due, not later */
		if (!check_uint(ls->drain_at, <=, due > fake_now ? due :
				fake_now + ls->drain_ns))
			break;
	}
	check_uint(r.fc.relay[0].full, ==, 0);
	check_uint(ls->timed_drains, >, 0);
out:
	fake_session_stop(&r);
}

/*
 * How late the timed drains came counts the waits to run, not a stop:
 * a drain after SIGCONT (the program was stopped and continued, as the
 * bench does with SIGSTOP around a configuration change) is left out.
 * With the buffers gone there is no drain timer to be late.
 */
static void test_drain_late_not_stops(void)
{
	struct fake_session r;
	struct live_source *ls;
	struct pollfd pfd[64];
	unsigned int n, cap = 63;

	ls = timer_rig(&r, 2);
	if (!ls)
		return;
	fake_now += 10000000;
	fake_relay_events(&r.fc.relay[0], cap + cap / 2);
	top_drain(&r.t);
	if (!check_uint(ls->drain_at, >, 0))
		goto out;
	loop_install_signals();
	raise(SIGCONT);				/* stopped meanwhile */
	fake_relay_events(&r.fc.relay[0], cap);
	fake_now = ls->drain_at + 9000000;
	polled(&r, pfd, &n);
	r.t.src.ops->ready(ls, pfd, n);
	check_uint(ls->timed_drains, ==, 1);
	check_uint(ls->drain_late_ns, ==, 0);
	/* the next one, 2 ms late with no stop, counts */
	fake_relay_events(&r.fc.relay[0], cap);
	fake_now = ls->drain_at + 2000000;
	polled(&r, pfd, &n);
	r.t.src.ops->ready(ls, pfd, n);
	check_uint(ls->timed_drains, ==, 2);
	check_uint(ls->drain_late_ns, ==, 2000000);
	/* the buffers go away: no drain timer until they are back */
	check_uint(ls->drain_at, >, 0);
	fake_channel_remove_buffers(&r.fc);
	top_drain(&r.t);
	check(!ls->have_ch);
	check_uint(ls->drain_at, ==, 0);
	fake_channel_restore_buffers(&r.fc);
out:
	fake_session_stop(&r);
}

/*
 * relaytop's own switches and wake-ups are counted (with a screen, where
 * records are followed) and, on request, left out of the figures, but
 * not out of the recording.
 */
static void test_self_noise(void)
{
	struct fake_session r;
	int self = (int)getpid();
	char path[] = "/tmp/t-session-self.XXXXXX";
	int fd = mkstemp(path);

	if (!check(fd >= 0))
		return;
	close(fd);
	memset(&r, 0, sizeof(r));
	r.opt.record = path;
	if (!check(fake_session_start(&r, 1, 4096, 4, false, OUT_BATCH))) {
		unlink(path);
		return;
	}
	check_int(r.t.tally.self_pid, ==, self);
	r.fc.relay[0].next_id = (uint64_t)self;	/* a switch out of us */
	fake_relay_event(&r.fc.relay[0], SCHED_RELAY_SWITCH);
	/* not us */
	fake_relay_event(&r.fc.relay[0], SCHED_RELAY_WAKEUP);
	r.fc.relay[0].next_id = (uint64_t)self;	/* we are woken */
	fake_relay_event(&r.fc.relay[0], SCHED_RELAY_WAKEUP);
	fake_relay_events(&r.fc.relay[0], 3);
	top_drain(&r.t);
	check_uint(r.t.tally.self_events, ==, 2);
	check_uint(r.t.tally.st.cpu[0].events, ==, 6);
	top_key(&r.t, 'i');
	check(r.t.tally.hide_self);
	check(strstr(r.t.app.status, "hidden") != NULL);
	r.fc.relay[0].next_id = (uint64_t)self;
	fake_relay_event(&r.fc.relay[0], SCHED_RELAY_WAKEUP);
	fake_relay_events(&r.fc.relay[0], 2);
	top_drain(&r.t);
	check_uint(r.t.tally.self_events, ==, 3);
	check_uint(r.t.tally.st.cpu[0].events, ==, 8);	/* 9 less ours */
	check_uint(r.t.rec->records, ==, 9);		/* all recorded */
	fake_session_stop(&r);
	unlink(path);
}

static void test_overwrite_losses_counted(void)
{
	struct fake_session r;

	if (!check(rig_start(&r, 1, true, NULL)))
		return;
	fake_relay_events(&r.fc.relay[0], 5);
	top_drain(&r.t);
	fake_relay_events(&r.fc.relay[0], 3 * 4 * 63);	/* three laps */
	top_tick(&r.t);
	check_uint(r.t.tally.st.cpu[0].events + r.t.tally.st.cpu[0].lost, ==,
		   r.fc.relay[0].events);
	check_uint(r.t.tally.st.cpu[0].lost, >, 0);
	check_int((int)(r.t.tally.st.cpu[0].fill * 100), ==, 100);
	fake_session_stop(&r);
}

/* The recording of all that says the same. */
static void test_recording_says_it_all(void)
{
	struct fake_session r;
	struct record_stream rs;
	struct record_item it;
	uint64_t records[2] = { 0 }, dropped[2] = { 0 }, written[2] = { 0 };
	unsigned int restarts = 0, gone = 0, configs = 0;
	int rc;

	if (!rig_start_recording(&r, 2))
		return;
	fake_relay_events(&r.fc.relay[0], 200);
	fake_relay_events(&r.fc.relay[1], 100);
	top_drain(&r.t);
	written[0] += 200;
	written[1] += 100;
	fake_channel_reset(&r.fc);
	fake_relay_events(&r.fc.relay[0], 50);
	top_drain(&r.t);
	written[0] += 50;
	fake_channel_remove_buffers(&r.fc);
	top_drain(&r.t);
	fake_channel_restore_buffers(&r.fc);
	top_tick(&r.t);	/* back */
	fake_relay_events(&r.fc.relay[1], 4 * 63 + 9);	/* 9 dropped */
	written[1] += 4 * 63;
	fake_channel_sync_files(&r.fc);
	rc = top_finish(&r.t);
	check_int(rc, ==, 0);
	fake_session_stop(&r);

	rc = record_stream_open(&rs, record_path);
	check_int(rc, ==, 0);
	while (record_stream_next(&rs, &it) > 0) {
		if (it.kind == ITEM_RECORD && it.cpu < 2)
			records[it.cpu]++;
		else if (it.kind == ITEM_DROPPED && it.cpu < 2)
			dropped[it.cpu] += it.count;
		restarts += it.kind == ITEM_RESTART;
		gone += it.kind == ITEM_GONE;
		configs += it.kind == ITEM_CONFIG;
	}
	check_str(rs.rd.error, "");
	check_uint(records[0], ==, written[0]);
	check_uint(records[1], ==, written[1]);
	check_uint(dropped[1], ==, 9);		/* after the last record */
	check_uint(rs.rd.summary[1].dropped, ==, 9);
	check(rs.rd.summary[1].drops_from_stats);
	check_uint(dropped[0], ==, 0);
	check_uint(restarts, ==, 2);		/* one per CPU */
	check_uint(gone, ==, 2);		/* one per CPU, in its order */
	check_uint(configs, >=, 1);		/* the channel came back */
	record_stream_close(&rs);
	unlink(record_path);
}

/* What the recording at record_path says about CPU 0's drops. */
struct drops_seen {
	uint64_t dropped;		/* DROPPED items */
	uint64_t before_reset;		/* of those, before the first RESTART */
	unsigned int restarts;
	uint64_t summary_dropped, summary_records;
};

static void scan_drops(struct drops_seen *d)
{
	struct record_stream rs;
	struct record_item it;
	int rc = record_stream_open(&rs, record_path);

	memset(d, 0, sizeof(*d));
	check_int(rc, ==, 0);
	while (record_stream_next(&rs, &it) > 0) {
		if (it.kind == ITEM_DROPPED) {
			d->dropped += it.count;
			if (!d->restarts)
				d->before_reset += it.count;
		}
		d->restarts += it.kind == ITEM_RESTART;
	}
	check_str(rs.rd.error, "");
	d->summary_dropped = rs.rd.summary[0].dropped;
	d->summary_records = rs.rd.summary[0].records;
	record_stream_close(&rs);
	unlink(record_path);
}

/*
 * Record 4 full sub-buffers and 11 drops that only the stats file counts
 * (a full buffer starts no sub-buffer to carry them), and tick once so
 * that relaytop reads both.  False if the rig did not start.
 */
static bool record_stats_only_drops(struct fake_session *r)
{
	if (!rig_start_recording(r, 1))
		return false;
	fake_relay_events(&r->fc.relay[0], 4 * 63 + 11);	/* 11 dropped */
	fake_channel_sync_files(&r->fc);
	top_tick(&r->t);	/* reads the buffers and the stats file */
	check_uint(r->fc.relay[0].full, ==, 11);
	return true;
}

/* Then a reset: the recording keeps them, before the reset. */
static void test_stats_drops_survive_reset(void)
{
	struct drops_seen d;
	struct fake_session r;

	if (!record_stats_only_drops(&r))
		return;
	fake_channel_reset(&r.fc);
	fake_relay_events(&r.fc.relay[0], 5);
	top_drain(&r.t);
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);

	scan_drops(&d);
	check_uint(d.restarts, ==, 1);
	check_uint(d.before_reset, ==, 11);
	check_uint(d.dropped, ==, 11);
	check_uint(d.summary_dropped, ==, 11);
	check_uint(d.summary_records, ==, 4 * 63 + 5);
}

/* The same when the buffers go away (a new geometry) instead. */
static void test_stats_drops_survive_gone(void)
{
	struct drops_seen d;
	struct fake_session r;

	if (!record_stats_only_drops(&r))
		return;
	fake_channel_remove_buffers(&r.fc);
	top_drain(&r.t);
	check(!r.t.live.have_ch);
	fake_channel_restore_buffers(&r.fc);
	fake_channel_reset(&r.fc);	/* new buffers: a new sequence */
	top_tick(&r.t);	/* back */
	check(r.t.live.have_ch);
	fake_relay_events(&r.fc.relay[0], 5);
	fake_channel_sync_files(&r.fc);
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);

	scan_drops(&d);
	check_uint(d.dropped, ==, 11);
	check_uint(d.summary_dropped, ==, 11);
	check_uint(d.summary_records, ==, 4 * 63 + 5);
}

static void test_pause_freezes_view(void)
{
	struct fake_session r;
	struct view v;
	struct sched_task before, now;
	unsigned int intervals;
	uint64_t shown;

	if (!check(rig_start(&r, 2, false, NULL)))
		return;
	r.t.tally.follow_tasks = true;	/* as with a screen */
	tally_figures(&r.t.tally, true);
	fake_relay_events(&r.fc.relay[0], 100);
	top_drain(&r.t);
	top_tick(&r.t);
	top_view(&r.t, &v);
	shown = v.st->cpu[0].events;
	check_uint(shown, ==, 100);
	check(sched_model_current(v.model, 0, &before));
	intervals = v.figures->intervals;

	top_set_paused(&r.t, true);
	fake_relay_events(&r.fc.relay[0], 50);
	top_drain(&r.t);
	top_tick(&r.t);
	top_view(&r.t, &v);
	check(v.paused);
	check_uint(v.st->cpu[0].events, ==, shown);	/* stands still */
	/* who runs and the tasks' and latency figures too */
	check(sched_model_current(v.model, 0, &now));
	check_int(now.pid, ==, before.pid);
	check(sched_model_current(&r.t.tally.model, 0, &now));
	check_int(now.pid, !=, before.pid);		/* the live one moved */
	check_uint(v.figures->intervals, ==, intervals);
	check_uint(r.t.tally.merged.intervals, >, intervals);
	check_uint(r.t.tally.st.cpu[0].events, ==, 150);	/* reading went on */
	r.t.app.sort = SORT_EVENTS;
	top_view(&r.t, &v);
	check_int(v.sort, ==, SORT_EVENTS);		/* keys still show */
	check_uint(v.st->cpu[0].events, ==, shown);

	top_set_paused(&r.t, false);
	top_view(&r.t, &v);
	check(!v.paused);
	check_uint(v.st->cpu[0].events, ==, 150);
	fake_session_stop(&r);
}

static int read_only_give_back(void *cc, uint64_t n)
{
	(void)cc;
	(void)n;
	return -EBADF;
}

/*
 * Hand-back refused (EBADF) in OVERWRITE mode: what the status line says,
 * and the drain reads on all the same (a refused hand-back once stopped
 * it after the first sub-buffer).
 */
static void read_only(bool overwrite)
{
	struct fake_session r;
	struct view v;

	if (!check(rig_start(&r, 1, overwrite, NULL)))
		return;
	r.t.live.give_back = read_only_give_back;
	app_status(&r.t.app, false, "a note (TERM fell back to vt100)");
	fake_relay_events(&r.fc.relay[0], 100);	/* more than a sub-buffer */
	top_drain(&r.t);
	top_view(&r.t, &v);
	check_uint(v.st->cpu[0].events, ==, 100);
	if (overwrite) {
		check(!r.t.app.status_error);
		check_str(r.t.app.status, "a note (TERM fell back to vt100)");
	} else {
		/* the producer will fill up and drop: a warning */
		check(r.t.app.status_error);
		check(strstr(r.t.app.status, "read-only") != NULL);
	}
	fake_session_stop(&r);
}

int main(void)
{
	loop_install_signals();
	TEST(test_counts_and_flow(), "every event counted; hand-back keeps no-overwrite flowing");
	TEST(test_reset_noticed(), "a reset is noticed, announced, counted from zero");
	TEST(test_buffers_go_and_come_back(), "buffers removed under the mapping: announced, picked up again");
	TEST(test_cpu_comes_online(), "a CPU that comes online later is followed");
	TEST(test_cpu_that_cannot_be_opened(), "a buffer file that cannot be opened: the others go on, a reset is noticed");
	TEST(test_each_subbuf_handed_back_before_the_next(), "a drain hands each sub-buffer back before it reads the next");
	TEST(test_busy_cpu_starves_none(), "a producer that outruns relaytop: a lap of its buffer, then the others");
	TEST(test_each_buffer_handed_back_before_the_next(), "a drain hands each buffer back before it reads the next");
	TEST(test_soonest_full_read_first(), "a drain reads first the buffer that fills soonest");
	TEST(test_drops_counted(), "drops are counted, from the stats file too");
	TEST(test_tick_reads_little(), "the tick reads generation, the rest and stats only when needed");
	TEST(test_drain_timer(), "busy buffers on a timer sized from their rate; quiet ones polled");
	TEST(test_burst_after_quiet(), "a burst after a quiet spell or a full buffer: polled until its rate is known, nothing dropped");
	TEST(test_slow_drains(), "drains that take time: timed from their start, their length left room for");
	TEST(test_timer_too_slow_stays_polled(), "a buffer that fills faster than the timer's shortest period stays polled");
	TEST(test_timer_leaves_room_to_run(), "a buffer whose room after a timed drain lasts less than a busy CPU's wait to run stays polled");
	TEST(test_woken_reads_keep_timer(), "woken reads of a polled buffer do not put off the timed drain");
	TEST(test_drain_late_not_stops(), "how late timed drains came: a stop and continue is left out");
	TEST(test_self_noise(), "relaytop's own events counted, hidden from the figures on request, recorded");
	TEST(test_overwrite_losses_counted(), "overwrite: read + lost == produced, fill 100%%");
	TEST(test_recording_says_it_all(), "the recording holds every record, the drops, the reset, the gap");
	TEST(test_stats_drops_survive_reset(), "drops only the stats file counted are kept across a reset");
	TEST(test_stats_drops_survive_gone(), "and when the buffers go away and come back");
	TEST(read_only(true), "overwrite: buffers opened read-only need no hand-back, nothing said");
	TEST(read_only(false), "no-overwrite: buffers opened read-only are announced as a warning");
	TEST(test_pause_freezes_view(), "paused, the screen's figures stand still while reading goes on");
	return test_done();
}

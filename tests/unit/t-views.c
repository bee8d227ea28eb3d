// SPDX-License-Identifier: GPL-2.0
/*
 * t-views.c - pins what the screen, the batch blocks and --report show of
 * CPUs, reused pids and records out of time order (relaytop/tally.c,
 * sched_model.c, time_merge.c, sched_text.c, batch.c, report.c):
 * - the time merge keeps at most max_queued items waiting: past that
 *   the oldest go on in time order without the watermark (counted as
 *   forced), and a record older than them counts as late;
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "filter.h"
#include "report.h"
#include "sched_model.h"
#include "sched_text.h"
#include "synth-recording.h"
#include "tally.h"
#include "test-lib.h"
#include "time_merge.h"

#define SEC 1000000000ull

/* A record of type for pid (of thread group tgid, named comm). */
static struct sched_relay_record task_rec(uint64_t ts, uint8_t type,
					  int32_t pid, int32_t tgid,
					  const char *comm, unsigned int target)
{
	struct sched_relay_record r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = type;
	r.pid = pid;
	r.tgid = tgid;
	r.prio = 120;
	r.target_cpu = (uint16_t)target;
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

/* prev (named pcomm, left in state) switched out for next (ncomm). */
/* ---- the time merge's bound ------------------------------------------ */

struct handed {
	uint64_t n, last_ts;
	bool in_order;
};

static void handed_record(void *ctx, unsigned int cpu,
			  const struct sched_relay_record *r)
{
	struct handed *h = ctx;

	(void)cpu;
	if (r->ts < h->last_ts)
		h->in_order = false;
	h->last_ts = r->ts;
	h->n++;
}

static void test_merge_bound(void)
{
	struct handed h = { .in_order = true };
	struct time_merge_ops ops = { .record = handed_record, .ctx = &h };
	struct time_merge tm;
	struct sched_relay_record r;
	uint64_t most = 0;

	time_merge_init(&tm, &ops);
	check_uint(tm.max_queued, ==, TIME_MERGE_MAX_QUEUED);
	tm.max_queued = 64;
	/* no watermark ever comes: 1000 records of two CPUs */
	for (unsigned int i = 0; i < 1000; i++) {
		r = task_rec(1000 + 10 * i, SCHED_RELAY_EXIT, 1, 1, "a", 0);
		time_merge_records(&tm, i % 2, &r, 1);
		if (tm.queued > most)
			most = tm.queued;
	}
	check_uint(most, <=, 64);
	check_uint(tm.queued, >=, 56);
	check_uint(tm.forced, ==, 1000 - tm.queued);
	check_uint(h.n, ==, tm.forced);
	check(h.in_order);
	check_uint(tm.late, ==, 0);
	/* a record older than those forced out: late */
	r = task_rec(1005, SCHED_RELAY_EXIT, 1, 1, "a", 0);
	time_merge_records(&tm, 0, &r, 1);
	check_uint(tm.late, ==, 1);
	time_merge_flush(&tm, UINT64_MAX);
	check_uint(tm.queued, ==, 0);
	check_uint(h.n, ==, 1001);
	time_merge_free(&tm);
}

int main(void)
{
	TEST(test_merge_bound(), "the time merge holds at most max_queued items, oldest first out");
	return test_done();
}

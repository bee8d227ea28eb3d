// SPDX-License-Identifier: GPL-2.0
/*
 * t-views.c - pins what the screen, the batch blocks and --report show of
 * CPUs, reused pids and records out of time order (relaytop/tally.c,
 * sched_model.c, time_merge.c, sched_text.c, batch.c, report.c):
 * - -C narrows the CPU table: the tally keeps the statistics (rows, the
 *   all row's sums) of only the CPUs -C names, and a batch block shows
 *   only them; the models still take every CPU's records, so a wakeup on
 *   a CPU -C leaves out still starts the latency of a switch-in on one
 *   it takes;
 * - a pid reused by a new task starts a new task entry, without the old
 *   task's counts: a fork naming the pid as its child, another thread
 *   group id, or, once the task exited, another name; an exec's rename
 *   (no exit) and the exiting task's own last switch-out keep the entry;
 * - the model counts records that come older than one it already took
 *   (late), and the latency table ("# late N") says how many, live and
 *   in --report alike (a recording whose CPU's time went back);
 * - the time merge keeps at most max_queued items waiting: past that
 *   the oldest go on in time order without the watermark (counted as
 *   forced), and a record older than them counts as late;
 * - the latency table has no row for a CPU the model has nothing of;
 * - -C naming a CPU the channel or the recording has no buffer of is a
 *   bad command line (status 2, saying which CPUs there are), and
 *   nothing is recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "fake-channel.h"
#include "filter.h"
#include "report.h"
#include "sched_model.h"
#include "sched_text.h"
#include "synth-record.h"
#include "synth-recording.h"
#include "tally.h"
#include "test-lib.h"
#include "test-util.h"
#include "time_merge.h"
#include "top.h"

#define SEC 1000000000ull

/* A record of type for pid (of thread group tgid, named comm). */
static struct sched_relay_record task_rec(uint64_t ts, uint8_t type,
					  int32_t pid, int32_t tgid,
					  const char *comm, unsigned int target)
{
	struct sched_relay_record r = synth_record(ts, type, pid, comm);

	r.tgid = tgid;
	r.target_cpu = (uint16_t)target;
	return r;
}

/* prev (named pcomm, left in state) switched out for next (ncomm). */
static struct sched_relay_record switch_rec(uint64_t ts, int32_t prev,
					    int32_t ptgid, const char *pcomm,
					    uint8_t state, int32_t next,
					    int32_t ntgid, const char *ncomm)
{
	struct sched_relay_record r = synth_record(ts, SCHED_RELAY_SWITCH,
						   prev, pcomm);

	r.tgid = ptgid;
	r.state = state;
	synth_record_task2(&r, next, 120, ncomm);
	r.tgid2 = ntgid;
	return r;
}

/* ---- -C and the CPU table ------------------------------------------- */

static void test_cpu_filter(void)
{
	struct tally t;
	struct filter f;
	struct feed_sink s;
	struct view v;
	unsigned int order[4];
	struct sched_relay_record r[40];
	char msg[128], *text = NULL;
	size_t len = 0;
	FILE *out;

	memset(&f, 0, sizeof(f));
	check_int(filter_parse_cpus(&f, "0,2", msg, sizeof(msg)), ==, 0);
	tally_init(&t, 0, 0, true);
	tally_figures(&t, true);
	tally_filter(&t, &f);
	s = tally_sink(&t);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		struct feed_event e = { .kind = FEED_CPU_ON, .cpu = cpu };

		s.event(s.ctx, &e);
	}
	/* CPU c: 10 (c + 1) exits; CPU 1's first record wakes pid 7 for
	 * CPU 0, whose first switches it in 1 us later */
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		uint32_t n = 10 * (cpu + 1);

		for (uint32_t i = 0; i < n; i++)
			r[i] = task_rec(1000 + 10 * i, SCHED_RELAY_EXIT,
					100 + (int32_t)cpu, 100, "x", cpu);
		if (cpu == 1)
			r[0] = task_rec(500, SCHED_RELAY_WAKEUP, 7, 7, "w", 0);
		if (cpu == 0)
			r[0] = switch_rec(1500, 0, 0, "idle", 0, 7, 7, "w");
		synth_feed(&s, cpu, r, n);
	}
	tally_tick(&t, SEC, 1000000);
	/* the table: CPUs 0 and 2, the all row their sum */
	check_uint(stats_order(&t.st, SORT_CPU, order), ==, 2);
	check_uint(order[0], ==, 0);
	check_uint(order[1], ==, 2);
	check_uint((uint64_t)t.st.total.events_rate, ==, 40);
	/* the latency: CPU 0's, its wakeup on CPU 1 */
	check_uint(t.merged.cpu[0].lat_last.count, ==, 1);
	check_uint(t.merged.cpu[0].lat_last.max_ns, ==, 1000);

	memset(&v, 0, sizeof(v));
	v.st = &t.st;
	v.elapsed = 1;
	out = open_memstream(&text, &len);
	batch_print(out, &v);
	fclose(out);
	check(strstr(text, "\n0 ") != NULL);
	check(strstr(text, "\n2 ") != NULL);
	check(strstr(text, "\n1 ") == NULL);
	check(strstr(text, "\n3 ") == NULL);
	check(strstr(text, "\nall          40 ") != NULL);
	if (test_failed())
		test_msg("the block:\n%s", text);
	free(text);
	tally_free(&t);
}

/* ---- reused pids ---------------------------------------------------- */

/* pid ran once on CPU 0 from ts to ts + 100 (woken at ts - 50). */
static void ran(struct sched_model *m, uint64_t ts, int32_t pid,
		int32_t tgid, const char *comm, uint8_t state)
{
	struct sched_relay_record r;

	r = task_rec(ts - 50, SCHED_RELAY_WAKEUP, pid, tgid, comm, 0);
	sched_model_record(m, 0, &r, NULL);
	r = switch_rec(ts, 0, 0, "swapper/0", 0, pid, tgid, comm);
	sched_model_record(m, 0, &r, NULL);
	r = switch_rec(ts + 100, pid, tgid, comm, state, 0, 0, "swapper/0");
	sched_model_record(m, 0, &r, NULL);
}

static uint64_t switches(const struct sched_model *m, int32_t pid)
{
	const struct sched_task_stats *t = sched_model_task(m, pid);

	return t ? t->all.switches : 0;
}

static void test_pid_reuse(void)
{
	struct sched_model m;
	struct sched_relay_record r;
	const struct sched_task_stats *t;
	size_t ntasks;

	sched_model_init(&m, 1);
	sched_model_start(&m, 0);

	/* an exec renames a task that goes on: the same entry */
	ran(&m, 1000, 50, 50, "sh", SCHED_RELAY_STATE_SLEEPING);
	ran(&m, 2000, 50, 50, "make", SCHED_RELAY_STATE_SLEEPING);
	check_uint(switches(&m, 50), ==, 2);
	check_uint(m.reused, ==, 0);

	/* it exits; its own last switch-out (same name) is still it */
	ran(&m, 3000, 50, 50, "make", SCHED_RELAY_STATE_RUNNING);
	r = task_rec(3050, SCHED_RELAY_EXIT, 50, 50, "make", 0);
	sched_model_record(&m, 0, &r, NULL);
	r = switch_rec(3080, 0, 0, "swapper/0", 0, 50, 50, "make");
	sched_model_record(&m, 0, &r, NULL);
	r = switch_rec(3090, 50, 50, "make", SCHED_RELAY_STATE_DEAD, 0, 0,
		       "swapper/0");
	sched_model_record(&m, 0, &r, NULL);
	check_uint(switches(&m, 50), ==, 4);
	check_uint(m.reused, ==, 0);

	/* then another name behind pid 50: a new task, from nothing */
	ran(&m, 4000, 50, 50, "cc1", SCHED_RELAY_STATE_SLEEPING);
	t = sched_model_task(&m, 50);
	check_uint(m.reused, ==, 1);
	check_uint(switches(&m, 50), ==, 1);
	check_uint(t->all.wakeups, ==, 1);
	check_uint(t->runs, ==, 1);
	check(!t->exited);
	check_str(t->task.comm, "cc1");

	/* a fork naming it as the child (its exit was not seen: lost) */
	ntasks = m.ntasks;
	r = task_rec(5000, SCHED_RELAY_FORK, 60, 60, "bash", 0);
	r.pid2 = 50;
	r.tgid2 = 50;
	snprintf(r.comm2, sizeof(r.comm2), "%s", "bash");
	sched_model_record(&m, 0, &r, NULL);
	check_uint(m.reused, ==, 2);
	/* pid 50 keeps its one entry: no slot is left behind by no pid */
	check_uint(m.ntasks, ==, ntasks);
	check_uint(switches(&m, 50), ==, 0);
	check_str(sched_model_task(&m, 50)->task.comm, "bash");
	ran(&m, 6000, 50, 50, "bash", SCHED_RELAY_STATE_SLEEPING);
	check_uint(switches(&m, 50), ==, 1);

	/* another thread group, same pid (no exit, no fork seen) */
	ran(&m, 7000, 50, 70, "bash", SCHED_RELAY_STATE_SLEEPING);
	check_uint(m.reused, ==, 3);
	check_uint(switches(&m, 50), ==, 1);
	check_uint(sched_model_task(&m, 50)->task.tgid, ==, 70);
	/* nothing is waiting any more: every wakeup got its switch-in */
	check_uint(m.nwaiting, ==, 0);
	sched_model_free(&m);
}

/* ---- late records ---------------------------------------------------- */

static char *latency_text(const struct sched_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sched_text_latency(f, m, true, SCHED_LAT_WAKEUP);
	fclose(f);
	return buf;
}

static uint64_t base_ts;

/* CPU 0's third record is older than its second: late. */
static void make_record(unsigned int cpu, unsigned int i,
			struct sched_relay_record *r)
{
	uint64_t at = base_ts + (uint64_t)i * 1000 + cpu * 10;

	if (cpu == 0 && i == 2)
		at -= 1500;
	*r = task_rec(at, SCHED_RELAY_EXIT, 10 + (int32_t)cpu,
		      10 + (int32_t)cpu, "e", cpu);
	r->event_seq = i;
}

static void test_late(void)
{
	static const unsigned int nrec[2] = { 4, 4 };
	struct synth_recording spec = {
		.ncpus = 2, .nrec = nrec, .chunk = 8, .generation = 1,
		.base_ts = &base_ts, .make_record = make_record,
	};
	char path[] = "/tmp/t-views.XXXXXX";
	struct sched_model m;
	struct sched_relay_record r;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int fd = mkstemp(path);

	sched_model_init(&m, 2);
	r = task_rec(100, SCHED_RELAY_EXIT, 1, 1, "a", 0);
	sched_model_record(&m, 0, &r, NULL);
	r = task_rec(300, SCHED_RELAY_EXIT, 2, 2, "b", 1);
	sched_model_record(&m, 1, &r, NULL);
	check_uint(m.late, ==, 0);
	r = task_rec(200, SCHED_RELAY_EXIT, 1, 1, "a", 0);
	sched_model_record(&m, 0, &r, NULL);
	check_uint(m.late, ==, 1);
	r = task_rec(300, SCHED_RELAY_EXIT, 1, 1, "a", 0);	/* a tie */
	sched_model_record(&m, 0, &r, NULL);
	check_uint(m.late, ==, 1);
	text = latency_text(&m);
	check(strstr(text, "\n# late 1: ") != NULL);
	free(text);
	sched_model_zero(&m);		/* z */
	check_uint(m.late, ==, 0);
	sched_model_free(&m);

	/* --report of a recording whose CPU 0 went back in time once */
	close(fd);
	synth_write_recording(path, &spec);
	out = open_memstream(&text, &len);
	check_int(report_recording(path, NULL, out), ==, 0);
	fclose(out);
	check(strstr(text, "\n# late 1: records that came after a later one")
	      != NULL);
	if (test_failed())
		test_msg("the report:\n%s", text);
	free(text);
	unlink(path);
}

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

/* ---- CPUs with nothing ------------------------------------------------ */

static void test_unseen_cpu(void)
{
	struct sched_model m;
	struct sched_relay_record r;
	char *text;

	sched_model_init(&m, 4);	/* CPUs 1 and 3 never have records */
	r = task_rec(100, SCHED_RELAY_WAKEUP, 5, 5, "w", 2);
	sched_model_record(&m, 0, &r, NULL);
	r = switch_rec(400, 0, 0, "swapper/2", 0, 5, 5, "w");
	sched_model_record(&m, 2, &r, NULL);
	check(sched_model_cpu_seen(&m, 0));
	check(!sched_model_cpu_seen(&m, 1));
	check(sched_model_cpu_seen(&m, 2));
	check(!sched_model_cpu_seen(&m, 3));
	check(!sched_model_cpu_seen(&m, 9));
	text = latency_text(&m);
	check(strstr(text, "\n0 ") != NULL);
	check(strstr(text, "\n1 ") == NULL);
	check(strstr(text, "\n2             1 ") != NULL);
	check(strstr(text, "\n3 ") == NULL);
	check(strstr(text, "\nall           1 ") != NULL);
	if (test_failed())
		test_msg("the table:\n%s", text);
	free(text);
	sched_model_free(&m);
}

static int run_top(const void *arg)
{
	return top_run(arg);
}

static uint64_t two_ts;

static void two_cpus(unsigned int cpu, unsigned int i,
		     struct sched_relay_record *r)
{
	*r = synth_record(two_ts + i * 1000 + cpu, SCHED_RELAY_EXIT,
			  100 + (int32_t)cpu, NULL);
}

/*
 * -C names CPUs the channel (or the recording) has: -C 5 on a channel of
 * 4 CPUs is a bad command line (status 2) that says which CPUs it has,
 * before anything is recorded.  Before, it was taken and showed nothing.
 */
static void test_cpus_checked(void)
{
	struct fake_channel fc;
	struct options o;
	char rec[] = "/tmp/t-views-rec.XXXXXX", *out = NULL, *err = NULL;
	char msg[128];
	unsigned int nrec[2] = { 3, 3 };
	struct synth_recording s = {
		.ncpus = 2, .nrec = nrec, .chunk = 8, .generation = 1,
		.base_ts = &two_ts, .make_record = two_cpus,
	};
	int fd = mkstemp(rec);

	close(fd);
	unlink(rec);
	if (!check(fake_channel_create(&fc, 4, 4096, 4, false)))
		return;
	memset(&o, 0, sizeof(o));
	o.channel = fc.dir;
	o.interval = 1;
	o.count = 1;
	o.batch = true;
	o.record = rec;
	check_int(filter_parse_cpus(&o.filter, "1,5", msg, sizeof(msg)), ==, 0);
	check_int(run_captured(run_top, &o, &out, NULL, &err), ==, 2);
	check(strstr(err, "-C 5: the channel has no CPU 5 (its CPUs: 0-3)") != NULL);
	check(access(rec, F_OK) != 0);		/* nothing recorded */
	free(out);
	free(err);
	fake_channel_destroy(&fc);

	synth_write_recording(rec, &s);
	memset(&o, 0, sizeof(o));
	o.replay = rec;
	o.interval = 1;
	o.batch = true;
	check_int(filter_parse_cpus(&o.filter, "0-2", msg, sizeof(msg)), ==, 0);
	check_int(run_captured(run_top, &o, &out, NULL, &err), ==, 2);
	check(strstr(err, "-C 2: the recording has no CPU 2 (its CPUs: 0-1)") != NULL);
	check_str(out, "");
	free(out);
	free(err);
	check_int(filter_parse_cpus(&o.filter, "1", msg, sizeof(msg)), ==, 0);
	check_int(run_captured(run_top, &o, &out, NULL, &err), ==, 0);
	check(strstr(out, "\n1 ") != NULL);
	free(out);
	free(err);
	unlink(rec);
}

int main(void)
{
	TEST(test_cpu_filter(), "-C narrows the CPU table and its all row; latencies still start anywhere");
	TEST(test_pid_reuse(), "a reused pid is a new task: fork, other tgid, other name after exit; exec and the last switch-out are not");
	TEST(test_late(), "records out of time order are counted and shown, live and in --report");
	TEST(test_merge_bound(), "the time merge holds at most max_queued items, oldest first out");
	TEST(test_unseen_cpu(), "the latency table has no row for a CPU with nothing");
	TEST(test_cpus_checked(), "-C names CPUs the channel or recording has, else status 2, nothing recorded");
	return test_done();
}

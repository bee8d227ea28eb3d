// SPDX-License-Identifier: GPL-2.0
/*
 * t-latency.c - pins the two latencies of the scheduler model
 * (relaytop/sched_model.c) and how --report tells them
 * (relaytop/report.c, sched_text.c), on hand-built records:
 * - the wakeup latency runs from a task's first sched_waking or
 *   sched_wakeup to its switch-in; a wakeup of a task that still runs
 *   is no wait (no_wait);
 * - the run-queue latency, as runqlat and perf sched latency define it,
 *   runs from a wakeup or from a switch-out that leaves the task
 *   runnable (prev_state R or R+) to its next switch-in; a migration
 *   while it waits moves where it is counted (the CPU it is switched in
 *   on), and a gap makes a wait going on "missed" where it was to run;
 * - on a scenario of wakeup waits, preemption waits and migrations the
 *   model's per-task and per-CPU counts, sums and maxima are the ones
 *   worked out by hand, and --report of the same records written as a
 *   recording prints them: the tasks table's wake_* and rq_* columns,
 *   the "wakeup latency" and "run-queue latency" tables, runqlat's
 *   histogram of the run-queue latency;
 * - on a random scheduler (tasks that wake, are preempted, yield, sleep
 *   and migrate on three CPUs) every task's run-queue latencies (count,
 *   sum, max) are those of perf sched latency's rules (builtin-sched.c:
 *   add_sched_out_event() with 'R' starts a wait, latency_wakeup_event()
 *   of a sleeping task starts one, add_sched_in_event() ends it), and its
 *   wakeup latencies are those of the same rules with the preemption
 *   left out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "sched_model.h"
#include "synth-record.h"
#include "synth-recording.h"
#include "test-lib.h"

#define US 1000ull

struct ev {
	unsigned int cpu;
	bool gap;		/* events went missing on cpu here */
	struct sched_relay_record r;
};

#define MAX_EVS 20000
static struct ev evs[MAX_EVS];
static size_t nev;

static void add(unsigned int cpu, struct sched_relay_record r)
{
	if (nev < MAX_EVS)
		evs[nev++] = (struct ev) { .cpu = cpu, .r = r };
}

static const char *name_of(int32_t pid)
{
	static const char *const names[] = { "swapper", "A", "B", "C" };

	return pid >= 0 && pid < 4 ? names[pid] : NULL;
}

/* A wakeup-type record of pid, to run on target, fired on cpu. */
static void wake(uint64_t us, unsigned int cpu, uint8_t type, int32_t pid,
		 unsigned int target)
{
	struct sched_relay_record r = synth_record(us * US, type, pid,
						   name_of(pid));

	r.target_cpu = (uint16_t)target;
	add(cpu, r);
}

/* prev left in state for next, on cpu. */
static void sw(uint64_t us, unsigned int cpu, int32_t prev, uint8_t state,
	       int32_t next)
{
	struct sched_relay_record r = synth_record(us * US, SCHED_RELAY_SWITCH,
						   prev, name_of(prev));

	r.state = state;
	synth_record_task2(&r, next, 120, name_of(next));
	add(cpu, r);
}

static void mig(uint64_t us, unsigned int cpu, int32_t pid,
		unsigned int target)
{
	struct sched_relay_record r = synth_record(us * US, SCHED_RELAY_MIGRATE,
						   pid, name_of(pid));

	r.orig_cpu = (uint16_t)cpu;
	r.target_cpu = (uint16_t)target;
	add(cpu, r);
}

enum { A = 1, B = 2, C = 3 };
#define R SCHED_RELAY_STATE_RUNNING
#define RP SCHED_RELAY_STATE_PREEMPTED
#define S SCHED_RELAY_STATE_SLEEPING

/*
 * The scenario (microseconds; the waits each starts and ends):
 *   100 cpu0 wakeup C->0          C waits (woken)
 *   150 cpu0 idle -> C            C: wakeup 50, run-queue 50 on 0
 *   200 cpu0 C (R+) -> A          C waits (preempted); A's first run
 *   260 cpu0 A (S) -> C           C: run-queue 60 on 0
 *   300 cpu0 C (R) -> B           C waits (yielded, runnable)
 *   310 cpu0 migrate C -> 1
 *   330 cpu1 idle -> C            C: run-queue 30 on 1
 *   400 cpu1 waking A->0          A waits (woken: waking first)
 *   405 cpu1 wakeup A->0
 *   410 cpu0 migrate A -> 1
 *   450 cpu1 C (S) -> A           A: wakeup 50, run-queue 50 on 1
 *   500 cpu1 wakeup B->0          B still runs on 0: no wait
 *   520 cpu0 B (R) -> idle        B waits (runnable)
 *   600 cpu0 idle -> B            B: run-queue 80 on 0
 *   700 cpu0 B (R+) -> idle       B waits
 *   gap on cpu1 (3 dropped), then
 *   750 cpu1 A (S) -> idle        B's wait is missed, on 0
 *   800 cpu0 idle -> B            no latency: its wait was missed
 */
static void scenario(void)
{
	nev = 0;
	wake(100, 0, SCHED_RELAY_WAKEUP, C, 0);
	sw(150, 0, 0, R, C);
	sw(200, 0, C, RP, A);
	sw(260, 0, A, S, C);
	sw(300, 0, C, R, B);
	mig(310, 0, C, 1);
	sw(330, 1, 0, R, C);
	wake(400, 1, SCHED_RELAY_WAKING, A, 0);
	wake(405, 1, SCHED_RELAY_WAKEUP, A, 0);
	mig(410, 0, A, 1);
	sw(450, 1, C, S, A);
	wake(500, 1, SCHED_RELAY_WAKEUP, B, 0);
	sw(520, 0, B, R, 0);
	sw(600, 0, 0, R, B);
	sw(700, 0, B, RP, 0);
	sw(750, 1, A, S, 0);
	evs[nev - 1].gap = true;	/* events missing right before it */
	sw(800, 0, 0, R, B);
}

static void feed(struct sched_model *m)
{
	for (size_t i = 0; i < nev; i++) {
		if (evs[i].gap)
			sched_model_gap(m, evs[i].cpu);
		sched_model_record(m, evs[i].cpu, &evs[i].r, NULL);
	}
	sched_model_end(m);
}

static void test_model(void)
{
	struct sched_model m;
	const struct sched_task_stats *a, *b, *c;
	const struct sched_hist *h;

	scenario();
	sched_model_init(&m, 2);
	feed(&m);
	a = sched_model_task(&m, A);
	b = sched_model_task(&m, B);
	c = sched_model_task(&m, C);
	if (!check(a && b && c))
		return;
	/* wakeup latency: C's 50 on 0, A's 50 (from waking) on 1 */
	check_uint(c->all.latencies, ==, 1);
	check_uint(c->all.latency_max_ns, ==, 50 * US);
	check_uint(a->all.latencies, ==, 1);
	check_uint(a->all.latency_sum_ns, ==, 50 * US);
	check_uint(b->all.latencies, ==, 0);
	check_uint(b->all.no_wait, ==, 1);
	/* run-queue latency: C 50 + 60 + 30, A 50, B 80 and one missed */
	check_uint(c->all.rq_latencies, ==, 3);
	check_uint(c->all.rq_latency_sum_ns, ==, 140 * US);
	check_uint(c->all.rq_latency_max_ns, ==, 60 * US);
	check_uint(a->all.rq_latencies, ==, 1);
	check_uint(a->all.rq_latency_sum_ns, ==, 50 * US);
	check_uint(b->all.rq_latencies, ==, 1);
	check_uint(b->all.rq_latency_sum_ns, ==, 80 * US);
	check_uint(b->all.rq_missed, ==, 1);
	check_uint(b->all.missed, ==, 0);	/* no wakeup was waiting */
	check_uint(m.rq_missed, ==, 1);
	check_uint(m.wakeups_missed, ==, 0);
	check_uint(c->all.involuntary, ==, 2);	/* R+ at 200, R at 300 */
	/* per CPU: where the task was switched in */
	h = sched_cpu_latency(&m.cpu[0], SCHED_LAT_RUNQ, true);
	check_uint(h->count, ==, 3);		/* C 50, C 60, B 80 */
	check_uint(h->sum_ns, ==, 190 * US);
	check_uint(h->max_ns, ==, 80 * US);
	check_uint(h->missed, ==, 1);		/* B's, to run on 0 */
	h = sched_cpu_latency(&m.cpu[1], SCHED_LAT_RUNQ, true);
	check_uint(h->count, ==, 2);		/* C 30 (migrated), A 50 */
	check_uint(h->sum_ns, ==, 80 * US);
	check_uint(h->missed, ==, 0);
	h = sched_cpu_latency(&m.cpu[0], SCHED_LAT_WAKEUP, true);
	check_uint(h->count, ==, 1);
	check_uint(h->max_ns, ==, 50 * US);
	h = sched_cpu_latency(&m.cpu[1], SCHED_LAT_WAKEUP, true);
	check_uint(h->count, ==, 1);		/* A: woken for 0, ran on 1 */
	check_uint(h->max_ns, ==, 50 * US);
	/* runqlat's buckets: 30 in 16-31, 50 50 60 in 32-63, 80 in 64-127 */
	{
		struct sched_hist all;

		memset(&all, 0, sizeof(all));
		sched_hist_merge(&all, sched_cpu_latency(&m.cpu[0],
							 SCHED_LAT_RUNQ, true));
		sched_hist_merge(&all, sched_cpu_latency(&m.cpu[1],
							 SCHED_LAT_RUNQ, true));
		check_uint(all.log2[4], ==, 1);
		check_uint(all.log2[5], ==, 3);
		check_uint(all.log2[6], ==, 1);
	}
	sched_model_free(&m);
}

/* ---- the same as a recording, through --report ---------------------- */

static uint64_t base_ts;
static unsigned int nrec[2];
static struct sched_relay_record per_cpu[2][32];

static void make_record(unsigned int cpu, unsigned int i,
			struct sched_relay_record *r)
{
	*r = per_cpu[cpu][i];
	r->ts += base_ts;
}

/* The line of the report that starts with start, after heading. */
static const char *line_of(const char *text, const char *heading,
			   const char *start)
{
	const char *sec = strstr(text, heading), *end;
	char want[64];

	if (!sec)
		return NULL;
	end = strstr(sec + 1, "\n#");
	snprintf(want, sizeof(want), "\n%s", start);
	sec = strstr(sec, want);
	return sec && (!end || sec < end) ? sec + 1 : NULL;
}

/* A task's row: wake avg/max, missed, no_wait, rq avg/max/missed. */
static bool task_row(const char *text, int32_t pid, uint64_t v[7])
{
	char start[16];
	const char *l;

	snprintf(start, sizeof(start), "%-8d ", pid);
	l = line_of(text, "# tasks\n", start);
	return l && sscanf(l, "%*d %*u %*f %*f %*f %*f %*f %*s %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6]) == 7;
}

/* A latency table's row: count, missed, max, avg. */
static bool lat_row(const char *text, const char *heading, const char *cpu,
		    uint64_t v[4])
{
	char start[16];
	const char *l;

	snprintf(start, sizeof(start), "%-4s ", cpu);
	l = line_of(text, heading, start);
	return l && sscanf(l, "%*s %" SCNu64 " %" SCNu64 " %*u %*u %*u %"
			   SCNu64 " %" SCNu64, &v[0], &v[1], &v[2],
			   &v[3]) == 4;
}

static void test_report(void)
{
	char path[] = "/tmp/t-latency.XXXXXX";
	struct synth_gap gap = { .cpu = 1, .dropped = 3 };
	struct synth_recording s = {
		.ncpus = 2, .nrec = nrec, .gaps = &gap, .ngaps = 1,
		.chunk = 4, .generation = 1, .base_ts = &base_ts,
		.make_record = make_record,
	};
	const char *rq = "# run-queue latency per CPU\n";
	const char *wk = "# wakeup latency per CPU\n";
	char *text = NULL;
	size_t len = 0;
	uint64_t v[7];
	FILE *out;
	int fd = mkstemp(path);

	close(fd);
	scenario();
	memset(nrec, 0, sizeof(nrec));
	for (size_t i = 0; i < nev; i++) {
		unsigned int cpu = evs[i].cpu;

		if (evs[i].gap)
			gap.before = (int)nrec[cpu];
		per_cpu[cpu][nrec[cpu]++] = evs[i].r;
	}
	synth_write_recording(path, &s);
	out = open_memstream(&text, &len);
	check_int(report_recording(path, NULL, out), ==, 0);
	fclose(out);
	/* wake avg, max, missed, no_wait; rq avg, max, missed */
	if (check(task_row(text, C, v))) {
		check_uint(v[0], ==, 50 * US);
		check_uint(v[4], ==, 140 * US / 3);
		check_uint(v[5], ==, 60 * US);
		check_uint(v[6], ==, 0);
	}
	if (check(task_row(text, B, v))) {
		check_uint(v[0], ==, 0);
		check_uint(v[3], ==, 1);		/* no_wait */
		check_uint(v[4], ==, 80 * US);
		check_uint(v[6], ==, 1);		/* rq_missed */
	}
	if (check(task_row(text, A, v))) {
		check_uint(v[0], ==, 50 * US);
		check_uint(v[4], ==, 50 * US);
	}
	/* count, missed, max, avg */
	if (check(lat_row(text, rq, "0", v))) {
		check_uint(v[0], ==, 3);
		check_uint(v[1], ==, 1);
		check_uint(v[2], ==, 80 * US);
		check_uint(v[3], ==, 190 * US / 3);
	}
	if (check(lat_row(text, rq, "1", v))) {
		check_uint(v[0], ==, 2);
		check_uint(v[3], ==, 40 * US);
	}
	if (check(lat_row(text, rq, "all", v))) {
		check_uint(v[0], ==, 5);
		check_uint(v[1], ==, 1);
	}
	if (check(lat_row(text, wk, "all", v))) {
		check_uint(v[0], ==, 2);
		check_uint(v[1], ==, 0);
		check_uint(v[2], ==, 50 * US);
	}
	check(strstr(text, "run-queue latency: wakeup or preemption") != NULL);
	check(line_of(text, "# run-queue latency histogram",
		      "                16 -> 31 : 1 ") != NULL);
	check(line_of(text, "# run-queue latency histogram",
		      "                32 -> 63 : 3 ") != NULL);
	check(line_of(text, "# run-queue latency histogram",
		      "               64 -> 127 : 1 ") != NULL);
	if (test_failed())
		test_msg("the report:\n%s", text);
	free(text);
	unlink(path);
}

/* ---- a random scheduler against perf sched latency's rules ----------- */

#define NTASKS 12
#define NCPUS 3

/* perf sched latency's rules, per task (builtin-sched.c) */
struct ref {
	enum { REF_SLEEPING, REF_WAIT_CPU, REF_RUNNING } state;
	uint64_t since;
	uint64_t n, sum, max;
	/* the same with a switch-out that leaves it runnable starting
	 * nothing: the wakeup latency */
	bool woken;
	uint64_t woken_at, wn, wsum, wmax;
};

static void ref_in(struct ref *t, uint64_t ts)
{
	if (t->state == REF_WAIT_CPU && ts >= t->since) {
		uint64_t d = ts - t->since;

		t->n++;
		t->sum += d;
		if (d > t->max)
			t->max = d;
	}
	if (t->woken && ts >= t->woken_at) {
		uint64_t d = ts - t->woken_at;

		t->wn++;
		t->wsum += d;
		if (d > t->wmax)
			t->wmax = d;
	}
	t->woken = false;
	t->state = REF_RUNNING;
}

static void ref_out(struct ref *t, uint8_t state, uint64_t ts)
{
	/* add_sched_out_event(): 'R' waits from the switch-out */
	t->state = state == R || state == RP ? REF_WAIT_CPU : REF_SLEEPING;
	t->since = ts;
	t->woken = false;	/* a wakeup while it ran was no wait */
}

static void ref_wakeup(struct ref *t, uint64_t ts)
{
	/* latency_wakeup_event(): only a sleeping task starts waiting */
	if (t->state != REF_SLEEPING)
		return;
	t->state = REF_WAIT_CPU;
	t->since = ts;
	t->woken = true;
	t->woken_at = ts;
}

/* Where each task is: on a CPU, queued on one, or asleep. */
struct sim {
	int on[NCPUS];			/* pid running, 0: idle */
	int queued_on[NTASKS + 1];	/* -1: not queued */
	bool asleep[NTASKS + 1];
	uint64_t now;
	uint64_t rng;
};

static unsigned int pick(struct sim *s, unsigned int n)
{
	return (unsigned int)(test_rand(&s->rng) % n);
}

static void simulate(struct sim *s, struct ref *ref, size_t steps)
{
	nev = 0;
	for (int p = 1; p <= NTASKS; p++) {
		s->asleep[p] = true;
		s->queued_on[p] = -1;
		ref[p].state = REF_SLEEPING;
	}
	for (size_t i = 0; i < steps && nev + 3 < MAX_EVS; i++) {
		unsigned int cpu = pick(s, NCPUS), what = pick(s, 10);
		int p = (int)pick(s, NTASKS) + 1;

		s->now += 1 + pick(s, 500);
		if (what < 3 && s->asleep[p]) {
			/* a wakeup, sometimes with sched_waking first */
			unsigned int target = pick(s, NCPUS);
			uint64_t first = s->now + 1;

			if (pick(s, 2)) {
				wake(s->now, cpu, SCHED_RELAY_WAKING, p, target);
				first = s->now;
			}
			wake(s->now + 1, cpu, SCHED_RELAY_WAKEUP, p, target);
			ref_wakeup(&ref[p], first * US);
			s->now++;
			s->asleep[p] = false;
			s->queued_on[p] = (int)target;
		} else if (what < 4 && s->queued_on[p] >= 0) {
			unsigned int to = pick(s, NCPUS);

			mig(s->now, (unsigned int)s->queued_on[p], p, to);
			s->queued_on[p] = (int)to;
		} else {
			/* a switch on cpu: its task out (preempted,
			 * yielding or asleep), a queued one in */
			int prev = s->on[cpu], next = 0;
			uint8_t state = (uint8_t[]){ R, RP, S, S }[pick(s, 4)];

			for (int q = 1; q <= NTASKS && !next; q++)
				if (s->queued_on[q] == (int)cpu)
					next = q;
			if (!prev && !next)
				continue;
			if (!prev)
				state = R;
			sw(s->now, cpu, prev, state, next);
			if (prev) {
				ref_out(&ref[prev], state, s->now * US);
				if (state == S)
					s->asleep[prev] = true;
				else
					s->queued_on[prev] = (int)cpu;
			}
			if (next) {
				ref_in(&ref[next], s->now * US);
				s->queued_on[next] = -1;
			}
			s->on[cpu] = next;
		}
	}
}

static void test_random_against_perf(void)
{
	static struct ref ref[NTASKS + 1];
	struct sim sim = { .rng = 0x5eed1234 };
	struct sched_model m;
	uint64_t waits = 0, preempted = 0;

	memset(ref, 0, sizeof(ref));
	simulate(&sim, ref, 15000);
	sched_model_init(&m, NCPUS);
	feed(&m);
	for (int p = 1; p <= NTASKS; p++) {
		const struct sched_task_stats *t = sched_model_task(&m, p);

		if (!check(t != NULL))
			continue;
		waits += ref[p].n;
		preempted += t->all.involuntary;
		if (!check_uint(t->all.rq_latencies, ==, ref[p].n) ||
		    !check_uint(t->all.rq_latency_sum_ns, ==, ref[p].sum) ||
		    !check_uint(t->all.rq_latency_max_ns, ==, ref[p].max) ||
		    !check_uint(t->all.latencies, ==, ref[p].wn) ||
		    !check_uint(t->all.latency_sum_ns, ==, ref[p].wsum) ||
		    !check_uint(t->all.latency_max_ns, ==, ref[p].wmax))
			test_msg("task %d differs from perf sched latency's "
				 "rules", p);
	}
	/* the scenario is not empty: both kinds of wait happened often */
	check_uint(waits, >, 1000);
	check_uint(preempted, >, 500);
	test_msg("%zu records, %" PRIu64 " run-queue waits, %" PRIu64
		 " of them after a preemption", nev, waits, preempted);
	sched_model_free(&m);
}

int main(void)
{
	TEST(test_model(), "wakeup and run-queue latency: wakeup waits, preemption waits, migrations, a gap");
	TEST(test_report(), "--report prints both latencies per task and per CPU, runqlat's histogram");
	TEST(test_random_against_perf(), "a random scheduler: every task's latencies follow perf sched latency's rules");
	return test_done();
}

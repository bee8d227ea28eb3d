// SPDX-License-Identifier: GPL-2.0
/*
 * t-sched-figures.c - pins the scheduler figures of the tasks and latency
 * views and of --report (relaytop/sched_model.c's counts, sched_hist.c,
 * task_table.c, time_merge.c, tally.c, report.c, filter.c):
 * - latency distributions: runqlat's log2 buckets of microseconds;
 *   percentiles at most 1/16 above the true value and never above the
 *   maximum; two halves merged are the whole;
 * - per task, from hand-made records: switches, involuntary and
 *   voluntary switch-outs, wakeups, migrations, runtime counted up to
 *   each interval's end (a run across two intervals is split between
 *   them), wakeup-to-switch-in latency per task and per CPU, and a
 *   wakeup whose switch-in fell in a gap counted as missed where it was
 *   to run (a gap on any CPU, since that CPU may have pulled the task;
 *   live, a gap sits where its CPU's records go on, as in a recording),
 *   and a wakeup of a task still on a CPU (switched out later,
 *   never in) as no wait, not paired with its next switch-in; the
 *   interval's counts become the last interval's and the
 *   since-start counts go on until zeroed; -C and -p filters count only
 *   their CPUs' records and their processes;
 * - the tasks table groups threads by tgid and sorts by every column,
 *   reversed on request;
 * - the same stream read live (CPU after CPU, so a switch-in on CPU 1 is
 *   read before the wakeup on CPU 0 that caused it) and recorded: the
 *   live figures since the start, merged in time, equal --report's on the
 *   recording (latency per CPU with percentiles and missed, and the
 *   tasks' counts), and a replay of the recording says the same; fed
 *   unmerged, the figures would differ;
 * - --report -p shows only that process; a file that is not a recording
 *   is an error (status 1) and prints no report;
 * - filters parse as perf's and refuse bad lists without changing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake-session.h"
#include "filter.h"
#include "report.h"
#include "sched_hist.h"
#include "sched_model.h"
#include "sched_text.h"
#include "synth-record.h"
#include "tally.h"
#include "task_table.h"
#include "test-lib.h"
#include "time_merge.h"
#include "top.h"
#include "util.h"

/* ---- distributions -------------------------------------------------- */

static void test_hist(void)
{
	static struct sched_hist h, a, b;
	uint64_t lo, hi, p;

	memset(&h, 0, sizeof(h));
	sched_hist_add(&h, 500);		/* 0.5 us */
	sched_hist_add(&h, 2500);		/* 2 us */
	sched_hist_add(&h, 1000000);		/* 1000 us */
	check_uint(h.log2[0], ==, 1);
	check_uint(h.log2[1], ==, 1);
	check_uint(h.log2[9], ==, 1);		/* 512 -> 1023 */
	check_uint(sched_hist_log2_used(&h), ==, 10);
	sched_hist_bucket_us(9, &lo, &hi);
	check_uint(lo, ==, 512);
	check_uint(hi, ==, 1023);
	sched_hist_bucket_us(0, &lo, &hi);
	check_uint(hi, ==, 1);

	memset(&h, 0, sizeof(h));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (uint64_t i = 1; i <= 100; i++) {
		sched_hist_add(&h, i * 1000);
		sched_hist_add(i % 2 ? &a : &b, i * 1000);
	}
	p = sched_hist_percentile(&h, 50);
	check_uint(p, >=, 50000);
	check_uint(p, <=, 50000 + 50000 / 16);
	p = sched_hist_percentile(&h, 99);
	check_uint(p, >=, 99000);
	check_uint(p, <=, 100000);
	p = sched_hist_percentile(&h, 100);
	check_uint(p, ==, 100000);
	check_uint(h.max_ns, ==, 100000);
	check_uint(h.sum_ns, ==, 5050000);
	sched_hist_merge(&a, &b);
	check(!memcmp(&a, &h, sizeof(h)));
	memset(&h, 0, sizeof(h));
	check_uint(sched_hist_percentile(&h, 50), ==, 0);
}

/* ---- the model's counts --------------------------------------------- */

static struct sched_relay_record sw(uint64_t ts, int32_t prev, uint8_t state,
				    int32_t next)
{
	struct sched_relay_record r = synth_record(ts, SCHED_RELAY_SWITCH,
						   prev, NULL);

	synth_record_task2(&r, next, 120, NULL);
	r.state = state;
	return r;
}

static struct sched_relay_record ev(uint64_t ts, uint8_t type, int32_t pid,
				    unsigned int target)
{
	struct sched_relay_record r = synth_record(ts, type, pid, NULL);

	r.target_cpu = (uint16_t)target;
	return r;
}

/* The script of test_counts(), through a model with filter f. */
static void script(struct sched_model *m, const struct filter *f)
{
	struct sched_relay_record r;

	sched_model_init(m, 2);
	m->filter = f;
	sched_model_start(m, 0);
	r = sw(1000, 0, 0, 10);
	sched_model_record(m, 0, &r, NULL);
	r = ev(2000, SCHED_RELAY_WAKEUP, 20, 1);
	sched_model_record(m, 1, &r, NULL);
	r = sw(2500, 0, 0, 20);
	sched_model_record(m, 1, &r, NULL);
	r = sw(3000, 10, SCHED_RELAY_STATE_PREEMPTED, 30);
	sched_model_record(m, 0, &r, NULL);
	r = ev(3500, SCHED_RELAY_MIGRATE, 20, 0);
	sched_model_record(m, 1, &r, NULL);
	r = sw(4000, 30, SCHED_RELAY_STATE_SLEEPING, 0);
	sched_model_record(m, 0, &r, NULL);
	sched_model_interval(m, 5000);
	r = sw(6000, 20, SCHED_RELAY_STATE_SLEEPING, 0);
	sched_model_record(m, 1, &r, NULL);
	r = ev(6500, SCHED_RELAY_WAKEUP, 40, 1);
	sched_model_record(m, 0, &r, NULL);
	sched_model_gap(m, 1);
}

static void test_counts(void)
{
	struct sched_model m;
	const struct sched_task_stats *a, *b, *c, *d;
	struct filter f;
	char msg[128];

	script(&m, NULL);
	a = sched_model_task(&m, 10);
	b = sched_model_task(&m, 20);
	c = sched_model_task(&m, 30);
	if (!check(a && b && c))
		goto out;
	/* the first interval, [0, 5000) */
	check_uint(m.last_ns, ==, 5000);
	check_uint(a->last.switches, ==, 1);
	check_uint(a->last.involuntary, ==, 1);
	check_uint(a->last.voluntary, ==, 0);
	check_uint(a->last.runtime_ns, ==, 2000);
	check_uint(b->last.wakeups, ==, 1);
	check_uint(b->last.switches, ==, 1);
	check_uint(b->last.migrations, ==, 1);
	check_uint(b->last.latencies, ==, 1);
	check_uint(b->last.latency_max_ns, ==, 500);
	check_uint(b->last.runtime_ns, ==, 2500);	/* 2500 -> 5000 */
	check_uint(b->last_cpu, ==, 1);
	check_uint(c->last.voluntary, ==, 1);
	check_uint(c->last.runtime_ns, ==, 1000);
	check_uint(m.cpu[1].lat_last.count, ==, 1);
	check_uint(sched_hist_percentile(&m.cpu[1].lat_last, 50), ==, 500);
	check_uint(m.cpu[0].lat_last.count, ==, 0);
	/* the second: B's run ends (the rest of it), D's wakeup is missed */
	sched_model_interval(&m, 8000);
	d = sched_model_task(&m, 40);
	b = sched_model_task(&m, 20);
	if (!check(d && b))
		goto out;
	check_uint(b->last.runtime_ns, ==, 1000);
	check_uint(b->last.voluntary, ==, 1);
	check_uint(b->all.runtime_ns, ==, 3500);
	check_uint(b->all.latencies, ==, 1);
	check_uint(d->last.wakeups, ==, 1);
	check_uint(d->last.missed, ==, 1);
	check_uint(m.cpu[1].lat_last.missed, ==, 1);
	check_uint(m.cpu[1].lat_last.count, ==, 0);
	check_uint(m.cpu[1].lat_all.count, ==, 1);
	check_uint(m.cpu[1].lat_all.missed, ==, 1);
	check_uint(m.wakeups_missed, ==, 1);
	sched_model_zero(&m);
	check_uint(sched_model_task(&m, 20)->all.runtime_ns, ==, 0);
	check_uint(m.cpu[1].lat_all.count, ==, 0);
	check_uint(sched_model_task(&m, 20)->last.runtime_ns, ==, 1000);
	sched_model_free(&m);

	/* -C 0: CPU 1's records count for nothing */
	memset(&f, 0, sizeof(f));
	check_int(filter_parse_cpus(&f, "0", msg, sizeof(msg)), ==, 0);
	script(&m, &f);
	sched_model_interval(&m, 8000);
	b = sched_model_task(&m, 20);
	check_uint(b->all.wakeups + b->all.switches + b->all.migrations +
		   b->all.latencies + b->all.runtime_ns, ==, 0);
	check_uint(sched_model_task(&m, 10)->all.runtime_ns, ==, 2000);
	check_uint(sched_model_task(&m, 40)->all.wakeups, ==, 1);
	check_uint(sched_model_task(&m, 40)->all.missed, ==, 0);	/* CPU 1's */
	check_uint(m.cpu[1].lat_all.count + m.cpu[1].lat_all.missed, ==, 0);
	sched_model_free(&m);

	/* -p 20: only B */
	memset(&f, 0, sizeof(f));
	check_int(filter_parse_pids(&f, "20", msg, sizeof(msg)), ==, 0);
	script(&m, &f);
	sched_model_interval(&m, 8000);
	check_uint(sched_model_task(&m, 20)->all.runtime_ns, ==, 3500);
	check_uint(sched_model_task(&m, 20)->all.latencies, ==, 1);
	check_uint(sched_model_task(&m, 10)->all.runtime_ns, ==, 0);
	check_uint(sched_model_task(&m, 40)->all.wakeups, ==, 0);
	check_uint(m.cpu[1].lat_all.count, ==, 1);
	check_uint(m.cpu[1].lat_all.missed, ==, 0);	/* D's: not B */
	sched_model_free(&m);

	/* woken while still running: no wait, and the next switch-in
	 * (after a real sleep and wakeup) pairs with the later wakeup */
	{
		struct sched_relay_record rs[] = {
			sw(1000, 0, 0, 10),
			ev(1500, SCHED_RELAY_WAKING, 10, 0),
			sw(2000, 10, SCHED_RELAY_STATE_SLEEPING, 0),
			ev(5000, SCHED_RELAY_WAKING, 10, 0),
			sw(5300, 0, 0, 10),
		};

		sched_model_init(&m, 1);
		for (size_t i = 0; i < ARRAY_SIZE(rs); i++)
			sched_model_record(&m, 0, &rs[i], NULL);
		a = sched_model_task(&m, 10);
		check_uint(a->all.no_wait, ==, 1);
		check_uint(a->all.latencies, ==, 1);
		check_uint(a->all.latency_max_ns, ==, 300);
	}
out:
	sched_model_free(&m);
}

/* ---- the tasks table ------------------------------------------------ */

static void test_table(void)
{
	struct sched_model m;
	struct sched_relay_record r;
	struct task_table_opts o = { .since_start = true, .cpu = -1 };
	struct task_row *rows, *rev;
	size_t n, n2;

	sched_model_init(&m, 1);
	/* threads 101 and 102 of process 100, and process 200 */
	for (int i = 0; i < 6; i++) {
		int32_t pid = i % 3 == 0 ? 200 : 100 + i % 3;

		r = sw(1000 + 1000 * (uint64_t)i, 0, 0, pid);
		r.tgid2 = pid == 200 ? 200 : 100;
		sched_model_record(&m, 0, &r, NULL);
		r = sw(1500 + 1000 * (uint64_t)i, pid, SCHED_RELAY_STATE_SLEEPING, 0);
		r.tgid = pid == 200 ? 200 : 100;
		sched_model_record(&m, 0, &r, NULL);
	}
	o.sort = TCOL_SWITCHES;
	rows = task_table(&m, &o, &n);
	check_uint(n, ==, 3);
	if (n == 3) {
		check_int(rows[0].id, ==, 101);	/* 2 each: by pid then */
		check_int(rows[2].id, ==, 200);
	}
	free(rows);
	o.group = true;
	rows = task_table(&m, &o, &n);
	check_uint(n, ==, 2);
	if (n == 2) {
		check_int(rows[0].id, ==, 100);
		check_uint(rows[0].threads, ==, 2);
		check_uint(rows[0].c.switches, ==, 4);
		check_uint(rows[0].c.runtime_ns, ==, 2000);
		check_int(rows[1].id, ==, 200);
		check_uint(rows[1].c.switches, ==, 2);
	}
	free(rows);
	o.group = false;
	for (int col = 0; col < TCOL_NR; col++) {
		o.sort = (enum task_col)col;
		o.reverse = false;
		rows = task_table(&m, &o, &n);
		o.reverse = true;
		rev = task_table(&m, &o, &n2);
		check_uint(n, ==, n2);
		for (size_t i = 0; i < n && n == n2; i++)
			if (!check_int(rows[i].id, ==, rev[n - 1 - i].id))
				test_msg("column %s", task_col_name(o.sort));
		free(rows);
		free(rev);
	}
	sched_model_free(&m);
}

/* ---- live, report and replay agree ---------------------------------- */

#define NCPU 2

/* What the fake producers write: a script per CPU, then fillers. */
struct script_cpu {
	struct sched_relay_record recs[64];
	unsigned int n, next;
	uint64_t clock;		/* fillers' time */
};

static void fill(void *arg, struct sched_relay_record *rec)
{
	struct script_cpu *s = arg;
	uint32_t seq = rec->event_seq;

	if (s->next < s->n) {
		*rec = s->recs[s->next++];
	} else {			/* a filler: nothing for the model */
		memset(rec, 0, sizeof(*rec));
		rec->type = SCHED_RELAY_EXIT;
		rec->pid = rec->tgid = 9999;
		strcpy(rec->comm, "filler");
	}
	if (rec->ts < s->clock)
		rec->ts = s->clock;
	s->clock = rec->ts + 1;
	rec->event_seq = seq;
}

static void add(struct script_cpu *s, struct sched_relay_record r)
{
	s->recs[s->n++] = r;
}

/* The tasks table, or the table of latency kind, since the start. */
static char *kind_text_of(const struct sched_model *m, bool tasks,
			  enum sched_lat_kind kind)
{
	struct task_table_opts o = { .since_start = true, .cpu = -1,
				     .sort = TCOL_RQ_MAX };	/* --report's */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (tasks)
		sched_text_tasks(f, m, &o, 0, 0);
	else
		sched_text_latency(f, m, true, kind);
	fclose(f);
	return buf;
}

static char *text_of(const struct sched_model *m, bool tasks)
{
	return kind_text_of(m, tasks, SCHED_LAT_WAKEUP);
}

/* The section of a report after the line title, to the blank line. */
static char *section(const char *report, const char *title)
{
	const char *p = strstr(report, title), *end;

	if (!p)
		return xstrdup("");
	p += strlen(title);
	end = strstr(p, "\n\n");
	return strndup(p, end ? (size_t)(end - p + 1) : strlen(p));
}

/* A tasks table without its run_ms column (live runs are counted up to
 * the ticks, a recording's to its end). */
static char *no_runtime(const char *text)
{
	char *out = xcalloc(strlen(text) + 1, 1), *o = out;
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		char buf[512], *save = NULL, *w;
		int col = 0;

		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		for (w = strtok_r(buf, " \n", &save); w;
		     w = strtok_r(NULL, " \n", &save), col++)
			if (col != 6)
				o += sprintf(o, "%s ", w);
		*o++ = '\n';
		line += len;
	}
	*o = '\0';
	return out;
}

static char *report_of(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	check_int(report_recording(path, NULL, f), ==, 0);
	fclose(f);
	return buf;
}

static void test_live_report(void)
{
	static struct script_cpu s[NCPU];
	char path[] = "/tmp/t-sched-figures.XXXXXX";
	struct fake_session live;
	struct options opt;
	uint64_t t0 = mono_ns();
	char *live_lat, *live_tasks, *unmerged, *rep, *rep_lat, *rep_tasks;
	char *a, *b;
	int fd = mkstemp(path);

	close(fd);
	memset(s, 0, sizeof(s));
	/* 8 wakeups on CPU 0 of tasks 500..503 to run on CPU 1, each
	 * switched in on CPU 1 (i + 1) us later and out 100 ns after */
	for (unsigned int i = 0; i < 8; i++) {
		uint64_t at = t0 + 10000 * (i + 1);
		int32_t pid = 500 + (int32_t)(i % 4);

		add(&s[0], ev(at, SCHED_RELAY_WAKEUP, pid, 1));
		add(&s[1], sw(at + 1000 * (i + 1), 0, 0, pid));
		add(&s[1], sw(at + 1000 * (i + 1) + 100, pid,
			      i % 2 ? SCHED_RELAY_STATE_PREEMPTED :
			      SCHED_RELAY_STATE_SLEEPING, 0));
	}
	/* a last wakeup for CPU 1, whose switch-in is lost in a drop */
	add(&s[0], ev(t0 + 200000, SCHED_RELAY_WAKEUP, 600, 1));

	memset(&live, 0, sizeof(live));
	live.opt.record = path;
	live.opt.latency = true;	/* -b --latency: the figures are kept */
	if (!check(fake_session_start(&live, NCPU, 4096, 4, false, OUT_BATCH)))
		return;
	for (unsigned int c = 0; c < NCPU; c++) {
		live.fc.relay[c].fill = fill;
		live.fc.relay[c].fill_arg = &s[c];
	}
	/* CPU 1 first: its switch-ins are read before their wakeups */
	while (s[1].next < s[1].n)
		fake_relay_event(&live.fc.relay[1], SCHED_RELAY_SWITCH);
	top_drain(&live.t);
	while (s[0].next < s[0].n - 1)
		fake_relay_event(&live.fc.relay[0], SCHED_RELAY_WAKEUP);
	top_drain(&live.t);
	/* CPU 1 fills up and drops, after the last wakeup's time */
	s[1].clock = t0 + 300000;
	while (fake_relay_event(&live.fc.relay[1], SCHED_RELAY_EXIT))
		;
	fake_relay_event(&live.fc.relay[1], SCHED_RELAY_EXIT);
	/* 600's wakeup */
	fake_relay_event(&live.fc.relay[0], SCHED_RELAY_WAKEUP);
	top_drain(&live.t);
	/* after room was made */
	fake_relay_event(&live.fc.relay[1], SCHED_RELAY_EXIT);
	top_drain(&live.t);
	check_uint(live.fc.relay[1].full, >, 0);
	check_int(top_finish(&live.t), ==, 0);
	tally_flush(&live.t.tally);

	live_lat = text_of(&live.t.tally.merged, false);
	live_tasks = text_of(&live.t.tally.merged, true);
	unmerged = text_of(&live.t.tally.model, false);
	rep = report_of(path);
	rep_lat = section(rep, "# wakeup latency per CPU\n");
	rep_tasks = section(rep, "# tasks\n");
	check_str(live_lat, rep_lat);
	/* and the run-queue latency: the preempted switch-outs wait too */
	{
		char *live_rq = kind_text_of(&live.t.tally.merged, false,
					     SCHED_LAT_RUNQ);
		char *rep_rq = section(rep, "# run-queue latency per CPU\n");

		check_str(live_rq, rep_rq);
		/* 8 switch-ins after a wait; missed: 600's wakeup, and the
		 * waits of 501 and 503, preempted at their last switch-out
		 * on CPU 1, whose switch-in would have come after the drop */
		check(strstr(rep_rq, "\nall           8        3 ") != NULL);
		free(live_rq);
		free(rep_rq);
	}
	a = no_runtime(live_tasks);
	b = no_runtime(rep_tasks);
	check_str(a, b);
	/* it counted what the script says: 8 latencies on CPU 1, the last
	 * wakeup missed */
	check(strstr(rep_lat, "\n1             8        1 ") != NULL);
	check(strstr(rep_lat, "\nall           8        1 ") != NULL);
	/* read CPU after CPU, unmerged, the figures are not these */
	check(strcmp(unmerged, live_lat) != 0);
	if (test_failed() || getenv("SHOW"))
		test_msg("live:\n%s%s\nreport:\n%s\nunmerged:\n%s", live_lat,
			 live_tasks, rep, unmerged);
	free(a);
	free(b);
	free(live_lat);
	free(live_tasks);
	free(unmerged);
	free(rep_tasks);
	fake_session_stop(&live);

	/* a replay of the recording, in batch mode, says the same */
	{
		struct top r;
		int saved = dup(STDOUT_FILENO), null = open("/dev/null", 1);
		char *replay_lat;

		memset(&opt, 0, sizeof(opt));
		opt.replay = path;
		opt.interval = 0.5;
		opt.latency = true;
		fflush(stdout);
		dup2(null, STDOUT_FILENO);
		if (check_int(top_start_replay(&r, &opt, OUT_BATCH), ==, 0)) {
			for (int i = 0; i < 100 && !r.app.quit; i++)
				top_tick(&r);
			tally_flush(&r.tally);
			replay_lat = text_of(&r.tally.merged, false);
			fflush(stdout);
			dup2(saved, STDOUT_FILENO);
			check(r.app.quit);
			check_str(replay_lat, rep_lat);
			free(replay_lat);
			top_free(&r);
		}
		dup2(saved, STDOUT_FILENO);
		close(saved);
		close(null);
	}
	/* --report -p 500: only that task's row, its latencies only */
	{
		struct filter f;
		char msg[64], *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		memset(&f, 0, sizeof(f));
		check_int(filter_parse_pids(&f, "500", msg, sizeof(msg)), ==, 0);
		check_int(report_recording(path, &f, out), ==, 0);
		fclose(out);
		check(strstr(buf, "# relaytop --report ") == buf);
		check(strstr(buf, " -p 500\n") != NULL);
		check(strstr(buf, "\n500 ") != NULL);
		check(strstr(buf, "\n501 ") == NULL);
		check(strstr(buf, "\nall           2        0 ") != NULL);
		if (test_failed())
			test_msg("report -p 500:\n%s", buf);
		free(buf);
	}
	/* a file that is not a recording: an error, status 1, no report */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		int rc = report_recording("/nonexistent/r.bin", NULL, out);

		fclose(out);
		check_int(rc, ==, 1);
		check_uint(len, ==, 0);
		free(buf);
	}
	free(rep_lat);
	free(rep);
	unlink(path);
}

/* ---- filters -------------------------------------------------------- */

static void test_filters(void)
{
	struct filter f;
	char msg[128], text[128];

	memset(&f, 0, sizeof(f));
	check(!filter_any(&f));
	check_int(filter_parse_pids(&f, "12,34", msg, sizeof(msg)), ==, 0);
	check(filter_task(&f, 12, 12, "x"));
	check(filter_task(&f, 40, 34, "x"));	/* a thread of 34 */
	check(!filter_task(&f, 40, 41, "x"));
	check_int(filter_parse_pids(&f, "1,,2", msg, sizeof(msg)), ==, -1);
	check(strstr(msg, "-p 1,,2") != NULL);
	check_int(filter_parse_pids(&f, "x", msg, sizeof(msg)), ==, -1);
	check_uint(f.npids, ==, 2);		/* unchanged */
	check_int(filter_parse_cpus(&f, "0-3,8", msg, sizeof(msg)), ==, 0);
	check(filter_cpu(&f, 3) && filter_cpu(&f, 8));
	check(!filter_cpu(&f, 4) && !filter_cpu(&f, 9));
	check_int(filter_parse_cpus(&f, "3-1", msg, sizeof(msg)), ==, -1);
	check_int(filter_parse_cpus(&f, "99999", msg, sizeof(msg)), ==, -1);
	check(filter_cpu(&f, 8));		/* unchanged */
	check_int(filter_parse_comms(&f, "loadgen", msg, sizeof(msg)), ==, 0);
	check(!filter_task(&f, 12, 12, "other"));
	check(filter_task(&f, 12, 12, "loadgen"));
	check_int(filter_parse_comms(&f, "a-name-longer-than-16", msg,
				     sizeof(msg)), ==, -1);
	check_uint(f.ncomms, ==, 1);		/* unchanged */
	check_int(filter_parse_tids(&f, "56", msg, sizeof(msg)), ==, 0);
	filter_format(&f, text, sizeof(text));
	check_str(text, "-p 12,34 --tid 56 --comm loadgen -C 0-3,8");
	check(filter_task(NULL, 1, 1, "") && filter_cpu(NULL, 5));
}

/* ---- gaps in the live merge ----------------------------------------- */

static void gap_model_record(void *ctx, unsigned int cpu,
			     const struct sched_relay_record *r)
{
	sched_model_record(ctx, cpu, r, NULL);
}

static void gap_model_gap(void *ctx, unsigned int cpu)
{
	sched_model_gap(ctx, cpu);
}

/*
 * CPU 1 is read up to 1000, then events go missing on it and its next
 * records start at 3000; a wakeup at 2000 on CPU 0 is for CPU 1.  Its
 * switch-in may have been among the missing events: the 3000 switch-in
 * is not its, so the wakeup is missed, as --report counts it (a gap
 * sits right before the record after it).  A gap at the end of a
 * queue waits for the record after it.
 */
static void test_merge_gap(void)
{
	struct time_merge_ops ops = {
		.record = gap_model_record, .gap = gap_model_gap,
	};
	struct sched_relay_record a = sw(1000, 0, 0, 30);
	struct sched_relay_record w = ev(2000, SCHED_RELAY_WAKEUP, 20, 1);
	struct sched_relay_record b = sw(3000, 30, SCHED_RELAY_STATE_SLEEPING, 20);
	const struct sched_task_stats *t;
	struct time_merge tm;
	struct sched_model m;

	sched_model_init(&m, 2);
	ops.ctx = &m;
	time_merge_init(&tm, &ops);
	time_merge_records(&tm, 1, &a, 1);
	time_merge_flush(&tm, 1500);
	time_merge_gap(&tm, 1);
	time_merge_records(&tm, 0, &w, 1);
	time_merge_flush(&tm, 2500);
	/* the gap's end is not known yet: the wakeup went first */
	check_uint(m.wakeups_missed, ==, 0);
	check_uint(tm.queued, ==, 1);
	time_merge_records(&tm, 1, &b, 1);
	time_merge_flush(&tm, UINT64_MAX);
	t = sched_model_task(&m, 20);
	if (check(t != NULL)) {
		check_uint(t->all.latencies, ==, 0);
		check_uint(t->all.missed, ==, 1);
	}
	check_uint(m.wakeups_missed, ==, 1);
	check_uint(m.cpu[1].lat_all.missed, ==, 1);
	check_uint(tm.queued, ==, 0);
	/* a gap with nothing after it goes out at the end */
	time_merge_gap(&tm, 0);
	time_merge_flush(&tm, 5000);
	check_uint(tm.queued, ==, 1);
	time_merge_flush(&tm, UINT64_MAX);
	check_uint(tm.queued, ==, 0);
	check_uint(m.cpu[0].gaps, ==, 1);
	time_merge_free(&tm);
	sched_model_free(&m);
}

/*
 * A configuration change is noticed (at 500) when CPU 0 has been read
 * but CPU 1 not yet: CPU 1's records before it are read afterwards.  The
 * live figures place the change at its time among the records, as
 * --report places a recording's CONFIG, not after everything read so
 * far: task 40 woken at 100 and 300 on CPU 0, switched in on CPU 1 at
 * 200 and 400, waits 100 ns twice.  CPUs with nothing have no row.
 */
static void test_config_in_time(void)
{
	const struct sched_relay_record c0[] = {
		ev(100, SCHED_RELAY_WAKEUP, 40, 1),
		ev(300, SCHED_RELAY_WAKEUP, 40, 1),
	};
	const struct sched_relay_record c1[] = {
		sw(200, 0, 0, 40),
		sw(250, 40, SCHED_RELAY_STATE_SLEEPING, 0),
		sw(400, 0, 0, 40),
	};
	struct feed_config cfg = { .events = SCHED_RELAY_ALL_EVENTS,
				   .ts = 500 };
	struct feed_event e = { .kind = FEED_CONFIG, .config = &cfg };
	struct feed_sink s;
	struct sched_model m;
	struct tally t;
	char *live, *ordered;

	/* 4 possible CPUs live, 2 with records (and buffers, in a
	 * recording): the same rows */
	tally_init(&t, 4, 0, true);
	tally_figures(&t, true);
	s = tally_sink(&t);
	synth_feed(&s, 0, c0, 2);
	s.event(s.ctx, &e);
	synth_feed(&s, 1, c1, 3);
	tally_flush(&t);
	/* the same records in time order, as --report feeds them */
	sched_model_init(&m, 2);
	sched_model_start(&m, 0);
	sched_model_record(&m, 0, &c0[0], NULL);
	sched_model_record(&m, 1, &c1[0], NULL);
	sched_model_record(&m, 1, &c1[1], NULL);
	sched_model_record(&m, 0, &c0[1], NULL);
	sched_model_record(&m, 1, &c1[2], NULL);
	sched_model_events(&m, cfg.events);
	live = text_of(&t.merged, false);
	ordered = text_of(&m, false);
	check_str(live, ordered);
	check(strstr(ordered, "\n1             2        0 ") != NULL);
	if (test_failed() || getenv("SHOW"))
		test_msg("live:\n%s\nin time order:\n%s", live, ordered);
	free(live);
	free(ordered);
	sched_model_free(&m);
	tally_free(&t);
}

/* Count what the merge hands on, in order. */
static void late_record(void *ctx, unsigned int cpu,
			const struct sched_relay_record *r)
{
	uint64_t *seen = ctx;

	(void)cpu;
	seen[seen[0]++ + 1] = r->ts;
}

/*
 * A record that comes after the merge passed its time (the watermark
 * was wrong about its CPU) is handed on at the next flush, and counted:
 * the figures say they may differ from --report's.  A change waits for
 * the records before it, and goes before those of its own time.
 */
static void test_merge_late(void)
{
	uint64_t seen[8] = { 0 };
	struct time_merge_ops ops = { .record = late_record, .ctx = seen };
	struct sched_relay_record a = sw(100, 0, 0, 30);
	struct sched_relay_record b = sw(90, 0, 0, 31);
	struct sched_relay_record c = sw(300, 30, 0, 0);
	struct time_merge tm;

	time_merge_init(&tm, &ops);
	time_merge_records(&tm, 0, &a, 1);
	time_merge_flush(&tm, 150);
	check_uint(tm.late, ==, 0);
	time_merge_records(&tm, 1, &b, 1);
	check_uint(tm.late, ==, 1);
	time_merge_config(&tm, 300, SCHED_RELAY_ALL_EVENTS);
	time_merge_records(&tm, 0, &c, 1);
	time_merge_flush(&tm, 200);
	check_uint(seen[0], ==, 2);
	check_uint(seen[2], ==, 90);
	/* the change at 300 is not handed on before 300 is complete */
	check_uint(tm.cfg_head, ==, 0);
	time_merge_flush(&tm, 300);
	check_uint(tm.cfg_head, ==, 1);
	check_uint(seen[0], ==, 3);
	check_uint(tm.queued, ==, 0);
	time_merge_free(&tm);
}

/*
 * A wakeup for CPU 1 while events go missing on CPU 2: CPU 2 may have
 * pulled the task (its migration recorded there, lost) and run it, so
 * the later switch-in on CPU 1 may not be this wakeup's; and if CPU 2
 * is then seen to switch it out, that is no "no wait" either.  The
 * wakeup is missed, counted where it was to run.
 */
static void test_gap_elsewhere(void)
{
	struct sched_relay_record rs[] = {
		sw(500, 0, 0, 70),
		ev(1000, SCHED_RELAY_WAKEUP, 20, 1),
		ev(1100, SCHED_RELAY_WAKEUP, 21, 1),
		sw(2000, 70, SCHED_RELAY_STATE_SLEEPING, 21),
		sw(3000, 0, 0, 20),
	};
	unsigned int on[] = { 2, 0, 0, 2, 1 };
	const struct sched_task_stats *a, *b;
	struct sched_model m;

	sched_model_init(&m, 3);
	for (size_t i = 0; i < ARRAY_SIZE(rs); i++) {
		/* CPU 2's events went missing before its 2000 record */
		if (i == 3)
			sched_model_gap(&m, 2);
		sched_model_record(&m, on[i], &rs[i], NULL);
	}
	a = sched_model_task(&m, 20);
	b = sched_model_task(&m, 21);
	if (check(a && b)) {
		check_uint(a->all.latencies, ==, 0);
		check_uint(a->all.missed, ==, 1);
		check_uint(b->all.latencies, ==, 0);
		check_uint(b->all.missed, ==, 1);
	}
	check_uint(m.wakeups_missed, ==, 2);
	check_uint(m.cpu[1].lat_all.missed, ==, 2);
	check_uint(m.cpu[1].lat_all.count + m.cpu[2].lat_all.count, ==, 0);
	sched_model_free(&m);
}

/*
 * A gap handed on where it begins (a recording puts a reset there): the
 * events that went missing on CPU 1 lie up to its next record, so a
 * wakeup taken in between, still waiting then, is missed too; one that
 * was switched in before is not touched, nor is a wakeup after.
 */
static void test_gap_until_next(void)
{
	struct sched_relay_record rs[] = {
		ev(2000, SCHED_RELAY_WAKEUP, 20, 1),
		ev(2100, SCHED_RELAY_WAKEUP, 22, 0),
		sw(2200, 0, 0, 22),
		sw(3000, 0, 0, 20),
		ev(3500, SCHED_RELAY_WAKEUP, 21, 1),
		sw(4000, 20, SCHED_RELAY_STATE_SLEEPING, 21),
	};
	unsigned int on[] = { 0, 0, 0, 1, 0, 1 };
	const struct sched_task_stats *a, *b, *c;
	struct sched_model m;

	sched_model_init(&m, 2);
	sched_model_gap(&m, 1);
	for (size_t i = 0; i < ARRAY_SIZE(rs); i++)
		sched_model_record(&m, on[i], &rs[i], NULL);
	a = sched_model_task(&m, 20);
	b = sched_model_task(&m, 21);
	c = sched_model_task(&m, 22);
	if (check(a && b && c)) {
		check_uint(a->all.latencies, ==, 0);
		check_uint(a->all.missed, ==, 1);
		check_uint(b->all.latencies, ==, 1);
		check_uint(c->all.latencies, ==, 1);
	}
	check_uint(m.wakeups_missed, ==, 1);
	/* a CPU's first records at the start are no gap's end */
	sched_model_free(&m);
	sched_model_init(&m, 2);
	for (size_t i = 0; i < ARRAY_SIZE(rs); i++)
		sched_model_record(&m, on[i], &rs[i], NULL);
	check_uint(m.wakeups_missed, ==, 0);
	check_uint(sched_model_task(&m, 20)->all.latencies, ==, 1);
	sched_model_free(&m);
}

int main(void)
{
	TEST(test_hist(), "latency distributions: log2 buckets, percentiles, merging");
	TEST(test_counts(), "per task and per CPU counts, intervals, missed, zeroing, filters");
	TEST(test_table(), "the tasks table groups by process and sorts by every column");
	TEST(test_live_report(), "live (merged in time), --report and a replay agree on one stream");
	TEST(test_merge_gap(), "live: a wakeup before a gap's end on its CPU is missed, as in --report");
	TEST(test_config_in_time(), "live: a configuration change goes among the records at its time, as in --report");
	TEST(test_merge_late(), "live: a record after the merge passed its time is handed on and counted late");
	TEST(test_gap_elsewhere(), "a gap on any CPU: every wakeup waiting then is missed");
	TEST(test_gap_until_next(), "a gap lasts until its CPU's next record: wakeups before it are missed");
	TEST(test_filters(), "-p, --comm and -C parse, match and refuse bad lists");
	return test_done();
}

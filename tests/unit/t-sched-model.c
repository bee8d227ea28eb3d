// SPDX-License-Identifier: GPL-2.0
/*
 * t-sched-model.c - pins the scheduler model (relaytop/sched_model.c) and
 * that every output takes "who runs" from it:
 * - the model on hand-made records: sched_switch pairs make the CPU's
 *   task (the idle task too), a switch ends a run with its prev_state,
 *   runtime sums the runs, a wakeup's switch-in gives its latency, the
 *   task column of an event is its own task or the CPU's; a gap cuts the
 *   open run short, makes the task unknown and counts the wakeups waiting
 *   to run there as missed; a configuration without sched_switch loses
 *   track too, and while sched_switch is not recorded nothing is known
 *   of runs or latencies (once it is recorded again, runs and latencies
 *   start from its first record); a record whose time goes back gets
 *   the newest time;
 * - the same synthetic records, written by a fake producer on two CPUs
 *   (CPU 0 ends with a known task, CPU 1 with a gap after its last
 *   switch), read live (top.c, live_source.c, tally.c) and recorded at
 *   the same time: the live view's current task, the model fed from the
 *   recording, --dump's task column, Perfetto's text lines and task
 *   slices, and the CTF streams' last switch and discarded counts all
 *   say the same of each CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "export_ctf.h"
#include "export_perfetto.h"
#include "fake-session.h"
#include "record_merge.h"
#include "sched_model.h"
#include "synth-record.h"
#include "test-lib.h"
#include "test-util.h"
#include "top.h"
#include "util.h"

/* ---- the model on its own ------------------------------------------ */

static struct sched_relay_record rec(uint64_t ts, uint8_t type, int32_t pid,
				     const char *comm, int32_t pid2,
				     const char *comm2)
{
	struct sched_relay_record r = synth_record(ts, type, pid, comm);

	if (type == SCHED_RELAY_SWITCH || type == SCHED_RELAY_FORK) {
		synth_record_task2(&r, pid2, 110, comm2);
		r.state = SCHED_RELAY_STATE_SLEEPING;
	}
	return r;
}

static struct sched_run runs[16];
static unsigned int nruns;

static void on_run(void *ctx, const struct sched_run *run)
{
	(void)ctx;
	if (nruns < 16)
		runs[nruns++] = *run;
}

static void test_model(void)
{
	struct sched_model m;
	struct sched_event ev;
	struct sched_task t;
	struct sched_relay_record r;
	const struct sched_task_stats *ts;

	sched_model_init(&m, 1);
	m.on_run = on_run;
	nruns = 0;
	check(!sched_model_current(&m, 0, &t));		/* nothing seen */

	r = rec(100, SCHED_RELAY_SWITCH, 10, "A", 11, "B");
	sched_model_record(&m, 0, &r, &ev);
	check(ev.task_known);				/* the prev: A */
	check_str(ev.task.comm, "A");
	check_uint(nruns, ==, 0);	/* A from when? nothing known before */
	check(sched_model_current(&m, 0, &t));
	check_int(t.pid, ==, 11);

	r = rec(150, SCHED_RELAY_WAKEUP, 12, "C", 0, "");
	sched_model_record(&m, 0, &r, &ev);
	check(ev.task_known);				/* B woke C */
	check_int(ev.task.pid, ==, 11);

	r = rec(200, SCHED_RELAY_SWITCH, 11, "B", 0, "swapper/0");
	sched_model_record(&m, 0, &r, &ev);
	check_uint(nruns, ==, 1);
	check_int(runs[0].task.pid, ==, 11);
	check_uint(runs[0].from, ==, 100);
	check_uint(runs[0].to, ==, 200);
	check_str(runs[0].end_state, "S");
	check(sched_model_current(&m, 0, &t));		/* idle is known */
	check_int(t.pid, ==, 0);
	check_str(t.comm, "swapper/0");

	r = rec(300, SCHED_RELAY_SWITCH, 0, "swapper/0", 12, "C");
	sched_model_record(&m, 0, &r, &ev);
	check_uint(nruns, ==, 1);			/* idle: no run */
	check(ev.latency);				/* woken at 150 */
	check_uint(ev.latency_ns, ==, 150);
	ts = sched_model_task(&m, 12);
	if (check(ts != NULL)) {
		check_uint(ts->latencies, ==, 1);
		check_uint(ts->latency_max_ns, ==, 150);
		check_uint(ts->wakeups, ==, 1);
	}
	ts = sched_model_task(&m, 11);
	if (check(ts != NULL))
		check_uint(ts->runtime_ns, ==, 100);

	/* D is woken to run here, then events go missing here */
	r = rec(350, SCHED_RELAY_WAKEUP, 13, "D", 0, "");
	sched_model_record(&m, 0, &r, NULL);
	r = rec(340, SCHED_RELAY_MIGRATE, 14, "E", 0, "");	/* back 10 */
	sched_model_record(&m, 0, &r, &ev);
	check_uint(ev.back_ns, ==, 10);
	check_uint(ev.ts, ==, 350);
	check_uint(m.cpu[0].backwards, ==, 1);
	sched_model_gap(&m, 0);
	check(!sched_model_current(&m, 0, &t));
	check_uint(nruns, ==, 2);			/* C cut short */
	check_int(runs[1].task.pid, ==, 12);
	check_uint(runs[1].from, ==, 300);
	check_uint(runs[1].to, ==, 350);
	check(runs[1].end_state == NULL);
	check_uint(m.wakeups_missed, ==, 1);		/* D's */
	r = rec(400, SCHED_RELAY_WAKEUP, 15, "F", 0, "");
	sched_model_record(&m, 0, &r, &ev);
	check(!ev.task_known);				/* "<...>" */

	/* after the gap: the task the next switch takes off ran since the
	 * first record after it */
	r = rec(500, SCHED_RELAY_SWITCH, 16, "G", 17, "H");
	sched_model_record(&m, 0, &r, NULL);
	check_uint(nruns, ==, 3);
	check_int(runs[2].task.pid, ==, 16);
	check_uint(runs[2].from, ==, 400);
	check_uint(runs[2].to, ==, 500);
	check(sched_model_current(&m, 0, &t));
	sched_model_events(&m, SCHED_RELAY_ALL_EVENTS &
			   ~(1u << SCHED_RELAY_SWITCH));
	check(!sched_model_current(&m, 0, &t));	/* switches not followed */
	sched_model_free(&m);
}

/* ---- one stream, every output -------------------------------------- */

#define NCPU 2
#define CPU0_TASK 1000004	/* next_pid of CPU 0's last switch */
#define CPU1_TASK 1000001	/* next_pid of CPU 1's switch, before the gap */

static char dir[] = "/tmp/t-sched-model.XXXXXX";

static const char *path_of(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

/* The last line of text holding needle (a copy), or "". */
static const char *last_line(const char *text, const char *sep,
			     const char *needle)
{
	static char line[1024];
	const char *p = text, *found = NULL;

	line[0] = '\0';
	while ((p = strstr(p, needle))) {
		found = p;
		p++;
	}
	if (found) {
		const char *start = found, *end = strstr(found, sep);
		size_t seplen = strlen(sep);

		while (start > text && strncmp(start - seplen, sep, seplen))
			start--;
		if (!end)
			end = found + strlen(found);
		snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
	}
	return line;
}

/* What the live mode says, while it records the same stream. */
struct live_says {
	bool known[NCPU];
	struct sched_task task[NCPU];
};

static void write_events(struct fake_channel *fc, struct top *t)
{
	static const uint8_t cpu0[] = {
		SCHED_RELAY_SWITCH, SCHED_RELAY_WAKEUP, SCHED_RELAY_FORK,
		SCHED_RELAY_SWITCH, SCHED_RELAY_WAKEUP,
	};
	struct fake_relay *r1 = &fc->relay[1];

	for (size_t i = 0; i < ARRAY_SIZE(cpu0); i++)
		fake_relay_event(&fc->relay[0], cpu0[i]);
	fake_relay_event(r1, SCHED_RELAY_SWITCH);
	fake_relay_event(r1, SCHED_RELAY_WAKEUP);
	top_drain(t);
	/* CPU 1's buffer fills up (4 x 63 records), 5 are dropped, then
	 * one more after relaytop made room: a gap right before it */
	while (fake_relay_event(r1, SCHED_RELAY_WAKEUP))
		;
	for (int i = 0; i < 4; i++)
		fake_relay_event(r1, SCHED_RELAY_WAKEUP);
	top_drain(t);
	fake_relay_event(r1, SCHED_RELAY_WAKEUP);
	top_drain(t);
}

static bool record_live(const char *recording, struct live_says *live)
{
	struct fake_session s;
	struct view v;

	memset(&s, 0, sizeof(s));
	s.opt.record = recording;
	/* a view is shown (batch): the live mode follows who runs */
	if (!fake_session_start(&s, NCPU, 4096, 4, false, OUT_BATCH))
		return false;
	write_events(&s.fc, &s.t);
	check_uint(s.fc.relay[1].full, ==, 5);
	top_view(&s.t, &v);
	if (check(v.model != NULL))
		for (unsigned int c = 0; c < NCPU; c++)
			live->known[c] = sched_model_current(v.model, c,
							     &live->task[c]);
	check_int(top_finish(&s.t), ==, 0);
	fake_session_stop(&s);
	return true;
}

/* The model fed from the recording, as the exports feed it. */
static void model_of(const char *recording, struct sched_model *m)
{
	struct record_stream s;
	struct record_item it;

	sched_model_init(m, NCPU);
	check_int(record_stream_open(&s, recording), ==, 0);
	while (record_stream_next(&s, &it) > 0) {
		if (it.kind == ITEM_RECORD)
			sched_model_record(m, it.cpu, it.rec, NULL);
		else if (it.kind == ITEM_CONFIG)
			sched_model_events(m, it.config.events);
		else if (it.cpu == RECORD_NO_CPU)
			sched_model_gap_all(m);
		else
			sched_model_gap(m, it.cpu);
	}
	check_str(s.rd.error, "");
	record_stream_close(&s);
}

static void test_dump(const char *recording)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	check_int(dump_recording(recording, out), ==, 0);
	fclose(out);
	/* the task column of each CPU's last event (a wakeup) */
	check(strstr(last_line(text, "\n", "[000]"),
		     "            next-1000004 (1000004) [000] ") != NULL);
	check(strstr(last_line(text, "\n", "[001]"),
		     "           <...>-?       (-------) [001] ") != NULL);
	check(strstr(text, "CPU:1 [5 EVENTS DROPPED]\n") != NULL);
	if (test_failed())
		test_msg("dump:\n%s", text);
	free(text);
}

static void test_perfetto(const char *recording)
{
	const char *json = path_of("t.json");
	char *text, *sys;

	check_int(export_perfetto(recording, json), ==, 0);
	text = slurp_text(json, NULL);
	if (!check(text != NULL))
		return;
	/* the ftrace text lines: each CPU's last one */
	sys = strstr(text, "\"systemTraceEvents\":\"");
	if (check(sys != NULL)) {
		check(strstr(last_line(sys, "\\n", "[000] ...."),
			     "            next-1000004 (1000004) [000] ....")
		      != NULL);
		check(strstr(last_line(sys, "\\n", "[001] ...."),
			     "           <...>-0       (-------) [001] ....")
		      != NULL);
		*sys = '\0';	/* the tracks only, below */
	}
	/* the task slices: CPU 0's last is the task running at the end,
	 * cut short there; CPU 1's last is its task before the gap, cut
	 * short at the gap: nothing after it is known */
	{
		char *p = text, *last0 = NULL, *last1 = NULL;

		/* {"ph":"X","pid":5000000,"tid":500000N,... on a line each */
		while ((p = strstr(p, "\"cat\":\"sched\",\"name\":"))) {
			char *start = p;

			while (start > text && start[-1] != '\n')
				start--;
			p++;
			if (strncmp(start, "{\"ph\":\"X\"", 9))
				continue;	/* an instant */
			if (!strncmp(start + 24, "\"tid\":5000001,", 14))
				last0 = start;
			if (!strncmp(start + 24, "\"tid\":5000002,", 14))
				last1 = start;
		}
		if (check(last0 != NULL) && check(last1 != NULL)) {
			char *e0 = strchr(last0, '\n'), *e1 = strchr(last1, '\n');

			if (e0)
				*e0 = '\0';
			if (e1)
				*e1 = '\0';
			check(strstr(last0, "\"name\":\"next\",\"args\":{\"pid\":1000004,") != NULL);
			check(strstr(last0, "end_state") == NULL);
			check(strstr(last1, "\"name\":\"next\",\"args\":{\"pid\":1000001,") != NULL);
			check(strstr(last1, "end_state") == NULL);
			if (test_failed())
				test_msg("CPU 0: %s\nCPU 1: %s", last0, last1);
		}
	}
	free(text);
}

/* A CTF stream's last sched_switch and whether events went missing
 * after it (tests/unit/t-export-ctf.c has the layout). */
struct ctf_says {
	bool have_switch;
	int32_t next_pid;
	bool missing_after;
	bool time_forward;
};

static size_t ctf_fields_size(uint16_t id)
{
	switch (id) {
	case SCHED_RELAY_SWITCH:	return 64;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:	return 32;
	case SCHED_RELAY_MIGRATE:	return 36;
	case SCHED_RELAY_FORK:		return 48;
	case SCHED_RELAY_EXIT:		return 28;
	default:			return 52;
	}
}

static void ctf_read(const char *path, struct ctf_says *says)
{
	char *p;
	FILE *f = fopen(path, "r");
	unsigned char *buf;
	long len;
	uint64_t discarded = 0, last_ts = 0;

	memset(says, 0, sizeof(*says));
	says->time_forward = true;
	if (!check(f != NULL))
		return;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len)
		len = 0;
	fclose(f);
	for (long off = 0; off + 84 <= len;) {
		uint64_t content, size, disc;
		long pos = off + 84;

		memcpy(&content, buf + off + 48, 8);
		memcpy(&size, buf + off + 56, 8);
		memcpy(&disc, buf + off + 72, 8);
		if (disc > discarded && says->have_switch)
			says->missing_after = true;
		discarded = disc;
		while (pos + 10 <= off + (long)(content / 8)) {
			uint16_t id;
			uint64_t ts;

			memcpy(&id, buf + pos, 2);
			memcpy(&ts, buf + pos + 2, 8);
			if (ts < last_ts)
				says->time_forward = false;
			last_ts = ts;
			if (id == SCHED_RELAY_SWITCH) {
				p = (char *)buf + pos + 10 + 48;
				memcpy(&says->next_pid, p, 4);
				says->have_switch = true;
				says->missing_after = false;
			}
			pos += 10 + (long)ctf_fields_size(id);
		}
		if (!size)
			break;
		off += (long)(size / 8);
	}
	free(buf);
}

static void test_ctf(const char *recording, const struct sched_model *m)
{
	const char *out = path_of("ctf");
	struct ctf_says says[NCPU];
	char path[300];
	struct sched_task t;

	check_int(export_ctf(recording, out), ==, 0);
	for (unsigned int c = 0; c < NCPU; c++) {
		snprintf(path, sizeof(path), "%s/cpu%u", out, c);
		ctf_read(path, &says[c]);
		check(says[c].have_switch);
		check(says[c].time_forward);
		/* known: the last switch's next, nothing missing since */
		check(sched_model_current(m, c, &t) == !says[c].missing_after);
	}
	check(!says[0].missing_after);
	check_int(says[0].next_pid, ==, CPU0_TASK);
	check(says[1].missing_after);
	check_int(says[1].next_pid, ==, CPU1_TASK);
}

static void test_one_stream(void)
{
	const char *recording = path_of("r.rec");
	struct live_says live;
	struct sched_model m;
	struct sched_task t;

	memset(&live, 0, sizeof(live));
	if (!check(record_live(recording, &live)))
		return;
	model_of(recording, &m);
	/* the live view and the model of the recording agree */
	check(live.known[0]);
	check_int(live.task[0].pid, ==, CPU0_TASK);
	check_str(live.task[0].comm, "next");
	check(!live.known[1]);
	check(sched_model_current(&m, 0, &t));
	check_int(t.pid, ==, CPU0_TASK);
	check_str(t.comm, "next");
	check(!sched_model_current(&m, 1, &t));
	check_uint(m.cpu[1].gaps, ==, 1);
	/* and so do the outputs */
	test_dump(recording);
	test_perfetto(recording);
	test_ctf(recording, &m);
	sched_model_free(&m);
}

/* sched_switch off, then on again: nothing is made up across the gap. */
static void test_switch_off_then_on(void)
{
	uint32_t all = SCHED_RELAY_ALL_EVENTS;
	struct sched_model m;
	struct sched_event ev;
	struct sched_relay_record r;
	const struct sched_task_stats *ts;

	sched_model_init(&m, 1);
	m.on_run = on_run;
	nruns = 0;
	sched_model_events(&m, all & ~(1u << SCHED_RELAY_SWITCH));
	r = rec(100, SCHED_RELAY_WAKEUP, 50, "B", 0, "");	/* B woken */
	sched_model_record(&m, 0, &r, &ev);
	/* B may well run at 500, unseen; switch is recorded from 1000 */
	sched_model_events(&m, all);
	r = rec(1010, SCHED_RELAY_SWITCH, 42, "A", 50, "B");
	sched_model_record(&m, 0, &r, &ev);
	check(!ev.latency);			/* 910 ns would be made up */
	check_uint(nruns, ==, 0);		/* A from 100: made up too */
	ts = sched_model_task(&m, 42);
	check(ts == NULL || ts->runtime_ns == 0);
	/* from here on everything is seen */
	r = rec(1050, SCHED_RELAY_WAKEUP, 42, "A", 0, "");
	sched_model_record(&m, 0, &r, &ev);
	r = rec(1100, SCHED_RELAY_SWITCH, 50, "B", 42, "A");
	sched_model_record(&m, 0, &r, &ev);
	check(ev.latency);
	check_uint(ev.latency_ns, ==, 50);
	check_uint(nruns, ==, 1);
	check_uint(runs[0].from, ==, 1010);
	check_uint(runs[0].to, ==, 1100);
	sched_model_free(&m);
}

/*
 * A gap's cost does not grow with the tasks ever seen: 100000 tasks, then
 * 50000 times a wakeup and a gap.  Each gap counts the waiting wakeups
 * as missed, exactly (one each here), and the whole run takes well under
 * a second of CPU time.  Before, each gap scanned the task table (which
 * never shrinks) up to its last waiting task: about 2^17 slots a gap,
 * some 6.5e9 in all, 30 s and more under ASan (a 15 MB made-up
 * recording took 8 s to --dump).
 */
static void test_gap_cost(void)
{
	const int32_t tasks = 100000, gaps = 50000;
	struct sched_model m;
	struct sched_relay_record r;
	uint64_t ts = 1000;
	clock_t t0;
	double secs;

	sched_model_init(&m, 1);
	for (int32_t pid = 1; pid <= tasks; pid++) {
		r = rec(ts++, SCHED_RELAY_SWITCH, pid, "a", pid + 1, "b");
		sched_model_record(&m, 0, &r, NULL);
	}
	t0 = clock();
	for (int32_t i = 0; i < gaps; i++) {
		r = rec(ts++, SCHED_RELAY_WAKEUP, 1 + (i * 7919) % tasks, "a",
			0, NULL);
		sched_model_record(&m, 0, &r, NULL);
		sched_model_gap(&m, 0);
	}
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	check_uint(m.wakeups_missed, ==, (uint64_t)gaps);
	check_uint(m.nwaiting, ==, 0);
	if (!check(secs < 1.0))
		test_msg("%d gaps took %.2f s of CPU time", gaps, secs);
	sched_model_free(&m);
}

int main(void)
{
	char cmd[300];
	int status;

	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	loop_install_signals();
	TEST(test_model(), "the model: switch pairs, runs, runtime, latency, gaps, time going back");
	TEST(test_switch_off_then_on(), "the model: sched_switch off then on makes up no run and no latency");
	TEST(test_gap_cost(), "a gap costs the wakeups waiting, not the tasks ever seen");
	TEST(test_one_stream(), "live view, recording, dump, Perfetto and CTF say the same of who runs");
	status = test_done();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return status;
}

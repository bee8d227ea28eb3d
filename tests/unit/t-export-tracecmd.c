// SPDX-License-Identifier: GPL-2.0
/*
 * t-export-tracecmd.c - pins relaytop --export-tracecmd
 * (relaytop/export_tracecmd.c, docs/export.md) against what Debian's
 * trace-cmd and KernelShark read:
 * - a recording of every event type (and one this relaytop does not know)
 *   on several CPUs, with producer drops and relaytop losses at known
 *   places (before a CPU's first record, in the middle, both at one place,
 *   after the last record), a CPU that recorded nothing, tasks named with
 *   spaces, 15 characters and non-ASCII UTF-8, and gaps in time that need
 *   time-extend events, exports to a trace.dat that `trace-cmd report`
 *   reads with exit status 0 and nothing on standard error;
 * - per CPU, trace-cmd prints the same events as `relaytop --dump`, line
 *   for line (tests/lib/tracecmd-compare: event name, CPU, timestamp in
 *   ns, who ran, every field as the kernel prints it), a "[N EVENTS
 *   DROPPED]" line at each gap with its drops and losses, and the events
 *   missing after a CPU's last one in its `--stat` counts; the counts
 *   compared are the ones the recording was made with;
 * - the header: version 6, one CPU section per CPU, the clock "mono", the
 *   wall-clock offset of the recording's start, the per-CPU stats, what
 *   wrote it; the saved cmdlines name every task as it was last named;
 * - hostile names (control bytes, escape sequences, invalid UTF-8, a C1
 *   control) keep their exact bytes in the events' fields, and come out
 *   escaped in the saved cmdlines, so `trace-cmd report -R` prints no
 *   control byte;
 * - trace-cmd's default report (its sched_switch plugin) reads it too;
 *   KernelShark opens it under Xvfb and draws it (tests/lib/kernelshark-shot);
 * - the same recording gives the same bytes; a recording without drops
 *   gives no drop lines; time going back (a damaged record) and time jumps
 *   of any size still give a trace trace-cmd reads;
 * - bad input is an error that creates no file and leaves an existing one
 *   alone; a truncated recording exports what is before the damage and
 *   fails.
 * Without trace-cmd the test fails and says to run 'make deps'.  KEEP=1
 * keeps the recordings and traces (the directory is named in the output).
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dump.h"
#include "export_tracecmd.h"
#include "fields.h"
#include "record_merge.h"
#include "record_writer.h"
#include "synth-recording.h"
#include "test-lib.h"
#include "util.h"

#define NCPU 5
#define CHUNK 50		/* records per DATA block, like a sub-buffer */
#define MAX_LINE 4096
#define UNKNOWN_TYPE 9		/* a record type this relaytop does not know */
#define JUMP_NS 140000000ull	/* over 2^27 ns: a time-extend event */

static char tmpdir[] = "/tmp/t-export-tracecmd.XXXXXX";
static char libdir[512];	/* tests/lib */

static const char *tmp_path(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", tmpdir, name);
	return path[i];
}

/* ---- the recording -------------------------------------------------- */

static const unsigned int nrec[NCPU] = { 5000, 300, 4096, 57, 0 };

static const struct synth_gap gaps[] = {
	{ 0, 10, 4, 0 },	/* producer drops */
	{ 0, 20, 0, 3 },	/* relaytop losses */
	{ 0, 4200, 2, 5 },	/* both before one record */
	{ 1, 0, 7, 0 },		/* before the CPU's first record */
	{ 2, -1, 9, 0 },	/* after the last: the stats file's count */
	{ 3, 2, 0, 1 },
	{ 3, -1, 0, 6 },	/* after the last: lost by the reader */
};
/* what the gaps above come to: places before a record, their events,
 * the events after a CPU's last record */
#define GAP_PLACES 5
#define GAP_EVENTS (4 + 3 + 2 + 5 + 7 + 1)
#define GAP_AFTER (9 + 6)

static uint64_t base_ts;

/* Printable names that try the trace's text: spaces, the longest name a
 * task can have (15 bytes), UTF-8, quotes. */
static const char *const comms[] = {
	"loadgen", "kworker/0:1H", "a b c", "fifteen-chars-x",
	"\xc3\xa9t\xc3\xa9 \xc3\xa0 No\xc3\xabl", "\xe5\x90\x8d\xe5\x89\x8d",
	"a \"quoted\" one", " lead", "trail ",
};

static uint64_t record_ts(unsigned int cpu, unsigned int i)
{
	uint64_t ts = base_ts + (uint64_t)i * 1000 + cpu * 10;

	/* CPU 3 jumps twice over 2^27 ns: time-extend events */
	if (cpu == 3)
		ts += (i >= 30) * JUMP_NS + (i >= 40) * JUMP_NS;
	return ts;
}

static void make_record(unsigned int cpu, unsigned int i,
			struct sched_relay_record *r)
{
	static const uint8_t states[] = {
		SCHED_RELAY_STATE_RUNNING, SCHED_RELAY_STATE_SLEEPING,
		SCHED_RELAY_STATE_DISK, SCHED_RELAY_STATE_IDLE,
		SCHED_RELAY_STATE_PREEMPTED, SCHED_RELAY_STATE_STOPPED,
		SCHED_RELAY_STATE_TRACED, SCHED_RELAY_STATE_DEAD,
		SCHED_RELAY_STATE_ZOMBIE, SCHED_RELAY_STATE_PARKED,
	};

	memset(r, 0, sizeof(*r));
	r->ts = record_ts(cpu, i);
	r->event_seq = i;
	r->type = (uint8_t)((i + cpu) % SCHED_RELAY_NR_EVENTS);
	if (cpu == 2 && i % 97 == 5)
		r->type = UNKNOWN_TYPE;
	r->pid = (int32_t)(1000 * cpu + i + 1);
	r->tgid = (int32_t)(1000 * cpu + 1);
	r->pid2 = r->pid + 500;
	r->prio = (uint8_t)(i % 7 ? 100 + (int)(i % 40) :
			    SCHED_RELAY_PRIO_DEADLINE);
	if (r->type == SCHED_RELAY_SWITCH)
		r->state = states[(i / SCHED_RELAY_NR_EVENTS) %
				  ARRAY_SIZE(states)];
	snprintf(r->comm, sizeof(r->comm), "%s", comms[i % ARRAY_SIZE(comms)]);
	if (r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK ||
	    r->type == UNKNOWN_TYPE) {
		r->prio2 = (uint8_t)(120 - (int)(i % 20));
		r->tgid2 = r->pid2;
		/* the idle task now and then */
		if (r->type == SCHED_RELAY_SWITCH && i % 5 == 0)
			r->pid2 = 0;
		snprintf(r->comm2, sizeof(r->comm2), "n%u-%u", cpu, i);
	} else {
		r->target_cpu = (uint16_t)((cpu + 1) % NCPU);
		r->orig_cpu = (uint16_t)cpu;
	}
}

static void write_recording(const char *path, bool with_gaps)
{
	struct synth_recording spec = {
		.ncpus = NCPU, .nrec = nrec, .chunk = CHUNK, .generation = 3,
		.base_ts = &base_ts, .make_record = make_record,
		.gaps = with_gaps ? gaps : NULL,
		.ngaps = with_gaps ? ARRAY_SIZE(gaps) : 0,
	};

	synth_write_recording(path, &spec);
}

/* A recording of one CPU with these records, written as they are. */
static int write_records(const char *path,
			 const struct sched_relay_record *recs, uint32_t n)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 1,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct subbuf_chunk c = {
		.cpu = 0, .generation = 1, .offset = 64, .recs = recs,
		.nrec = n,
	};
	struct recorder *rec = recorder_create(path, &meta);
	int rc;

	if (!rec)
		return -1;
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
	rc = recorder_finish(rec);
	recorder_free(rec);
	return rc;
}

/* ---- running the tools ---------------------------------------------- */

struct lines {
	char **line;
	size_t n;
};

static void read_lines(const char *path, struct lines *l)
{
	char buf[MAX_LINE];
	FILE *f = fopen(path, "r");

	memset(l, 0, sizeof(*l));
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		l->line = xrealloc(l->line, (l->n + 1) * sizeof(*l->line));
		l->line[l->n++] = xstrdup(buf);
	}
	fclose(f);
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

/* Run "sh -c cmd" with stdout and stderr into out and err (either NULL:
 * not kept); its exit status, its failure output shown. */
static int run(const char *cmd, struct lines *out, struct lines *err)
{
	char full[2048];
	struct lines e;
	int rc;

	snprintf(full, sizeof(full), "%s >'%s' 2>'%s'", cmd,
		 tmp_path("run.out"), tmp_path("run.err"));
	rc = system(full);
	if (out)
		read_lines(tmp_path("run.out"), out);
	read_lines(tmp_path("run.err"), &e);
	if (rc) {
		test_msg("%s: exit status %d", cmd, rc);
		for (size_t i = 0; i < e.n && i < 20; i++)
			test_msg("  %s", e.line[i]);
	}
	if (err)
		*err = e;
	else
		free_lines(&e);
	return rc;
}

static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static bool has_line(const struct lines *l, const char *want)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->line[i], want))
			return true;
	return false;
}

static bool has_text(const struct lines *l, const char *want)
{
	for (size_t i = 0; i < l->n; i++)
		if (strstr(l->line[i], want))
			return true;
	return false;
}

/* relaytop --dump of path into dump (its exit status). */
static int dump_to(const char *path, const char *dump)
{
	FILE *f = fopen(dump, "w");
	int rc;

	if (!f)
		return -1;
	rc = dump_recording(path, f);
	fclose(f);
	return rc;
}

/* tracecmd-compare TRACE DUMP: 0 and its closing line, or its status. */
static int compare(const char *trace, const char *dump, char *summary,
		   size_t size)
{
	char cmd[1024];
	struct lines out;
	int rc;

	snprintf(cmd, sizeof(cmd), "'%s/tracecmd-compare' '%s' '%s'", libdir,
		 trace, dump);
	rc = run(cmd, &out, NULL);
	snprintf(summary, size, "%s", out.n ? out.line[out.n - 1] : "");
	for (size_t i = 0; i + 1 < out.n && i < 20; i++)
		test_msg("%s", out.line[i]);
	free_lines(&out);
	return rc;
}

/* ---- tests ---------------------------------------------------------- */

/* (check_int() keeps its operands in one place: calls go in variables.) */

static uint64_t records;	/* of gaps.rec */

static void test_export_succeeds(void)
{
	struct record_stream s;
	struct stat st;
	int rc;

	write_recording(tmp_path("gaps.rec"), true);
	rc = record_stream_open(&s, tmp_path("gaps.rec"));
	check_int(rc, ==, 0);
	records = s.rd.records;
	record_stream_close(&s);
	rc = export_tracecmd(tmp_path("gaps.rec"), tmp_path("gaps.dat"));
	check_int(rc, ==, 0);
	rc = stat(tmp_path("gaps.dat"), &st);
	check_int(rc, ==, 0);
	check_int(st.st_size % 4096, ==, 0);
	rc = dump_to(tmp_path("gaps.rec"), tmp_path("gaps.dump"));
	check_int(rc, ==, 0);
}

static void test_report_reads_it(void)
{
	char cmd[512];
	struct lines out, err;
	int rc;

	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, &err);
	check_int(rc, ==, 0);
	check_uint(err.n, ==, 0);
	for (size_t i = 0; i < err.n && i < 5; i++)
		test_msg("stderr: %s", err.line[i]);
	/* "cpus=5", every event, a line per gap */
	check_uint(out.n, ==, 1 + records + GAP_PLACES);
	if (out.n)
		check_str(out.line[0], "cpus=5");
	free_lines(&out);
	free_lines(&err);
}

static void test_same_as_dump(void)
{
	char summary[512], want[512];
	int rc = compare(tmp_path("gaps.dat"), tmp_path("gaps.dump"),
			 summary, sizeof(summary));

	check_int(rc, ==, 0);
	snprintf(want, sizeof(want), "tracecmd-compare: %" PRIu64 " events "
		 "on %d CPUs, %d gaps of %d events, %d events after the last",
		 records, NCPU, GAP_PLACES, GAP_EVENTS, GAP_AFTER);
	check_str(summary, want);
}

static void test_header(void)
{
	char cmd[512], offset[64];
	struct lines out;
	int rc;

	snprintf(cmd, sizeof(cmd), "trace-cmd dump --summary --clock "
		 "--options '%s'", tmp_path("gaps.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	check(has_text(&out, "6\t[Version]"));
	check(has_text(&out, "8\t[Bytes in a long]"));
	check(has_text(&out, "4096\t[Page size, bytes]"));
	check(has_text(&out, "[Events format, 2 systems]"));
	check(has_text(&out, "5 [CPUs with tracing data]"));
	check(has_text(&out, "[Option TRACECLOCK, 0 bytes]"));
	check(has_line(&out, "relaytop " RELAYTOP_VERSION " --export-tracecmd"));
	check(has_text(&out, "[mono]"));
	check(has_line(&out, "\t\tlocal global counter uptime perf [mono] "
		       "mono_raw boot tai x86-tsc"));
	free_lines(&out);
	/* the wall clock: the recording's start as DATE */
	{
		struct record_stream s;

		rc = record_stream_open(&s, tmp_path("gaps.rec"));
		check_int(rc, ==, 0);
		snprintf(offset, sizeof(offset), "%" PRId64,
			 (int64_t)(s.rd.hdr.start_real_ns -
				   s.rd.hdr.start_mono_ns) / 1000);
		record_stream_close(&s);
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --options '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	check(has_line(&out, offset));
	free_lines(&out);
	/* per CPU: its section, its stats */
	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	for (unsigned int cpu = 0; cpu < NCPU; cpu++) {
		char want[64];

		snprintf(want, sizeof(want), "CPU: %u", cpu);
		check(has_line(&out, want));
		snprintf(want, sizeof(want), "CPU%u data recorded at offset=",
			 cpu);
		check(has_text(&out, want));
	}
	check(has_line(&out, "dropped events: 9"));	/* CPU 2 */
	check(has_line(&out, "overrun: 7"));		/* CPU 3 */
	free_lines(&out);
}

/* The name each pid was given last (by time), as cmdlines hold it. */
struct named {
	uint64_t ts;
	int32_t pid;
	char comm[SCHED_RELAY_COMM_LEN + 1];
};

static int by_pid_then_ts(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void test_cmdlines(void)
{
	struct named *n = NULL;
	size_t k = 0, bad = 0, pids = 0;
	char cmd[512], want[64];
	struct lines out;
	int rc;

	for (unsigned int cpu = 0; cpu < NCPU; cpu++)
		for (unsigned int i = 0; i < nrec[cpu]; i++) {
			struct sched_relay_record r;

			make_record(cpu, i, &r);
			n = xrealloc(n, (k + 2) * sizeof(*n));
			n[k] = (struct named){ r.ts, r.pid, "" };
			memcpy(n[k++].comm, r.comm, SCHED_RELAY_COMM_LEN);
			if (r.type == SCHED_RELAY_SWITCH ||
			    r.type == SCHED_RELAY_FORK) {
				n[k] = (struct named){ r.ts, r.pid2, "" };
				memcpy(n[k++].comm, r.comm2,
				       SCHED_RELAY_COMM_LEN);
			}
		}
	qsort(n, k, sizeof(*n), by_pid_then_ts);
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --cmd-lines '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	for (size_t i = 0; i < k; i++) {
		if (n[i].pid == 0 || (i + 1 < k && n[i + 1].pid == n[i].pid))
			continue;	/* idle; not the last name */
		pids++;
		snprintf(want, sizeof(want), "%d %s", n[i].pid, n[i].comm);
		if (!has_line(&out, want) && bad++ < 5)
			test_msg("no cmdline \"%s\"", want);
	}
	check_uint(bad, ==, 0);
	check_uint(pids, >, 5000);
	/* the section's title, one line per task, an empty one */
	check_uint(out.n, ==, pids + 2);
	free_lines(&out);
	free(n);
}

static void test_plugins(void)
{
	char cmd[512];
	struct lines out, err;
	int rc;

	/* trace-cmd's own view, with its sched_switch plugin, and latency
	 * format: they read every event */
	snprintf(cmd, sizeof(cmd), "trace-cmd report -l '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, &err);
	check_int(rc, ==, 0);
	check_uint(err.n, ==, 0);
	check(has_text(&out, " ==> "));
	check(has_text(&out, "sched_wakeup_new:"));
	check(has_text(&out, "unknown_record:"));
	free_lines(&out);
	free_lines(&err);
	snprintf(cmd, sizeof(cmd), "trace-cmd report --cpus '%s'",
		 tmp_path("gaps.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	/* the CPUs with events: 0-3 */
	check_uint(out.n, ==, 5);
	free_lines(&out);
}

/* Hostile names: exact bytes in the fields, escaped in the cmdlines. */
static const char *const hostile[] = {
	"esc\x1b[31mred", "new\nline", "bad\xff\xfeutf8", "c1\xc2\x9b" "2J",
	"tab\there", "cut\xe2\x82", "del\x7f",
};
static const char *const hostile_escaped[] = {
	"esc\\x1b[31mred", "new\\x0aline", "bad\\xff\\xfeutf8",
	"c1\\xc2\\x9b2J", "tab\\x09here", "cut\\xe2\\x82", "del\\x7f",
};

static void test_hostile_names(void)
{
	struct sched_relay_record recs[ARRAY_SIZE(hostile)];
	struct lines out;
	char cmd[512], want[256];
	size_t nctl = 0;
	int rc;

	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		make_record(0, (unsigned int)(i * SCHED_RELAY_NR_EVENTS + 1),
			    &recs[i]);	/* sched_wakeup */
		recs[i].pid = (int32_t)(100 + i);
		recs[i].ts = base_ts + i * 1000;
		memset(recs[i].comm, 0, sizeof(recs[i].comm));
		memcpy(recs[i].comm, hostile[i], strlen(hostile[i]));
	}
	rc = write_records(tmp_path("names.rec"), recs, ARRAY_SIZE(recs));
	check_int(rc, ==, 0);
	rc = export_tracecmd(tmp_path("names.rec"), tmp_path("names.dat"));
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --cmd-lines '%s'",
		 tmp_path("names.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		snprintf(want, sizeof(want), "%zu %s", 100 + i,
			 hostile_escaped[i]);
		if (!check(has_line(&out, want)))
			test_msg("no cmdline \"%s\"", want);
	}
	free_lines(&out);
	/* -R: every field as it is, a name that is not printable ASCII
	 * as its 16 bytes; the task column from the cmdlines */
	snprintf(cmd, sizeof(cmd), "trace-cmd report -R '%s'",
		 tmp_path("names.dat"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	check_uint(out.n, ==, 1 + ARRAY_SIZE(hostile));
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		int n = snprintf(want, sizeof(want), "comm=ARRAY[");

		for (int b = 0; b < SCHED_RELAY_COMM_LEN; b++)
			n += snprintf(want + n, sizeof(want) - n, "%s%02x",
				      b ? ", " : "",
				      (unsigned char)recs[i].comm[b]);
		snprintf(want + n, sizeof(want) - n, "] pid=%zu", 100 + i);
		if (!check(has_text(&out, want)))
			test_msg("no event with %s", want);
	}
	for (size_t i = 0; i < out.n; i++)
		for (const char *p = out.line[i]; *p; p++)
			nctl += (unsigned char)*p < 0x20 ||
				(unsigned char)*p >= 0x7f;
	check_uint(nctl, ==, 0);
	free_lines(&out);
}

static void test_kernelshark(void)
{
	char cmd[1024];
	struct lines out;
	int rc;

	snprintf(cmd, sizeof(cmd), "'%s/kernelshark-shot' '%s' '%s'", libdir,
		 tmp_path("gaps.dat"), tmp_path("kernelshark.png"));
	rc = run(cmd, &out, NULL);
	check_int(rc, ==, 0);
	for (size_t i = 0; i < out.n; i++)
		test_msg("%s", out.line[i]);
	free_lines(&out);
}

static void test_no_drops(void)
{
	char summary[512], want[512];
	int rc;

	write_recording(tmp_path("clean.rec"), false);
	rc = export_tracecmd(tmp_path("clean.rec"), tmp_path("clean.dat"));
	check_int(rc, ==, 0);
	rc = dump_to(tmp_path("clean.rec"), tmp_path("clean.dump"));
	check_int(rc, ==, 0);
	rc = compare(tmp_path("clean.dat"), tmp_path("clean.dump"), summary,
		     sizeof(summary));
	check_int(rc, ==, 0);
	snprintf(want, sizeof(want), "tracecmd-compare: %" PRIu64 " events "
		 "on %d CPUs, 0 gaps of 0 events, 0 events after the last",
		 records, NCPU);
	check_str(summary, want);
}

static void test_deterministic(void)
{
	char cmd[1024];
	int rc = export_tracecmd(tmp_path("gaps.rec"), tmp_path("again.dat"));

	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", tmp_path("gaps.dat"),
		 tmp_path("again.dat"));
	rc = system(cmd);
	check_int(rc, ==, 0);
}

/* Time going back (a damaged record) and jumps of every size. */
static void test_times(void)
{
	static const uint64_t dt[] = {
		1000, 3000, 2000,		/* back: the time before */
		4000, 4000 + (1u << 27) - 1,	/* the largest plain delta */
		8000 + (2u << 27),		/* a time extend */
		(UINT64_C(1) << 40),		/* its upper bits */
		(UINT64_C(1) << 40) + (UINT64_C(1) << 59),	/* a new page */
		(UINT64_C(1) << 40) + (UINT64_C(1) << 59) + 5,
	};
	struct sched_relay_record recs[ARRAY_SIZE(dt)];
	char summary[512], want[512];
	int rc;

	for (size_t i = 0; i < ARRAY_SIZE(dt); i++) {
		make_record(0, (unsigned int)i * SCHED_RELAY_NR_EVENTS,
			    &recs[i]);	/* sched_switch */
		recs[i].ts = base_ts + dt[i];
	}
	rc = write_records(tmp_path("times.rec"), recs, ARRAY_SIZE(recs));
	check_int(rc, ==, 0);
	rc = export_tracecmd(tmp_path("times.rec"), tmp_path("times.dat"));
	check_int(rc, ==, 0);
	rc = dump_to(tmp_path("times.rec"), tmp_path("times.dump"));
	check_int(rc, ==, 0);
	rc = compare(tmp_path("times.dat"), tmp_path("times.dump"), summary,
		     sizeof(summary));
	check_int(rc, ==, 0);
	snprintf(want, sizeof(want), "tracecmd-compare: %zu events on 1 "
		 "CPUs, 0 gaps of 0 events, 0 events after the last",
		 ARRAY_SIZE(dt));
	check_str(summary, want);
}

static void test_bad_input(void)
{
	struct stat st;
	FILE *f;
	int rc;

	/* a missing recording: nothing is created */
	rc = export_tracecmd(tmp_path("missing.rec"), tmp_path("m.dat"));
	check_int(rc, ==, 1);
	rc = stat(tmp_path("m.dat"), &st);
	check_int(rc, ==, -1);
	/* not a recording: an existing file stays as it was */
	f = fopen(tmp_path("junk.rec"), "w");
	fputs("this is not a recording\n", f);
	fclose(f);
	f = fopen(tmp_path("keep.dat"), "w");
	fputs("keep me\n", f);
	fclose(f);
	rc = export_tracecmd(tmp_path("junk.rec"), tmp_path("keep.dat"));
	check_int(rc, ==, 1);
	rc = stat(tmp_path("keep.dat"), &st);
	check_int(rc, ==, 0);
	check_int(st.st_size, ==, 8);
	/* no directory to write in */
	rc = export_tracecmd(tmp_path("clean.rec"), tmp_path("no/such.dat"));
	check_int(rc, ==, 1);
	/* nothing else was left behind: the recordings, dumps, traces */
	{
		char cmd[512];
		struct lines out;

		snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep tmp | wc -l",
			 tmpdir);
		run(cmd, &out, NULL);
		if (out.n)
			check_str(out.line[0], "0");
		free_lines(&out);
	}
}

static void test_truncated(void)
{
	char cmd[512], summary[512];
	struct record_stream s;
	struct stat st;
	uint64_t half;
	int rc;

	rc = stat(tmp_path("gaps.rec"), &st);
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "head -c %lld '%s' >'%s'",
		 (long long)st.st_size / 2, tmp_path("gaps.rec"),
		 tmp_path("half.rec"));
	rc = system(cmd);
	check_int(rc, ==, 0);
	rc = record_stream_open(&s, tmp_path("half.rec"));
	check_int(rc, ==, 0);
	half = s.rd.records;
	record_stream_close(&s);
	check_uint(half, >, 0);
	check_uint(half, <, records);
	rc = export_tracecmd(tmp_path("half.rec"), tmp_path("half.dat"));
	check_int(rc, ==, 1);
	rc = dump_to(tmp_path("half.rec"), tmp_path("half.dump"));
	check_int(rc, ==, 1);
	/* the same events as --dump of what is left */
	rc = compare(tmp_path("half.dat"), tmp_path("half.dump"), summary,
		     sizeof(summary));
	check_int(rc, ==, 0);
	check(strstr(summary, " events on ") != NULL);
	if (!check_uint(strtoull(summary + strlen("tracecmd-compare: "), NULL,
				 10), ==, half))
		test_msg("%s", summary);
}

int main(void)
{
	char cmd[300], here[512];

	/*
	 * --dump prints names as the terminal's character set allows, and
	 * trace-cmd prints their bytes: compare them in UTF-8, where the
	 * names' UTF-8 comes out as it is on both sides.
	 */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "t-export-tracecmd: no C.UTF-8 locale\n");
		return 1;
	}

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(libdir, sizeof(libdir), "%s/../lib", dirname(here));
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	if (!have("trace-cmd")) {
		TEST(check(!"trace-cmd is not installed (run 'make deps')"),
		     "trace-cmd is installed");
		return test_done();
	}
	TEST(test_export_succeeds(), "a recording with gaps exports to a "
	     "trace.dat of whole pages");
	TEST(test_report_reads_it(), "trace-cmd report reads it, silently: "
	     "a line per event and per gap");
	TEST(test_same_as_dump(), "per CPU, trace-cmd prints the events of "
	     "--dump line for line, every field, and each gap where it is "
	     "with its drops and losses; --stat has the rest");
	TEST(test_header(), "trace-cmd dump and report --stat show the "
	     "header: version 6, the CPUs, clock mono, the wall-clock offset, "
	     "per-CPU stats, relaytop as the writer");
	TEST(test_cmdlines(), "the saved cmdlines name every task as it "
	     "was named last");
	TEST(test_hostile_names(), "names with control bytes keep their "
	     "bytes in the fields and are escaped in the cmdlines");
	TEST(test_plugins(), "trace-cmd's default report (plugins) and "
	     "latency format read every event");
	if (!have("kernelshark") || !have("xvfb-run") || !have("import"))
		TEST(check(!"kernelshark, xvfb-run or imagemagick is not "
			   "installed (run 'make deps')"),
		     "KernelShark and Xvfb are installed");
	else
		TEST(test_kernelshark(), "KernelShark opens the export under "
		     "Xvfb and draws it");
	TEST(test_no_drops(), "a recording without drops gives no drop "
	     "lines");
	TEST(test_deterministic(), "the same recording gives the same "
	     "trace.dat");
	TEST(test_times(), "time going back and jumps of every size give "
	     "the times --dump shows");
	TEST(test_bad_input(), "bad input is an error that creates no file "
	     "and changes none");
	TEST(test_truncated(), "a truncated recording exports the events "
	     "before the damage and fails");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (getenv("KEEP"))
		test_msg("kept %s", tmpdir);
	else if (system(cmd))
		test_msg("could not remove %s", tmpdir);
	return test_done();
}

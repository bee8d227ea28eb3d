// SPDX-License-Identifier: GPL-2.0
/*
 * t-export-ctf.c - pins relaytop --export-ctf (relaytop/export_ctf.c,
 * docs/export.md) against what babeltrace2 (Debian's babeltrace2) reads:
 * - a recording of every event type on several CPUs, with producer drops
 *   and relaytop losses at known places (before a CPU's first record, in the
 *   middle, both at once, at a packet boundary, after the last record) and
 *   a CPU that recorded nothing, exports to a trace babeltrace2 reads with
 *   exit status 0, printing exactly one line per recorded event;
 * - each line has the right time (CLOCK_MONOTONIC plus the recording's
 *   wall-clock offset), event name, cpu_id, and the kernel tracepoints'
 *   field names with the recorded values;
 * - babeltrace2's only diagnostics are "discarded events" warnings, one
 *   per gap, with the recorded count, in the right CPU's stream, between
 *   the last record before the gap and the first after it; a recording
 *   without drops gives none;
 * - the metadata says CTF 1.8, a CLOCK_MONOTONIC ns clock and the kernel
 *   domain; the same recording gives the same trace, and another one a
 *   trace of another UUID;
 * - bad input (missing or foreign file, a directory in use) is a clear
 *   error that leaves nothing behind; a truncated recording exports the
 *   events before the damage and still fails; a record whose time goes
 *   backwards still gives a trace babeltrace2 reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_ctf.h"
#include "fields.h"
#include "record_merge.h"
#include "record_writer.h"
#include "synth-recording.h"
#include "test-lib.h"
#include "util.h"

#define NCPU 5
#define CHUNK 50		/* records per DATA block, like a sub-buffer */
#define MAX_LINE 1024

static char tmpdir[] = "/tmp/t-export-ctf.XXXXXX";

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
	{ 0, 4200, 2, 5 },	/* both before one record, past a packet */
	{ 1, 0, 7, 0 },		/* before the CPU's first record */
	{ 2, -1, 9, 0 },	/* after the last: the stats file's count */
	{ 3, 2, 0, 1 },
	{ 3, -1, 0, 6 },	/* after the last: lost by the reader */
};

static uint64_t base_ts;

static const char *const comms[] = {
	"loadgen", "kworker/0:1H", "swapper/1", "a \"quoted\" one",
	"fifteen-chars-x", "back\\slash",
};

static void make_record(unsigned int cpu, unsigned int i,
			struct sched_relay_record *r)
{
	static const uint8_t states[] = {
		SCHED_RELAY_STATE_RUNNING, SCHED_RELAY_STATE_SLEEPING,
		SCHED_RELAY_STATE_DISK, SCHED_RELAY_STATE_IDLE,
		SCHED_RELAY_STATE_PREEMPTED,
	};

	memset(r, 0, sizeof(*r));
	r->ts = base_ts + (uint64_t)i * 1000 + cpu * 10;
	r->event_seq = i;
	r->type = (uint8_t)((i + cpu) % SCHED_RELAY_NR_EVENTS);
	r->pid = (int32_t)(1000 * cpu + i + 1);
	r->tgid = (int32_t)(1000 * cpu + 1);
	r->pid2 = r->pid + 500;
	r->prio = (uint8_t)(i % 7 ? 100 + (int)(i % 40) :
			    SCHED_RELAY_PRIO_DEADLINE);
	if (r->type == SCHED_RELAY_SWITCH)
		r->state = states[i % ARRAY_SIZE(states)];
	snprintf(r->comm, sizeof(r->comm), "%s", comms[i % ARRAY_SIZE(comms)]);
	if (r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK) {
		r->prio2 = (uint8_t)(120 - (int)(i % 20));
		r->tgid2 = r->pid2;
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

/* ---- running babeltrace2 -------------------------------------------- */

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
		l->line = realloc(l->line, (l->n + 1) * sizeof(*l->line));
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

static bool have_babeltrace2(void)
{
	return system("babeltrace2 --version >/dev/null 2>&1") == 0;
}

/* babeltrace2 DIR: 0 and its stdout and stderr lines, or its status. */
static int babeltrace2(const char *dir, struct lines *out, struct lines *err)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-seconds --no-delta "
		 "--color=never '%s' >'%s' 2>'%s'", dir, tmp_path("bt.out"),
		 tmp_path("bt.err"));
	rc = system(cmd);
	read_lines(tmp_path("bt.out"), out);
	read_lines(tmp_path("bt.err"), err);
	if (rc)
		for (size_t i = 0; i < err->n && i < 20; i++)
			test_msg("babeltrace2: %s", err->line[i]);
	return rc;
}

/* ---- what babeltrace2 should print ---------------------------------- */

struct rec_info {
	uint64_t start_mono;
	uint64_t start_real;
	uint64_t records;
	uint64_t dropped[NCPU];
	uint64_t lost[NCPU];
	uint64_t end_ts[NCPU];	/* when the recording ended, per CPU */
};

static int read_info(const char *path, struct rec_info *ri)
{
	struct record_stream s;

	memset(ri, 0, sizeof(*ri));
	if (record_stream_open(&s, path)) {
		test_msg("%s", s.rd.error);
		record_stream_close(&s);
		return -1;
	}
	ri->start_mono = s.rd.hdr.start_mono_ns;
	ri->start_real = s.rd.hdr.start_real_ns;
	ri->records = s.rd.records;
	for (unsigned int cpu = 0; cpu < NCPU && cpu < s.rd.ncpus; cpu++) {
		ri->dropped[cpu] = s.rd.summary[cpu].dropped;
		ri->lost[cpu] = s.rd.summary[cpu].lost;
		ri->end_ts[cpu] = s.rd.summary[cpu].end_ts;
	}
	record_stream_close(&s);
	return 0;
}

/* A time as babeltrace2 --clock-seconds prints it. */
static void wall(const struct rec_info *ri, uint64_t mono, char *buf,
		 size_t size)
{
	uint64_t ns = mono + (ri->start_real - ri->start_mono);

	snprintf(buf, size, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
		 ns % 1000000000u);
}

/* A comm as a babeltrace2 string: quotes and backslashes escaped. */
static void quoted(const char *comm, char *buf, size_t size)
{
	size_t n = 0;

	buf[n++] = '"';
	for (size_t i = 0; i < SCHED_RELAY_COMM_LEN && comm[i] && n + 3 < size;
	     i++) {
		if (comm[i] == '"' || comm[i] == '\\')
			buf[n++] = '\\';
		buf[n++] = comm[i];
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

static void expected_line(const struct rec_info *ri, unsigned int cpu,
			  const struct sched_relay_record *r, char *buf,
			  size_t size)
{
	char t[32], c1[40], c2[40];
	int n;

	wall(ri, r->ts, t, sizeof(t));
	quoted(r->comm, c1, sizeof(c1));
	quoted(r->comm2, c2, sizeof(c2));
	n = snprintf(buf, size, "[%s] ", t);
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		snprintf(buf + n, size - n, "sched:sched_switch: "
			 "{ cpu_id = %u }, { prev_comm = %s, prev_pid = %d, "
			 "prev_prio = %d, prev_state = %u, next_comm = %s, "
			 "next_pid = %d, next_prio = %d, prev_tgid = %d, "
			 "next_tgid = %d }", cpu, c1, r->pid,
			 fields_prio(r->prio), fields_state_bits(r->state), c2,
			 r->pid2, fields_prio(r->prio2), r->tgid, r->tgid2);
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		snprintf(buf + n, size - n, "sched:%s: { cpu_id = %u }, "
			 "{ comm = %s, pid = %d, prio = %d, target_cpu = %u, "
			 "tgid = %d }", r->type == SCHED_RELAY_WAKEUP ?
			 "sched_wakeup" : r->type == SCHED_RELAY_WAKING ?
			 "sched_waking" : "sched_wakeup_new", cpu, c1, r->pid,
			 fields_prio(r->prio), r->target_cpu, r->tgid);
		break;
	case SCHED_RELAY_MIGRATE:
		snprintf(buf + n, size - n, "sched:sched_migrate_task: "
			 "{ cpu_id = %u }, { comm = %s, pid = %d, prio = %d, "
			 "orig_cpu = %u, dest_cpu = %u, tgid = %d }", cpu, c1,
			 r->pid, fields_prio(r->prio), r->orig_cpu,
			 r->target_cpu, r->tgid);
		break;
	case SCHED_RELAY_FORK:
		snprintf(buf + n, size - n, "sched:sched_process_fork: "
			 "{ cpu_id = %u }, { parent_comm = %s, parent_pid = %d, "
			 "child_comm = %s, child_pid = %d, parent_tgid = %d, "
			 "child_tgid = %d }", cpu, c1, r->pid, c2, r->pid2,
			 r->tgid, r->tgid2);
		break;
	default:
		snprintf(buf + n, size - n, "sched:sched_process_exit: "
			 "{ cpu_id = %u }, { comm = %s, pid = %d, prio = %d, "
			 "tgid = %d }", cpu, c1, r->pid, fields_prio(r->prio),
			 r->tgid);
		break;
	}
}

/* Every record of the plan, in babeltrace2's order (time; all distinct). */
struct planned {
	unsigned int cpu;
	struct sched_relay_record r;
};

static int by_ts(const void *a, const void *b)
{
	const struct planned *x = a, *y = b;

	return x->r.ts < y->r.ts ? -1 : x->r.ts > y->r.ts;
}

static struct planned *plan_records(size_t *n)
{
	struct planned *p;
	size_t k = 0;

	*n = 0;
	for (unsigned int cpu = 0; cpu < NCPU; cpu++)
		*n += nrec[cpu];
	p = xcalloc(*n, sizeof(*p));
	for (unsigned int cpu = 0; cpu < NCPU; cpu++)
		for (unsigned int i = 0; i < nrec[cpu]; i++) {
			p[k].cpu = cpu;
			make_record(cpu, i, &p[k++].r);
		}
	qsort(p, *n, sizeof(*p), by_ts);
	return p;
}

/* The warning babeltrace2 gives for a gap, up to " in trace". */
static void expected_warning(const struct rec_info *ri, const struct synth_gap *g,
			     uint64_t count, char *buf, size_t size)
{
	struct sched_relay_record a, b;
	char t1[32], t2[32];
	uint64_t from, to;

	if (g->before == 0) {		/* from the recording's start */
		make_record(g->cpu, 0, &b);
		from = ri->start_mono < b.ts ? ri->start_mono : b.ts;
		to = b.ts;
	} else if (g->before < 0) {	/* to the recording's end */
		make_record(g->cpu, nrec[g->cpu] - 1, &a);
		from = a.ts;
		to = ri->end_ts[g->cpu];
	} else {
		make_record(g->cpu, (unsigned int)g->before - 1, &a);
		make_record(g->cpu, (unsigned int)g->before, &b);
		from = a.ts;
		to = b.ts;
	}
	wall(ri, from, t1, sizeof(t1));
	wall(ri, to, t2, sizeof(t2));
	snprintf(buf, size, "WARNING: Tracer discarded %" PRIu64 " event%s "
		 "between [%s] and [%s] in trace", count, count == 1 ? "" : "s",
		 t1, t2);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* ---- tests ---------------------------------------------------------- */

/* (check_int() evaluates its operands twice: calls go in variables.) */

static struct rec_info info;

static void test_export_succeeds(void)
{
	int rc;

	write_recording(tmp_path("gaps.rec"), true);
	rc = read_info(tmp_path("gaps.rec"), &info);
	check_int(rc, ==, 0);
	rc = export_ctf(tmp_path("gaps.rec"), tmp_path("gaps.ctf"));
	check_int(rc, ==, 0);
	for (unsigned int cpu = 0; cpu < NCPU; cpu++) {
		char name[32];
		struct stat st;

		snprintf(name, sizeof(name), "gaps.ctf/cpu%u", cpu);
		rc = stat(tmp_path(name), &st);
		check_int(rc, ==, 0);
	}
}

static void test_events_match(void)
{
	struct lines out, err;
	struct planned *p;
	size_t n, bad = 0;
	char want[MAX_LINE];
	int rc = babeltrace2(tmp_path("gaps.ctf"), &out, &err);

	check_int(rc, ==, 0);
	p = plan_records(&n);
	check_uint(n, ==, info.records);
	check_uint(out.n, ==, info.records);
	for (size_t i = 0; i < n && i < out.n; i++) {
		expected_line(&info, p[i].cpu, &p[i].r, want, sizeof(want));
		if (strcmp(out.line[i], want) && bad++ < 5) {
			test_msg("line %zu:    got %s", i + 1, out.line[i]);
			test_msg("line %zu: wanted %s", i + 1, want);
		}
	}
	check_uint(bad, ==, 0);
	free(p);
	free_lines(&out);
	free_lines(&err);
}

static void test_drops_where_they_happened(void)
{
	struct lines out, err;
	bool used[64] = { false };
	uint64_t reported[NCPU] = { 0 };
	int rc = babeltrace2(tmp_path("gaps.ctf"), &out, &err);

	check_int(rc, ==, 0);
	/* one warning per gap: drops and losses at one place are one */
	check_uint(err.n, ==, ARRAY_SIZE(gaps));
	for (size_t g = 0; g < ARRAY_SIZE(gaps); g++) {
		const struct synth_gap *gp = &gaps[g];
		uint64_t count = gp->dropped + gp->lost;
		char want[512], tail[128];
		bool found = false;

		expected_warning(&info, gp, count, want, sizeof(want));
		snprintf(tail, sizeof(tail), "/cpu%u\" (stream class ID: 0, "
			 "stream ID: %u).", gp->cpu, gp->cpu);
		for (size_t i = 0; i < err.n && i < ARRAY_SIZE(used); i++)
			if (!used[i] && starts_with(err.line[i], want) &&
			    ends_with(err.line[i], tail)) {
				used[i] = found = true;
				reported[gp->cpu] += count;
				break;
			}
		if (!check(found))
			test_msg("no warning: %s ... %s", want, tail);
	}
	for (size_t i = 0; i < err.n && i < ARRAY_SIZE(used); i++)
		if (!check(used[i]))
			test_msg("unexpected: %s", err.line[i]);
	for (unsigned int cpu = 0; cpu < NCPU; cpu++)
		check_uint(reported[cpu], ==, info.dropped[cpu] + info.lost[cpu]);
	check_uint(info.dropped[0] + info.lost[0], ==, 4 + 3 + 2 + 5);
	free_lines(&out);
	free_lines(&err);
}

static void test_no_drops_no_warning(void)
{
	struct lines out, err;
	struct rec_info ri;
	int rc;

	write_recording(tmp_path("clean.rec"), false);
	rc = read_info(tmp_path("clean.rec"), &ri);
	check_int(rc, ==, 0);
	rc = export_ctf(tmp_path("clean.rec"), tmp_path("clean.ctf"));
	check_int(rc, ==, 0);
	rc = babeltrace2(tmp_path("clean.ctf"), &out, &err);
	check_int(rc, ==, 0);
	check_uint(out.n, ==, ri.records);
	check_uint(err.n, ==, 0);
	for (size_t i = 0; i < err.n && i < 5; i++)
		test_msg("unexpected: %s", err.line[i]);
	free_lines(&out);
	free_lines(&err);
}

static bool file_has(const char *path, const char *text)
{
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, text) != NULL;
}

static void test_metadata(void)
{
	const char *md = tmp_path("gaps.ctf/metadata");

	check(file_has(md, "/* CTF 1.8 */"));
	check(file_has(md, "freq = 1000000000;"));
	check(file_has(md, "description = \"CLOCK_MONOTONIC in ns"));
	check(file_has(md, "domain = \"kernel\";"));
	check(file_has(md, "uint64_t events_discarded;"));
	check(file_has(md, "uint64_t packet_seq_num;"));
	check(file_has(md, "uint32_t cpu_id;"));
	check(file_has(md, "ctf_char prev_comm[16];"));
	check(file_has(md, "int64_t prev_state;"));
}

static void trace_uuid(const char *metadata, char *buf, size_t size)
{
	char line[256];
	FILE *f = fopen(metadata, "r");

	snprintf(buf, size, "(none)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "\tuuid = ", 8)) {
			snprintf(buf, size, "%s", line + 8);
			break;
		}
	fclose(f);
}

static void test_deterministic(void)
{
	char cmd[1024], u1[64], u2[64];
	int rc = export_ctf(tmp_path("gaps.rec"), tmp_path("again.ctf"));

	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && for f in gaps.ctf/*; do "
		 "cmp -s \"$f\" \"again.ctf/${f#gaps.ctf/}\" || exit 1; done",
		 tmpdir);
	rc = system(cmd);
	check_int(rc, ==, 0);
	/* babeltrace2 merges the traces of one UUID: another recording
	 * must have another */
	trace_uuid(tmp_path("gaps.ctf/metadata"), u1, sizeof(u1));
	trace_uuid(tmp_path("clean.ctf/metadata"), u2, sizeof(u2));
	check(strcmp(u1, "(none)") != 0);
	check(strcmp(u1, u2) != 0);
}

static int count_entries(const char *dir)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' 2>/dev/null | wc -l", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void test_bad_input(void)
{
	struct stat st;
	FILE *f;
	int rc, n;

	/* a directory with something in it is left alone */
	rc = export_ctf(tmp_path("clean.rec"), tmp_path("gaps.ctf"));
	check_int(rc, ==, 1);
	n = count_entries(tmp_path("gaps.ctf"));
	check_int(n, ==, 1 + NCPU);
	check(file_has(tmp_path("gaps.ctf/metadata"), "gaps.rec"));
	/* a missing recording: no directory is created */
	rc = export_ctf(tmp_path("missing.rec"), tmp_path("m.ctf"));
	check_int(rc, ==, 1);
	rc = stat(tmp_path("m.ctf"), &st);
	check_int(rc, ==, -1);
	/* not a recording */
	f = fopen(tmp_path("junk.rec"), "w");
	fputs("this is not a recording\n", f);
	fclose(f);
	rc = export_ctf(tmp_path("junk.rec"), tmp_path("j.ctf"));
	check_int(rc, ==, 1);
	rc = stat(tmp_path("j.ctf"), &st);
	check_int(rc, ==, -1);
	/* an empty directory is used */
	rc = mkdir(tmp_path("empty.ctf"), 0755);
	check_int(rc, ==, 0);
	rc = export_ctf(tmp_path("clean.rec"), tmp_path("empty.ctf"));
	check_int(rc, ==, 0);
	n = count_entries(tmp_path("empty.ctf"));
	check_int(n, ==, 1 + NCPU);
	/* a file is not a directory */
	rc = export_ctf(tmp_path("clean.rec"), tmp_path("junk.rec"));
	check_int(rc, ==, 1);
}

/* A damaged record's time going backwards: readable, at its predecessor's. */
static void test_time_backwards(void)
{
	static const uint64_t dt[] = { 1000, 3000, 2000, 4000 };
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 1,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct sched_relay_record recs[ARRAY_SIZE(dt)];
	struct subbuf_chunk c = {
		.cpu = 0, .generation = 1, .offset = 64, .recs = recs,
		.nrec = ARRAY_SIZE(dt),
	};
	struct recorder *rec = recorder_create(tmp_path("back.rec"), &meta);
	struct lines out, err;
	struct rec_info ri;
	char want[MAX_LINE];
	int rc;

	if (!check(rec != NULL))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(dt); i++) {
		make_record(0, (unsigned int)i * SCHED_RELAY_NR_EVENTS, &recs[i]);
		recs[i].ts = base_ts + dt[i];
	}
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
	rc = recorder_finish(rec);
	check_int(rc, ==, 0);
	recorder_free(rec);
	rc = read_info(tmp_path("back.rec"), &ri);
	check_int(rc, ==, 0);
	rc = export_ctf(tmp_path("back.rec"), tmp_path("back.ctf"));
	check_int(rc, ==, 0);
	rc = babeltrace2(tmp_path("back.ctf"), &out, &err);
	check_int(rc, ==, 0);
	check_uint(out.n, ==, ARRAY_SIZE(dt));
	check_uint(err.n, ==, 0);
	recs[2].ts = recs[1].ts;
	expected_line(&ri, 0, &recs[2], want, sizeof(want));
	if (out.n > 2)
		check_str(out.line[2], want);
	free_lines(&out);
	free_lines(&err);
}

/*
 * A timestamp no CTF reader can place (past INT64_MAX ns less the clock's
 * offset: a flipped top bit, which no format 3 CRC covers) is left out,
 * counted as a discarded event at its place, and the export fails saying
 * so; the records around it, and one exactly at the limit, are exported
 * and babeltrace2 reads the trace.  Before, the export said OK (status 0)
 * and babeltrace2 failed an assertion reading the trace.
 */
static void test_time_beyond_ctf(void)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 1,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct sched_relay_record recs[4];
	struct subbuf_chunk c = {
		.cpu = 0, .generation = 1, .offset = 64, .recs = recs,
		.nrec = ARRAY_SIZE(recs),
	};
	struct recorder *rec = recorder_create(tmp_path("far.rec"), &meta);
	struct record_file_header h;
	struct lines out, err;
	struct rec_info ri;
	char t1[32], t2[32], want[MAX_LINE];
	uint64_t max_ts;
	int rc;

	if (!check(rec != NULL))
		return;
	memcpy(&h, rec->buf, sizeof(h));	/* the header it wrote */
	max_ts = (uint64_t)INT64_MAX - (h.start_real_ns - h.start_mono_ns);
	for (size_t i = 0; i < ARRAY_SIZE(recs); i++)
		make_record(0, (unsigned int)i * SCHED_RELAY_NR_EVENTS, &recs[i]);
	recs[0].ts = base_ts + 1000;
	recs[1].ts = recs[0].ts | (1ull << 63);
	recs[2].ts = base_ts + 3000;
	recs[3].ts = max_ts;
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
	check_int(recorder_finish(rec), ==, 0);
	recorder_free(rec);
	rc = export_ctf(tmp_path("far.rec"), tmp_path("far.ctf"));
	check_int(rc, ==, 1);
	rc = babeltrace2(tmp_path("far.ctf"), &out, &err);
	check_int(rc, ==, 0);
	check_uint(out.n, ==, 3);
	check_uint(err.n, ==, 1);
	if (err.n && read_info(tmp_path("far.rec"), &ri) == 0) {
		/* at its place: between the records around it */
		wall(&ri, recs[0].ts, t1, sizeof(t1));
		wall(&ri, recs[2].ts, t2, sizeof(t2));
		snprintf(want, sizeof(want), "WARNING: Tracer discarded 1 "
			 "event between [%s] and [%s] in trace", t1, t2);
		if (!check(starts_with(err.line[0], want)))
			test_msg("%s\nwanted: %s", err.line[0], want);
	}
	free_lines(&out);
	free_lines(&err);
}

static void test_truncated(void)
{
	struct lines out, err;
	struct rec_info ri;
	char cmd[512];
	struct stat st;
	int rc;

	rc = stat(tmp_path("gaps.rec"), &st);
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "head -c %lld '%s' >'%s'",
		 (long long)st.st_size / 2, tmp_path("gaps.rec"),
		 tmp_path("half.rec"));
	rc = system(cmd);
	check_int(rc, ==, 0);
	rc = read_info(tmp_path("half.rec"), &ri);
	check_int(rc, ==, 0);
	check_uint(ri.records, >, 0);
	check_uint(ri.records, <, info.records);
	rc = export_ctf(tmp_path("half.rec"), tmp_path("half.ctf"));
	check_int(rc, ==, 1);
	rc = babeltrace2(tmp_path("half.ctf"), &out, &err);
	check_int(rc, ==, 0);
	check_uint(out.n, ==, ri.records);
	free_lines(&out);
	free_lines(&err);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	if (!have_babeltrace2()) {
		TEST(check(!"babeltrace2 is not installed (run 'make deps')"),
		     "babeltrace2 is installed");
		return test_done();
	}
	TEST(test_export_succeeds(), "a recording with gaps exports to a trace "
	     "with one stream file per CPU");
	TEST(test_events_match(), "babeltrace2 prints every recorded event "
	     "once, at its time, with the kernel's field names and values");
	TEST(test_drops_where_they_happened(), "babeltrace2 warns of each "
	     "gap's drops and losses in its CPU's stream between the records "
	     "around it, and of nothing else");
	TEST(test_no_drops_no_warning(), "a recording without drops gives a "
	     "trace without warnings");
	TEST(test_metadata(), "the metadata declares CTF 1.8, a ns "
	     "CLOCK_MONOTONIC clock and the packet fields");
	TEST(test_deterministic(), "the same recording gives the same trace, "
	     "another recording another trace UUID");
	TEST(test_bad_input(), "bad input is an error that leaves no trace "
	     "and touches no existing one");
	TEST(test_time_backwards(), "an event earlier than the one before it "
	     "is written at that one's time, so babeltrace2 reads the trace");
	TEST(test_time_beyond_ctf(), "a timestamp CTF cannot express is left "
	     "out, counted as discarded, and the export fails");
	TEST(test_truncated(), "a truncated recording exports the events "
	     "before the damage and fails");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		test_msg("could not remove %s", tmpdir);
	return test_done();
}

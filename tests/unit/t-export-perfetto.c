// SPDX-License-Identifier: GPL-2.0
/*
 * t-export-perfetto.c - pins relaytop --export-perfetto
 * (relaytop/export_perfetto.c, docs/export.md):
 * - the output is JSON that `python3 -m json.tool` accepts, with only the
 *   top-level keys Perfetto's importer knows (it stops at any other);
 * - one thread track per CPU ("CPU n" in process "sched_relay CPUs"), and
 *   per CPU a rate counter whose integral is the CPU's event count and a
 *   missing-events counter that ends at the recording's drops and losses;
 * - a scripted CPU gives exactly the expected task slices from its
 *   sched_switch events (names, times, pids, end states; none for the
 *   idle task; cut at a gap and resumed after it), instants for the other
 *   events with the kernel's field names, and gap slices where the events
 *   went missing (up to the recording's end for drops after the last
 *   record); task names that are not UTF-8 still give valid JSON;
 * - systemTraceEvents holds one ftrace text line per event, each in the
 *   form Perfetto's systrace tokenizer accepts, and gaps as comments;
 * - "-" writes the same JSON to standard output;
 * - bad input is an error that creates no file and leaves an existing one
 *   alone; a truncated recording exports what is before the damage and
 *   fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_perfetto.h"
#include "record_merge.h"
#include "record_writer.h"
#include "synth-recording.h"
#include "test-lib.h"
#include "util.h"

#define NCPU 5
#define CHUNK 50
#define MAX_LINE 1024

static char tmpdir[] = "/tmp/t-export-perfetto.XXXXXX";

static const char *tmp_path(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", tmpdir, name);
	return path[i];
}

/* ---- the recording -------------------------------------------------- */

static uint64_t base_ts;

/* CPU 0: a script with known slices; its gap is before record 6. */
#define BAD_COMM "bad\xffname\"q"
#define SCRIPT_GAP 6

struct script_rec {
	uint64_t dt;		/* ns after base_ts */
	uint8_t type;
	const char *comm;
	int32_t pid;
	uint8_t prio;
	uint8_t state;
	const char *comm2;
	int32_t pid2;
	uint8_t prio2;
};

static const struct script_rec script[] = {
	{ 1000, SCHED_RELAY_WAKEUP, "w1", 50, 120, 0, "", 0, 0 },
	{ 2000, SCHED_RELAY_SWITCH, "A", 10, 120, SCHED_RELAY_STATE_SLEEPING,
	  "B", 11, 110 },
	{ 3000, SCHED_RELAY_WAKEUP, "x", 51, 120, 0, "", 0, 0 },
	{ 4000, SCHED_RELAY_SWITCH, "B", 11, 110, SCHED_RELAY_STATE_PREEMPTED,
	  "swapper/0", 0, 120 },
	{ 5000, SCHED_RELAY_SWITCH, "swapper/0", 0, 120, 0, BAD_COMM, 12, 100 },
	{ 6000, SCHED_RELAY_FORK, BAD_COMM, 12, 100, 0, "kid", 13, 100 },
	/* 3 dropped and 2 lost here */
	{ 9000, SCHED_RELAY_MIGRATE, "m", 60, 120, 0, "", 0, 0 },
	{ 10000, SCHED_RELAY_SWITCH, BAD_COMM, 12, 100, SCHED_RELAY_STATE_DISK,
	  "D", 14, 120 },
	{ 12000, SCHED_RELAY_EXIT, "D", 14, 120, 0, "", 0, 0 },
};

/* What the JSON's task slices on CPU 0 must be ("-": no end_state). */
static const struct {
	uint64_t from, to;
	const char *name;	/* as json.dumps() writes it */
	int32_t pid;
	const char *end_state;
} script_slices[] = {
	{ 1000, 2000, "\"A\"", 10, "S" },
	{ 2000, 4000, "\"B\"", 11, "R+" },
	{ 5000, 6000, "\"bad\\u00ffname\\\"q\"", 12, "-" },
	{ 9000, 10000, "\"bad\\u00ffname\\\"q\"", 12, "D" },
	{ 10000, 12000, "\"D\"", 14, "-" },
};

/* CPUs 1-3: every event type, with gaps; CPU 4 records nothing. */
static const unsigned int nrec[NCPU] = { ARRAY_SIZE(script), 2000, 1500,
					 800, 0 };

static void make_record(unsigned int cpu, unsigned int i,
			struct sched_relay_record *r)
{
	memset(r, 0, sizeof(*r));
	r->event_seq = i;
	if (cpu == 0) {
		const struct script_rec *s = &script[i];
		bool two = s->type == SCHED_RELAY_SWITCH ||
			   s->type == SCHED_RELAY_FORK;

		r->ts = base_ts + s->dt;
		r->type = s->type;
		r->pid = s->pid;
		r->tgid = s->pid;
		r->prio = s->prio;
		r->state = s->state;
		r->pid2 = s->pid2;
		r->tgid2 = two ? s->pid2 : 0;
		r->prio2 = s->prio2;
		strncpy(r->comm, s->comm, sizeof(r->comm));
		if (two) {
			strncpy(r->comm2, s->comm2, sizeof(r->comm2));
		} else {
			r->target_cpu = r->orig_cpu = (uint16_t)cpu;
			if (s->type == SCHED_RELAY_MIGRATE)
				r->target_cpu = 1;
		}
		return;
	}
	/* 100 us apart: CPU 1 spans two rate bins */
	r->ts = base_ts + 20000 + (uint64_t)i * 100000 + cpu * 10;
	r->type = (uint8_t)((i + cpu) % SCHED_RELAY_NR_EVENTS);
	r->pid = (int32_t)(1000 * cpu + i + 1);
	r->pid2 = r->pid + 1;
	r->tgid = r->pid;
	r->prio = 120;
	snprintf(r->comm, sizeof(r->comm), "task%u-%u", cpu % 10, i % 100000);
	if (r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK) {
		r->prio2 = 120;
		r->tgid2 = r->pid2;
		snprintf(r->comm2, sizeof(r->comm2), "task%u-%u", cpu % 10,
			 (i + 1) % 100000);
	} else {
		r->target_cpu = (uint16_t)((cpu + 1) % NCPU);
		r->orig_cpu = (uint16_t)cpu;
	}
}

static const struct synth_gap gaps[] = {
	{ 0, SCRIPT_GAP, 3, 2 },
	{ 1, 100, 4, 0 },
	{ 2, 0, 0, 5 },
	{ 3, -1, 6, 0 },
};

static void write_recording(const char *path)
{
	struct synth_recording spec = {
		.ncpus = NCPU, .nrec = nrec, .chunk = CHUNK, .generation = 1,
		.base_ts = &base_ts, .make_record = make_record,
		.gaps = gaps, .ngaps = ARRAY_SIZE(gaps),
	};

	synth_write_recording(path, &spec);
}

/* ---- reading the JSON back (python3) -------------------------------- */

/*
 * Prints one fact a line: the top-level keys, the process and thread
 * names, every task slice and gap slice, the instants per CPU and name,
 * the counters' track names (as Perfetto names them: name, space, arg),
 * each rate counter's integral and each missing-events counter's last
 * value, and the systemTraceEvents lines per CPU and event as Perfetto's
 * systrace tokenizer splits them.
 */
static const char checker[] =
"import json, re, sys\n"
"from collections import defaultdict\n"
"from decimal import Decimal\n"
"d = json.load(open(sys.argv[1]), parse_float=Decimal)\n"
"cpus = int(sys.argv[2])\n"
"def ns(us): return int(us * 1000)\n"
"print('keys', ','.join(sorted(d.keys())))\n"
"tid2cpu = {}\n"
"bad = 0\n"
"inst = defaultdict(int)\n"
"tracks = set()\n"
"samples = defaultdict(list)\n"
"for e in d['traceEvents']:\n"
"    if e['ph'] != 'M' and not all(k in e for k in ('pid', 'tid', 'ts')):\n"
"        bad += 1\n"
"        continue\n"
"    if e['ph'] == 'M' and e['name'] == 'process_name':\n"
"        print('process', e['pid'], e['args']['name'])\n"
"    if e['ph'] == 'M' and e['name'] == 'thread_name':\n"
"        print('thread', e['pid'], e['tid'], e['args']['name'])\n"
"        tid2cpu[e['tid']] = int(e['args']['name'].split()[1])\n"
"for e in d['traceEvents']:\n"
"    if e['ph'] == 'M' or 'tid' not in e:\n"
"        continue\n"
"    cpu = tid2cpu.get(e['tid'], -1)\n"
"    if e['ph'] == 'X' and e['cat'] == 'sched':\n"
"        a = e['args']\n"
"        print('slice', cpu, ns(e['ts']), ns(e['dur']),\n"
"              json.dumps(e['name']), a['pid'], a.get('end_state', '-'))\n"
"    elif e['ph'] == 'X':\n"
"        print('gap', cpu, ns(e['ts']), ns(e['dur']), e['name'])\n"
"    elif e['ph'] == 'i':\n"
"        inst[(cpu, e['name'])] += 1\n"
"        if cpu == 0:\n"
"            print('instant0', ns(e['ts']), e['name'],\n"
"                  json.dumps(e['args'], sort_keys=True))\n"
"    elif e['ph'] == 'C':\n"
"        for k, v in e['args'].items():\n"
"            tracks.add(e['name'] + ' ' + k)\n"
"            samples[(cpu, e['name'], k)].append((ns(e['ts']), v))\n"
"for (cpu, name), n in sorted(inst.items()):\n"
"    print('instants', cpu, name, n)\n"
"for t in sorted(tracks):\n"
"    print('track', t)\n"
"for (cpu, name, k), s in sorted(samples.items()):\n"
"    s.sort(key=lambda x: x[0])\n"
"    if k == 'events/s':\n"
"        area = sum(v * (s[i + 1][0] - s[i][0]) for i, (t, v) in\n"
"                   enumerate(s[:-1])) / Decimal(10**9)\n"
"        print('rate', cpu, area, s[-1][1])\n"
"    else:\n"
"        print('missing', cpu, k, s[-1][1])\n"
"line_re = re.compile(r'-(\\d+)\\s+\\(?\\s*(\\d+|-+)?\\)?\\s?\\[(\\d+)\\]\\s*'\n"
"                     r'[a-zA-Z0-9.]{0,4}\\s+(\\d+\\.\\d+):\\s+(\\S+):')\n"
"lines = defaultdict(int)\n"
"for l in d['systemTraceEvents'].split('\\n'):\n"
"    if not l:\n"
"        continue\n"
"    if l.startswith('#'):\n"
"        if l.startswith('# CPU:'):\n"
"            print('textgap', l)\n"
"        continue\n"
"    m = line_re.search(l)\n"
"    if not m:\n"
"        bad += 1\n"
"        print('badline', l)\n"
"        continue\n"
"    lines[(int(m.group(3)), m.group(5))] += 1\n"
"for (cpu, name), n in sorted(lines.items()):\n"
"    print('text', cpu, name, n)\n"
"print('bad', bad)\n";

struct facts {
	char **line;
	size_t n;
};

static int read_facts(const char *json, struct facts *f)
{
	char cmd[1024], buf[MAX_LINE];
	FILE *p;
	int rc;

	memset(f, 0, sizeof(*f));
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' %d 2>&1",
		 tmp_path("check.py"), json, NCPU);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(buf, sizeof(buf), p)) {
		buf[strcspn(buf, "\n")] = '\0';
		f->line = realloc(f->line, (f->n + 1) * sizeof(*f->line));
		f->line[f->n++] = xstrdup(buf);
	}
	rc = pclose(p);
	if (rc)
		for (size_t i = 0; i < f->n && i < 20; i++)
			test_msg("python3: %s", f->line[i]);
	return rc;
}

static void free_facts(struct facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->line[i]);
	free(f->line);
	memset(f, 0, sizeof(*f));
}

static bool has(const struct facts *f, const char *line)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->line[i], line))
			return true;
	return false;
}

/* Lines starting with prefix. */
static size_t count(const struct facts *f, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += !strncmp(f->line[i], prefix, strlen(prefix));
	return n;
}

static bool check_fact(const struct facts *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool check_fact(const struct facts *f, const char *fmt, ...)
{
	char want[MAX_LINE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (has(f, want))
		return true;
	test_msg("missing from the JSON: %s", want);
	return false;
}

/* ---- tests ---------------------------------------------------------- */

/* (check_int() evaluates its operands twice: calls go in variables.) */

static struct facts facts;
static struct record_stream_summary {
	uint64_t records[NCPU];
	uint64_t dropped[NCPU];
	uint64_t lost[NCPU];
	uint64_t end_ts[NCPU];
	uint64_t start_mono;
} sum;

static int summarize(const char *path)
{
	struct record_stream s;

	memset(&sum, 0, sizeof(sum));
	if (record_stream_open(&s, path)) {
		test_msg("%s", s.rd.error);
		record_stream_close(&s);
		return -1;
	}
	sum.start_mono = s.rd.hdr.start_mono_ns;
	for (unsigned int cpu = 0; cpu < NCPU && cpu < s.rd.ncpus; cpu++) {
		sum.records[cpu] = s.rd.summary[cpu].records;
		sum.dropped[cpu] = s.rd.summary[cpu].dropped;
		sum.lost[cpu] = s.rd.summary[cpu].lost;
		sum.end_ts[cpu] = s.rd.summary[cpu].end_ts;
	}
	record_stream_close(&s);
	return 0;
}

static void test_json_parses(void)
{
	char cmd[1024];
	FILE *f;
	int rc;

	write_recording(tmp_path("gaps.rec"));
	rc = summarize(tmp_path("gaps.rec"));
	check_int(rc, ==, 0);
	rc = export_perfetto(tmp_path("gaps.rec"), tmp_path("gaps.json"));
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool '%s' >/dev/null",
		 tmp_path("gaps.json"));
	rc = system(cmd);
	check_int(rc, ==, 0);
	f = fopen(tmp_path("check.py"), "w");
	fputs(checker, f);
	fclose(f);
	rc = read_facts(tmp_path("gaps.json"), &facts);
	check_int(rc, ==, 0);
	check_fact(&facts, "keys displayTimeUnit,otherData,systemTraceEvents,"
		   "traceEvents");
	check_fact(&facts, "bad 0");
}

static void test_tracks(void)
{
	check_fact(&facts, "process %u sched_relay CPUs", PERFETTO_CPUS_PID);
	check_uint(count(&facts, "thread "), ==, NCPU);
	check_uint(count(&facts, "track "), ==, 3 * NCPU);
	for (unsigned int cpu = 0; cpu < NCPU; cpu++) {
		check_fact(&facts, "thread %u %u CPU %u", PERFETTO_CPUS_PID,
			   perfetto_cpu_tid(cpu), cpu);
		check_fact(&facts, "track CPU %u event rate events/s", cpu);
		check_fact(&facts, "track CPU %u missing events dropped", cpu);
		check_fact(&facts, "track CPU %u missing events lost", cpu);
	}
}

static void test_counters(void)
{
	for (unsigned int cpu = 0; cpu < NCPU; cpu++) {
		/* the area under the rate is the event count; it ends at 0 */
		check_fact(&facts, "rate %u %" PRIu64 " 0", cpu,
			   sum.records[cpu]);
		check_fact(&facts, "missing %u dropped %" PRIu64, cpu,
			   sum.dropped[cpu]);
		check_fact(&facts, "missing %u lost %" PRIu64, cpu,
			   sum.lost[cpu]);
	}
	check_uint(sum.records[1], ==, nrec[1]);
	check_uint(sum.dropped[0] + sum.lost[0], ==, 5);
	check_uint(sum.dropped[3], ==, 6);
}

static void test_script_slices(void)
{
	check_uint(count(&facts, "slice 0 "), ==, ARRAY_SIZE(script_slices));
	for (size_t i = 0; i < ARRAY_SIZE(script_slices); i++)
		check_fact(&facts, "slice 0 %" PRIu64 " %" PRIu64 " %s %d %s",
			   base_ts + script_slices[i].from,
			   script_slices[i].to - script_slices[i].from,
			   script_slices[i].name, script_slices[i].pid,
			   script_slices[i].end_state);
	check_fact(&facts, "gap 0 %" PRIu64 " 3000 3 events dropped",
		   base_ts + 6000);
	check_fact(&facts, "gap 0 %" PRIu64 " 3000 2 events lost",
		   base_ts + 6000);
	/* the instants carry the kernel's field names */
	check_fact(&facts, "instant0 %" PRIu64 " sched_wakeup {\"comm\": "
		   "\"w1\", \"pid\": 50, \"prio\": 120, \"target_cpu\": 0, "
		   "\"tgid\": 50}",
		   base_ts + 1000);
	check_fact(&facts, "instant0 %" PRIu64 " sched_process_fork "
		   "{\"child_comm\": \"kid\", \"child_pid\": 13, \"child_tgid\": "
		   "13, \"parent_comm\": \"bad\\u00ffname\\\"q\", \"parent_pid\": "
		   "12, \"parent_tgid\": 12}",
		   base_ts + 6000);
	check_fact(&facts, "instant0 %" PRIu64 " sched_migrate_task "
		   "{\"comm\": \"m\", \"dest_cpu\": 1, \"orig_cpu\": 0, "
		   "\"pid\": 60, \"prio\": 120, \"tgid\": 60}", base_ts + 9000);
	check_fact(&facts, "instant0 %" PRIu64 " sched_process_exit "
		   "{\"comm\": \"D\", \"pid\": 14, \"prio\": 120, \"tgid\": 14}",
		   base_ts + 12000);
	check_uint(count(&facts, "instant0 "), ==, 5);
}

static void test_bulk_cpus(void)
{
	static const char *const names[] = {
		"sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
		"sched_process_fork", "sched_process_exit", "sched_waking",
	};
	struct sched_relay_record r;

	for (unsigned int cpu = 1; cpu < 4; cpu++) {
		unsigned int per_type[SCHED_RELAY_NR_EVENTS] = { 0 };

		for (unsigned int i = 0; i < nrec[cpu]; i++) {
			make_record(cpu, i, &r);
			per_type[r.type]++;
		}
		for (unsigned int t = 1; t < SCHED_RELAY_NR_EVENTS; t++)
			check_fact(&facts, "instants %u %s %u", cpu,
				   names[t - 1], per_type[t]);
		for (unsigned int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
			check_fact(&facts, "text %u %s %u", cpu,
				   t ? names[t - 1] : "sched_switch",
				   per_type[t]);
	}
	/* the gap before CPU 1's record 100, and CPU 2's before its first,
	 * which starts at the recording's start */
	make_record(1, 99, &r);
	check_fact(&facts, "gap 1 %" PRIu64 " 100000 4 events dropped",
		   (uint64_t)r.ts);
	make_record(2, 0, &r);
	check_fact(&facts, "gap 2 %" PRIu64 " %" PRIu64 " 5 events lost",
		   sum.start_mono, (uint64_t)(r.ts - sum.start_mono));
	/* CPU 3's drops after its last record: up to the recording's end */
	make_record(3, nrec[3] - 1, &r);
	check_uint(sum.end_ts[3], >, r.ts);
	check_fact(&facts, "gap 3 %" PRIu64 " %" PRIu64 " 6 events dropped",
		   (uint64_t)r.ts, (uint64_t)(sum.end_ts[3] - r.ts));
	check_uint(count(&facts, "gap "), ==, 5);
	check_fact(&facts, "textgap # CPU:1 [4 EVENTS DROPPED]");
	check_fact(&facts, "textgap # CPU:2 [5 EVENTS LOST]");
	check_fact(&facts, "textgap # CPU:3 [6 EVENTS DROPPED]");
	check_fact(&facts, "text 0 sched_switch 4");
}

static void test_stdout(void)
{
	char cmd[1024];
	int saved, fd, rc;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(tmp_path("stdout.json"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	rc = export_perfetto(tmp_path("gaps.rec"), "-");
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", tmp_path("gaps.json"),
		 tmp_path("stdout.json"));
	rc = system(cmd);
	check_int(rc, ==, 0);
}

/* A switch from prev to next (pid 0: the idle task) at ts. */
static struct sched_relay_record switch_rec(uint64_t ts, const char *prev,
					    int32_t pid, uint8_t state,
					    const char *next, int32_t pid2)
{
	struct sched_relay_record r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = SCHED_RELAY_SWITCH;
	r.pid = r.tgid = pid;
	r.pid2 = r.tgid2 = pid2;
	r.prio = r.prio2 = 120;
	r.state = state;
	strncpy(r.comm, prev, sizeof(r.comm));
	strncpy(r.comm2, next, sizeof(r.comm2));
	return r;
}

static struct sched_relay_record wakeup_rec(uint64_t ts, int32_t pid)
{
	struct sched_relay_record r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = SCHED_RELAY_WAKEUP;
	r.pid = r.tgid = pid;
	r.prio = 120;
	strncpy(r.comm, "w", sizeof(r.comm));
	return r;
}

/*
 * A reset (a RESTART block) between two sched_switch events: the slice of
 * the task running across it ends at the last record before the reset
 * (no end state: cut short), and after it the task runs again only from
 * the first record of the new generation on, not across the reset.
 */
static void test_reset_cuts_slices(void)
{
	struct record_meta meta = {
		.channel = "c", .nr_cpus = 1, .geom = { 4096, 8 },
		.events = SCHED_RELAY_ALL_EVENTS, .flags = RECORD_F_ENABLED,
		.generation = 1,
	};
	uint64_t t0 = mono_ns() + 1000000, newest;
	struct sched_relay_record before[3] = {
		switch_rec(t0 + 1000, "A", 10, SCHED_RELAY_STATE_SLEEPING, "B", 11),
		switch_rec(t0 + 2000, "B", 11, SCHED_RELAY_STATE_SLEEPING, "C", 12),
		wakeup_rec(t0 + 2500, 50),
	}, after[3] = {
		wakeup_rec(t0 + 4000, 51),
		switch_rec(t0 + 5000, "C", 12, SCHED_RELAY_STATE_SLEEPING, "D", 13),
		switch_rec(t0 + 6000, "D", 13, SCHED_RELAY_STATE_DISK, "swapper/0", 0),
	};
	struct subbuf_chunk c1 = { .cpu = 0, .seq = 0, .generation = 1,
				   .nrec = 3, .offset = 64, .recs = before };
	struct subbuf_chunk c2 = { .cpu = 0, .seq = 0, .generation = 2,
				   .nrec = 3, .offset = 64, .recs = after };
	struct recorder *w = recorder_create(tmp_path("reset.rec"), &meta);
	struct facts f;
	int rc;

	if (!check(w != NULL))
		return;
	recorder_track_cpu(w, 0, 0, 0, true);
	recorder_stage(w, &c1);
	recorder_settle(w, true);
	recorder_restart(w, 0, 2, 0);
	recorder_stage(w, &c2);
	recorder_settle(w, true);
	newest = after[2].ts;
	while (mono_ns() <= newest)
		usleep(100);
	rc = recorder_finish(w);
	check_int(rc, ==, 0);
	recorder_free(w);
	rc = export_perfetto(tmp_path("reset.rec"), tmp_path("reset.json"));
	check_int(rc, ==, 0);
	rc = read_facts(tmp_path("reset.json"), &f);
	check_int(rc, ==, 0);
	check_fact(&f, "slice 0 %" PRIu64 " 1000 \"B\" 11 S", t0 + 1000);
	check_fact(&f, "slice 0 %" PRIu64 " 500 \"C\" 12 -", t0 + 2000);
	check_fact(&f, "slice 0 %" PRIu64 " 1000 \"C\" 12 S", t0 + 4000);
	check_fact(&f, "slice 0 %" PRIu64 " 1000 \"D\" 13 D", t0 + 5000);
	check_uint(count(&f, "slice 0 "), ==, 4);
	check_uint(count(&f, "instant0 "), >=, 3);	/* 2 wakeups, the reset */
	if (test_failed())
		for (size_t i = 0; i < f.n; i++)
			test_msg("%s", f.line[i]);
	free_facts(&f);
}

static int count_entries(void)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", tmpdir);
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
	char buf[16] = "";
	int rc, before = count_entries(), after;

	rc = export_perfetto(tmp_path("missing.rec"), tmp_path("m.json"));
	check_int(rc, ==, 1);
	rc = stat(tmp_path("m.json"), &st);
	check_int(rc, ==, -1);
	/* an existing file is replaced only by a complete export */
	f = fopen(tmp_path("keep.json"), "w");
	fputs("keep", f);
	fclose(f);
	rc = export_perfetto(tmp_path("check.py"), tmp_path("keep.json"));
	check_int(rc, ==, 1);
	f = fopen(tmp_path("keep.json"), "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	check_str(buf, "keep");
	after = count_entries();
	check_int(after, ==, before + 1);	/* keep.json, no temp file */
	rc = export_perfetto(tmp_path("gaps.rec"), tmp_path("no/such.json"));
	check_int(rc, ==, 1);
}

static void test_truncated(void)
{
	struct facts half;
	char cmd[1024];
	struct stat st;
	int rc;

	rc = stat(tmp_path("gaps.rec"), &st);
	check_int(rc, ==, 0);
	snprintf(cmd, sizeof(cmd), "head -c %lld '%s' >'%s'",
		 (long long)st.st_size * 2 / 3, tmp_path("gaps.rec"),
		 tmp_path("part.rec"));
	rc = system(cmd);
	check_int(rc, ==, 0);
	rc = export_perfetto(tmp_path("part.rec"), tmp_path("part.json"));
	check_int(rc, ==, 1);
	rc = read_facts(tmp_path("part.json"), &half);
	check_int(rc, ==, 0);
	check(has(&half, "bad 0"));
	check_uint(count(&half, "thread "), ==, NCPU);
	free_facts(&half);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	if (system("python3 -c 'import json, decimal' 2>/dev/null")) {
		TEST(check(!"python3 is not installed (run 'make deps')"),
		     "python3 is installed");
		return test_done();
	}
	TEST(test_json_parses(), "the export is JSON with the top-level keys "
	     "Perfetto reads");
	TEST(test_tracks(), "one thread track per CPU, and a rate and a "
	     "missing-events counter per CPU");
	TEST(test_counters(), "rate counters integrate to each CPU's events; "
	     "missing-events counters end at its drops and losses");
	TEST(test_script_slices(), "sched_switch gives the running task's "
	     "slices, cut at gaps; other events are instants with the "
	     "kernel's field names; gaps are slices where they happened");
	TEST(test_bulk_cpus(), "every event is an instant or a text line "
	     "Perfetto's systrace tokenizer accepts, per CPU and type");
	TEST(test_reset_cuts_slices(), "a reset cuts the slice running across "
	     "it, and the next starts after it");
	TEST(test_stdout(), "'-' writes the same JSON to standard output");
	TEST(test_bad_input(), "bad input is an error that creates no file "
	     "and keeps an existing one");
	TEST(test_truncated(), "a truncated recording exports valid JSON of "
	     "what is before the damage and fails");
	free_facts(&facts);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		test_msg("could not remove %s", tmpdir);
	return test_done();
}

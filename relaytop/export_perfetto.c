// SPDX-License-Identifier: GPL-2.0
/*
 * export_perfetto.c - a recording as Chrome trace-event JSON (see
 * export_perfetto.h and docs/export.md).
 *
 * Two passes over the recording, so nothing is held in memory:
 *
 *   {"displayTimeUnit":"ns","otherData":{...},
 *    "traceEvents":[ ...pass 1... ],
 *    "systemTraceEvents":"# tracer: nop\n ...pass 2..."}
 *
 * Pass 1, per CPU track (thread "CPU n" of process "sched_relay CPUs"):
 * - the running task as a complete ("X") slice from the sched_switch that
 *   put it on the CPU to the one that took it off.  After a gap the task on
 *   the CPU is unknown; the slice of the task that the next sched_switch
 *   takes off starts at the first record after the gap, since nothing is
 *   missing from there on.  The idle task (pid 0) gets no slice.
 * - every other event as an instant with the tracepoint's fields as args;
 * - each gap as a slice "N events dropped" (or "lost") from the CPU's last
 *   record before it (or the recording's start) to the first after it (or
 *   the recording's end);
 * - counters: "CPU n event rate" (events/s over PERFETTO_RATE_BIN_NS bins,
 *   so rate x bin width summed is the CPU's event count) and
 *   "CPU n missing events" (cumulative dropped and lost).
 * Timestamps are CLOCK_MONOTONIC in microseconds with ns precision.
 *
 * Pass 2 writes the events as ftrace text (the format of trace_pipe and
 * `trace-cmd report`), one line each, with gaps as '#' comment lines, which
 * both viewers skip.
 */
#include "export_perfetto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events.h"
#include "fields.h"
#include "ftrace_text.h"
#include "json_text.h"
#include "record_merge.h"
#include "sched_model.h"
#include "util.h"

#define NS_PER_S UINT64_C(1000000000)

/* Nanoseconds as microseconds, the unit of "ts" and "dur". */
static void json_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

/* ---- pass 1: tracks ------------------------------------------------- */

/* Per CPU, what the tracks need beyond the scheduler model's. */
struct pf_cpu {
	uint64_t dropped;	/* cumulative, as the recording says */
	uint64_t lost;
	uint64_t pend_dropped;	/* a gap whose end is not known yet */
	uint64_t pend_lost;
	uint64_t gap_from;	/* where it began */
	uint64_t end_ts;	/* when the recording of this CPU ended, or 0 */
	uint64_t bin_count;	/* records in the current rate bin */
	double rate;		/* the rate counter's last value */
	bool rate_set;
};

struct pf_export {
	FILE *f;
	bool first;		/* no traceEvents element written yet */
	uint64_t t0;		/* the recording's start */
	unsigned int ncpus;
	struct pf_cpu *cpu;
	struct sched_model model;	/* who runs: the task slices */
	bool bins_started;
	uint64_t bin_start;
};

/* Start an event: {"ph":"X","pid":..,"tid":..,"ts":.. */
static void ev_begin(struct pf_export *ex, char ph, unsigned int cpu,
		     uint64_t ts)
{
	fprintf(ex->f, "%s{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"ts\":",
		ex->first ? "\n" : ",\n", ph, PERFETTO_CPUS_PID,
		perfetto_cpu_tid(cpu));
	json_us(ex->f, ts);
	ex->first = false;
}

static void put_metadata(struct pf_export *ex)
{
	fprintf(ex->f, "%s{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\","
		"\"args\":{\"name\":\"sched_relay CPUs\"}}", ex->first ? "\n" :
		",\n", PERFETTO_CPUS_PID);
	ex->first = false;
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		fprintf(ex->f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
			"\"name\":\"thread_name\",\"args\":{\"name\":\"CPU %u\"}}",
			PERFETTO_CPUS_PID, perfetto_cpu_tid(cpu), cpu);
		fprintf(ex->f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
			"\"name\":\"thread_sort_index\",\"args\":"
			"{\"sort_index\":%u}}", PERFETTO_CPUS_PID,
			perfetto_cpu_tid(cpu), cpu);
	}
}

static void put_rate(struct pf_export *ex, unsigned int cpu, uint64_t ts,
		     double rate)
{
	struct pf_cpu *c = &ex->cpu[cpu];

	if (c->rate_set && c->rate == rate)
		return;
	ev_begin(ex, 'C', cpu, ts);
	fprintf(ex->f, ",\"name\":\"CPU %u event rate\",\"args\":"
		"{\"events/s\":%.0f}}", cpu, rate);
	c->rate = rate;
	c->rate_set = true;
}

static void put_missing(struct pf_export *ex, unsigned int cpu, uint64_t ts)
{
	struct pf_cpu *c = &ex->cpu[cpu];

	ev_begin(ex, 'C', cpu, ts);
	fprintf(ex->f, ",\"name\":\"CPU %u missing events\",\"args\":"
		"{\"dropped\":%" PRIu64 ",\"lost\":%" PRIu64 "}}", cpu,
		c->dropped, c->lost);
}

/* The rate bin starting at bin_start is complete: a counter value each. */
static void flush_bin(struct pf_export *ex)
{
	const double per_s = (double)NS_PER_S / PERFETTO_RATE_BIN_NS;

	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		struct pf_cpu *c = &ex->cpu[cpu];

		put_rate(ex, cpu, ex->bin_start, (double)c->bin_count * per_s);
		c->bin_count = 0;
	}
}

static bool all_idle(const struct pf_export *ex)
{
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
		if (ex->cpu[cpu].bin_count ||
		    (ex->cpu[cpu].rate_set && ex->cpu[cpu].rate != 0))
			return false;
	return true;
}

/* Close the rate bins that end at or before ts. */
static void advance_bins(struct pf_export *ex, uint64_t ts)
{
	if (!ex->bins_started) {	/* every CPU's counters start here */
		ex->bins_started = true;
		ex->bin_start = ts;
		for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
			put_missing(ex, cpu, ts);
		return;
	}
	/* Differences, not sums: a timestamp near UINT64_MAX must not
	 * wrap the bin's end around to the past (and loop for ever); one
	 * before the bin (another CPU's clock, a damaged file) closes
	 * nothing. */
	while (ts >= ex->bin_start && ts - ex->bin_start >= PERFETTO_RATE_BIN_NS) {
		flush_bin(ex);
		ex->bin_start += PERFETTO_RATE_BIN_NS;
		if (all_idle(ex) && ts - ex->bin_start >= PERFETTO_RATE_BIN_NS)
			ex->bin_start += (ts - ex->bin_start) /
				PERFETTO_RATE_BIN_NS * PERFETTO_RATE_BIN_NS;
	}
}

/* A slice of task on cpu over [start, end]; end_state NULL if unknown. */
static void put_task_slice(struct pf_export *ex, unsigned int cpu,
			   const char *comm, int32_t pid, int32_t tgid,
			   int32_t prio, uint64_t start, uint64_t end,
			   const char *end_state)
{
	FILE *f = ex->f;

	if (end < start)	/* callers keep time going forward */
		end = start;
	ev_begin(ex, 'X', cpu, start);
	fputs(",\"dur\":", f);
	json_us(f, end - start);
	fputs(",\"cat\":\"sched\",\"name\":", f);
	json_str(f, comm, SCHED_RELAY_COMM_LEN);
	fprintf(f, ",\"args\":{\"pid\":%" PRId32, pid);
	if (tgid >= 0)
		fprintf(f, ",\"tgid\":%" PRId32, tgid);
	fprintf(f, ",\"prio\":%" PRId32, prio);
	if (end_state) {
		fputs(",\"end_state\":", f);
		json_str(f, end_state, 32);
	}
	fputs("}}", f);
}

/* A run of a task the model saw end: its slice. */
static void on_run(void *ctx, const struct sched_run *run)
{
	put_task_slice(ctx, run->cpu, run->task.comm, run->task.pid,
		       run->task.tgid, run->task.prio, run->from, run->to,
		       run->end_state);
}

static void put_int_arg(FILE *f, const char *name, int64_t v, bool *first)
{
	fprintf(f, "%s\"%s\":%" PRId64, *first ? "" : ",", name, v);
	*first = false;
}

static void put_comm_arg(FILE *f, const char *name, const char *comm,
			 bool *first)
{
	fprintf(f, "%s\"%s\":", *first ? "" : ",", name);
	json_str(f, comm, SCHED_RELAY_COMM_LEN);
	*first = false;
}

/* An instant with the tracepoint's fields, named as the kernel names them. */
static void on_instant(struct pf_export *ex, unsigned int cpu,
		       const struct sched_relay_record *r, uint64_t ts)
{
	FILE *f = ex->f;
	bool first = true;

	ev_begin(ex, 'i', cpu, ts);
	fprintf(f, ",\"s\":\"t\",\"cat\":\"sched\",\"name\":\"%s\",\"args\":{",
		r->type < SCHED_RELAY_NR_EVENTS ?
		event_type(r->type)->tracepoint : "sched_relay_unknown");
	switch (r->type) {
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		put_comm_arg(f, "comm", r->comm, &first);
		put_int_arg(f, "pid", r->pid, &first);
		put_int_arg(f, "prio", fields_prio(r->prio), &first);
		put_int_arg(f, "target_cpu", r->target_cpu, &first);
		break;
	case SCHED_RELAY_MIGRATE:
		put_comm_arg(f, "comm", r->comm, &first);
		put_int_arg(f, "pid", r->pid, &first);
		put_int_arg(f, "prio", fields_prio(r->prio), &first);
		put_int_arg(f, "orig_cpu", r->orig_cpu, &first);
		put_int_arg(f, "dest_cpu", r->target_cpu, &first);
		break;
	case SCHED_RELAY_FORK:
		put_comm_arg(f, "parent_comm", r->comm, &first);
		put_int_arg(f, "parent_pid", r->pid, &first);
		put_comm_arg(f, "child_comm", r->comm2, &first);
		put_int_arg(f, "child_pid", r->pid2, &first);
		break;
	case SCHED_RELAY_EXIT:
		put_comm_arg(f, "comm", r->comm, &first);
		put_int_arg(f, "pid", r->pid, &first);
		put_int_arg(f, "prio", fields_prio(r->prio), &first);
		break;
	default:
		put_int_arg(f, "type", r->type, &first);
		put_int_arg(f, "state", r->state, &first);
		put_int_arg(f, "pid", r->pid, &first);
		put_int_arg(f, "tgid", r->tgid, &first);
		put_int_arg(f, "pid2", r->pid2, &first);
		put_int_arg(f, "tgid2", r->tgid2, &first);
		put_int_arg(f, "prio", r->prio, &first);
		put_int_arg(f, "prio2", r->prio2, &first);
		put_comm_arg(f, "comm", r->comm, &first);
		put_comm_arg(f, "comm2", r->comm2, &first);
		break;
	}
	if (r->tgid >= 0 && r->type < SCHED_RELAY_NR_EVENTS)
		put_int_arg(f, r->type == SCHED_RELAY_FORK ? "parent_tgid" :
			    "tgid", r->tgid, &first);
	if (r->type == SCHED_RELAY_FORK && r->tgid2 >= 0)
		put_int_arg(f, "child_tgid", r->tgid2, &first);
	fputs("}}", f);
}

static void put_gap_slice(struct pf_export *ex, unsigned int cpu,
			  uint64_t from, uint64_t to, uint64_t count,
			  bool dropped)
{
	FILE *f = ex->f;

	ev_begin(ex, 'X', cpu, from);
	fputs(",\"dur\":", f);
	json_us(f, to - from);
	fprintf(f, ",\"cat\":\"relaytop\",\"name\":\"%" PRIu64 " event%s %s\","
		"\"args\":{\"count\":%" PRIu64 ",\"why\":\"%s\"}}", count,
		count == 1 ? "" : "s", dropped ? "dropped" : "lost", count,
		dropped ? "dropped by the producer (buffer full)" :
		"lost by relaytop (overwritten before it read them)");
}

/* Events went missing on a CPU: shown once we know where the gap ends. */
static void on_gap(struct pf_export *ex, const struct record_item *it)
{
	struct pf_cpu *c = &ex->cpu[it->cpu];
	const struct sched_cpu *mc = sched_model_cpu(&ex->model, it->cpu);

	if (!c->pend_dropped && !c->pend_lost)
		c->gap_from = mc->have_ts ? mc->last_ts : ex->t0;
	sched_model_gap(&ex->model, it->cpu);
	if (it->kind == ITEM_DROPPED)
		c->pend_dropped += it->count;
	else
		c->pend_lost += it->count;
}

/* The gap of cpu ends at to (its next record, or the recording's end). */
static void settle_gap(struct pf_export *ex, unsigned int cpu, uint64_t to)
{
	struct pf_cpu *c = &ex->cpu[cpu];
	uint64_t from = c->gap_from < to ? c->gap_from : to;

	if (!c->pend_dropped && !c->pend_lost)
		return;
	advance_bins(ex, to);
	c->dropped += c->pend_dropped;
	c->lost += c->pend_lost;
	put_missing(ex, cpu, to);
	if (c->pend_dropped)
		put_gap_slice(ex, cpu, from, to, c->pend_dropped, true);
	if (c->pend_lost)
		put_gap_slice(ex, cpu, from, to, c->pend_lost, false);
	c->pend_dropped = c->pend_lost = 0;
}

static void on_record(struct pf_export *ex, unsigned int cpu,
		      const struct sched_relay_record *r)
{
	/* Slices need time to go forward on a CPU.  A real recording's does;
	 * a damaged one's may not: such a record carries the time of the one
	 * before (the model's, as in the CTF export), and the export says
	 * how many did. */
	uint64_t ts = sched_model_time(&ex->model, cpu, r->ts);

	settle_gap(ex, cpu, ts);
	advance_bins(ex, ts);
	ex->cpu[cpu].bin_count++;
	/* a sched_switch ends a run: its slice (on_run) */
	sched_model_record(&ex->model, cpu, r, NULL);
	if (r->type != SCHED_RELAY_SWITCH)
		on_instant(ex, cpu, r, ts);
}

static void on_marker(struct pf_export *ex, const struct record_item *it)
{
	FILE *f = ex->f;
	bool global = it->cpu == RECORD_NO_CPU;
	char events[128];

	advance_bins(ex, it->ts);
	ev_begin(ex, 'i', global ? 0 : it->cpu, it->ts);
	fprintf(f, ",\"s\":\"%s\",\"cat\":\"relaytop\",", global ? "g" : "t");
	switch (it->kind) {
	case ITEM_RESTART:
		fprintf(f, "\"name\":\"channel reset\",\"args\":{\"generation\":"
			"%" PRIu64 "}}", it->generation);
		sched_model_gap(&ex->model, it->cpu);
		break;
	case ITEM_GONE:
		fputs("\"name\":\"channel went away\",\"args\":{}}", f);
		if (global)
			sched_model_gap_all(&ex->model);
		else
			sched_model_gap(&ex->model, it->cpu);
		break;
	default:
		events_format(it->config.events, ",", events, sizeof(events));
		fprintf(f, "\"name\":\"configuration changed\",\"args\":{"
			"\"generation\":%" PRIu64 ",\"subbuf_size\":%" PRIu32
			",\"n_subbufs\":%" PRIu32 ",\"events\":\"%s\","
			"\"overwrite\":%d,\"enabled\":%d}}",
			it->config.generation, it->config.subbuf_size,
			it->config.n_subbufs, events,
			!!(it->config.flags & RECORD_F_OVERWRITE),
			!!(it->config.flags & RECORD_F_ENABLED));
		/* without sched_switch, who runs is no longer followed */
		sched_model_events(&ex->model, it->config.events);
		break;
	}
}

static void finish_tracks(struct pf_export *ex)
{
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		const struct sched_cpu *mc = sched_model_cpu(&ex->model, cpu);
		struct pf_cpu *c = &ex->cpu[cpu];
		uint64_t last = mc->have_ts ? mc->last_ts : ex->t0;

		settle_gap(ex, cpu, c->end_ts > last ? c->end_ts : last);
	}
	if (ex->bins_started) {
		flush_bin(ex);
		for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
			put_rate(ex, cpu, ex->bin_start <= UINT64_MAX -
				 PERFETTO_RATE_BIN_NS ? ex->bin_start +
				 PERFETTO_RATE_BIN_NS : UINT64_MAX,
				 0);
	}
	sched_model_end(&ex->model);	/* the runs still open */
}

/* ---- pass 2: ftrace text -------------------------------------------- */

static int text_pass(FILE *f, const char *recording, unsigned int ncpus)
{
	struct record_stream s;
	struct record_item it;
	struct sched_model m;
	struct sched_event ev;
	char line[FTRACE_LINE_SIZE];
	int n;

	if (record_stream_open(&s, recording)) {
		warn("%s", s.rd.error);
		record_stream_close(&s);
		return -1;
	}
	sched_model_init(&m, ncpus);
	sched_model_events(&m, s.rd.hdr.events);
	json_chars(f, "# tracer: nop\n#\n", 32);
	while ((n = record_stream_next(&s, &it)) > 0) {
		if (it.kind == ITEM_GONE && it.cpu == RECORD_NO_CPU)
			sched_model_gap_all(&m);
		if (it.kind == ITEM_CONFIG)
			sched_model_events(&m, it.config.events);
		if (it.cpu >= ncpus)
			continue;
		switch (it.kind) {
		case ITEM_RECORD:
			/* one line as trace_pipe prints it, into the JSON
			 * string; time only goes forward (as in pass 1) */
			sched_model_record(&m, it.cpu, it.rec, &ev);
			ftrace_line(line, sizeof(line), FTRACE_PIPE, it.cpu,
				    ev.ts, ev.task_known ? &ev.task : NULL,
				    it.rec);
			json_chars(f, line, sizeof(line));
			break;
		case ITEM_DROPPED:
		case ITEM_LOST:
			snprintf(line, sizeof(line), "# CPU:%u [%" PRIu64
				 " EVENTS %s]\n", it.cpu, it.count,
				 it.kind == ITEM_DROPPED ? "DROPPED" : "LOST");
			json_chars(f, line, sizeof(line));
			sched_model_gap(&m, it.cpu);
			break;
		default:
			sched_model_gap(&m, it.cpu);
			break;
		}
	}
	sched_model_free(&m);
	record_stream_close(&s);
	return 0;
}

/* ---- the file ------------------------------------------------------- */

static void put_other_data(FILE *f, const struct record_stream *s,
			   const char *recording, unsigned int ncpus)
{
	const struct record_file_header *h = &s->rd.hdr;
	char events[128];

	events_format(h->events, ",", events, sizeof(events));
	fputs("{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"source\":"
	      "\"relaytop --export-perfetto\",\"recording\":", f);
	json_str(f, recording, strlen(recording));
	fputs(",\"channel\":", f);
	json_str(f, h->channel, sizeof(h->channel));
	fprintf(f, ",\"clock\":\"CLOCK_MONOTONIC (ts in us)\","
		"\"start_mono_ns\":\"%" PRIu64 "\",\"start_real_ns\":\"%" PRIu64
		"\",\"nr_cpus\":\"%u\",\"events\":\"%s\",\"overwrite\":\"%d\"},"
		"\n\"traceEvents\":[", h->start_mono_ns, h->start_real_ns,
		ncpus, events, !!(h->flags & RECORD_F_OVERWRITE));
}

/* Pass 1 and the frame around both; -1 when the recording is unusable. */
static int write_json(FILE *f, const char *recording, bool *damaged)
{
	struct record_stream s;
	struct record_item it;
	struct pf_export ex = { .f = f, .first = true };
	int n;

	if (record_stream_open(&s, recording)) {
		warn("%s", s.rd.error);
		record_stream_close(&s);
		return -1;
	}
	ex.t0 = s.rd.hdr.start_mono_ns;
	ex.ncpus = record_reader_nr_cpus(&s.rd);
	ex.cpu = xcalloc(ex.ncpus ? ex.ncpus : 1, sizeof(*ex.cpu));
	sched_model_init(&ex.model, ex.ncpus);
	ex.model.on_run = on_run;
	ex.model.ctx = &ex;
	for (unsigned int cpu = 0; cpu < ex.ncpus && cpu < s.rd.ncpus; cpu++)
		ex.cpu[cpu].end_ts = s.rd.summary[cpu].end_ts;
	put_other_data(f, &s, recording, ex.ncpus);
	put_metadata(&ex);
	while ((n = record_stream_next(&s, &it)) > 0) {
		if (it.cpu >= ex.ncpus && it.cpu != RECORD_NO_CPU)
			continue;
		switch (it.kind) {
		case ITEM_RECORD:
			on_record(&ex, it.cpu, it.rec);
			break;
		case ITEM_DROPPED:
		case ITEM_LOST:
			on_gap(&ex, &it);
			break;
		default:
			on_marker(&ex, &it);
			break;
		}
	}
	finish_tracks(&ex);
	for (unsigned int cpu = 0; cpu < ex.ncpus; cpu++)
		if (ex.model.cpu[cpu].backwards)
			warn("%s: CPU %u: %" PRIu64 " records have a timestamp "
			     "earlier than the one before (a damaged recording?);"
			     " they carry that one's", recording, cpu,
			     ex.model.cpu[cpu].backwards);
	fputs("\n],\n\"systemTraceEvents\":\"", f);
	if (n < 0 || s.rd.error[0]) {
		warn("%s", s.rd.error);
		*damaged = true;
	}
	record_stream_close(&s);
	sched_model_free(&ex.model);
	free(ex.cpu);
	if (text_pass(f, recording, ex.ncpus))
		return -1;
	fputs("\"}\n", f);
	return 0;
}

/* A temporary file beside path, renamed over it when complete. */
static FILE *open_temp(const char *path, char **tmp)
{
	size_t len = strlen(path) + 16;
	mode_t mask;
	FILE *f;
	int fd;

	*tmp = xmalloc(len);
	snprintf(*tmp, len, "%s.tmpXXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		warn("%s: cannot create: %s", path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(f = fdopen(fd, "w"))) {
		warn("%s: %s", *tmp, strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	return f;
}

int export_perfetto(const char *recording, const char *outfile)
{
	bool to_stdout = !strcmp(outfile, "-"), damaged = false;
	char *tmp = NULL;
	FILE *f;
	int rc, err = 0;

	f = to_stdout ? stdout : open_temp(outfile, &tmp);
	if (!f)
		return 1;
	rc = write_json(f, recording, &damaged);
	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (!to_stdout && fclose(f) && !err)
		err = errno;
	if (!rc && err)
		warn("writing %s: %s", outfile, strerror(err));
	if (!to_stdout) {
		if (!rc && !err && rename(tmp, outfile)) {
			err = errno;
			warn("%s: %s", outfile, strerror(err));
		}
		if (rc || err)
			unlink(tmp);
		free(tmp);
	}
	return rc || err || damaged ? 1 : 0;
}

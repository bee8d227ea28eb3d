// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - a recording as text, one event a line (see dump.h).
 *
 * The task column is the task running on the CPU when the event fired:
 * sched_switch's prev, the parent for fork, the exiting task for exit, and
 * for wakeup and migrate the last sched_switch's next on that CPU, or
 * "<...>" when no switch was seen since the start or since a gap.
 */
#include "dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "fields.h"
#include "record_merge.h"
#include "util.h"

void dump_fields(const struct sched_relay_record *r, char *buf, size_t size)
{
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		snprintf(buf, size, "prev_comm=%.16s prev_pid=%d prev_prio=%d "
			 "prev_state=%s ==> next_comm=%.16s next_pid=%d "
			 "next_prio=%d", r->comm, r->pid, fields_prio(r->prio),
			 fields_state_letters(r->state), r->comm2, r->pid2,
			 fields_prio(r->prio2));
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d target_cpu=%03u",
			 r->comm, r->pid, fields_prio(r->prio), r->target_cpu);
		break;
	case SCHED_RELAY_MIGRATE:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d orig_cpu=%u "
			 "dest_cpu=%u", r->comm, r->pid, fields_prio(r->prio),
			 r->orig_cpu, r->target_cpu);
		break;
	case SCHED_RELAY_FORK:
		snprintf(buf, size, "comm=%.16s pid=%d child_comm=%.16s "
			 "child_pid=%d", r->comm, r->pid, r->comm2, r->pid2);
		break;
	case SCHED_RELAY_EXIT:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d", r->comm,
			 r->pid, fields_prio(r->prio));
		break;
	default:
		snprintf(buf, size, "type=%u pid=%d pid2=%d", r->type, r->pid,
			 r->pid2);
		break;
	}
}

/* The task running on a CPU, as far as the recording tells. */
struct current_task {
	bool known;
	char comm[SCHED_RELAY_COMM_LEN + 1];
	int32_t pid;
	int32_t tgid;		/* -1: unknown (a version 1 recording) */
};

/* The task column: "comm-pid (tgid)" as ftrace's record-tgid prints it. */
static void task_of(const struct sched_relay_record *r,
		    struct current_task *cur, char *comm, size_t size,
		    char *pid, size_t pid_size, char *tgid, size_t tgid_size)
{
	const char *c = NULL;
	int32_t p = 0, g = -1;

	switch (r->type) {
	case SCHED_RELAY_SWITCH:
	case SCHED_RELAY_FORK:
	case SCHED_RELAY_EXIT:
		c = r->comm;
		p = r->pid;
		g = r->tgid;
		break;
	default:
		if (cur->known) {
			c = cur->comm;
			p = cur->pid;
			g = cur->tgid;
		}
		break;
	}
	if (c) {
		snprintf(comm, size, "%.16s", c);
		snprintf(pid, pid_size, "%d", p);
	} else {
		snprintf(comm, size, "<...>");
		snprintf(pid, pid_size, "?");
	}
	if (c && g >= 0)
		snprintf(tgid, tgid_size, "%7d", g);
	else
		snprintf(tgid, tgid_size, "-------");
	if (r->type == SCHED_RELAY_SWITCH) {
		cur->known = true;
		snprintf(cur->comm, sizeof(cur->comm), "%.16s", r->comm2);
		cur->pid = r->pid2;
		cur->tgid = r->tgid2;
	}
}

static void print_header(const struct record_stream *s, FILE *out)
{
	const struct record_file_header *h = &s->rd.hdr;
	char events[128], when[64] = "?";
	time_t t = (time_t)(h->start_real_ns / 1000000000u);
	struct tm tm;

	events_format(h->events, ",", events, sizeof(events));
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	fprintf(out, "# relaytop recording (format %" PRIu32 "): %.48s, "
		"cpus=%" PRIu32 "\n", h->version, h->channel, h->nr_cpus);
	fprintf(out, "# sub-buffers %" PRIu32 " x %" PRIu32 " bytes, %s, "
		"events %s, generation %" PRIu64 "\n", h->n_subbufs,
		h->subbuf_size, h->flags & RECORD_F_OVERWRITE ?
		"overwrite" : "no-overwrite", events, h->generation);
	fprintf(out, "# started %s at monotonic %" PRIu64 ".%09" PRIu64 "\n",
		when, h->start_mono_ns / 1000000000u,
		h->start_mono_ns % 1000000000u);
}

static void print_summary(const struct record_stream *s, FILE *out)
{
	uint64_t rec = 0, drop = 0, lost = 0;

	fprintf(out, "# %4s %12s %12s %12s\n", "cpu", "events", "dropped",
		"lost");
	for (unsigned int cpu = 0; cpu < s->rd.ncpus; cpu++) {
		const struct record_cpu_summary *c = &s->rd.summary[cpu];

		if (!c->present)
			continue;
		fprintf(out, "# %4u %12" PRIu64 " %12" PRIu64 " %12" PRIu64
			"%s\n", cpu, c->records, c->dropped, c->lost,
			c->ended ? "" : "  (no end: counts so far)");
		rec += c->records;
		drop += c->dropped;
		lost += c->lost;
	}
	fprintf(out, "# %4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "all",
		rec, drop, lost);
}

/* Per CPU: what the dump noticed about time. */
struct dump_cpu {
	struct current_task cur;
	bool have_ts;
	uint64_t last_ts;
	uint64_t backwards;	/* records earlier than the one before */
};

static void print_record(FILE *out, unsigned int cpu,
			 const struct sched_relay_record *r, struct dump_cpu *d)
{
	char comm[32], pid[16], tgid[16], fields[256];

	/* A recording of a real producer never goes back in time on a CPU
	 * (one clock, records in order); a damaged one may.  The record is
	 * shown as it is, after a line that says so. */
	if (d->have_ts && r->ts < d->last_ts) {
		uint64_t back = d->last_ts - r->ts;

		d->backwards++;
		fprintf(out, "CPU:%u [TIME GOES BACK %" PRIu64 ".%09" PRIu64
			" s HERE]\n", cpu, back / 1000000000u,
			back % 1000000000u);
	}
	d->have_ts = true;
	d->last_ts = r->ts;
	task_of(r, &d->cur, comm, sizeof(comm), pid, sizeof(pid), tgid,
		sizeof(tgid));
	dump_fields(r, fields, sizeof(fields));
	fprintf(out, "%16s-%-7s (%s) [%03u] %5" PRIu64 ".%09" PRIu64
		": %s: %s\n", comm, pid, tgid, cpu,
		(uint64_t)r->ts / 1000000000u, (uint64_t)r->ts % 1000000000u,
		event_type(r->type)->tracepoint, fields);
}

static void print_item(FILE *out, const struct record_stream *s,
		       const struct record_item *it, struct dump_cpu *cpus)
{
	char events[128];

	switch (it->kind) {
	case ITEM_RECORD:
		if (it->cpu < s->rd.ncpus)
			print_record(out, it->cpu, it->rec, &cpus[it->cpu]);
		break;
	case ITEM_DROPPED:
		fprintf(out, "CPU:%u [%" PRIu64 " EVENTS DROPPED]\n",
			it->cpu, it->count);
		cpus[it->cpu].cur.known = false;
		break;
	case ITEM_LOST:
		fprintf(out, "CPU:%u [%" PRIu64 " EVENTS LOST: "
			"overwritten before relaytop read them]\n",
			it->cpu, it->count);
		cpus[it->cpu].cur.known = false;
		break;
	case ITEM_RESTART:
		fprintf(out, "CPU:%u [CHANNEL RESET: generation %"
			PRIu64 "]\n", it->cpu, it->generation);
		cpus[it->cpu].cur.known = false;
		cpus[it->cpu].have_ts = false;
		break;
	case ITEM_GONE:
		if (it->cpu == RECORD_NO_CPU)
			fprintf(out, "[CHANNEL WENT AWAY]\n");
		else
			fprintf(out, "CPU:%u [CHANNEL WENT AWAY]\n", it->cpu);
		for (unsigned int c = 0; c < s->rd.ncpus; c++)
			if (it->cpu == RECORD_NO_CPU || c == it->cpu) {
				cpus[c].cur.known = false;
				cpus[c].have_ts = false;
			}
		break;
	case ITEM_CONFIG:
		events_format(it->config.events, ",", events, sizeof(events));
		fprintf(out, "# configuration: sub-buffers %" PRIu32
			" x %" PRIu32 " bytes, %s, events %s, %s, "
			"generation %" PRIu64 "\n",
			it->config.n_subbufs, it->config.subbuf_size,
			it->config.flags & RECORD_F_OVERWRITE ?
			"overwrite" : "no-overwrite", events,
			it->config.flags & RECORD_F_ENABLED ?
			"enabled" : "disabled", it->config.generation);
		break;
	}
}

int dump_recording(const char *path, FILE *out)
{
	struct record_stream s;
	struct record_item it;
	struct dump_cpu *cpus;
	int n = 0, status = 0;

	if (record_stream_open(&s, path)) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		record_stream_close(&s);
		return 1;
	}
	print_header(&s, out);
	cpus = xcalloc(s.rd.ncpus ? s.rd.ncpus : 1, sizeof(*cpus));
	/* a reader that went away (| head) ends the dump */
	while (!ferror(out) && (n = record_stream_next(&s, &it)) > 0)
		print_item(out, &s, &it, cpus);
	print_summary(&s, out);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "%s: writing the dump: %s\n", progname,
			strerror(errno ? errno : EIO));
		status = 1;
	} else if (n < 0 || s.rd.error[0]) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		status = 1;
	}
	for (unsigned int c = 0; c < s.rd.ncpus && !status; c++)
		if (cpus[c].backwards)
			fprintf(stderr, "%s: %s: CPU %u: %" PRIu64 " records "
				"have a timestamp earlier than the one before "
				"(a damaged recording?): shown as they are, "
				"after a TIME GOES BACK line\n", progname,
				path, c, cpus[c].backwards);
	free(cpus);
	record_stream_close(&s);
	return status;
}

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
#include "record.h"
#include "util.h"

/* TASK_* bits as sched_switch reports prev_state (include/linux/sched.h) */
#define TASK_REPORT_MAX 0x100

void dump_prev_state(uint32_t state, char *buf, size_t size)
{
	static const struct { uint32_t bit; const char *name; } flags[] = {
		{ 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" }, { 0x08, "t" },
		{ 0x10, "X" }, { 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" },
	};
	uint32_t bits = state & (TASK_REPORT_MAX - 1);
	size_t len = 0;

	buf[0] = '\0';
	if (!bits) {
		snprintf(buf, size, "R");
		len = strlen(buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(flags) && len < size; i++) {
		if (!(bits & flags[i].bit))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					len ? "|" : "", flags[i].name);
		bits &= ~flags[i].bit;
	}
	if (state & TASK_REPORT_MAX && len < size)
		snprintf(buf + len, size - len, "+");
}

void dump_fields(const struct sched_relay_record *r, char *buf, size_t size)
{
	char state[32];

	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		dump_prev_state(r->state, state, sizeof(state));
		snprintf(buf, size, "prev_comm=%.16s prev_pid=%d prev_prio=%d "
			 "prev_state=%s ==> next_comm=%.16s next_pid=%d "
			 "next_prio=%d", r->comm, r->pid, r->prio, state,
			 r->comm2, r->pid2, r->prio2);
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d target_cpu=%03u",
			 r->comm, r->pid, r->prio, r->target_cpu);
		break;
	case SCHED_RELAY_MIGRATE:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d orig_cpu=%u "
			 "dest_cpu=%u", r->comm, r->pid, r->prio, r->orig_cpu,
			 r->target_cpu);
		break;
	case SCHED_RELAY_FORK:
		snprintf(buf, size, "comm=%.16s pid=%d child_comm=%.16s "
			 "child_pid=%d", r->comm, r->pid, r->comm2, r->pid2);
		break;
	case SCHED_RELAY_EXIT:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d", r->comm,
			 r->pid, r->prio);
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
};

static void task_of(const struct sched_relay_record *r,
		    struct current_task *cur, char *comm, size_t size,
		    char *pid, size_t pid_size)
{
	const char *c = NULL;
	int32_t p = 0;

	switch (r->type) {
	case SCHED_RELAY_SWITCH:
	case SCHED_RELAY_FORK:
	case SCHED_RELAY_EXIT:
		c = r->comm;
		p = r->pid;
		break;
	default:
		if (cur->known) {
			c = cur->comm;
			p = cur->pid;
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
	if (r->type == SCHED_RELAY_SWITCH) {
		cur->known = true;
		snprintf(cur->comm, sizeof(cur->comm), "%.16s", r->comm2);
		cur->pid = r->pid2;
	}
}

static void print_header(const struct record_stream *s, FILE *out)
{
	const struct record_file_header *h = &s->hdr;
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
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		const struct record_cpu_summary *c = &s->summary[cpu];

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

int dump_recording(const char *path, FILE *out)
{
	struct record_stream s;
	struct record_item it;
	struct current_task *cur;
	char comm[32], pid[16], fields[256], events[128];
	int n;

	if (record_stream_open(&s, path)) {
		fprintf(stderr, "%s: %s\n", progname, s.error);
		record_stream_close(&s);
		return 1;
	}
	print_header(&s, out);
	cur = xcalloc(s.ncpus, sizeof(*cur));
	while ((n = record_stream_next(&s, &it)) > 0) {
		const struct sched_relay_record *r = it.rec;

		switch (it.kind) {
		case ITEM_RECORD:
			if (it.cpu >= s.ncpus)
				break;
			task_of(r, &cur[it.cpu], comm, sizeof(comm), pid,
				sizeof(pid));
			dump_fields(r, fields, sizeof(fields));
			fprintf(out, "%16s-%-7s [%03u] %5" PRIu64 ".%09" PRIu64
				": %s: %s\n", comm, pid, it.cpu,
				(uint64_t)r->ts / 1000000000u,
				(uint64_t)r->ts % 1000000000u,
				event_type(r->type)->tracepoint, fields);
			break;
		case ITEM_DROPPED:
			fprintf(out, "CPU:%u [%" PRIu64 " EVENTS DROPPED]\n",
				it.cpu, it.count);
			cur[it.cpu].known = false;
			break;
		case ITEM_LOST:
			fprintf(out, "CPU:%u [%" PRIu64 " EVENTS LOST: "
				"overwritten before relaytop read them]\n",
				it.cpu, it.count);
			cur[it.cpu].known = false;
			break;
		case ITEM_RESTART:
			fprintf(out, "CPU:%u [CHANNEL RESET: generation %"
				PRIu64 "]\n", it.cpu, it.generation);
			cur[it.cpu].known = false;
			break;
		case ITEM_GONE:
			if (it.cpu == RECORD_NO_CPU)
				fprintf(out, "[CHANNEL WENT AWAY]\n");
			else
				fprintf(out, "CPU:%u [CHANNEL WENT AWAY]\n",
					it.cpu);
			for (unsigned int c = 0; c < s.ncpus; c++)
				if (it.cpu == RECORD_NO_CPU || c == it.cpu)
					cur[c].known = false;
			break;
		case ITEM_CONFIG:
			events_format(it.config.events, ",", events,
				      sizeof(events));
			fprintf(out, "# configuration: sub-buffers %" PRIu32
				" x %" PRIu32 " bytes, %s, events %s, %s, "
				"generation %" PRIu64 "\n",
				it.config.n_subbufs, it.config.subbuf_size,
				it.config.flags & RECORD_F_OVERWRITE ?
				"overwrite" : "no-overwrite", events,
				it.config.flags & RECORD_F_ENABLED ?
				"enabled" : "disabled", it.config.generation);
			break;
		}
	}
	print_summary(&s, out);
	free(cur);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "%s: writing the dump: %s\n", progname,
			strerror(errno));
		record_stream_close(&s);
		return 1;
	}
	if (n < 0 || s.error[0]) {
		fprintf(stderr, "%s: %s\n", progname, s.error);
		record_stream_close(&s);
		return 1;
	}
	record_stream_close(&s);
	return 0;
}

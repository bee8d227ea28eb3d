// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - a recording as text, one event a line (see dump.h).
 *
 * The task column is the task running on the CPU when the event fired, as
 * the scheduler model says (sched_model.h): sched_switch's prev, the
 * parent for fork, the exiting task for exit, and for wakeup and migrate
 * the last sched_switch's next on that CPU, or "<...>" when no switch was
 * seen since the start or since events went missing there.  The lines
 * are ftrace_text.c's.
 */
#include "dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "ftrace_text.h"
#include "record_merge.h"
#include "sched_model.h"
#include "text.h"
#include "util.h"

static void print_header(const struct record_stream *s, FILE *out)
{
	const struct record_file_header *h = &s->rd.hdr;
	char events[128], when[64] = "?";
	char channel[TEXT_ESCAPED_SIZE(sizeof(h->channel))];
	time_t t = (time_t)(h->start_real_ns / 1000000000u);
	struct tm tm;

	events_format(h->events, ",", events, sizeof(events));
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	/* the file says what its channel is: escaped as a task's name */
	text_escape(channel, sizeof(channel), h->channel, sizeof(h->channel),
		    text_utf8());
	fprintf(out, "# relaytop recording (format %" PRIu32 "): %s, "
		"cpus=%" PRIu32 "\n", h->version, channel, h->nr_cpus);
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

static void print_record(FILE *out, struct sched_model *m, unsigned int cpu,
			 const struct sched_relay_record *r)
{
	struct sched_event ev;
	char line[FTRACE_LINE_SIZE];

	sched_model_record(m, cpu, r, &ev);
	/* A recording of a real producer never goes back in time on a CPU
	 * (one clock, records in order); a damaged one may.  The record is
	 * shown as it is, after a line that says so. */
	if (ev.back_ns)
		fprintf(out, "CPU:%u [TIME GOES BACK %" PRIu64 ".%09" PRIu64
			" s HERE]\n", cpu, ev.back_ns / 1000000000u,
			ev.back_ns % 1000000000u);
	ftrace_line(line, sizeof(line), FTRACE_REPORT, cpu, r->ts,
		    ev.task_known ? &ev.task : NULL, r);
	fputs(line, out);
}

static void print_item(FILE *out, const struct record_stream *s,
		       const struct record_item *it, struct sched_model *m)
{
	char events[128];

	switch (it->kind) {
	case ITEM_RECORD:
		if (it->cpu < s->rd.ncpus)
			print_record(out, m, it->cpu, it->rec);
		break;
	case ITEM_DROPPED:
		fprintf(out, "CPU:%u [%" PRIu64 " EVENTS DROPPED]\n",
			it->cpu, it->count);
		sched_model_gap(m, it->cpu);
		break;
	case ITEM_LOST:
		fprintf(out, "CPU:%u [%" PRIu64 " EVENTS LOST: "
			"overwritten before relaytop read them]\n",
			it->cpu, it->count);
		sched_model_gap(m, it->cpu);
		break;
	case ITEM_RESTART:
		fprintf(out, "CPU:%u [CHANNEL RESET: generation %"
			PRIu64 "]\n", it->cpu, it->generation);
		sched_model_gap(m, it->cpu);
		break;
	case ITEM_GONE:
		if (it->cpu == RECORD_NO_CPU) {
			fprintf(out, "[CHANNEL WENT AWAY]\n");
			sched_model_gap_all(m);
		} else {
			fprintf(out, "CPU:%u [CHANNEL WENT AWAY]\n", it->cpu);
			sched_model_gap(m, it->cpu);
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
		sched_model_events(m, it->config.events);
		break;
	}
}

int dump_recording(const char *path, FILE *out)
{
	struct record_stream s;
	struct record_item it;
	struct sched_model m;
	int n = 0, status = 0;

	if (record_stream_open(&s, path)) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		record_stream_close(&s);
		return 1;
	}
	print_header(&s, out);
	sched_model_init(&m, s.rd.ncpus);
	sched_model_events(&m, s.rd.hdr.events);
	/* a reader that went away (| head) ends the dump */
	while (!ferror(out) && (n = record_stream_next(&s, &it)) > 0)
		print_item(out, &s, &it, &m);
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
		if (m.cpu[c].backwards)
			fprintf(stderr, "%s: %s: CPU %u: %" PRIu64 " records "
				"have a timestamp earlier than the one before "
				"(a damaged recording?): shown as they are, "
				"after a TIME GOES BACK line\n", progname,
				path, c, m.cpu[c].backwards);
	sched_model_free(&m);
	record_stream_close(&s);
	return status;
}

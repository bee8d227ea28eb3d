// SPDX-License-Identifier: GPL-2.0
/*
 * batch.c - plain-text output (see batch.h).  Columns are separated by
 * blanks and hold plain numbers, so awk can read them:
 *
 *   # relaytop 2.000s interval 1.000s generation 3 subbufs 8x65536 ...
 *   cpu   events/s    bytes/s  dropped dropped/s  lost  fill% switch ... running
 *   0       123456    7901184        0         0     0      3  61234 ... 1234
 *
 * running is the pid on the CPU now (0: idle, -1: unknown).  With
 * --tasks and --latency, the tasks and latency tables of the last
 * interval of the figures follow (sched_text.h), and the last block
 * ("# final") gives them since the start.  The status line is printed
 * once, in the block after it changed.
 */
#include "batch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "batch_csv.h"
#include "batch_json.h"
#include "events.h"
#include "sched_text.h"
#include "util.h"

static void print_row(FILE *out, const char *name, const struct cpu_stats *c,
		      long running)
{
	fprintf(out, "%-4s %10.0f %12.0f %10" PRIu64 " %9.0f %8" PRIu64
		" %5.0f", name, c->events_rate, c->bytes_rate, c->shown_dropped,
		c->dropped_rate, c->shown_lost, c->fill * 100);
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, " %*" PRIu64, t == SCHED_RELAY_WAKEUP_NEW ? 10 : 7,
			c->mix[t]);
	fprintf(out, " %7ld\n", running);
}

static void print_figures(FILE *out, const struct view *v)
{
	const struct sched_model *m = v->figures;
	const char *filter = v->filter ? v->filter : "";
	double secs = (double)m->last_ns / 1e9;
	struct sched_hist *h;

	if (v->batch_tasks) {
		struct task_table_opts o = v->tasks;

		o.since_start = v->final;
		fprintf(out, "# tasks %s%s%s\n", v->final ? "since the start" :
			"the last interval", filter[0] ? " " : "", filter);
		sched_text_tasks(out, m, &o, v->final ? 0 : secs, 0);
		fputc('\n', out);
	}
	if (!v->batch_latency)
		return;
	h = xcalloc(1, sizeof(*h));
	for (int k = SCHED_LAT_WAKEUP; k <= SCHED_LAT_RUNQ; k++) {
		fprintf(out, "# %s ", sched_text_lat_name(k));
		if (v->final)
			fprintf(out, "since the start");
		else
			fprintf(out, "interval %.3fs", secs);
		fprintf(out, ": %s%s%s\n", sched_text_lat_span(k),
			filter[0] ? " " : "", filter);
		sched_text_latency(out, m, v->final, k);
		sched_text_merged(m, v->final, k, h);
		sched_text_histogram(out, h);
		fputc('\n', out);
	}
	free(h);
}

/* The block as text: lines of columns. */
static void text_block(FILE *out, const struct view *v)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order)), n;
	char events[128];

	fprintf(out, "# relaytop %.3fs interval %.3fs%s", v->elapsed,
		v->st->interval, v->final ? " final" : "");
	if (v->have_cfg) {
		events_format(v->cfg.events, ",", events, sizeof(events));
		fprintf(out, " generation %" PRIu64 " subbufs %" PRIu32 "x%"
			PRIu32 " %s %s events %s", v->cfg.generation,
			v->cfg.geom.n_subbufs, v->cfg.geom.subbuf_size,
			v->cfg.overwrite ? "overwrite" : "no-overwrite",
			v->cfg.enabled ? "enabled" : "disabled", events);
	}
	if (!v->channel_ok && !v->replay)
		fprintf(out, " channel-gone");
	if (v->have_cfg && v->cfg.unnotified)
		fprintf(out, " attributes-not-notified");
	if (v->self_known)
		fprintf(out, " self %" PRIu64 "%s", v->self_events,
			v->self_hidden ? " hidden" : "");
	fputc('\n', out);
	if (v->status && v->status[0] && v->status_new)
		fprintf(out, "# %s\n", v->status);
	fprintf(out, "%-4s %10s %12s %10s %9s %8s %5s", "cpu", "events/s",
		"bytes/s", "dropped", "dropped/s", "lost", "fill%");
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, " %*s", t == SCHED_RELAY_WAKEUP_NEW ? 10 : 7,
			event_type((unsigned int)t)->name);
	fprintf(out, " %7s\n", "running");
	n = stats_order(v->st, v->sort, order);
	for (unsigned int i = 0; i < n && !v->summary; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", order[i]);
		print_row(out, name, &v->st->cpu[order[i]],
			  sched_model_running_pid(v->model, order[i]));
	}
	print_row(out, "all", &v->st->total, -1);
	fputc('\n', out);
	if (v->figures)
		print_figures(out, v);
	free(order);
}

int batch_print(FILE *out, const struct view *v)
{
	if (v->format == FORMAT_CSV)
		batch_csv(out, v);
	else if (v->format == FORMAT_JSON)
		batch_json(out, v);
	else
		text_block(out, v);
	errno = 0;
	if (fflush(out) || ferror(out)) {
		int err = errno ? errno : EIO;

		clearerr(out);
		errno = err;
		return -1;
	}
	return 0;
}

void batch_print_record_summary(FILE *out, const struct recorder *rec)
{
	uint64_t ev = 0, dr = 0, lo = 0;

	fprintf(out, "%s: %" PRIu64 " bytes\n", rec->path, rec->file_bytes);
	fprintf(out, "%-4s %12s %12s %12s\n", "cpu", "events", "dropped", "lost");
	for (unsigned int cpu = 0; cpu < rec->ncpus; cpu++) {
		const struct recorder_cpu *c = &rec->cpu[cpu];

		if (!c->tracked)
			continue;
		fprintf(out, "%-4u %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			cpu, c->records, recorder_dropped(rec, cpu),
			recorder_lost(rec, cpu));
		ev += c->records;
		dr += recorder_dropped(rec, cpu);
		lo += recorder_lost(rec, cpu);
	}
	fprintf(out, "%-4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "all",
		ev, dr, lo);
	fflush(out);
}

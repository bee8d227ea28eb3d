// SPDX-License-Identifier: GPL-2.0
/*
 * batch.c - plain-text output (see batch.h).  Columns are separated by
 * blanks and hold plain numbers, so awk can read them:
 *
 *   # relaytop 2.000s interval 1.000s generation 3 subbufs 8x65536 ...
 *   cpu   events/s    bytes/s  dropped dropped/s  lost  fill% switch ...
 *   0       123456    7901184        0         0     0      3  61234 ...
 */
#include "batch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "events.h"
#include "util.h"

static void print_row(FILE *out, const char *name, const struct cpu_stats *c)
{
	fprintf(out, "%-4s %10.0f %12.0f %10" PRIu64 " %9.0f %8" PRIu64
		" %5.0f", name, c->events_rate, c->bytes_rate, c->dropped,
		c->dropped_rate, c->lost, c->fill * 100);
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, " %*" PRIu64, t == SCHED_RELAY_WAKEUP_NEW ? 10 : 7,
			c->mix[t]);
	fputc('\n', out);
}

int batch_print(FILE *out, const struct view *v)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order)), n;
	char events[128];

	fprintf(out, "# relaytop %.3fs interval %.3fs", v->elapsed,
		v->st->interval);
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
	if (v->self_known)
		fprintf(out, " self %" PRIu64 "%s", v->self_events,
			v->self_hidden ? " hidden" : "");
	fputc('\n', out);
	if (v->status && v->status[0])
		fprintf(out, "# %s\n", v->status);
	fprintf(out, "%-4s %10s %12s %10s %9s %8s %5s", "cpu", "events/s",
		"bytes/s", "dropped", "dropped/s", "lost", "fill%");
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, " %*s", t == SCHED_RELAY_WAKEUP_NEW ? 10 : 7,
			event_type((unsigned int)t)->name);
	fputc('\n', out);
	n = stats_order(v->st, v->sort, order);
	for (unsigned int i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", order[i]);
		print_row(out, name, &v->st->cpu[order[i]]);
	}
	print_row(out, "all", &v->st->total);
	fputc('\n', out);
	free(order);
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

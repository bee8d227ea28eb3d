// SPDX-License-Identifier: GPL-2.0
/* report.c - relaytop --report (see report.h). */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "record_merge.h"
#include "sched_model.h"
#include "sched_text.h"
#include "task_table.h"
#include "text.h"
#include "util.h"

/* What each item of the recording means to the model (as dump.c). */
static void feed(struct sched_model *m, const struct record_stream *s,
		 const struct record_item *it)
{
	switch (it->kind) {
	case ITEM_RECORD:
		if (it->cpu < s->rd.ncpus)
			sched_model_record(m, it->cpu, it->rec, NULL);
		break;
	case ITEM_CONFIG:
		sched_model_events(m, it->config.events);
		break;
	case ITEM_GONE:
		if (it->cpu == RECORD_NO_CPU)
			sched_model_gap_all(m);
		else
			sched_model_gap(m, it->cpu);
		break;
	default:	/* drops, losses, resets: a gap where they were */
		sched_model_gap(m, it->cpu);
		break;
	}
}

int report_recording(const char *path, const struct filter *f, FILE *out)
{
	return report_recording_by(path, f, TCOL_RQ_MAX, out);
}

int report_recording_by(const char *path, const struct filter *f, int sort,
			FILE *out)
{
	struct task_table_opts o = { .since_start = true, .cpu = -1,
				     .sort = (enum task_col)sort };
	struct record_stream s;
	struct record_item it;
	struct sched_model m;
	struct sched_hist *all;
	uint64_t first = 0, last = 0;
	bool any = false;
	char filt[256], shown_filt[TEXT_ESCAPED_SIZE(256)];
	char shown[TEXT_ESCAPED_SIZE(256)];
	int n, status = 0;

	if (record_stream_open(&s, path)) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		record_stream_close(&s);
		return 1;
	}
	sched_model_init(&m, s.rd.ncpus);
	m.filter = f;
	sched_model_events(&m, s.rd.hdr.events);
	while ((n = record_stream_next(&s, &it)) > 0) {
		if (it.kind == ITEM_RECORD) {
			if (!any)
				first = it.rec->ts;
			if (it.rec->ts > last)
				last = it.rec->ts;
			any = true;
		}
		feed(&m, &s, &it);
	}
	if (n < 0 || s.rd.error[0]) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		status = 1;
	}
	sched_model_end(&m);
	filter_format(f, filt, sizeof(filt));
	text_escape(shown, sizeof(shown), path, strlen(path), text_utf8());
	text_escape(shown_filt, sizeof(shown_filt), filt, sizeof(filt),
		    text_utf8());
	fprintf(out, "# relaytop --report %s%s%s\n", shown,
		shown_filt[0] ? " " : "", shown_filt);
	fprintf(out, "# %u CPUs, %.6f s of records; wakeup latency: %s; "
		"run-queue latency: %s; missed: the switch-in fell in a "
		"counted gap\n", s.rd.ncpus,
		any ? (double)(last - first) / 1e9 : 0.0,
		sched_text_lat_span(SCHED_LAT_WAKEUP),
		sched_text_lat_span(SCHED_LAT_RUNQ));
	fprintf(out, "# tasks\n");
	sched_text_tasks(out, &m, &o, 0, 0);
	for (int k = SCHED_LAT_WAKEUP; k <= SCHED_LAT_RUNQ; k++) {
		fprintf(out, "\n# %s per CPU\n", sched_text_lat_name(k));
		sched_text_latency(out, &m, true, k);
	}
	all = xcalloc(1, sizeof(*all));
	for (int k = SCHED_LAT_WAKEUP; k <= SCHED_LAT_RUNQ; k++) {
		sched_text_merged(&m, true, k, all);
		fprintf(out, "\n# %s histogram, all CPUs above%s\n",
			sched_text_lat_name(k), k == SCHED_LAT_RUNQ ?
			" (as runqlat draws it)" : "");
		sched_text_histogram(out, all);
	}
	free(all);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "%s: writing the report: %s\n", progname,
			strerror(errno ? errno : EIO));
		status = 1;
	}
	sched_model_free(&m);
	record_stream_close(&s);
	return status;
}

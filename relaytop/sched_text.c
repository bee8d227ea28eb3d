// SPDX-License-Identifier: GPL-2.0
/* sched_text.c - the model's figures as plain text (see sched_text.h). */
#include "sched_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "text.h"
#include "util.h"

void sched_text_tasks(FILE *out, const struct sched_model *m,
		      const struct task_table_opts *o, double secs,
		      size_t max)
{
	size_t n;
	struct task_row *rows = task_table(m, o, &n);
	bool rates = secs > 0, utf8 = text_utf8();
	char comm[TEXT_ESCAPED_SIZE(sizeof(rows->comm))];

	fprintf(out, "%-8s %7s %10s %10s %10s %5s %6s %4s %12s %12s %7s %7s "
		"%12s %12s %9s %s\n",
		o->group ? "tgid" : "pid", "threads",
		rates ? "switches/s" : "switches", rates ? "wakeups/s" : "wakeups",
		rates ? "migr/s" : "migrations", "inv%",
		rates ? "cpu%" : "run_ms", "last",
		"wake_avg_ns", "wake_max_ns", "missed", "no_wait",
		"rq_avg_ns", "rq_max_ns", "rq_missed", "comm");
	for (size_t i = 0; i < n && (!max || i < max); i++) {
		const struct task_row *r = &rows[i];
		const struct sched_counts *c = &r->c;
		double d = rates ? secs : 1;

		fprintf(out, "%-8d %7u %10.*f %10.*f %10.*f %5.1f ", r->id,
			r->threads, rates ? 1 : 0, (double)c->switches / d,
			rates ? 1 : 0, (double)c->wakeups / d, rates ? 1 : 0,
			(double)c->migrations / d, task_row_invol(r) * 100);
		if (rates)
			fprintf(out, "%6.1f ",
				(double)c->runtime_ns / 1e9 / secs * 100);
		else
			fprintf(out, "%6.3f ", (double)c->runtime_ns / 1e6);
		if (r->have_cpu)
			fprintf(out, "%4u ", r->last_cpu);
		else
			fprintf(out, "%4s ", "-");
		/* the task's name: escaped (text.h) */
		text_escape(comm, sizeof(comm), r->comm, sizeof(r->comm),
			    utf8);
		fprintf(out, "%12" PRIu64 " %12" PRIu64 " %7" PRIu64 " %7"
			PRIu64 " %12" PRIu64 " %12" PRIu64 " %9" PRIu64
			" %s\n", c->latencies ? c->latency_sum_ns / c->latencies :
			0, c->latency_max_ns, c->missed, c->no_wait,
			c->rq_latencies ? c->rq_latency_sum_ns /
			c->rq_latencies : 0, c->rq_latency_max_ns,
			c->rq_missed, comm);
	}
	free(rows);
}

static void lat_row(FILE *out, const char *name, const struct sched_hist *h)
{
	fprintf(out, "%-4s %10" PRIu64 " %8" PRIu64 " %10" PRIu64 " %10" PRIu64
		" %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", name, h->count,
		h->missed, sched_hist_percentile(h, 50),
		sched_hist_percentile(h, 90), sched_hist_percentile(h, 99),
		h->max_ns, h->count ? h->sum_ns / h->count : 0);
}

void sched_text_merged(const struct sched_model *m, bool since_start,
		       enum sched_lat_kind kind, struct sched_hist *h)
{
	memset(h, 0, sizeof(*h));
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++)
		if (filter_cpu(m->filter, cpu))
			sched_hist_merge(h, sched_cpu_latency(&m->cpu[cpu],
							      kind,
							      since_start));
}

const char *sched_text_lat_name(enum sched_lat_kind kind)
{
	return kind == SCHED_LAT_RUNQ ? "run-queue latency" :
	       "wakeup latency";
}

const char *sched_text_lat_span(enum sched_lat_kind kind)
{
	return kind == SCHED_LAT_RUNQ ?
	       "wakeup or preemption (prev_state R, R+) to switch-in, as "
	       "runqlat and perf sched latency count it" :
	       "sched_waking or sched_wakeup to switch-in";
}

void sched_text_latency(FILE *out, const struct sched_model *m,
			bool since_start, enum sched_lat_kind kind)
{
	struct sched_hist *all = xcalloc(1, sizeof(*all));

	fprintf(out, "%-4s %10s %8s %10s %10s %10s %10s %10s\n",
		kind == SCHED_LAT_RUNQ ? "runq" : "wake", "count", "missed",
		"p50_ns", "p90_ns", "p99_ns", "max_ns", "avg_ns");
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
		char name[16];

		if (!filter_cpu(m->filter, cpu))
			continue;
		/* a CPU that never had a record, a gap or a wakeup (a
		 * possible CPU never online): a recording has no buffer of
		 * it, and the live view leaves it out the same way */
		if (!sched_model_cpu_seen(m, cpu))
			continue;
		snprintf(name, sizeof(name), "%u", cpu);
		lat_row(out, name, sched_cpu_latency(&m->cpu[cpu], kind,
						     since_start));
	}
	sched_text_merged(m, since_start, kind, all);
	lat_row(out, "all", all);
	free(all);
	fprintf(out, "# late %" PRIu64 ": records that came after a later "
		"one (out of time order), since the start\n", m->late);
}

void sched_text_histogram(FILE *out, const struct sched_hist *h)
{
	unsigned int used = sched_hist_log2_used(h);
	uint64_t most = 0;

	for (unsigned int k = 0; k < used; k++)
		if (h->log2[k] > most)
			most = h->log2[k];
	fprintf(out, "%24s : %-10s %s\n", "usecs", "count", "distribution");
	for (unsigned int k = 0; k < used; k++) {
		uint64_t lo, hi;
		char range[48], bar[41];
		unsigned int w = most ? (unsigned int)(h->log2[k] * 40 / most) : 0;

		sched_hist_bucket_us(k, &lo, &hi);
		if (hi == UINT64_MAX)
			snprintf(range, sizeof(range), "%" PRIu64 " -> ...", lo);
		else
			snprintf(range, sizeof(range), "%" PRIu64 " -> %" PRIu64,
				 lo, hi);
		memset(bar, '*', w);
		bar[w] = '\0';
		fprintf(out, "%24s : %-10" PRIu64 " |%-40s|\n", range,
			h->log2[k], bar);
	}
}

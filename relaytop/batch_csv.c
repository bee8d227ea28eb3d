// SPDX-License-Identifier: GPL-2.0
/* batch_csv.c - -b --format csv (see batch_csv.h). */
#include "batch_csv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "filter.h"
#include "task_table.h"
#include "text.h"
#include "util.h"

void batch_csv_field(FILE *out, const char *s)
{
	size_t n = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && (!n || (s[0] != ' ' && s[n - 1] != ' '))) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void cpu_row(FILE *out, const struct view *v, const char *name,
		    const struct cpu_stats *c, long run)
{
	fprintf(out, "%.3f,%.3f,%s,%.0f,%.0f,%" PRIu64 ",%.0f,%" PRIu64
		",%.0f", v->elapsed, v->st->interval, name, c->events_rate,
		c->bytes_rate, c->shown_dropped, c->dropped_rate,
		c->shown_lost, c->fill * 100);
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, ",%" PRIu64, c->mix[t]);
	fprintf(out, ",%ld\n", run);
}

static void cpus(FILE *out, const struct view *v)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order)), n;

	if (!v->block) {
		fputs("time,seconds,cpu,events_per_s,bytes_per_s,dropped,"
		      "dropped_per_s,lost,fill_pct", out);
		for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
			fprintf(out, ",%s", event_type((unsigned int)t)->name);
		fputs(",running\n", out);
	}
	n = stats_order(v->st, v->sort, order);
	for (unsigned int i = 0; i < n && !v->summary; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", order[i]);
		cpu_row(out, v, name, &v->st->cpu[order[i]],
			sched_model_running_pid(v->model, order[i]));
	}
	cpu_row(out, v, "all", &v->st->total, -1);
	free(order);
}

static uint64_t mean(uint64_t sum, uint64_t n)
{
	return n ? sum / n : 0;
}

static void tasks(FILE *out, const struct view *v, double secs)
{
	struct task_table_opts o = v->tasks;
	struct task_row *rows;
	size_t n;

	if (!v->block)
		fprintf(out, "time,seconds,span,%s,threads,switches,wakeups,"
			"migrations,inv_pct,run_ns,last_cpu,wake_count,"
			"wake_avg_ns,wake_max_ns,wake_missed,no_wait,rq_count,"
			"rq_avg_ns,rq_max_ns,rq_missed,comm\n",
			o.group ? "tgid" : "pid");
	o.since_start = v->final;
	rows = task_table(v->figures, &o, &n);
	for (size_t i = 0; i < n; i++) {
		const struct task_row *r = &rows[i];
		const struct sched_counts *c = &r->c;
		char comm[TEXT_ESCAPED_SIZE(sizeof(r->comm))];

		fprintf(out, "%.3f,%.3f,%s,%d,%u,%" PRIu64 ",%" PRIu64 ",%"
			PRIu64 ",%.1f,%" PRIu64 ",", v->elapsed, secs,
			v->final ? "total" : "interval", r->id, r->threads,
			c->switches, c->wakeups, c->migrations,
			task_row_invol(r) * 100, c->runtime_ns);
		if (r->have_cpu)
			fprintf(out, "%u", r->last_cpu);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
			PRIu64 ",", c->latencies,
			mean(c->latency_sum_ns, c->latencies),
			c->latency_max_ns, c->missed, c->no_wait,
			c->rq_latencies, mean(c->rq_latency_sum_ns,
					      c->rq_latencies),
			c->rq_latency_max_ns, c->rq_missed);
		/* the task's name: escaped as every text, then a field */
		text_escape(comm, sizeof(comm), r->comm, sizeof(r->comm), true);
		batch_csv_field(out, comm);
		fputc('\n', out);
	}
	free(rows);
}

static void lat_row(FILE *out, const struct view *v, double secs,
		    enum sched_lat_kind k, const char *cpu,
		    const struct sched_hist *h)
{
	fprintf(out, "%.3f,%.3f,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		"\n", v->elapsed, secs, v->final ? "total" : "interval",
		k == SCHED_LAT_RUNQ ? "runq" : "wakeup", cpu, h->count,
		h->missed, sched_hist_percentile(h, 50),
		sched_hist_percentile(h, 90), sched_hist_percentile(h, 99),
		h->max_ns, mean(h->sum_ns, h->count), v->figures->late);
}

static void latency(FILE *out, const struct view *v, double secs)
{
	const struct sched_model *m = v->figures;
	struct sched_hist *all = xcalloc(1, sizeof(*all));

	if (!v->block)
		fputs("time,seconds,span,latency,cpu,count,missed,p50_ns,"
		      "p90_ns,p99_ns,max_ns,avg_ns,late\n", out);
	for (int k = SCHED_LAT_WAKEUP; k <= SCHED_LAT_RUNQ; k++) {
		memset(all, 0, sizeof(*all));
		for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
			const struct sched_hist *h;
			char name[16];

			if (!filter_cpu(m->filter, cpu) ||
			    !sched_model_cpu_seen(m, cpu))
				continue;
			h = sched_cpu_latency(&m->cpu[cpu], k, v->final);
			sched_hist_merge(all, h);
			snprintf(name, sizeof(name), "%u", cpu);
			lat_row(out, v, secs, k, name, h);
		}
		lat_row(out, v, secs, k, "all", all);
	}
	free(all);
}

void batch_csv(FILE *out, const struct view *v)
{
	double secs;

	if (!v->figures || !(v->batch_tasks || v->batch_latency)) {
		if (!v->final)
			cpus(out, v);
		return;
	}
	secs = v->final ? v->elapsed : (double)v->figures->last_ns / 1e9;
	if (v->batch_tasks)
		tasks(out, v, secs);
	else
		latency(out, v, secs);
}

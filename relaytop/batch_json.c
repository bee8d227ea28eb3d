// SPDX-License-Identifier: GPL-2.0
/* batch_json.c - -b --format json (see batch_json.h). */
#include "batch_json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "filter.h"
#include "json_text.h"
#include "task_table.h"
#include "text.h"
#include "util.h"

/* A text as a JSON string, escaped as every text first. */
static void text_str(FILE *out, const char *s, size_t max)
{
	char shown[TEXT_ESCAPED_SIZE(256)];

	text_escape(shown, sizeof(shown), s, max < 256 ? max : 256, true);
	json_str(out, shown, sizeof(shown));
}

static void cpu_obj(FILE *out, const char *key, long cpu,
		    const struct cpu_stats *c, long running)
{
	fprintf(out, "{");
	if (key)
		fprintf(out, "\"cpu\":%ld,", cpu);
	fprintf(out, "\"events_per_s\":%.1f,\"bytes_per_s\":%.1f,\"dropped\":%"
		PRIu64 ",\"dropped_per_s\":%.1f,\"lost\":%" PRIu64
		",\"fill\":%.4f,\"mix\":{", c->events_rate, c->bytes_rate,
		c->shown_dropped, c->dropped_rate, c->shown_lost, c->fill);
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		fprintf(out, "%s\"%s\":%" PRIu64, t ? "," : "",
			event_type((unsigned int)t)->name, c->mix[t]);
	fprintf(out, "}");
	if (key)
		fprintf(out, ",\"running\":%ld", running);
	fprintf(out, "}");
}

static void cpus(FILE *out, const struct view *v)
{
	unsigned int *order = xcalloc(v->st->ncpus + 1, sizeof(*order)), n;

	n = stats_order(v->st, v->sort, order);
	fprintf(out, ",\"cpus\":[");
	for (unsigned int i = 0; i < n && !v->summary; i++) {
		if (i)
			fputc(',', out);
		cpu_obj(out, "cpu", order[i], &v->st->cpu[order[i]],
			sched_model_running_pid(v->model, order[i]));
	}
	fprintf(out, "],\"all\":");
	cpu_obj(out, NULL, -1, &v->st->total, -1);
	free(order);
}

static uint64_t mean(uint64_t sum, uint64_t n)
{
	return n ? sum / n : 0;
}

static void tasks(FILE *out, const struct view *v)
{
	struct task_table_opts o = v->tasks;
	struct task_row *rows;
	size_t n;

	o.since_start = v->final;
	rows = task_table(v->figures, &o, &n);
	fprintf(out, ",\"tasks\":{\"grouped\":%s,\"rows\":[",
		o.group ? "true" : "false");
	for (size_t i = 0; i < n; i++) {
		const struct task_row *r = &rows[i];
		const struct sched_counts *c = &r->c;

		fprintf(out, "%s{\"id\":%d,\"comm\":", i ? "," : "", r->id);
		text_str(out, r->comm, sizeof(r->comm));
		fprintf(out, ",\"threads\":%u,\"switches\":%" PRIu64
			",\"wakeups\":%" PRIu64 ",\"migrations\":%" PRIu64
			",\"involuntary\":%" PRIu64 ",\"voluntary\":%" PRIu64
			",\"run_ns\":%" PRIu64 ",\"last_cpu\":", r->threads,
			c->switches, c->wakeups, c->migrations,
			c->involuntary, c->voluntary, c->runtime_ns);
		if (r->have_cpu)
			fprintf(out, "%u", r->last_cpu);
		else
			fprintf(out, "null");
		fprintf(out, ",\"wakeup_latency\":{\"count\":%" PRIu64
			",\"avg_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64
			",\"missed\":%" PRIu64 ",\"no_wait\":%" PRIu64
			"},\"runq_latency\":{\"count\":%" PRIu64 ",\"avg_ns\":%"
			PRIu64 ",\"max_ns\":%" PRIu64 ",\"missed\":%" PRIu64
			"}}", c->latencies, mean(c->latency_sum_ns,
						 c->latencies),
			c->latency_max_ns, c->missed, c->no_wait,
			c->rq_latencies, mean(c->rq_latency_sum_ns,
					      c->rq_latencies),
			c->rq_latency_max_ns, c->rq_missed);
	}
	fprintf(out, "]}");
	free(rows);
}

static void hist_obj(FILE *out, const struct sched_hist *h)
{
	fprintf(out, "{\"count\":%" PRIu64 ",\"missed\":%" PRIu64 ",\"p50_ns\":%"
		PRIu64 ",\"p90_ns\":%" PRIu64 ",\"p99_ns\":%" PRIu64
		",\"max_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64 "}", h->count,
		h->missed, sched_hist_percentile(h, 50),
		sched_hist_percentile(h, 90), sched_hist_percentile(h, 99),
		h->max_ns, mean(h->sum_ns, h->count));
}

/* runqlat's log2 buckets of microseconds: [from, to] and the count. */
static void histogram(FILE *out, const struct sched_hist *h)
{
	unsigned int used = sched_hist_log2_used(h);

	fprintf(out, ",\"histogram_us\":[");
	for (unsigned int k = 0; k < used; k++) {
		uint64_t lo, hi;

		sched_hist_bucket_us(k, &lo, &hi);
		fprintf(out, "%s{\"from\":%" PRIu64 ",\"to\":", k ? "," : "",
			lo);
		if (hi == UINT64_MAX)
			fprintf(out, "null");
		else
			fprintf(out, "%" PRIu64, hi);
		fprintf(out, ",\"count\":%" PRIu64 "}", h->log2[k]);
	}
	fprintf(out, "]");
}

static void latency(FILE *out, const struct view *v)
{
	const struct sched_model *m = v->figures;
	struct sched_hist *all = xcalloc(1, sizeof(*all));

	fprintf(out, ",\"latency\":{\"late\":%" PRIu64, m->late);
	for (int k = SCHED_LAT_WAKEUP; k <= SCHED_LAT_RUNQ; k++) {
		bool first = true;

		memset(all, 0, sizeof(*all));
		fprintf(out, ",\"%s\":{\"cpus\":[", k == SCHED_LAT_RUNQ ?
			"runq" : "wakeup");
		for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
			const struct sched_hist *h;

			if (!filter_cpu(m->filter, cpu) ||
			    !sched_model_cpu_seen(m, cpu))
				continue;
			h = sched_cpu_latency(&m->cpu[cpu], k, v->final);
			sched_hist_merge(all, h);
			fprintf(out, "%s{\"cpu\":%u,\"latency\":", first ? "" :
				",", cpu);
			hist_obj(out, h);
			fprintf(out, "}");
			first = false;
		}
		fprintf(out, "],\"all\":");
		hist_obj(out, all);
		histogram(out, all);
		fprintf(out, "}");
	}
	fprintf(out, "}");
	free(all);
}

void batch_json(FILE *out, const struct view *v)
{
	fprintf(out, "{\"time\":%.3f,\"interval\":%.3f,\"final\":%s",
		v->elapsed, v->st->interval, v->final ? "true" : "false");
	if (v->figures && (v->batch_tasks || v->batch_latency))
		fprintf(out, ",\"figures_seconds\":%.3f", v->final ?
			v->elapsed : (double)v->figures->last_ns / 1e9);
	if (v->have_cfg) {
		char events[128];

		events_format(v->cfg.events, ",", events, sizeof(events));
		fprintf(out, ",\"channel\":{\"generation\":%" PRIu64
			",\"subbuf_size\":%" PRIu32 ",\"n_subbufs\":%" PRIu32
			",\"overwrite\":%s,\"enabled\":%s,\"events\":",
			v->cfg.generation, v->cfg.geom.subbuf_size,
			v->cfg.geom.n_subbufs,
			v->cfg.overwrite ? "true" : "false",
			v->cfg.enabled ? "true" : "false");
		fputc('[', out);
		for (char *e = events; *e;) {
			size_t len = strcspn(e, ",");

			fprintf(out, "%s\"%.*s\"", e == events ? "" : ",",
				(int)len, e);
			e += len + (e[len] == ',');
		}
		fprintf(out, "]}");
	}
	if (!v->channel_ok && !v->replay)
		fprintf(out, ",\"channel_gone\":true");
	if (v->filter && v->filter[0]) {
		fprintf(out, ",\"filter\":");
		json_str(out, v->filter, strlen(v->filter));
	}
	if (v->self_known)
		fprintf(out, ",\"self\":%" PRIu64, v->self_events);
	if (v->status && v->status[0] && v->status_new) {
		fprintf(out, ",\"status\":");
		text_str(out, v->status, strlen(v->status));
	}
	cpus(out, v);
	if (v->figures && v->batch_tasks)
		tasks(out, v);
	if (v->figures && v->batch_latency)
		latency(out, v);
	fprintf(out, "}\n");
}

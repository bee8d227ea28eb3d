// SPDX-License-Identifier: GPL-2.0
/* ui_sched.c - the tasks and latency views (see ui_sched.h). */
#include "ui_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "task_table.h"
#include "text.h"
#include "ui_paint.h"
#include "util.h"

/* The line above a view's table: what it shows. */
static void title(const struct view *v, int y, const char *what)
{
	const struct sched_model *m = v->figures;
	char cpu[32];

	if (v->tasks.cpu < 0)
		snprintf(cpu, sizeof(cpu), "all CPUs");
	else
		snprintf(cpu, sizeof(cpu), "CPU %d", v->tasks.cpu);
	attron(A_BOLD);
	paint_put(y, 0, "%s", what);
	attroff(A_BOLD);
	paint_put(y, (int)strlen(what), " %s, interval %.2fs%s%s", cpu,
		  m ? (double)m->last_ns / 1e9 : 0.0,
		  v->filter && v->filter[0] ? "  " : "",
		  v->filter ? v->filter : "");
	/* what is typed on the screen is printable ASCII (controller.c) */
	if (v->mode == VIEW_TASKS && v->tasks.match[0]) {
		int yy, x;

		getyx(stdscr, yy, x);
		if (yy == y)
			paint_put(y, x, "  filter \"%s\"", v->tasks.match);
	}
}

unsigned int ui_draw_tasks(const struct view *v, int top, int bottom)
{
	const struct sched_model *m = v->figures;
	struct task_table_opts o = v->tasks;
	bool rq = v->lat_kind == SCHED_LAT_RUNQ;
	enum task_col avg_col = rq ? TCOL_RQ_AVG : TCOL_LAT_AVG;
	enum task_col max_col = rq ? TCOL_RQ_MAX : TCOL_LAT_MAX;
	char bar[256], hdr[TCOL_NR][16];
	struct task_row *rows;
	unsigned int first, room;
	size_t n;
	double secs;
	int y = top + 2;

	title(v, top, v->tasks.group ? "PROCESSES" : "TASKS");
	if (!m) {
		paint_put(top + 2, 0, "no figures: relaytop follows the tasks "
			  "only with a screen or -b");
		return 0;
	}
	for (int c = 0; c < TCOL_NR; c++)
		snprintf(hdr[c], sizeof(hdr[c]), "%s%s", task_col_name((enum task_col)c),
			 c == (int)o.sort ? (o.reverse ? "^" : "v") : "");
	snprintf(bar, sizeof(bar), "%7s %-14s %7s %7s %6s %5s %6s %4s %7s %7s",
		 hdr[TCOL_PID], hdr[TCOL_COMM], hdr[TCOL_SWITCHES],
		 hdr[TCOL_WAKEUPS], hdr[TCOL_MIGRATIONS], hdr[TCOL_INVOL],
		 hdr[TCOL_CPU], hdr[TCOL_LAST], hdr[avg_col], hdr[max_col]);
	paint_bar(top + 1, bar);
	o.since_start = false;
	rows = task_table(m, &o, &n);
	secs = (double)m->last_ns / 1e9;
	room = bottom > y ? (unsigned int)(bottom - y) : 0;
	first = paint_first_row(v->scroll, (unsigned int)n, room);
	/* the row the search found is on the screen */
	for (size_t i = 0; i < n && v->found_id >= 0 && room; i++) {
		if (rows[i].id != v->found_id)
			continue;
		if (i < first || i >= first + room)
			first = paint_first_row(i > room / 2 ?
						(unsigned int)i - room / 2 : 0,
						(unsigned int)n, room);
		break;
	}
	if (!n && o.match[0])
		paint_put(y, 0, "no task matches the filter \"%s\" (Esc: "
			  "all of them)", o.match);
	else if (!n)
		paint_put(y, 0, m->intervals ? "no task did anything in the "
			  "last interval" : "the first interval is not over yet");
	for (size_t i = first; i < n && y < bottom; i++, y++) {
		const struct task_row *r = &rows[i];
		uint64_t nlat = rq ? r->c.rq_latencies : r->c.latencies;
		uint64_t sum = rq ? r->c.rq_latency_sum_ns : r->c.latency_sum_ns;
		char avg[16], max[16], last[8];
		char comm[TEXT_ESCAPED_SIZE(sizeof(r->comm))];

		paint_ns(avg, sizeof(avg), nlat ? sum / nlat : 0);
		paint_ns(max, sizeof(max), rq ? r->c.rq_latency_max_ns :
			 r->c.latency_max_ns);
		if (r->have_cpu)
			snprintf(last, sizeof(last), "%u", r->last_cpu);
		else
			snprintf(last, sizeof(last), "-");
		text_escape(comm, sizeof(comm), r->comm, sizeof(r->comm),
			    paint_utf8());
		paint_put(y, 0, "%7d %-14.14s %7.1f %7.1f %6.1f %5.1f %6.1f "
			  "%4s %7s %7s", r->id, comm,
			  secs > 0 ? (double)r->c.switches / secs : 0,
			  secs > 0 ? (double)r->c.wakeups / secs : 0,
			  secs > 0 ? (double)r->c.migrations / secs : 0,
			  task_row_invol(r) * 100,
			  secs > 0 ? (double)r->c.runtime_ns / 1e9 / secs * 100 : 0,
			  last, nlat ? avg : "-", nlat ? max : "-");
		if (r->id == v->found_id)
			mvchgat(y, 0, -1, A_REVERSE, 0, NULL);
	}
	if (n > room && room)
		paint_put(top, COLS > 24 ? COLS - 22 : 0, "rows %u-%u of %zu",
			  first + 1, first + room, n);
	free(rows);
	return first;
}

static void lat_row(int y, const char *name, const struct sched_hist *h,
		    bool bold)
{
	char p[4][16], avg[16];

	paint_ns(p[0], sizeof(p[0]), sched_hist_percentile(h, 50));
	paint_ns(p[1], sizeof(p[1]), sched_hist_percentile(h, 90));
	paint_ns(p[2], sizeof(p[2]), sched_hist_percentile(h, 99));
	paint_ns(p[3], sizeof(p[3]), h->max_ns);
	paint_ns(avg, sizeof(avg), h->count ? h->sum_ns / h->count : 0);
	if (bold)
		attron(A_BOLD);
	paint_put(y, 0, "%3s %9llu %7llu %7s %7s %7s %7s %7s", name,
		  (unsigned long long)h->count, (unsigned long long)h->missed,
		  h->count ? p[0] : "-", h->count ? p[1] : "-",
		  h->count ? p[2] : "-", h->count ? p[3] : "-",
		  h->count ? avg : "-");
	if (h->missed)
		mvchgat(y, 14, 7, A_BOLD,
			paint_pair(PAIR_WARN) ? PAIR_WARN : 0, NULL);
	if (bold)
		attroff(A_BOLD);
}

/* Under the table: the records that came out of time order (the figures
 * may be off by what they say), and the CPUs left out. */
static void note(int y, uint64_t late, unsigned int unseen)
{
	char more[64] = "";

	if (unseen)
		snprintf(more, sizeof(more), "; %u CPU%s with no record "
			 "not shown", unseen, unseen == 1 ? "" : "s");
	if (late)
		attron(A_BOLD | paint_pair(PAIR_WARN));
	paint_put(y, 0, "late %llu", (unsigned long long)late);
	if (late)
		attroff(A_BOLD | paint_pair(PAIR_WARN));
	paint_put(y, 5 + snprintf(NULL, 0, "%llu", (unsigned long long)late),
		  " (records out of time order)%s", more);
}

/* runqlat's histogram of h from line y to bottom. */
static void histogram(const struct sched_hist *h, int y, int bottom)
{
	unsigned int used = sched_hist_log2_used(h);
	uint64_t most = 0;
	int width = COLS - 34;

	if (width > 40)
		width = 40;
	for (unsigned int k = 0; k < used; k++)
		if (h->log2[k] > most)
			most = h->log2[k];
	paint_put(y++, 0, "%15s : %-9s distribution", "usecs", "count");
	for (unsigned int k = 0; k < used && y < bottom; k++, y++) {
		uint64_t lo, hi;
		char range[32];
		int w = most && width > 0 ?
			(int)(h->log2[k] * (uint64_t)width / most) : 0;

		sched_hist_bucket_us(k, &lo, &hi);
		if (hi == UINT64_MAX)
			snprintf(range, sizeof(range), "%llu -> ...",
				 (unsigned long long)lo);
		else
			snprintf(range, sizeof(range), "%llu -> %llu",
				 (unsigned long long)lo, (unsigned long long)hi);
		paint_put(y, 0, "%15s : %-9llu |", range,
			  (unsigned long long)h->log2[k]);
		attron(paint_pair(PAIR_SPARK));
		for (int i = 0; i < w; i++)
			addch('*');
		attroff(paint_pair(PAIR_SPARK));
		if (width > 0)
			mvaddch(y, 29 + width, '|');
	}
}

unsigned int ui_draw_latency(const struct view *v, int top, int bottom)
{
	const struct sched_model *m = v->figures;
	struct sched_hist *all, *shown;
	unsigned int ncpu = 0, unseen = 0, span = m ? m->ncpus : 0;
	unsigned int first, room, shown_rows = 0;
	unsigned int *cpus;
	int y = top + 2;

	title(v, top, v->lat_kind == SCHED_LAT_RUNQ ?
	      "RUN-QUEUE LATENCY wakeup or preemption -> switch-in" :
	      "LATENCY wakeup -> switch-in");
	if (!m) {
		paint_put(top + 2, 0, "no figures: relaytop follows the tasks "
			  "only with a screen or -b");
		return 0;
	}
	paint_bar(top + 1, "CPU     COUNT  MISSED     P50     P90     P99     MAX     AVG");
	if (v->st && v->st->ncpus > span)
		span = v->st->ncpus;
	cpus = xcalloc(m->ncpus + 1, sizeof(*cpus));
	all = xcalloc(2, sizeof(*all));
	shown = all + 1;
	for (unsigned int c = 0; c < span; c++) {
		if (!filter_cpu(m->filter, c))
			continue;
		/* a CPU with no record, gap or wakeup has no row (as in
		 * batch mode and --report); the line below counts those
		 * the CPU table shows (the model's array has room for
		 * CPUs that do not exist) */
		if (!sched_model_cpu_seen(m, c)) {
			if (v->st && c < v->st->ncpus && v->st->cpu[c].present)
				unseen++;
			continue;
		}
		cpus[ncpu++] = c;
		sched_hist_merge(all, sched_cpu_latency(&m->cpu[c],
							v->lat_kind, false));
	}
	if (v->tasks.cpu >= 0 && (unsigned int)v->tasks.cpu < m->ncpus)
		*shown = *sched_cpu_latency(&m->cpu[v->tasks.cpu],
					    v->lat_kind, false);
	else
		*shown = *all;
	/* the CPUs take at most half of what there is, the histogram the rest */
	room = bottom - y > 4 ? (unsigned int)(bottom - y - 1) / 2 : 1;
	if (v->summary)
		room = 0;
	first = paint_first_row(v->scroll, ncpu, room);
	for (unsigned int i = first; i < ncpu && shown_rows < room; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", cpus[i]);
		lat_row(y++, name, sched_cpu_latency(&m->cpu[cpus[i]],
						     v->lat_kind, false), false);
		shown_rows++;
	}
	lat_row(y++, "all", all, true);
	if (ncpu > room && room)
		paint_put(top, COLS > 24 ? COLS - 22 : 0, "CPUs %u-%u of %u",
			  first + 1, first + room, ncpu);
	if (y < bottom)
		note(y++, m->late, unseen);
	y++;
	if (y < bottom) {
		if (v->tasks.cpu >= 0)
			paint_put(y++, 0, "CPU %d:", v->tasks.cpu);
		histogram(shown, y, bottom);
	}
	free(all);
	free(cpus);
	return first;
}

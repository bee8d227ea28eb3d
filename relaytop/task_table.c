// SPDX-License-Identifier: GPL-2.0
/* task_table.c - the tasks view's rows (see task_table.h). */
#include "task_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "text.h"
#include "util.h"

static const struct {
	const char *name, *title;
} cols[TCOL_NR] = {
	[TCOL_PID] = { "PID", "pid" },
	[TCOL_COMM] = { "COMM", "name" },
	[TCOL_SWITCHES] = { "SW/s", "switches/s" },
	[TCOL_WAKEUPS] = { "WAKE/s", "wakeups/s" },
	[TCOL_MIGRATIONS] = { "MIG/s", "migrations/s" },
	[TCOL_INVOL] = { "INV%", "involuntary share" },
	[TCOL_CPU] = { "CPU%", "CPU share" },
	[TCOL_LAST] = { "LAST", "last CPU" },
	[TCOL_LAT_AVG] = { "WAKAVG", "wakeup latency mean" },
	[TCOL_LAT_MAX] = { "WAKMAX", "wakeup latency max" },
	[TCOL_RQ_AVG] = { "RQAVG", "run-queue latency mean" },
	[TCOL_RQ_MAX] = { "RQMAX", "run-queue latency max" },
};

const char *task_col_name(enum task_col c)
{
	return c < TCOL_NR ? cols[c].name : "?";
}

const char *task_col_title(enum task_col c)
{
	return c < TCOL_NR ? cols[c].title : "?";
}

int task_col_parse(const char *name)
{
	static const struct {
		const char *name;
		enum task_col col;
	} other[] = {
		{ "sw", TCOL_SWITCHES }, { "switches", TCOL_SWITCHES },
		{ "wake", TCOL_WAKEUPS }, { "wakeups", TCOL_WAKEUPS },
		{ "mig", TCOL_MIGRATIONS }, { "migrations", TCOL_MIGRATIONS },
		{ "inv", TCOL_INVOL }, { "cpu", TCOL_CPU },
	};

	for (int c = 0; c < TCOL_NR; c++)
		if (!strcasecmp(name, cols[c].name))
			return c;
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strcasecmp(name, other[i].name))
			return (int)other[i].col;
	return -1;
}

bool task_col_shown(enum task_col c, enum sched_lat_kind kind)
{
	if (c == TCOL_LAT_AVG || c == TCOL_LAT_MAX)
		return kind == SCHED_LAT_WAKEUP;
	if (c == TCOL_RQ_AVG || c == TCOL_RQ_MAX)
		return kind == SCHED_LAT_RUNQ;
	return c < TCOL_NR;
}

/* Whether hay holds needle, ASCII letters in either case. */
static bool holds(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		size_t i = 0;

		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) ==
		       tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return n == 0;
}

bool task_row_matches(const struct task_row *r, const char *text)
{
	char name[TEXT_ESCAPED_SIZE(sizeof(r->comm))];
	size_t digits = strspn(text, "0123456789");

	if (!text[0])
		return true;
	if (!text[digits] && digits < 11 && r->id == atol(text))
		return true;
	/* the name as shown: what the user reads is what the user types */
	text_escape(name, sizeof(name), r->comm, sizeof(r->comm), true);
	return holds(name, text);
}

double task_row_invol(const struct task_row *r)
{
	uint64_t outs = r->c.involuntary + r->c.voluntary;

	return outs ? (double)r->c.involuntary / (double)outs : 0;
}

static void add_counts(struct sched_counts *a, const struct sched_counts *b)
{
	a->switches += b->switches;
	a->involuntary += b->involuntary;
	a->voluntary += b->voluntary;
	a->wakeups += b->wakeups;
	a->migrations += b->migrations;
	a->runtime_ns += b->runtime_ns;
	a->latencies += b->latencies;
	a->latency_sum_ns += b->latency_sum_ns;
	if (b->latency_max_ns > a->latency_max_ns)
		a->latency_max_ns = b->latency_max_ns;
	a->missed += b->missed;
	a->no_wait += b->no_wait;
	a->rq_latencies += b->rq_latencies;
	a->rq_latency_sum_ns += b->rq_latency_sum_ns;
	if (b->rq_latency_max_ns > a->rq_latency_max_ns)
		a->rq_latency_max_ns = b->rq_latency_max_ns;
	a->rq_missed += b->rq_missed;
}

static bool empty(const struct sched_counts *c)
{
	return !c->switches && !c->involuntary && !c->voluntary &&
	       !c->wakeups && !c->migrations && !c->runtime_ns &&
	       !c->latencies && !c->missed && !c->no_wait &&
	       !c->rq_latencies && !c->rq_missed;
}

static double value(const struct task_row *r, enum task_col col)
{
	switch (col) {
	case TCOL_PID:
		return r->id;
	case TCOL_SWITCHES:
		return (double)r->c.switches;
	case TCOL_WAKEUPS:
		return (double)r->c.wakeups;
	case TCOL_MIGRATIONS:
		return (double)r->c.migrations;
	case TCOL_INVOL:
		return task_row_invol(r);
	case TCOL_CPU:
		return (double)r->c.runtime_ns;
	case TCOL_LAST:
		return r->have_cpu ? (double)r->last_cpu : -1;
	case TCOL_LAT_AVG:
		return r->c.latencies ? (double)r->c.latency_sum_ns /
					(double)r->c.latencies : 0;
	case TCOL_LAT_MAX:
		return (double)r->c.latency_max_ns;
	case TCOL_RQ_AVG:
		return r->c.rq_latencies ? (double)r->c.rq_latency_sum_ns /
					   (double)r->c.rq_latencies : 0;
	case TCOL_RQ_MAX:
		return (double)r->c.rq_latency_max_ns;
	default:
		return 0;
	}
}

/* By the column (descending for figures, ascending for pid, name and
 * CPU), then by id: a total order, so equal tables sort alike. */
static int compare(const struct task_row *a, const struct task_row *b,
		   const struct task_table_opts *o)
{
	bool ascending = o->sort == TCOL_PID || o->sort == TCOL_COMM ||
			 o->sort == TCOL_LAST;
	int d = 0;

	if (o->sort == TCOL_COMM) {
		d = strcmp(a->comm, b->comm);
	} else {
		double va = value(a, o->sort), vb = value(b, o->sort);

		d = va < vb ? -1 : va > vb;
	}
	if (!ascending)
		d = -d;
	if (!d)
		d = a->id < b->id ? -1 : a->id > b->id;
	return o->reverse ? -d : d;
}

/* Merge sort of rows[0..n) by compare(), tmp as large. */
static void sort(struct task_row *rows, struct task_row *tmp, size_t n,
		 const struct task_table_opts *o)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort(rows, tmp, h, o);
	sort(rows + h, tmp, n - h, o);
	while (i < h && j < n)
		tmp[k++] = compare(&rows[j], &rows[i], o) < 0 ? rows[j++] :
							       rows[i++];
	while (i < h)
		tmp[k++] = rows[i++];
	while (j < n)
		tmp[k++] = rows[j++];
	memcpy(rows, tmp, n * sizeof(*rows));
}

/* The row of id in rows[0..n), or NULL. */
static struct task_row *row_of(struct task_row *rows, size_t n, int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

struct task_row *task_table(const struct sched_model *m,
			    const struct task_table_opts *o, size_t *n)
{
	struct task_row *rows = xcalloc(m->ntasks + 1, sizeof(*rows));
	size_t k = 0;

	for (size_t i = 0; i < m->cap; i++) {
		const struct sched_task_stats *t = sched_model_slot(m, i);
		const struct sched_counts *c;
		struct task_row *r;
		int32_t id;

		if (!t)
			continue;
		c = o->since_start ? &t->all : &t->last;
		if (empty(c))
			continue;
		if (o->cpu >= 0 && (!t->have_cpu || t->last_cpu != (unsigned int)o->cpu))
			continue;
		id = o->group && t->task.tgid > 0 ? t->task.tgid : t->task.pid;
		r = o->group ? row_of(rows, k, id) : NULL;
		if (!r) {
			r = &rows[k++];
			r->id = id;
			snprintf(r->comm, sizeof(r->comm), "%s", t->task.comm);
		} else if (t->task.pid == id) {
			/* a process is named after its main thread */
			snprintf(r->comm, sizeof(r->comm), "%s", t->task.comm);
		}
		r->threads++;
		add_counts(&r->c, c);
		r->have_cpu = t->have_cpu;
		r->last_cpu = t->last_cpu;
	}
	if (o->match[0]) {
		size_t kept = 0;

		for (size_t i = 0; i < k; i++)
			if (task_row_matches(&rows[i], o->match))
				rows[kept++] = rows[i];
		k = kept;
	}
	if (k > 1) {
		struct task_row *tmp = xcalloc(k, sizeof(*tmp));

		sort(rows, tmp, k, o);
		free(tmp);
	}
	*n = k;
	return rows;
}

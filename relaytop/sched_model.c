// SPDX-License-Identifier: GPL-2.0
/*
 * sched_model.c - the scheduler as the records tell it (see sched_model.h).
 *
 * Per CPU: sched_switch pairs say who runs; a run ends at the switch that
 * takes its task off, or is cut short at the CPU's newest record when the
 * model loses track.  After a gap nothing is missing from the first record
 * on, so the task that the next switch takes off ran at least since then.
 * Per task: a wakeup (sched_waking, sched_wakeup or sched_wakeup_new,
 * whichever comes first) waits for the switch that puts the task on; a
 * gap on any CPU may have hidden that switch (not only on the CPU it is
 * to run on: the CPU with the gap may have pulled the task, its
 * migration lost with the rest), so every wakeup waiting then is counted
 * as missed, where it was to run, rather than paired with a later one.
 * The run-queue wait is the same but for where it starts: at a wakeup,
 * or at a switch-out that leaves the task runnable (prev_state R, R+), as
 * perf sched latency's add_sched_out_event() and runqlat's
 * trace_enqueue() on sched_switch start it.
 */
#include "sched_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "util.h"

void sched_model_init(struct sched_model *m, unsigned int ncpus)
{
	memset(m, 0, sizeof(*m));
	m->events = SCHED_RELAY_ALL_EVENTS;
	m->ncpus = ncpus;
	m->cpu = xcalloc(ncpus ? ncpus : 1, sizeof(*m->cpu));
}

void sched_model_free(struct sched_model *m)
{
	free(m->cpu);
	free(m->tasks);
	free(m->used);
	free(m->waitlist);
	memset(m, 0, sizeof(*m));
}

void sched_model_copy(struct sched_model *dst, const struct sched_model *src)
{
	struct sched_cpu *cpu = dst->cpu;
	struct sched_task_stats *tasks = dst->tasks;
	bool *used = dst->used;
	int32_t *waitlist = dst->waitlist;

	/* reuse dst's arrays when they are the size needed */
	if (dst->ncpus != src->ncpus) {
		free(cpu);
		cpu = xcalloc(src->ncpus ? src->ncpus : 1, sizeof(*cpu));
	}
	if (dst->cap != src->cap) {
		free(tasks);
		free(used);
		tasks = src->cap ? xcalloc(src->cap, sizeof(*tasks)) : NULL;
		used = src->cap ? xcalloc(src->cap, sizeof(*used)) : NULL;
	}
	if (dst->waitlist_cap != src->waitlist_cap) {
		free(waitlist);
		waitlist = src->waitlist_cap ?
			   xcalloc(src->waitlist_cap, sizeof(*waitlist)) : NULL;
	}
	*dst = *src;
	dst->cpu = cpu;
	dst->tasks = tasks;
	dst->used = used;
	dst->waitlist = waitlist;
	if (src->nwaitlist)
		memcpy(waitlist, src->waitlist,
		       src->nwaitlist * sizeof(*waitlist));
	dst->on_run = NULL;
	memcpy(cpu, src->cpu, src->ncpus * sizeof(*cpu));
	if (src->cap) {
		memcpy(tasks, src->tasks, src->cap * sizeof(*tasks));
		memcpy(used, src->used, src->cap * sizeof(*used));
	}
}

static struct sched_cpu *cpu_of(struct sched_model *m, unsigned int cpu)
{
	m->cpu = xgrow(m->cpu, &m->ncpus, cpu, sizeof(*m->cpu));
	return &m->cpu[cpu];
}

const struct sched_cpu *sched_model_cpu(const struct sched_model *m,
					unsigned int cpu)
{
	return cpu < m->ncpus ? &m->cpu[cpu] : NULL;
}

/* ---- tasks ---------------------------------------------------------- */

static size_t slot_of(const struct sched_model *m, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (m->cap - 1);

	while (m->used[i] && m->tasks[i].task.pid != pid)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow_tasks(struct sched_model *m)
{
	struct sched_task_stats *old = m->tasks;
	bool *old_used = m->used;
	size_t old_cap = m->cap;

	m->cap = m->cap ? 2 * m->cap : 256;
	m->tasks = xcalloc(m->cap, sizeof(*m->tasks));
	m->used = xcalloc(m->cap, sizeof(*m->used));
	for (size_t i = 0; i < old_cap; i++) {
		size_t j;

		if (!old_used[i])
			continue;
		j = slot_of(m, old[i].task.pid);
		m->tasks[j] = old[i];
		m->used[j] = true;
	}
	free(old);
	free(old_used);
}

static struct sched_task_stats *find_task(const struct sched_model *m,
					  int32_t pid)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = slot_of(m, pid);
	return m->used[i] ? &m->tasks[i] : NULL;
}

const struct sched_task_stats *sched_model_task(const struct sched_model *m,
						int32_t pid)
{
	return find_task(m, pid);
}

/*
 * The pid of e now belongs to another task: its entry starts again, in
 * the same slot, so it keeps the pid that slot_of() finds it by (without
 * it the slot would stay used by no pid and the next task_of() would
 * take another one: a slot lost per reuse).
 */
static void forget(struct sched_model *m, struct sched_task_stats *e)
{
	int32_t pid = e->task.pid;
	bool listed = e->listed;

	if (e->waiting)
		m->nwaiting--;
	memset(e, 0, sizeof(*e));
	e->task.pid = pid;
	e->listed = listed;	/* the pid is still in the waitlist */
	m->reused++;
}

/* Whether t, named by a record, is another task than e's (same pid). */
static bool new_task(const struct sched_task_stats *e,
		     const struct sched_task *t)
{
	/* a thread never changes its group: a pid reused */
	if (e->task.tgid > 0 && t->tgid > 0 && e->task.tgid != t->tgid)
		return true;
	/* exited, then another name: a pid reused (an exec, which renames
	 * a task that goes on, comes before any exit) */
	return e->exited && strncmp(e->task.comm, t->comm, sizeof(t->comm));
}

/* The entry of the task t names (made if new, started again if the pid is
 * another task's now), its name brought up to date. */
static struct sched_task_stats *task_of(struct sched_model *m,
					const struct sched_task *t)
{
	size_t i;

	if (2 * (m->ntasks + 1) > m->cap)
		grow_tasks(m);
	i = slot_of(m, t->pid);
	if (!m->used[i]) {
		m->used[i] = true;
		m->ntasks++;
		memset(&m->tasks[i], 0, sizeof(m->tasks[i]));
	} else if (new_task(&m->tasks[i], t)) {
		forget(m, &m->tasks[i]);
	}
	m->tasks[i].task = *t;
	return &m->tasks[i];
}

static void task_from(struct sched_task *t, const char *comm, int32_t pid,
		      int32_t tgid, uint8_t prio)
{
	/* (not snprintf: this is done for most records) */
	size_t n = strnlen(comm, SCHED_RELAY_COMM_LEN);

	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
	t->pid = pid;
	t->tgid = tgid;
	t->prio = fields_prio(prio);
}

/* ---- counts --------------------------------------------------------- */

/* Whether what t did on cpu counts (the filter). */
static bool counts(const struct sched_model *m, const struct sched_task *t,
		   unsigned int cpu)
{
	return filter_task(m->filter, t->pid, t->tgid, t->comm) &&
	       filter_cpu(m->filter, cpu);
}

/* The interval's and the since-start counts of t, as one: add to both. */
#define COUNT(ts, field, n) do {			\
	(ts)->iv.field += (n);				\
	(ts)->all.field += (n);				\
} while (0)

/* The same of a maximum. */
#define COUNT_MAX(ts, field, v) do {			\
	if ((v) > (ts)->iv.field)			\
		(ts)->iv.field = (v);			\
	if ((v) > (ts)->all.field)			\
		(ts)->all.field = (v);			\
} while (0)

/* A latency of kind of t, switched in on cpu. */
static void count_latency(struct sched_model *m, struct sched_task_stats *t,
			  unsigned int cpu, uint64_t lat,
			  enum sched_lat_kind kind)
{
	struct sched_cpu *c = &m->cpu[cpu];
	bool rq = kind == SCHED_LAT_RUNQ;

	if (!counts(m, &t->task, cpu))
		return;
	if (rq) {
		COUNT(t, rq_latencies, 1);
		COUNT(t, rq_latency_sum_ns, lat);
		COUNT_MAX(t, rq_latency_max_ns, lat);
	} else {
		COUNT(t, latencies, 1);
		COUNT(t, latency_sum_ns, lat);
		COUNT_MAX(t, latency_max_ns, lat);
	}
	sched_hist_add(rq ? &c->rq_iv : &c->lat_iv, lat);
	sched_hist_add(rq ? &c->rq_all : &c->lat_all, lat);
}

/* t ran on cpu from from to to: the part not counted yet counts. */
static void charge(struct sched_model *m, struct sched_task_stats *t,
		   unsigned int cpu, uint64_t from, uint64_t to)
{
	uint64_t charged = m->cpu[cpu].charged;

	if (charged > from)
		from = charged;
	if (to > from && counts(m, &t->task, cpu))
		COUNT(t, runtime_ns, to - from);
}

/* ---- runs ----------------------------------------------------------- */

static void end_run(struct sched_model *m, unsigned int cpu,
		    const struct sched_task *t, uint64_t from, uint64_t to,
		    const char *end_state)
{
	struct sched_run run = {
		.cpu = cpu, .task = *t, .from = from,
		.to = to < from ? from : to, .end_state = end_state,
	};

	if (t->pid != 0) {
		struct sched_task_stats *ts = task_of(m, t);

		ts->runtime_ns += run.to - run.from;
		ts->runs++;
		charge(m, ts, cpu, run.from, run.to);
	}
	if (m->on_run)
		m->on_run(m->ctx, &run);
}

/* t is in the waitlist (a gap looks at it). */
static void list_task(struct sched_model *m, struct sched_task_stats *t)
{
	if (t->listed)
		return;
	if (m->nwaitlist == m->waitlist_cap) {
		m->waitlist_cap = m->waitlist_cap ? 2 * m->waitlist_cap : 64;
		m->waitlist = xrealloc(m->waitlist, m->waitlist_cap *
				       sizeof(*m->waitlist));
	}
	m->waitlist[m->nwaitlist++] = t->task.pid;
	t->listed = true;
}

/* t's wakeup waits for its switch-in from now on. */
static void start_waiting(struct sched_model *m, struct sched_task_stats *t)
{
	t->waiting = true;
	m->nwaiting++;
	list_task(m, t);
}

/* t is runnable and waits for a CPU since ts, to run on cpu. */
static void start_rq_wait(struct sched_model *m, struct sched_task_stats *t,
			  uint64_t ts, unsigned int cpu)
{
	t->rq_waiting = true;
	t->rq_since = ts;
	t->rq_cpu = cpu;
	list_task(m, t);
}

/* t's wakeup may have had its switch-in in a gap. */
static void miss_wakeup(struct sched_model *m, struct sched_task_stats *t)
{
	unsigned int to = t->woken_cpu;

	t->waiting = false;
	m->nwaiting--;
	m->wakeups_missed++;
	if (to < m->ncpus && counts(m, &t->task, to)) {
		COUNT(t, missed, 1);
		m->cpu[to].lat_iv.missed++;
		m->cpu[to].lat_all.missed++;
	}
}

/* The same of t's run-queue wait. */
static void miss_rq_wait(struct sched_model *m, struct sched_task_stats *t)
{
	unsigned int to = t->rq_cpu;

	t->rq_waiting = false;
	m->rq_missed++;
	if (to < m->ncpus && counts(m, &t->task, to)) {
		COUNT(t, rq_missed, 1);
		m->cpu[to].rq_iv.missed++;
		m->cpu[to].rq_all.missed++;
	}
}

/*
 * The switch-in of every wait going on now (a wakeup's, a run-queue
 * wait), begun at or before woken_by, may go unseen.  The waitlist holds
 * every task that waited since the last look (once each); those no
 * longer waiting leave it, so a look costs the tasks that waited since
 * the one before, not the table.
 */
static void miss_wakeups_by(struct sched_model *m, uint64_t woken_by)
{
	size_t keep = 0;

	for (size_t i = 0; i < m->nwaitlist; i++) {
		struct sched_task_stats *t = find_task(m, m->waitlist[i]);

		if (!t)
			continue;
		if (t->waiting && t->woken_at <= woken_by)
			miss_wakeup(m, t);
		if (t->rq_waiting && t->rq_since <= woken_by)
			miss_rq_wait(m, t);
		if (t->waiting || t->rq_waiting)
			m->waitlist[keep++] = m->waitlist[i];
		else
			t->listed = false;
	}
	m->nwaitlist = keep;
}

static void miss_wakeups(struct sched_model *m)
{
	miss_wakeups_by(m, UINT64_MAX);
}

/* Who runs on c is no longer known: its open run is cut short. */
static void lose_track(struct sched_model *m, unsigned int cpu)
{
	struct sched_cpu *c = cpu_of(m, cpu);

	if (c->on == SCHED_ON_TASK && c->last_ts > c->since)
		end_run(m, cpu, &c->cur, c->since, c->last_ts, NULL);
	c->on = SCHED_ON_UNKNOWN;
	c->known = false;
	/* the next run known here starts after whatever was counted */
	c->charged = 0;
}

void sched_model_gap(struct sched_model *m, unsigned int cpu)
{
	lose_track(m, cpu);
	cpu_of(m, cpu)->gaps++;
	cpu_of(m, cpu)->gap_open = true;
	miss_wakeups(m);
}

void sched_model_gap_all(struct sched_model *m)
{
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
		lose_track(m, cpu);
		m->cpu[cpu].gaps++;
		m->cpu[cpu].gap_open = true;
	}
	miss_wakeups(m);
}

static bool switches_recorded(const struct sched_model *m)
{
	return m->events & (1u << SCHED_RELAY_SWITCH);
}

void sched_model_events(struct sched_model *m, uint32_t events)
{
	m->events = events;
	/* without sched_switch, who runs is no longer followed */
	if (!(events & (1u << SCHED_RELAY_SWITCH))) {
		for (unsigned int cpu = 0; cpu < m->ncpus; cpu++)
			lose_track(m, cpu);
		miss_wakeups(m);
	}
}

void sched_model_end(struct sched_model *m)
{
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++)
		lose_track(m, cpu);
}

/* ---- records -------------------------------------------------------- */

uint64_t sched_model_time(const struct sched_model *m, unsigned int cpu,
			  uint64_t ts)
{
	const struct sched_cpu *c = sched_model_cpu(m, cpu);

	return c && c->have_ts && ts < c->last_ts ? c->last_ts : ts;
}

/* A switch-out in this state leaves the task runnable (R, R+). */
static bool runnable(uint8_t state)
{
	return state == SCHED_RELAY_STATE_RUNNING ||
	       state == SCHED_RELAY_STATE_PREEMPTED;
}

static void on_switch(struct sched_model *m, unsigned int cpu,
		      const struct sched_relay_record *r, uint64_t ts,
		      struct sched_event *ev)
{
	struct sched_cpu *c = &m->cpu[cpu];
	const char *state = fields_state_letters(r->state);
	struct sched_task next;
	struct sched_task_stats *t;

	if (r->pid != 0) {
		struct sched_task prev;
		struct sched_task_stats *p;

		task_from(&prev, r->comm, r->pid, r->tgid, r->prio);
		p = task_of(m, &prev);
		/* woken while it still ran (it had not gone to sleep yet):
		 * it never waited, and its next switch-in is not this
		 * wakeup's */
		if (p->waiting && ts >= p->woken_at) {
			p->waiting = false;
			m->nwaiting--;
			if (counts(m, &prev, cpu))
				COUNT(p, no_wait, 1);
		}
		/* it ran: a run-queue wait before this is over; one left
		 * runnable waits again from here, to run here unless it
		 * migrates */
		if (p->rq_waiting && ts >= p->rq_since)
			p->rq_waiting = false;
		if (runnable(r->state) && !p->rq_waiting)
			start_rq_wait(m, p, ts, cpu);
		if (counts(m, &prev, cpu)) {
			if (runnable(r->state))
				COUNT(p, involuntary, 1);
			else
				COUNT(p, voluntary, 1);
		}
	}
	if (c->on == SCHED_ON_TASK) {
		end_run(m, cpu, &c->cur, c->since, ts, state);
	} else if (c->on == SCHED_ON_UNKNOWN && r->pid != 0 &&
		   c->known_since < ts) {
		/* nothing is missing since known_since, and no switch put
		 * prev on since: it ran from then on at least */
		struct sched_task prev;

		task_from(&prev, r->comm, r->pid, r->tgid, r->prio);
		end_run(m, cpu, &prev, c->known_since, ts, state);
	}
	task_from(&next, r->comm2, r->pid2, r->tgid2, r->prio2);
	c->cur = next;
	c->since = ts;
	if (r->pid2 == 0) {
		c->on = SCHED_ON_IDLE;
		return;
	}
	c->on = SCHED_ON_TASK;
	t = task_of(m, &next);
	t->have_cpu = true;
	t->last_cpu = cpu;
	if (counts(m, &next, cpu))
		COUNT(t, switches, 1);
	if (t->waiting && ts >= t->woken_at) {
		uint64_t lat = ts - t->woken_at;

		t->waiting = false;
		m->nwaiting--;
		t->latencies++;
		t->latency_sum_ns += lat;
		if (lat > t->latency_max_ns)
			t->latency_max_ns = lat;
		ev->latency = true;
		ev->latency_ns = lat;
		count_latency(m, t, cpu, lat, SCHED_LAT_WAKEUP);
	}
	if (t->rq_waiting && ts >= t->rq_since) {
		uint64_t lat = ts - t->rq_since;

		t->rq_waiting = false;
		ev->rq_latency = true;
		ev->rq_latency_ns = lat;
		count_latency(m, t, cpu, lat, SCHED_LAT_RUNQ);
	}
}

static void on_wakeup(struct sched_model *m, unsigned int cpu,
		      const struct sched_relay_record *r, uint64_t ts)
{
	struct sched_task woken;
	struct sched_task_stats *t;

	task_from(&woken, r->comm, r->pid, r->tgid, r->prio);
	t = task_of(m, &woken);
	if (r->type != SCHED_RELAY_WAKING) {
		t->wakeups++;
		if (counts(m, &woken, cpu))
			COUNT(t, wakeups, 1);
	}
	/* its switch-in could not be seen */
	if (!switches_recorded(m))
		return;
	if (!t->waiting) {
		start_waiting(m, t);
		t->woken_at = ts;
	}
	t->woken_cpu = r->target_cpu;	/* the latest word on where */
	if (!t->rq_waiting)
		start_rq_wait(m, t, ts, r->target_cpu);
	else
		t->rq_cpu = r->target_cpu;
}

static void on_task_event(struct sched_model *m, unsigned int cpu,
			  const struct sched_relay_record *r)
{
	struct sched_task_stats *t;

	if (r->type == SCHED_RELAY_MIGRATE) {
		struct sched_task moved;

		task_from(&moved, r->comm, r->pid, r->tgid, r->prio);
		t = task_of(m, &moved);
		if (counts(m, &moved, cpu))
			COUNT(t, migrations, 1);
		if (t->waiting)
			t->woken_cpu = r->target_cpu;
		if (t->rq_waiting)
			t->rq_cpu = r->target_cpu;
	} else if (r->type == SCHED_RELAY_EXIT) {
		/* it runs: a wakeup it has not been switched in for found
		 * it still on the CPU */
		t = find_task(m, r->pid);
		if (t && t->waiting) {
			t->waiting = false;
			m->nwaiting--;
			if (counts(m, &t->task, cpu))
				COUNT(t, no_wait, 1);
		}
		if (t)
			t->rq_waiting = false;
		/* its pid may name another task from now on */
		if (t)
			t->exited = true;
	} else if (r->type == SCHED_RELAY_FORK && r->pid2 > 0) {
		/* the child is a new task, whatever had its pid before */
		struct sched_task child;

		task_from(&child, r->comm2, r->pid2, r->tgid2, r->prio2);
		t = find_task(m, r->pid2);
		if (t)
			forget(m, t);
		task_of(m, &child);
	}
}

void sched_model_record(struct sched_model *m, unsigned int cpu,
			const struct sched_relay_record *r,
			struct sched_event *ev)
{
	struct sched_event dummy;
	struct sched_cpu *c = cpu_of(m, cpu);
	uint64_t ts = r->ts;

	if (!ev)
		ev = &dummy;
	memset(ev, 0, sizeof(*ev));
	/* out of time order: what it says may have come too late for
	 * the figures (a latency already ended, a run already charged) */
	if (ts < m->newest)
		m->late++;
	else
		m->newest = ts;
	/* Runs need time to go forward on a CPU.  A real recording's does;
	 * a damaged one's may not: such a record gets the time of the
	 * newest before it, and the CPU counts it. */
	if (c->have_ts && ts < c->last_ts) {
		ev->back_ns = c->last_ts - ts;
		ts = c->last_ts;
		c->backwards++;
	}
	ev->ts = ts;
	c->have_ts = true;
	c->last_ts = ts;
	c->records++;
	/* the events that went missing here lie up to this record: a
	 * gap handed on where it began (a recording's reset) may have
	 * hidden the switch-in of a wakeup taken since */
	if (c->gap_open) {
		c->gap_open = false;
		miss_wakeups_by(m, ts);
	}
	/* nothing is known of who runs while sched_switch is not recorded */
	if (!c->known && switches_recorded(m)) {
		c->known = true;
		c->known_since = ts;
	}
	/* the task column: the record's own task, else who runs */
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
	case SCHED_RELAY_FORK:
	case SCHED_RELAY_EXIT:
		ev->task_known = true;
		task_from(&ev->task, r->comm, r->pid, r->tgid, r->prio);
		break;
	default:
		ev->task_known = c->on != SCHED_ON_UNKNOWN;
		if (ev->task_known)
			ev->task = c->cur;
		break;
	}
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		on_switch(m, cpu, r, ts, ev);
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		on_wakeup(m, cpu, r, ts);
		break;
	default:
		on_task_event(m, cpu, r);
		break;
	}
}

long sched_model_running_pid(const struct sched_model *m, unsigned int cpu)
{
	struct sched_task t;

	if (!m || !sched_model_current(m, cpu, &t))
		return -1;
	return t.pid;
}

bool sched_model_cpu_seen(const struct sched_model *m, unsigned int cpu)
{
	const struct sched_cpu *c = sched_model_cpu(m, cpu);

	return c && (c->records || c->gaps || c->lat_all.count ||
		     c->lat_all.missed || c->lat_last.count ||
		     c->lat_last.missed || c->rq_all.count ||
		     c->rq_all.missed || c->rq_last.count ||
		     c->rq_last.missed);
}

const struct sched_hist *sched_cpu_latency(const struct sched_cpu *c,
					   enum sched_lat_kind kind,
					   bool since_start)
{
	if (kind == SCHED_LAT_RUNQ)
		return since_start ? &c->rq_all : &c->rq_last;
	return since_start ? &c->lat_all : &c->lat_last;
}

bool sched_model_current(const struct sched_model *m, unsigned int cpu,
			 struct sched_task *t)
{
	const struct sched_cpu *c = sched_model_cpu(m, cpu);

	if (!c || c->on == SCHED_ON_UNKNOWN)
		return false;
	*t = c->cur;
	return true;
}

/* ---- intervals ------------------------------------------------------ */

void sched_model_start(struct sched_model *m, uint64_t now)
{
	m->iv_start = now;
}

void sched_model_interval(struct sched_model *m, uint64_t now)
{
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
		struct sched_cpu *c = &m->cpu[cpu];

		if (c->on == SCHED_ON_TASK && now > c->since) {
			/* nothing of it before this interval counts here */
			uint64_t from = c->since > m->iv_start ? c->since :
					m->iv_start;

			charge(m, task_of(m, &c->cur), cpu, from, now);
			c->charged = now;
		}
		c->lat_last = c->lat_iv;
		memset(&c->lat_iv, 0, sizeof(c->lat_iv));
		c->rq_last = c->rq_iv;
		memset(&c->rq_iv, 0, sizeof(c->rq_iv));
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->used[i])
			continue;
		m->tasks[i].last = m->tasks[i].iv;
		memset(&m->tasks[i].iv, 0, sizeof(m->tasks[i].iv));
	}
	m->last_ns = now > m->iv_start ? now - m->iv_start : 0;
	m->iv_start = now;
	m->intervals++;
}

void sched_model_zero(struct sched_model *m)
{
	m->late = 0;
	for (unsigned int cpu = 0; cpu < m->ncpus; cpu++) {
		memset(&m->cpu[cpu].lat_all, 0, sizeof(m->cpu[cpu].lat_all));
		memset(&m->cpu[cpu].rq_all, 0, sizeof(m->cpu[cpu].rq_all));
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			memset(&m->tasks[i].all, 0, sizeof(m->tasks[i].all));
}

const struct sched_task_stats *sched_model_slot(const struct sched_model *m,
						size_t i)
{
	return i < m->cap && m->used[i] ? &m->tasks[i] : NULL;
}

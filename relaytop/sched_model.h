/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_model.h - what the scheduler did, as far as a stream of sched_relay
 * records tells, fed one record or gap at a time: per CPU the task running
 * now (from sched_switch pairs), time that only goes forward, and whether
 * anything is missing since; per task the runtime seen from switch pairs
 * and the wakeup (or waking) to switch-in latency.  Everything that says
 * "who runs" or "how long" asks it: the dump, both exporters and the live
 * views.
 *
 * A CPU's task is unknown at the start, and again after events went
 * missing on it (a counted gap, a reset, the channel going away) or once
 * sched_switch is no longer recorded: then only the next sched_switch
 * says who runs, and a wakeup taken while it is not recorded starts no
 * latency (its switch-in may go unseen).  A run (a stretch of one task on one CPU) is reported
 * when a switch ends it, or cut short where the model loses track of the
 * CPU (no end state then).
 *
 * Records are taken in the order given; time-ordered input (a recording's
 * merged stream) gives exact latencies across CPUs.  A record older than
 * one the model already took (from any CPU) is counted as late: the
 * figures may be off by what it would have changed.
 *
 * Tasks are kept by pid, and a pid is reused: the entry of a pid starts
 * again from nothing when the records show a new task behind it: a fork
 * naming it as the child, a thread group id other than the entry's, or,
 * once the entry's task exited, another name.  (A name change alone,
 * as exec makes, is the same task.)
 */
#ifndef RELAYTOP_SCHED_MODEL_H
#define RELAYTOP_SCHED_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "sched_hist.h"
#include "sched_relay.h"

/* A task as records name it. */
struct sched_task {
	char comm[SCHED_RELAY_COMM_LEN + 1];
	int32_t pid;
	int32_t tgid;		/* -1: unknown (a version 1 recording) */
	int32_t prio;		/* as the kernel's: -1 for a deadline task */
};

enum sched_on {
	SCHED_ON_UNKNOWN,	/* no switch seen since the start or a gap */
	SCHED_ON_IDLE,		/* the idle task (pid 0) */
	SCHED_ON_TASK,
};

struct sched_cpu {
	enum sched_on on;
	struct sched_task cur;	/* IDLE or TASK: what the last switch put on */
	uint64_t since;		/* when it was switched in */
	bool have_ts;
	uint64_t last_ts;	/* the newest record's time */
	bool known;		/* nothing missing since known_since */
	uint64_t known_since;	/* the first record after the last gap */
	uint64_t backwards;	/* records before the newest one before them */
	uint64_t records;
	uint64_t gaps;		/* times events went missing here */
	bool gap_open;		/* a gap with no record after it yet */
	uint64_t charged;	/* the running task's time counted up to */
	/* wakeup to switch-in here: the interval in progress, the last
	 * one that ended, and since the start (or the last zeroing) */
	struct sched_hist lat_iv, lat_last, lat_all;
	/* run-queue latency here (wakeup or preemption to switch-in) */
	struct sched_hist rq_iv, rq_last, rq_all;
};

/* A stretch of one task on one CPU that ended (or was cut short). */
struct sched_run {
	unsigned int cpu;
	struct sched_task task;
	uint64_t from, to;
	const char *end_state;	/* prev_state letters; NULL: cut short */
};

/* What a task did over a span of time (the filter's tasks and CPUs only). */
struct sched_counts {
	uint64_t switches;	/* switched in */
	uint64_t involuntary;	/* switched out still runnable (R, R+) */
	uint64_t voluntary;	/* switched out otherwise (asleep, ...) */
	uint64_t wakeups;	/* sched_wakeup and sched_wakeup_new */
	uint64_t migrations;	/* sched_migrate_task */
	uint64_t runtime_ns;	/* ran, from switch pairs (open runs are
				 * counted up to each interval's end) */
	uint64_t latencies;	/* wakeup latencies: wakeup to switch-in */
	uint64_t latency_sum_ns;
	uint64_t latency_max_ns;
	uint64_t missed;	/* wakeups whose switch-in fell in a gap */
	uint64_t no_wait;	/* wakeups of a task still on a CPU: it was
				 * switched out later, never in (no latency) */
	uint64_t rq_latencies;	/* run-queue latencies: wakeup or
				 * preemption to switch-in */
	uint64_t rq_latency_sum_ns;
	uint64_t rq_latency_max_ns;
	uint64_t rq_missed;	/* waits whose switch-in fell in a gap */
};

/* What the model knows of one task (by pid). */
struct sched_task_stats {
	struct sched_task task;	/* as last seen */
	uint64_t runtime_ns;	/* sum of its runs */
	uint64_t runs;
	uint64_t wakeups;	/* sched_wakeup and sched_wakeup_new */
	/* wakeup (or waking, whichever came first) to switch-in */
	uint64_t latencies;
	uint64_t latency_sum_ns;
	uint64_t latency_max_ns;
	/* a wakeup waiting for its switch-in */
	bool waiting;
	uint64_t woken_at;
	unsigned int woken_cpu;	/* where it is to run (target, migrations) */
	/* runnable and waiting for a CPU (woken, or switched out runnable),
	 * since rq_since, to run on rq_cpu */
	bool rq_waiting;
	uint64_t rq_since;
	unsigned int rq_cpu;
	bool have_cpu;
	unsigned int last_cpu;	/* where it was last switched in */
	bool exited;		/* a sched_process_exit was seen */
	bool listed;		/* its pid is in the model's waitlist */
	/* the interval in progress, the last one, since start or zeroing */
	struct sched_counts iv, last, all;
};

/* What one record meant. */
struct sched_event {
	uint64_t ts;		/* its time, never before the CPU's newest */
	uint64_t back_ns;	/* its own time was this much before it, or 0 */
	bool task_known;	/* who was running when it fired: */
	struct sched_task task;	/* the record's own task for switch (prev),
				 * fork (parent) and exit, else the CPU's */
	bool latency;		/* a switch put in a task that was woken: */
	uint64_t latency_ns;
	bool rq_latency;	/* a switch put in a task that was runnable */
	uint64_t rq_latency_ns;
};

struct sched_model {
	unsigned int ncpus;	/* size of cpu[] (grows) */
	struct sched_cpu *cpu;
	uint32_t events;	/* the recorded event types (a mask) */
	/* runs as they end, or NULL */
	void (*on_run)(void *ctx, const struct sched_run *run);
	void *ctx;
	/* tasks: open addressing by pid */
	struct sched_task_stats *tasks;
	bool *used;
	size_t ntasks, cap;
	uint64_t wakeups_missed;	/* their switch-in fell in a gap */
	uint64_t rq_missed;		/* run-queue waits the same */
	uint64_t newest;		/* the newest record's time, any CPU */
	uint64_t late;			/* records older than newest when
					 * they came, since the start or
					 * the zeroing */
	uint64_t reused;		/* task entries started again: a
					 * new task with a known pid */
	size_t nwaiting;		/* tasks waiting for their switch-in */
	/* the pids of the tasks that waited (either wait) since the last
	 * look, so that a gap costs what waits, not every task ever seen */
	int32_t *waitlist;
	size_t nwaitlist, waitlist_cap;
	/* which tasks and CPUs the counts (sched_counts, the CPUs' latency
	 * distributions) take in; NULL: all */
	const struct filter *filter;
	uint64_t iv_start;	/* when the interval in progress began */
	uint64_t last_ns;	/* how long the last one lasted (0: none yet) */
	unsigned int intervals;	/* intervals ended */
};

/* The two latencies (see above). */
enum sched_lat_kind {
	SCHED_LAT_WAKEUP,	/* wakeup to switch-in */
	SCHED_LAT_RUNQ,		/* wakeup or preemption to switch-in */
};

/* A CPU's distribution of latency kind: since the start, or over the
 * last interval that ended. */
const struct sched_hist *sched_cpu_latency(const struct sched_cpu *c,
					   enum sched_lat_kind kind,
					   bool since_start);

/* A model of ncpus CPUs (more are added as records name them). */
void sched_model_init(struct sched_model *m, unsigned int ncpus);
void sched_model_free(struct sched_model *m);

/* The time a record of cpu at ts will get: ts, or the CPU's newest. */
uint64_t sched_model_time(const struct sched_model *m, unsigned int cpu,
			  uint64_t ts);
/* A record of cpu; *ev says what it meant (ev may be NULL). */
void sched_model_record(struct sched_model *m, unsigned int cpu,
			const struct sched_relay_record *r,
			struct sched_event *ev);
/* Events went missing on cpu (counted gap, reset, channel gone). */
void sched_model_gap(struct sched_model *m, unsigned int cpu);
/* The same for every CPU (the whole channel went away). */
void sched_model_gap_all(struct sched_model *m);
/* The recorded event types changed (mask of SCHED_RELAY_* types). */
void sched_model_events(struct sched_model *m, uint32_t events);
/* The end of the stream: every run still open is cut short. */
void sched_model_end(struct sched_model *m);
/*
 * End the interval in progress at now (the records' clock): the running
 * tasks' time is counted up to now, the interval's counts become the
 * last interval's, and a new one begins.  The first interval begins at
 * the first call of sched_model_start() (or 0).
 */
void sched_model_interval(struct sched_model *m, uint64_t now);
/* The first interval begins at now. */
void sched_model_start(struct sched_model *m, uint64_t now);
/* Zero the counts since the start (relaytop's own: nothing else). */
void sched_model_zero(struct sched_model *m);
/* The task at slot i of the table (i < cap), or NULL for a free slot:
 * for walking every task. */
const struct sched_task_stats *sched_model_slot(const struct sched_model *m,
						size_t i);

/* Make dst (initialised or zeroed) an independent copy of src, for a
 * screen that stands still (runs are not reported from the copy). */
void sched_model_copy(struct sched_model *dst, const struct sched_model *src);

/* The CPU's state (NULL for a CPU the model never saw). */
const struct sched_cpu *sched_model_cpu(const struct sched_model *m,
					unsigned int cpu);
/* Who runs on cpu now: true and *t, or false when unknown.  The idle
 * task counts as known. */
bool sched_model_current(const struct sched_model *m, unsigned int cpu,
			 struct sched_task *t);
/* The pid running on cpu as the batch outputs give it: 0 for the idle
 * task, -1 when not known (or m is NULL). */
long sched_model_running_pid(const struct sched_model *m, unsigned int cpu);
/* Whether the model has anything of cpu: a record, a gap or a latency
 * (a CPU never online has none, and no table shows a row for it). */
bool sched_model_cpu_seen(const struct sched_model *m, unsigned int cpu);
/* What is known of task pid, or NULL. */
const struct sched_task_stats *sched_model_task(const struct sched_model *m,
						int32_t pid);

#endif /* RELAYTOP_SCHED_MODEL_H */

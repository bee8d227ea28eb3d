/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tally.h - the sink behind the screen and the batch blocks: it turns what
 * a source yields (feed.h) into the per-CPU statistics (stats.h) and, when
 * a view wants to know who runs, the scheduler model (sched_model.h): one
 * fed each record as it is read (who runs now), one fed the records of
 * all CPUs in time order (time_merge.h) up to each tick's watermark, one
 * model interval a refresh interval (the figures).
 */
#ifndef RELAYTOP_TALLY_H
#define RELAYTOP_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feed.h"
#include "filter.h"
#include "sched_model.h"
#include "stats.h"
#include "time_merge.h"

struct tally {
	struct stats st;		/* of the CPUs the filter takes */
	const struct filter *filter;	/* -p, --comm, -C, or NULL */
	bool follow_tasks;		/* feed the model of who runs */
	bool figures;			/* and the figures' (tally_figures()) */
	/* who runs now: each record as it is read (a CPU's own records
	 * are in order, which is all that needs) */
	struct sched_model model;
	/* the figures (rates, latencies): every CPU's records in time
	 * order, as they happened, one refresh interval behind */
	struct sched_model merged;
	struct sched_relay_record *staged;	/* the staged chunk's copy */
	size_t staged_cap;
	struct time_merge merge;	/* records on their way to the model */
	/* self-noise: relaytop's own switches and wake-ups (records whose
	 * pid, or a switch's next pid, is self_pid), counted when records
	 * are followed; hidden from the figures and the model on request
	 * (never from a recording) */
	int self_pid;			/* 0: not known (a replay) */
	bool hide_self;
	uint64_t self_events;
};

/*
 * Start counting at start_ns for ncpus CPUs (more come as they are
 * named); follow_tasks: also feed every record to the model (a copy of
 * each chunk, taken while it is staged, since overwrite mode may reuse
 * the mapping once the reader has vouched for it).
 */
void tally_init(struct tally *t, unsigned int ncpus, uint64_t start_ns,
		bool follow_tasks);
/* Also keep the figures (the tasks and latency views): every record
 * read is held until the next tick, to be merged in time. */
void tally_figures(struct tally *t, bool on);
/* Count only what f lets through (f must outlive t; NULL: all): the
 * models' counts, and the statistics of only the CPUs of -C (the CPU
 * table's rows and its all row; the models still take every CPU's
 * records, as a latency may start on another CPU). */
void tally_filter(struct tally *t, const struct filter *f);
void tally_free(struct tally *t);
/* The tally as a sink. */
struct feed_sink tally_sink(struct tally *t);
/*
 * The end of a refresh interval at now (the source's clock): the rates;
 * and the records up to watermark (every CPU's records before it have been
 * read) go to the model, whose interval ends there.
 */
void tally_tick(struct tally *t, uint64_t now, uint64_t watermark);
/* Everything read goes to the model (the end: nothing more will come). */
void tally_flush(struct tally *t);
/* Zero relaytop's own counts (totals, drops and losses seen, the model's
 * since-start counts); the channel is not touched. */
void tally_zero(struct tally *t);

#endif /* RELAYTOP_TALLY_H */

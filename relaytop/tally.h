/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tally.h - the sink behind the screen and the batch blocks: it turns what
 * a source yields (feed.h) into the per-CPU statistics (stats.h) and, when
 * a view wants to know who runs, the scheduler model (sched_model.h).
 */
#ifndef RELAYTOP_TALLY_H
#define RELAYTOP_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feed.h"
#include "sched_model.h"
#include "stats.h"

struct tally {
	struct stats st;
	bool follow_tasks;		/* feed the model */
	struct sched_model model;
	struct sched_relay_record *staged;	/* the staged chunk's copy */
	size_t staged_cap;
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
void tally_free(struct tally *t);
/* The tally as a sink. */
struct feed_sink tally_sink(struct tally *t);

#endif /* RELAYTOP_TALLY_H */

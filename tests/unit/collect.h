/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - a subbuf_sink for tests that keeps every record delivered
 * intact, checks they arrive in order, and totals the gaps between them.
 * Events of a fake_relay carry consecutive ids in 'pid', so the ids missing
 * between two delivered records are exactly the events dropped or lost;
 * and their event numbers (event_seq) count the dropped ones too, so a
 * record delivered twice or out of place shows as 'misordered'.
 */
#ifndef COLLECT_H
#define COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "subbuf.h"

struct collect {
	struct sched_relay_record *staged;
	uint32_t nstaged;
	uint64_t delivered;	/* records settled intact */
	uint64_t thrown;	/* records settled torn */
	uint64_t restarts;
	uint64_t last_id;	/* id of the last record delivered */
	uint64_t gaps;		/* ids skipped between delivered records */
	bool in_order;		/* ids strictly increasing */
	uint64_t misordered;	/* records whose id was not above the last */
	bool have_event;
	uint32_t next_event;	/* event_seq the next record should carry */
	uint64_t event_jumps;	/* records whose event_seq was not that */
	uint32_t mix[SCHED_RELAY_NR_EVENTS];
	/* called from stage(), e.g. to let the writer run over the reader */
	void (*on_stage)(void *arg);
	void *on_stage_arg;
};

void collect_init(struct collect *c);
void collect_free(struct collect *c);
struct subbuf_sink collect_sink(struct collect *c);

#endif /* COLLECT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth-record.h - make one made-up sched_relay record by hand, for the
 * tests that feed records to the scheduler model, the views and the
 * dump: the task fields every such record carries, set in one place; and
 * hand made-up records to a feed sink as a reader hands on a chunk.
 */
#ifndef SYNTH_RECORD_H
#define SYNTH_RECORD_H

#include <stdint.h>

#include "feed.h"
#include "sched_relay.h"
#include "subbuf.h"

/*
 * A record of @type at @ts by task @pid, its own thread group leader,
 * of priority 120, named @comm (NULL: "t<pid>"); every other field zero.
 */
struct sched_relay_record synth_record(uint64_t ts, uint8_t type, int32_t pid,
				       const char *comm);
/*
 * Give @r its second task (a switch's next, a fork's child): @pid, its
 * own thread group leader, of priority @prio, named @comm (NULL:
 * "t<pid>").  It shares its place with the wakeup's and migration's CPUs.
 */
void synth_record_task2(struct sched_relay_record *r, int32_t pid,
			uint8_t prio, const char *comm);

/*
 * Hand @n records @r of @cpu to the sink @s as one intact chunk, staged
 * then settled, with its event mix counted as a reader counts it.
 */
void synth_feed(const struct feed_sink *s, unsigned int cpu,
		const struct sched_relay_record *r, uint32_t n);

#endif

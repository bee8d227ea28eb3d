// SPDX-License-Identifier: GPL-2.0
/* synth-record.c - made-up sched_relay records, made and fed (see synth-record.h). */
#include "synth-record.h"

#include <stdio.h>
#include <string.h>

static void name(char *comm, size_t size, int32_t pid, const char *given)
{
	if (given)
		snprintf(comm, size, "%s", given);
	else
		snprintf(comm, size, "t%d", pid);
}

struct sched_relay_record synth_record(uint64_t ts, uint8_t type, int32_t pid,
				       const char *comm)
{
	struct sched_relay_record r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.type = type;
	r.pid = pid;
	r.tgid = pid;
	r.prio = 120;
	name(r.comm, sizeof(r.comm), pid, comm);
	return r;
}

void synth_record_task2(struct sched_relay_record *r, int32_t pid,
			uint8_t prio, const char *comm)
{
	r->pid2 = pid;
	r->tgid2 = pid;
	r->prio2 = prio;
	name(r->comm2, sizeof(r->comm2), pid, comm);
}

void synth_feed(const struct feed_sink *s, unsigned int cpu,
		const struct sched_relay_record *r, uint32_t n)
{
	struct subbuf_chunk c;

	memset(&c, 0, sizeof(c));
	c.cpu = cpu;
	c.nrec = n;
	c.recs = r;
	subbuf_chunk_count_mix(&c);
	s->stage(s->ctx, &c);
	s->settle(s->ctx, &c, true);
}

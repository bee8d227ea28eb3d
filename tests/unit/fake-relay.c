// SPDX-License-Identifier: GPL-2.0
/*
 * fake-relay.c - the kernel side of a sched_relay CPU buffer, for tests.
 * Follows kernel/relay.c (relay_switch_subbuf, __relay_reset) and the
 * producer contract in include/uapi/sched_relay.h.
 */
#include "fake-relay.h"

#include <errno.h>
#include <string.h>

uint32_t fake_relay_capacity(const struct fake_relay *f)
{
	return (f->subbuf_size - sizeof(struct sched_relay_header)) /
	       sizeof(struct sched_relay_record);
}

/* The module's subbuf_start callback. */
static bool subbuf_start(struct fake_relay *f, unsigned char *subbuf)
{
	struct sched_relay_header *h = (void *)subbuf;

	if (!f->overwrite && f->produced - f->consumed == f->n_subbufs)
		return false;	/* relay_buf_full() */
	/* seq and generation first: a reader re-checks them (seqlock) */
	__atomic_store_n(&h->seq, f->produced, __ATOMIC_RELEASE);
	__atomic_store_n(&h->generation, f->generation, __ATOMIC_RELEASE);
	h->magic = SCHED_RELAY_MAGIC;
	h->version = SCHED_RELAY_VERSION;
	h->hdr_size = sizeof(*h);
	h->cpu = f->cpu;
	h->record_size = sizeof(struct sched_relay_record);
	h->first_ts = 0;
	h->dropped = f->full;
	memset(h->reserved, 0, sizeof(h->reserved));
	__atomic_store_n(&h->committed, (uint32_t)sizeof(*h), __ATOMIC_RELEASE);
	f->offset = sizeof(*h);		/* subbuf_start_reserve() */
	return true;
}

/* relay_switch_subbuf() */
static bool switch_subbuf(struct fake_relay *f)
{
	unsigned char *new;

	if (f->offset != f->subbuf_size + 1)
		f->produced++;
	new = f->buf + (f->produced % f->n_subbufs) * f->subbuf_size;
	f->offset = 0;
	if (!subbuf_start(f, new)) {
		f->offset = f->subbuf_size + 1;
		return false;
	}
	f->data = new;
	return true;
}

void fake_relay_init(struct fake_relay *f, void *buf, uint32_t subbuf_size,
		     uint32_t n_subbufs, unsigned int cpu, bool overwrite,
		     uint64_t generation)
{
	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->subbuf_size = subbuf_size;
	f->n_subbufs = n_subbufs;
	f->cpu = cpu;
	f->overwrite = overwrite;
	f->generation = generation;
	f->ts = 1000000000ull;
	f->next_id = 1;
	f->data = f->buf;
	subbuf_start(f, f->data);
}

bool fake_relay_event(struct fake_relay *f, uint8_t type)
{
	struct sched_relay_header *h;
	struct sched_relay_record *rec;
	uint64_t id = f->next_id++;

	f->ts += 1000 + id % 7;
	if (f->offset + sizeof(*rec) > f->subbuf_size && !switch_subbuf(f)) {
		f->full++;
		return false;
	}
	h = (void *)f->data;
	rec = (void *)(f->data + f->offset);
	memset(rec, 0, sizeof(*rec));
	rec->ts = f->ts;
	rec->type = type;
	rec->cpu = (uint16_t)f->cpu;
	rec->pid = (int32_t)id;
	rec->target_cpu = (uint16_t)f->cpu;
	rec->orig_cpu = (uint16_t)f->cpu;
	if (type == SCHED_RELAY_SWITCH) {
		rec->state = 1;
		rec->pid2 = (int32_t)(id + 1000000);
		rec->prio = 120;
		rec->prio2 = 100;
		strcpy(rec->comm, "prev");
		strcpy(rec->comm2, "next");
	} else {
		rec->prio = 120;
		strcpy(rec->comm, "task");
	}
	if (!h->first_ts)
		h->first_ts = rec->ts;
	f->offset += sizeof(*rec);
	__atomic_store_n(&h->committed, f->offset, __ATOMIC_RELEASE);
	f->events++;
	return true;
}

uint64_t fake_relay_events(struct fake_relay *f, uint64_t n)
{
	uint64_t written = 0;

	for (uint64_t i = 0; i < n; i++)
		written += fake_relay_event(f, (uint8_t)(f->next_id %
							 SCHED_RELAY_NR_EVENTS));
	return written;
}

int fake_relay_consume(struct fake_relay *f, uint64_t n)
{
	if (n > f->produced - f->consumed)
		return -EINVAL;
	f->consumed += n;
	return 0;
}

void fake_relay_reset(struct fake_relay *f, uint64_t generation)
{
	f->generation = generation;
	f->produced = 0;
	f->consumed = 0;
	f->offset = 0;
	f->full = 0;
	f->events = 0;
	f->data = f->buf;
	subbuf_start(f, f->data);
}

void fake_relay_flush(struct fake_relay *f)
{
	switch_subbuf(f);
}

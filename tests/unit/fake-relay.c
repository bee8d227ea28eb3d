// SPDX-License-Identifier: GPL-2.0
/*
 * fake-relay.c - the kernel side of a sched_relay CPU buffer, for tests.
 * Follows kernel/relay.c (relay_switch_subbuf, __relay_reset) and the
 * producer contract in include/uapi/sched_relay.h.
 */
#include "fake-relay.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "subbuf.h"

size_t fake_relay_map_size(uint32_t subbuf_size, uint32_t n_subbufs)
{
	struct subbuf_geometry g = { subbuf_size, n_subbufs };

	return (size_t)subbuf_map_size(&g, (unsigned long)sysconf(_SC_PAGESIZE));
}

/* relay_set_produced() and friends: the mirror in the meta area */
static void publish(__u64 *field, uint64_t v)
{
	__atomic_store_n(field, v, __ATOMIC_RELEASE);
}

uint32_t fake_relay_capacity(const struct fake_relay *f)
{
	return (f->subbuf_size - sizeof(struct sched_relay_header)) /
	       sizeof(struct sched_relay_record);
}

uint64_t fake_relay_clock(void *arg)
{
	const struct fake_relay *f = arg;

	return __atomic_load_n(&f->ts, __ATOMIC_RELAXED);
}

/* The header's fields but seq, each a single store (a reader may look). */
static void header_fields(struct fake_relay *f, struct sched_relay_header *h)
{
	__atomic_store_n(&h->generation, f->generation, __ATOMIC_RELAXED);
	__atomic_store_n(&h->magic, SCHED_RELAY_MAGIC, __ATOMIC_RELAXED);
	__atomic_store_n(&h->version, SCHED_RELAY_VERSION, __ATOMIC_RELAXED);
	__atomic_store_n(&h->hdr_size, sizeof(*h), __ATOMIC_RELAXED);
	__atomic_store_n(&h->cpu, f->cpu, __ATOMIC_RELAXED);
	__atomic_store_n(&h->record_size, sizeof(struct sched_relay_record),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&h->first_ts, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->dropped, f->full, __ATOMIC_RELAXED);
	__atomic_store_n(&h->reserved, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->first_event_seq, f->event_no, __ATOMIC_RELAXED);
}

/*
 * The module's subbuf_start callback.  The header is a seqlock
 * (include/uapi/sched_relay.h): seq BUSY, the fields and committed, then
 * seq with release.  old_order does what version 1 did: seq first, then
 * the rest, so a reader can see the new seq with the old committed.
 */
static bool subbuf_start(struct fake_relay *f, unsigned char *subbuf)
{
	struct sched_relay_header *h = (void *)subbuf;

	if (!f->overwrite && f->produced - f->consumed == f->n_subbufs)
		return false;	/* relay_buf_full() */
	if (f->old_order) {
		__atomic_store_n(&h->seq, f->produced, __ATOMIC_RELEASE);
		if (f->stall)
			f->stall(f->stall_arg);
		header_fields(f, h);
		__atomic_store_n(&h->committed, (uint32_t)sizeof(*h),
				 __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&h->seq, SCHED_RELAY_SEQ_BUSY, __ATOMIC_RELAXED);
		/* smp_wmb(): BUSY before the fields (the reader's re-check) */
		__atomic_thread_fence(__ATOMIC_RELEASE);
		if (f->stall)
			f->stall(f->stall_arg);
		header_fields(f, h);
		__atomic_store_n(&h->committed, (uint32_t)sizeof(*h),
				 __ATOMIC_RELAXED);
		/* the fields before seq: pairs with the reader's acquire */
		__atomic_store_n(&h->seq, f->produced, __ATOMIC_RELEASE);
	}
	f->offset = sizeof(*h);		/* subbuf_start_reserve() */
	return true;
}

/* relay_switch_subbuf() */
static bool switch_subbuf(struct fake_relay *f)
{
	unsigned char *new;

	if (f->offset != f->subbuf_size + 1) {
		__atomic_store_n(&f->meta->ends[f->produced % f->n_subbufs],
				 f->offset, __ATOMIC_RELAXED);
		f->produced++;
		publish(&f->meta->produced, f->produced);
		if (f->switching)
			f->switching(f->switching_arg);
	}
	new = f->buf + (f->produced % f->n_subbufs) * f->subbuf_size;
	f->offset = 0;
	if (!subbuf_start(f, new)) {
		f->offset = f->subbuf_size + 1;
		__atomic_store_n(&f->meta->stopped, 1, __ATOMIC_RELAXED);
		return false;
	}
	__atomic_store_n(&f->meta->stopped, 0, __ATOMIC_RELAXED);
	f->data = new;
	return true;
}

void fake_relay_init(struct fake_relay *f, void *buf, uint32_t subbuf_size,
		     uint32_t n_subbufs, unsigned int cpu, bool overwrite,
		     uint64_t generation)
{
	struct subbuf_geometry g = { subbuf_size, n_subbufs };
	uint64_t data = subbuf_meta_offset(&g, (unsigned long)sysconf(_SC_PAGESIZE));

	memset(f, 0, sizeof(*f));
	f->buf = buf;
	/* relay_create_buf(): the meta area after the buffer's pages */
	f->meta = (void *)(f->buf + data);
	memset(f->meta, 0, sizeof(*f->meta) + 4 * (size_t)n_subbufs);
	f->meta->version = RELAY_BUF_META_VERSION;
	f->meta->meta_size = (uint32_t)(fake_relay_map_size(subbuf_size,
							    n_subbufs) - data);
	f->meta->data_size = data;
	f->meta->subbuf_size = subbuf_size;
	f->meta->n_subbufs = n_subbufs;
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

	__atomic_store_n(&f->ts, f->ts + 1000 + id % 7, __ATOMIC_RELAXED);
	if (f->offset + sizeof(*rec) > f->subbuf_size && !switch_subbuf(f)) {
		f->full++;
		f->event_no++;	/* dropped events have numbers too */
		return false;
	}
	h = (void *)f->data;
	rec = (void *)(f->data + f->offset);
	memset(rec, 0, sizeof(*rec));
	rec->ts = f->ts;
	rec->event_seq = (uint32_t)f->event_no++;
	rec->type = type;
	rec->pid = (int32_t)id;
	rec->tgid = (int32_t)(id - id % 4);
	if (type == SCHED_RELAY_SWITCH || type == SCHED_RELAY_FORK) {
		rec->state = type == SCHED_RELAY_SWITCH ?
			     SCHED_RELAY_STATE_SLEEPING : 0;
		rec->pid2 = (int32_t)(id + 1000000);
		rec->tgid2 = (int32_t)(id + 1000000);
		rec->prio = 120;
		rec->prio2 = 100;
		strcpy(rec->comm, "prev");
		strcpy(rec->comm2, "next");
	} else {
		rec->prio = 120;
		strcpy(rec->comm, "task");
		rec->target_cpu = (uint16_t)f->cpu;
		rec->orig_cpu = (uint16_t)f->cpu;
	}
	if (f->fill)
		f->fill(f->fill_arg, rec);
	if (!h->first_ts)
		__atomic_store_n(&h->first_ts, rec->ts, __ATOMIC_RELAXED);
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

int fake_relay_consume(struct fake_relay *f, uint64_t until)
{
	if (until < f->consumed)
		return -ESTALE;
	if (until > f->produced)
		return -EINVAL;
	f->consumed = until;
	publish(&f->meta->consumed, until);
	return 0;
}

void fake_relay_reset(struct fake_relay *f, uint64_t generation)
{
	uint32_t end = f->offset <= f->subbuf_size ? f->offset : 0;

	f->generation = generation;
	__atomic_store_n(&f->meta->ends[f->produced % f->n_subbufs], end,
			 __ATOMIC_RELAXED);
	f->produced++;
	f->consumed = f->produced;
	publish(&f->meta->produced, f->produced);
	publish(&f->meta->consumed, f->consumed);
	publish(&f->meta->resets, f->meta->resets + 1);
	__atomic_store_n(&f->meta->stopped, 0, __ATOMIC_RELAXED);
	publish(&f->meta->reset_at, f->produced);
	f->offset = 0;
	f->full = 0;
	f->events = 0;
	f->event_no = 0;
	f->data = f->buf + (f->produced % f->n_subbufs) * f->subbuf_size;
	subbuf_start(f, f->data);
}

void fake_relay_flush(struct fake_relay *f)
{
	switch_subbuf(f);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake-relay.h - the kernel side of one sched_relay CPU buffer, modelled in
 * user space for the host tests: relay_switch_subbuf(), the module's
 * subbuf_start callback (the seqlocked header, no-overwrite "full" check,
 * drop count, first event number) and its record write,
 * relay_buf_consume(), relay_reset() and relay_flush(), writing into any
 * memory (a malloc'd block or a mapped file of fake_relay_map_size()
 * bytes) exactly the bytes include/uapi/sched_relay.h (version 2)
 * describes, and relay's meta area after them (<linux/relay.h>).
 *
 * For the concurrency test the header can be set up in the old order
 * (old_order: seq first, the other fields and committed after it, as
 * version 1 did), and stall() is called in the middle of the set-up: in
 * the old order between seq and committed, in the new one while seq is
 * SCHED_RELAY_SEQ_BUSY.
 */
#ifndef FAKE_RELAY_H
#define FAKE_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/relay.h>
#include <stddef.h>

#include "sched_relay.h"

struct fake_relay {
	unsigned char *buf;
	struct relay_buf_meta *meta;	/* relay's meta area, after buf */
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	unsigned int cpu;
	bool overwrite;
	uint64_t generation;
	uint64_t produced;	/* relay: subbufs_produced, never set back */
	uint64_t consumed;	/* relay: subbufs_consumed, never set back */
	uint32_t offset;	/* relay: offset in the current sub-buffer */
	unsigned char *data;	/* relay: the current sub-buffer */
	uint64_t events;	/* relay stats: records that entered */
	uint64_t full;		/* relay stats: dropped, buffer full */
	uint64_t event_no;	/* events seen since the reset, written or
				 * dropped: the next one's number */
	uint64_t ts;		/* timestamp of the last event */
	uint64_t next_id;	/* id written into the next event's pid */
	bool old_order;		/* set headers up as version 1 did */
	void (*stall)(void *arg);	/* called inside the set-up */
	void *stall_arg;
	/* called in relay_switch_subbuf() after produced is published,
	 * before the next sub-buffer is started or refused: the meta
	 * area's stopped still says what the last switch did */
	void (*switching)(void *arg);
	void *switching_arg;
	/* tests that script what records say: called on each record
	 * written, after it is filled in, before it is committed (the
	 * event number is the relay's: leave it) */
	void (*fill)(void *arg, struct sched_relay_record *rec);
	void *fill_arg;
};

/* Bytes of a buffer and its meta area: what buf must hold. */
size_t fake_relay_map_size(uint32_t subbuf_size, uint32_t n_subbufs);
/* relay_open(): the first sub-buffer is started at once. */
void fake_relay_init(struct fake_relay *f, void *buf, uint32_t subbuf_size,
		     uint32_t n_subbufs, unsigned int cpu, bool overwrite,
		     uint64_t generation);
/* One event of type; its pid is f->next_id++.  False when dropped. */
bool fake_relay_event(struct fake_relay *f, uint8_t type);
/* n events of a type cycling through every type; returns events written. */
uint64_t fake_relay_events(struct fake_relay *f, uint64_t n);
/*
 * relay_buf_consume(): done with the sub-buffers below until; 0, -ESTALE
 * if until is below what was consumed, -EINVAL if beyond what was produced.
 */
int fake_relay_consume(struct fake_relay *f, uint64_t until);
/* relay_reset() after the generation moved on: the sub-buffer being
 * filled ends, everything is consumed, the data starts in the next one. */
void fake_relay_reset(struct fake_relay *f, uint64_t generation);
/* relay_flush(): switch now, leaving padding. */
void fake_relay_flush(struct fake_relay *f);
/* Records a full sub-buffer holds. */
uint32_t fake_relay_capacity(const struct fake_relay *f);
/* The producer's clock (its last event's ts), for subbuf_reader.clock. */
uint64_t fake_relay_clock(void *f);

#endif /* FAKE_RELAY_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * subbuf.c - following one CPU's sched_relay buffer in place.
 *
 * The buffer (include/uapi/sched_relay.h) is n sub-buffers; sub-buffer seq
 * lives at index seq % n and starts with a header the producer writes when
 * relay switches to it.  The reader keeps a position (next_seq, offset):
 *
 *   index:   0          1          2          3
 *          +----------+----------+----------+----------+
 *          | seq 8    | seq 9    | seq 6    | seq 7    |   n = 4
 *          | full     | filling  | full     | full     |
 *          +----------+----------+----------+----------+
 *                        ^ writer  ^ reader: next_seq 6, offset
 *
 * Rules (each one pinned by tests/unit/t-subbuf.c):
 *
 * - A sub-buffer is accepted when the header at its index carries the
 *   expected seq; its identity is then (seq, generation).  Records
 *   [offset, committed) are read, 'committed' loaded with acquire
 *   semantics, so a sub-buffer still being filled is followed live.
 * - A sub-buffer is finished once the next one has started (its header
 *   carries seq + 1): relay only switches when a record does not fit, so
 *   'committed' is final by then; what lies beyond it is padding.
 *   Finished sub-buffers are counted in 'handback' for the caller to hand
 *   back to the kernel (no-overwrite mode needs that to keep flowing).
 * - After records were shown to the sink, the header is checked again; if
 *   its identity changed the writer overwrote the sub-buffer while it was
 *   read (a torn read): the sink throws the records away.
 * - Overwritten (flight-recorder mode): the header at our index carries a
 *   larger seq.  The reader moves to the oldest sub-buffer still there and
 *   counts as lost the rest of the one it was in plus every sub-buffer it
 *   skipped.  A sub-buffer that was followed by another holds exactly
 *   subbuf_capacity() records (64-byte records fill a power-of-two
 *   sub-buffer after a 64-byte header without a gap), so the count is exact.
 * - Restarted (a reset): seq starts again at 0 in a newer generation.  The
 *   newest header (largest (generation, seq)) then carries a seq below our
 *   position, or the sub-buffer we were in or came from was rewritten with
 *   a newer generation.  The reader starts over at the new sequence's
 *   oldest sub-buffer; what it had not read of the old one was discarded by
 *   the reset, on request, and is not counted as lost.  Every reset makes
 *   a new generation: while the newest header is of the generation we
 *   follow and not below us, nothing is a reset, whatever a neighbouring
 *   header looks like (counted in 'not_resets'), so an odd header can
 *   never make a sequence counted lost twice.
 *
 * - Not trusted blindly: a header is believed only if its seq is one the
 *   producer could have reached since the last read (at most
 *   SUBBUF_MAX_RATE records a second, plus two laps of slack); a larger
 *   one is garbage (counted in 'bogus') and read as "not there yet", so a
 *   corrupt header cannot make the reader count 1e12 sub-buffers lost and
 *   hand them back.  The hand-back does at most SUBBUF_HANDBACK_WRITES
 *   writes a call.
 * - Identity (version 2): record i of a sub-buffer has event number
 *   first_event_seq + i.  The reader expects, per CPU, the next record's
 *   number: every chunk's first and last record must carry theirs
 *   (event_seq, the low 32 bits), else 'misplaced' counts it, and the
 *   numbers missing between two chunks must be the events counted
 *   missing between them (the header's drops, the reader's losses), else
 *   'unaccounted' counts the difference.  A reset numbers from 0 again.
 *
 * Memory ordering (the header is a seqlock, include/uapi/sched_relay.h):
 * the writer sets seq to SCHED_RELAY_SEQ_BUSY, writes the other fields and
 * committed = hdr_size, then stores seq with release; it stores a record,
 * then 'committed' (release).  The reader loads seq with acquire (BUSY:
 * not there yet), reads the fields, loads 'committed' with acquire, reads
 * records, issues an acquire fence and re-reads seq and generation: a
 * change means the copy was torn.
 */
#include "subbuf.h"

#include <errno.h>
#include <stddef.h>

#include "util.h"

int subbuf_geometry_check(const struct subbuf_geometry *geom)
{
	if (geom->n_subbufs < 2 || geom->n_subbufs > 65536)
		return -EINVAL;
	if (geom->subbuf_size < SUBBUF_HDR_SIZE + SUBBUF_REC_SIZE ||
	    geom->subbuf_size > (1u << 30))
		return -EINVAL;
	if ((geom->subbuf_size - SUBBUF_HDR_SIZE) % SUBBUF_REC_SIZE)
		return -EINVAL;
	return 0;
}

uint32_t subbuf_capacity(const struct subbuf_geometry *geom)
{
	return (geom->subbuf_size - SUBBUF_HDR_SIZE) / SUBBUF_REC_SIZE;
}

uint64_t subbuf_buffer_size(const struct subbuf_geometry *geom)
{
	return (uint64_t)geom->subbuf_size * geom->n_subbufs;
}

bool subbuf_header_valid(const struct sched_relay_header *h, unsigned int cpu)
{
	return __atomic_load_n(&h->seq, __ATOMIC_RELAXED) != SCHED_RELAY_SEQ_BUSY &&
	       __atomic_load_n(&h->magic, __ATOMIC_RELAXED) == SCHED_RELAY_MAGIC &&
	       __atomic_load_n(&h->version, __ATOMIC_RELAXED) == SCHED_RELAY_VERSION &&
	       __atomic_load_n(&h->hdr_size, __ATOMIC_RELAXED) == SUBBUF_HDR_SIZE &&
	       __atomic_load_n(&h->record_size, __ATOMIC_RELAXED) == SUBBUF_REC_SIZE &&
	       __atomic_load_n(&h->cpu, __ATOMIC_RELAXED) == cpu;
}

void subbuf_reader_init(struct subbuf_reader *r, const void *base,
			const struct subbuf_geometry *geom, unsigned int cpu)
{
	*r = (struct subbuf_reader) {
		.base = base,
		.geom = *geom,
		.cpu = cpu,
		.count_mix = true,
		.offset = SUBBUF_HDR_SIZE,
		.seq_limit = UINT64_MAX,
	};
}

static uint64_t now_ns(const struct subbuf_reader *r)
{
	return r->clock ? r->clock(r->clock_ctx) : mono_ns();
}

/*
 * The largest seq the producer can have reached by now: the newest seq
 * believed (or where we are), two laps, and what a record every
 * SUBBUF_NS_PER_REC ns fills since that seq was seen.
 */
static void set_seq_limit(struct subbuf_reader *r)
{
	uint64_t now = now_ns(r), since, base, more;

	if (r->next_seq > r->newest_seen) {
		r->newest_seen = r->next_seq;
		r->seen_ns = now;
	}
	base = r->newest_seen;
	since = now > r->seen_ns ? now - r->seen_ns : 0;
	if (since > SUBBUF_MAX_GAP_NS)
		since = SUBBUF_MAX_GAP_NS;
	more = since / (SUBBUF_NS_PER_REC * subbuf_capacity(&r->geom));
	r->seq_limit = base + 2 * (uint64_t)r->geom.n_subbufs + 2 + more;
	r->last_read_ns = now;
}

/* seq is real: the producer got there by the time of this read. */
static void believe(struct subbuf_reader *r, uint64_t seq)
{
	if (seq > r->newest_seen) {
		r->newest_seen = seq;
		r->seen_ns = r->last_read_ns;
	}
}

static const struct sched_relay_header *header_of(const unsigned char *base,
						  const struct subbuf_geometry *g,
						  uint64_t seq)
{
	return (const void *)(base + (seq % g->n_subbufs) * g->subbuf_size);
}

/* What the header at seq's index says right now. */
struct snap {
	bool valid;
	bool busy;		/* being set up, or not believed: wait */
	uint64_t seq;
	uint64_t gen;
};

static struct snap snap_raw(const unsigned char *base,
			    const struct subbuf_geometry *g, unsigned int cpu,
			    uint64_t seq)
{
	const struct sched_relay_header *h = header_of(base, g, seq);
	struct snap s = { 0 };

	/* pairs with the writer's store-release of seq: the fields read
	 * after it are the ones it wrote before */
	s.seq = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);
	if (s.seq == SCHED_RELAY_SEQ_BUSY) {
		s.busy = true;
		return s;
	}
	s.gen = __atomic_load_n(&h->generation, __ATOMIC_RELAXED);
	s.valid = subbuf_header_valid(h, cpu);
	/*
	 * Seqlock read side: the fields before the re-check (pairs with the
	 * writer's smp_wmb() after storing SEQ_BUSY).  A header rewritten
	 * meanwhile is being set up, not garbage: taken for garbage, it
	 * looked like a reset and the sequence was counted lost again.
	 */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&h->seq, __ATOMIC_RELAXED) != s.seq) {
		s.valid = false;
		s.busy = true;
	}
	return s;
}

/* The same, seen by a reader that does not believe a seq past its limit. */
static struct snap snap_at(struct subbuf_reader *r, uint64_t seq)
{
	struct snap s = snap_raw(r->base, &r->geom, r->cpu, seq);

	if (s.valid && s.seq > r->seq_limit) {
		/* garbage, or the producer is not where it says: read as
		 * "not there yet", never as a jump */
		s.valid = false;
		s.busy = true;
		r->bogus++;
	}
	return s;
}

/* Larger (generation, seq) is newer: generations only grow. */
static bool newer(uint64_t gen_a, uint64_t seq_a, uint64_t gen_b,
		  uint64_t seq_b)
{
	return gen_a > gen_b || (gen_a == gen_b && seq_a > seq_b);
}

static struct subbuf_newest find_newest(const void *base,
				       const struct subbuf_geometry *geom,
				       unsigned int cpu, uint64_t limit)
{
	struct subbuf_newest best = { 0 };

	for (uint32_t i = 0; i < geom->n_subbufs; i++) {
		struct snap s = snap_raw(base, geom, cpu, i);

		/* a header at the wrong index is garbage, not data; a seq
		 * the producer cannot have reached (yet) is not believed */
		if (s.busy || (s.valid && s.seq > limit))
			best.waiting = true;
		if (!s.valid || s.seq % geom->n_subbufs != i || s.seq > limit)
			continue;
		if (!best.valid || newer(s.gen, s.seq, best.generation,
					 best.seq)) {
			best.valid = true;
			best.seq = s.seq;
			best.generation = s.gen;
		}
	}
	if (best.valid) {
		const struct sched_relay_header *h = header_of(base, geom,
							       best.seq);

		best.committed = __atomic_load_n(&h->committed,
						 __ATOMIC_ACQUIRE);
		if (best.committed > geom->subbuf_size)
			best.committed = geom->subbuf_size;
	}
	return best;
}

struct subbuf_newest subbuf_find_newest(const void *base,
					const struct subbuf_geometry *geom,
					unsigned int cpu)
{
	return find_newest(base, geom, cpu, UINT64_MAX);
}

static struct subbuf_newest newest(struct subbuf_reader *r)
{
	struct subbuf_newest w = find_newest(r->base, &r->geom, r->cpu,
					     r->seq_limit);

	if (w.valid)
		believe(r, w.seq);
	return w;
}

static uint64_t oldest_kept(const struct subbuf_reader *r, uint64_t newest)
{
	return newest >= r->geom.n_subbufs ? newest - r->geom.n_subbufs + 1 : 0;
}

static void move_to(struct subbuf_reader *r, uint64_t seq)
{
	r->next_seq = seq;
	r->offset = SUBBUF_HDR_SIZE;
	r->in_subbuf = false;
	r->have_prev = false;
}

bool subbuf_reader_sync(struct subbuf_reader *r, bool have_consumed,
			uint64_t consumed)
{
	/* Nothing to bound a seq by yet: the buffer may have been written
	 * for hours.  The consumed count, when known, keeps a garbage
	 * header from setting where we start. */
	struct subbuf_newest w = find_newest(r->base, &r->geom, r->cpu,
					     have_consumed ? consumed +
					     r->geom.n_subbufs : UINT64_MAX);
	uint64_t start;

	if (!w.valid)
		return false;
	start = oldest_kept(r, w.seq);
	if (have_consumed && consumed > start && consumed <= w.seq)
		start = consumed;
	/* Sub-buffers the kernel still counts as unconsumed but that are
	 * gone from the buffer were passed over: hand them back too. */
	r->handback = have_consumed && start > consumed ? start - consumed : 0;
	move_to(r, start);
	r->dropped = __atomic_load_n(&header_of(r->base, &r->geom, start)->dropped,
				     __ATOMIC_RELAXED);
	r->synced = true;
	r->have_event = false;		/* the first chunk sets the numbering */
	r->newest_seen = w.seq;
	r->seq_gen = w.generation;
	r->last_read_ns = r->seen_ns = now_ns(r);
	return true;
}

/*
 * The newest header is still of the sequence we follow: no newer
 * generation, and not below our position.  Every reset starts a new
 * generation, so this is no reset, whatever a neighbour looks like.
 */
static bool same_sequence(const struct subbuf_reader *r,
			  const struct subbuf_newest *w)
{
	return w->valid && w->generation <= r->seq_gen &&
	       w->seq + 1 >= r->next_seq;
}

/* The producer restarted its sequence: start over at the new one. */
static unsigned int restart(struct subbuf_reader *r,
			    const struct subbuf_sink *sink)
{
	struct subbuf_newest w = newest(r);
	uint64_t start;

	if (!w.valid && w.waiting)
		return 0;	/* headers being set up or not believed yet */
	if (!w.valid) {
		r->synced = false;
		return SUBBUF_UNSYNCED;
	}
	if (same_sequence(r, &w)) {
		r->not_resets++;	/* an odd header, no reset: wait */
		return 0;
	}
	start = oldest_kept(r, w.seq);
	r->restarts++;
	r->newest_seen = w.seq;		/* the new sequence's */
	r->seq_gen = w.generation;
	r->seen_ns = r->last_read_ns;
	/* The sink hears of the restart before of the new sequence's
	 * losses, which come after it. */
	if (sink->restart)
		sink->restart(sink->ctx, r->cpu, w.generation);
	/* the new sequence numbers its events from 0; what it lost (below)
	 * is missing before its first record */
	r->have_event = true;
	r->next_event = 0;
	r->mark_dropped = 0;
	r->mark_lost = r->lost;
	/* A reset sets the kernel's consumed count to 0: the new sequence's
	 * sub-buffers already overwritten were passed over, and lost. */
	r->handback = start;
	r->lost += start * subbuf_capacity(&r->geom);
	r->lost_subbufs += start;
	r->dropped = 0;
	move_to(r, start);
	return SUBBUF_RESTARTED | SUBBUF_PROGRESS | (start ? SUBBUF_LOST : 0);
}

/* The writer went past us (overwrite mode): skip to its oldest kept. */
static unsigned int overtaken(struct subbuf_reader *r, uint64_t newest)
{
	uint32_t cap = subbuf_capacity(&r->geom);
	uint64_t start = oldest_kept(r, newest);
	uint64_t done_here = r->in_subbuf ?
		(r->offset - SUBBUF_HDR_SIZE) / SUBBUF_REC_SIZE : 0;

	if (start <= r->next_seq)
		start = r->next_seq + 1;
	r->lost += cap - done_here + (start - r->next_seq - 1) * cap;
	r->lost_subbufs += start - r->next_seq;
	r->handback += start - r->next_seq;
	move_to(r, start);
	return SUBBUF_LOST | SUBBUF_PROGRESS;
}

/*
 * The header at our index is not what we expect (h), or the newest header
 * says the sequence went backwards: decide between overwritten and
 * restarted.  Returns 0 when it is neither (keep waiting).
 */
static unsigned int resolve(struct subbuf_reader *r, struct snap h,
			    const struct subbuf_sink *sink)
{
	struct subbuf_newest w;

	if (h.busy)
		return 0;	/* being set up: look again later */
	w = newest(r);
	if (!w.valid && w.waiting)
		return 0;	/* look again later, with a fresh limit */
	if (!w.valid)
		return restart(r, sink);
	if (w.seq < r->next_seq)	/* a reset, unless still being set up */
		return w.waiting ? 0 : restart(r, sink);
	if (h.valid && h.seq == r->next_seq && r->in_subbuf &&
	    h.gen != r->cur_gen)
		return restart(r, sink);	/* rewritten in place */
	if (h.valid && h.seq > r->next_seq &&
	    h.seq % r->geom.n_subbufs == r->next_seq % r->geom.n_subbufs)
		return overtaken(r, w.seq);
	if (r->in_subbuf && (!h.valid || h.seq < r->next_seq))
		return restart(r, sink);	/* ours rewritten, seq lower */
	if (h.valid && h.seq < r->next_seq && r->have_prev &&
	    h.gen > r->prev_gen)
		return restart(r, sink);	/* a newer sequence got here */
	return 0;
}

/* Sub-buffer next_seq - 1, finished, is still as we left it or lapped. */
static bool chain_intact(struct subbuf_reader *r)
{
	struct snap p;

	if (!r->have_prev)
		return true;
	p = snap_at(r, r->next_seq - 1);
	if (p.busy)
		return true;	/* being started again: lapped */
	if (!p.valid)
		return false;
	if (p.seq == r->next_seq - 1)
		return p.gen == r->prev_gen;
	return p.seq >= r->next_seq - 1 + r->geom.n_subbufs;
}

void subbuf_chunk_count_mix(struct subbuf_chunk *c)
{
	for (uint32_t i = 0; i < SCHED_RELAY_NR_EVENTS; i++)
		c->mix[i] = 0;
	c->unknown = 0;
	for (uint32_t i = 0; i < c->nrec; i++) {
		uint8_t type = c->recs[i].type;

		if (type < SCHED_RELAY_NR_EVENTS)
			c->mix[type]++;
		else
			c->unknown++;
	}
}

/* 'committed' as loaded, made safe: within the sub-buffer, whole records. */
static uint32_t sane_committed(struct subbuf_reader *r, uint32_t committed)
{
	uint32_t c = committed;

	if (c < SUBBUF_HDR_SIZE)
		c = SUBBUF_HDR_SIZE;
	if (c > r->geom.subbuf_size)
		c = r->geom.subbuf_size;
	c -= (c - SUBBUF_HDR_SIZE) % SUBBUF_REC_SIZE;
	if (c != committed)
		r->bad_commits++;
	return c;
}

/*
 * The identity of a chunk that was read intact: its first record is
 * number first + idx0; e0 and e1 are the event_seq of its first and last
 * record as read (inside the seqlock section).
 */
static void check_identity(struct subbuf_reader *r, uint64_t first,
			   const struct subbuf_chunk *c, uint32_t e0,
			   uint32_t e1)
{
	uint64_t n0 = first + (c->offset - SUBBUF_HDR_SIZE) / SUBBUF_REC_SIZE;

	if (e0 != (uint32_t)n0 || e1 != (uint32_t)(n0 + c->nrec - 1))
		r->misplaced++;
	if (r->have_event) {
		uint64_t counted = (c->dropped - r->mark_dropped) +
				   (r->lost - r->mark_lost);
		uint64_t want = r->next_event + counted;

		if (n0 != want)
			r->unaccounted += n0 > want ? n0 - want : want - n0;
	}
	r->have_event = true;
	r->next_event = n0 + c->nrec;
	r->mark_dropped = c->dropped;
	r->mark_lost = r->lost;
}

unsigned int subbuf_reader_read(struct subbuf_reader *r,
				const struct subbuf_sink *sink)
{
	unsigned int flags = 0;
	/* At most one lap per call, so one busy CPU cannot starve the rest. */
	uint32_t budget = r->geom.n_subbufs + 2;

	if (!r->synced && !subbuf_reader_sync(r, false, 0))
		return SUBBUF_UNSYNCED;
	set_seq_limit(r);

	while (budget--) {
		struct snap h = snap_at(r, r->next_seq);
		const struct sched_relay_header *hdr;
		struct snap next;
		struct subbuf_chunk chunk;
		uint32_t committed, e0, e1;
		uint64_t dropped, first;
		bool finished;

		if (h.busy)
			return flags;	/* being set up: not there yet */
		if (!r->in_subbuf) {
			bool ours = h.valid && h.seq == r->next_seq &&
				    (!r->have_prev || h.gen >= r->prev_gen);

			if (ours && !chain_intact(r)) {
				struct subbuf_newest w = newest(r);
				unsigned int f;

				/* the one behind ours is odd but no newer
				 * sequence exists: read on */
				if (!same_sequence(r, &w)) {
					f = restart(r, sink);
					if (!f)
						return flags;	/* look again */
					flags |= f;
					continue;
				}
				r->not_resets++;
			}
			if (!ours) {
				unsigned int f = resolve(r, h, sink);

				if (!f)
					return flags;	/* not started yet */
				flags |= f;
				continue;
			}
			r->in_subbuf = true;
			r->cur_gen = h.gen;
			if (h.gen > r->seq_gen)
				r->seq_gen = h.gen;
			r->offset = SUBBUF_HDR_SIZE;
		} else if (!h.valid || h.seq != r->next_seq ||
			   h.gen != r->cur_gen) {
			unsigned int f = resolve(r, h, sink);

			if (!f)
				f = restart(r, sink);
			if (!f)
				return flags;	/* look again later */
			flags |= f;
			continue;
		}

		/* Is the sub-buffer finished?  Look before loading committed:
		 * a started successor makes the committed we load final. */
		next = snap_at(r, r->next_seq + 1);
		finished = next.valid && next.seq > r->next_seq &&
			   next.seq % r->geom.n_subbufs ==
			   (r->next_seq + 1) % r->geom.n_subbufs &&
			   next.gen >= r->cur_gen;
		hdr = header_of(r->base, &r->geom, r->next_seq);
		dropped = __atomic_load_n(&hdr->dropped, __ATOMIC_RELAXED);
		first = __atomic_load_n(&hdr->first_event_seq, __ATOMIC_RELAXED);
		committed = sane_committed(r, __atomic_load_n(&hdr->committed,
							      __ATOMIC_ACQUIRE));

		if (committed > r->offset) {
			chunk = (struct subbuf_chunk) {
				.cpu = r->cpu,
				.seq = r->next_seq,
				.generation = r->cur_gen,
				.offset = r->offset,
				.nrec = (committed - r->offset) / SUBBUF_REC_SIZE,
				.recs = (const void *)((const unsigned char *)hdr +
						       r->offset),
				.dropped = dropped,
				.lost = r->lost,
			};
			if (r->count_mix)
				subbuf_chunk_count_mix(&chunk);
			e0 = __atomic_load_n(&chunk.recs[0].event_seq,
					     __ATOMIC_RELAXED);
			e1 = __atomic_load_n(&chunk.recs[chunk.nrec - 1].event_seq,
					     __ATOMIC_RELAXED);
			sink->stage(sink->ctx, &chunk);
			/* seqlock read side: the records before the re-check */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			h.seq = __atomic_load_n(&hdr->seq, __ATOMIC_RELAXED);
			h.gen = __atomic_load_n(&hdr->generation,
						__ATOMIC_RELAXED);
			if (h.seq != r->next_seq || h.gen != r->cur_gen) {
				unsigned int f;

				sink->settle(sink->ctx, &chunk, false);
				r->torn++;
				h = snap_at(r, r->next_seq);
				if (h.busy)
					return flags;	/* lapped: see later */
				f = resolve(r, h, sink);
				if (!f && r->in_subbuf)	/* resolve() found nothing */
					f = restart(r, sink);
				if (!f)
					return flags;	/* look again later */
				flags |= f;
				continue;
			}
			sink->settle(sink->ctx, &chunk, true);
			check_identity(r, first, &chunk, e0, e1);
			r->offset = committed;
			r->records += chunk.nrec;
			flags |= SUBBUF_PROGRESS;
		} else {
			/* nothing new: still check 'dropped' was ours */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (__atomic_load_n(&hdr->seq, __ATOMIC_RELAXED) !=
			    r->next_seq ||
			    __atomic_load_n(&hdr->generation,
					    __ATOMIC_RELAXED) != r->cur_gen)
				continue;	/* the top of the loop decides */
		}
		r->dropped = dropped;
		if (!finished) {
			/* Caught up inside the sub-buffer being filled.  A
			 * reset elsewhere shows as a newest seq below ours. */
			struct subbuf_newest w = newest(r);

			if (w.valid && !w.waiting && w.seq < r->next_seq) {
				unsigned int f = restart(r, sink);

				if (!f)
					return flags;
				flags |= f;
				continue;
			}
			return flags;
		}
		r->prev_gen = r->cur_gen;
		r->have_prev = true;
		r->next_seq++;
		r->offset = SUBBUF_HDR_SIZE;
		r->in_subbuf = false;
		r->handback++;
		flags |= SUBBUF_PROGRESS;
	}
	return flags | SUBBUF_MORE;
}

bool subbuf_still_there(const void *recs, uint32_t offset, uint64_t seq,
			uint64_t generation)
{
	const struct sched_relay_header *h =
		(const void *)((const unsigned char *)recs - offset);

	/* pairs with the writer's store-release of seq, as the re-check in
	 * subbuf_reader_read(): the records were used before this */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&h->seq, __ATOMIC_RELAXED) == seq &&
	       __atomic_load_n(&h->generation, __ATOMIC_RELAXED) == generation;
}

uint64_t subbuf_reader_backlog(const struct subbuf_reader *r)
{
	struct subbuf_newest w;
	uint64_t bytes, done;

	if (!r->synced)
		return 0;
	w = find_newest(r->base, &r->geom, r->cpu, r->seq_limit);
	if (!w.valid || w.seq < r->next_seq)
		return 0;
	done = r->in_subbuf ? r->offset : SUBBUF_HDR_SIZE;
	bytes = (w.seq - r->next_seq) * r->geom.subbuf_size + w.committed;
	bytes = bytes > done ? bytes - done : 0;
	if (bytes > subbuf_buffer_size(&r->geom))
		bytes = subbuf_buffer_size(&r->geom);
	return bytes;
}

int subbuf_reader_handback(struct subbuf_reader *r,
			   int (*give)(void *ctx, uint64_t n), void *ctx)
{
	unsigned int writes = 0;

	/* In pieces of at most a buffer's worth (relay refuses more), and
	 * at most SUBBUF_HANDBACK_WRITES of them a call: what is left waits
	 * for the next call. */
	while (r->handback && writes < SUBBUF_HANDBACK_WRITES) {
		uint64_t n = r->handback < r->geom.n_subbufs ?
			     r->handback : r->geom.n_subbufs;
		int err;

		/* -EINVAL: the kernel counts fewer unconsumed; halve (each
		 * try is a write: the bound counts them too) */
		while (writes++, (err = give(ctx, n)) == -EINVAL && n > 1) {
			if (writes >= SUBBUF_HANDBACK_WRITES)
				return 0;	/* the rest at the next call */
			n /= 2;
		}
		if (err == -EINVAL) {
			r->handback = 0;	/* the kernel has none left */
			break;
		}
		if (err)
			return err;
		r->handback -= n;
	}
	return 0;
}

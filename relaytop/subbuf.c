// SPDX-License-Identifier: GPL-2.0
/*
 * subbuf.c - following one CPU's sched_relay buffer in place.
 *
 * The buffer (include/uapi/sched_relay.h) is n sub-buffers; relay numbers
 * them from 0 when the channel is created and never goes back, and
 * sub-buffer seq lives at index seq % n.  relay's meta area after the
 * buffer (struct relay_buf_meta, <linux/relay.h>) says where the writer
 * is: it fills sub-buffer 'produced' and those below are finished, each
 * ending at ends[seq % n]; 'reset_at' is where the data starts again
 * after the last reset.  The reader keeps a position (next_seq, offset):
 *
 *   index:   0          1          2          3
 *          +----------+----------+----------+----------+
 *          | seq 8    | seq 9    | seq 6    | seq 7    |   n = 4,
 *          | finished | filling  | finished | finished |   produced 9
 *          +----------+----------+----------+----------+
 *                        ^ writer  ^ reader: next_seq 6, offset
 *
 * Rules (each one pinned by tests/unit/t-subbuf.c):
 *
 * - Where to read comes from the meta area alone, which the kernel writes:
 *   a reset after our position (reset_at > next_seq) moves us to
 *   reset_at; what we had not read before it was discarded, on request,
 *   and is not counted as lost.  The new sequence numbers its events from
 *   0.  A writer that lapped us (produced > next_seq + n, or produced ==
 *   next_seq + n with our sub-buffer's header no longer ours: overwrite
 *   mode) moves us to the oldest sub-buffer still there, produced - n + 1.
 *   produced == next_seq + n alone is not a lap: relay publishes it before
 *   it starts that sub-buffer or refuses to (no-overwrite, full).
 * - A sub-buffer's header must carry its own seq: the one being filled
 *   whose header is not set up yet is not there yet; a finished one
 *   without its header is counted (bad_headers) and passed over.
 * - Records [offset, end) are read: end is the meta area's ends[] for a
 *   finished sub-buffer, the header's 'committed' (loaded with acquire
 *   semantics) for the one being filled, so it is followed live.
 * - After records were shown to the sink, the header is checked again; if
 *   its seq or generation changed, or produced reached next_seq + n, the
 *   writer overwrote the sub-buffer while it was read (a torn read): the
 *   sink throws the records away.
 * - Events lost to sub-buffers passed over are counted from the records'
 *   own numbers: record i of a sub-buffer has event number
 *   first_event_seq + i, so the first record read after a skip says how
 *   many events are missing, less the producer's drops in between.
 * - Identity: the reader expects, per CPU, the next record's number:
 *   every chunk's first and last record must carry theirs (event_seq, the
 *   low 32 bits), else 'misplaced' counts it, and the numbers missing
 *   between two chunks must be the events counted missing between them
 *   (the header's drops, the reader's losses), else 'unaccounted' counts
 *   the difference.
 * - The hand-back names the first sub-buffer not finished: an absolute
 *   number, which a reset makes stale (the kernel refuses it with ESTALE)
 *   instead of consuming data written after it.
 *
 * Memory ordering: the kernel stores a finished sub-buffer's end, then
 * 'produced' with release semantics (and reset_at after the counts); the
 * reader loads reset_at and produced with acquire semantics.  The header
 * is a seqlock: the writer sets seq to SCHED_RELAY_SEQ_BUSY, writes the
 * other fields and committed = hdr_size, then stores seq with release; it
 * stores a record, then 'committed' (release).  The reader loads seq with
 * acquire (BUSY: not there yet), reads the fields, loads 'committed' with
 * acquire, reads records, issues an acquire fence and re-reads seq,
 * generation and produced: a change means the copy was torn.
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

static uint64_t page_align(uint64_t bytes, unsigned long page_size)
{
	return (bytes + page_size - 1) / page_size * page_size;
}

uint64_t subbuf_meta_offset(const struct subbuf_geometry *geom,
			    unsigned long page_size)
{
	return page_align(subbuf_buffer_size(geom), page_size);
}

uint64_t subbuf_map_size(const struct subbuf_geometry *geom,
			 unsigned long page_size)
{
	return subbuf_meta_offset(geom, page_size) +
	       page_align(sizeof(struct relay_buf_meta) +
			  4 * (uint64_t)geom->n_subbufs, page_size);
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
			const struct relay_buf_meta *meta,
			const struct subbuf_geometry *geom, unsigned int cpu)
{
	*r = (struct subbuf_reader) {
		.base = base,
		.meta = meta,
		.geom = *geom,
		.cpu = cpu,
		.count_mix = true,
		.offset = SUBBUF_HDR_SIZE,
	};
}

static const struct sched_relay_header *header_of(const struct subbuf_reader *r,
						  uint64_t seq)
{
	return (const void *)(r->base + (seq % r->geom.n_subbufs) *
			      r->geom.subbuf_size);
}

/* The header of sub-buffer seq is there and its own; its generation. */
static bool header_is(const struct subbuf_reader *r, uint64_t seq,
		      uint64_t *gen)
{
	const struct sched_relay_header *h = header_of(r, seq);

	/* pairs with the writer's store-release of seq */
	if (__atomic_load_n(&h->seq, __ATOMIC_ACQUIRE) != seq ||
	    !subbuf_header_valid(h, r->cpu))
		return false;
	*gen = __atomic_load_n(&h->generation, __ATOMIC_RELAXED);
	return true;
}

/* relay's counts; pair with its releases (include/uapi/linux/relay.h) */
static uint64_t meta_load(const __u64 *field)
{
	return __atomic_load_n(field, __ATOMIC_ACQUIRE);
}

static void move_to(struct subbuf_reader *r, uint64_t seq)
{
	r->next_seq = seq;
	r->offset = SUBBUF_HDR_SIZE;
	r->in_subbuf = false;
}

/* The number of the first record at offset of a sub-buffer. */
static uint64_t event_at(uint64_t first, uint32_t offset)
{
	return first + (offset - SUBBUF_HDR_SIZE) / SUBBUF_REC_SIZE;
}

/*
 * A header taken: the first one after the reader synced says which event
 * comes next (events before the reader came are nobody's business); the
 * first one after sub-buffers were passed over says how many events went
 * with them, less the producer's drops in between: those were lost.
 */
static void number_from(struct subbuf_reader *r)
{
	const struct sched_relay_header *h = header_of(r, r->next_seq);
	uint64_t n0 = event_at(__atomic_load_n(&h->first_event_seq,
					       __ATOMIC_RELAXED), r->offset);
	uint64_t dropped = __atomic_load_n(&h->dropped, __ATOMIC_RELAXED);

	if (!r->have_event) {
		r->have_event = true;
		r->next_event = n0;
		r->mark_dropped = dropped;
		r->mark_lost = r->lost;
	} else if (r->skipped) {
		uint64_t want = r->next_event + (dropped - r->mark_dropped) +
				(r->lost - r->mark_lost);

		if (n0 > want)
			r->lost += n0 - want;
	}
	r->skipped = false;
}

bool subbuf_reader_sync(struct subbuf_reader *r)
{
	const struct relay_buf_meta *m = r->meta;
	uint64_t reset_at, produced, consumed, start;

	if (m->version != RELAY_BUF_META_VERSION ||
	    m->n_subbufs != r->geom.n_subbufs ||
	    m->subbuf_size != r->geom.subbuf_size)
		return false;
	reset_at = meta_load(&m->reset_at);
	produced = meta_load(&m->produced);
	consumed = meta_load(&m->consumed);
	/* nobody consumed it, it is still there, and it is after the reset */
	start = consumed > reset_at ? consumed : reset_at;
	if (produced >= r->geom.n_subbufs &&
	    start < produced - r->geom.n_subbufs + 1)
		start = produced - r->geom.n_subbufs + 1;
	move_to(r, start);
	r->reset_at = reset_at;
	r->handed = consumed;
	r->dropped = 0;
	r->skipped = false;
	/* the first header there sets the numbering: now, if it is there,
	 * so that what is overwritten before the first read counts lost */
	r->have_event = false;
	if (header_is(r, start, &r->cur_gen))
		number_from(r);
	r->synced = true;
	return true;
}

/*
 * The writer started sub-buffer next_seq + n in our place.  Not when it
 * refused to (no-overwrite, full: the meta area's 'stopped') and went no
 * further: then ours is all still there.  Nor while it is still deciding:
 * relay publishes 'produced' (next_seq + n) first, and only then starts
 * that sub-buffer or refuses to and sets 'stopped', so 'stopped' is still
 * 0 from the previous start meanwhile; in no-overwrite mode with the
 * buffer full it is about to refuse, and ours is intact.  What tells is
 * our sub-buffer's header: the writer marks it SCHED_RELAY_SEQ_BUSY
 * before it changes anything in our place, and while it still carries
 * next_seq, reading on is safe (the re-check after a copy catches a
 * start that comes meanwhile, as for any torn read).
 */
static bool lapped(const struct subbuf_reader *r, uint64_t produced)
{
	uint64_t lap = r->next_seq + r->geom.n_subbufs;

	return produced > lap ||
	       (produced == lap &&
		!__atomic_load_n(&r->meta->stopped, __ATOMIC_RELAXED) &&
		__atomic_load_n(&header_of(r, r->next_seq)->seq,
				__ATOMIC_ACQUIRE) != r->next_seq);
}

/*
 * A reset after our position: start over where the new data starts.
 * Returns 0 while the new sequence's first header is being set up.
 */
static unsigned int restart(struct subbuf_reader *r, uint64_t reset_at,
			    uint64_t produced, const struct subbuf_sink *sink)
{
	uint64_t gen = r->cur_gen, oldest;

	/* the new sequence's generation, from its first header still there */
	oldest = produced >= r->geom.n_subbufs ?
		 produced - r->geom.n_subbufs + 1 : 0;
	if (!header_is(r, reset_at > oldest ? reset_at : oldest, &gen) &&
	    produced <= reset_at)
		return 0;
	r->restarts++;
	r->reset_at = reset_at;
	if (sink->restart)
		sink->restart(sink->ctx, r->cpu, gen);
	/* the new sequence numbers its events from 0 */
	r->have_event = true;
	r->next_event = 0;
	r->mark_dropped = 0;
	r->mark_lost = r->lost;
	r->dropped = 0;
	r->skipped = false;
	move_to(r, reset_at);
	return SUBBUF_RESTARTED | SUBBUF_PROGRESS;
}

/* The writer went past us (overwrite mode): on to the oldest still there. */
static unsigned int overtaken(struct subbuf_reader *r, uint64_t produced)
{
	uint64_t start = produced - r->geom.n_subbufs + 1;

	r->lost_subbufs += start - r->next_seq;
	r->skipped = true;
	move_to(r, start);
	return SUBBUF_LOST | SUBBUF_PROGRESS;
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

/* An end as loaded, made safe: within the sub-buffer, whole records. */
static uint32_t sane_end(struct subbuf_reader *r, uint32_t end)
{
	uint32_t c = end;

	if (c < SUBBUF_HDR_SIZE)
		c = SUBBUF_HDR_SIZE;
	if (c > r->geom.subbuf_size)
		c = r->geom.subbuf_size;
	c -= (c - SUBBUF_HDR_SIZE) % SUBBUF_REC_SIZE;
	if (c != end)
		r->bad_commits++;
	return c;
}


/*
 * The identity of a chunk that was read intact: its first record is
 * number n0; e0 and e1 are the event_seq of its first and last record as
 * read (inside the seqlock section).
 */
static void check_identity(struct subbuf_reader *r, uint64_t n0,
			   const struct subbuf_chunk *c, uint32_t e0,
			   uint32_t e1)
{
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

/*
 * The sub-buffer we read is still the one we started on: the writer marks
 * a header SCHED_RELAY_SEQ_BUSY before it changes anything in its place.
 */
static bool still_ours(const struct subbuf_reader *r)
{
	const struct sched_relay_header *h = header_of(r, r->next_seq);

	/* seqlock read side: the records were loaded before this */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&h->seq, __ATOMIC_RELAXED) == r->next_seq &&
	       __atomic_load_n(&h->generation, __ATOMIC_RELAXED) == r->cur_gen;
}

/*
 * Show the records [offset, end) of sub-buffer next_seq to the sink.
 * Returns false when they were torn (the sub-buffer was overwritten).
 */
static bool read_chunk(struct subbuf_reader *r, uint32_t end,
		       const struct subbuf_sink *sink)
{
	const struct sched_relay_header *hdr = header_of(r, r->next_seq);
	uint64_t first = __atomic_load_n(&hdr->first_event_seq, __ATOMIC_RELAXED);
	uint64_t dropped = __atomic_load_n(&hdr->dropped, __ATOMIC_RELAXED);
	uint64_t n0 = event_at(first, r->offset);
	struct subbuf_chunk chunk;
	uint32_t e0, e1;

	if (end > r->offset) {
		chunk = (struct subbuf_chunk) {
			.cpu = r->cpu,
			.seq = r->next_seq,
			.generation = r->cur_gen,
			.offset = r->offset,
			.nrec = (end - r->offset) / SUBBUF_REC_SIZE,
			.recs = (const void *)((const unsigned char *)hdr +
					       r->offset),
			.hdr = hdr,
			.dropped = dropped,
			.lost = r->lost,
		};
		if (r->count_mix)
			subbuf_chunk_count_mix(&chunk);
		e0 = __atomic_load_n(&chunk.recs[0].event_seq, __ATOMIC_RELAXED);
		e1 = __atomic_load_n(&chunk.recs[chunk.nrec - 1].event_seq,
				     __ATOMIC_RELAXED);
		sink->stage(sink->ctx, &chunk);
		if (!still_ours(r)) {
			sink->settle(sink->ctx, &chunk, false);
			r->torn++;
			return false;
		}
		sink->settle(sink->ctx, &chunk, true);
		check_identity(r, n0, &chunk, e0, e1);
		r->offset = end;
		r->records += chunk.nrec;
	} else if (!still_ours(r)) {
		return false;	/* nothing new: still check 'dropped' was ours */
	}
	r->dropped = dropped;
	return true;
}

unsigned int subbuf_reader_read(struct subbuf_reader *r,
				const struct subbuf_sink *sink)
{
	/* At most one lap per call, so one busy CPU cannot starve the
	 * rest. */
	return subbuf_reader_read_upto(r, sink, r->geom.n_subbufs + 2);
}

unsigned int subbuf_reader_read_upto(struct subbuf_reader *r,
				     const struct subbuf_sink *sink,
				     uint32_t budget)
{
	unsigned int flags = 0;

	if (!r->synced && !subbuf_reader_sync(r))
		return SUBBUF_UNSYNCED;

	while (budget--) {
		uint64_t reset_at = meta_load(&r->meta->reset_at);
		uint64_t produced = meta_load(&r->meta->produced);
		const struct sched_relay_header *hdr;
		uint32_t end;

		if (reset_at > r->next_seq) {
			unsigned int f = restart(r, reset_at, produced, sink);

			if (!f)
				return flags;	/* look again later */
			flags |= f;
			continue;
		}
		if (lapped(r, produced)) {
			flags |= overtaken(r, produced);
			continue;
		}
		if (!r->in_subbuf) {
			if (!header_is(r, r->next_seq, &r->cur_gen)) {
				if (r->next_seq >= produced)
					return flags;	/* not set up yet */
				/* finished, not lapped, without its header:
				 * not ours to read (unless lapped or reset
				 * since, which the top sees) */
				if (!lapped(r, meta_load(&r->meta->produced)) &&
				    meta_load(&r->meta->reset_at) <= r->next_seq) {
					r->bad_headers++;
					r->skipped = true;
					move_to(r, r->next_seq + 1);
				}
				flags |= SUBBUF_PROGRESS;
				continue;
			}
			r->in_subbuf = true;
			number_from(r);
		}
		hdr = header_of(r, r->next_seq);
		if (r->next_seq < produced)
			end = sane_end(r, __atomic_load_n(&r->meta->ends[r->next_seq %
						r->geom.n_subbufs], __ATOMIC_RELAXED));
		else
			end = sane_end(r, __atomic_load_n(&hdr->committed,
							  __ATOMIC_ACQUIRE));
		if (end > r->offset)
			flags |= SUBBUF_PROGRESS;
		if (!read_chunk(r, end, sink)) {
			r->in_subbuf = false;	/* torn: the top decides */
			continue;
		}
		if (r->next_seq >= produced)
			return flags;	/* caught up in the one being filled */
		move_to(r, r->next_seq + 1);
		flags |= SUBBUF_PROGRESS;
	}
	return flags | SUBBUF_MORE;
}

bool subbuf_still_there(const struct sched_relay_header *h, uint64_t seq,
			uint64_t generation)
{

	/* pairs with the writer's store-release of seq, as the re-check in
	 * subbuf_reader_read(): the records were used before this */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&h->seq, __ATOMIC_RELAXED) == seq &&
	       __atomic_load_n(&h->generation, __ATOMIC_RELAXED) == generation;
}

uint64_t subbuf_reader_backlog(const struct subbuf_reader *r)
{
	uint64_t produced, bytes, done, committed = SUBBUF_HDR_SIZE, gen;

	if (!r->synced)
		return 0;
	produced = meta_load(&r->meta->produced);
	if (produced < r->next_seq)
		return 0;
	if (header_is(r, produced, &gen))
		committed = __atomic_load_n(&header_of(r, produced)->committed,
					    __ATOMIC_ACQUIRE);
	if (committed > r->geom.subbuf_size)
		committed = r->geom.subbuf_size;
	done = r->in_subbuf ? r->offset : SUBBUF_HDR_SIZE;
	bytes = (produced - r->next_seq) * r->geom.subbuf_size + committed;
	bytes = bytes > done ? bytes - done : 0;
	if (bytes > subbuf_buffer_size(&r->geom))
		bytes = subbuf_buffer_size(&r->geom);
	return bytes;
}

int subbuf_reader_handback(struct subbuf_reader *r,
			   int (*give)(void *ctx, uint64_t until), void *ctx)
{
	uint64_t until = r->next_seq;
	int err;

	if (!r->synced || until <= r->handed)
		return 0;
	err = give(ctx, until);
	/* -ESTALE: consumed already (a reset, another reader) */
	if (err && err != -ESTALE)
		return err;
	r->handed = until;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * subbuf.h - reading one CPU's sched_relay buffer in place (mmap).
 *
 * A struct subbuf_reader follows the producer through the sub-buffers of one
 * mapped CPU buffer: it parses headers and records where they lie, reads a
 * sub-buffer that is still being filled up to its 'committed' mark, notices
 * sub-buffers overwritten under it (flight-recorder mode) and counts the
 * events it lost that way, notices the producer restarting its sequence (a
 * reset), and keeps count of the sub-buffers it finished so the caller can
 * hand them back to the kernel.  It never copies records: it shows them to
 * a sink, which copies what it needs, and then tells the sink whether what
 * it saw was intact.  See subbuf.c for the rules.
 */
#ifndef RELAYTOP_SUBBUF_H
#define RELAYTOP_SUBBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "sched_relay.h"

#define SUBBUF_HDR_SIZE ((uint32_t)sizeof(struct sched_relay_header))
#define SUBBUF_REC_SIZE ((uint32_t)sizeof(struct sched_relay_record))

/*
 * What the producer can have written, at most, to bound a header's seq:
 * a record every SUBBUF_NS_PER_REC ns (1e8 a second on one CPU, ten
 * times what a sched tracepoint can fire), over at most SUBBUF_MAX_GAP_NS
 * since the last read.
 */
#define SUBBUF_NS_PER_REC	10u
#define SUBBUF_MAX_GAP_NS	(3600ull * 1000000000ull)
/* write()s of hand-back per subbuf_reader_handback() call, at most */
#define SUBBUF_HANDBACK_WRITES	8u

/* Geometry of one CPU buffer (the channel's subbuf_size and n_subbufs). */
struct subbuf_geometry {
	uint32_t subbuf_size;	/* bytes per sub-buffer, header included */
	uint32_t n_subbufs;	/* sub-buffers in a CPU buffer */
};

/* 0 when a reader can follow a buffer of this geometry, else -EINVAL. */
int subbuf_geometry_check(const struct subbuf_geometry *geom);
/* Records a full sub-buffer holds. */
uint32_t subbuf_capacity(const struct subbuf_geometry *geom);
/* Bytes of a whole CPU buffer (what is mapped). */
uint64_t subbuf_buffer_size(const struct subbuf_geometry *geom);

/* True when h looks like a header this producer wrote for cpu. */
bool subbuf_header_valid(const struct sched_relay_header *h, unsigned int cpu);

/* Records read from one sub-buffer, shown to a sink. */
struct subbuf_chunk {
	unsigned int cpu;
	uint64_t seq;		/* sub-buffer the records are in */
	uint64_t generation;	/* its header's generation */
	uint32_t offset;	/* byte offset of recs[0] in the sub-buffer */
	uint32_t nrec;
	const struct sched_relay_record *recs;	/* in the mapping */
	uint64_t dropped;	/* its header's count of producer drops */
	uint64_t lost;		/* events this reader lost before recs[0] */
	uint32_t mix[SCHED_RELAY_NR_EVENTS];	/* records per event type
						 * (0 unless count_mix) */
	uint32_t unknown;	/* records of a type this reader does not know */
};

/*
 * Where the records go.  stage() gets records that may still be torn by the
 * writer (overwrite mode); it copies or counts what it needs, and settle()
 * then says whether they were intact (keep them) or not (throw them away:
 * the reader counts them as lost).  restart() says the producer restarted
 * its sequence (a reset): what was left unread before it is discarded.
 */
struct subbuf_sink {
	void (*stage)(void *ctx, const struct subbuf_chunk *chunk);
	void (*settle)(void *ctx, const struct subbuf_chunk *chunk, bool intact);
	void (*restart)(void *ctx, unsigned int cpu, uint64_t generation);
	void *ctx;
};

struct subbuf_reader {
	const unsigned char *base;	/* the mapped CPU buffer */
	struct subbuf_geometry geom;
	unsigned int cpu;
	bool count_mix;		/* fill chunk.mix and .unknown (reads every
				 * record's type); off: they are 0 */

	bool synced;		/* next_seq is a real position */
	uint64_t next_seq;	/* sub-buffer being read (or waited for) */
	uint32_t offset;	/* next byte to read in it */
	bool in_subbuf;		/* its header was accepted (cur_gen valid) */
	uint64_t cur_gen;	/* generation of that header */
	uint64_t seq_gen;	/* newest generation of the sequence followed */
	bool have_prev;		/* prev_gen describes sub-buffer next_seq - 1 */
	uint64_t prev_gen;

	/* Counts since the reader was set up (restart() does not clear). */
	uint64_t records;	/* records delivered intact */
	uint64_t lost;		/* records overwritten before they were read */
	uint64_t lost_subbufs;	/* sub-buffers skipped because overwritten */
	uint64_t torn;		/* chunks thrown away after a torn read */
	uint64_t restarts;	/* producer sequence restarts seen */
	uint64_t bad_commits;	/* 'committed' values out of range */
	uint64_t dropped;	/* producer drops, from the newest header read */
	uint64_t handback;	/* finished sub-buffers not yet handed back */
	uint64_t bogus;		/* headers whose seq was past seq_limit */
	uint64_t misplaced;	/* chunks whose records had others' numbers */
	uint64_t unaccounted;	/* events missing (or extra) not counted */
	uint64_t not_resets;	/* odd headers taken for no reset: no newer
				 * generation was in the buffer */

	/* not trusting a header blindly */
	uint64_t (*clock)(void *ctx);	/* ns; NULL: mono_ns() (tests: a
					 * producer's own clock) */
	void *clock_ctx;
	uint64_t last_read_ns;	/* when seq_limit was last set */
	uint64_t newest_seen;	/* newest seq believed */
	uint64_t seen_ns;	/* when it was seen */
	uint64_t seq_limit;	/* headers past it are garbage */

	/* identity: the next record's event number, and the counts of
	 * missing events when the last record was read */
	bool have_event;
	uint64_t next_event;
	uint64_t mark_dropped;
	uint64_t mark_lost;
};

/* Set up a reader of the mapped buffer at base (not yet synced), counting
 * the mix. */
void subbuf_reader_init(struct subbuf_reader *r, const void *base,
			const struct subbuf_geometry *geom, unsigned int cpu);

/*
 * Find where to start: the oldest sub-buffer still in the buffer, or, when
 * the kernel's count of consumed sub-buffers is known (have_consumed), the
 * first one not consumed yet.  False when the buffer holds no valid header.
 */
bool subbuf_reader_sync(struct subbuf_reader *r, bool have_consumed,
			uint64_t consumed);

enum {
	SUBBUF_PROGRESS = 1 << 0,	/* records read or sub-buffers passed */
	SUBBUF_MORE = 1 << 1,		/* stopped early: call again */
	SUBBUF_RESTARTED = 1 << 2,	/* the producer restarted its sequence */
	SUBBUF_LOST = 1 << 3,		/* records were overwritten unread */
	SUBBUF_UNSYNCED = 1 << 4,	/* no valid header to start from */
};

/*
 * Read everything the producer committed since the last call (at most one
 * lap of the buffer per call) and show it to sink.  Returns SUBBUF_* flags.
 */
unsigned int subbuf_reader_read(struct subbuf_reader *r,
				const struct subbuf_sink *sink);

/*
 * Hand finished sub-buffers back: give(ctx, n) tells the kernel n more were
 * consumed (the channel writes "n\n" to the buffer file) and returns 0 or
 * -errno.  -EINVAL means the kernel counts fewer unconsumed sub-buffers
 * than we finished (another reader consumed some, or a reset came in
 * between): then the count is halved until it accepts one, or none is
 * left.  At most SUBBUF_HANDBACK_WRITES calls of give() per call; what
 * is left stays in r->handback.  Returns 0 or the first error other than
 * -EINVAL.
 */
int subbuf_reader_handback(struct subbuf_reader *r,
			   int (*give)(void *ctx, uint64_t n), void *ctx);

/* The producer's newest sub-buffer in a mapped buffer. */
struct subbuf_newest {
	bool valid;
	bool waiting;		/* a header was being set up (or not believed) */
	uint64_t seq;
	uint64_t generation;
	uint32_t committed;
};
struct subbuf_newest subbuf_find_newest(const void *base,
					const struct subbuf_geometry *geom,
					unsigned int cpu);

/*
 * Are the records of a chunk (recs, at offset in sub-buffer seq of
 * generation) still what was read?  The seqlock's read side once more,
 * after the records were used (written from the mapping): false when the
 * producer has since rewritten the sub-buffer (overwrite mode, a reset).
 */
bool subbuf_still_there(const void *recs, uint32_t offset, uint64_t seq,
			uint64_t generation);

/* Bytes the producer committed that the reader has not read yet. */
uint64_t subbuf_reader_backlog(const struct subbuf_reader *r);

/* Fill c->mix and c->unknown from its records (what count_mix asks for). */
void subbuf_chunk_count_mix(struct subbuf_chunk *c);

#endif /* RELAYTOP_SUBBUF_H */

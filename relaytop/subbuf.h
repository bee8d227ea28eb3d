/* SPDX-License-Identifier: GPL-2.0 */
/*
 * subbuf.h - reading one CPU's sched_relay buffer in place (mmap).
 *
 * A struct subbuf_reader follows the producer through the sub-buffers of one
 * mapped CPU buffer, as relay's meta area after the buffer (struct
 * relay_buf_meta, <linux/relay.h>) places them: it parses headers and
 * records where they lie, reads a sub-buffer that is still being filled up
 * to its 'committed' mark, notices sub-buffers overwritten under it
 * (flight-recorder mode) and counts the events it lost that way, notices a
 * reset, and says up to which sub-buffer the kernel may have them back.  It
 * never copies records: it shows them to a sink, which copies what it
 * needs, and then tells the sink whether what it saw was intact.  See
 * subbuf.c for the rules.
 */
#ifndef RELAYTOP_SUBBUF_H
#define RELAYTOP_SUBBUF_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/relay.h>

#include "sched_relay.h"

#define SUBBUF_HDR_SIZE ((uint32_t)sizeof(struct sched_relay_header))
#define SUBBUF_REC_SIZE ((uint32_t)sizeof(struct sched_relay_record))

/* Geometry of one CPU buffer (the channel's subbuf_size and n_subbufs). */
struct subbuf_geometry {
	uint32_t subbuf_size;	/* bytes per sub-buffer, header included */
	uint32_t n_subbufs;	/* sub-buffers in a CPU buffer */
};

/* 0 when a reader can follow a buffer of this geometry, else -EINVAL. */
int subbuf_geometry_check(const struct subbuf_geometry *geom);
/* Records a full sub-buffer holds. */
uint32_t subbuf_capacity(const struct subbuf_geometry *geom);
/* Bytes of a whole CPU buffer's sub-buffers. */
uint64_t subbuf_buffer_size(const struct subbuf_geometry *geom);
/*
 * Where relay's meta area starts in a buffer file's mapping (the buffer's
 * bytes rounded up to a page), and the bytes of the buffer and its meta
 * area together: what a reader maps.
 */
uint64_t subbuf_meta_offset(const struct subbuf_geometry *geom,
			    unsigned long page_size);
uint64_t subbuf_map_size(const struct subbuf_geometry *geom,
			 unsigned long page_size);

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
	const struct sched_relay_header *hdr;	/* the header of sub-buffer
						 * seq, where recs are */
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
	const struct relay_buf_meta *meta;	/* relay's meta area after it */
	struct subbuf_geometry geom;
	unsigned int cpu;
	bool count_mix;		/* fill chunk.mix and .unknown (reads every
				 * record's type); off: they are 0 */

	bool synced;		/* next_seq is a real position */
	uint64_t next_seq;	/* sub-buffer being read (or waited for) */
	uint32_t offset;	/* next byte to read in it */
	bool in_subbuf;		/* its header was accepted (cur_gen valid) */
	uint64_t cur_gen;	/* generation of that header */
	uint64_t reset_at;	/* relay's reset_at when last looked at */
	uint64_t handed;	/* the kernel has the sub-buffers below it */
	bool skipped;		/* sub-buffers were passed over unread: the
				 * next record's number says how many events */

	/* Counts since the reader was set up (a reset does not clear). */
	uint64_t records;	/* records delivered intact */
	uint64_t lost;		/* events overwritten before they were read */
	uint64_t lost_subbufs;	/* sub-buffers skipped because overwritten */
	uint64_t torn;		/* chunks thrown away after a torn read */
	uint64_t restarts;	/* resets seen */
	uint64_t bad_commits;	/* 'committed' values out of range */
	uint64_t bad_headers;	/* finished sub-buffers without their header */
	uint64_t dropped;	/* producer drops, from the newest header read */
	uint64_t misplaced;	/* chunks whose records had others' numbers */
	uint64_t unaccounted;	/* events missing (or extra) not counted */

	/* identity: the next record's event number, and the counts of
	 * missing events when the last record was read */
	bool have_event;
	uint64_t next_event;
	uint64_t mark_dropped;
	uint64_t mark_lost;
};

/*
 * Set up a reader of the mapped buffer at base, with relay's meta area at
 * meta (not yet synced), counting the mix.
 */
void subbuf_reader_init(struct subbuf_reader *r, const void *base,
			const struct relay_buf_meta *meta,
			const struct subbuf_geometry *geom, unsigned int cpu);

/*
 * Find where to start: the first sub-buffer nobody consumed and that is
 * still in the buffer, after the last reset.  False when the meta area
 * does not describe a buffer of this geometry.
 */
bool subbuf_reader_sync(struct subbuf_reader *r);

enum {
	SUBBUF_PROGRESS = 1 << 0,	/* records read or sub-buffers passed */
	SUBBUF_MORE = 1 << 1,		/* stopped early: call again */
	SUBBUF_RESTARTED = 1 << 2,	/* the channel was reset */
	SUBBUF_LOST = 1 << 3,		/* records were overwritten unread */
	SUBBUF_UNSYNCED = 1 << 4,	/* the meta area is not this buffer's */
};

/*
 * Read everything the producer committed since the last call (at most one
 * lap of the buffer per call) and show it to sink.  Returns SUBBUF_* flags.
 */
unsigned int subbuf_reader_read(struct subbuf_reader *r,
				const struct subbuf_sink *sink);
/* The same, going through at most budget sub-buffers (a lap is
 * n_subbufs + 2): SUBBUF_MORE when it stopped there. */
unsigned int subbuf_reader_read_upto(struct subbuf_reader *r,
				     const struct subbuf_sink *sink,
				     uint32_t budget);

/*
 * Hand the finished sub-buffers back: give(ctx, until) tells the kernel
 * that the reader is done with every sub-buffer below number until (the
 * channel writes "until\n" to the buffer file) and returns 0 or -errno.
 * One call of give() at most.  -ESTALE means they were consumed already
 * (a reset, another reader): nothing to do.  Returns 0 or the error.
 */
int subbuf_reader_handback(struct subbuf_reader *r,
			   int (*give)(void *ctx, uint64_t until), void *ctx);

/*
 * Are the records of a chunk (of sub-buffer seq of generation, whose
 * header is hdr) still what was read?  The seqlock's read side once more,
 * after the records were used (written from the mapping): false when the
 * producer has since rewritten the sub-buffer (overwrite mode, a reset).
 */
bool subbuf_still_there(const struct sched_relay_header *hdr, uint64_t seq,
			uint64_t generation);

/* Bytes the producer committed that the reader has not read yet. */
uint64_t subbuf_reader_backlog(const struct subbuf_reader *r);

/* Fill c->mix and c->unknown from its records (what count_mix asks for). */
void subbuf_chunk_count_mix(struct subbuf_chunk *c);

#endif /* RELAYTOP_SUBBUF_H */

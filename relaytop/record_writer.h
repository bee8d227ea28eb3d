/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_writer.h - writing a recording (relaytop --record): blocks of
 * records as a source reads them, and the accounting of what is missing
 * before each (the producer's drops and relaytop's losses, cumulative per
 * CPU since the recording started, across resets and re-mappings), so
 * that every block says exactly how many events are missing before it.
 */
#ifndef RELAYTOP_RECORD_WRITER_H
#define RELAYTOP_RECORD_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record_format.h"
#include "subbuf.h"

struct record_meta {
	const char *channel;
	uint32_t nr_cpus;
	struct subbuf_geometry geom;
	uint32_t events;
	uint32_t flags;			/* RECORD_F_* */
	uint64_t generation;
	uint64_t ts;			/* a change: when; 0: now */
};

/*
 * A block in the buffer not written yet (zero-copy mode): its header at
 * off in buf; a DATA block's payload is in the mapping (payload), to be
 * written from there and checked afterwards (seq, generation).
 */
struct recorder_block {
	size_t off;
	const void *payload;	/* NULL: in buf after the header */
	uint32_t size;
	const struct sched_relay_header *hdr;	/* DATA: its sub-buffer's
						 * header */
	uint64_t seq;
	uint64_t generation;
	uint64_t file_off;	/* where commit wrote the header */
};

/* What the recorder knows of one CPU (also the closing summary). */
struct recorder_cpu {
	bool tracked;
	uint64_t records;	/* records written */
	uint64_t blocks;
	/* producer drops: earlier epochs + (raw_last - raw_base) */
	uint64_t dropped_prev;
	uint64_t raw_base;
	uint64_t raw_last;
	uint64_t raw_stats;	/* the stats file's count, for the end */
	/* relaytop's losses: earlier readers + (lost_last - lost_base) */
	uint64_t lost_prev;
	uint64_t lost_base;
	uint64_t lost_last;
	bool drops_from_stats;
};

struct recorder {
	int fd;
	char *path;
	unsigned char *buf;	/* blocks not written yet */
	size_t len;
	size_t cap;
	size_t stage_pos;	/* where the staged block starts */
	bool staged;
	unsigned int staged_cpu;
	uint64_t blocks;
	uint64_t records;
	uint64_t file_bytes;	/* written to the file so far */
	unsigned int ncpus;	/* size of cpu[] */
	struct recorder_cpu *cpu;
	int error;		/* first write error, -errno */
	bool finished;
	/* zero-copy mode: DATA payloads written straight from the mapping
	 * by recorder_commit() (one writev), which the source calls before
	 * it hands the sub-buffers back */
	bool zero_copy;
	struct recorder_block *batch;
	unsigned int nbatch, batch_cap;
	bool batch_written;	/* the batch is in the file, being checked */
	uint64_t skipped;	/* records read but not written intact */
	uint64_t writevs;	/* writev() calls made */
	/* a stop signal gives the writes grace_ns more (see
	 * recorder_grace()); stop_by: until when, once one came */
	uint64_t grace_ns;
	uint64_t stop_by;
	bool regular;		/* the file is a regular file */
	bool cut_short;		/* error: nothing more taken by stop_by */
	char error_text[160];
};

/* Create path and write the file header; NULL with errno set on error. */
struct recorder *recorder_create(const char *path, const struct record_meta *meta);

/*
 * A write of the recording may wait for its reader (a pipe, a FIFO) as
 * long as it takes, but a stop signal (SIGINT, SIGTERM, SIGHUP; loop.h)
 * cuts the wait short, and from then on the writes wait grace_ns at most
 * (relaytop: its refresh interval): what the reader has not taken by
 * then is not written, and the recording fails with cut_short set (the
 * file then ends where the reader stopped taking it: readable up to its
 * last whole block).  0: no wait at all after a stop.
 */
void recorder_grace(struct recorder *rec, uint64_t grace_ns);
/* What went wrong (rec->error), in words. */
const char *recorder_strerror(struct recorder *rec);

/*
 * A reader for cpu was set up (at the start, after a remap): its current
 * lost and producer-dropped counts are where this CPU's counting starts.
 * first: the recording's first reader of this CPU; drops counted in the
 * header it starts from happened before the recording.  Otherwise a new
 * sequence began and all its drops count.
 */
void recorder_track_cpu(struct recorder *rec, unsigned int cpu,
			uint64_t reader_lost, uint64_t raw_dropped, bool first);

/* The subbuf_sink side: copy a chunk as a DATA block, keep or drop it. */
void recorder_stage(struct recorder *rec, const struct subbuf_chunk *chunk);
void recorder_settle(struct recorder *rec, bool intact);

/* The CPU's sequence restarted (generation): a RESTART block. */
void recorder_restart(struct recorder *rec, unsigned int cpu,
		      uint64_t generation, uint64_t reader_lost);
/* The reader of cpu lost events with no record after them (yet). */
void recorder_note_lost(struct recorder *rec, unsigned int cpu,
			uint64_t reader_lost);
/*
 * The producer's own count of drops since the reset (its stats file), read
 * after the last records were, in the sequence the reader is in: used for
 * the count at the end of that sequence (a restart) or of the recording
 * when it is larger than the newest header's (drops after the last
 * sub-buffer started).
 */
void recorder_note_dropped(struct recorder *rec, unsigned int cpu,
			   uint64_t raw_dropped);
/* The channel went away (cpu, or RECORD_NO_CPU: every tracked CPU): a
 * GONE block for each. */
void recorder_gone(struct recorder *rec, unsigned int cpu);
/* The configuration changed: a CONFIG block. */
void recorder_config(struct recorder *rec, const struct record_meta *meta);

/* Cumulative counts of a CPU as the file states them. */
uint64_t recorder_dropped(const struct recorder *rec, unsigned int cpu);
uint64_t recorder_lost(const struct recorder *rec, unsigned int cpu);

/*
 * Write DATA payloads from where the source shows them (the mapping)
 * instead of copying them: the records must stay in place until
 * recorder_commit() returns.  Only for a file or /dev/null (a block found
 * overwritten after its write is then marked SKIPPED in place); returns
 * whether it is on.
 */
bool recorder_zero_copy(struct recorder *rec, bool on);
/*
 * Write out every block since the last commit (zero-copy mode: one
 * writev, the payloads from the mapping), then check each DATA block's
 * sub-buffer is still the one read: a block overwritten while it was
 * written becomes SKIPPED, its records counted lost.  Runs where a
 * SIGBUS is caught (it reads the mapping).  0 or the first error.
 */
int recorder_commit(struct recorder *rec);
/* Write out what is buffered: 0 or the first error (-errno). */
int recorder_flush(struct recorder *rec);
/* CPU_END blocks, END block, flush, fdatasync() (a regular file, and its
 * directory's entry), close: 0 or the first error. */
int recorder_finish(struct recorder *rec);
void recorder_free(struct recorder *rec);

#endif /* RELAYTOP_RECORD_WRITER_H */

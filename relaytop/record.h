/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - the recording file (relaytop --record) and reading it back.
 *
 * The format is documented in docs/record-format.md; the structures below
 * are its exact on-disk layout.  In short: a 128-byte file header, then
 * blocks, each a 64-byte block header and a payload.  Per CPU, DATA blocks
 * hold records exactly as the producer wrote them and carry the counts of
 * events missing before their first record (dropped by the producer, lost
 * by relaytop); no record is missing inside a block.  RESTART, GONE and
 * CPU_END blocks say where a CPU's stream was cut and how it ended; END
 * closes the file.  Every header and block carries a CRC-32.
 *
 * Format 2 holds version 2 records (event numbers, tgids, waking); a
 * format 1 file holds version 1 records, which the reader hands out as
 * version 2 ones (no event numbers, tgids -1), so its users see one
 * layout.
 */
#ifndef RELAYTOP_RECORD_H
#define RELAYTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched_relay.h"
#include "subbuf.h"

#define RECORD_MAGIC		"RELAYTOP"	/* 8 bytes, no NUL */
#define RECORD_VERSION		2	/* 1: version 1 records (still read) */
#define RECORD_BYTE_ORDER	0x01020304u
#define RECORD_BLOCK_MAGIC	0x4b425452u	/* "RTBK" little-endian */
#define RECORD_NO_CPU		0xffffu		/* a block about all CPUs */
#define RECORD_MAX_PAYLOAD	(64u << 20)	/* larger is corrupt */
#define RECORD_MAX_CPUS		8192u	/* CONFIG_NR_CPUS at most: more is corrupt */

/* file header flags, and record_config.flags */
#define RECORD_F_OVERWRITE	(1u << 0)	/* flight-recorder mode */
#define RECORD_F_ENABLED	(1u << 1)	/* the producer was enabled */

struct record_file_header {		/* 128 bytes at offset 0 */
	char magic[8];			/* RECORD_MAGIC */
	uint32_t version;		/* RECORD_VERSION */
	uint32_t header_size;		/* 128: the first block starts here */
	uint32_t byte_order;		/* RECORD_BYTE_ORDER as written */
	uint16_t record_size;		/* sizeof(struct sched_relay_record) */
	uint16_t record_version;	/* SCHED_RELAY_VERSION of the records */
	uint32_t nr_cpus;		/* CPU buffers when recording started */
	uint32_t subbuf_size;		/* channel geometry at the start */
	uint32_t n_subbufs;
	uint32_t events;		/* enabled event mask at the start */
	uint32_t flags;			/* RECORD_F_* at the start */
	uint32_t reserved0;		/* 0 */
	uint64_t generation;		/* channel generation at the start */
	uint64_t start_mono_ns;		/* CLOCK_MONOTONIC at the start */
	uint64_t start_real_ns;		/* CLOCK_REALTIME at the same moment */
	char channel[48];		/* channel directory, NUL padded */
	uint32_t reserved1;		/* 0 */
	uint32_t crc;			/* CRC-32 of bytes 0..123 */
};

enum record_block_type {
	RECORD_DATA = 1,	/* records of one CPU, none missing inside */
	RECORD_CONFIG = 2,	/* the channel's configuration changed */
	RECORD_RESTART = 3,	/* a CPU's sequence restarted (reset) */
	RECORD_GONE = 4,	/* the channel went away (files removed) */
	RECORD_CPU_END = 5,	/* a CPU's final counts */
	RECORD_END = 6,		/* the recording was closed cleanly */
};

struct record_block {			/* 64 bytes before each payload */
	uint32_t magic;			/* RECORD_BLOCK_MAGIC */
	uint16_t type;			/* enum record_block_type */
	uint16_t cpu;			/* CPU, or RECORD_NO_CPU */
	uint32_t size;			/* payload bytes after this header */
	uint32_t crc;			/* CRC-32 of header (crc 0) + payload */
	uint64_t seq;			/* DATA: sub-buffer sequence number */
	uint64_t generation;		/* DATA, RESTART, CONFIG: generation */
	uint64_t dropped;		/* events the producer dropped on this
					 * CPU since the recording started,
					 * before this block (CPU_END: all) */
	uint64_t lost;			/* events relaytop lost (overwritten
					 * before read), counted the same way */
	uint32_t offset;		/* DATA: byte offset of the first
					 * record in its sub-buffer */
	uint32_t nrec;			/* DATA: records in the payload */
	uint64_t ts;			/* DATA: first record's ts; others:
					 * CLOCK_MONOTONIC when written */
};

struct record_config {			/* payload of CONFIG */
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	uint32_t events;
	uint32_t flags;			/* RECORD_F_* */
	uint32_t nr_cpus;
	uint32_t reserved;		/* 0 */
	uint64_t generation;
};

#define RECORD_END_DROPS_FROM_STATS (1u << 0)	/* final drops: stats file */

struct record_cpu_end {			/* payload of CPU_END */
	uint64_t records;		/* DATA records of this CPU in the file */
	uint32_t flags;			/* RECORD_END_* */
	uint32_t reserved;		/* 0 */
};

struct record_end {			/* payload of END */
	uint64_t blocks;		/* blocks before this one */
	uint64_t records;		/* DATA records in the file */
};

/* ---- writing -------------------------------------------------------- */

struct record_meta {
	const char *channel;
	uint32_t nr_cpus;
	struct subbuf_geometry geom;
	uint32_t events;
	uint32_t flags;			/* RECORD_F_* */
	uint64_t generation;
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
};

/* Create path and write the file header; NULL with errno set on error. */
struct recorder *recorder_create(const char *path, const struct record_meta *meta);

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

/* Write out what is buffered: 0 or the first error (-errno). */
int recorder_flush(struct recorder *rec);
/* CPU_END blocks, END block, flush, close: 0 or the first error. */
int recorder_finish(struct recorder *rec);
void recorder_free(struct recorder *rec);

/* ---- reading -------------------------------------------------------- */

/* One item of a recording, CPUs merged in timestamp order. */
enum record_item_kind {
	ITEM_RECORD,	/* rec */
	ITEM_DROPPED,	/* count events the producer dropped here */
	ITEM_LOST,	/* count events relaytop lost here */
	ITEM_RESTART,	/* the CPU's sequence restarted (generation) */
	ITEM_GONE,	/* the channel went away */
	ITEM_CONFIG,	/* config */
};

struct record_item {
	enum record_item_kind kind;
	unsigned int cpu;		/* RECORD_NO_CPU for global items */
	uint64_t ts;
	const struct sched_relay_record *rec;
	uint64_t count;
	uint64_t generation;
	struct record_config config;
};

struct record_cpu_summary {
	bool present;
	uint64_t records;
	uint64_t dropped;	/* final, from CPU_END (or the last block) */
	uint64_t lost;
	bool ended;		/* had a CPU_END block */
	bool drops_from_stats;
	uint64_t end_ts;	/* CLOCK_MONOTONIC when the CPU_END block
				 * was written (the recording's end), or 0 */
};

struct stream_cpu;

struct record_stream {
	int fd;
	char *path;
	struct record_file_header hdr;
	uint64_t file_size;
	char error[256];	/* why the file is bad (empty: it is not) */
	bool identity;		/* records carry event_seq (format 2) */
	bool ended;		/* the END block was found */
	uint64_t blocks;	/* valid blocks */
	uint64_t records;	/* valid DATA records */
	unsigned int ncpus;	/* size of cpu[] / summary[] */
	struct stream_cpu *cpu;
	struct record_cpu_summary *summary;
	/* global blocks (CONFIG, GONE for all), in file order */
	uint64_t *global;
	size_t nglobal;
	size_t next_global;
	struct record_item pending_global;
	bool have_pending_global;
	unsigned char *scratch;
	size_t scratch_cap;
};

/*
 * Open a recording and check all of it (headers, sizes, CRCs).  Returns 0
 * when the file header is usable; then the stream gives every item of the
 * valid blocks, and s->error says what was wrong after them (truncated,
 * corrupt) or is empty.  Returns -1 with s->error set when nothing can be
 * read (not a recording, a newer version, another byte order).
 */
int record_stream_open(struct record_stream *s, const char *path);
/* The next item: 1, or 0 at the end, or -1 on a read error (s->error). */
int record_stream_next(struct record_stream *s, struct record_item *item);
void record_stream_close(struct record_stream *s);
/* CPUs the recording has: those of its header and any that had blocks
 * (known once it is open: the open checks the whole file). */
unsigned int record_stream_nr_cpus(const struct record_stream *s);
/* Whether cpu is one of them: in the header's count, or with blocks. */
bool record_stream_has_cpu(const struct record_stream *s, unsigned int cpu);

#endif /* RELAYTOP_RECORD_H */

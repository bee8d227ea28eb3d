/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_format.h - the recording file's layout (relaytop --record): the
 * on-disk structures, their limits and their CRCs.  Nothing here reads or
 * writes a file: record_writer.c writes, record_reader.c checks and reads.
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
 * layout.  Format 3 has format 2's records; a DATA block's CRC covers its
 * header only (the records are written straight from the mapping, never
 * read by relaytop on the way: their numbers and first timestamp check
 * them instead), and a SKIPPED block stands for records read but not
 * written intact.
 */
#ifndef RELAYTOP_RECORD_FORMAT_H
#define RELAYTOP_RECORD_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "sched_relay.h"

#define RECORD_MAGIC		"RELAYTOP"	/* 8 bytes, no NUL */
#define RECORD_VERSION		3	/* 2, 1 (version 1 records): still read */
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
	RECORD_SKIPPED = 7,	/* format 3: nrec records of a CPU read but not
				 * written intact (overwritten while written,
				 * or the buffers went away first): counted in
				 * this block's lost; size bytes to skip */
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


#define RECORD_FILE_HDR_SIZE ((uint32_t)sizeof(struct record_file_header))
#define RECORD_BLOCK_SIZE ((uint32_t)sizeof(struct record_block))

/* The file header's CRC: of every byte before its crc field. */
uint32_t record_header_crc(const struct record_file_header *h);

/* A block's CRC: of its header with crc taken as 0, then its payload. */
uint32_t record_block_crc(const struct record_block *b, const void *payload,
			  size_t size);
/* The CRC a block carries in a file of format version: from format 3 on,
 * a DATA or SKIPPED block's covers its header only; all others, the
 * payload too. */
uint32_t record_block_crc_v(uint32_t version, const struct record_block *b,
			    const void *payload, size_t size);

/*
 * Is this block header consistent with its type and the file's records?
 * NULL when it is, else what is wrong.  A block of a newer type than this
 * relaytop knows is consistent (readers skip it).
 */
const char *record_block_problem(const struct record_file_header *fh,
				 const struct record_block *b);

#endif /* RELAYTOP_RECORD_FORMAT_H */

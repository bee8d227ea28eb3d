/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_reader.h - checking a recording and reading it back: the whole
 * file is checked and indexed when it is opened, then each CPU's items
 * (records, the gaps before them, resets, the channel going away) and the
 * global ones are read in file order.  record_merge.h puts them in time
 * order.
 */
#ifndef RELAYTOP_RECORD_READER_H
#define RELAYTOP_RECORD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record_format.h"

/* One item of a recording: a record, a gap or a mark of the channel. */
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

struct reader_cpu;

/* Where a block is, and what the scan found in its header: a block read
 * again must still be that one (see record_reader_open()). */
struct reader_block {
	uint64_t off;
	uint32_t size;
	uint32_t crc;
};

struct record_reader {
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
	struct reader_cpu *cpu;
	struct record_cpu_summary *summary;
	/* global blocks (CONFIG, GONE for all), in file order */
	struct reader_block *global;
	size_t nglobal;
	size_t next_global;
	struct record_item pending_global;
	bool have_pending_global;
	unsigned char *scratch;
	size_t scratch_cap;
};

/*
 * Open a recording and check all of it (headers, sizes, CRCs), indexing
 * every CPU's blocks.  Returns 0 when the file header is usable; then the
 * valid blocks can be read, and r->error says what was wrong after them
 * (truncated, corrupt) or is empty.  Returns -1 with r->error set when
 * nothing can be read (not a recording, a newer version, another byte
 * order).  Blocks are read again as they are taken: one that is not what
 * the open checked (the file changed since) ends its CPU's items there,
 * and r->error says the file changed.
 */
int record_reader_open(struct record_reader *r, const char *path);
void record_reader_close(struct record_reader *r);

/*
 * One CPU's items in file order: the next without taking it (false when
 * the CPU has none left), then take it.  An item's rec stays valid until
 * that CPU is peeked again after the take.
 */
bool record_reader_peek(struct record_reader *r, unsigned int cpu,
			struct record_item *it);
void record_reader_take(struct record_reader *r, const struct record_item *it);
/* The same for the global items (CONFIG, a GONE of all CPUs). */
bool record_reader_peek_global(struct record_reader *r, struct record_item *it);
void record_reader_take_global(struct record_reader *r);

/* CPUs the recording has: those of its header and any that had blocks
 * (known once it is open: the open checks the whole file). */
unsigned int record_reader_nr_cpus(const struct record_reader *r);
/* Whether cpu is one of them: in the header's count, or with blocks. */
bool record_reader_has_cpu(const struct record_reader *r, unsigned int cpu);

#endif /* RELAYTOP_RECORD_READER_H */

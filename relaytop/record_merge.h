/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_merge.h - a recording as one stream of items in time order: each
 * CPU's items (record_reader.h) merged by timestamp, ties in CPU order,
 * a global item (CONFIG, a GONE of all CPUs) before the CPUs' items of the
 * same time.  A heap keeps each CPU's next item, so an item costs
 * O(log CPUs), not a look at every CPU.
 */
#ifndef RELAYTOP_RECORD_MERGE_H
#define RELAYTOP_RECORD_MERGE_H

#include "record_reader.h"

struct merge_entry;

struct record_stream {
	struct record_reader rd;	/* the file: header, summary, error */
	struct merge_entry *heap;	/* CPUs with an item, earliest first */
	unsigned int nheap;
	bool refill;			/* refill_cpu's item was taken */
	unsigned int refill_cpu;
	bool started;
};

/*
 * Open and check a recording (record_reader_open()): 0, or -1 with
 * s->rd.error saying why nothing can be read.  Close it either way.
 */
int record_stream_open(struct record_stream *s, const char *path);
/* The next item: 1, or 0 at the end (s->rd.error says whether the file
 * ended early).  item->rec stays valid until the next call. */
int record_stream_next(struct record_stream *s, struct record_item *item);
void record_stream_close(struct record_stream *s);

#endif /* RELAYTOP_RECORD_MERGE_H */

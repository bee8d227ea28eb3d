// SPDX-License-Identifier: GPL-2.0
/*
 * record_merge.c - a recording's CPUs merged in time order (see
 * record_merge.h): a binary min-heap of (timestamp, CPU), one entry per
 * CPU that has an item left.
 */
#include "record_merge.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct merge_entry {
	struct record_item it;		/* the CPU's next item, peeked */
};

static bool earlier(const struct merge_entry *a, const struct merge_entry *b)
{
	return a->it.ts < b->it.ts ||
	       (a->it.ts == b->it.ts && a->it.cpu < b->it.cpu);
}

static void swap(struct merge_entry *a, struct merge_entry *b)
{
	struct merge_entry t = *a;

	*a = *b;
	*b = t;
}

static void push(struct record_stream *s, const struct record_item *it)
{
	unsigned int i = s->nheap++;

	s->heap[i].it = *it;
	while (i && earlier(&s->heap[i], &s->heap[(i - 1) / 2])) {
		swap(&s->heap[i], &s->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void pop(struct record_stream *s)
{
	unsigned int i = 0;

	s->heap[0] = s->heap[--s->nheap];
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->nheap && earlier(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->nheap && earlier(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		swap(&s->heap[i], &s->heap[m]);
		i = m;
	}
}

/* Put cpu's next item (if any) into the heap. */
static void refill(struct record_stream *s, unsigned int cpu)
{
	struct record_item it;

	if (record_reader_peek(&s->rd, cpu, &it))
		push(s, &it);
}

int record_stream_open(struct record_stream *s, const char *path)
{
	int ret;

	memset(s, 0, sizeof(*s));
	ret = record_reader_open(&s->rd, path);
	s->heap = xcalloc(s->rd.ncpus ? s->rd.ncpus : 1, sizeof(*s->heap));
	return ret;
}

int record_stream_next(struct record_stream *s, struct record_item *item)
{
	struct record_item g;

	/* A CPU is peeked again only now: its item handed out last time
	 * points into its block, which the peek may replace. */
	if (!s->started) {
		s->started = true;
		for (unsigned int cpu = 0; cpu < s->rd.ncpus; cpu++)
			refill(s, cpu);
	} else if (s->refill) {
		refill(s, s->refill_cpu);
	}
	s->refill = false;
	if (record_reader_peek_global(&s->rd, &g) &&
	    (!s->nheap || g.ts <= s->heap[0].it.ts)) {
		*item = g;
		record_reader_take_global(&s->rd);
		return 1;
	}
	if (!s->nheap)
		return 0;
	*item = s->heap[0].it;
	pop(s);
	record_reader_take(&s->rd, item);
	s->refill = true;
	s->refill_cpu = item->cpu;
	return 1;
}

void record_stream_close(struct record_stream *s)
{
	record_reader_close(&s->rd);
	free(s->heap);
	memset(s, 0, sizeof(*s));
	s->rd.fd = -1;
}

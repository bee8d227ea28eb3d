/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feed.h - what a source (the live channel, a recording) yields and its
 * sinks (the views' tally, the recorder, the status line) consume: the
 * records, read a chunk at a time (staged, then settled intact or torn,
 * as subbuf.h shows them), and the counter changes around them.  A source
 * writes to one struct feed, which hands everything to each of its sinks
 * in the order they were added.
 */
#ifndef RELAYTOP_FEED_H
#define RELAYTOP_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "subbuf.h"

#define FEED_ALL_CPUS	0xffffffffu	/* cpu of an event about every CPU */

/* The channel's configuration, as the recording needs it. */
struct feed_config {
	const char *channel;
	unsigned int nr_cpus;
	struct subbuf_geometry geom;
	uint32_t events;	/* SCHED_RELAY_* bits */
	bool overwrite;
	bool enabled;
	uint64_t generation;
	uint64_t ts;		/* when it was noticed (CLOCK_MONOTONIC ns,
				 * the records' clock): its place among them */
};

enum feed_kind {
	FEED_CPU_ON,	/* cpu has a reader (again): lost and dropped are
			 * its counts; first: the first reader of cpu */
	FEED_CPU_OFF,	/* cpu's buffer is no longer read */
	FEED_FILL,	/* cpu's backlog now: fill (0..1 of the buffer) */
	FEED_GAP,	/* events went missing on cpu right before its next
			 * records (counted by FEED_LOST or FEED_DROPPED) */
	FEED_RESTART,	/* cpu's sequence restarted (a reset): generation;
			 * lost: the reader's count */
	FEED_LOST,	/* relaytop lost count more events of cpu; lost: the
			 * reader's total */
	FEED_DROPPED,	/* the producer dropped count events of cpu since
			 * its last reset, as far as known */
	FEED_SEQ_DROPPED, /* the producer's own count of that (its stats
			 * file), in the sequence the reader is in: count */
	FEED_GONE,	/* the channel went away (cpu, or FEED_ALL_CPUS) */
	FEED_CONFIG,	/* the configuration is now config */
	FEED_STATUS,	/* what just happened, for the status line: text,
			 * error; quiet: only if no error is shown */
};

struct feed_event {
	enum feed_kind kind;
	unsigned int cpu;
	uint64_t count;
	uint64_t lost;
	uint64_t dropped;
	uint64_t generation;
	double fill;
	bool first;
	bool error;
	bool quiet;
	const struct feed_config *config;
	const char *text;
};

/* A consumer; a NULL callback is not called. */
struct feed_sink {
	void (*stage)(void *ctx, const struct subbuf_chunk *chunk);
	void (*settle)(void *ctx, const struct subbuf_chunk *chunk,
		       bool intact);
	void (*event)(void *ctx, const struct feed_event *e);
	/* the source read what it will read for now, and will hand the
	 * sub-buffers back when this returns: write what points into them */
	void (*commit)(void *ctx);
	void *ctx;
};

#define FEED_MAX_SINKS 4

struct feed {
	struct feed_sink sink[FEED_MAX_SINKS];
	unsigned int n;
};

void feed_add(struct feed *f, const struct feed_sink *s);
void feed_stage(const struct feed *f, const struct subbuf_chunk *chunk);
void feed_settle(const struct feed *f, const struct subbuf_chunk *chunk,
		 bool intact);
void feed_event(const struct feed *f, const struct feed_event *e);
void feed_commit(const struct feed *f);
/* A FEED_STATUS event. */
__attribute__((format(printf, 4, 5)))
void feed_status(const struct feed *f, bool error, bool quiet,
		 const char *fmt, ...);

#endif /* RELAYTOP_FEED_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - where the records come from, behind one interface: the live
 * channel (live_source.h) or a recording (replay_source.h).  A source
 * writes what it reads to its feed (feed.h); the loop asks it for file
 * descriptors to wait on and tells it what they said; each refresh
 * interval ends with a tick; the controller asks it for changes to the
 * channel.
 */
#ifndef RELAYTOP_SOURCE_H
#define RELAYTOP_SOURCE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"

/* What the views show of a source. */
struct source_state {
	const char *name;	/* the channel directory or the recording */
	bool recorded;		/* a recording, not the live channel */
	bool have_cfg;
	struct control_state cfg;
	bool channel_ok;	/* live: the buffers are mapped */
	bool read_only;		/* live: sub-buffers cannot be handed back */
	bool ended;		/* recorded: nothing more to show */
	const char *error;	/* recorded: why reading it failed, or NULL */
};

/* What a source's reader of one CPU's buffer has counted (since it was set
 * up: a reset does not clear these). */
struct source_cpu {
	unsigned int cpu;
	uint64_t generation;	/* the generation its reader follows */
	uint64_t dropped;	/* the producer's drops, as the buffer says */
	uint64_t lost;		/* events overwritten before they were read */
	uint64_t misplaced;	/* chunks not where their event numbers say */
	uint64_t unaccounted;	/* events missing (or extra) no count says */
};

/* A change of the channel that the keys ask for. */
enum source_request {
	REQ_RESET,		/* empty the buffers, zero the counters */
	REQ_EVENTS,		/* the event mask: value */
	REQ_OVERWRITE,		/* overwrite mode: value 0 or 1 */
};

struct source_ops {
	unsigned int (*pollfds)(void *self, struct pollfd *pfd,
				unsigned int max);
	void (*ready)(void *self, const struct pollfd *pfd, unsigned int n);
	/* read everything there is now */
	void (*drain)(void *self);
	/* the end of an interval of the given length: read, and return
	 * when (CLOCK_MONOTONIC ns, or the recording's clock) it ended */
	uint64_t (*tick)(void *self, double interval);
	void (*state)(const void *self, struct source_state *st);
	/* Can the channel be changed now?  0, or -1 with msg saying why
	 * not ("what: not while ..."). */
	int (*can_change)(const void *self, const char *what, char *msg,
			  size_t len);
	/* Change it: 0, or -errno (the kernel's answer). */
	int (*change)(void *self, enum source_request req, uint32_t value);
	/* read the last of it before the end */
	void (*finish)(void *self);
	/* Read everything there is now and the producer's own counts (for
	 * a status report); NULL when there is nothing to bring up to date. */
	void (*sync)(void *self);
	/* The i-th buffer the source reads (from 0): false past the last;
	 * NULL for a source without buffers of its own. */
	bool (*cpu)(const void *self, unsigned int i, struct source_cpu *c);
	/* A recording is being made of it: also yield the producer's drops
	 * by event number (FEED_SEQ_DROPPED); NULL if it has none. */
	void (*recording)(void *self);
	/* when ready() wants to be called even if no fd is ready (a drain
	 * timer; CLOCK_MONOTONIC ns), or 0 */
	uint64_t (*deadline)(const void *self);
	/* a time (CLOCK_MONOTONIC ns) before which every CPU's records have
	 * been read, for merging them in time; 0: none yet.  NULL: what is
	 * read is in time order up to the tick's time (a recording). */
	uint64_t (*complete)(const void *self);
};

struct source {
	const struct source_ops *ops;
	void *self;
};

#endif /* RELAYTOP_SOURCE_H */

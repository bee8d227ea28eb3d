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
	bool ended;		/* recorded: nothing more to show */
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
	/* when ready() wants to be called even if no fd is ready (a drain
	 * timer; CLOCK_MONOTONIC ns), or 0 */
	uint64_t (*deadline)(const void *self);
};

struct source {
	const struct source_ops *ops;
	void *self;
};

#endif /* RELAYTOP_SOURCE_H */

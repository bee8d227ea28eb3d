/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay_source.h - a recording as a source (source.h), for relaytop
 * --replay: its items, merged in time order, are fed interval by
 * interval of the recording's own clock, so the rates are the ones that
 * were.  Nothing of the channel can be changed through it.
 */
#ifndef RELAYTOP_REPLAY_SOURCE_H
#define RELAYTOP_REPLAY_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "control.h"
#include "feed.h"
#include "record_merge.h"
#include "source.h"

/* Intervals with nothing in them shown one by one, at most; a longer
 * quiet stretch is shown as one (see replay_source.c). */
#define REPLAY_MAX_IDLE	10

struct replay_source {
	const struct feed *feed;
	struct record_stream rs;
	struct record_item item;	/* read but not yet fed */
	bool have_item;
	bool done;			/* no more items */
	bool ended;			/* the end was announced */
	uint64_t now;			/* the recording's clock: last tick */
	uint64_t *dropped;		/* per CPU, since the last reset */
	uint64_t restart_gen;		/* last reset announced */
	struct control_state cfg;	/* as the recording says */
};

extern const struct source_ops replay_source_ops;

/*
 * Open and check the recording at path: 0, or -1 with rp->rs.rd.error
 * saying why nothing can be shown (close it either way).  Nothing is fed
 * yet: replay_source_start() does, once the sinks are there.
 */
int replay_source_open(struct replay_source *rp, const char *path,
		       const struct feed *feed);
/* CPUs the recording has, and when its clock starts (its first item). */
unsigned int replay_source_ncpus(const struct replay_source *rp);
uint64_t replay_source_start_ns(struct replay_source *rp);
/* Announce the recording's CPUs to the feed. */
void replay_source_start(struct replay_source *rp);
void replay_source_close(struct replay_source *rp);
struct source replay_source(struct replay_source *rp);

#endif /* RELAYTOP_REPLAY_SOURCE_H */

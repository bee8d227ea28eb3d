/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_sink.h - the recording as a sink of a live source (feed.h): the
 * chunks become DATA blocks, and each counter change becomes what the
 * writer's drop accounting needs (record_writer.h): a new reader's counts,
 * relaytop's losses, the producer's own drop count of the sequence the
 * reader is in, resets, the channel going away, configurations.  The
 * first write error stops the recording; the sink says so.
 */
#ifndef RELAYTOP_RECORD_SINK_H
#define RELAYTOP_RECORD_SINK_H

#include <stdbool.h>

#include "feed.h"
#include "record_writer.h"

struct record_sink {
	struct recorder *rec;
	bool failed;		/* a write failed: nothing more is written */
};

void record_sink_init(struct record_sink *s, struct recorder *rec);
struct feed_sink record_sink(struct record_sink *s);
/* The recording's meta data of a configuration. */
struct record_meta record_sink_meta(const struct feed_config *c);
/* True (once) when a write failed since the last call. */
bool record_sink_newly_failed(struct record_sink *s);

#endif /* RELAYTOP_RECORD_SINK_H */

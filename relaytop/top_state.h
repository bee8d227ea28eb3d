/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_state.h - the parts of a running live or replay mode: the
 * application's state, the tally behind the views, the feed, the source
 * (the channel or a recording), the recorder, the loop and the copy a
 * paused screen shows.  top.c puts them together; top_show.c,
 * top_step.c and top_serve.c work on them.
 */
#ifndef RELAYTOP_TOP_STATE_H
#define RELAYTOP_TOP_STATE_H

#include <stdbool.h>

#include "app.h"
#include "feed.h"
#include "live_source.h"
#include "loop.h"
#include "record_sink.h"
#include "record_writer.h"
#include "replay_source.h"
#include "source.h"
#include "tally.h"
#include "view.h"
#include "workload.h"

struct top {
	struct app app;
	struct tally tally;
	struct feed feed;
	bool recorded;			/* replaying a recording */
	struct live_source live;	/* !recorded */
	struct replay_source rp;	/* recorded */
	struct source src;		/* one of them */
	struct recorder *rec;		/* --record, or NULL */
	struct record_sink rsink;
	bool rec_failed;		/* a write of it failed: stopped */
	struct workload *work;		/* -- CMD, or NULL */
	struct loop loop;
	struct view frozen;		/* live and paused: what is shown */
	struct stats frozen_st;		/* the statistics frozen.st shows */
	struct sched_model frozen_now;	/* who ran, as frozen.model shows */
	struct sched_model frozen_fig;	/* the figures frozen.figures shows */
	bool output_failed;		/* writing the batch output failed */
	unsigned long status_printed;	/* app.status_seq the batch printed */
	unsigned long blocks_printed;	/* batch blocks printed */
	char filter_text[256];		/* the filter as the command line */
};

#endif /* RELAYTOP_TOP_STATE_H */

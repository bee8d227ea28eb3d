/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - relaytop's live mode and its replay (the default, -b, --record,
 * --replay), put together: a source (the channel or a recording) feeding
 * the tally behind the views and, when recording, the recorder; the loop
 * served by top_serve.c; and the end: the recording finished, its summary
 * printed.  What is shown is top_show.h's, the steps top_step.h's.
 */
#ifndef RELAYTOP_TOP_H
#define RELAYTOP_TOP_H

#include "app.h"
#include "options.h"
#include "top_show.h"
#include "top_state.h"
#include "top_step.h"

/* Set up the live mode: open (fatal if it cannot) the channel, create the
 * recording.  Nothing is drawn yet.  Returns 0, or -1 after saying that
 * -C names a CPU the channel has no buffer of (then nothing is recorded:
 * top_free() it). */
int top_start(struct top *t, const struct options *opt,
	      enum output_mode out);
/* Set up a replay of opt->replay: 0, -1 after saying why the file cannot
 * be shown, or -2 after saying that -C names a CPU it has none of. */
int top_start_replay(struct top *t, const struct options *opt,
		     enum output_mode out);
/* Final read, close the recording: the exit status. */
int top_finish(struct top *t);
void top_free(struct top *t);

/* The whole program in these modes: start, loop until the end, finish. */
int top_run(const struct options *opt);

#endif /* RELAYTOP_TOP_H */

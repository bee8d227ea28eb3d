/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_show.h - what a running live or replay mode shows (the view, from
 * the application's state, the source's state and the tally; a paused
 * live screen's frozen copy) and drawing it: the curses screen or a batch
 * block.
 */
#ifndef RELAYTOP_TOP_SHOW_H
#define RELAYTOP_TOP_SHOW_H

#include <stdbool.h>

#include "top_state.h"
#include "view.h"

/* Pause or resume the screen; a paused live screen stands still (the
 * statistics it shows are a copy) while reading goes on. */
void top_set_paused(struct top *t, bool paused);
/* Gather what to show. */
void top_view(const struct top *t, struct view *v);
/* Draw the screen or print the batch block. */
void top_render(struct top *t);
/* Batch with --tasks or --latency: everything read goes to the figures,
 * and a last block gives them since the start (what --report says of
 * the recording of the same run). */
void top_render_final(struct top *t);

#endif /* RELAYTOP_TOP_SHOW_H */

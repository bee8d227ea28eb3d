/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_step.h - the work of a running live or replay mode, one step at a
 * time: read what there is, end an interval (read, rates, draw, the
 * recording flushed, the end of -n or of a replay), do what a key means;
 * a failed write of the recording stops it all.
 */
#ifndef RELAYTOP_TOP_STEP_H
#define RELAYTOP_TOP_STEP_H

#include "top_state.h"

/* Read everything there is now (a tick does this too). */
void top_drain(struct top *t);
/* End the interval now: read, rates, draw. */
void top_tick(struct top *t);
/* Do what key means; returns REACT_* flags (controller.h). */
unsigned int top_key(struct top *t, int key);
/* After the source read outside a step (the loop's ready callback): stop
 * if a write of the recording failed. */
void top_check_recording(struct top *t);

#endif /* RELAYTOP_TOP_STEP_H */

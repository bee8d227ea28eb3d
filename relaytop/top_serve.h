/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_serve.h - the loop's callbacks for a running live or replay mode:
 * which file descriptors to wait on (the terminal's keys, the source's
 * files), what to do when they are ready, at each tick, on SIGUSR1, and
 * when to stop.
 */
#ifndef RELAYTOP_TOP_SERVE_H
#define RELAYTOP_TOP_SERVE_H

#include "top_state.h"

/* Point t's loop at t. */
void top_serve_init(struct top *t);

#endif /* RELAYTOP_TOP_SERVE_H */

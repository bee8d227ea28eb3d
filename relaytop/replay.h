/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - a recording on the live screen (relaytop --replay FILE), or as
 * batch blocks without a terminal: the recording's own clock drives the
 * intervals, so the rates are the ones that were.
 */
#ifndef RELAYTOP_REPLAY_H
#define RELAYTOP_REPLAY_H

#include "options.h"

/* Returns the exit status: 1 when the file is bad (after showing what
 * could be read of it). */
int replay_run(const struct options *opt);

#endif /* RELAYTOP_REPLAY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_seek.h - the sinks of a running mode's feed (the tally behind the
 * views, the status line), and a replay moved to another time of its
 * recording (Left and Right, < and >): forward by reading on, back by
 * reading again from the start, so that every figure is what it would
 * have been had the replay come there at its pace.
 */
#ifndef RELAYTOP_TOP_SEEK_H
#define RELAYTOP_TOP_SEEK_H

#include <stdint.h>

#include "top_state.h"

/* Give t's feed its sinks: the tally (with the figures when a view or a
 * batch table wants them, counting what the filter lets through) and
 * the status line. */
void top_sinks(struct top *t);
/*
 * Move a replay by delta_ns of its recording (back when negative, not
 * before its start); the last interval shown is then one of the refresh
 * interval ending there.  Returns 0, or -1 when the recording cannot be
 * read again (the status line says why; the replay stays where it was
 * or at its end).
 */
int top_seek(struct top *t, int64_t delta_ns);

#endif /* RELAYTOP_TOP_SEEK_H */

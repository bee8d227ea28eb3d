/* SPDX-License-Identifier: GPL-2.0 */
/*
 * batch.h - plain-text output for scripts (relaytop -b) and the closing
 * summary of a recording.
 */
#ifndef RELAYTOP_BATCH_H
#define RELAYTOP_BATCH_H

#include <stdio.h>

#include "record_writer.h"
#include "view.h"

/*
 * One block per interval: a '#' line with the time and the channel's
 * state, a column header, one line per CPU, an "all" line, a blank line.
 * Returns 0, or -1 when writing it failed (errno says why: EPIPE when
 * nobody reads out any more).
 */
int batch_print(FILE *out, const struct view *v);

/* Per-CPU records, drops and losses of a finished recording. */
void batch_print_record_summary(FILE *out, const struct recorder *rec);

#endif /* RELAYTOP_BATCH_H */

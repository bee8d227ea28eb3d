/* SPDX-License-Identifier: GPL-2.0 */
/*
 * batch_json.h - -b --format json: a block as one JSON object on one line
 * (JSON Lines): the time, the channel's state, the status line once, per
 * CPU and all the rates, drops, losses, fill, event mix and who runs;
 * with --tasks the tasks table, with --latency both latencies per CPU and
 * all, their log2 histograms and the late records.  Every text (a task's
 * name, the status line) is escaped as every text is (text.h), then as a
 * JSON string (json_text.h).
 */
#ifndef RELAYTOP_BATCH_JSON_H
#define RELAYTOP_BATCH_JSON_H

#include <stdio.h>

#include "view.h"

void batch_json(FILE *out, const struct view *v);

#endif /* RELAYTOP_BATCH_JSON_H */

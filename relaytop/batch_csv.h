/* SPDX-License-Identifier: GPL-2.0 */
/*
 * batch_csv.h - -b --format csv: one table (RFC 4180), a header line once
 * and a row for each CPU, task or latency of every block: the CPU table,
 * or with --tasks the tasks table, or with --latency the latency tables
 * (both kinds, a column saying which).  Numbers are plain; a task's name
 * is escaped as every text is (text.h), then quoted where CSV needs it.
 * The final block (since the start) has span "total".
 */
#ifndef RELAYTOP_BATCH_CSV_H
#define RELAYTOP_BATCH_CSV_H

#include <stdio.h>

#include "view.h"

/* A block's rows (with the header line first when v->block is 0). */
void batch_csv(FILE *out, const struct view *v);
/* s as a CSV field: as it is, or quoted with its quotes doubled when it
 * holds a comma, a quote, a line break or blanks at its ends. */
void batch_csv_field(FILE *out, const char *s);

#endif /* RELAYTOP_BATCH_CSV_H */

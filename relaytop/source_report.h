/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source_report.h - what a source has read of each CPU, as text on
 * standard error: the status report SIGUSR1 asks for, and the warning at
 * the end when the producer's event numbers disagreed with its counts.
 */
#ifndef RELAYTOP_SOURCE_REPORT_H
#define RELAYTOP_SOURCE_REPORT_H

#include <stdio.h>

#include "source.h"
#include "stats.h"

/*
 * Per CPU, what relaytop has of the current generation:
 *
 *   relaytop: status generation G
 *   relaytop: cpu N generation G events E dropped D lost L
 *   relaytop: status end
 *
 * (events read intact, the producer's drops, events relaytop lost, all
 * since the CPU's last reset, from st).  A script that stopped the
 * producer can compare them with the stats file to know that relaytop
 * has everything.
 */
void source_report_status(FILE *out, const struct source *src,
			  const struct stats *st);
/* The chunks not where their event numbers say, and the events no count
 * says, per CPU (nothing when there are none). */
void source_report_misplaced(const struct source *src);

#endif /* RELAYTOP_SOURCE_REPORT_H */

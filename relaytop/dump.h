/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - a recording as text (relaytop --dump), one event a line in the
 * style of trace-cmd report and perf script:
 *
 *   loadgen-123     (    120) [001]  1234.567890123: sched_switch: ...
 *
 * with the producer's drops and relaytop's losses as marker lines where
 * they happened ("CPU:1 [12 EVENTS DROPPED]"), the task's thread group
 * id in parentheses as ftrace's record-tgid option prints it ("-------"
 * when unknown: a version 1 recording), '#' comment lines for the
 * recording's header and a per-CPU summary at the end.
 */
#ifndef RELAYTOP_DUMP_H
#define RELAYTOP_DUMP_H

#include <stdio.h>

/* Print path; returns the exit status (0, or 1 after saying why). */
int dump_recording(const char *path, FILE *out);

#endif /* RELAYTOP_DUMP_H */

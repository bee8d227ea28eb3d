/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace_text.h - sched_relay records as ftrace prints them: a
 * tracepoint's fields as its TP_printk does, and whole event lines in the
 * two forms relaytop writes,
 *
 *   REPORT (--dump, as trace-cmd report):
 *       loadgen-123     (    120) [001]  1234.567890123: sched_switch: ...
 *   PIPE (Perfetto's systemTraceEvents, as trace_pipe with record-tgid):
 *       loadgen-123     (    120) [001] ....  1234.567890123: sched_switch: ...
 *
 * The task column is who was running when the event fired, as the
 * scheduler model says (sched_model.h): "<...>" when unknown, with pid
 * "?" (REPORT) or 0 (PIPE, whose readers want a number); the tgid
 * "-------" when unknown.
 */
#ifndef RELAYTOP_FTRACE_TEXT_H
#define RELAYTOP_FTRACE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched_model.h"
#include "sched_relay.h"

enum ftrace_style {
	FTRACE_REPORT,		/* trace-cmd report */
	FTRACE_PIPE,		/* trace_pipe, with the flags column */
};

/* Room for an event's fields, and for a whole line. */
#define FTRACE_FIELDS_SIZE	384
#define FTRACE_LINE_SIZE	640

/*
 * One event's fields, as the kernel's tracepoint prints them, the task
 * names escaped (text.h: valid UTF-8 kept when utf8).
 */
void ftrace_fields(const struct sched_relay_record *r, bool utf8, char *buf,
		   size_t size);

/*
 * The line of record r on cpu at ts (the record's own time or the
 * model's), task being who fired it (NULL: unknown), newline included.
 * Task names are escaped (text.h); valid UTF-8 is kept in the PIPE form
 * (Perfetto's JSON is UTF-8), and in the REPORT form when the locale's
 * character set is UTF-8.
 */
void ftrace_line(char *buf, size_t size, enum ftrace_style style,
		 unsigned int cpu, uint64_t ts, const struct sched_task *task,
		 const struct sched_relay_record *r);

#endif /* RELAYTOP_FTRACE_TEXT_H */

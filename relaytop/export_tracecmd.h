/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_tracecmd.h - a recording as a trace-cmd trace.dat (relaytop
 * --export-tracecmd), which `trace-cmd report` and KernelShark open.
 *
 * The file is trace-cmd's format version 6 (trace-cmd.dat.v6(5)): the
 * kernel's own event formats for the seven sched tracepoints, the tasks'
 * names as saved cmdlines, the trace clock "mono" (the records' own
 * CLOCK_MONOTONIC) with the recording's wall-clock offset, and one section
 * per CPU of ftrace ring-buffer pages.  Each producer drop and relaytop
 * loss is the missed-events count of the page that starts at the first
 * event after it, so `trace-cmd report` prints "CPU:N [COUNT EVENTS
 * DROPPED]" where the events went missing.  docs/export.md has the
 * details.
 */
#ifndef RELAYTOP_EXPORT_TRACECMD_H
#define RELAYTOP_EXPORT_TRACECMD_H

/*
 * Convert the recording at path into a trace.dat at outfile, which is
 * replaced only when the export is complete.  Returns the exit status: 0,
 * or 1 after saying why on stderr.  What a damaged recording holds before
 * the damage is exported (then the damage is reported and 1 returned, as
 * --dump does).
 */
int export_tracecmd(const char *recording, const char *outfile);

#endif /* RELAYTOP_EXPORT_TRACECMD_H */

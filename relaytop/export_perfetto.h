/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_perfetto.h - a recording as Chrome trace-event JSON
 * (relaytop --export-perfetto), which the Perfetto UI (ui.perfetto.dev,
 * trace_processor) and chrome://tracing open.
 *
 * The file holds, under "traceEvents", one thread track per CPU (process
 * "sched_relay CPUs") with the task that ran as slices from sched_switch,
 * the other events as instants, gaps as "N events dropped/lost" slices,
 * and per CPU two counter tracks, the event rate and the cumulative drops
 * and losses; under "systemTraceEvents", the events as ftrace text lines,
 * from which Perfetto builds its own CPU scheduling and thread-state tracks.
 * docs/export.md has the details and the reasons.
 */
#ifndef RELAYTOP_EXPORT_PERFETTO_H
#define RELAYTOP_EXPORT_PERFETTO_H

/* Synthetic ids of the CPU tracks: above any real pid (PID_MAX_LIMIT). */
#define PERFETTO_CPUS_PID	5000000u

static inline unsigned int perfetto_cpu_tid(unsigned int cpu)
{
	return PERFETTO_CPUS_PID + 1 + cpu;
}

/* Width of the bins of the event-rate counters. */
#define PERFETTO_RATE_BIN_NS	100000000ull	/* 100 ms */

/*
 * Convert the recording at path into JSON at outfile ("-": standard
 * output).  outfile is replaced only when the export is complete.  Returns
 * the exit status: 0, or 1 after saying why on stderr.  What a damaged
 * recording holds before the damage is exported (then the damage is
 * reported and 1 returned, as --dump does).
 */
int export_perfetto(const char *recording, const char *outfile);

#endif /* RELAYTOP_EXPORT_PERFETTO_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_ctf.h - a recording as a CTF 1.8 trace (relaytop --export-ctf),
 * for babeltrace2, Trace Compass and anything else that reads CTF.
 *
 * The trace is a directory: 'metadata' (TSDL text) and one stream file per
 * CPU ('cpu0', 'cpu1', ...).  Events carry the fields the kernel's own sched
 * tracepoints have (prev_comm, prev_pid, ... for sched_switch); the clock is
 * CLOCK_MONOTONIC in ns with the recording's wall-clock offset; the
 * producer's drops and relaytop's losses are the packets' events_discarded,
 * so CTF readers report them where they happened.  docs/export.md has the
 * details.
 */
#ifndef RELAYTOP_EXPORT_CTF_H
#define RELAYTOP_EXPORT_CTF_H

/*
 * Convert the recording at path into a CTF trace in outdir, which must not
 * exist or be an empty directory.  Returns the exit status: 0, or 1 after
 * saying why on stderr.  What a damaged recording holds before the damage
 * is exported (then the damage is reported and 1 returned, as --dump does);
 * when nothing can be exported, outdir is left as it was.
 */
int export_ctf(const char *recording, const char *outdir);

#endif /* RELAYTOP_EXPORT_CTF_H */

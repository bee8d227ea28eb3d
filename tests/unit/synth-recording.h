/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth-recording.h - write a relaytop recording of made-up events, with
 * drops and losses where the test wants them, through the real recorder
 * (record.c), for the tests of what reads recordings (the exports).
 */
#ifndef SYNTH_RECORDING_H
#define SYNTH_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "sched_relay.h"

/* Events missing before record 'before' of a CPU (-1: after its last). */
struct synth_gap {
	unsigned int cpu;
	int before;
	uint64_t dropped;	/* by the producer */
	uint64_t lost;		/* by relaytop */
};

struct synth_recording {
	unsigned int ncpus;
	const unsigned int *nrec;	/* records per CPU */
	const struct synth_gap *gaps;	/* NULL: none */
	size_t ngaps;
	unsigned int chunk;		/* records per DATA block, at most */
	uint64_t generation;
	uint64_t *base_ts;		/* set to a time shortly ahead first */
	/* record i of a CPU, from *base_ts */
	void (*make_record)(unsigned int cpu, unsigned int i,
			    struct sched_relay_record *r);
};

/*
 * Write the recording to @path: one DATA block per run of records, cut
 * at every gap, with the gaps' counts before them; gaps after a CPU's
 * last record as the stats file's final counts.  It ends once the clock
 * passed its newest event, as a real one does.  Exits with status 2 if
 * the file cannot be written.
 */
void synth_write_recording(const char *path, const struct synth_recording *s);

/*
 * A recording of ncpus CPUs that spans secs seconds of its clock from
 * 100 s on: on each CPU a record (sched_process_exit of pid 42) every
 * 100 ms, numbered from 0; for the tests of a replay's clock (seeking,
 * --speed).  It does not wait for the clock.  Exits with status 2 if the
 * file cannot be written.
 */
void synth_write_paced(const char *path, unsigned int ncpus,
		       unsigned int secs);

#endif

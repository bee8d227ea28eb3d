// SPDX-License-Identifier: GPL-2.0
/*
 * synth-recording.c - write a relaytop recording of made-up events (see
 * synth-recording.h).
 */
#include "synth-recording.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_merge.h"
#include "record_writer.h"
#include "subbuf.h"
#include "test-lib.h"
#include "util.h"

/* Cumulative counts of a CPU's gaps before record i (all: i = UINT_MAX). */
static void counts_before(const struct synth_recording *s, unsigned int cpu,
			  unsigned int i, bool after_last, uint64_t *dropped,
			  uint64_t *lost)
{
	*dropped = *lost = 0;
	for (size_t g = 0; g < s->ngaps; g++) {
		const struct synth_gap *gap = &s->gaps[g];

		if (gap->cpu != cpu)
			continue;
		if (gap->before >= 0 ? (unsigned int)gap->before <= i :
		    after_last) {
			*dropped += gap->dropped;
			*lost += gap->lost;
		}
	}
}

static bool gap_at(const struct synth_recording *s, unsigned int cpu,
		   unsigned int i)
{
	for (size_t g = 0; g < s->ngaps; g++)
		if (s->gaps[g].cpu == cpu && s->gaps[g].before == (int)i)
			return true;
	return false;
}

/* Whether the CPU has a gap after its last record with drops (lost). */
static bool gap_after_last(const struct synth_recording *s, unsigned int cpu,
			   bool lost)
{
	for (size_t g = 0; g < s->ngaps; g++)
		if (s->gaps[g].cpu == cpu && s->gaps[g].before < 0 &&
		    (lost ? s->gaps[g].lost : s->gaps[g].dropped))
			return true;
	return false;
}

void synth_write_paced(const char *path, unsigned int ncpus,
		       unsigned int secs)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = ncpus,
		.geom = { 65536, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct recorder *rec = recorder_create(path, &meta);
	struct sched_relay_record r[10];

	if (!rec)
		exit(2);
	for (unsigned int c = 0; c < ncpus; c++)
		recorder_track_cpu(rec, c, 0, 0, true);
	for (uint32_t s = 0; s < secs; s++) {
		for (unsigned int c = 0; c < ncpus; c++) {
			struct subbuf_chunk ch = {
				.cpu = c, .nrec = 10, .recs = r,
				.generation = 1, .seq = s,
			};

			memset(r, 0, sizeof(r));
			for (uint32_t i = 0; i < 10; i++) {
				r[i].ts = 1000000000ull * (100 + s) +
					  100000000ull * i;
				r[i].type = SCHED_RELAY_EXIT;
				r[i].pid = 42;
				r[i].event_seq = s * 10 + i;
			}
			recorder_stage(rec, &ch);
			recorder_settle(rec, true);
		}
	}
	if (recorder_finish(rec))
		exit(2);
	recorder_free(rec);
}

void synth_write_recording(const char *path, const struct synth_recording *s)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = s->ncpus,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = s->generation,
	};
	struct recorder *rec = recorder_create(path, &meta);
	struct sched_relay_record *recs = xcalloc(s->chunk, sizeof(*recs));
	uint64_t seq = 0, newest = 0, dropped, lost;

	if (!rec) {
		test_msg("cannot create %s: %s", path, strerror(errno));
		exit(2);
	}
	*s->base_ts = mono_ns() + 1000000;
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		unsigned int i = 0;

		recorder_track_cpu(rec, cpu, 0, 0, true);
		while (i < s->nrec[cpu]) {
			struct subbuf_chunk c = {
				.cpu = cpu, .seq = seq++,
				.generation = s->generation,
				.offset = 64, .recs = recs,
			};

			counts_before(s, cpu, i, false, &c.dropped, &c.lost);
			/* a chunk ends where a gap comes */
			do {
				s->make_record(cpu, i, &recs[c.nrec]);
				if (recs[c.nrec].ts > newest)
					newest = recs[c.nrec].ts;
				c.nrec++;
			} while (++i < s->nrec[cpu] && c.nrec < s->chunk &&
				 !gap_at(s, cpu, i));
			recorder_stage(rec, &c);
			recorder_settle(rec, true);
		}
		counts_before(s, cpu, UINT32_MAX, true, &dropped, &lost);
		if (gap_after_last(s, cpu, false))
			recorder_note_dropped(rec, cpu, dropped);
		if (gap_after_last(s, cpu, true))
			recorder_note_lost(rec, cpu, lost);
	}
	while (mono_ns() <= newest)
		usleep(1000);
	if (recorder_finish(rec)) {
		test_msg("cannot write %s", path);
		exit(2);
	}
	recorder_free(rec);
	free(recs);
}

// SPDX-License-Identifier: GPL-2.0
/* hostile-recording.c - tasks named by escape sequences (see hostile-recording.h). */
#include "hostile-recording.h"

#include <stdlib.h>

#include "record_writer.h"
#include "synth-record.h"
#include "util.h"

#define MS 1000000ull

void hostile_recording(const char *path)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay\033]0;chan\007",
		.nr_cpus = 1, .geom = { 65536, 8 },
		.events = SCHED_RELAY_ALL_EVENTS, .flags = RECORD_F_ENABLED,
		.generation = 1,
	};
	struct recorder *rec = recorder_create(path, &meta);
	struct sched_relay_record r[12];
	struct subbuf_chunk c = { .cpu = 0, .generation = 1, .offset = 64,
				  .recs = r };
	uint64_t t0 = mono_ns() - 3000 * MS;
	unsigned int n = 0;

	if (!rec)
		exit(2);
	for (int round = 0; round < 3; round++) {
		uint64_t ts = t0 + (uint64_t)round * 1000 * MS;

		r[n] = synth_record(ts, SCHED_RELAY_SWITCH, 100, HOSTILE_TITLE);
		synth_record_task2(&r[n++], 200, 120, HOSTILE_ERASE);
		r[n] = synth_record(ts + 1 * MS, SCHED_RELAY_WAKEUP, 100,
				    HOSTILE_TITLE);
		r[n++].target_cpu = 0;
		r[n] = synth_record(ts + 2 * MS, SCHED_RELAY_SWITCH, 200,
				    HOSTILE_ERASE);
		synth_record_task2(&r[n++], 100, 120, HOSTILE_TITLE);
		r[n] = synth_record(ts + 3 * MS, SCHED_RELAY_FORK, 100,
				    HOSTILE_TITLE);
		synth_record_task2(&r[n++], 300 + round, 120,
				   "\xc2\x9b" "31m\x9b" "1m\xff\xfe");
	}
	for (unsigned int i = 0; i < n; i++)
		r[i].event_seq = i;
	c.nrec = n;
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
	if (recorder_finish(rec))
		exit(2);
	recorder_free(rec);
}

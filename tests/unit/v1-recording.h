/* SPDX-License-Identifier: GPL-2.0 */
/*
 * v1-recording.h - turn a recording into what relaytop wrote before
 * format 2: format 1 with version 1 records, CRCs recomputed, for the
 * tests that old recordings still read.
 */
#ifndef V1_RECORDING_H
#define V1_RECORDING_H

#include "sched_relay.h"

/* A version 2 record as the version 1 producer wrote it on cpu. */
void v1_record_of(const struct sched_relay_record *r, unsigned int cpu,
		  struct sched_relay_record_v1 *out);
/* Rewrite the recording at path in place; exits 2 if it cannot. */
void v1_rewrite_recording(const char *path);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the identity check of a recording (relaytop --check FILE).
 *
 * Per CPU and generation, every record's event number (event_seq, the low
 * 32 bits of its number in the CPU's stream) must follow from the one
 * before and the events the file counts as missing between them (DATA
 * blocks' dropped and lost, at their place): numbers strictly increase,
 * no record appears twice, every gap is exactly what is counted, and time
 * never goes back.  A version 1 recording has no event numbers: nothing
 * to check, and it says so.
 */
#ifndef RELAYTOP_CHECK_H
#define RELAYTOP_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record_merge.h"

struct check_result {
	uint64_t records;
	uint64_t duplicated;	/* a number already delivered */
	uint64_t out_of_place;	/* a number passed over (not delivered) */
	uint64_t unaccounted;	/* events missing or extra, not counted */
	uint64_t time_back;	/* a timestamp before the one before */
};

struct check_cpu;

struct check {
	struct check_result res;
	unsigned int ncpus;
	struct check_cpu *cpu;
	FILE *notes;		/* the first problems, one line each, or NULL */
	unsigned int nnotes;
};

/* Start checking (notes: where to describe the first few problems). */
void check_init(struct check *c, FILE *notes);
/* Feed every item of a format 2 recording, in the stream's order. */
void check_item(struct check *c, const struct record_item *it);
void check_free(struct check *c);

static inline bool check_clean(const struct check_result *r)
{
	return !r->duplicated && !r->out_of_place && !r->unaccounted &&
	       !r->time_back;
}

/* The whole of relaytop --check: prints the verdict; returns 0 (clean),
 * 1 (damaged: a problem above, or the file ends or breaks before its
 * end) or 2 (trouble: not a recording, a format 1 one with nothing to
 * check, the verdict not written), as cmp and diff do. */
int check_recording(const char *path, FILE *out);

#endif /* RELAYTOP_CHECK_H */

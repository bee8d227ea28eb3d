// SPDX-License-Identifier: GPL-2.0
/*
 * record_format.c - the recording's checksums and the rules a block header
 * must follow (see record_format.h and docs/record-format.md).
 */
#include "record_format.h"

#include <stdbool.h>
#include <string.h>

#include "util.h"

_Static_assert(sizeof(struct record_file_header) == 128, "file header size");
_Static_assert(sizeof(struct record_block) == 64, "block header size");
_Static_assert(sizeof(struct record_config) == 32, "config size");
_Static_assert(sizeof(struct record_cpu_end) == 16, "cpu end size");
_Static_assert(sizeof(struct record_end) == 16, "end size");

uint32_t record_header_crc(const struct record_file_header *h)
{
	return crc32_update(0, h, offsetof(struct record_file_header, crc));
}

uint32_t record_block_crc(const struct record_block *b, const void *payload,
			  size_t size)
{
	struct record_block h = *b;

	h.crc = 0;
	return crc32_update(crc32_update(0, &h, sizeof(h)), payload, size);
}

uint32_t record_block_crc_v(uint32_t version, const struct record_block *b,
			    const void *payload, size_t size)
{
	if (version >= 3 &&
	    (b->type == RECORD_DATA || b->type == RECORD_SKIPPED))
		size = 0;
	return record_block_crc(b, payload, size);
}

const char *record_block_problem(const struct record_file_header *fh,
				 const struct record_block *b)
{
	bool global = b->cpu == RECORD_NO_CPU;

	if (!global && b->cpu >= RECORD_MAX_CPUS)
		return "a block of a CPU beyond any kernel's";
	switch (b->type) {
	case RECORD_DATA:
		if (global)
			return "a DATA block without a CPU";
		if ((uint64_t)b->nrec * fh->record_size != b->size || !b->nrec)
			return "a DATA block whose size is not its records'";
		return NULL;
	case RECORD_CONFIG:
		if (!global)
			return "a CONFIG block of one CPU";
		return b->size < sizeof(struct record_config) ?
			"a CONFIG block too short" : NULL;
	case RECORD_RESTART:
		return global ? "a RESTART block without a CPU" : NULL;
	case RECORD_GONE:
		return NULL;
	case RECORD_CPU_END:
		if (global)
			return "a CPU_END block without a CPU";
		return b->size < sizeof(struct record_cpu_end) ?
			"a CPU_END block too short" : NULL;
	case RECORD_END:
		if (!global)
			return "an END block of one CPU";
		return b->size < sizeof(struct record_end) ?
			"an END block too short" : NULL;
	case RECORD_SKIPPED:
		if (fh->version < 3)
			return NULL;	/* unknown there: skipped */
		return global ? "a SKIPPED block without a CPU" : NULL;
	default:
		return NULL;	/* a newer block type: skipped */
	}
}

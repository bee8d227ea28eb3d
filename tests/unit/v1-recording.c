// SPDX-License-Identifier: GPL-2.0
/* v1-recording.c - a recording rewritten as format 1 (v1-recording.h). */
#include "v1-recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "record_merge.h"
#include "record_writer.h"
#include "test-lib.h"
#include "util.h"

void v1_record_of(const struct sched_relay_record *r, unsigned int cpu,
		  struct sched_relay_record_v1 *out)
{
	bool two = r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK;

	memset(out, 0, sizeof(*out));
	out->ts = r->ts;
	out->type = r->type;
	out->cpu = (uint16_t)cpu;
	out->state = r->type == SCHED_RELAY_SWITCH ?
		     fields_state_bits(r->state) : 0;
	out->pid = r->pid;
	out->pid2 = r->pid2;
	out->prio = (int16_t)fields_prio(r->prio);
	out->prio2 = two ? (int16_t)fields_prio(r->prio2) : 0;
	out->target_cpu = two ? (uint16_t)cpu : r->target_cpu;
	out->orig_cpu = two ? (uint16_t)cpu : r->orig_cpu;
	memcpy(out->comm, r->comm, sizeof(out->comm));
	if (two)
		memcpy(out->comm2, r->comm2, sizeof(out->comm2));
}

void v1_rewrite_recording(const char *path)
{
	FILE *f = fopen(path, "r+b");
	unsigned char *buf;
	long size;
	struct record_file_header h;
	size_t off;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 128) {
		test_msg("cannot rewrite %s", path);
		exit(2);
	}
	buf = xmalloc((size_t)size);
	rewind(f);
	if (fread(buf, 1, (size_t)size, f) != (size_t)size)
		exit(2);
	memcpy(&h, buf, sizeof(h));
	h.version = 1;
	h.record_version = 1;
	h.crc = crc32_update(0, &h, offsetof(struct record_file_header, crc));
	memcpy(buf, &h, sizeof(h));
	for (off = h.header_size; off + sizeof(struct record_block) <= (size_t)size;) {
		struct record_block b;
		unsigned char *payload = buf + off + sizeof(b);

		memcpy(&b, buf + off, sizeof(b));
		if (b.type == RECORD_DATA) {
			for (uint32_t i = 0; i < b.nrec; i++) {
				struct sched_relay_record r;
				struct sched_relay_record_v1 v1;

				memcpy(&r, payload + i * sizeof(r), sizeof(r));
				v1_record_of(&r, b.cpu, &v1);
				memcpy(payload + i * sizeof(r), &v1, sizeof(v1));
			}
		}
		b.crc = 0;
		b.crc = crc32_update(crc32_update(0, &b, sizeof(b)), payload,
				     b.size);
		memcpy(buf + off, &b, sizeof(b));
		off += sizeof(b) + b.size;
	}
	rewind(f);
	if (fwrite(buf, 1, (size_t)size, f) != (size_t)size || fclose(f)) {
		test_msg("cannot rewrite %s", path);
		exit(2);
	}
	free(buf);
}

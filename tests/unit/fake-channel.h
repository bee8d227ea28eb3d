/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake-channel.h - a sched_relay channel directory on the host, for tests:
 * a temporary directory with the control attributes as regular files
 * (generation, subbuf_size, n_subbufs, overwrite, enabled, events, stats,
 * reset) and one cpuN file per CPU, mapped shared and written by a
 * fake_relay, so relaytop's channel, control and live source code runs on it
 * unchanged (mmap of a regular file works like the kernel's).
 */
#ifndef FAKE_CHANNEL_H
#define FAKE_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "fake-relay.h"

#define FAKE_MAX_CPUS 8

struct fake_channel {
	char dir[64];
	unsigned int ncpus;
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	bool overwrite;
	uint64_t generation;
	uint32_t events;
	bool enabled;
	unsigned char *map[FAKE_MAX_CPUS];
	struct fake_relay relay[FAKE_MAX_CPUS];
};

/* Create the directory and its files; false on failure. */
bool fake_channel_create(struct fake_channel *fc, unsigned int ncpus,
			 uint32_t subbuf_size, uint32_t n_subbufs,
			 bool overwrite);
/* Write the control files (and stats) from fc's fields. */
void fake_channel_sync_files(struct fake_channel *fc);
/* A CPU came online: its buffer file appears (false on failure). */
bool fake_channel_add_cpu(struct fake_channel *fc);
/* Like the module's reset: a new generation, relay_reset on each CPU. */
void fake_channel_reset(struct fake_channel *fc);
/* Remove cpuN files' contents (truncate: mappings fault) or restore. */
void fake_channel_remove_buffers(struct fake_channel *fc);
void fake_channel_restore_buffers(struct fake_channel *fc);
/* Read a control file's contents ("" if missing). */
const char *fake_channel_read(struct fake_channel *fc, const char *name);
/* Hand-back as the kernel would: 'cc' is relaytop's channel_cpu. */
int fake_channel_give_back(void *cc, uint64_t until);
/* The fake_channel whose relays fake_channel_give_back() uses. */
void fake_channel_set_current(struct fake_channel *fc);
void fake_channel_destroy(struct fake_channel *fc);

#endif /* FAKE_CHANNEL_H */

// SPDX-License-Identifier: GPL-2.0
/* fake-channel.c - a sched_relay channel directory on the host (see .h). */
#include "fake-channel.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "channel.h"

static struct fake_channel *current;

static void put_file(struct fake_channel *fc, const char *name,
		     const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fc->dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

const char *fake_channel_read(struct fake_channel *fc, const char *name)
{
	static char text[4096];
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", fc->dir, name);
	text[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return text;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

void fake_channel_sync_files(struct fake_channel *fc)
{
	char text[4096];
	size_t len;

	snprintf(text, sizeof(text), "%" PRIu64 "\n", fc->generation);
	put_file(fc, "generation", text);
	snprintf(text, sizeof(text), "%" PRIu32 "\n", fc->subbuf_size);
	put_file(fc, "subbuf_size", text);
	snprintf(text, sizeof(text), "%" PRIu32 "\n", fc->n_subbufs);
	put_file(fc, "n_subbufs", text);
	put_file(fc, "overwrite", fc->overwrite ? "1\n" : "0\n");
	put_file(fc, "enabled", fc->enabled ? "1\n" : "0\n");
	text[0] = '\0';
	len = 0;
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++) {
		static const char *const names[] = {
			"switch", "wakeup", "wakeup_new", "migrate", "fork",
			"exit", "waking",
		};

		if (fc->events & (1u << t))
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s%s", len ? " " : "", names[t]);
	}
	snprintf(text + len, sizeof(text) - len, "\n");
	put_file(fc, "events", text);
	/* stats/: one array over the CPUs per counter, as sched_relay's */
	for (int f = 0; f < 5; f++) {
		static const char *const names[] = {
			"stats/produced", "stats/dropped",
			"stats/subbufs_produced", "stats/subbufs_consumed",
			"stats/fill_bytes",
		};

		len = 0;
		for (unsigned int c = 0; c < fc->ncpus; c++) {
			const struct fake_relay *r = &fc->relay[c];
			uint64_t v[] = { r->events, r->full, r->produced,
					 r->consumed, 0 };

			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s%" PRIu64, c ? " " : "", v[f]);
		}
		snprintf(text + len, sizeof(text) - len, "\n");
		put_file(fc, names[f], text);
	}
}

static bool map_cpu(struct fake_channel *fc, unsigned int c)
{
	char path[128];
	size_t size = fake_relay_map_size(fc->subbuf_size, fc->n_subbufs);
	int fd;

	snprintf(path, sizeof(path), "%s/buffers/cpu%u", fc->dir, c);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	fc->map[c] = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return fc->map[c] != MAP_FAILED;
}

bool fake_channel_create(struct fake_channel *fc, unsigned int ncpus,
			 uint32_t subbuf_size, uint32_t n_subbufs,
			 bool overwrite)
{
	char path[sizeof(fc->dir) + 16];

	memset(fc, 0, sizeof(*fc));
	snprintf(fc->dir, sizeof(fc->dir), "/tmp/fake-channel.XXXXXX");
	if (!mkdtemp(fc->dir) || ncpus > FAKE_MAX_CPUS)
		return false;
	/* the channel's buffers/ and stats/ directories */
	snprintf(path, sizeof(path), "%s/buffers", fc->dir);
	if (mkdir(path, 0755))
		return false;
	snprintf(path, sizeof(path), "%s/stats", fc->dir);
	if (mkdir(path, 0755))
		return false;
	fc->ncpus = ncpus;
	fc->subbuf_size = subbuf_size;
	fc->n_subbufs = n_subbufs;
	fc->overwrite = overwrite;
	fc->generation = 1;
	fc->events = SCHED_RELAY_ALL_EVENTS;
	fc->enabled = true;
	for (unsigned int c = 0; c < ncpus; c++) {
		if (!map_cpu(fc, c))
			return false;
		fake_relay_init(&fc->relay[c], fc->map[c], subbuf_size,
				n_subbufs, c, overwrite, fc->generation);
		fc->relay[c].ts += c * 101;
	}
	put_file(fc, "reset", "");
	fake_channel_sync_files(fc);
	return true;
}

bool fake_channel_add_cpu(struct fake_channel *fc)
{
	unsigned int c = fc->ncpus;

	if (c >= FAKE_MAX_CPUS || !map_cpu(fc, c))
		return false;
	fake_relay_init(&fc->relay[c], fc->map[c], fc->subbuf_size,
			fc->n_subbufs, c, fc->overwrite, fc->generation);
	fc->ncpus++;
	fake_channel_sync_files(fc);
	return true;
}

void fake_channel_reset(struct fake_channel *fc)
{
	fc->generation++;
	for (unsigned int c = 0; c < fc->ncpus; c++)
		fake_relay_reset(&fc->relay[c], fc->generation);
	fake_channel_sync_files(fc);
}

void fake_channel_remove_buffers(struct fake_channel *fc)
{
	for (unsigned int c = 0; c < fc->ncpus; c++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/buffers/cpu%u", fc->dir, c);
		if (truncate(path, 0))
			perror(path);
	}
}

void fake_channel_restore_buffers(struct fake_channel *fc)
{
	size_t size = fake_relay_map_size(fc->subbuf_size, fc->n_subbufs);

	fc->generation++;
	for (unsigned int c = 0; c < fc->ncpus; c++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/buffers/cpu%u", fc->dir, c);
		if (truncate(path, (off_t)size))
			perror(path);
		/* a new channel: new buffers from seq 0 */
		fake_relay_init(&fc->relay[c], fc->map[c], fc->subbuf_size,
				fc->n_subbufs, c, fc->overwrite, fc->generation);
	}
	fake_channel_sync_files(fc);
}

void fake_channel_set_current(struct fake_channel *fc)
{
	current = fc;
}

int fake_channel_give_back(void *arg, uint64_t until)
{
	struct channel_cpu *cc = arg;

	if (!current || cc->cpu >= current->ncpus)
		return -19;	/* ENODEV */
	return fake_relay_consume(&current->relay[cc->cpu], until);
}

void fake_channel_destroy(struct fake_channel *fc)
{
	char cmd[128];
	size_t size = fake_relay_map_size(fc->subbuf_size, fc->n_subbufs);

	for (unsigned int c = 0; c < fc->ncpus; c++)
		if (fc->map[c] && fc->map[c] != MAP_FAILED)
			munmap(fc->map[c], size);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fc->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", fc->dir);
	if (current == fc)
		current = NULL;
}

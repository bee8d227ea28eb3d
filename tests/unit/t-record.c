// SPDX-License-Identifier: GPL-2.0
/*
 * t-record.c - pins the recording file (relaytop/record.c,
 * docs/record-format.md):
 * - what the recorder writes reads back record for record, byte for byte,
 *   per CPU in order and merged across CPUs by timestamp;
 * - the producer's drops and relaytop's own losses appear as items exactly
 *   where they happened, with exact counts, and the per-CPU summary says
 *   records, dropped and lost; the stats file's final drop count is kept;
 * - records torn while read never reach the file; a reset is marked, and
 *   drops only the stats file counted before it stay in the old sequence;
 * - bad files give a clear error and never a crash: not a recording,
 *   truncated at every length, corrupted at sampled bytes (format 3: all
 *   but inside records, which no CRC covers; format 2: all), a newer
 *   format version, another byte order, foreign record sizes, data after
 *   the end; format 2 files still read;
 * - zero-copy (payloads written from the buffer at the commit): the same
 *   records read back; a block whose sub-buffer was rewritten before the
 *   after-write check is SKIPPED and its records counted lost, as are
 *   those whose buffers went away before the commit.
 * This file also runs under valgrind in `make check`.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "channel.h"
#include "collect.h"
#include "fake-relay.h"
#include "record_merge.h"
#include "record_writer.h"
#include "subbuf.h"
#include "test-lib.h"
#include "util.h"

#define SUBBUF 512
#define NSUB 4
#define CAP 7
#define NCPU 3

static char tmpdir[] = "/tmp/t-record.XXXXXX";

static char *tmp_path(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

/* A sink that records (and also collects, to compare). */
struct tee {
	struct recorder *rec;
	struct collect col;
	struct subbuf_reader *reader;
};

static void tee_stage(void *ctx, const struct subbuf_chunk *chunk)
{
	struct tee *t = ctx;
	struct subbuf_sink s = collect_sink(&t->col);

	recorder_stage(t->rec, chunk);
	s.stage(s.ctx, chunk);
}

static void tee_settle(void *ctx, const struct subbuf_chunk *chunk, bool ok)
{
	struct tee *t = ctx;
	struct subbuf_sink s = collect_sink(&t->col);

	recorder_settle(t->rec, ok);
	s.settle(s.ctx, chunk, ok);
}

static void tee_restart(void *ctx, unsigned int cpu, uint64_t gen)
{
	struct tee *t = ctx;

	recorder_restart(t->rec, cpu, gen, t->reader->lost);
}

/* NCPU fake CPU buffers read into one recording. */
struct rig {
	unsigned char *buf[NCPU];
	struct fake_relay relay[NCPU];
	struct subbuf_reader reader[NCPU];
	struct tee tee[NCPU];
	struct recorder *rec;
};

static void rig_setup(struct rig *g, const char *name, bool overwrite)
{
	struct subbuf_geometry geom = { SUBBUF, NSUB };
	struct record_meta meta = {
		.channel = "/fake/channel", .nr_cpus = NCPU, .geom = geom,
		.events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED | (overwrite ? RECORD_F_OVERWRITE : 0),
		.generation = 5,
	};

	memset(g, 0, sizeof(*g));
	g->rec = recorder_create(tmp_path(name), &meta);
	if (!g->rec) {
		test_msg("cannot create %s: %s", tmp_path(name), strerror(errno));
		exit(2);
	}
	for (int c = 0; c < NCPU; c++) {
		g->buf[c] = aligned_alloc(4096, fake_relay_map_size(SUBBUF, NSUB));
		memset(g->buf[c], 0, fake_relay_map_size(SUBBUF, NSUB));
		fake_relay_init(&g->relay[c], g->buf[c], SUBBUF, NSUB, c,
				overwrite, 5);
		/* distinct timestamps per CPU, interleaving */
		g->relay[c].ts += (uint64_t)c * 333;
		subbuf_reader_init(&g->reader[c], g->buf[c], g->relay[c].meta,
				   &geom, c);
		subbuf_reader_sync(&g->reader[c]);
		collect_init(&g->tee[c].col);
		g->tee[c].rec = g->rec;
		g->tee[c].reader = &g->reader[c];
		recorder_track_cpu(g->rec, c, 0, g->reader[c].dropped, true);
	}
}

static int give(void *ctx, uint64_t n)
{
	return fake_relay_consume(ctx, n);
}

static void rig_drain(struct rig *g, int c)
{
	struct subbuf_sink sink = {
		.stage = tee_stage, .settle = tee_settle,
		.restart = tee_restart, .ctx = &g->tee[c],
	};
	unsigned int fl;

	do
		fl = subbuf_reader_read(&g->reader[c], &sink);
	while (fl & SUBBUF_MORE);
	recorder_note_lost(g->rec, c, g->reader[c].lost);
	recorder_commit(g->rec);	/* zero-copy: before the hand-back */
	subbuf_reader_handback(&g->reader[c], give, &g->relay[c]);
}

/* One read of CPU c into the recording, nothing committed or handed
 * back yet (zero-copy: the payloads are still in the buffer). */
static void rig_read(struct rig *g, int c)
{
	struct subbuf_sink sink = {
		.stage = tee_stage, .settle = tee_settle,
		.restart = tee_restart, .ctx = &g->tee[c],
	};

	subbuf_reader_read(&g->reader[c], &sink);
}

static void rig_finish(struct rig *g)
{
	int err = recorder_finish(g->rec);

	check_int(err, ==, 0);
	recorder_free(g->rec);
	for (int c = 0; c < NCPU; c++) {
		collect_free(&g->tee[c].col);
		free(g->buf[c]);
	}
}

/* Read a whole recording: per-CPU totals of each item kind. */
struct readback {
	int open_rc;
	char error[256];
	uint64_t records[NCPU];
	uint64_t dropped[NCPU];
	uint64_t lost[NCPU];
	uint64_t restarts[NCPU];
	uint64_t last_id[NCPU];
	uint64_t gaps[NCPU];	/* ids missing before a record */
	uint64_t gap_items[NCPU];	/* DROPPED+LOST counted before it */
	bool ids_match_gaps;
	bool ts_sorted;
	bool events_match_gaps;	/* event_seq steps by 1 + the gap */
	uint32_t last_event[NCPU];
	uint32_t crc[NCPU];	/* of every record's bytes, in order */
	struct record_stream s;
};

static void read_back(const char *name, struct readback *rb)
{
	struct record_item it;
	uint64_t last_ts = 0, pending[NCPU] = { 0 };
	int n;

	memset(rb, 0, sizeof(*rb));
	rb->ids_match_gaps = rb->ts_sorted = rb->events_match_gaps = true;
	rb->open_rc = record_stream_open(&rb->s, tmp_path(name));
	if (rb->open_rc) {
		snprintf(rb->error, sizeof(rb->error), "%s", rb->s.rd.error);
		record_stream_close(&rb->s);
		return;
	}
	while ((n = record_stream_next(&rb->s, &it)) > 0) {
		unsigned int c = it.cpu;

		if (c >= NCPU)
			continue;
		switch (it.kind) {
		case ITEM_RECORD: {
			uint64_t id = (uint64_t)it.rec->pid;

			rb->records[c]++;
			rb->crc[c] = crc32_update(rb->crc[c], it.rec,
						  sizeof(*it.rec));
			/* event numbers count the gaps: the same step */
			if (rb->last_id[c] &&
			    it.rec->event_seq - rb->last_event[c] - 1 != pending[c])
				rb->events_match_gaps = false;
			rb->last_event[c] = it.rec->event_seq;
			if (it.ts < last_ts)
				rb->ts_sorted = false;
			last_ts = it.ts;
			if (rb->last_id[c] && id - rb->last_id[c] - 1 != pending[c])
				rb->ids_match_gaps = false;
			pending[c] = 0;
			rb->last_id[c] = id;
			break;
		}
		case ITEM_DROPPED:
			rb->dropped[c] += it.count;
			pending[c] += it.count;
			break;
		case ITEM_LOST:
			rb->lost[c] += it.count;
			pending[c] += it.count;
			break;
		case ITEM_RESTART:
			rb->restarts[c]++;
			break;
		default:
			break;
		}
	}
	snprintf(rb->error, sizeof(rb->error), "%s", rb->s.rd.error);
}

static void test_round_trip(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "plain.rec", false);
	for (int round = 0; round < 20; round++)
		for (int c = 0; c < NCPU; c++) {
			fake_relay_events(&g.relay[c], 3 + (round * 7 + c) % 10);
			rig_drain(&g, c);
		}
	rig_finish(&g);
	read_back("plain.rec", &rb);
	check_int(rb.open_rc, ==, 0);
	check_str(rb.error, "");
	check(rb.s.rd.ended);
	for (int c = 0; c < NCPU; c++) {
		check_uint(rb.records[c], ==, g.relay[c].events);
		check_uint(rb.records[c], ==, rb.s.rd.summary[c].records);
		check_uint(rb.dropped[c], ==, 0);
		check_uint(rb.lost[c], ==, 0);
		check(rb.s.rd.summary[c].ended);
	}
	check(rb.ts_sorted);
	check(rb.events_match_gaps);
	check(rb.ids_match_gaps);
	check_uint(rb.s.rd.hdr.nr_cpus, ==, NCPU);
	check_uint(rb.s.rd.hdr.subbuf_size, ==, SUBBUF);
	check_uint(rb.s.rd.hdr.n_subbufs, ==, NSUB);
	check_uint(rb.s.rd.hdr.generation, ==, 5);
	check_uint(rb.s.rd.hdr.record_size, ==, 64);
	check_str(rb.s.rd.hdr.channel, "/fake/channel");
	record_stream_close(&rb.s);
}

static void test_bytes_identical(void)
{
	struct rig g;
	struct record_stream s;
	struct record_item it;
	struct sched_relay_record expect[40];
	int n = 0, same = 0, rc;

	rig_setup(&g, "bytes.rec", false);
	fake_relay_events(&g.relay[1], 20);
	/* what the producer wrote, straight from its buffer */
	memcpy(expect, g.buf[1] + 64, CAP * 64);
	memcpy(expect + CAP, g.buf[1] + SUBBUF + 64, CAP * 64);
	memcpy(expect + 2 * CAP, g.buf[1] + 2 * SUBBUF + 64, 6 * 64);
	rig_drain(&g, 1);
	rig_finish(&g);
	rc = record_stream_open(&s, tmp_path("bytes.rec"));
	check_int(rc, ==, 0);
	while (record_stream_next(&s, &it) > 0)
		if (it.kind == ITEM_RECORD && it.cpu == 1 && n < 20)
			same += !memcmp(it.rec, &expect[n++], 64);
	check_int(n, ==, 20);
	check_int(same, ==, 20);
	record_stream_close(&s);
}

static void test_drops_where_they_happened(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "drops.rec", false);
	fake_relay_events(&g.relay[0], NSUB * CAP + 10);	/* 10 dropped */
	rig_drain(&g, 0);
	fake_relay_events(&g.relay[0], 5);
	rig_drain(&g, 0);
	/* fill the rest of the buffer, then 3 more drop, at the end */
	fake_relay_events(&g.relay[0], (CAP - 5) + (NSUB - 1) * CAP + 3);
	rig_drain(&g, 0);
	check_uint(g.relay[0].full, ==, 13);
	/* the last 3 are in no header yet: the stats file says so */
	recorder_note_dropped(g.rec, 0, g.relay[0].full);
	rig_finish(&g);
	read_back("drops.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.records[0], ==, g.relay[0].events);
	check_uint(rb.dropped[0], ==, 13);
	check_uint(rb.s.rd.summary[0].dropped, ==, 13);
	check(rb.s.rd.summary[0].drops_from_stats);
	check(rb.ids_match_gaps);	/* the 10 sit exactly in the gap */
	check_uint(rb.lost[0], ==, 0);
	record_stream_close(&rb.s);
}

static void test_losses_where_they_happened(void)
{
	struct rig g;
	struct readback rb;
	uint64_t lost;

	rig_setup(&g, "lost.rec", true);
	for (int i = 0; i < 30; i++) {
		fake_relay_events(&g.relay[2], (uint64_t)(i % 3 ? 5 : 3 * NSUB * CAP));
		rig_drain(&g, 2);
	}
	lost = g.reader[2].lost;
	check_uint(lost, >, 0);
	rig_finish(&g);
	read_back("lost.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.lost[2], ==, lost);
	check_uint(rb.s.rd.summary[2].lost, ==, lost);
	check_uint(rb.records[2] + rb.lost[2], ==, g.relay[2].events);
	check(rb.ids_match_gaps);
	check_uint(rb.dropped[2], ==, 0);
	record_stream_close(&rb.s);
}

static void overrun(void *arg)
{
	struct rig *g = arg;

	g->tee[0].col.on_stage = NULL;
	fake_relay_events(&g->relay[0], 2 * NSUB * CAP);
}

static void test_torn_not_written(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "torn.rec", true);
	fake_relay_events(&g.relay[0], 4);
	g.tee[0].col.on_stage = overrun;
	g.tee[0].col.on_stage_arg = &g;
	rig_drain(&g, 0);
	check_uint(g.reader[0].torn, ==, 1);
	rig_finish(&g);
	read_back("torn.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.records[0], ==, g.tee[0].col.delivered);
	check_uint(rb.records[0] + rb.lost[0], ==, g.relay[0].events);
	check(rb.ids_match_gaps);
	record_stream_close(&rb.s);
}

/*
 * Zero-copy: the payload is written from the buffer at the commit; with
 * overrun, the producer laps the buffer between the read and the
 * commit, as it may while the write runs.
 */
static void test_zero_copy(bool overrun_it)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "zc.rec", true);
	check(recorder_zero_copy(g.rec, true));
	for (int round = 0; round < 3; round++)
		for (int c = 0; c < NCPU; c++) {
			fake_relay_events(&g.relay[c], 5 + c);
			rig_drain(&g, c);
		}
	fake_relay_events(&g.relay[0], 4);
	rig_read(&g, 0);
	if (overrun_it)
		fake_relay_events(&g.relay[0], 2 * NSUB * CAP);
	check_int(recorder_commit(g.rec), ==, 0);
	check_uint(g.rec->skipped, ==, overrun_it ? 4 : 0);
	fake_relay_events(&g.relay[0], 3);
	rig_drain(&g, 0);
	rig_finish(&g);
	read_back("zc.rec", &rb);
	check_str(rb.error, "");
	check(rb.ids_match_gaps);
	check(rb.events_match_gaps);
	for (int c = 0; c < NCPU; c++)
		check_uint(rb.records[c] + rb.lost[c], ==, g.relay[c].events);
	check_uint(rb.lost[0], >=, overrun_it ? 4 : 0);
	if (!overrun_it)
		check_uint(rb.lost[0], ==, 0);
	check_uint(rb.records[0] + (overrun_it ? 4 : 0), ==,
		   g.tee[0].col.delivered);
	check_uint(rb.s.rd.summary[0].lost, ==, rb.lost[0]);
	record_stream_close(&rb.s);
}

/* Zero-copy: the buffers go away before the commit: SKIPPED, lost. */
static void test_zero_copy_gone(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "zcg.rec", false);
	check(recorder_zero_copy(g.rec, true));
	fake_relay_events(&g.relay[1], 9);
	rig_read(&g, 1);
	recorder_gone(g.rec, RECORD_NO_CPU);
	check_uint(g.rec->skipped, ==, 9);
	rig_finish(&g);
	read_back("zcg.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.records[1], ==, 0);
	check_uint(rb.lost[1], ==, 9);
	record_stream_close(&rb.s);
}

struct stage_args {
	struct recorder *rec;
	const struct subbuf_chunk *chunk;
};

static void stage_guarded(void *ctx, void *arg)
{
	const struct stage_args *a = arg;

	(void)ctx;
	recorder_stage(a->rec, a->chunk);
}

/*
 * Zero-copy: the mapping faults (SIGBUS: the buffers went away) inside
 * recorder_stage(), then the block is settled torn and the channel gone,
 * as live_source.c does.  With (blocks_before) and without a block of
 * another CPU in the batch before it.  Before, the fault came before the
 * block was added to the batch and recorder_settle(false) took one off
 * anyway: with an empty batch its count wrapped to 4294967295 and
 * drop_unwritten() read far past the batch (ASan: heap-buffer-overflow);
 * with a block before, that block's payload was left out of the file
 * under its header, and the file read as corrupt.
 */
static void test_zero_copy_sigbus_in_stage(bool block_before)
{
	struct rig g;
	struct readback rb;
	struct subbuf_chunk chunk = { .cpu = 0, .nrec = 2, .offset = 64 };
	char path[300];
	void *map;
	int fd;

	channel_install_sigbus();
	rig_setup(&g, "zcb.rec", false);
	check(recorder_zero_copy(g.rec, true));
	fake_relay_events(&g.relay[0], 5);
	rig_drain(&g, 0);
	if (block_before) {
		fake_relay_events(&g.relay[2], 6);
		rig_read(&g, 2);
	}
	/* a mapping whose file is gone from under it */
	snprintf(path, sizeof(path), "%s", tmp_path("gone-buffer"));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check_int(ftruncate(fd, 4096), ==, 0);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(map != MAP_FAILED);
	check_int(ftruncate(fd, 0), ==, 0);
	chunk.recs = (const void *)((char *)map + 64);
	check(!channel_guarded(stage_guarded, NULL,
			       &(struct stage_args) { g.rec, &chunk }));
	recorder_settle(g.rec, false);
	check_uint(g.rec->nbatch, ==, block_before ? 1 : 0);
	recorder_gone(g.rec, RECORD_NO_CPU);
	check_uint(g.rec->skipped, ==, block_before ? 6 : 0);
	rig_finish(&g);
	munmap(map, 4096);
	close(fd);
	read_back("zcb.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.records[0], ==, 5);
	check_uint(rb.records[2], ==, 0);
	check_uint(rb.lost[2], ==, block_before ? 6 : 0);
	record_stream_close(&rb.s);
}

static void test_reset_marked(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "reset.rec", false);
	fake_relay_events(&g.relay[1], 10);
	rig_drain(&g, 1);
	fake_relay_reset(&g.relay[1], 6);
	fake_relay_events(&g.relay[1], NSUB * CAP + 4);	/* 4 dropped */
	rig_drain(&g, 1);
	fake_relay_events(&g.relay[1], 1);
	rig_drain(&g, 1);
	rig_finish(&g);
	read_back("reset.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.restarts[1], ==, 1);
	check_uint(rb.records[1], ==, 10 + NSUB * CAP + 1);
	check_uint(rb.dropped[1], ==, 4);
	record_stream_close(&rb.s);
}

/*
 * Drops after the newest header, counted only by the stats file, then a
 * reset: they belong to the old sequence and must not vanish with it.
 */
static void test_stats_drops_before_reset(void)
{
	struct rig g;
	struct readback rb;

	rig_setup(&g, "reset-drops.rec", false);
	fake_relay_events(&g.relay[1], NSUB * CAP + 7);	/* full: 7 dropped */
	rig_drain(&g, 1);
	check_uint(g.relay[1].full, ==, 7);
	/* a tick's stats file read (the sequence still the same) */
	recorder_note_dropped(g.rec, 1, g.relay[1].full);
	fake_relay_reset(&g.relay[1], 6);
	fake_relay_events(&g.relay[1], 3);
	rig_drain(&g, 1);
	rig_finish(&g);
	read_back("reset-drops.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.restarts[1], ==, 1);
	check_uint(rb.records[1], ==, NSUB * CAP + 3);
	check_uint(rb.dropped[1], ==, 7);
	check_uint(rb.s.rd.summary[1].dropped, ==, 7);
	record_stream_close(&rb.s);
}

/* ---- bad files ---- */

static size_t slurp(const char *name, unsigned char **data)
{
	int fd = open(tmp_path(name), O_RDONLY);
	struct stat st;

	fstat(fd, &st);
	*data = malloc((size_t)st.st_size + 1);
	if (read(fd, *data, (size_t)st.st_size) != st.st_size)
		exit(2);
	close(fd);
	return (size_t)st.st_size;
}

static void spit(const char *name, const unsigned char *data, size_t len)
{
	int fd = open(tmp_path(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (write(fd, data, len) != (ssize_t)len)
		exit(2);
	close(fd);
}

/* A damaged file either fails to open with a message, or reads a prefix
 * and then says what is wrong.  Returns the error text. */
static const char *damaged(const char *name, struct readback *rb)
{
	read_back(name, rb);
	if (!rb->open_rc)
		record_stream_close(&rb->s);
	return rb->error;
}

/* The error names the problem (and shows itself when it does not). */
static void expect_error(const char *err, const char *needle)
{
	if (!check(strstr(err, needle) != NULL))
		test_msg("error: \"%s\", expected \"%s\" in it", err, needle);
}

static void test_not_a_recording(void)
{
	struct readback rb;

	spit("empty.rec", (const unsigned char *)"", 0);
	expect_error(damaged("empty.rec", &rb), "not a relaytop recording");
	check_int(rb.open_rc, ==, -1);
	spit("text.rec", (const unsigned char *)"hello world\n", 12);
	expect_error(damaged("text.rec", &rb), "not a relaytop recording");
	check_int(rb.open_rc, ==, -1);
	read_back("does-not-exist.rec", &rb);
	expect_error(rb.error, "No such file or directory");
}

/*
 * What a recording cut at byte cut must read: per CPU, the records of
 * every DATA block wholly before the cut, in order (their count and the
 * CRC of their bytes).
 */
static void whole_blocks_before(const unsigned char *data, size_t cut,
				uint64_t *records, uint32_t *crc)
{
	size_t off = RECORD_FILE_HDR_SIZE;

	memset(records, 0, NCPU * sizeof(*records));
	memset(crc, 0, NCPU * sizeof(*crc));
	while (off + RECORD_BLOCK_SIZE <= cut) {
		struct record_block b;

		memcpy(&b, data + off, sizeof(b));
		if (off + RECORD_BLOCK_SIZE + b.size > cut)
			break;
		if (b.type == RECORD_DATA && b.cpu < NCPU) {
			records[b.cpu] += b.nrec;
			crc[b.cpu] = crc32_update(crc[b.cpu],
						  data + off + RECORD_BLOCK_SIZE,
						  b.size);
		}
		off += RECORD_BLOCK_SIZE + b.size;
	}
}

/*
 * A recording cut anywhere reads as exactly the records of its whole
 * blocks, the same bytes in the same order, and then says it is
 * truncated.  (Before, the test only checked that it read no more
 * records per CPU than the whole file: a reader that dropped or changed
 * records of the prefix passed it.)
 */
static void test_truncated_everywhere(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data);
	int clear = 0, prefix_ok = 0, total = 0;

	for (size_t cut = 0; cut < len; cut += (cut < 300 ? 1 : 61)) {
		struct readback rb;
		uint64_t want[NCPU];
		uint32_t want_crc[NCPU];
		const char *err;
		bool same = true;

		spit("cut.rec", data, cut);
		err = damaged("cut.rec", &rb);
		whole_blocks_before(data, cut, want, want_crc);
		total++;
		clear += strstr(err, "truncated") || strstr(err, "not a relaytop");
		for (int c = 0; c < NCPU; c++)
			same &= rb.records[c] == want[c] &&
				rb.crc[c] == want_crc[c];
		prefix_ok += same;
		if (!same && total - prefix_ok < 3)
			test_msg("cut at %zu: records %" PRIu64 " %" PRIu64 " %"
				 PRIu64 ", wanted %" PRIu64 " %" PRIu64 " %"
				 PRIu64, cut, rb.records[0], rb.records[1],
				 rb.records[2], want[0], want[1], want[2]);
	}
	check_int(clear, ==, total);
	check_int(prefix_ok, ==, total);
	free(data);
}

static void refresh_crc(unsigned char *data);

/*
 * Is byte at of a recording inside a DATA block's records, other than
 * the first record's timestamp (which format 3 checks instead of a CRC;
 * the event numbers are --check's)?
 */
static bool in_unchecked_payload(const unsigned char *data, size_t len,
				 size_t at)
{
	size_t off = RECORD_FILE_HDR_SIZE;

	while (off + RECORD_BLOCK_SIZE <= len) {
		struct record_block b;
		size_t p = off + RECORD_BLOCK_SIZE;

		memcpy(&b, data + off, sizeof(b));
		if (b.type == RECORD_DATA && at >= p && at < p + b.size) {
			size_t ts = offsetof(struct sched_relay_record, ts);

			return !(at - p >= ts && at - p < ts + sizeof(uint64_t));
		}
		off = p + b.size;
	}
	return false;
}

/* plain.rec as format 2 wrote it: every block's CRC over its payload. */
static size_t as_format2(unsigned char **data)
{
	size_t len = slurp("plain.rec", data), off = RECORD_FILE_HDR_SIZE;
	struct record_file_header *h = (void *)*data;

	h->version = 2;
	refresh_crc(*data);
	while (off + RECORD_BLOCK_SIZE <= len) {
		struct record_block b;

		memcpy(&b, *data + off, sizeof(b));
		b.crc = record_block_crc(&b, *data + off + sizeof(b), b.size);
		memcpy(*data + off, &b, sizeof(b));
		off += sizeof(b) + b.size;
	}
	return len;
}

/* Format 2 recordings still read, and their payloads' CRCs checked. */
static void test_format2_read(void)
{
	unsigned char *data;
	size_t len = as_format2(&data);
	struct readback rb, ref;
	int caught = 0, total = 0;

	spit("fmt2.rec", data, len);
	read_back("plain.rec", &ref);
	read_back("fmt2.rec", &rb);
	check_str(rb.error, "");
	check_uint(rb.s.rd.hdr.version, ==, 2);
	for (int c = 0; c < NCPU; c++)
		check_uint(rb.records[c], ==, ref.records[c]);
	check(rb.ids_match_gaps);
	record_stream_close(&rb.s);
	record_stream_close(&ref.s);
	for (size_t at = RECORD_FILE_HDR_SIZE; at < len; at += 29) {
		const char *err;

		data[at] ^= 0x5a;
		spit("bad2.rec", data, len);
		data[at] ^= 0x5a;
		err = damaged("bad2.rec", &rb);
		total++;
		caught += strstr(err, "corrupt") || strstr(err, "CRC") ||
			  strstr(err, "truncated");
	}
	check_int(caught, ==, total);
	free(data);
}

static void test_corrupted_bytes(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data);
	int caught = 0, total = 0;

	/* format 3: everything but what DATA blocks' records hold beyond
	 * their numbers and the first timestamp (no CRC covers that) */
	for (size_t at = 0; at < len; at += 37) {
		struct readback rb;
		const char *err;

		if (in_unchecked_payload(data, len, at))
			continue;

		data[at] ^= 0x5a;
		spit("bad.rec", data, len);
		data[at] ^= 0x5a;
		err = damaged("bad.rec", &rb);
		total++;
		if (!(strstr(err, "corrupt") || strstr(err, "CRC") ||
		      strstr(err, "not a relaytop") || strstr(err, "truncated") ||
		      strstr(err, "newer") || strstr(err, "byte order")))
			test_msg("byte %zu: %s", at, err);
		caught += strstr(err, "corrupt") || strstr(err, "CRC") ||
			  strstr(err, "not a relaytop") ||
			  strstr(err, "truncated") || strstr(err, "newer") ||
			  strstr(err, "byte order");
	}
	check_int(caught, ==, total);
	free(data);
}

static void refresh_crc(unsigned char *data)
{
	struct record_file_header h;

	memcpy(&h, data, sizeof(h));
	h.crc = crc32_update(0, &h, offsetof(struct record_file_header, crc));
	memcpy(data, &h, sizeof(h));
}

static void test_newer_version(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data);
	struct record_file_header *h = (void *)data;
	struct readback rb;
	char want[64];

	h->version = RECORD_VERSION + 1;
	refresh_crc(data);
	spit("v2.rec", data, len);
	snprintf(want, sizeof(want), "version %d is newer", RECORD_VERSION + 1);
	expect_error(damaged("v2.rec", &rb), want);
	check_int(rb.open_rc, ==, -1);
	h->version = RECORD_VERSION;
	h->byte_order = 0x04030201;
	refresh_crc(data);
	spit("be.rec", data, len);
	expect_error(damaged("be.rec", &rb), "byte order");
	h->byte_order = RECORD_BYTE_ORDER;
	h->record_size = 128;
	refresh_crc(data);
	spit("rs.rec", data, len);
	expect_error(damaged("rs.rec", &rb), "128 bytes");
	free(data);
}

/*
 * The file changes after it was opened and checked: a DATA block's
 * record count grows (its header CRC made right again).  Reading stops
 * at that block with "the file changed", the records before it read.
 * Before, the count read again was trusted: the reader handed out
 * records past the block's buffer (ASan: heap-buffer-overflow in
 * record_reader_peek()).
 */
static void test_changed_after_open(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data), off = RECORD_FILE_HDR_SIZE;
	struct readback rb;
	struct record_item it;
	uint64_t records = 0;
	int fd, n;

	spit("changing.rec", data, len);
	check_int(record_stream_open(&rb.s, tmp_path("changing.rec")), ==, 0);
	/* the last DATA block now says it holds 1000 records */
	for (size_t at = off; at + RECORD_BLOCK_SIZE <= len;) {
		struct record_block b;

		memcpy(&b, data + at, sizeof(b));
		if (b.type == RECORD_DATA)
			off = at;
		at += RECORD_BLOCK_SIZE + b.size;
	}
	{
		struct record_block b;

		memcpy(&b, data + off, sizeof(b));
		b.nrec = 1000;
		b.crc = record_block_crc_v(RECORD_VERSION, &b, NULL, 0);
		fd = open(tmp_path("changing.rec"), O_WRONLY);
		check_int(pwrite(fd, &b, sizeof(b), (off_t)off), ==,
			  (ssize_t)sizeof(b));
		close(fd);
	}
	while ((n = record_stream_next(&rb.s, &it)) > 0)
		records += it.kind == ITEM_RECORD;
	check(strstr(rb.s.rd.error, "the file changed") != NULL);
	check_uint(records, <, rb.s.rd.records);
	record_stream_close(&rb.s);
	free(data);
}

/* The last block of a file: its offset. */
static size_t last_block(const unsigned char *data, size_t len)
{
	size_t off = RECORD_FILE_HDR_SIZE, last = off;

	while (off + RECORD_BLOCK_SIZE <= len) {
		struct record_block b;

		memcpy(&b, data + off, sizeof(b));
		last = off;
		off += RECORD_BLOCK_SIZE + b.size;
	}
	return last;
}

/*
 * What docs/record-format.md settles, the reader holds to: a byte order
 * mark that is neither order is a corrupt header (not "another byte
 * order"); an END block must be about all CPUs, and its counts (blocks
 * of every type before it, DATA records) must be the file's.  Before,
 * the reader called any mark another byte order, took an END of CPU 0
 * for a block to ignore (then said the file had no end), and did not
 * look at END's counts.
 */
static void test_spec_settled(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data), end = last_block(data, len);
	struct record_file_header *h = (void *)data;
	struct record_block b;
	struct record_end e;
	struct readback rb;

	h->byte_order = 0x12345678;
	refresh_crc(data);
	spit("mark.rec", data, len);
	expect_error(damaged("mark.rec", &rb), "corrupt file header (byte order");
	h->byte_order = RECORD_BYTE_ORDER;
	refresh_crc(data);
	memcpy(&b, data + end, sizeof(b));
	check_uint(b.type, ==, RECORD_END);
	memcpy(&e, data + end + sizeof(b), sizeof(e));
	/* an END of one CPU */
	b.cpu = 0;
	b.crc = record_block_crc_v(RECORD_VERSION, &b, &e, sizeof(e));
	memcpy(data + end, &b, sizeof(b));
	spit("endcpu.rec", data, len);
	expect_error(damaged("endcpu.rec", &rb), "an END block of one CPU");
	/* END counting one block more than the file has */
	b.cpu = RECORD_NO_CPU;
	e.blocks++;
	b.crc = record_block_crc_v(RECORD_VERSION, &b, &e, sizeof(e));
	memcpy(data + end, &b, sizeof(b));
	memcpy(data + end + sizeof(b), &e, sizeof(e));
	spit("endcount.rec", data, len);
	expect_error(damaged("endcount.rec", &rb), "the end block counts");
	/* and records */
	e.blocks--;
	e.records++;
	b.crc = record_block_crc_v(RECORD_VERSION, &b, &e, sizeof(e));
	memcpy(data + end, &b, sizeof(b));
	memcpy(data + end + sizeof(b), &e, sizeof(e));
	spit("endcount.rec", data, len);
	expect_error(damaged("endcount.rec", &rb), "the end block counts");
	free(data);
}

static void test_data_after_end(void)
{
	unsigned char *data;
	size_t len = slurp("plain.rec", &data);
	unsigned char *twice = malloc(2 * len);
	struct readback rb;

	memcpy(twice, data, len);
	memcpy(twice + len, data + 128, len - 128);
	spit("twice.rec", twice, 2 * len - 128);
	expect_error(damaged("twice.rec", &rb), "after the end block");
	free(twice);
	free(data);
}

/*
 * fdatasync(), as relaytop calls it: the real one, and what the file held
 * when it was called (this definition takes the place of libc's for
 * relaytop's objects linked into this test).
 */
static int synced_fd = -1;
static bool synced_with_end;

int fdatasync(int fd)
{
	struct record_block b;
	struct stat st;
	char self[64];
	int rfd;

	/* the file is open write-only: read it through /proc */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	rfd = open(self, O_RDONLY);
	synced_fd = fd;
	synced_with_end = rfd >= 0 && !fstat(rfd, &st) &&
		st.st_size >= (off_t)(RECORD_BLOCK_SIZE + sizeof(struct record_end)) &&
		pread(rfd, &b, sizeof(b), st.st_size - (off_t)sizeof(b) -
		      (off_t)sizeof(struct record_end)) == (ssize_t)sizeof(b) &&
		b.type == RECORD_END;
	if (rfd >= 0)
		close(rfd);
	return (int)syscall(SYS_fdatasync, fd);
}

/*
 * The end of a recording is on the disk before relaytop says it is done:
 * recorder_finish() calls fdatasync() on the file once its END block is
 * written.  Before, nothing did (a power loss could take a recording
 * relaytop had reported complete).
 */
static void test_synced_at_the_end(void)
{
	struct rig g;

	rig_setup(&g, "synced.rec", false);
	fake_relay_events(&g.relay[0], 5);
	rig_drain(&g, 0);
	synced_fd = -1;
	synced_with_end = false;
	{
		int fd = g.rec->fd;

		rig_finish(&g);
		check_int(synced_fd, ==, fd);
	}
	check(synced_with_end);
}

static void test_write_error_reported(void)
{
	struct record_meta meta = { .nr_cpus = 1, .geom = { SUBBUF, NSUB } };
	struct recorder *rec;
	struct subbuf_chunk chunk = { 0 };
	struct sched_relay_record r[4] = { 0 };
	int err;

	errno = 0;
	rec = recorder_create("/nonexistent-dir/x.rec", &meta);
	check(rec == NULL);
	check_int(errno, ==, ENOENT);
	if (access("/dev/full", W_OK))
		return;
	rec = recorder_create("/dev/full", &meta);
	check(rec != NULL);
	chunk.nrec = 4;
	chunk.recs = r;
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_stage(rec, &chunk);
	recorder_settle(rec, true);
	err = recorder_finish(rec);
	check_int(err, ==, -ENOSPC);
	recorder_free(rec);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 2;
	TEST(test_round_trip(), "written records read back, per CPU and merged by time");
	TEST(test_bytes_identical(), "records in the file are the producer's bytes");
	TEST(test_drops_where_they_happened(), "producer drops sit where they happened, final count from stats");
	TEST(test_losses_where_they_happened(), "relaytop's losses sit where they happened, exactly");
	TEST(test_torn_not_written(), "torn records never reach the file");
	TEST(test_reset_marked(), "a reset is marked and drops count on from zero");
	TEST(test_stats_drops_before_reset(), "drops only the stats file counted survive a reset");
	TEST(test_not_a_recording(), "not a recording: a clear error");
	TEST(test_truncated_everywhere(), "truncated at any length: a clear error, a valid prefix");
	TEST(test_corrupted_bytes(), "a corrupted byte anywhere but in records' bodies is caught");
	TEST(test_format2_read(), "format 2 reads as before, every corrupted byte caught");
	TEST(test_zero_copy(false), "zero-copy: records written from the buffer read back the same");
	TEST(test_zero_copy(true), "zero-copy: a block overwritten while written is SKIPPED, counted lost");
	TEST(test_zero_copy_gone(), "zero-copy: records whose buffer went away are counted lost");
	TEST(test_zero_copy_sigbus_in_stage(false), "zero-copy: a SIGBUS while a block is staged: settled torn, the file complete");
	TEST(test_zero_copy_sigbus_in_stage(true), "zero-copy: the same with another CPU's block waiting in the batch");
	TEST(test_newer_version(), "newer version, other byte order, other record size: refused");
	TEST(test_changed_after_open(), "a file changed after it was opened: reading stops there, no over-read");
	TEST(test_spec_settled(), "a byte order mark of neither order, an END of one CPU or with wrong counts: corrupt");
	TEST(test_data_after_end(), "data after the end block is refused");
	TEST(test_synced_at_the_end(), "the end of a recording is synced to the disk (fdatasync)");
	TEST(test_write_error_reported(), "write errors (ENOENT, ENOSPC) are reported");
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			test_msg("could not remove %s", tmpdir);
	}
	return test_done();
}

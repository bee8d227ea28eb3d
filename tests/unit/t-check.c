// SPDX-License-Identifier: GPL-2.0
/*
 * t-check.c - pins relaytop --check (relaytop/check.c): on recordings
 * written through the real recorder,
 * - a clean one (gaps counted where they are, a reset numbering from 0
 *   again, the channel going away and coming back) checks clean and
 *   prints "check: N records, 0 duplicated, 0 out of place, 0
 *   unaccounted, 0 time going back", exit 0;
 * - a block delivered twice is "duplicated", a record behind its place
 *   that was never delivered is "out of place", a gap larger or smaller
 *   than the counts say is "unaccounted" by the difference, a timestamp
 *   going back is counted, and each of them exits 1;
 * - after a reset the first record must carry the number of the events
 *   counted missing since it;
 * - a format 1 recording has no identity: exit 2 (it cannot check) and it
 *   says so; no file or not a recording: exit 2; a recording that ends
 *   in the middle of a block: exit 1 (damaged), as cmp and diff tell a
 *   difference from trouble.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "check.h"
#include "record_merge.h"
#include "record_writer.h"
#include "test-lib.h"
#include "util.h"
#include "v1-recording.h"

static char path[] = "/tmp/t-check.XXXXXX";
static struct recorder *rec;
static uint64_t ts;

static void begin(void)
{
	struct record_meta meta = {
		.channel = "c", .nr_cpus = 2, .geom = { 4096, 8 },
		.events = SCHED_RELAY_ALL_EVENTS, .generation = 1,
	};

	rec = recorder_create(path, &meta);
	if (!rec)
		exit(2);
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_track_cpu(rec, 1, 0, 0, true);
	ts = 1000000000;
}

/* A DATA block of n records on cpu numbered from first, with the
 * producer's drop count and the reader's loss count before it. */
static void block(unsigned int cpu, uint64_t first, uint32_t n,
		  uint64_t dropped, uint64_t lost)
{
	struct sched_relay_record r[16];
	struct subbuf_chunk c = {
		.cpu = cpu, .generation = 1, .offset = 64, .nrec = n,
		.recs = r, .dropped = dropped, .lost = lost,
	};

	memset(r, 0, sizeof(r));
	for (uint32_t i = 0; i < n; i++) {
		r[i].ts = ts += 1000;
		r[i].event_seq = (uint32_t)(first + i);
		r[i].type = SCHED_RELAY_EXIT;
		r[i].pid = (int32_t)(first + i);
	}
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
}

static void end(void)
{
	if (recorder_finish(rec))
		exit(2);
	recorder_free(rec);
}

static char out[4096];

static int run_check(void)
{
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	int rc = check_recording(path, f);

	fclose(f);
	return rc;
}

static void test_clean(void)
{
	begin();
	block(0, 0, 5, 0, 0);
	block(0, 5, 5, 0, 0);
	block(0, 13, 4, 3, 0);		/* 3 dropped before 13 */
	block(0, 20, 2, 3, 3);		/* 3 lost before 20 */
	block(1, 1000, 6, 0, 0);	/* starts where it starts */
	recorder_restart(rec, 0, 2, 3);
	block(0, 2, 4, 0, 5);		/* 2 lost since the reset */
	recorder_gone(rec, RECORD_NO_CPU);
	recorder_track_cpu(rec, 0, 0, 0, false);
	block(0, 77, 3, 0, 0);		/* new buffers: anything goes */
	end();
	check_int(run_check(), ==, 0);
	check_str(out, "check: 29 records, 0 duplicated, 0 out of place, "
		  "0 unaccounted, 0 time going back\n");
}

static void test_problems(void)
{
	begin();
	block(0, 0, 5, 0, 0);
	block(0, 0, 5, 0, 0);		/* the same block again */
	block(0, 5, 5, 0, 0);
	block(0, 12, 2, 0, 0);		/* 2 missing, none counted */
	block(0, 11, 1, 0, 0);		/* 11 was passed over */
	block(0, 15, 2, 4, 0);		/* 4 counted, 1 missing */
	block(1, 0, 2, 0, 0);
	ts -= 100000;
	block(1, 2, 1, 0, 0);		/* time goes back */
	end();
	check_int(run_check(), ==, 1);
	check(strstr(out, "check: 23 records, 5 duplicated, 1 out of place, "
		     "5 unaccounted, 1 time going back\n") != NULL);
	check(strstr(out, "check: cpu 0 generation 1: event 0 again\n") == out);
	if (test_failed())
		test_msg("%s", out);
}

static void test_reset_numbers_from_zero(void)
{
	begin();
	block(0, 100, 3, 0, 0);
	recorder_restart(rec, 0, 2, 0);
	block(0, 40, 3, 0, 0);		/* should be 0: nothing counted */
	end();
	check_int(run_check(), ==, 1);
	check(strstr(out, "0 out of place, 40 unaccounted") != NULL);
}

static void test_v1_has_no_identity(void)
{
	char err[] = "/tmp/t-check-err.XXXXXX";
	int fd = mkstemp(err), saved = dup(STDERR_FILENO);
	char msg[512] = "";
	ssize_t n;

	begin();
	block(0, 0, 3, 0, 0);
	end();
	v1_rewrite_recording(path);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	check_int(run_check(), ==, 2);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, msg, sizeof(msg) - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(err);
	check(strstr(msg, "no identity to check") != NULL);
}

/* What check_recording() says on standard error, and its status. */
static int check_quietly(const char *file, char *msg, size_t len)
{
	char err[] = "/tmp/t-check-err.XXXXXX";
	int fd = mkstemp(err), saved = dup(STDERR_FILENO), rc;
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	ssize_t n;

	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	rc = check_recording(file, f);
	fclose(f);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, msg, len - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(err);
	return rc;
}

/*
 * As cmp and diff: 1 for a recording found damaged, 2 for trouble (no
 * file, not a recording).  Before, a missing file exited 1, as a
 * damaged recording does.
 */
static void test_exit_status(void)
{
	char msg[512], junk[] = "/tmp/t-check-junk.XXXXXX";
	int fd = mkstemp(junk);
	off_t size;

	check_int(check_quietly("/nonexistent/r.bin", msg, sizeof(msg)), ==, 2);
	check(strstr(msg, "/nonexistent/r.bin") != NULL);
	check(write(fd, "not a recording at all, really not\n", 35) == 35);
	close(fd);
	check_int(check_quietly(junk, msg, sizeof(msg)), ==, 2);
	unlink(junk);
	/* clean records, then the file ends in the middle of a block */
	begin();
	block(0, 0, 5, 0, 0);
	block(0, 5, 5, 0, 0);
	end();
	fd = open(path, O_RDWR);
	size = lseek(fd, 0, SEEK_END);
	check_int(ftruncate(fd, size - 100), ==, 0);
	close(fd);
	check_int(check_quietly(path, msg, sizeof(msg)), ==, 1);
	check(msg[0] != '\0');
}

int main(void)
{
	int fd = mkstemp(path);

	close(fd);
	TEST(test_clean(), "a clean recording checks clean (gaps, reset, channel gone)");
	TEST(test_problems(), "duplicated, out of place, unaccounted, time back: counted, exit 1");
	TEST(test_reset_numbers_from_zero(), "after a reset the numbering starts at 0");
	TEST(test_v1_has_no_identity(), "a format 1 recording: no identity to check, exit 2");
	TEST(test_exit_status(), "exit 2 for no file or not a recording, 1 for a damaged one");
	unlink(path);
	return test_done();
}

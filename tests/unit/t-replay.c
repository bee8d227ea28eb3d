// SPDX-License-Identifier: GPL-2.0
/*
 * t-replay.c - pins `relaytop --replay` in batch mode (relaytop/top.c over
 * relaytop/replay_source.c):
 * the recording's own clock drives the intervals, so the rates printed
 * are the rates recorded (CPU 0 at 1000/s, CPU 1 at 500/s here), drops and
 * losses appear in the interval they happened in, a reset starts a CPU's
 * counts over, -n limits the intervals, and a damaged recording is shown
 * up to the damage and then reported with exit status 1; Left and Right
 * (< and >) move it 10 s (60 s) back and on, counting what it would have
 * counted coming there at its pace, and --speed X shows X times the
 * interval a tick.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_merge.h"
#include "record_writer.h"
#include "synth-recording.h"
#include "controller.h"
#include "top.h"
#include "util.h"
#include "test-lib.h"
#include "test-util.h"

#define MS 1000000ull
#define T0 (100 * 1000 * MS)

static char path[] = "/tmp/t-replay.XXXXXX";

static void chunk(struct recorder *rec, unsigned int cpu, uint64_t first_ts,
		  uint64_t step, unsigned int n, uint64_t dropped, uint64_t lost)
{
	struct sched_relay_record *r = calloc(n, sizeof(*r));
	struct subbuf_chunk c = {
		.cpu = cpu, .nrec = n, .recs = r, .dropped = dropped,
		.lost = lost, .generation = 1,
	};

	for (unsigned int i = 0; i < n; i++) {
		r[i].ts = first_ts + i * step;
		r[i].type = (uint8_t)(i % 2);
		r[i].event_seq = (uint32_t)i;
	}
	recorder_stage(rec, &c);
	recorder_settle(rec, true);
	free(r);
}

/* 3 s of recording: CPU 0 at 1000/s; CPU 1 at 500/s with 40 dropped
 * before its second second and 25 lost before its third. */
static void make_recording(void)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 2,
		.geom = { 65536, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct recorder *rec;
	int fd = mkstemp(path);

	close(fd);
	rec = recorder_create(path, &meta);
	recorder_track_cpu(rec, 0, 0, 0, true);
	recorder_track_cpu(rec, 1, 0, 0, true);
	for (int s = 0; s < 3; s++) {
		chunk(rec, 0, T0 + s * 1000 * MS, MS, 1000, 0, 0);
		chunk(rec, 1, T0 + s * 1000 * MS, 2 * MS, 500, s >= 1 ? 40 : 0,
		      s >= 2 ? 25 : 0);
	}
	if (recorder_finish(rec))
		exit(2);
	recorder_free(rec);
}

static int run_replay(const void *arg)
{
	return top_run(arg);
}

/* Run top_run() (a replay) with stdout and stderr captured. */
static int replay(const char *file, unsigned long count, char **out,
		  char **err)
{
	struct options o = { .replay = file, .interval = 1, .batch = true,
			     .count = count };

	return run_captured(run_replay, &o, out, NULL, err);
}

/* The CPU line of cpu in the n-th block: events/s, dropped, lost. */
static bool cpu_line(const char *text, int block, const char *cpu,
		     unsigned long long *ev, unsigned long long *dr,
		     unsigned long long *lost)
{
	const char *p = text;
	char want[16];

	for (int b = 0; b <= block; b++) {
		p = strstr(p, "# relaytop ");
		if (!p)
			return false;
		p++;
	}
	snprintf(want, sizeof(want), "\n%s ", cpu);
	p = strstr(p, want);
	return p && sscanf(p + strlen(want), "%llu %*u %llu %*u %llu", ev, dr,
			   lost) == 3;
}

static void test_rates_as_recorded(void)
{
	char *out, *err;
	unsigned long long ev, dr, lost;
	int status = replay(path, 0, &out, &err);

	check_int(status, ==, 0);
	check_str(err, "");
	check(cpu_line(out, 0, "0", &ev, &dr, &lost));
	check_uint(ev, ==, 1000);
	check(cpu_line(out, 0, "1", &ev, &dr, &lost));
	check_uint(ev, ==, 500);
	check_uint(dr, ==, 0);
	check(cpu_line(out, 1, "1", &ev, &dr, &lost));
	check_uint(dr, ==, 40);
	check_uint(lost, ==, 0);
	check(cpu_line(out, 2, "1", &ev, &dr, &lost));
	check_uint(lost, ==, 25);
	check(cpu_line(out, 2, "all", &ev, &dr, &lost));
	check_uint(ev, ==, 1500);
	check(strstr(out, "the end of the recording") != NULL);
	if (test_failed())
		test_msg("output:\n%s", out);
	free(out);
	free(err);
}

static void test_count_limits(void)
{
	char *out, *err, *p;
	int blocks = 0, status = replay(path, 2, &out, &err);

	check_int(status, ==, 0);
	for (p = out; (p = strstr(p, "# relaytop ")); p++)
		blocks++;
	check_int(blocks, ==, 2);
	free(out);
	free(err);
}

static void test_damaged(void)
{
	char *out, *err;
	FILE *f = fopen(path, "r");
	long size;
	int status;

	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	if (truncate(path, size - 40))
		return;
	status = replay(path, 0, &out, &err);
	check_int(status, ==, 1);
	check(strstr(out, "# relaytop ") != NULL);	/* shown up to it */
	check(strstr(err, "truncated") != NULL);
	free(out);
	free(err);
	if (truncate(path, 3))
		return;
	status = replay(path, 0, &out, &err);
	check_int(status, ==, 1);
	check(strstr(err, "not a relaytop recording") != NULL);
	check_str(out, "");
	free(out);
	free(err);
}

/*
 * A recording whose last record's time is near 2^64 (as one flipped bit
 * in a format 3 record's timestamp leaves it, which no CRC covers): the
 * replay ends, in a few blocks, with every record shown.  Before, the
 * interval's end overflowed past 2^64 and the replay stepped through
 * the 584 years an interval at a time, printing a block each: it never
 * ended (the child was still running at the time bound).  Run in a child
 * so that a hang fails the test instead of hanging it.
 */
static void test_time_near_the_end(void)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 1,
		.geom = { 65536, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	char far[] = "/tmp/t-replay-far.XXXXXX";
	struct recorder *rec;
	int fd = mkstemp(far), st = -1, wfd[2];
	uint64_t end;
	pid_t p;

	close(fd);
	rec = recorder_create(far, &meta);
	recorder_track_cpu(rec, 0, 0, 0, true);
	chunk(rec, 0, T0, MS, 3, 0, 0);
	chunk(rec, 0, UINT64_MAX - 5, 1, 1, 0, 0);
	chunk(rec, 0, UINT64_MAX, 1, 1, 0, 0);
	if (!check_int(recorder_finish(rec), ==, 0))
		return;
	recorder_free(rec);
	if (!check_int(pipe(wfd), ==, 0))
		return;
	p = fork();
	if (p == 0) {
		char *out, *err, *q;
		int blocks = 0, status = replay(far, 0, &out, &err);
		unsigned long long all = 0;

		/* the records of each block: its event mix (counts) */
		for (q = out; (q = strstr(q, "\n0 ")); q++) {
			unsigned long long mix[SCHED_RELAY_NR_EVENTS];

			if (sscanf(q, "%*u %*u %*u %*u %*u %*u %*u %llu %llu "
				   "%llu %llu %llu %llu %llu", &mix[0], &mix[1],
				   &mix[2], &mix[3], &mix[4], &mix[5],
				   &mix[6]) == 7)
				for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
					all += mix[t];
		}
		for (q = out; (q = strstr(q, "# relaytop ")); q++)
			blocks++;
		dprintf(wfd[1], "%d %d %llu\n", status, blocks, all);
		_exit(0);
	}
	close(wfd[1]);
	/* the child says how it went, or is still at it at the bound */
	end = mono_ns() + 20 * 1000 * MS;
	while (mono_ns() < end && waitpid(p, &st, WNOHANG) != p)
		usleep(10000);
	if (!check(WIFEXITED(st))) {
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		test_msg("the replay was still running after 20 s");
	} else {
		char line[64] = "";
		int status = -1, blocks = -1;
		unsigned long long all = 0;
		ssize_t n = read(wfd[0], line, sizeof(line) - 1);

		line[n > 0 ? n : 0] = '\0';
		check_int(sscanf(line, "%d %d %llu", &status, &blocks, &all),
			  ==, 3);
		check_int(status, ==, 0);
		check_int(blocks, <=, 4);
		check_uint(all, ==, 5);
	}
	close(wfd[0]);
	unlink(far);
}

/* Seconds of the recording shown, and its records counted so far. */
static void at(const struct top *t, unsigned int secs, uint64_t events)
{
	check_uint((t->tally.st.tick_ns - t->tally.st.start_ns) / (1000 * MS),
		   ==, secs);
	check_uint(t->tally.st.cpu[0].events, ==, events);
}

/*
 * Left and Right move a replay 10 s back and on, < and > a minute; what
 * it counts is what a replay that came there at its pace counts (back:
 * read again from the start, not the counts of the later time); a live
 * channel refuses.  --speed X: a tick shows X times the interval.
 */
static void test_seek_and_speed(void)
{
	char file[] = "/tmp/t-replay-minute.XXXXXX";
	struct options o = { .interval = 1, .speed = 1 };
	struct top t;
	int fd = mkstemp(file);

	close(fd);
	synth_write_paced(file, 1, 60);
	o.replay = file;
	if (!check_int(top_start_replay(&t, &o, OUT_NONE), ==, 0))
		return;
	for (int i = 0; i < 3; i++)
		top_tick(&t);
	at(&t, 3, 30);
	check(top_key(&t, KEY_CODE_RIGHT) & REACT_REDRAW);
	at(&t, 13, 130);
	check(strstr(t.app.status, "at 0:13 of the recording") != NULL);
	top_tick(&t);
	at(&t, 14, 140);
	top_key(&t, KEY_CODE_LEFT);
	at(&t, 4, 40);
	top_key(&t, '<');		/* not before the start */
	at(&t, 0, 0);
	top_key(&t, '>');
	at(&t, 60, 600);
	top_free(&t);

	o.speed = 10;
	if (!check_int(top_start_replay(&t, &o, OUT_NONE), ==, 0))
		return;
	top_tick(&t);
	at(&t, 10, 100);
	top_free(&t);
	unlink(file);
}

int main(void)
{
	make_recording();
	TEST(test_rates_as_recorded(), "the recording's clock drives the rates; drops and losses in their interval");
	TEST(test_time_near_the_end(), "a timestamp near 2^64: the replay ends, every record shown");
	TEST(test_count_limits(), "-n limits the intervals");
	TEST(test_damaged(), "a damaged recording: shown up to the damage, then status 1");
	TEST(test_seek_and_speed(), "Left, Right, < and > move a replay as if it came there; --speed");
	unlink(path);
	return test_done();
}

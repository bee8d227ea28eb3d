// SPDX-License-Identifier: GPL-2.0
/*
 * t-dump.c - pins `relaytop --dump` (relaytop/dump.c): prev_state reads as
 * the sched_switch tracepoint prints it (R, S, D, ..., I, R+ from the
 * enum), prio 255 as -1;
 * each event type's fields are named and formatted as the kernel's own
 * TP_printk; a line is "comm-pid (tgid) [cpu] secs.nanos: tracepoint:
 * fields", tgid "-------" when unknown;
 * the task column follows sched_switch's next and is "<...>" when unknown;
 * drops and losses show as "CPU:N [n EVENTS DROPPED|LOST...]" lines at
 * their place; a reset is shown; the summary counts per CPU; a bad file
 * prints what it can, then an error, and exits 1; a format 1 recording
 * still dumps; a timestamp going back is marked and reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "ftrace_text.h"
#include "fields.h"
#include "record_merge.h"
#include "record_writer.h"
#include "synth-record.h"
#include "test-lib.h"
#include "util.h"
#include "v1-recording.h"

static void test_prev_state(void)
{
	static const char *const want[] = {
		"R", "S", "D", "T", "t", "X", "Z", "P", "I", "R+",
	};

	for (uint8_t st = 0; st < SCHED_RELAY_NR_STATES; st++)
		check_str(fields_state_letters(st), want[st]);
	check_str(fields_state_letters(SCHED_RELAY_NR_STATES), "?");
	/* the kernel's prev_state values, for the exports */
	check_uint(fields_state_bits(SCHED_RELAY_STATE_RUNNING), ==, 0);
	check_uint(fields_state_bits(SCHED_RELAY_STATE_SLEEPING), ==, 0x1);
	check_uint(fields_state_bits(SCHED_RELAY_STATE_DISK), ==, 0x2);
	check_uint(fields_state_bits(SCHED_RELAY_STATE_IDLE), ==, 0x80);
	check_uint(fields_state_bits(SCHED_RELAY_STATE_PREEMPTED), ==, 0x100);
	check_int(fields_prio(SCHED_RELAY_PRIO_DEADLINE), ==, -1);
	check_int(fields_prio(139), ==, 139);
}

static struct sched_relay_record rec(uint8_t type, int32_t pid,
				     const char *comm, int32_t pid2,
				     const char *comm2)
{
	struct sched_relay_record r = synth_record(0, type, pid, comm);

	if (type == SCHED_RELAY_SWITCH || type == SCHED_RELAY_FORK) {
		synth_record_task2(&r, pid2, 100, comm2);
	} else {
		r.pid2 = pid2;
		r.target_cpu = 3;
		r.orig_cpu = 1;
	}
	return r;
}

static void test_fields(void)
{
	char b[256];
	struct sched_relay_record r;

	r = rec(SCHED_RELAY_SWITCH, 10, "loadgen", 0, "swapper/1");
	r.state = SCHED_RELAY_STATE_SLEEPING;
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "prev_comm=loadgen prev_pid=10 prev_prio=120 prev_state=S"
		  " ==> next_comm=swapper/1 next_pid=0 next_prio=100");
	/* preempted, and a deadline task's prio (255 in the record) */
	r.state = SCHED_RELAY_STATE_PREEMPTED;
	r.prio = SCHED_RELAY_PRIO_DEADLINE;
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "prev_comm=loadgen prev_pid=10 prev_prio=-1 prev_state=R+"
		  " ==> next_comm=swapper/1 next_pid=0 next_prio=100");
	r = rec(SCHED_RELAY_WAKING, 9, "sh", 0, "");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=sh pid=9 prio=120 target_cpu=003");
	r = rec(SCHED_RELAY_WAKEUP, 11, "kworker/0:1", 0, "");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=kworker/0:1 pid=11 prio=120 target_cpu=003");
	r = rec(SCHED_RELAY_WAKEUP_NEW, 12, "sh", 0, "");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=sh pid=12 prio=120 target_cpu=003");
	r = rec(SCHED_RELAY_MIGRATE, 13, "loadgen", 0, "");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=loadgen pid=13 prio=120 orig_cpu=1 dest_cpu=3");
	r = rec(SCHED_RELAY_FORK, 14, "sh", 15, "sh");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=sh pid=14 child_comm=sh child_pid=15");
	r = rec(SCHED_RELAY_EXIT, 15, "true", 0, "");
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=true pid=15 prio=120");
	/* a comm of all 16 bytes, no NUL: printed, not overrun */
	memset(r.comm, 'a', sizeof(r.comm));
	ftrace_fields(&r, true, b, sizeof(b));
	check_str(b, "comm=aaaaaaaaaaaaaaaa pid=15 prio=120");
}

/* Write a recording of the given records on CPU 1 with drops before the
 * third, a reset, and a loss. */
static void make_recording(const char *path)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 2,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct recorder *rec_ = recorder_create(path, &meta);
	struct sched_relay_record r[3];
	struct subbuf_chunk c = { .cpu = 1, .generation = 1 };

	r[0] = rec(SCHED_RELAY_WAKEUP, 20, "b", 0, "");
	r[0].ts = 5000000001ull;
	r[1] = rec(SCHED_RELAY_SWITCH, 21, "a", 20, "b");
	r[1].ts = 5000000002ull;
	r[2] = rec(SCHED_RELAY_WAKEUP, 22, "c", 0, "");
	r[2].ts = 5000000003ull;
	for (int i = 0; i < 3; i++)
		r[i].event_seq = (uint32_t)i;
	recorder_track_cpu(rec_, 1, 0, 0, true);
	c.recs = r;
	c.nrec = 3;
	recorder_stage(rec_, &c);
	recorder_settle(rec_, true);
	c.seq = 1;
	c.dropped = 4;		/* 4 dropped before the next chunk */
	c.recs = r + 2;
	c.nrec = 1;
	r[2].ts = 6000000000ull;
	recorder_stage(rec_, &c);
	recorder_settle(rec_, true);
	recorder_restart(rec_, 1, 2, 0);
	c.seq = 0;
	c.generation = 2;
	c.dropped = 0;
	c.lost = 7;		/* the reader lost 7 in the new sequence */
	r[2].ts = 7000000000ull;
	recorder_stage(rec_, &c);
	recorder_settle(rec_, true);
	if (recorder_finish(rec_))
		exit(2);
	recorder_free(rec_);
}

static char errors[1024];	/* what the last dump said on stderr */

static char *dump_to_string(const char *path, int *status)
{
	char *text = NULL, tmp[] = "/tmp/t-dump-err.XXXXXX";
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int fd = mkstemp(tmp), saved = dup(STDERR_FILENO);
	ssize_t n;

	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	*status = dump_recording(path, out);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, errors, sizeof(errors) - 1, 0);
	errors[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(tmp);
	fclose(out);
	return text;
}

static void test_dump_lines(void)
{
	char path[] = "/tmp/t-dump.XXXXXX";
	int fd = mkstemp(path), status;
	char *text;

	close(fd);
	make_recording(path);
	text = dump_to_string(path, &status);
	check_int(status, ==, 0);
	/* the waker is unknown before the first switch on the CPU */
	check(strstr(text, "           <...>-?       (-------) [001]     "
		     "5.000000001: sched_wakeup: comm=b pid=20 prio=120 "
		     "target_cpu=003\n") != NULL);
	check(strstr(text, "               a-21      (     21) [001]     "
		     "5.000000002: sched_switch: prev_comm=a prev_pid=21") != NULL);
	/* after the switch, b runs on CPU 1 and does the wakeup */
	check(strstr(text, "               b-20      (     20) [001]     "
		     "5.000000003: sched_wakeup: comm=c pid=22") != NULL);
	check(strstr(text, "CPU:1 [4 EVENTS DROPPED]\n"
		     "           <...>-?       (-------) [001]     6.000000000:")
	      != NULL);
	check(strstr(text, "CPU:1 [CHANNEL RESET: generation 2]\n") != NULL);
	check(strstr(text, "CPU:1 [7 EVENTS LOST: overwritten before relaytop "
		     "read them]\n") != NULL);
	check(strstr(text, "#    1            5            4            7\n")
	      != NULL);
	check(strstr(text, "# relaytop recording (format 3): "
		     "/sys/kernel/sched_relay, cpus=2\n") == text);
	/* time goes forward on every CPU here: nothing says otherwise */
	check(strstr(text, "TIME GOES BACK") == NULL);
	check(strstr(errors, "earlier than the one before") == NULL);
	if (test_failed())
		test_msg("dump:\n%s", text);
	free(text);
	unlink(path);
}

static void test_dump_bad_file(void)
{
	char path[] = "/tmp/t-dump.XXXXXX";
	int fd = mkstemp(path), status;
	char *text;
	long size;
	FILE *f;

	close(fd);
	make_recording(path);
	f = fopen(path, "r+");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	/* cut the end block and a bit more */
	if (truncate(path, size - 100))
		return;
	fflush(stderr);
	text = dump_to_string(path, &status);
	check_int(status, ==, 1);
	check(strstr(text, "sched_switch") != NULL);	/* the valid part */
	check(strstr(errors, "relaytop: ") == errors);
	check(strstr(errors, ": truncated at byte ") != NULL);
	free(text);
	if (truncate(path, 10))
		return;
	text = dump_to_string(path, &status);
	check_int(status, ==, 1);
	check(strstr(errors, "truncated: the file header is 10 of 128 bytes")
	      != NULL);
	free(text);
	unlink(path);
}

/* A recording of format 1 (version 1 records, as relaytop wrote before
 * format 2) still dumps, the same lines but for the tgids, which it did
 * not record. */
static void test_dump_v1(void)
{
	char path[] = "/tmp/t-dump.XXXXXX";
	int fd = mkstemp(path), status;
	char *text;

	close(fd);
	make_recording(path);
	v1_rewrite_recording(path);
	text = dump_to_string(path, &status);
	check_int(status, ==, 0);
	check(strstr(text, "# relaytop recording (format 1): ") == text);
	check(strstr(text, "               a-21      (-------) [001]     "
		     "5.000000002: sched_switch: prev_comm=a prev_pid=21 "
		     "prev_prio=120 prev_state=R ==> next_comm=b next_pid=20 "
		     "next_prio=100\n") != NULL);
	check(strstr(text, "               b-20      (-------) [001]     "
		     "5.000000003: sched_wakeup: comm=c pid=22 prio=120 "
		     "target_cpu=003\n") != NULL);
	check(strstr(text, "#    1            5            4            7\n")
	      != NULL);
	if (test_failed())
		test_msg("dump:\n%s\nstderr: %s", text, errors);
	free(text);
	unlink(path);
}

/* A damaged recording whose time goes back: shown, said, not hidden. */
static void test_dump_time_back(void)
{
	struct record_meta meta = {
		.channel = "c", .nr_cpus = 1, .geom = { 4096, 8 },
		.events = SCHED_RELAY_ALL_EVENTS, .generation = 1,
	};
	char path[] = "/tmp/t-dump.XXXXXX";
	int fd = mkstemp(path), status;
	struct recorder *w;
	struct sched_relay_record r[2];
	struct subbuf_chunk c = { .cpu = 0, .generation = 1, .nrec = 2,
				  .offset = 64, .recs = r };
	char *text;

	close(fd);
	w = recorder_create(path, &meta);
	r[0] = rec(SCHED_RELAY_EXIT, 1, "a", 0, "");
	r[1] = r[0];
	r[0].ts = 3000000000ull;
	r[1].ts = 1000000000ull;	/* 2 s before the one before */
	recorder_track_cpu(w, 0, 0, 0, true);
	recorder_stage(w, &c);
	recorder_settle(w, true);
	check_int(recorder_finish(w), ==, 0);
	recorder_free(w);
	text = dump_to_string(path, &status);
	check_int(status, ==, 0);
	/* the note comes right before the record that goes back, which is
	 * shown with its own time, after the one at 3 s */
	check(strstr(text, "3.000000000: sched_process_exit: comm=a pid=1 "
		     "prio=120\n"
		     "CPU:0 [TIME GOES BACK 2.000000000 s HERE]\n") != NULL);
	check(strstr(text, " s HERE]\n               a-1       (      1) "
		     "[000]     1.000000000: sched_process_exit:") != NULL);
	check(strstr(errors, "CPU 0: 1 records have a timestamp earlier") != NULL);
	if (test_failed())
		test_msg("dump:\n%s\nstderr: %s", text, errors);
	free(text);
	unlink(path);
}

int main(void)
{
	TEST(test_prev_state(), "prev_state reads as sched_switch prints it");
	TEST(test_fields(), "every event's fields as the kernel names them");
	TEST(test_dump_lines(), "dump lines, task column, drop/loss/reset markers, summary");
	TEST(test_dump_bad_file(), "a damaged file: the valid part, then exit status 1");
	TEST(test_dump_v1(), "a format 1 recording dumps: version 1 records converted");
	TEST(test_dump_time_back(), "time going back is shown where and said on stderr");
	return test_done();
}

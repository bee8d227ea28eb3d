// SPDX-License-Identifier: GPL-2.0
/*
 * t-batch.c - pins the batch output (relaytop/batch.c) that scripts read:
 * a '#' line with the interval and the channel's state, a column header,
 * one line per present CPU in sort order with plain numbers (rates,
 * drops, losses, fill percent, per-type counts, the pid running now),
 * an "all" line, a blank line; the status line only in the block after
 * it changed (a reset is said once); with --tasks and --latency the
 * tasks and latency tables of the figures, and since the start in the
 * final block; and a recording's closing summary per CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "test-lib.h"

#define SEC 1000000000ull

static char *capture_block(const struct view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	batch_print(f, v);
	fclose(f);
	return text;
}

static void test_block(void)
{
	struct stats st;
	struct view v = { 0 };
	uint32_t mix[SCHED_RELAY_NR_EVENTS] = { 10, 20, 0, 0, 0, 0 };
	char *text, *line, *save = NULL;
	int lines = 0, cpu_lines = 0;
	bool saw_all = false;

	stats_init(&st, 3, 0);
	stats_cpu_present(&st, 0, true);
	stats_cpu_present(&st, 2, true);	/* CPU 1 has no buffer */
	stats_add(&st, 0, 30, mix, 0);
	stats_add(&st, 2, 60, mix, 30);
	stats_set_dropped(&st, 2, 8);
	stats_add_lost(&st, 0, 3);
	stats_note_fill(&st, 2, 0.25);
	stats_tick(&st, 2 * SEC);
	v.st = &st;
	v.elapsed = 2;
	v.have_cfg = true;
	v.channel_ok = true;
	v.cfg.generation = 4;
	v.cfg.geom = (struct subbuf_geometry) { 65536, 8 };
	v.cfg.enabled = true;
	v.cfg.events = 3;
	v.status = "channel reset (generation 4)";
	v.status_new = true;
	text = capture_block(&v);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		unsigned long long ev, by, dr, drs, lost, fill, sw, wk;
		char name[8];

		if (lines == 0) {
			check(strstr(line, "# relaytop 2.000s interval 2.000s "
				     "generation 4 subbufs 8x65536 no-overwrite "
				     "enabled events switch,wakeup") == line);
			continue;
		}
		if (lines == 1) {
			check_str(line, "# channel reset (generation 4)");
			continue;
		}
		if (lines == 2) {
			check(strncmp(line, "cpu ", 4) == 0);
			check(strstr(line, "dropped/s") != NULL);
			continue;
		}
		if (!check(sscanf(line, "%7s %llu %llu %llu %llu %llu %llu "
				  "%llu %llu", name, &ev, &by, &dr, &drs, &lost,
				  &fill, &sw, &wk) == 9))
			continue;
		if (!strcmp(name, "0")) {
			cpu_lines++;
			check_uint(ev, ==, 15);
			check_uint(by, ==, 15 * 64);
			check_uint(lost, ==, 3);
			check_uint(sw, ==, 10);
			check_uint(wk, ==, 20);
		} else if (!strcmp(name, "2")) {
			cpu_lines++;
			check_uint(ev, ==, 30);
			check_uint(dr, ==, 8);
			check_uint(drs, ==, 4);	/* 8 in 2 s */
			check_uint(fill, ==, 25);
		} else if (!strcmp(name, "all")) {
			saw_all = true;
			check_uint(ev, ==, 45);
			check_uint(dr, ==, 8);
			check_uint(lost, ==, 3);
		} else {
			test_msg("unexpected line: %s", line);
			check(false);
		}
	}
	check_int(cpu_lines, ==, 2);
	check(saw_all);
	free(text);
	stats_free(&st);
}

/* The status once; who runs; the figures' tables. */
static void test_status_running_figures(void)
{
	struct stats st;
	struct sched_model now, fig;
	struct sched_relay_record r;
	struct view v = { 0 };
	char *text;

	stats_init(&st, 1, 0);
	stats_cpu_present(&st, 0, true);
	stats_tick(&st, SEC);
	sched_model_init(&now, 1);
	sched_model_init(&fig, 1);
	memset(&r, 0, sizeof(r));
	r.type = SCHED_RELAY_SWITCH;
	r.ts = 100;
	r.pid2 = r.tgid2 = 77;
	snprintf(r.comm2, sizeof(r.comm2), "worker");
	sched_model_record(&now, 0, &r, NULL);
	sched_model_record(&fig, 0, &r, NULL);
	sched_model_interval(&fig, SEC);
	v.st = &st;
	v.model = &now;
	v.status = "channel reset (generation 4)";
	v.status_new = false;
	text = capture_block(&v);
	check(strstr(text, "channel reset") == NULL);
	check(strstr(text, " running\n") != NULL);
	check(strstr(text, "      77\nall ") != NULL);
	check(strstr(text, "# tasks") == NULL);
	free(text);
	v.figures = &fig;
	v.filter = "-C 0";
	v.batch_tasks = v.batch_latency = true;
	v.tasks.cpu = -1;
	v.tasks.sort = TCOL_CPU;
	text = capture_block(&v);
	check(strstr(text, "# tasks the last interval -C 0\n") != NULL);
	/* switched in once, ran from 100 ns to the interval's end */
	check(strstr(text, "\n77             1        1.0        0.0        0.0   0.0  100.0    0 ") != NULL);
	check(strstr(text, "worker\n") != NULL);
	check(strstr(text, "# wakeup latency interval 1.000s: sched_waking or "
		     "sched_wakeup to switch-in -C 0\nwake ") != NULL);
	check(strstr(text, "# run-queue latency interval 1.000s: wakeup or "
		     "preemption (prev_state R, R+) to switch-in, as runqlat "
		     "and perf sched latency count it -C 0\nrunq ") != NULL);
	check(strstr(text, "\nall           0        0 ") != NULL);
	free(text);
	v.final = true;
	text = capture_block(&v);
	check(strstr(text, "interval 1.000s final") != NULL);
	check(strstr(text, "# tasks since the start -C 0\n") != NULL);
	check(strstr(text, "# wakeup latency since the start: sched_waking") != NULL);
	check(strstr(text, "# run-queue latency since the start: wakeup or") != NULL);
	if (test_failed())
		test_msg("block:\n%s", text);
	free(text);
	sched_model_free(&now);
	sched_model_free(&fig);
	stats_free(&st);
}

static void test_record_summary(void)
{
	struct recorder rec = { 0 };
	struct recorder_cpu cpu[2] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	rec.path = "r.bin";
	rec.file_bytes = 4096;
	rec.ncpus = 2;
	rec.cpu = cpu;
	cpu[1].tracked = true;
	cpu[1].records = 100;
	cpu[1].raw_last = 5;	/* 5 dropped */
	cpu[1].lost_last = 2;	/* 2 lost */
	batch_print_record_summary(f, &rec);
	fclose(f);
	check(strstr(text, "r.bin: 4096 bytes\n") == text);
	check(strstr(text, "\n1             100            5            2\n")
	      != NULL);
	check(strstr(text, "\nall           100            5            2\n")
	      != NULL);
	check(strstr(text, "\n0 ") == NULL);	/* untracked CPU not shown */
	if (test_failed())
		test_msg("summary:\n%s", text);
	free(text);
}

int main(void)
{
	TEST(test_status_running_figures(), "the status once, who runs, the tasks and latency tables");
	TEST(test_block(), "a batch block: state line, header, CPU lines, all line");
	TEST(test_record_summary(), "a recording's summary: events, dropped, lost per CPU");
	return test_done();
}

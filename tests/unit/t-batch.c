// SPDX-License-Identifier: GPL-2.0
/*
 * t-batch.c - pins the batch output (relaytop/batch.c) that scripts read:
 * a '#' line with the interval and the channel's state, a column header,
 * one line per present CPU in sort order with plain numbers (rates,
 * drops, losses, fill percent, per-type counts), an "all" line, a blank
 * line; and a recording's closing summary per CPU.
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
	TEST(test_block(), "a batch block: state line, header, CPU lines, all line");
	TEST(test_record_summary(), "a recording's summary: events, dropped, lost per CPU");
	return test_done();
}

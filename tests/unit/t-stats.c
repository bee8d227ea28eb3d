// SPDX-License-Identifier: GPL-2.0
/*
 * t-stats.c - pins the rate and drop math (relaytop/stats.c): rates are
 * counts over the interval's real length; drops per second come from the
 * producer's growing count, and a smaller count (a reset) starts over
 * instead of going negative; fill is the interval's worst; the total row
 * sums the CPUs (fill: the worst); history keeps the last rates; clearing
 * a CPU zeroes it; sorting orders by the key, then by CPU; the sparkline
 * scales to the top level and shows any non-zero rate; a copy of the
 * statistics does not change with them.
 */
#include <string.h>

#include "stats.h"
#include "test-lib.h"

#define SEC 1000000000ull

static const uint32_t mix_sw[SCHED_RELAY_NR_EVENTS] = { 3, 1, 0, 0, 0, 0 };

static void test_rates(void)
{
	struct stats st;

	stats_init(&st, 2, 10 * SEC);
	stats_cpu_present(&st, 0, true);
	stats_cpu_present(&st, 1, true);
	stats_add(&st, 0, 4, mix_sw, 0);
	stats_add(&st, 0, 4, mix_sw, 0);
	stats_add(&st, 1, 1000, (uint32_t[SCHED_RELAY_NR_EVENTS]) { 0 }, 1000);
	stats_tick(&st, 12 * SEC);	/* a 2 s interval */
	check_int((int)st.cpu[0].events_rate, ==, 4);
	check_int((int)st.cpu[0].bytes_rate, ==, 4 * 64);
	check_int((int)st.cpu[1].events_rate, ==, 500);
	check_uint(st.cpu[0].mix[SCHED_RELAY_SWITCH], ==, 6);
	check_uint(st.cpu[0].mix[SCHED_RELAY_WAKEUP], ==, 2);
	check_uint(st.cpu[1].mix_other, ==, 1000);
	check_uint(st.cpu[0].events, ==, 8);
	check_int((int)st.total.events_rate, ==, 504);
	check_uint(st.total.events, ==, 1008);
	check_int((int)(st.interval * 1000), ==, 2000);
	/* the next interval starts from zero; 0.5 s long */
	stats_add(&st, 0, 1, mix_sw, 0);
	stats_tick(&st, 12 * SEC + SEC / 2);
	check_int((int)st.cpu[0].events_rate, ==, 2);
	check_int((int)st.cpu[1].events_rate, ==, 0);
	check_uint(st.cpu[0].events, ==, 9);
	stats_free(&st);
}

static void test_drops(void)
{
	struct stats st;

	stats_init(&st, 1, 0);
	stats_cpu_present(&st, 0, true);
	stats_set_dropped(&st, 0, 100);
	stats_tick(&st, SEC);
	check_int((int)st.cpu[0].dropped_rate, ==, 100);
	stats_set_dropped(&st, 0, 150);
	stats_set_dropped(&st, 0, 160);
	stats_tick(&st, 3 * SEC);
	check_int((int)st.cpu[0].dropped_rate, ==, 30);	/* 60 in 2 s */
	check_uint(st.cpu[0].dropped, ==, 160);
	/* a reset nobody told us of: the count starts over, not negative */
	stats_set_dropped(&st, 0, 10);
	stats_tick(&st, 4 * SEC);
	check_int((int)st.cpu[0].dropped_rate, ==, 10);
	stats_tick(&st, 5 * SEC);
	check_int((int)st.cpu[0].dropped_rate, ==, 0);
	stats_add_lost(&st, 0, 7);
	stats_tick(&st, 6 * SEC);
	check_int((int)st.cpu[0].lost_rate, ==, 7);
	check_uint(st.cpu[0].lost, ==, 7);
	check_uint(st.total.lost, ==, 7);
	check_uint(st.total.dropped, ==, 10);
	stats_free(&st);
}

static void test_fill_and_total(void)
{
	struct stats st;

	stats_init(&st, 3, 0);
	for (unsigned int c = 0; c < 3; c++)
		stats_cpu_present(&st, c, true);
	stats_note_fill(&st, 0, 0.2);
	stats_note_fill(&st, 0, 0.7);
	stats_note_fill(&st, 0, 0.1);
	stats_note_fill(&st, 1, 1.5);	/* clamped */
	stats_tick(&st, SEC);
	check_int((int)(st.cpu[0].fill * 100 + 0.5), ==, 70);
	check_int((int)(st.cpu[1].fill * 100), ==, 100);
	check_int((int)(st.total.fill * 100), ==, 100);
	stats_tick(&st, 2 * SEC);
	check_int((int)(st.cpu[0].fill * 100), ==, 0);	/* per interval */
	stats_free(&st);
}

static void test_absent_cpu_not_counted(void)
{
	struct stats st;

	stats_init(&st, 2, 0);
	stats_cpu_present(&st, 0, true);
	stats_add(&st, 1, 50, mix_sw, 0);	/* CPU 1 has no buffer */
	stats_add(&st, 0, 5, mix_sw, 0);
	stats_tick(&st, SEC);
	check_uint(st.total.events, ==, 5);
	check_uint(st.cpu[1].history_len, ==, 0);
	/* a CPU appearing later grows the table */
	stats_cpu_present(&st, 5, true);
	check_uint(st.ncpus, ==, 6);
	stats_free(&st);
}

static void test_history(void)
{
	struct stats st;

	stats_init(&st, 1, 0);
	stats_cpu_present(&st, 0, true);
	for (unsigned int i = 1; i <= STATS_HISTORY + 10; i++) {
		stats_add(&st, 0, i, mix_sw, 0);
		stats_tick(&st, (uint64_t)i * SEC);
	}
	check_uint(st.cpu[0].history_len, ==, STATS_HISTORY);
	check_int((int)st.cpu[0].history[STATS_HISTORY - 1], ==,
		  STATS_HISTORY + 10);
	check_int((int)st.cpu[0].history[0], ==, 11);
	check_uint(st.total.history_len, ==, STATS_HISTORY);
	check_int((int)stats_cpu_history_max(&st.cpu[0], 5), ==, STATS_HISTORY + 10);
	check_int((int)stats_history_max(&st, 5), ==, STATS_HISTORY + 10);
	stats_free(&st);
}

static void test_clear(void)
{
	struct stats st;

	stats_init(&st, 1, 0);
	stats_cpu_present(&st, 0, true);
	stats_add(&st, 0, 5, mix_sw, 0);
	stats_set_dropped(&st, 0, 3);
	stats_add_lost(&st, 0, 2);
	stats_tick(&st, SEC);
	stats_clear_cpu(&st, 0);
	check_uint(st.cpu[0].events, ==, 0);
	check_uint(st.cpu[0].dropped, ==, 0);
	check_uint(st.cpu[0].lost, ==, 0);
	check_uint(st.cpu[0].history_len, ==, 0);
	check(st.cpu[0].present);
	stats_tick(&st, 2 * SEC);
	check_int((int)st.cpu[0].dropped_rate, ==, 0);
	stats_free(&st);
}

static void test_order(void)
{
	struct stats st;
	unsigned int order[4], n;

	stats_init(&st, 4, 0);
	for (unsigned int c = 0; c < 4; c++)
		stats_cpu_present(&st, c, c != 2);
	stats_add(&st, 0, 10, mix_sw, 0);
	stats_add(&st, 1, 30, mix_sw, 0);
	stats_add(&st, 3, 30, mix_sw, 0);
	stats_set_dropped(&st, 0, 9);
	stats_note_fill(&st, 3, 0.5);
	stats_tick(&st, SEC);
	n = stats_order(&st, SORT_CPU, order);
	check_uint(n, ==, 3);
	check_uint(order[0], ==, 0);
	check_uint(order[1], ==, 1);
	check_uint(order[2], ==, 3);
	stats_order(&st, SORT_EVENTS, order);
	check_uint(order[0], ==, 1);	/* tie: lower CPU first */
	check_uint(order[1], ==, 3);
	check_uint(order[2], ==, 0);
	stats_order(&st, SORT_DROPS, order);
	check_uint(order[0], ==, 0);
	stats_order(&st, SORT_FILL, order);
	check_uint(order[0], ==, 3);
	check_str(stats_sort_name(SORT_FILL), "fill");
	stats_free(&st);
}

static void test_sparkline(void)
{
	struct cpu_stats c;
	unsigned char lv[6];
	unsigned int have;

	memset(&c, 0, sizeof(c));
	c.history[0] = 0;
	c.history[1] = 1;	/* tiny but not zero: the lowest bar */
	c.history[2] = 50;
	c.history[3] = 100;
	c.history[4] = 400;	/* above the scale: the top */
	c.history_len = 5;
	have = stats_sparkline(&c, 100, 6, 9, lv);
	check_uint(have, ==, 5);
	check_uint(lv[0], ==, 0);	/* no sample */
	check_uint(lv[1], ==, 0);	/* zero */
	check_uint(lv[2], ==, 1);
	check_uint(lv[3], ==, 4);
	check_uint(lv[4], ==, 8);
	check_uint(lv[5], ==, 8);
	have = stats_sparkline(&c, 0, 2, 9, lv);	/* no scale: flat */
	check_uint(have, ==, 2);
	check_uint(lv[0], ==, 1);
}

static void test_copy(void)
{
	struct stats a, b = { 0 };
	uint32_t mix[SCHED_RELAY_NR_EVENTS] = { 3 };

	stats_init(&a, 2, 0);
	stats_cpu_present(&a, 0, true);
	stats_add(&a, 0, 3, mix, 0);
	stats_tick(&a, 1000000000);
	stats_copy(&b, &a);
	check_uint(b.ncpus, ==, 2);
	check_uint(b.cpu[0].events, ==, 3);
	check(b.cpu != a.cpu);
	stats_add(&a, 0, 5, mix, 0);
	stats_tick(&a, 2000000000);
	check_uint(b.cpu[0].events, ==, 3);	/* a copy, not a view */
	stats_copy(&b, &a);			/* into one already used */
	check_uint(b.cpu[0].events, ==, 8);
	stats_free(&a);
	stats_free(&b);
}

int main(void)
{
	TEST(test_rates(), "rates are counts over the interval's real length");
	TEST(test_drops(), "drop rates from the producer's count; a reset starts over");
	TEST(test_fill_and_total(), "fill is the interval's worst; the total takes the worst CPU");
	TEST(test_absent_cpu_not_counted(), "CPUs without a buffer are not counted");
	TEST(test_history(), "history keeps the last rates, oldest dropped");
	TEST(test_clear(), "a reset CPU starts from zero");
	TEST(test_order(), "sorting by key, then by CPU number");
	TEST(test_sparkline(), "sparkline levels: scaled, clipped, non-zero shows");
	TEST(test_copy(), "a copy of the statistics is independent of them");
	return test_done();
}

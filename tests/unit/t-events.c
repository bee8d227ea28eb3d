// SPDX-License-Identifier: GPL-2.0
/*
 * t-events.c - pins relaytop/events.c: event masks parse from what the
 * events attribute reads ("switch wakeup", spaces or commas, "all", empty
 * for none) and unknown names are refused; masks print back the same way;
 * each type has its tracepoint name and a key of its own.
 */
#include <errno.h>
#include <string.h>

#include "events.h"
#include "test-lib.h"

static void test_parse(void)
{
	uint32_t m = 99;
	int err;

	err = events_parse("switch wakeup\n", &m);
	check_int(err, ==, 0);
	check_uint(m, ==, 3);
	err = events_parse("fork,exit", &m);
	check_int(err, ==, 0);
	check_uint(m, ==, (1u << SCHED_RELAY_FORK) | (1u << SCHED_RELAY_EXIT));
	err = events_parse("all", &m);
	check_int(err, ==, 0);
	check_uint(m, ==, SCHED_RELAY_ALL_EVENTS);
	err = events_parse("\n", &m);
	check_int(err, ==, 0);
	check_uint(m, ==, 0);
	m = 7;
	err = events_parse("switch bogus", &m);
	check_int(err, ==, -EINVAL);
	check_uint(m, ==, 7);	/* unchanged on error */
	err = events_parse("wakeup_ne", &m);
	check_int(err, ==, -EINVAL);
}

static void test_format(void)
{
	char b[128];

	events_format(SCHED_RELAY_ALL_EVENTS, " ", b, sizeof(b));
	check_str(b, "switch wakeup wakeup_new migrate fork exit waking");
	events_format(0, " ", b, sizeof(b));
	check_str(b, "none");
	events_format(1u << SCHED_RELAY_MIGRATE | 1u << SCHED_RELAY_SWITCH, ",",
		      b, sizeof(b));
	check_str(b, "switch,migrate");
	events_format(SCHED_RELAY_ALL_EVENTS, " ", b, 10);	/* cut short */
	check_int((int)strlen(b), <, 10);
}

static void test_names_and_keys(void)
{
	check_str(event_type(SCHED_RELAY_MIGRATE)->tracepoint,
		  "sched_migrate_task");
	check_str(event_type(SCHED_RELAY_EXIT)->tracepoint,
		  "sched_process_exit");
	check_str(event_type(200)->name, "unknown");
	for (int i = 0; i < SCHED_RELAY_NR_EVENTS; i++)
		check_int(event_by_key(event_type(i)->key), ==, i);
	check_int(event_by_key('q'), ==, -1);
}

int main(void)
{
	TEST(test_parse(), "event lists parse like the events attribute's");
	TEST(test_format(), "masks print as names");
	TEST(test_names_and_keys(), "every type has a tracepoint name and a key");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/* events.c - names of the sched_relay event types and event masks. */
#include "events.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const struct event_type types[SCHED_RELAY_NR_EVENTS] = {
	[SCHED_RELAY_SWITCH]	 = { "switch", "sched_switch", 's' },
	[SCHED_RELAY_WAKEUP]	 = { "wakeup", "sched_wakeup", 'w' },
	[SCHED_RELAY_WAKEUP_NEW] = { "wakeup_new", "sched_wakeup_new", 'n' },
	[SCHED_RELAY_MIGRATE]	 = { "migrate", "sched_migrate_task", 'm' },
	[SCHED_RELAY_FORK]	 = { "fork", "sched_process_fork", 'f' },
	[SCHED_RELAY_EXIT]	 = { "exit", "sched_process_exit", 'x' },
	[SCHED_RELAY_WAKING]	 = { "waking", "sched_waking", 'k' },
};

static const struct event_type unknown = { "unknown", "unknown", '?' };

const struct event_type *event_type(unsigned int type)
{
	return type < SCHED_RELAY_NR_EVENTS ? &types[type] : &unknown;
}

int event_by_key(int c)
{
	for (int i = 0; i < SCHED_RELAY_NR_EVENTS; i++)
		if (types[i].key == c)
			return i;
	return -1;
}

static int type_by_name(const char *name, size_t len)
{
	for (int i = 0; i < SCHED_RELAY_NR_EVENTS; i++)
		if (strlen(types[i].name) == len &&
		    !strncmp(types[i].name, name, len))
			return i;
	return -1;
}

int events_parse(const char *s, uint32_t *mask)
{
	uint32_t m = 0;

	while (*s) {
		size_t len;
		int type;

		if (*s == ' ' || *s == ',' || *s == '\n' || *s == '\t') {
			s++;
			continue;
		}
		len = strcspn(s, " ,\n\t");
		if (len == 3 && !strncmp(s, "all", 3)) {
			m |= SCHED_RELAY_ALL_EVENTS;
		} else {
			type = type_by_name(s, len);
			if (type < 0)
				return -EINVAL;
			m |= 1u << type;
		}
		s += len;
	}
	*mask = m;
	return 0;
}

void events_format(uint32_t mask, const char *sep, char *buf, size_t size)
{
	size_t len = 0;
	bool first = true;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < SCHED_RELAY_NR_EVENTS; i++) {
		int n;

		if (!(mask & (1u << i)))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", first ? "" : sep,
			     types[i].name);
		if (n < 0 || (size_t)n >= size - len)
			return;
		len += (size_t)n;
		first = false;
	}
	if (first)
		snprintf(buf, size, "none");
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - the names of sched_relay's event types, in the forms the
 * channel's 'events' attribute, the tracepoints and the screen use, and
 * parsing/printing of event masks.
 */
#ifndef RELAYTOP_EVENTS_H
#define RELAYTOP_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "sched_relay.h"

struct event_type {
	const char *name;	/* as the events attribute names it: "switch" */
	const char *tracepoint;	/* "sched_switch" */
	char key;		/* key and column letter on the screen */
};

/* The type's names; a placeholder entry for an unknown type. */
const struct event_type *event_type(unsigned int type);

/*
 * Parse what the events attribute reads ("switch wakeup", "" for none) or
 * a user's list (names separated by spaces or commas, "all").  Returns 0
 * and the mask, or -EINVAL naming nothing valid.
 */
int events_parse(const char *s, uint32_t *mask);
/* Names in mask separated by sep ("switch,wakeup"), "none" for 0. */
void events_format(uint32_t mask, const char *sep, char *buf, size_t size);
/* The type whose key is c, or -1. */
int event_by_key(int c);

#endif /* RELAYTOP_EVENTS_H */

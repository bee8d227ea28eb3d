// SPDX-License-Identifier: GPL-2.0
/*
 * realtime.c - relaytop at a real-time priority (see realtime.h).
 */
#include "realtime.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int realtime_enter(unsigned int prio, char *err, size_t errlen)
{
	struct sched_param sp = { .sched_priority = (int)prio };

	if (prio < REALTIME_MIN_PRIO || prio > REALTIME_MAX_PRIO) {
		snprintf(err, errlen, "--realtime: %u is not a priority "
			 "(%d to %d)", prio, REALTIME_MIN_PRIO,
			 REALTIME_MAX_PRIO);
		return -1;
	}
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp)) {
		int e = errno;

		snprintf(err, errlen, "--realtime %u: %s%s", prio, strerror(e),
			 e == EPERM ? " (needs CAP_SYS_NICE, or an "
			 "RLIMIT_RTPRIO of at least the priority)" : "");
		return -1;
	}
	return 0;
}

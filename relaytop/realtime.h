/* SPDX-License-Identifier: GPL-2.0 */
/*
 * realtime.h - relaytop at a real-time priority (--realtime PRIO, as
 * perf record -r): SCHED_FIFO for relaytop itself, so that a reader of
 * small buffers, or of a CPU a load keeps busy, runs when a sub-buffer is
 * complete instead of waiting its turn among the load's tasks.  A command
 * relaytop runs (-- COMMAND) does not inherit it.
 */
#ifndef RELAYTOP_REALTIME_H
#define RELAYTOP_REALTIME_H

#include <sched.h>
#include <stddef.h>

/* Linux's; glibc declares it only under _GNU_SOURCE */
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

#define REALTIME_MIN_PRIO 1
#define REALTIME_MAX_PRIO 99

/* Run the calling process at SCHED_FIFO prio, reset to the normal policy
 * in the children it forks.  0, or -1 with err saying why (nothing
 * changed). */
int realtime_enter(unsigned int prio, char *err, size_t errlen);

#endif /* RELAYTOP_REALTIME_H */

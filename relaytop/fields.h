/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fields.h - what the fields of a sched_relay record mean, for everything
 * that prints or exports them: the switch state's letters ("S", "R+") and
 * the kernel's prev_state value, prio as the kernel's (255 is -1), and a
 * version 1 record turned into a version 2 one (old recordings).
 */
#ifndef RELAYTOP_FIELDS_H
#define RELAYTOP_FIELDS_H

#include <stdint.h>

#include "sched_relay.h"

/* prev_state as sched_switch prints it: "R", "S", ..., "R+"; "?" if
 * state is not an enum sched_relay_task_state. */
const char *fields_state_letters(uint8_t state);

/*
 * The kernel's prev_state value (the TASK_REPORT bit of the state, 0 for
 * R, TASK_REPORT_MAX 0x100 for R+), as perf's CTF and sched_switch's raw
 * field carry it.  An unknown state gives 0x200 (past every report bit).
 */
uint32_t fields_state_bits(uint8_t state);

/* prio or prio2 as the kernel's: 0..139, or -1 for a deadline task. */
static inline int fields_prio(uint8_t prio)
{
	return prio == SCHED_RELAY_PRIO_DEADLINE ? -1 : prio;
}

/*
 * A version 1 record as version 2: no identity (event_seq 0), the tgids
 * unknown (-1), state from the report bits, prio -1 as 255, target_cpu
 * and orig_cpu of one-task events kept (comm2 of switch and fork kept).
 */
void fields_from_v1(const struct sched_relay_record_v1 *v1,
		    struct sched_relay_record *out);

#endif /* RELAYTOP_FIELDS_H */

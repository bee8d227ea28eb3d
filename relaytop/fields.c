// SPDX-License-Identifier: GPL-2.0
/* fields.c - the meaning of a record's fields (see fields.h). */
#include "fields.h"

#include <string.h>

#define TASK_REPORT_MAX 0x100u	/* include/linux/sched.h: preempted */

static const char *const letters[SCHED_RELAY_NR_STATES] = {
	[SCHED_RELAY_STATE_RUNNING] = "R",
	[SCHED_RELAY_STATE_SLEEPING] = "S",
	[SCHED_RELAY_STATE_DISK] = "D",
	[SCHED_RELAY_STATE_STOPPED] = "T",
	[SCHED_RELAY_STATE_TRACED] = "t",
	[SCHED_RELAY_STATE_DEAD] = "X",
	[SCHED_RELAY_STATE_ZOMBIE] = "Z",
	[SCHED_RELAY_STATE_PARKED] = "P",
	[SCHED_RELAY_STATE_IDLE] = "I",
	[SCHED_RELAY_STATE_PREEMPTED] = "R+",
};

const char *fields_state_letters(uint8_t state)
{
	return state < SCHED_RELAY_NR_STATES ? letters[state] : "?";
}

uint32_t fields_state_bits(uint8_t state)
{
	if (state == SCHED_RELAY_STATE_RUNNING)
		return 0;
	if (state == SCHED_RELAY_STATE_PREEMPTED)
		return TASK_REPORT_MAX;
	if (state < SCHED_RELAY_NR_STATES)
		return 1u << (state - 1);
	return TASK_REPORT_MAX << 1;
}

/* Version 1 kept the report bits; the lowest one set is the state. */
static uint8_t state_of_bits(uint32_t bits)
{
	if (bits & TASK_REPORT_MAX)
		return SCHED_RELAY_STATE_PREEMPTED;
	for (uint8_t s = SCHED_RELAY_STATE_SLEEPING;
	     s < SCHED_RELAY_STATE_PREEMPTED; s++)
		if (bits & (1u << (s - 1)))
			return s;
	return SCHED_RELAY_STATE_RUNNING;
}

static uint8_t prio_of_v1(int16_t prio)
{
	if (prio < 0 || prio >= SCHED_RELAY_PRIO_DEADLINE)
		return SCHED_RELAY_PRIO_DEADLINE;
	return (uint8_t)prio;
}

void fields_from_v1(const struct sched_relay_record_v1 *v1,
		    struct sched_relay_record *out)
{
	memset(out, 0, sizeof(*out));
	out->ts = v1->ts;
	/* version 1 had no type 6 (waking): a later type stays unknown */
	out->type = v1->type < SCHED_RELAY_WAKING ? v1->type : 0xff;
	out->state = v1->type == SCHED_RELAY_SWITCH ?
		     state_of_bits(v1->state) : 0;
	out->prio = prio_of_v1(v1->prio);
	out->prio2 = v1->type == SCHED_RELAY_SWITCH ||
		     v1->type == SCHED_RELAY_FORK ? prio_of_v1(v1->prio2) : 0;
	out->pid = v1->pid;
	out->tgid = -1;
	out->pid2 = v1->pid2;
	out->tgid2 = v1->type == SCHED_RELAY_SWITCH ||
		     v1->type == SCHED_RELAY_FORK ? -1 : 0;
	memcpy(out->comm, v1->comm, sizeof(out->comm));
	if (v1->type == SCHED_RELAY_SWITCH || v1->type == SCHED_RELAY_FORK) {
		memcpy(out->comm2, v1->comm2, sizeof(out->comm2));
	} else {
		out->target_cpu = v1->target_cpu;
		out->orig_cpu = v1->orig_cpu;
	}
}

// SPDX-License-Identifier: GPL-2.0
/* ftrace_text.c - records as ftrace's text lines (see ftrace_text.h). */
#include "ftrace_text.h"

#include <inttypes.h>
#include <stdio.h>

#include "events.h"
#include "fields.h"

#define NS_PER_S UINT64_C(1000000000)

void ftrace_fields(const struct sched_relay_record *r, char *buf, size_t size)
{
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		snprintf(buf, size, "prev_comm=%.16s prev_pid=%d prev_prio=%d "
			 "prev_state=%s ==> next_comm=%.16s next_pid=%d "
			 "next_prio=%d", r->comm, r->pid, fields_prio(r->prio),
			 fields_state_letters(r->state), r->comm2, r->pid2,
			 fields_prio(r->prio2));
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d target_cpu=%03u",
			 r->comm, r->pid, fields_prio(r->prio), r->target_cpu);
		break;
	case SCHED_RELAY_MIGRATE:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d orig_cpu=%u "
			 "dest_cpu=%u", r->comm, r->pid, fields_prio(r->prio),
			 r->orig_cpu, r->target_cpu);
		break;
	case SCHED_RELAY_FORK:
		snprintf(buf, size, "comm=%.16s pid=%d child_comm=%.16s "
			 "child_pid=%d", r->comm, r->pid, r->comm2, r->pid2);
		break;
	case SCHED_RELAY_EXIT:
		snprintf(buf, size, "comm=%.16s pid=%d prio=%d", r->comm,
			 r->pid, fields_prio(r->prio));
		break;
	default:
		snprintf(buf, size, "type=%u pid=%d pid2=%d", r->type, r->pid,
			 r->pid2);
		break;
	}
}

void ftrace_line(char *buf, size_t size, enum ftrace_style style,
		 unsigned int cpu, uint64_t ts, const struct sched_task *task,
		 const struct sched_relay_record *r)
{
	char fields[256], pid[16], tgid[16];
	const char *comm = task ? task->comm : "<...>";
	const char *tp = event_type(r->type)->tracepoint;

	/* ftrace's record-tgid column: Perfetto groups threads by it */
	if (task && task->tgid >= 0)
		snprintf(tgid, sizeof(tgid), "%7" PRId32, task->tgid);
	else
		snprintf(tgid, sizeof(tgid), "-------");
	ftrace_fields(r, fields, sizeof(fields));
	if (style == FTRACE_REPORT) {
		if (task)
			snprintf(pid, sizeof(pid), "%" PRId32, task->pid);
		else
			snprintf(pid, sizeof(pid), "?");
		snprintf(buf, size, "%16s-%-7s (%s) [%03u] %5" PRIu64 ".%09"
			 PRIu64 ": %s: %s\n", comm, pid, tgid, cpu,
			 ts / NS_PER_S, ts % NS_PER_S, tp, fields);
		return;
	}
	snprintf(buf, size, "%16s-%-7" PRId32 " (%s) [%03u] .... %5" PRIu64
		 ".%09" PRIu64 ": %s: %s\n", comm,
		 task && task->pid > 0 ? task->pid : 0, tgid, cpu,
		 ts / NS_PER_S, ts % NS_PER_S,
		 r->type < SCHED_RELAY_NR_EVENTS ? tp : "sched_relay_unknown",
		 fields);
}

// SPDX-License-Identifier: GPL-2.0
/* ftrace_text.c - records as ftrace's text lines (see ftrace_text.h). */
#include "ftrace_text.h"

#include <inttypes.h>
#include <stdio.h>

#include "events.h"
#include "fields.h"
#include "text.h"

#define NS_PER_S UINT64_C(1000000000)

void ftrace_fields(const struct sched_relay_record *r, bool utf8, char *buf,
		   size_t size)
{
	char comm[TEXT_ESCAPED_SIZE(SCHED_RELAY_COMM_LEN)];
	char comm2[TEXT_ESCAPED_SIZE(SCHED_RELAY_COMM_LEN)];

	/* the names are the tasks': escaped (text.h) */
	text_escape(comm, sizeof(comm), r->comm, sizeof(r->comm), utf8);
	if (r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK)
		text_escape(comm2, sizeof(comm2), r->comm2, sizeof(r->comm2),
			    utf8);
	else
		comm2[0] = '\0';
	switch (r->type) {
	case SCHED_RELAY_SWITCH:
		snprintf(buf, size, "prev_comm=%s prev_pid=%d prev_prio=%d "
			 "prev_state=%s ==> next_comm=%s next_pid=%d "
			 "next_prio=%d", comm, r->pid, fields_prio(r->prio),
			 fields_state_letters(r->state), comm2, r->pid2,
			 fields_prio(r->prio2));
		break;
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		snprintf(buf, size, "comm=%s pid=%d prio=%d target_cpu=%03u",
			 comm, r->pid, fields_prio(r->prio), r->target_cpu);
		break;
	case SCHED_RELAY_MIGRATE:
		snprintf(buf, size, "comm=%s pid=%d prio=%d orig_cpu=%u "
			 "dest_cpu=%u", comm, r->pid, fields_prio(r->prio),
			 r->orig_cpu, r->target_cpu);
		break;
	case SCHED_RELAY_FORK:
		snprintf(buf, size, "comm=%s pid=%d child_comm=%s "
			 "child_pid=%d", comm, r->pid, comm2, r->pid2);
		break;
	case SCHED_RELAY_EXIT:
		snprintf(buf, size, "comm=%s pid=%d prio=%d", comm,
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
	char fields[FTRACE_FIELDS_SIZE], pid[16], tgid[16];
	char comm[TEXT_ESCAPED_SIZE(SCHED_RELAY_COMM_LEN)] = "<...>";
	const char *tp = event_type(r->type)->tracepoint;
	/* Perfetto's JSON is UTF-8 whatever the locale; a dump is for
	 * this terminal */
	bool utf8 = style == FTRACE_PIPE || text_utf8();

	if (task)
		text_escape(comm, sizeof(comm), task->comm, sizeof(task->comm),
			    utf8);

	/* ftrace's record-tgid column: Perfetto groups threads by it */
	if (task && task->tgid >= 0)
		snprintf(tgid, sizeof(tgid), "%7" PRId32, task->tgid);
	else
		snprintf(tgid, sizeof(tgid), "-------");
	ftrace_fields(r, utf8, fields, sizeof(fields));
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

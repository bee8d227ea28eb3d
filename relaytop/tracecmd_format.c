// SPDX-License-Identifier: GPL-2.0
/*
 * tracecmd_format.c - the kernel's formats in a trace.dat, and records as
 * the sched tracepoints' entries (see tracecmd_format.h).
 *
 * A format file lists the entry's fields, struct trace_entry's common
 * ones first, with their C types, offsets, sizes and signedness, then the
 * tracepoint's TP_printk() as "print fmt", which readers evaluate to print
 * an event as the kernel would.
 */
#include "tracecmd_format.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "util.h"

enum tc_src {
	S_COMM, S_COMM2, S_PID, S_PID2, S_TGID, S_TGID2, S_PRIO, S_PRIO2,
	S_STATE, S_TARGET_CPU, S_ORIG_CPU, S_TYPE, S_RAW_STATE, S_RAW_PRIO,
	S_RAW_PRIO2,
};

/* A field after the common ones: "field:TYPE NAME;\toffset:..." */
struct tc_field {
	const char *type;
	const char *name;	/* with "[16]" for the names */
	unsigned int offset;
	unsigned int size;
	bool is_signed;
	enum tc_src src;
};

struct tc_event {
	const char *name;
	unsigned int id;
	unsigned int size;	/* the entry's bytes, common fields too */
	const struct tc_field *fields;
	size_t nfields;
	const char *print_fmt;
};

/*
 * The layouts of include/trace/events/sched.h as a 6.1 x86_64 kernel lays
 * them out (char is signed there; 6.2 made it unsigned everywhere), after
 * struct trace_entry's common fields; the print formats are its TP_printk()
 * with the macros expanded, as the format files show them.  Event ids are
 * the kernel's own choice at boot; these are this export's (300 + the
 * record type).
 */
static const char common_fields[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\t"
	"signed:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n";

static const struct tc_field switch_fields[] = {
	{ "char", "prev_comm[16]", 8, 16, true, S_COMM },
	{ "pid_t", "prev_pid", 24, 4, true, S_PID },
	{ "int", "prev_prio", 28, 4, true, S_PRIO },
	{ "long", "prev_state", 32, 8, true, S_STATE },
	{ "char", "next_comm[16]", 40, 16, true, S_COMM2 },
	{ "pid_t", "next_pid", 56, 4, true, S_PID2 },
	{ "int", "next_prio", 60, 4, true, S_PRIO2 },
};
static const struct tc_field wakeup_fields[] = {
	{ "char", "comm[16]", 8, 16, true, S_COMM },
	{ "pid_t", "pid", 24, 4, true, S_PID },
	{ "int", "prio", 28, 4, true, S_PRIO },
	{ "int", "target_cpu", 32, 4, true, S_TARGET_CPU },
};
static const struct tc_field migrate_fields[] = {
	{ "char", "comm[16]", 8, 16, true, S_COMM },
	{ "pid_t", "pid", 24, 4, true, S_PID },
	{ "int", "prio", 28, 4, true, S_PRIO },
	{ "int", "orig_cpu", 32, 4, true, S_ORIG_CPU },
	{ "int", "dest_cpu", 36, 4, true, S_TARGET_CPU },
};
static const struct tc_field fork_fields[] = {
	{ "char", "parent_comm[16]", 8, 16, true, S_COMM },
	{ "pid_t", "parent_pid", 24, 4, true, S_PID },
	{ "char", "child_comm[16]", 28, 16, true, S_COMM2 },
	{ "pid_t", "child_pid", 44, 4, true, S_PID2 },
};
static const struct tc_field exit_fields[] = {
	{ "char", "comm[16]", 8, 16, true, S_COMM },
	{ "pid_t", "pid", 24, 4, true, S_PID },
	{ "int", "prio", 28, 4, true, S_PRIO },
};
/* A record of a type this relaytop does not know: every field, raw. */
static const struct tc_field unknown_fields[] = {
	{ "unsigned char", "type", 8, 1, false, S_TYPE },
	{ "unsigned char", "state", 9, 1, false, S_RAW_STATE },
	{ "unsigned char", "prio", 10, 1, false, S_RAW_PRIO },
	{ "unsigned char", "prio2", 11, 1, false, S_RAW_PRIO2 },
	{ "int", "pid", 12, 4, true, S_PID },
	{ "int", "tgid", 16, 4, true, S_TGID },
	{ "int", "pid2", 20, 4, true, S_PID2 },
	{ "int", "tgid2", 24, 4, true, S_TGID2 },
	{ "char", "comm[16]", 28, 16, true, S_COMM },
	{ "char", "comm2[16]", 44, 16, true, S_COMM2 },
};

static const char switch_fmt[] =
	"\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, "
	"REC->prev_pid, REC->prev_prio, (REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
	"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) "
	"- 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 "
	"| 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { "
	"0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, "
	"\"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, "
	"\"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 "
	"| 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", "
	"REC->next_comm, REC->next_pid, REC->next_prio";
static const char wakeup_fmt[] =
	"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, "
	"REC->prio, REC->target_cpu";
static const char migrate_fmt[] =
	"\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, "
	"REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu";
static const char fork_fmt[] =
	"\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
	"REC->parent_pid, REC->child_comm, REC->child_pid";
static const char exit_fmt[] =
	"\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio";
/* as relaytop --dump prints such a record */
static const char unknown_fmt[] =
	"\"type=%u pid=%d pid2=%d\", REC->type, REC->pid, REC->pid2";

#define EVENT(name, type, sz, f, fmt) \
	{ name, 300 + (type), sz, f, ARRAY_SIZE(f), fmt }

/* Indexed by enum sched_relay_event_type. */
static const struct tc_event events[SCHED_RELAY_NR_EVENTS] = {
	[SCHED_RELAY_SWITCH] = EVENT("sched_switch",
		SCHED_RELAY_SWITCH, 64, switch_fields, switch_fmt),
	[SCHED_RELAY_WAKEUP] = EVENT("sched_wakeup",
		SCHED_RELAY_WAKEUP, 36, wakeup_fields, wakeup_fmt),
	[SCHED_RELAY_WAKEUP_NEW] = EVENT("sched_wakeup_new",
		SCHED_RELAY_WAKEUP_NEW, 36, wakeup_fields, wakeup_fmt),
	[SCHED_RELAY_MIGRATE] = EVENT("sched_migrate_task",
		SCHED_RELAY_MIGRATE, 40, migrate_fields, migrate_fmt),
	[SCHED_RELAY_FORK] = EVENT("sched_process_fork",
		SCHED_RELAY_FORK, 48, fork_fields, fork_fmt),
	[SCHED_RELAY_EXIT] = EVENT("sched_process_exit",
		SCHED_RELAY_EXIT, 32, exit_fields, exit_fmt),
	[SCHED_RELAY_WAKING] = EVENT("sched_waking",
		SCHED_RELAY_WAKING, 36, wakeup_fields, wakeup_fmt),
};
static const struct tc_event unknown_event =
	EVENT("unknown_record", 99, 60, unknown_fields,
	      unknown_fmt);

static int64_t field_value(const struct sched_relay_record *r,
			   enum tc_src src)
{
	switch (src) {
	case S_PID:		return r->pid;
	case S_PID2:		return r->pid2;
	case S_TGID:		return r->tgid;
	case S_TGID2:		return r->tgid2;
	case S_PRIO:		return fields_prio(r->prio);
	case S_PRIO2:		return fields_prio(r->prio2);
	case S_STATE:		return fields_state_bits(r->state);
	case S_TARGET_CPU:	return r->target_cpu;
	case S_ORIG_CPU:	return r->orig_cpu;
	case S_TYPE:		return r->type;
	case S_RAW_STATE:	return r->state;
	case S_RAW_PRIO:	return r->prio;
	case S_RAW_PRIO2:	return r->prio2;
	default:		return 0;
	}
}

unsigned int tracecmd_entry(const struct sched_relay_record *r, int32_t pid,
			    unsigned char buf[TRACECMD_ENTRY_MAX])
{
	const struct tc_event *ev = r->type < SCHED_RELAY_NR_EVENTS ?
				    &events[r->type] : &unknown_event;
	uint16_t id = (uint16_t)ev->id;

	memset(buf, 0, ev->size);
	memcpy(buf, &id, sizeof(id));	/* flags, preempt_count: 0 */
	memcpy(buf + 4, &pid, sizeof(pid));
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct tc_field *f = &ev->fields[i];
		int64_t v = field_value(r, f->src);
		int32_t v32 = (int32_t)v;
		uint8_t v8 = (uint8_t)v;

		if (f->src == S_COMM || f->src == S_COMM2)
			memcpy(buf + f->offset, f->src == S_COMM ? r->comm :
			       r->comm2, SCHED_RELAY_COMM_LEN);
		else if (f->size == 8)
			memcpy(buf + f->offset, &v, sizeof(v));
		else if (f->size == 4)
			memcpy(buf + f->offset, &v32, sizeof(v32));
		else
			memcpy(buf + f->offset, &v8, sizeof(v8));
	}
	return ev->size;
}

void tracecmd_put_headers(FILE *f)
{
	/* ring_buffer_print_page_header(), _entry_header() of 6.1, x86_64 */
	static const char header_page[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
	static const char header_event[] =
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n";

	tracecmd_put_str(f, "header_page");
	tracecmd_put_text8(f, header_page, strlen(header_page));
	tracecmd_put_str(f, "header_event");
	tracecmd_put_text8(f, header_event, strlen(header_event));
}

/* The format file of ev, as events/SYSTEM/NAME/format reads. */
static void put_format(FILE *f, const struct tc_event *ev)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		fatal("out of memory for an event format");
	fprintf(m, "name: %s\nID: %u\nformat:\n%s\n", ev->name, ev->id,
		common_fields);
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct tc_field *fl = &ev->fields[i];

		fprintf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			fl->type, fl->name, fl->offset, fl->size,
			fl->is_signed);
	}
	fprintf(m, "\nprint fmt: %s\n", ev->print_fmt);
	if (fclose(m))
		fatal("out of memory for an event format");
	tracecmd_put_text8(f, text, len);
	free(text);
}

void tracecmd_put_formats(FILE *f)
{
	tracecmd_put_u32(f, 0);		/* no ftrace (function) events */
	tracecmd_put_u32(f, 2);		/* systems */
	tracecmd_put_str(f, "sched");
	tracecmd_put_u32(f, SCHED_RELAY_NR_EVENTS);
	for (unsigned int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		put_format(f, &events[t]);
	tracecmd_put_str(f, "sched_relay");
	tracecmd_put_u32(f, 1);
	put_format(f, &unknown_event);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * export_ctf.c - a recording as a CTF 1.8 trace (see export_ctf.h and
 * docs/export.md).
 *
 * One stream class; one stream per CPU (file cpuN, stream_instance_id N),
 * in the host's byte order, which is the recording's (record.c refuses any
 * other).  Every integer is byte aligned, so a packet is a concatenation:
 *
 *   packet header   magic, trace uuid, stream_id 0, stream_instance_id
 *   packet context  timestamp_begin, timestamp_end, content_size,
 *                   packet_size, packet_seq_num, events_discarded, cpu_id
 *   events          header { id: 16 bits, timestamp: 64 } and the fields
 *
 * Naming follows `perf data convert --to-ctf`, the existing CTF form of the
 * kernel's tracepoints: events "sched:sched_switch" etc. with the
 * tracepoints' own field names, env domain "kernel", tracer_name "perf".
 * Trace Compass picks its kernel analyses' event layout by tracer_name, and
 * "perf" is the layout with these names.
 *
 * Drops.  events_discarded is a per-stream count (CTF 1.8: a snapshot of a
 * free-running counter); a reader reports the difference between two
 * consecutive packets as events discarded between the end of the first and
 * the end of the second.  So at a gap (ITEM_DROPPED, ITEM_LOST: events
 * missing right before the CPU's next record) the packet being filled is
 * closed at the last record before the gap, and an empty packet that begins
 * and ends at the first record after it carries the new count: babeltrace2
 * then says "N events discarded between [last record before the gap] and
 * [first record after it]".  A reader cannot place a count carried by a
 * stream's first packet, so a CPU whose first record is preceded by a gap
 * starts with an empty packet at the recording's start, count 0.  Drops
 * after a CPU's last record get an empty packet at the recording's end.
 */
#include "export_ctf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events.h"
#include "fields.h"
#include "record_merge.h"
#include "sched_model.h"
#include "util.h"

#define CTF_MAGIC	0xc1fc1fc1u
#define PACKET_EVENTS	4096	/* events in a packet at most */
#define UNKNOWN_ID	0xffff	/* event id of records of unknown type */
#define NS_PER_S	1000000000ull

/* Bytes of packet header + context, in the order of the metadata. */
enum {
	PK_MAGIC = 0, PK_UUID = 4, PK_STREAM_ID = 20, PK_INSTANCE = 24,
	PK_BEGIN = 32, PK_END = 40, PK_CONTENT = 48, PK_SIZE = 56,
	PK_SEQ = 64, PK_DISCARDED = 72, PK_CPU = 80, PK_HDR_SIZE = 84,
};

/* ---- event classes ------------------------------------------------- */

enum field_kind { F_COMM, F_S32, F_S64, F_U8, F_U16, F_U32 };

enum field_src {
	S_COMM, S_COMM2, S_PID, S_PID2, S_TGID, S_TGID2, S_PRIO, S_PRIO2,
	S_STATE, S_TARGET_CPU, S_ORIG_CPU, S_TYPE, S_RAW_STATE, S_RAW_PRIO,
	S_RAW_PRIO2,
};

struct ctf_field {
	const char *name;
	enum field_kind kind;
	enum field_src src;
};

struct ctf_event {
	const char *name;
	const struct ctf_field *fields;
	size_t nfields;
};

/*
 * The kernel's own fields and types (include/trace/events/sched.h), in
 * its order, then the thread-group ids (version 2 records; -1 in a
 * version 1 recording), which the tracepoints do not carry.  prev_state
 * is the kernel's value (the report bit, 0x100 for preempted), prio -1
 * for a deadline task, as perf's CTF conversion writes them.
 */
static const struct ctf_field switch_fields[] = {
	{ "prev_comm", F_COMM, S_COMM }, { "prev_pid", F_S32, S_PID },
	{ "prev_prio", F_S32, S_PRIO }, { "prev_state", F_S64, S_STATE },
	{ "next_comm", F_COMM, S_COMM2 }, { "next_pid", F_S32, S_PID2 },
	{ "next_prio", F_S32, S_PRIO2 },
	{ "prev_tgid", F_S32, S_TGID }, { "next_tgid", F_S32, S_TGID2 },
};
static const struct ctf_field wakeup_fields[] = {
	{ "comm", F_COMM, S_COMM }, { "pid", F_S32, S_PID },
	{ "prio", F_S32, S_PRIO }, { "target_cpu", F_S32, S_TARGET_CPU },
	{ "tgid", F_S32, S_TGID },
};
static const struct ctf_field migrate_fields[] = {
	{ "comm", F_COMM, S_COMM }, { "pid", F_S32, S_PID },
	{ "prio", F_S32, S_PRIO }, { "orig_cpu", F_S32, S_ORIG_CPU },
	{ "dest_cpu", F_S32, S_TARGET_CPU }, { "tgid", F_S32, S_TGID },
};
static const struct ctf_field fork_fields[] = {
	{ "parent_comm", F_COMM, S_COMM }, { "parent_pid", F_S32, S_PID },
	{ "child_comm", F_COMM, S_COMM2 }, { "child_pid", F_S32, S_PID2 },
	{ "parent_tgid", F_S32, S_TGID }, { "child_tgid", F_S32, S_TGID2 },
};
static const struct ctf_field exit_fields[] = {
	{ "comm", F_COMM, S_COMM }, { "pid", F_S32, S_PID },
	{ "prio", F_S32, S_PRIO }, { "tgid", F_S32, S_TGID },
};
/* A record of a type this relaytop does not know: every field, raw. */
static const struct ctf_field raw_fields[] = {
	{ "type", F_U8, S_TYPE }, { "state", F_U8, S_RAW_STATE },
	{ "prio", F_U8, S_RAW_PRIO }, { "prio2", F_U8, S_RAW_PRIO2 },
	{ "pid", F_S32, S_PID }, { "tgid", F_S32, S_TGID },
	{ "pid2", F_S32, S_PID2 }, { "tgid2", F_S32, S_TGID2 },
	{ "comm", F_COMM, S_COMM }, { "comm2", F_COMM, S_COMM2 },
};

/* Indexed by enum sched_relay_event_type: the event id is the type. */
static const struct ctf_event events[SCHED_RELAY_NR_EVENTS] = {
	[SCHED_RELAY_SWITCH] = { "sched:sched_switch", switch_fields,
				 ARRAY_SIZE(switch_fields) },
	[SCHED_RELAY_WAKEUP] = { "sched:sched_wakeup", wakeup_fields,
				 ARRAY_SIZE(wakeup_fields) },
	[SCHED_RELAY_WAKEUP_NEW] = { "sched:sched_wakeup_new", wakeup_fields,
				     ARRAY_SIZE(wakeup_fields) },
	[SCHED_RELAY_MIGRATE] = { "sched:sched_migrate_task", migrate_fields,
				  ARRAY_SIZE(migrate_fields) },
	[SCHED_RELAY_FORK] = { "sched:sched_process_fork", fork_fields,
			       ARRAY_SIZE(fork_fields) },
	[SCHED_RELAY_EXIT] = { "sched:sched_process_exit", exit_fields,
			       ARRAY_SIZE(exit_fields) },
	[SCHED_RELAY_WAKING] = { "sched:sched_waking", wakeup_fields,
				 ARRAY_SIZE(wakeup_fields) },
};
static const struct ctf_event raw_event = {
	"sched_relay:unknown_record", raw_fields, ARRAY_SIZE(raw_fields)
};

static int64_t field_value(const struct sched_relay_record *r,
			   enum field_src src)
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

/* ---- the metadata --------------------------------------------------- */

static const char *const kind_type[] = {
	[F_COMM] = "ctf_char", [F_S32] = "int32_t", [F_S64] = "int64_t",
	[F_U8] = "uint8_t", [F_U16] = "uint16_t", [F_U32] = "uint32_t",
};

/* A TSDL string literal: quotes, backslashes and control bytes escaped. */
static void put_literal(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_event_class(FILE *f, const struct ctf_event *ev, unsigned id)
{
	fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
		"\tfields := struct {\n", ev->name, id);
	for (size_t i = 0; i < ev->nfields; i++)
		fprintf(f, "\t\t%s %s%s;\n", kind_type[ev->fields[i].kind],
			ev->fields[i].name,
			ev->fields[i].kind == F_COMM ? "[16]" : "");
	fprintf(f, "\t};\n};\n\n");
}

static void uuid_text(const unsigned char u[16], char *buf)
{
	char *p = buf;

	for (int i = 0; i < 16; i++) {
		p += sprintf(p, "%02x", u[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*p++ = '-';
	}
	*p = '\0';
}

static bool host_is_little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

/* Every integer is byte aligned: packets need no padding. */
static const struct {
	const char *name;
	unsigned int bits;
	bool is_signed;
} int_types[] = {
	{ "uint8_t", 8, false }, { "uint16_t", 16, false },
	{ "uint32_t", 32, false }, { "uint64_t", 64, false },
	{ "int32_t", 32, true }, { "int64_t", 64, true },
};

static void write_metadata(FILE *f, const struct record_file_header *h,
			   const char *recording, const unsigned char uuid[16],
			   unsigned int ncpus, int64_t off)
{
	/* CLOCK_REALTIME at CLOCK_MONOTONIC 0: floor division, so offset
	 * stays in [0, 1 s) as CTF wants it */
	int64_t off_s = off / (int64_t)NS_PER_S;
	int64_t off_ns = off % (int64_t)NS_PER_S;
	char uu[40], evmask[128];

	if (off_ns < 0) {
		off_ns += NS_PER_S;
		off_s--;
	}
	uuid_text(uuid, uu);
	events_format(h->events, ",", evmask, sizeof(evmask));
	fprintf(f, "/* CTF 1.8 */\n\n/* Written by relaytop --export-ctf from "
		"a sched_relay recording;\n * see docs/export.md. */\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(int_types); i++)
		fprintf(f, "typealias integer { size = %u; align = 8; "
			"signed = %s; } := %s;\n", int_types[i].bits,
			int_types[i].is_signed ? "true" : "false",
			int_types[i].name);
	fprintf(f,
		"typealias integer { size = 8; align = 8; signed = false; "
		"encoding = UTF8; } := ctf_char;\n\n"
		"trace {\n"
		"\tmajor = 1;\n"
		"\tminor = 8;\n"
		"\tuuid = \"%s\";\n"
		"\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n"
		"\t};\n"
		"};\n\n", uu, host_is_little_endian() ? "le" : "be");
	fprintf(f,
		"env {\n"
		"\tdomain = \"kernel\";\n"
		"\ttracer_name = \"perf\";\n"
		"\tconverter = \"relaytop --export-ctf\";\n"
		"\tsysname = \"Linux\";\n"
		"\tchannel = ");
	put_literal(f, h->channel, sizeof(h->channel));
	fprintf(f, ";\n\trecording = ");
	put_literal(f, recording, strlen(recording));
	fprintf(f, ";\n"
		"\trecording_format = %" PRIu32 ";\n"
		"\trecord_version = %u;\n"
		"\tnr_cpus = %u;\n"
		"\tsubbuf_size = %" PRIu32 ";\n"
		"\tn_subbufs = %" PRIu32 ";\n"
		"\tevents = \"%s\";\n"
		"\toverwrite = %d;\n"
		"\tstart_mono_ns = %" PRIu64 ";\n"
		"\tstart_real_ns = %" PRIu64 ";\n"
		"};\n\n", h->version, (unsigned int)h->record_version, ncpus,
		h->subbuf_size, h->n_subbufs,
		evmask, !!(h->flags & RECORD_F_OVERWRITE), h->start_mono_ns,
		h->start_real_ns);
	fprintf(f,
		"clock {\n"
		"\tname = \"monotonic\";\n"
		"\tuuid = \"%s\";\n"
		"\tdescription = \"CLOCK_MONOTONIC in ns (the kernel's "
		"ktime_get_mono_fast_ns()); offset: CLOCK_REALTIME - "
		"CLOCK_MONOTONIC when the recording started\";\n"
		"\tfreq = 1000000000;\n"
		"\tprecision = 1;\n"
		"\toffset_s = %" PRId64 ";\n"
		"\toffset = %" PRId64 ";\n"
		"\tabsolute = false;\n"
		"};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; "
		"map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n"
		"stream {\n"
		"\tid = 0;\n"
		"\tevent.header := struct {\n"
		"\t\tuint16_t id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t};\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n"
		"\t\tuint32_t cpu_id;\n"
		"\t};\n"
		"};\n\n", uu, off_s, off_ns);
	for (unsigned int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		put_event_class(f, &events[t], t);
	put_event_class(f, &raw_event, UNKNOWN_ID);
}

/* ---- streams and packets -------------------------------------------- */

struct ctf_stream {
	int fd;			/* -1 until the file is created */
	unsigned char *buf;	/* the packet being filled */
	size_t len;
	size_t cap;
	uint32_t nevents;
	uint64_t begin;		/* its first event's timestamp */
	uint64_t end;		/* its last event's timestamp */
	bool wrote;		/* a packet is in the file */
	uint64_t seq;		/* packet_seq_num of the next packet */
	uint64_t discarded;	/* events_discarded: missing events so far */
	uint64_t pending;	/* missing events no packet counts yet */
	uint64_t events;	/* events written */
	uint64_t end_ts;	/* when the recording of this CPU ended, or 0 */
	uint64_t beyond;	/* records left out: a time past max_ts */
};

struct ctf_export {
	const char *dir;
	int dirfd;
	bool made_dir;
	bool made_metadata;
	unsigned char uuid[16];
	uint64_t t0;		/* the recording's start */
	int64_t offset;		/* the clock's: CLOCK_REALTIME at 0 */
	bool offset_lost;	/* the header's cannot be expressed */
	uint64_t max_ts;	/* the latest time a reader can place */
	unsigned int ncpus;
	struct ctf_stream *st;
	struct sched_model model;	/* each CPU's time, going forward */
	int err;		/* first write error, -errno */
};

static void put(struct ctf_stream *st, const void *p, size_t n)
{
	if (st->len + n > st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64 * 1024;

		while (cap < st->len + n)
			cap *= 2;
		st->buf = realloc(st->buf, cap);
		if (!st->buf)
			fatal("out of memory for a CTF packet (%zu bytes)", cap);
		st->cap = cap;
	}
	memcpy(st->buf + st->len, p, n);
	st->len += n;
}

static void put_int(struct ctf_stream *st, enum field_kind kind, int64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;
	int32_t s32 = (int32_t)v;

	switch (kind) {
	case F_U8:	put(st, &u8, sizeof(u8)); break;
	case F_U16:	put(st, &u16, sizeof(u16)); break;
	case F_U32:	put(st, &u32, sizeof(u32)); break;
	case F_S32:	put(st, &s32, sizeof(s32)); break;
	default:	put(st, &v, sizeof(v)); break;
	}
}

static void set_at(struct ctf_stream *st, size_t off, const void *p,
		   size_t n)
{
	memcpy(st->buf + off, p, n);
}

static void set_u64(struct ctf_stream *st, size_t off, uint64_t v)
{
	set_at(st, off, &v, sizeof(v));
}

static void reset_packet(struct ctf_stream *st)
{
	st->len = 0;
	st->nevents = 0;
	put(st, (unsigned char[PK_HDR_SIZE]){ 0 }, PK_HDR_SIZE);
}

/* Write the packet being filled as [begin, end]; start a new one. */
static void write_packet(struct ctf_export *ex, unsigned int cpu,
			 uint64_t begin, uint64_t end)
{
	struct ctf_stream *st = &ex->st[cpu];
	uint32_t magic = CTF_MAGIC, zero = 0, cpu32 = cpu;
	int err;

	set_at(st, PK_MAGIC, &magic, sizeof(magic));
	set_at(st, PK_UUID, ex->uuid, sizeof(ex->uuid));
	set_at(st, PK_STREAM_ID, &zero, sizeof(zero));
	set_u64(st, PK_INSTANCE, cpu);
	set_u64(st, PK_BEGIN, begin);
	set_u64(st, PK_END, end);
	set_u64(st, PK_CONTENT, (uint64_t)st->len * 8);
	set_u64(st, PK_SIZE, (uint64_t)st->len * 8);
	set_u64(st, PK_SEQ, st->seq++);
	set_u64(st, PK_DISCARDED, st->discarded);
	set_at(st, PK_CPU, &cpu32, sizeof(cpu32));
	err = ex->err ? 0 : write_all(st->fd, st->buf, st->len);
	if (err)
		ex->err = err;
	st->wrote = true;
	reset_packet(st);
}

static void close_packet(struct ctf_export *ex, unsigned int cpu)
{
	struct ctf_stream *st = &ex->st[cpu];

	if (st->nevents)
		write_packet(ex, cpu, st->begin, st->end);
}

/* Put the missing events counted so far into the stream at ts. */
static void settle_gap(struct ctf_export *ex, unsigned int cpu, uint64_t ts)
{
	struct ctf_stream *st = &ex->st[cpu];

	close_packet(ex, cpu);
	if (!st->wrote)		/* a first packet whose count is 0 */
		write_packet(ex, cpu, ex->t0 < ts ? ex->t0 : ts,
			     ex->t0 < ts ? ex->t0 : ts);
	st->discarded += st->pending;
	st->pending = 0;
	write_packet(ex, cpu, ts, ts);
}

static void add_event(struct ctf_export *ex, unsigned int cpu,
		      const struct sched_relay_record *r)
{
	struct ctf_stream *st = &ex->st[cpu];
	const struct ctf_event *ev = r->type < SCHED_RELAY_NR_EVENTS ?
				     &events[r->type] : &raw_event;
	uint16_t id = r->type < SCHED_RELAY_NR_EVENTS ? r->type : UNKNOWN_ID;
	struct sched_event mev;
	uint64_t ts;

	/* A time no reader can place (see clock_limits()): the record is
	 * left out, counted as a discarded event at its place, and kept
	 * from the model, whose time it would take past the limit. */
	if (r->ts > ex->max_ts) {
		close_packet(ex, cpu);
		st->pending++;
		st->beyond++;
		return;
	}
	/* A reader's muxer refuses time going backwards in a stream; the
	 * producer's clock does not, but a damaged record might: it gets
	 * the time of the newest before it, as the model says. */
	sched_model_record(&ex->model, cpu, r, &mev);
	ts = mev.ts;
	if (st->pending)
		settle_gap(ex, cpu, ts);
	if (!st->nevents)
		st->begin = ts;
	put(st, &id, sizeof(id));
	put(st, &ts, sizeof(ts));
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct ctf_field *f = &ev->fields[i];

		if (f->kind == F_COMM)
			put(st, f->src == S_COMM ? r->comm : r->comm2,
			    SCHED_RELAY_COMM_LEN);
		else
			put_int(st, f->kind, field_value(r, f->src));
	}
	st->end = ts;
	st->nevents++;
	st->events++;
	if (st->nevents == PACKET_EVENTS)
		close_packet(ex, cpu);
}

static void add_gap(struct ctf_export *ex, unsigned int cpu, uint64_t count)
{
	sched_model_gap(&ex->model, cpu);
	close_packet(ex, cpu);
	ex->st[cpu].pending += count;
}

static void finish_stream(struct ctf_export *ex, unsigned int cpu)
{
	struct ctf_stream *st = &ex->st[cpu];
	const struct sched_cpu *mc = sched_model_cpu(&ex->model, cpu);
	uint64_t last = st->events ? mc->last_ts : ex->t0;
	uint64_t end = st->end_ts > last && st->end_ts <= ex->max_ts ?
		       st->end_ts : last;

	if (st->fd < 0)
		return;		/* no stream: a CPU the recording does not have */
	close_packet(ex, cpu);
	if (st->pending)	/* up to the end of the recording */
		settle_gap(ex, cpu, end);
	if (!st->wrote)		/* nothing at all: one empty packet */
		write_packet(ex, cpu, ex->t0, ex->t0);
}

/* ---- the output directory ------------------------------------------- */

static int open_outdir(struct ctf_export *ex)
{
	DIR *d;
	struct dirent *de;
	int fd;

	if (mkdir(ex->dir, 0755) == 0) {
		ex->made_dir = true;
	} else if (errno != EEXIST) {
		warn("%s: cannot create the directory: %s", ex->dir,
		     strerror(errno));
		return -1;
	}
	fd = open(ex->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		warn("%s: %s", ex->dir, errno == ENOTDIR ?
		     "exists and is not a directory" : strerror(errno));
		return -1;
	}
	ex->dirfd = fd;
	if (ex->made_dir)
		return 0;
	d = fdopendir(dup(fd));
	if (!d) {
		warn("%s: %s", ex->dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			warn("%s: exists and is not empty: give a new or an "
			     "empty directory", ex->dir);
			return -1;
		}
	closedir(d);
	return 0;
}

static int create_file(struct ctf_export *ex, const char *name)
{
	int fd = openat(ex->dirfd, name, O_WRONLY | O_CREAT | O_EXCL |
			O_CLOEXEC, 0644);

	if (fd < 0)
		warn("%s/%s: %s", ex->dir, name, strerror(errno));
	return fd;
}

/* Undo what was created: nothing is left behind by a failed export. */
static void remove_output(struct ctf_export *ex)
{
	char name[32];

	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		if (ex->st[cpu].fd < 0)
			continue;
		snprintf(name, sizeof(name), "cpu%u", cpu);
		unlinkat(ex->dirfd, name, 0);
	}
	if (ex->made_metadata)
		unlinkat(ex->dirfd, "metadata", 0);
	if (ex->made_dir)
		rmdir(ex->dir);
}

static int write_metadata_file(struct ctf_export *ex,
			       const struct record_stream *s,
			       const char *recording)
{
	int fd = create_file(ex, "metadata");
	FILE *f;

	if (fd < 0)
		return -1;
	ex->made_metadata = true;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		warn("%s/metadata: %s", ex->dir, strerror(errno));
		return -1;
	}
	write_metadata(f, &s->rd.hdr, recording, ex->uuid, ex->ncpus,
		       ex->offset);
	if (fflush(f) || ferror(f)) {
		warn("%s/metadata: %s", ex->dir, strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f)) {
		warn("%s/metadata: %s", ex->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* A UUID (version 4 form) derived from the recording's header, so the
 * same recording always gives the same trace. */
static void make_uuid(const struct record_file_header *h, unsigned char u[16])
{
	/* not the crc field: a CRC over data and its own CRC is constant */
	size_t len = offsetof(struct record_file_header, crc);

	for (uint32_t i = 0; i < 4; i++) {
		uint32_t crc = crc32_update(crc32_update(0, &i, sizeof(i)), h,
					    len);

		memcpy(u + 4 * i, &crc, sizeof(crc));
	}
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
}

/*
 * What a reader can place in time.  babeltrace2 (and Trace Compass) take
 * an event's time as signed 64-bit nanoseconds from the clock's origin,
 * its timestamp plus the clock's offset, and take UINT64_MAX for "no
 * time": a timestamp past INT64_MAX less a positive offset cannot be
 * expressed (babeltrace2 stops on the trace, or fails an assertion).  A
 * real CLOCK_MONOTONIC is 292 years from there; a damaged recording may
 * not be.  The offset itself is the header's CLOCK_REALTIME less its
 * CLOCK_MONOTONIC, when that fits in 64 signed bits (else 0, and the
 * export says the wall-clock time is lost).
 */
static void clock_limits(struct ctf_export *ex,
			 const struct record_file_header *h)
{
	uint64_t real = h->start_real_ns, mono = h->start_mono_ns;

	ex->offset_lost = real >= mono ? real - mono > (uint64_t)INT64_MAX :
			  mono - real > (uint64_t)INT64_MAX + 1;
	ex->offset = ex->offset_lost ? 0 : (int64_t)(real - mono);
	ex->max_ts = (uint64_t)INT64_MAX -
		     (ex->offset > 0 ? (uint64_t)ex->offset : 0);
	ex->t0 = mono <= ex->max_ts ? mono : ex->max_ts;
}

static int setup(struct ctf_export *ex, const struct record_stream *s,
		 const char *recording)
{
	char name[32];

	make_uuid(&s->rd.hdr, ex->uuid);
	clock_limits(ex, &s->rd.hdr);
	ex->ncpus = record_reader_nr_cpus(&s->rd);
	ex->st = xcalloc(ex->ncpus ? ex->ncpus : 1, sizeof(*ex->st));
	sched_model_init(&ex->model, ex->ncpus);
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		ex->st[cpu].fd = -1;
		if (cpu < s->rd.ncpus)
			ex->st[cpu].end_ts = s->rd.summary[cpu].end_ts;
	}
	if (open_outdir(ex))
		return -1;
	if (write_metadata_file(ex, s, recording))
		return -1;
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		/* a stream for each CPU the channel had or that has blocks,
		 * not for every number below a (damaged) high one */
		if (!record_reader_has_cpu(&s->rd, cpu))
			continue;
		snprintf(name, sizeof(name), "cpu%u", cpu);
		ex->st[cpu].fd = create_file(ex, name);
		if (ex->st[cpu].fd < 0)
			return -1;
		reset_packet(&ex->st[cpu]);
	}
	return 0;
}

static void teardown(struct ctf_export *ex)
{
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		if (ex->st[cpu].fd >= 0 && close(ex->st[cpu].fd) && !ex->err)
			ex->err = -errno;
		free(ex->st[cpu].buf);
	}
}

static void note_backwards(const struct ctf_export *ex)
{
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
		if (cpu < ex->model.ncpus && ex->model.cpu[cpu].backwards)
			warn("CPU %u: %" PRIu64 " events had a timestamp "
			     "earlier than the one before; they carry that one's",
			     cpu, ex->model.cpu[cpu].backwards);
}

/* What the trace could not say: 1 when anything, else 0. */
static int note_inexpressible(const struct ctf_export *ex,
			      const struct record_file_header *h)
{
	int status = 0;

	if (ex->offset_lost) {
		warn("the recording's wall-clock offset (CLOCK_REALTIME %"
		     PRIu64 " ns at CLOCK_MONOTONIC %" PRIu64 " ns) cannot be "
		     "expressed in CTF: the trace's clock has none",
		     h->start_real_ns, h->start_mono_ns);
		status = 1;
	}
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		if (!ex->st[cpu].beyond)
			continue;
		warn("CPU %u: %" PRIu64 " records have a timestamp past %"
		     PRIu64 " ns, which CTF cannot express (a damaged "
		     "recording?): left out, counted as discarded events",
		     cpu, ex->st[cpu].beyond, ex->max_ts);
		status = 1;
	}
	return status;
}

int export_ctf(const char *recording, const char *outdir)
{
	struct record_stream s;
	struct record_item it;
	struct ctf_export ex = { .dir = outdir, .dirfd = -1 };
	uint64_t written = 0;
	int n, status = 0;

	if (record_stream_open(&s, recording)) {
		warn("%s", s.rd.error);
		record_stream_close(&s);
		return 1;
	}
	if (setup(&ex, &s, recording)) {
		teardown(&ex);
		remove_output(&ex);
		status = 1;
		goto out;
	}
	while ((n = record_stream_next(&s, &it)) > 0 && !ex.err) {
		if (it.cpu >= ex.ncpus || ex.st[it.cpu].fd < 0)
			continue;	/* global items: not CTF events */
		if (it.kind == ITEM_RECORD)
			add_event(&ex, it.cpu, it.rec);
		else if (it.kind == ITEM_DROPPED || it.kind == ITEM_LOST)
			add_gap(&ex, it.cpu, it.count);
	}
	for (unsigned int cpu = 0; cpu < ex.ncpus; cpu++) {
		finish_stream(&ex, cpu);
		written += ex.st[cpu].events;
	}
	teardown(&ex);
	if (ex.err) {
		warn("writing the trace in %s: %s", outdir, strerror(-ex.err));
		remove_output(&ex);
		status = 1;
	} else {
		note_backwards(&ex);
		status = note_inexpressible(&ex, &s.rd.hdr);
		if (n < 0 || s.rd.error[0]) {
			warn("%s", s.rd.error);
			warn("%s: holds the %" PRIu64 " events before that",
			     outdir, written);
			status = 1;
		}
	}
out:
	if (ex.dirfd >= 0)
		close(ex.dirfd);
	free(ex.st);
	sched_model_free(&ex.model);
	record_stream_close(&s);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * export_tracecmd.c - a recording as a trace-cmd trace.dat (see
 * export_tracecmd.h and docs/export.md).
 *
 * The file, version 6 as trace-cmd.dat.v6(5) describes it, every number
 * in the recording's (the host's) byte order:
 *
 *   "\x17\x08\x44" "tracing" "6\0"  endianness, long size 8, page size 4096
 *   header_page, header_event       the ring buffer's formats, and
 *   ftrace events, event formats    "sched": the seven tracepoints' format
 *                                   files (tracecmd_format.c: a Debian 6.1
 *                                   x86_64 kernel's); "sched_relay":
 *                                   unknown_record
 *   kallsyms, printk formats        none
 *   saved cmdlines                  "pid comm" for each task the records name
 *   CPUs, "options  \0"             DATE, CPUSTAT per CPU, TRACECLOCK, VERSION
 *   "flyrecord\0"                   per CPU: offset and size of its section;
 *                                   then the trace_clock text, "... [mono] ..."
 *                                   (the TRACECLOCK option says it is there;
 *                                   `trace-cmd dump --clock` shows it)
 *   padding to a page, then each CPU's section of ring-buffer pages
 *
 * A page is ftrace's (kernel/trace/ring_buffer.c, include/linux/ring_buffer.h):
 *
 *   u64 time_stamp | u64 commit | events ...         | [u64 missed] | zeros
 *   0                16                       16 + commit            4096
 *
 * An event is a u32 header, type_len:5 (payload bytes / 4) and
 * time_delta:27 (ns since the previous event of the page; the first one is
 * at time_stamp), then the payload: the tracepoint's entry, common fields
 * first.  A delta of 2^27 ns or more goes in a time-extend event before it
 * (type 30, the delta's low 27 bits in its header, the rest in a u32), one
 * of 2^59 or more starts a new page.
 *
 * Drops and losses.  A page whose commit has bit 31 (RB_MISSED_EVENTS) set
 * says events went missing before its first event, and with bit 30
 * (RB_MISSED_STORED) how many: a u64 right after its events.  So at a gap
 * the page being filled is closed and the first event after the gap opens a
 * page that carries the count (producer drops and relaytop losses at one
 * place are one count, as the kernel has one).  Events missing after a
 * CPU's last event have no page to carry them: the CPU's CPUSTAT option
 * (`trace-cmd report --stat`) has its totals, drops as "dropped events",
 * losses as "overrun", as the kernel's per-CPU stats file names them.
 *
 * The size of each CPU's section must be known before its pages are
 * written, and so must the names: the recording is read twice, the first
 * time only to count pages and collect the names.  The output is written
 * beside the file it replaces and renamed over it when complete.
 */
#include "export_tracecmd.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "record_merge.h"
#include "sched_model.h"
#include "tracecmd_format.h"
#include "util.h"

#define TC_PAGE_SIZE	TRACECMD_PAGE_SIZE
#define TC_PAGE_HDR	16u		/* time_stamp, commit */
#define TC_PAGE_DATA	(TC_PAGE_SIZE - TC_PAGE_HDR)
#define TC_MISSED_EVENTS	(UINT64_C(1) << 31)
#define TC_MISSED_STORED	(UINT64_C(1) << 30)
#define TC_TIME_EXTEND	30u		/* RINGBUF_TYPE_TIME_EXTEND */
#define TC_DELTA_BITS	27u
#define TC_EXTEND_BITS	(TC_DELTA_BITS + 32u)	/* an extend's delta */
#define TC_UNKNOWN_PID	(-1)		/* common_pid: who ran is unknown */
#define NS_PER_US	1000u
#define US_PER_S	1000000u

/* ---- saved cmdlines -------------------------------------------------- */

/* The name each pid had last, in a table open-addressed by pid. */
struct tc_names {
	int32_t *pid;
	char (*comm)[SCHED_RELAY_COMM_LEN];
	bool *used;
	size_t n, cap;
};

static size_t name_slot(const struct tc_names *t, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (t->cap - 1);

	while (t->used[i] && t->pid[i] != pid)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void names_grow(struct tc_names *t)
{
	struct tc_names old = *t;

	t->cap = old.cap ? old.cap * 2 : 1024;
	t->pid = xcalloc(t->cap, sizeof(*t->pid));
	t->comm = xcalloc(t->cap, sizeof(*t->comm));
	t->used = xcalloc(t->cap, sizeof(*t->used));
	for (size_t i = 0; i < old.cap; i++) {
		size_t j;

		if (!old.used[i])
			continue;
		j = name_slot(t, old.pid[i]);
		t->used[j] = true;
		t->pid[j] = old.pid[i];
		memcpy(t->comm[j], old.comm[i], sizeof(t->comm[j]));
	}
	free(old.pid);
	free(old.comm);
	free(old.used);
}

/* pid is called comm from now on; the idle tasks (pid 0, one name per
 * CPU) are trace-cmd's "<idle>", as in a kernel's trace.dat. */
static void name_task(struct tc_names *t, int32_t pid, const char *comm)
{
	size_t i;

	if (pid <= 0 || !comm[0])
		return;
	if (2 * (t->n + 1) > t->cap)
		names_grow(t);
	i = name_slot(t, pid);
	if (!t->used[i]) {
		t->used[i] = true;
		t->pid[i] = pid;
		t->n++;
	}
	memcpy(t->comm[i], comm, sizeof(t->comm[i]));
}

static void names_free(struct tc_names *t)
{
	free(t->pid);
	free(t->comm);
	free(t->used);
	memset(t, 0, sizeof(*t));
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none
 * or if it encodes a C1 control (U+0080..U+009F, which some terminals
 * obey). */
static size_t utf8_printable_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0xa0) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;	/* overlong, C1, too large or a surrogate */
	return len;
}

/*
 * A name as a line of the cmdlines text holds it: a control byte (which
 * would end the line or reach the terminal of whoever reads the report)
 * or a byte that is not part of printable UTF-8 is written \xHH.
 */
static void put_cmdline_name(FILE *f, const char *comm)
{
	const unsigned char *p = (const unsigned char *)comm;
	size_t n = strnlen(comm, SCHED_RELAY_COMM_LEN);

	for (size_t i = 0; i < n;) {
		size_t len = p[i] >= 0x80 ? utf8_printable_len(p + i, n - i) :
			     p[i] >= 0x20 && p[i] < 0x7f;

		if (len) {
			fwrite(p + i, 1, len, f);
			i += len;
			continue;
		}
		fprintf(f, "\\x%02x", p[i++]);
	}
}

static int by_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/* "pid name" lines, by pid, as the kernel's saved_cmdlines file reads. */
static void put_cmdlines(FILE *f, const struct tc_names *t)
{
	int32_t *pids = xcalloc(t->n ? t->n : 1, sizeof(*pids));
	size_t k = 0, len = 0;
	char *text = NULL;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		fatal("out of memory for the saved cmdlines");
	for (size_t i = 0; i < t->cap; i++)
		if (t->used[i])
			pids[k++] = t->pid[i];
	qsort(pids, k, sizeof(*pids), by_pid);
	for (size_t i = 0; i < k; i++) {
		fprintf(m, "%" PRId32 " ", pids[i]);
		put_cmdline_name(m, t->comm[name_slot(t, pids[i])]);
		fputc('\n', m);
	}
	if (fclose(m))
		fatal("out of memory for the saved cmdlines");
	tracecmd_put_text8(f, text, len);
	free(text);
	free(pids);
}

/* ---- the CPUs' pages ------------------------------------------------- */

struct tc_cpu {
	bool present;		/* a CPU of the recording: a section */
	unsigned char *page;	/* the page being filled */
	bool open;		/* it has events */
	size_t len;		/* bytes of events in it */
	uint64_t prev_ts;	/* its newest event's time */
	uint64_t missed;	/* missed events it carries, or 0 */
	uint64_t pending;	/* missed events no page carries yet */
	uint64_t pages;		/* pages done in this pass */
	uint64_t npages;	/* the first pass's count: the section's size */
	uint64_t offset;	/* where the section starts in the file */
	/* for its CPUSTAT option (first pass) */
	uint64_t events;
	uint64_t dropped;
	uint64_t lost;
	bool have_ts;
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t end_ts;	/* when its recording ended, or 0 */
};

struct tc_export {
	int fd;			/* the temporary file */
	bool writing;		/* the second pass */
	struct record_file_header hdr;	/* the recording's */
	unsigned int ncpus;
	struct tc_cpu *cpu;
	struct tc_names names;
	struct sched_model model;
	uint64_t events;	/* events exported in this pass */
	uint64_t backwards;	/* of them, given the time before theirs */
	int err;		/* first write error, -errno */
	bool changed;		/* the second pass saw another file */
};

static void set_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void set_u64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* Close the page being filled: its header, its missed count; written in
 * the second pass, counted in both. */
static void page_close(struct tc_export *ex, unsigned int cpu)
{
	struct tc_cpu *c = &ex->cpu[cpu];
	unsigned char *pg = c->page;
	uint64_t commit = c->len;
	ssize_t n;

	if (!c->open)
		return;
	if (c->missed) {
		set_u64(pg + TC_PAGE_HDR + c->len, c->missed);
		commit |= TC_MISSED_EVENTS | TC_MISSED_STORED;
		c->len += sizeof(uint64_t);
	}
	set_u64(pg + 8, commit);
	memset(pg + TC_PAGE_HDR + c->len, 0, TC_PAGE_DATA - c->len);
	if (ex->writing && !ex->err) {
		if (c->pages >= c->npages) {
			ex->changed = true;
		} else {
			n = pwrite(ex->fd, pg, TC_PAGE_SIZE, (off_t)(c->offset +
				   c->pages * TC_PAGE_SIZE));
			if (n != (ssize_t)TC_PAGE_SIZE)
				ex->err = n < 0 ? -errno : -EIO;
		}
	}
	c->pages++;
	c->open = false;
	c->len = 0;
	c->missed = 0;
}

/* Add an event of size bytes (a multiple of 4, at most TRACECMD_ENTRY_MAX)
 * at ts, not before the CPU's previous one. */
static void page_add(struct tc_export *ex, unsigned int cpu, uint64_t ts,
		     const unsigned char *entry, unsigned int size)
{
	struct tc_cpu *c = &ex->cpu[cpu];
	uint64_t delta = c->open ? ts - c->prev_ts : 0;
	size_t need = 4 + size + (delta >> TC_DELTA_BITS ? 8 : 0);
	size_t room = TC_PAGE_DATA - (c->missed ? sizeof(uint64_t) : 0);
	unsigned char *p;

	if (c->pending) {	/* a gap: the next page says how many */
		page_close(ex, cpu);
		c->missed = c->pending;
		c->pending = 0;
		room = TC_PAGE_DATA - sizeof(uint64_t);
	}
	if (c->open && (c->len + need > room || delta >> TC_EXTEND_BITS))
		page_close(ex, cpu);
	if (!c->open) {
		c->open = true;
		c->len = 0;
		delta = 0;
		set_u64(c->page, ts);	/* time_stamp: the first event's */
	}
	p = c->page + TC_PAGE_HDR + c->len;
	if (delta >> TC_DELTA_BITS) {
		set_u32(p, TC_TIME_EXTEND |
			(uint32_t)(delta & ((1u << TC_DELTA_BITS) - 1)) << 5);
		set_u32(p + 4, (uint32_t)(delta >> TC_DELTA_BITS));
		p += 8;
		c->len += 8;
		delta = 0;
	}
	set_u32(p, size / 4 | (uint32_t)delta << 5);
	memcpy(p + 4, entry, size);
	c->len += 4 + size;
	c->prev_ts = ts;
}

static void add_record(struct tc_export *ex, unsigned int cpu,
		       const struct sched_relay_record *r)
{
	struct tc_cpu *c = &ex->cpu[cpu];
	unsigned char entry[TRACECMD_ENTRY_MAX];
	struct sched_event ev;
	unsigned int size;

	/* who ran (the task column of --dump); time only goes forward on a
	 * CPU (a delta is unsigned): a damaged record that goes back gets
	 * the time of the one before, as the model says */
	sched_model_record(&ex->model, cpu, r, &ev);
	if (ev.back_ns)
		ex->backwards++;
	size = tracecmd_entry(r, ev.task_known ? ev.task.pid : TC_UNKNOWN_PID,
			      entry);
	page_add(ex, cpu, ev.ts, entry, size);
	ex->events++;
	if (ex->writing)
		return;
	c->events++;
	if (!c->have_ts)
		c->first_ts = ev.ts;
	c->have_ts = true;
	c->last_ts = ev.ts;
	name_task(&ex->names, r->pid, r->comm);
	if (r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK)
		name_task(&ex->names, r->pid2, r->comm2);
}

static void add_gap(struct tc_export *ex, const struct record_item *it)
{
	struct tc_cpu *c = &ex->cpu[it->cpu];

	sched_model_gap(&ex->model, it->cpu);
	c->pending += it->count;
	if (ex->writing)
		return;
	if (it->kind == ITEM_DROPPED)
		c->dropped += it->count;
	else
		c->lost += it->count;
}

/* Everything of the recording, in time order, as --dump reads it (so
 * that who ran is what --dump says). */
static void convert(struct tc_export *ex, struct record_stream *s)
{
	struct record_item it;

	sched_model_init(&ex->model, ex->ncpus);
	sched_model_events(&ex->model, s->rd.hdr.events);
	ex->events = 0;
	ex->backwards = 0;
	while (record_stream_next(s, &it) > 0 && !ex->err) {
		if (it.kind == ITEM_CONFIG) {
			sched_model_events(&ex->model, it.config.events);
			continue;
		}
		if (it.kind == ITEM_GONE && it.cpu == RECORD_NO_CPU) {
			sched_model_gap_all(&ex->model);
			continue;
		}
		if (it.cpu >= ex->ncpus || !ex->cpu[it.cpu].present)
			continue;
		switch (it.kind) {
		case ITEM_RECORD:
			add_record(ex, it.cpu, it.rec);
			break;
		case ITEM_DROPPED:
		case ITEM_LOST:
			add_gap(ex, &it);
			break;
		default:	/* a reset, the channel gone: no events missing */
			sched_model_gap(&ex->model, it.cpu);
			break;
		}
	}
	/* events missing after a CPU's last one: no page carries them
	 * (its CPUSTAT counts them) */
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		page_close(ex, cpu);
		ex->cpu[cpu].pending = 0;
	}
	sched_model_free(&ex->model);
}

/* ---- the header: options and the flyrecord ---------------------------- */

static void put_option(FILE *f, uint16_t id, const char *text)
{
	tracecmd_put_u16(f, id);
	tracecmd_put_u32(f, (uint32_t)strlen(text) + 1);
	tracecmd_put_str(f, text);
}

static bool host_is_little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

/* Nanoseconds as the kernel's stats file prints times. */
static void stat_time(char *buf, size_t size, uint64_t ns)
{
	uint64_t us = ns / NS_PER_US;

	snprintf(buf, size, "%5" PRIu64 ".%06" PRIu64, us / US_PER_S,
		 us % US_PER_S);
}

/* The CPU's counts as the kernel's per_cpu/cpuN/stats has them, after
 * everything was read out: nothing left in a buffer, losses (overwritten
 * before relaytop read them) as overrun, drops as dropped events. */
static void put_cpustat(FILE *f, unsigned int cpu,
			const struct tc_cpu *c)
{
	char text[512], first[32], now[32];
	uint64_t end = c->end_ts > c->last_ts ? c->end_ts : c->last_ts;

	stat_time(first, sizeof(first), c->first_ts);
	stat_time(now, sizeof(now), end);
	snprintf(text, sizeof(text),
		 "CPU: %u\n"
		 "entries: 0\n"
		 "overrun: %" PRIu64 "\n"
		 "commit overrun: 0\n"
		 "bytes: 0\n"
		 "oldest event ts: %s\n"
		 "now ts: %s\n"
		 "dropped events: %" PRIu64 "\n"
		 "read events: %" PRIu64 "\n", cpu, c->lost, first, now,
		 c->dropped, c->events);
	put_option(f, 2, text);
}

/* The header: everything up to the CPUs' sections, whose places it gives;
 * the sections start at the first page boundary after it. */
static void put_header(FILE *f, struct tc_export *ex)
{
	const struct record_file_header *h = &ex->hdr;
	static const char clock[] =
		"local global counter uptime perf [mono] mono_raw boot tai "
		"x86-tsc\n";
	const unsigned char endian = host_is_little_endian() ? 0 : 1;
	const unsigned char long_size = TRACECMD_LONG_SIZE;
	char text[64];
	uint64_t off;

	fwrite("\x17\x08\x44tracing", 1, 10, f);
	tracecmd_put_str(f, "6");
	fwrite(&endian, 1, 1, f);
	fwrite(&long_size, 1, 1, f);
	tracecmd_put_u32(f, TC_PAGE_SIZE);
	tracecmd_put_headers(f);
	tracecmd_put_formats(f);
	tracecmd_put_u32(f, 0);		/* kallsyms */
	tracecmd_put_u32(f, 0);		/* printk formats */
	put_cmdlines(f, &ex->names);
	tracecmd_put_u32(f, ex->ncpus);
	fwrite("options  ", 1, 10, f);
	/* DATE: what trace-cmd adds to each timestamp for the wall-clock
	 * time, in microseconds (so off by less than one) */
	snprintf(text, sizeof(text), "%" PRId64,
		 (int64_t)(h->start_real_ns - h->start_mono_ns) /
		 (int64_t)NS_PER_US);
	put_option(f, 1, text);
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
		if (ex->cpu[cpu].present)
			put_cpustat(f, cpu, &ex->cpu[cpu]);
	tracecmd_put_u16(f, 4);	/* TRACECLOCK: the clock text follows */
	tracecmd_put_u32(f, 0);
	put_option(f, 9, "relaytop " RELAYTOP_VERSION " --export-tracecmd");
	tracecmd_put_u16(f, 0);	/* the end of the options */
	fwrite("flyrecord", 1, 10, f);
	off = (uint64_t)ftell(f) + 16 * (uint64_t)ex->ncpus + 8 +
	      strlen(clock);
	off = (off + TC_PAGE_SIZE - 1) / TC_PAGE_SIZE * TC_PAGE_SIZE;
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		struct tc_cpu *c = &ex->cpu[cpu];

		c->offset = off;
		tracecmd_put_u64(f, off);
		tracecmd_put_u64(f, c->npages * TC_PAGE_SIZE);
		off += c->npages * TC_PAGE_SIZE;
	}
	tracecmd_put_text8(f, clock, strlen(clock));
}

/* ---- the file --------------------------------------------------------- */

/* A temporary file beside path, for renaming over it when complete. */
static int open_temp(const char *path, char **tmp)
{
	size_t len = strlen(path) + 16;
	mode_t mask;
	int fd;

	*tmp = xmalloc(len);
	snprintf(*tmp, len, "%s.tmpXXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		warn("%s: cannot create: %s", path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		warn("%s: %s", *tmp, strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return fd;
}

/* One pass over the recording: -1 if it cannot be read at all; *damaged
 * when it ends early (what came before is converted). */
static int pass(struct tc_export *ex, const char *recording, bool *damaged)
{
	struct record_stream s;

	if (record_stream_open(&s, recording)) {
		warn("%s", s.rd.error);
		record_stream_close(&s);
		return -1;
	}
	if (!ex->writing) {
		ex->hdr = s.rd.hdr;
		ex->ncpus = record_reader_nr_cpus(&s.rd);
		ex->cpu = xcalloc(ex->ncpus ? ex->ncpus : 1, sizeof(*ex->cpu));
		for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
			struct tc_cpu *c = &ex->cpu[cpu];

			/* a section for each CPU the channel had or that has
			 * blocks, an empty one for any other number below */
			c->present = record_reader_has_cpu(&s.rd, cpu);
			if (c->present)
				c->page = xmalloc(TC_PAGE_SIZE);
			if (cpu < s.rd.ncpus)
				c->end_ts = s.rd.summary[cpu].end_ts;
		}
	} else if (record_reader_nr_cpus(&s.rd) != ex->ncpus) {
		ex->changed = true;
	}
	if (!ex->changed)
		convert(ex, &s);
	if (s.rd.error[0]) {
		if (!ex->writing)
			warn("%s", s.rd.error);
		*damaged = true;
	}
	record_stream_close(&s);
	return 0;
}

static int write_trace(struct tc_export *ex, const char *recording,
		       bool *damaged)
{
	uint64_t first_events;
	size_t len = 0;
	char *hdr = NULL;
	FILE *m;
	int ret;

	if (pass(ex, recording, damaged))
		return -1;
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++) {
		ex->cpu[cpu].npages = ex->cpu[cpu].pages;
		ex->cpu[cpu].pages = 0;
	}
	first_events = ex->events;
	m = open_memstream(&hdr, &len);
	if (!m)
		fatal("out of memory for the trace.dat header");
	put_header(m, ex);
	if (fclose(m))
		fatal("out of memory for the trace.dat header");
	ret = write_all(ex->fd, hdr, len);
	free(hdr);
	if (ret) {
		ex->err = ret;
		return 0;
	}
	ex->writing = true;
	if (pass(ex, recording, damaged))
		return -1;
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
		if (ex->cpu[cpu].pages != ex->cpu[cpu].npages)
			ex->changed = true;
	if (ex->events != first_events)
		ex->changed = true;
	/* the last section may end in a page not written yet: the size */
	if (!ex->err && ex->ncpus) {
		const struct tc_cpu *last = &ex->cpu[ex->ncpus - 1];

		if (ftruncate(ex->fd, (off_t)(last->offset + last->npages *
					       TC_PAGE_SIZE)))
			ex->err = -errno;
	}
	return 0;
}

static void export_free(struct tc_export *ex)
{
	for (unsigned int cpu = 0; cpu < ex->ncpus; cpu++)
		free(ex->cpu[cpu].page);
	free(ex->cpu);
	names_free(&ex->names);
}

int export_tracecmd(const char *recording, const char *outfile)
{
	struct tc_export ex = { .fd = -1 };
	bool damaged = false;
	char *tmp = NULL;
	int rc, status = 0;

	ex.fd = open_temp(outfile, &tmp);
	if (ex.fd < 0)
		return 1;
	rc = write_trace(&ex, recording, &damaged);
	if (!rc && ex.changed) {
		warn("%s: the recording changed while it was exported: try "
		     "again", recording);
		rc = -1;
	}
	if (!rc && !ex.err && fsync(ex.fd))
		ex.err = -errno;
	if (close(ex.fd) && !ex.err)
		ex.err = -errno;
	if (!rc && ex.err) {
		warn("writing %s: %s", outfile, strerror(-ex.err));
		rc = -1;
	}
	if (!rc && rename(tmp, outfile)) {
		warn("%s: %s", outfile, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(tmp);
		status = 1;
	} else {
		if (ex.backwards)
			warn("%s: %" PRIu64 " events had a timestamp earlier "
			     "than the one before on their CPU; they carry that "
			     "one's", recording, ex.backwards);
		if (damaged) {
			warn("%s: holds the %" PRIu64 " events before that",
			     outfile, ex.events);
			status = 1;
		}
	}
	free(tmp);
	export_free(&ex);
	return status;
}

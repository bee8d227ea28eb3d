// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - writing a recording (relaytop --record) and reading it back
 * as one stream of items, CPUs merged by timestamp.  The format is in
 * record.h and docs/record-format.md.
 *
 * Writing: blocks are assembled in a buffer and written out in large
 * writes.  A DATA block is staged while the reader cannot yet vouch for
 * its records (overwrite mode) and cut off again if they were torn, so
 * the file only ever holds intact records.  The counts in each block are
 * cumulative since the recording started, so a block says exactly how
 * many events are missing before it, and a CTF exporter can use them as
 * packet contexts' events_discarded.
 *
 * Reading: record_stream_open() checks the whole file first (sizes, CRCs,
 * order) and indexes every CPU's blocks; the valid prefix of a damaged
 * file is still readable and the error says where the damage begins.
 */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fields.h"
#include "util.h"

_Static_assert(sizeof(struct record_file_header) == 128, "file header size");
_Static_assert(sizeof(struct record_block) == 64, "block header size");
_Static_assert(sizeof(struct record_config) == 32, "config size");
_Static_assert(sizeof(struct record_cpu_end) == 16, "cpu end size");
_Static_assert(sizeof(struct record_end) == 16, "end size");

#define FILE_HDR_SIZE ((uint32_t)sizeof(struct record_file_header))
#define BLOCK_SIZE ((uint32_t)sizeof(struct record_block))
#define FLUSH_AT (1u << 20)	/* write out once this much is buffered */

/* ---- writing -------------------------------------------------------- */

static struct recorder_cpu *cpu_of(struct recorder *rec, unsigned int cpu)
{
	if (cpu >= rec->ncpus) {
		unsigned int n = cpu + 1 > 2 * rec->ncpus ? cpu + 1 : 2 * rec->ncpus;
		struct recorder_cpu *p = xcalloc(n, sizeof(*p));

		if (rec->ncpus)
			memcpy(p, rec->cpu, rec->ncpus * sizeof(*p));
		free(rec->cpu);
		rec->cpu = p;
		rec->ncpus = n;
	}
	return &rec->cpu[cpu];
}

static int write_out(struct recorder *rec, size_t len)
{
	int err;

	if (rec->error)
		return rec->error;
	err = write_all(rec->fd, rec->buf, len);
	if (err) {
		rec->error = err;
		return err;
	}
	rec->file_bytes += len;
	memmove(rec->buf, rec->buf + len, rec->len - len);
	rec->len -= len;
	return 0;
}

/* Room for 'more' bytes at the end of the buffer (no block staged). */
static void make_room(struct recorder *rec, size_t more)
{
	if (rec->len + more <= rec->cap)
		return;
	if (rec->len)
		write_out(rec, rec->len);
	if (rec->error)
		rec->len = 0;	/* nothing more reaches the file anyway */
	if (rec->len + more > rec->cap) {
		size_t cap = rec->cap ? rec->cap : FLUSH_AT * 2;

		while (cap < rec->len + more)
			cap *= 2;
		rec->buf = realloc(rec->buf, cap);
		if (!rec->buf)
			fatal("out of memory for the recording buffer (%zu bytes)",
			      cap);
		rec->cap = cap;
	}
}

static uint32_t block_crc(const unsigned char *block, size_t size)
{
	struct record_block h;
	uint32_t crc;

	memcpy(&h, block, sizeof(h));
	h.crc = 0;
	crc = crc32_update(0, &h, sizeof(h));
	return crc32_update(crc, block + sizeof(h), size);
}

/* Append a whole block (header filled in but for magic/size/crc). */
static void append_block(struct recorder *rec, struct record_block *h,
			 const void *payload, uint32_t size)
{
	unsigned char *p;

	make_room(rec, BLOCK_SIZE + size);
	h->magic = RECORD_BLOCK_MAGIC;
	h->size = size;
	h->crc = 0;
	p = rec->buf + rec->len;
	memcpy(p, h, sizeof(*h));
	if (size)
		memcpy(p + BLOCK_SIZE, payload, size);
	h->crc = block_crc(p, size);
	memcpy(p + offsetof(struct record_block, crc), &h->crc, sizeof(h->crc));
	rec->len += BLOCK_SIZE + size;
	rec->blocks++;
}

static uint64_t cur_dropped(const struct recorder_cpu *c)
{
	return c->dropped_prev + (c->raw_last - c->raw_base);
}

static uint64_t cur_lost(const struct recorder_cpu *c)
{
	return c->lost_prev + (c->lost_last - c->lost_base);
}

uint64_t recorder_dropped(const struct recorder *rec, unsigned int cpu)
{
	return cpu < rec->ncpus ? cur_dropped(&rec->cpu[cpu]) : 0;
}

uint64_t recorder_lost(const struct recorder *rec, unsigned int cpu)
{
	return cpu < rec->ncpus ? cur_lost(&rec->cpu[cpu]) : 0;
}

static void fill_file_header(struct record_file_header *h,
			     const struct record_meta *meta)
{
	uint64_t mono = mono_ns(), real = real_ns();

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, RECORD_MAGIC, sizeof(h->magic));
	h->version = RECORD_VERSION;
	h->header_size = FILE_HDR_SIZE;
	h->byte_order = RECORD_BYTE_ORDER;
	h->record_size = sizeof(struct sched_relay_record);
	h->record_version = SCHED_RELAY_VERSION;
	h->nr_cpus = meta->nr_cpus;
	h->subbuf_size = meta->geom.subbuf_size;
	h->n_subbufs = meta->geom.n_subbufs;
	h->events = meta->events;
	h->flags = meta->flags;
	h->generation = meta->generation;
	h->start_mono_ns = mono;
	h->start_real_ns = real;
	if (meta->channel)
		strncpy(h->channel, meta->channel, sizeof(h->channel) - 1);
	h->crc = crc32_update(0, h, offsetof(struct record_file_header, crc));
}

struct recorder *recorder_create(const char *path, const struct record_meta *meta)
{
	struct recorder *rec;
	struct record_file_header h;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return NULL;
	rec = xcalloc(1, sizeof(*rec));
	rec->fd = fd;
	rec->path = xstrdup(path);
	fill_file_header(&h, meta);
	make_room(rec, sizeof(h));
	memcpy(rec->buf, &h, sizeof(h));
	rec->len = sizeof(h);
	return rec;
}

void recorder_track_cpu(struct recorder *rec, unsigned int cpu,
			uint64_t reader_lost, uint64_t raw_dropped, bool first)
{
	struct recorder_cpu *c = cpu_of(rec, cpu);

	if (c->tracked) {
		/* a new reader: bank what the old one counted, drops only
		 * the stats file saw included */
		if (c->raw_stats > c->raw_last)
			c->raw_last = c->raw_stats;
		c->lost_prev = cur_lost(c);
		c->dropped_prev = cur_dropped(c);
	}
	c->tracked = true;
	c->raw_stats = 0;
	c->lost_base = c->lost_last = reader_lost;
	c->raw_base = first ? raw_dropped : 0;
	c->raw_last = raw_dropped >= c->raw_base ? raw_dropped : c->raw_base;
}

static void track_implicitly(struct recorder *rec, const struct subbuf_chunk *chunk)
{
	if (!cpu_of(rec, chunk->cpu)->tracked)
		recorder_track_cpu(rec, chunk->cpu, chunk->lost, chunk->dropped,
				   true);
}

void recorder_stage(struct recorder *rec, const struct subbuf_chunk *chunk)
{
	struct recorder_cpu *c;
	struct record_block h;
	uint32_t size = chunk->nrec * (uint32_t)sizeof(struct sched_relay_record);
	unsigned char *p;

	track_implicitly(rec, chunk);
	c = &rec->cpu[chunk->cpu];
	make_room(rec, BLOCK_SIZE + size);
	rec->stage_pos = rec->len;
	rec->staged = true;
	rec->staged_cpu = chunk->cpu;
	memset(&h, 0, sizeof(h));
	h.magic = RECORD_BLOCK_MAGIC;
	h.type = RECORD_DATA;
	h.cpu = (uint16_t)chunk->cpu;
	h.size = size;
	h.seq = chunk->seq;
	h.generation = chunk->generation;
	/* counts before the first record: as this chunk's header says */
	h.dropped = c->dropped_prev +
		(chunk->dropped > c->raw_base ? chunk->dropped - c->raw_base : 0);
	if (h.dropped < cur_dropped(c))
		h.dropped = cur_dropped(c);	/* never backwards */
	h.lost = c->lost_prev + (chunk->lost - c->lost_base);
	h.offset = chunk->offset;
	h.nrec = chunk->nrec;
	p = rec->buf + rec->len;
	/* The one copy of the records: mapping -> file buffer.  A SIGBUS
	 * here (the channel went away) leaves the block staged; the caller
	 * settles it as torn. */
	memcpy(p + BLOCK_SIZE, chunk->recs, size);
	h.ts = size ? ((const struct sched_relay_record *)(p + BLOCK_SIZE))->ts : 0;
	memcpy(p, &h, sizeof(h));
	rec->len += BLOCK_SIZE + size;
}

void recorder_settle(struct recorder *rec, bool intact)
{
	struct record_block h;
	struct recorder_cpu *c;
	unsigned char *p;

	if (!rec->staged)
		return;
	rec->staged = false;
	if (!intact) {
		rec->len = rec->stage_pos;
		return;
	}
	p = rec->buf + rec->stage_pos;
	memcpy(&h, p, sizeof(h));
	h.crc = block_crc(p, h.size);
	memcpy(p + offsetof(struct record_block, crc), &h.crc, sizeof(h.crc));
	c = &rec->cpu[rec->staged_cpu];
	c->raw_last = c->raw_base + (h.dropped - c->dropped_prev);
	c->lost_last = c->lost_base + (h.lost - c->lost_prev);
	c->records += h.nrec;
	c->blocks++;
	rec->records += h.nrec;
	rec->blocks++;
	if (rec->len >= FLUSH_AT)
		recorder_flush(rec);
}

static void marker(struct recorder *rec, unsigned int cpu, uint16_t type,
		   uint64_t generation)
{
	struct record_block h = { 0 };

	h.type = type;
	h.cpu = (uint16_t)cpu;
	h.generation = generation;
	if (cpu != RECORD_NO_CPU) {
		h.dropped = recorder_dropped(rec, cpu);
		h.lost = recorder_lost(rec, cpu);
	}
	h.ts = mono_ns();
	append_block(rec, &h, NULL, 0);
}

void recorder_note_lost(struct recorder *rec, unsigned int cpu,
			uint64_t reader_lost)
{
	struct recorder_cpu *c = cpu_of(rec, cpu);

	if (c->tracked && reader_lost > c->lost_last)
		c->lost_last = reader_lost;
}

void recorder_note_dropped(struct recorder *rec, unsigned int cpu,
			   uint64_t raw_dropped)
{
	struct recorder_cpu *c = cpu_of(rec, cpu);

	/* A drop the stats file counts that no header shows yet came after
	 * every record read so far: it is banked at the end of the sequence
	 * (a restart) or of the recording.  The caller makes sure the count
	 * is of the sequence the reader is in. */
	if (c->tracked)
		c->raw_stats = raw_dropped;
}

void recorder_restart(struct recorder *rec, unsigned int cpu,
		      uint64_t generation, uint64_t reader_lost)
{
	struct recorder_cpu *c = cpu_of(rec, cpu);

	recorder_note_lost(rec, cpu, reader_lost);
	/* the old sequence's drops that only the stats file counted */
	if (c->tracked && c->raw_stats > c->raw_last)
		c->raw_last = c->raw_stats;
	marker(rec, cpu, RECORD_RESTART, generation);
	/* the new sequence counts its drops from 0 */
	c->dropped_prev = cur_dropped(c);
	c->raw_base = c->raw_last = c->raw_stats = 0;
}

void recorder_gone(struct recorder *rec, unsigned int cpu)
{
	if (cpu != RECORD_NO_CPU) {
		marker(rec, cpu, RECORD_GONE, 0);
		return;
	}
	/* One per CPU, not one for all: a CPU's blocks are read in file
	 * order, so the mark stays between its records from before and
	 * after, whatever the timestamps (a global block is placed by its
	 * time, which is when relaytop noticed, after the new buffers'
	 * first records). */
	for (unsigned int c = 0; c < rec->ncpus; c++)
		if (rec->cpu[c].tracked)
			marker(rec, c, RECORD_GONE, 0);
}

void recorder_config(struct recorder *rec, const struct record_meta *meta)
{
	struct record_block h = { 0 };
	struct record_config cfg = {
		.subbuf_size = meta->geom.subbuf_size,
		.n_subbufs = meta->geom.n_subbufs,
		.events = meta->events,
		.flags = meta->flags,
		.nr_cpus = meta->nr_cpus,
		.generation = meta->generation,
	};

	h.type = RECORD_CONFIG;
	h.cpu = RECORD_NO_CPU;
	h.generation = meta->generation;
	h.ts = mono_ns();
	append_block(rec, &h, &cfg, sizeof(cfg));
}

int recorder_flush(struct recorder *rec)
{
	size_t len = rec->staged ? rec->stage_pos : rec->len;

	if (len)
		write_out(rec, len);
	return rec->error;
}

int recorder_finish(struct recorder *rec)
{
	struct record_block h;
	struct record_end end;

	if (rec->finished)
		return rec->error;
	recorder_settle(rec, false);
	for (unsigned int cpu = 0; cpu < rec->ncpus; cpu++) {
		struct recorder_cpu *c = &rec->cpu[cpu];
		struct record_cpu_end ce = { 0 };

		if (!c->tracked)
			continue;
		if (c->raw_stats > c->raw_last) {
			c->raw_last = c->raw_stats;
			c->drops_from_stats = true;
		}
		memset(&h, 0, sizeof(h));
		h.type = RECORD_CPU_END;
		h.cpu = (uint16_t)cpu;
		h.dropped = cur_dropped(c);
		h.lost = cur_lost(c);
		h.ts = mono_ns();
		ce.records = c->records;
		ce.flags = c->drops_from_stats ? RECORD_END_DROPS_FROM_STATS : 0;
		append_block(rec, &h, &ce, sizeof(ce));
	}
	memset(&h, 0, sizeof(h));
	h.type = RECORD_END;
	h.cpu = RECORD_NO_CPU;
	h.ts = mono_ns();
	end.blocks = rec->blocks;
	end.records = rec->records;
	append_block(rec, &h, &end, sizeof(end));
	recorder_flush(rec);
	if (close(rec->fd) && !rec->error)
		rec->error = -errno;
	rec->fd = -1;
	rec->finished = true;
	return rec->error;
}

void recorder_free(struct recorder *rec)
{
	if (!rec)
		return;
	if (rec->fd >= 0)
		close(rec->fd);
	free(rec->buf);
	free(rec->cpu);
	free(rec->path);
	free(rec);
}

/* ---- reading -------------------------------------------------------- */

struct stream_cpu {
	uint64_t *blocks;	/* file offsets of this CPU's blocks */
	size_t nblocks;
	size_t cap;
	size_t next;		/* next block to load */
	struct sched_relay_record *recs;	/* current DATA block's */
	size_t recs_cap;
	uint32_t idx;		/* next record in recs */
	uint32_t nrec;
	uint64_t block_ts;	/* first record's ts of that block */
	uint64_t pend_dropped;	/* items to give before the next record */
	uint64_t pend_lost;
	bool pend_marker;	/* a RESTART or GONE item after those */
	uint16_t marker_type;
	uint64_t marker_gen;
	uint64_t dropped_seen;	/* counts already given as items */
	uint64_t lost_seen;
	uint64_t last_ts;	/* the last record's ts */
	bool done;
};

static void fail(struct record_stream *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct record_stream *s, const char *fmt, ...)
{
	va_list ap;

	if (s->error[0])
		return;		/* the first error is the one that matters */
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

/* pread() all of len at off: 0, or the bytes short of len were missing. */
static ssize_t read_at(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got,
				  (off_t)(off + got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void *scratch(struct record_stream *s, size_t size)
{
	if (size > s->scratch_cap) {
		free(s->scratch);
		s->scratch = xmalloc(size);
		s->scratch_cap = size;
	}
	return s->scratch;
}

static int check_file_header(struct record_stream *s)
{
	struct record_file_header *h = &s->hdr;
	ssize_t n = read_at(s->fd, h, sizeof(*h), 0);

	if (n < 0) {
		fail(s, "%s: %s", s->path, strerror(errno));
		return -1;
	}
	if ((size_t)n < sizeof(h->magic) ||
	    memcmp(h->magic, RECORD_MAGIC, sizeof(h->magic))) {
		fail(s, "%s: not a relaytop recording (no \"%s\" at the start)",
		     s->path, RECORD_MAGIC);
		return -1;
	}
	if ((size_t)n < sizeof(*h)) {
		fail(s, "%s: truncated: the file header is %zd of %zu bytes",
		     s->path, n, sizeof(*h));
		return -1;
	}
	if (h->byte_order != RECORD_BYTE_ORDER) {
		fail(s, "%s: recorded on a machine of another byte order "
		     "(mark 0x%08" PRIx32 "); this relaytop cannot read it",
		     s->path, h->byte_order);
		return -1;
	}
	if (h->version > RECORD_VERSION) {
		fail(s, "%s: recording format version %" PRIu32
		     " is newer than this relaytop reads (version %d): "
		     "use a newer relaytop", s->path, h->version,
		     RECORD_VERSION);
		return -1;
	}
	if (h->crc != crc32_update(0, h, offsetof(struct record_file_header,
						   crc))) {
		fail(s, "%s: corrupt file header (CRC mismatch)", s->path);
		return -1;
	}
	if (h->version == 0 || h->header_size < sizeof(*h) ||
	    h->header_size > 65536) {
		fail(s, "%s: corrupt file header (version %" PRIu32
		     ", header size %" PRIu32 ")", s->path, h->version,
		     h->header_size);
		return -1;
	}
	/* format 1 holds version 1 records, format 2 version 2 ones */
	if (h->record_version != (h->version == 1 ? 1 : SCHED_RELAY_VERSION) ||
	    h->record_size != sizeof(struct sched_relay_record)) {
		fail(s, "%s: holds records of format %u (%u bytes); this "
		     "relaytop reads format %d (%zu bytes) in recordings of "
		     "format %d, and format 1 in those of format 1", s->path,
		     h->record_version, h->record_size, SCHED_RELAY_VERSION,
		     sizeof(struct sched_relay_record), RECORD_VERSION);
		return -1;
	}
	s->identity = h->record_version >= 2;
	if (h->nr_cpus > RECORD_MAX_CPUS) {
		fail(s, "%s: corrupt file header (%" PRIu32 " CPUs)", s->path,
		     h->nr_cpus);
		return -1;
	}
	return 0;
}

static void grow_cpus(struct record_stream *s, unsigned int cpu)
{
	unsigned int n;
	struct stream_cpu *c;
	struct record_cpu_summary *sum;

	if (cpu < s->ncpus)
		return;
	n = cpu + 1 > 2 * s->ncpus ? cpu + 1 : 2 * s->ncpus;
	c = xcalloc(n, sizeof(*c));
	sum = xcalloc(n, sizeof(*sum));
	if (s->ncpus) {
		memcpy(c, s->cpu, s->ncpus * sizeof(*c));
		memcpy(sum, s->summary, s->ncpus * sizeof(*sum));
	}
	free(s->cpu);
	free(s->summary);
	s->cpu = c;
	s->summary = sum;
	s->ncpus = n;
}

static void push_offset(uint64_t **v, size_t *n, size_t *cap, uint64_t off)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = realloc(*v, *cap * sizeof(**v));
		if (!*v)
			fatal("out of memory indexing a recording");
	}
	(*v)[(*n)++] = off;
}

/* Is this block's header consistent with its type?  NULL when it is. */
static const char *block_problem(const struct record_file_header *fh,
				 const struct record_block *b)
{
	bool global = b->cpu == RECORD_NO_CPU;

	switch (b->type) {
	case RECORD_DATA:
		if (global)
			return "a DATA block without a CPU";
		if ((uint64_t)b->nrec * fh->record_size != b->size || !b->nrec)
			return "a DATA block whose size is not its records'";
		return NULL;
	case RECORD_CONFIG:
		return b->size < sizeof(struct record_config) ?
			"a CONFIG block too short" : NULL;
	case RECORD_RESTART:
		return global ? "a RESTART block without a CPU" : NULL;
	case RECORD_GONE:
		return NULL;
	case RECORD_CPU_END:
		if (global)
			return "a CPU_END block without a CPU";
		return b->size < sizeof(struct record_cpu_end) ?
			"a CPU_END block too short" : NULL;
	case RECORD_END:
		return b->size < sizeof(struct record_end) ?
			"an END block too short" : NULL;
	default:
		return NULL;	/* a newer block type: skipped */
	}
}

static void note_block(struct record_stream *s, const struct record_block *b,
		       const void *payload, uint64_t off)
{
	struct record_cpu_summary *sum;
	struct stream_cpu *c;

	s->blocks++;
	grow_cpus(s, b->cpu);
	c = &s->cpu[b->cpu];
	sum = &s->summary[b->cpu];
	sum->present = true;
	switch (b->type) {
	case RECORD_DATA:
		sum->records += b->nrec;
		s->records += b->nrec;
		break;
	case RECORD_CPU_END: {
		struct record_cpu_end ce;

		memcpy(&ce, payload, sizeof(ce));
		sum->ended = true;
		sum->drops_from_stats = ce.flags & RECORD_END_DROPS_FROM_STATS;
		sum->end_ts = b->ts;
		break;
	}
	case RECORD_RESTART:
	case RECORD_GONE:
		break;
	default:
		return;		/* unknown: not indexed */
	}
	if (b->dropped > sum->dropped)
		sum->dropped = b->dropped;
	if (b->lost > sum->lost)
		sum->lost = b->lost;
	push_offset(&c->blocks, &c->nblocks, &c->cap, off);
}

/* Pass 1: check every block and index it. */
static void scan(struct record_stream *s)
{
	uint64_t off = s->hdr.header_size;
	size_t gcap = 0;

	while (off < s->file_size) {
		struct record_block b;
		ssize_t n = read_at(s->fd, &b, sizeof(b), off);
		const char *problem;
		void *payload;

		if (n < 0) {
			fail(s, "%s: %s", s->path, strerror(errno));
			return;
		}
		if (s->ended) {
			fail(s, "%s: corrupt: data after the end block at byte %"
			     PRIu64, s->path, off);
			return;
		}
		if ((size_t)n < sizeof(b)) {
			fail(s, "%s: truncated at byte %" PRIu64
			     ": incomplete block header (%zd of %zu bytes)",
			     s->path, off, n, sizeof(b));
			return;
		}
		if (b.magic != RECORD_BLOCK_MAGIC) {
			fail(s, "%s: corrupt at byte %" PRIu64
			     ": not a block header", s->path, off);
			return;
		}
		if (b.size > RECORD_MAX_PAYLOAD) {
			fail(s, "%s: corrupt at byte %" PRIu64
			     ": a block of %" PRIu32 " bytes", s->path, off,
			     b.size);
			return;
		}
		if (off + sizeof(b) + b.size > s->file_size) {
			fail(s, "%s: truncated at byte %" PRIu64
			     ": a block of %" PRIu32 " bytes ends past the end"
			     " of the file (%" PRIu64 " bytes)", s->path, off,
			     b.size, s->file_size);
			return;
		}
		payload = scratch(s, b.size + 1);
		n = read_at(s->fd, payload, b.size, off + sizeof(b));
		if (n < 0 || (size_t)n != b.size) {
			fail(s, "%s: cannot read the block at byte %" PRIu64
			     ": %s", s->path, off,
			     n < 0 ? strerror(errno) : "short read");
			return;
		}
		{
			uint32_t crc = b.crc;

			b.crc = 0;
			if (crc32_update(crc32_update(0, &b, sizeof(b)),
					 payload, b.size) != crc) {
				fail(s, "%s: corrupt block at byte %" PRIu64
				     " (CRC mismatch)", s->path, off);
				return;
			}
			b.crc = crc;
		}
		problem = b.cpu != RECORD_NO_CPU && b.cpu >= RECORD_MAX_CPUS ?
			  "a block of a CPU beyond any kernel's" :
			  block_problem(&s->hdr, &b);
		if (problem) {
			fail(s, "%s: corrupt at byte %" PRIu64 ": %s", s->path,
			     off, problem);
			return;
		}
		if (b.cpu == RECORD_NO_CPU) {
			s->blocks++;
			if (b.type == RECORD_CONFIG || b.type == RECORD_GONE)
				push_offset(&s->global, &s->nglobal, &gcap, off);
			if (b.type == RECORD_END)
				s->ended = true;
		} else {
			note_block(s, &b, payload, off);
		}
		off += sizeof(b) + b.size;
	}
	if (!s->ended)
		fail(s, "%s: truncated: the recording has no end block "
		     "(was relaytop killed while recording?)", s->path);
}

int record_stream_open(struct record_stream *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->path = xstrdup(path);
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		fail(s, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(s->fd, &st)) {
		fail(s, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fail(s, "%s: not a regular file", path);
		return -1;
	}
	s->file_size = (uint64_t)st.st_size;
	if (check_file_header(s))
		return -1;
	grow_cpus(s, s->hdr.nr_cpus ? s->hdr.nr_cpus - 1 : 0);
	scan(s);
	return 0;
}

/*
 * Records of a format 1 recording are version 1 records: made version 2
 * in place (the same 64 bytes), so that everything after this sees one
 * layout.  They have no identity (event_seq 0) and no tgids (-1).
 */
static void convert_v1(struct sched_relay_record *recs, uint32_t n)
{
	_Static_assert(sizeof(struct sched_relay_record_v1) ==
		       sizeof(struct sched_relay_record), "v1 record size");
	for (uint32_t i = 0; i < n; i++) {
		struct sched_relay_record_v1 v1;

		memcpy(&v1, &recs[i], sizeof(v1));
		fields_from_v1(&v1, &recs[i]);
	}
}

/* Load cpu's next block; false when it has none left. */
static bool load_block(struct record_stream *s, unsigned int cpu)
{
	struct stream_cpu *c = &s->cpu[cpu];
	struct record_block b;
	uint64_t off;

	if (c->next >= c->nblocks) {
		c->done = true;
		return false;
	}
	off = c->blocks[c->next++];
	if (read_at(s->fd, &b, sizeof(b), off) != (ssize_t)sizeof(b)) {
		fail(s, "%s: the file changed while it was read", s->path);
		c->done = true;
		return false;
	}
	if (b.dropped > c->dropped_seen)
		c->pend_dropped = b.dropped - c->dropped_seen;
	if (b.lost > c->lost_seen)
		c->pend_lost = b.lost - c->lost_seen;
	c->dropped_seen = b.dropped > c->dropped_seen ? b.dropped : c->dropped_seen;
	c->lost_seen = b.lost > c->lost_seen ? b.lost : c->lost_seen;
	c->idx = c->nrec = 0;
	if (b.type == RECORD_DATA) {
		if (b.size > c->recs_cap) {
			free(c->recs);
			c->recs = xmalloc(b.size);
			c->recs_cap = b.size;
		}
		if (read_at(s->fd, c->recs, b.size, off + sizeof(b)) !=
		    (ssize_t)b.size) {
			fail(s, "%s: the file changed while it was read",
			     s->path);
			c->done = true;
			return false;
		}
		c->nrec = b.nrec;
		c->block_ts = b.ts;
		if (!s->identity)
			convert_v1(c->recs, c->nrec);
	} else if (b.type == RECORD_RESTART || b.type == RECORD_GONE) {
		c->pend_marker = true;
		c->marker_type = b.type;
		c->marker_gen = b.generation;
	}
	return true;
}

/* What cpu gives next, without taking it; false when it is finished. */
static bool peek(struct record_stream *s, unsigned int cpu,
		 struct record_item *it)
{
	struct stream_cpu *c = &s->cpu[cpu];

	while (!c->done) {
		it->cpu = cpu;
		it->rec = NULL;
		it->count = 0;
		/* gaps come right before the record that follows them; at
		 * the end of a stream, right after the last one */
		it->ts = c->idx < c->nrec ? c->block_ts : c->last_ts;
		if (c->pend_dropped) {
			it->kind = ITEM_DROPPED;
			it->count = c->pend_dropped;
			return true;
		}
		if (c->pend_lost) {
			it->kind = ITEM_LOST;
			it->count = c->pend_lost;
			return true;
		}
		if (c->pend_marker) {
			it->kind = c->marker_type == RECORD_RESTART ?
				   ITEM_RESTART : ITEM_GONE;
			it->generation = c->marker_gen;
			it->ts = c->last_ts;
			return true;
		}
		if (c->idx < c->nrec) {
			it->kind = ITEM_RECORD;
			it->rec = &c->recs[c->idx];
			it->ts = it->rec->ts;
			return true;
		}
		load_block(s, cpu);
	}
	return false;
}

static void take(struct record_stream *s, const struct record_item *it)
{
	struct stream_cpu *c = &s->cpu[it->cpu];

	switch (it->kind) {
	case ITEM_DROPPED:
		c->pend_dropped = 0;
		break;
	case ITEM_LOST:
		c->pend_lost = 0;
		break;
	case ITEM_RESTART:
	case ITEM_GONE:
		c->pend_marker = false;
		break;
	case ITEM_RECORD:
		c->idx++;
		c->last_ts = it->ts;
		break;
	case ITEM_CONFIG:
		break;
	}
}

static bool peek_global(struct record_stream *s, struct record_item *it)
{
	struct record_block b;
	uint64_t off;

	if (s->have_pending_global) {
		*it = s->pending_global;
		return true;
	}
	if (s->next_global >= s->nglobal)
		return false;
	off = s->global[s->next_global];
	if (read_at(s->fd, &b, sizeof(b), off) != (ssize_t)sizeof(b)) {
		fail(s, "%s: the file changed while it was read", s->path);
		s->next_global = s->nglobal;
		return false;
	}
	memset(it, 0, sizeof(*it));
	it->cpu = RECORD_NO_CPU;
	it->ts = b.ts;
	it->generation = b.generation;
	if (b.type == RECORD_CONFIG) {
		it->kind = ITEM_CONFIG;
		if (read_at(s->fd, &it->config, sizeof(it->config),
			    off + sizeof(b)) != (ssize_t)sizeof(it->config)) {
			fail(s, "%s: the file changed while it was read",
			     s->path);
			s->next_global = s->nglobal;
			return false;
		}
	} else {
		it->kind = ITEM_GONE;
	}
	s->pending_global = *it;
	s->have_pending_global = true;
	return true;
}

int record_stream_next(struct record_stream *s, struct record_item *item)
{
	struct record_item best, it;
	bool have = false, global;

	/* The smallest timestamp first; ties in CPU order.  A linear scan:
	 * recordings have a handful of CPUs, and it keeps this simple. */
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		if (!peek(s, cpu, &it))
			continue;
		if (!have || it.ts < best.ts) {
			best = it;
			have = true;
		}
	}
	global = peek_global(s, &it);
	if (global && (!have || it.ts <= best.ts)) {
		*item = it;
		s->have_pending_global = false;
		s->next_global++;
		return 1;
	}
	if (!have)
		return 0;
	take(s, &best);
	*item = best;
	return 1;
}

bool record_stream_has_cpu(const struct record_stream *s, unsigned int cpu)
{
	return cpu < s->hdr.nr_cpus ||
	       (cpu < s->ncpus && s->summary[cpu].present);
}

unsigned int record_stream_nr_cpus(const struct record_stream *s)
{
	unsigned int n = s->hdr.nr_cpus;

	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->summary[cpu].present && cpu + 1 > n)
			n = cpu + 1;
	return n;
}

void record_stream_close(struct record_stream *s)
{
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		free(s->cpu[cpu].blocks);
		free(s->cpu[cpu].recs);
	}
	free(s->cpu);
	free(s->summary);
	free(s->global);
	free(s->scratch);
	free(s->path);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * record_reader.c - checking and indexing a recording, and reading each
 * CPU's items back (see record_reader.h; the format is in record_format.h
 * and docs/record-format.md).
 *
 * record_reader_open() checks the whole file first (sizes, CRCs, order)
 * and indexes every CPU's blocks; the valid prefix of a damaged file is
 * still readable and the error says where the damage begins.
 */
#include "record_reader.h"

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

struct reader_cpu {
	struct reader_block *blocks;	/* this CPU's blocks */
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

static void fail(struct record_reader *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct record_reader *s, const char *fmt, ...)
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

static void *scratch(struct record_reader *s, size_t size)
{
	if (size > s->scratch_cap) {
		free(s->scratch);
		s->scratch = xmalloc(size);
		s->scratch_cap = size;
	}
	return s->scratch;
}

static int check_file_header(struct record_reader *s)
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
	if (h->byte_order == __builtin_bswap32(RECORD_BYTE_ORDER)) {
		fail(s, "%s: recorded on a machine of the other byte order "
		     "(mark 0x%08" PRIx32 "); this relaytop cannot read it",
		     s->path, h->byte_order);
		return -1;
	}
	if (h->byte_order != RECORD_BYTE_ORDER) {
		fail(s, "%s: corrupt file header (byte order mark 0x%08" PRIx32
		     ")", s->path, h->byte_order);
		return -1;
	}
	if (h->version > RECORD_VERSION) {
		fail(s, "%s: recording format version %" PRIu32
		     " is newer than this relaytop reads (version %d): "
		     "use a newer relaytop", s->path, h->version,
		     RECORD_VERSION);
		return -1;
	}
	if (h->crc != record_header_crc(h)) {
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
	/* format 1 holds version 1 records, formats 2 and 3 version 2 ones */
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

static void grow_cpus(struct record_reader *s, unsigned int cpu)
{
	unsigned int n = s->ncpus;

	s->cpu = xgrow(s->cpu, &n, cpu, sizeof(*s->cpu));
	s->summary = xgrow(s->summary, &s->ncpus, cpu, sizeof(*s->summary));
}

static void push_block(struct reader_block **v, size_t *n, size_t *cap,
		       const struct record_block *b, uint64_t off)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = realloc(*v, *cap * sizeof(**v));
		if (!*v)
			fatal("out of memory indexing a recording");
	}
	(*v)[(*n)++] = (struct reader_block) { off, b->size, b->crc };
}

/*
 * Read the header of indexed block e again (to read its payload): false,
 * with the error set, when it is not the one the scan checked (the file
 * changed since it was opened): nothing of it may be trusted then, not
 * its size nor its record count.
 */
static bool reread_block(struct record_reader *s, const struct reader_block *e,
			 struct record_block *b)
{
	bool same = read_at(s->fd, b, sizeof(*b), e->off) ==
		    (ssize_t)sizeof(*b) && b->magic == RECORD_BLOCK_MAGIC &&
		    b->size == e->size && b->crc == e->crc &&
		    !record_block_problem(&s->hdr, b);

	/* a format 3 DATA block's CRC is of its header alone */
	if (same && s->hdr.version >= 3 && b->type == RECORD_DATA)
		same = record_block_crc_v(s->hdr.version, b, NULL, 0) == b->crc;
	if (!same)
		fail(s, "%s: the file changed while it was read (at byte %"
		     PRIu64 ")", s->path, e->off);
	return same;
}

static void note_block(struct record_reader *s, const struct record_block *b,
		       const void *payload, uint64_t off)
{
	struct record_cpu_summary *sum;
	struct reader_cpu *c;

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
	case RECORD_SKIPPED:	/* no records: its counts say they are lost */
		if (s->hdr.version < 3)
			return;
		break;
	default:
		return;		/* unknown: not indexed */
	}
	if (b->dropped > sum->dropped)
		sum->dropped = b->dropped;
	if (b->lost > sum->lost)
		sum->lost = b->lost;
	push_block(&c->blocks, &c->nblocks, &c->cap, b, off);
}

/*
 * From format 3 on a DATA block's CRC covers its header only: the first
 * record must be the one the header says (its timestamp); whether the
 * records are the producer's, in their places, is what --check's
 * identity check says (their event numbers).  NULL when it is.
 */
static const char *data_problem(const struct record_block *b,
				const void *payload)
{
	const struct sched_relay_record *r = payload;

	if (r[0].ts != b->ts)
		return "a DATA block whose first record is not the one its "
		       "header says";
	return NULL;
}

/* The END block counts what is before it: blocks of every type, and the
 * DATA blocks' records.  A count that is not the file's is corruption. */
static void check_end(struct record_reader *s, const struct record_end *e,
		      uint64_t off)
{
	if (e->blocks != s->blocks || e->records != s->records)
		fail(s, "%s: corrupt at byte %" PRIu64 ": the end block counts %"
		     PRIu64 " blocks and %" PRIu64 " records, the file has %"
		     PRIu64 " and %" PRIu64, s->path, off, e->blocks,
		     e->records, s->blocks, s->records);
}

/* Pass 1: check every block and index it. */
static void scan(struct record_reader *s)
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
		if (record_block_crc_v(s->hdr.version, &b, payload, b.size) !=
		    b.crc) {
			fail(s, "%s: corrupt block at byte %" PRIu64
			     " (CRC mismatch)", s->path, off);
			return;
		}
		problem = record_block_problem(&s->hdr, &b);
		if (!problem && s->hdr.version >= 3 && b.type == RECORD_DATA)
			problem = data_problem(&b, payload);
		if (problem) {
			fail(s, "%s: corrupt at byte %" PRIu64 ": %s", s->path,
			     off, problem);
			return;
		}
		if (b.cpu == RECORD_NO_CPU) {
			if (b.type == RECORD_END) {
				struct record_end e;

				memcpy(&e, payload, sizeof(e));
				check_end(s, &e, off);
				if (s->error[0])
					return;
				s->ended = true;
			}
			s->blocks++;
			if (b.type == RECORD_CONFIG || b.type == RECORD_GONE)
				push_block(&s->global, &s->nglobal, &gcap, &b,
					   off);
		} else {
			note_block(s, &b, payload, off);
		}
		off += sizeof(b) + b.size;
	}
	if (!s->ended)
		fail(s, "%s: truncated: the recording has no end block "
		     "(was relaytop killed while recording?)", s->path);
}


int record_reader_open(struct record_reader *s, const char *path)
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
static bool load_block(struct record_reader *s, unsigned int cpu)
{
	struct reader_cpu *c = &s->cpu[cpu];
	const struct reader_block *e;
	struct record_block b;

	if (c->next >= c->nblocks) {
		c->done = true;
		return false;
	}
	e = &c->blocks[c->next++];
	if (!reread_block(s, e, &b)) {
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
		if (read_at(s->fd, c->recs, b.size, e->off + sizeof(b)) !=
		    (ssize_t)b.size ||
		    (s->hdr.version >= 3 && data_problem(&b, c->recs))) {
			fail(s, "%s: the file changed while it was read (at "
			     "byte %" PRIu64 ")", s->path, e->off);
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
bool record_reader_peek(struct record_reader *s, unsigned int cpu,
			struct record_item *it)
{
	struct reader_cpu *c = &s->cpu[cpu];

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

void record_reader_take(struct record_reader *s, const struct record_item *it)
{
	struct reader_cpu *c = &s->cpu[it->cpu];

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

bool record_reader_peek_global(struct record_reader *s, struct record_item *it)
{
	const struct reader_block *e;
	struct record_block b;

	if (s->have_pending_global) {
		*it = s->pending_global;
		return true;
	}
	if (s->next_global >= s->nglobal)
		return false;
	e = &s->global[s->next_global];
	if (!reread_block(s, e, &b)) {
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
			    e->off + sizeof(b)) != (ssize_t)sizeof(it->config)) {
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

void record_reader_take_global(struct record_reader *s)
{
	s->have_pending_global = false;
	s->next_global++;
}

bool record_reader_has_cpu(const struct record_reader *s, unsigned int cpu)
{
	return cpu < s->hdr.nr_cpus ||
	       (cpu < s->ncpus && s->summary[cpu].present);
}

unsigned int record_reader_nr_cpus(const struct record_reader *s)
{
	unsigned int n = s->hdr.nr_cpus;

	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->summary[cpu].present && cpu + 1 > n)
			n = cpu + 1;
	return n;
}

void record_reader_close(struct record_reader *s)
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

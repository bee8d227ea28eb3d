// SPDX-License-Identifier: GPL-2.0
/*
 * record_writer.c - writing a recording (see record_writer.h; the format
 * is in record_format.h and docs/record-format.md).
 *
 * Blocks are assembled in a buffer and written out in large writes.  A
 * DATA block is staged while the reader cannot yet vouch for its records
 * (overwrite mode) and cut off again if they were torn, so the file only
 * ever holds intact records.  The counts in each block are cumulative
 * since the recording started, so a block says exactly how many events
 * are missing before it, and a CTF exporter can use them as packet
 * contexts' events_discarded.
 *
 * Zero-copy mode (a live recording into a file): a DATA block's header
 * goes into the buffer and its payload stays in the mapping; after each
 * sub-buffer a drain read (or the drainers' queues replayed) the source
 * calls recorder_commit(), which writes all of it with one writev() and then
 * checks every block's sub-buffer header again: one the producer rewrote
 * meanwhile (overwrite mode, a reset) was written torn, and its header is
 * rewritten in place as SKIPPED, its records counted lost in it and in
 * every later block of its CPU.  Only then does the source hand the
 * sub-buffers back.
 */
#include "record_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "loop.h"
#include "util.h"

#define FLUSH_AT (1u << 20)	/* write out once this much is buffered */

static struct recorder_cpu *cpu_of(struct recorder *rec, unsigned int cpu)
{
	rec->cpu = xgrow(rec->cpu, &rec->ncpus, cpu, sizeof(*rec->cpu));
	return &rec->cpu[cpu];
}

/* A stop signal came: from now on the writes wait until stop_by at most,
 * without blocking (the file's own open file description). */
static void stopping(struct recorder *rec)
{
	int fl;

	if (rec->stop_by)
		return;
	rec->stop_by = mono_ns() + rec->grace_ns;
	if (!rec->regular && (fl = fcntl(rec->fd, F_GETFL)) >= 0)
		fcntl(rec->fd, F_SETFL, fl | O_NONBLOCK);
}

/* Wait for the file to take more, until stop_by: false when it did not. */
static bool writable_in_time(struct recorder *rec)
{
	for (;;) {
		uint64_t now = mono_ns();
		struct pollfd p = { .fd = rec->fd, .events = POLLOUT };
		int ms, n;

		if (now >= rec->stop_by)
			return false;
		ms = (int)((rec->stop_by - now + 999999) / 1000000);
		n = poll(&p, 1, ms);
		if (n > 0)
			return true;
		if (n < 0 && errno != EINTR)
			return false;
	}
}

/*
 * Write len bytes of buf: how many were written.  The write may wait for
 * the reader for ever, but a stop signal gets in and cuts it short; after
 * one the writes wait until stop_by at most (see recorder_grace()), and
 * what is left then is the recording's end (cut_short).
 */
static size_t put_out(struct recorder *rec, const void *buf, size_t len)
{
	size_t done = 0;
	sigset_t saved;

	if (rec->error)
		return 0;
	saved = loop_signals_in();
	while (done < len) {
		ssize_t n;

		/* (a signal cuts a write short with EINTR, or with what it
		 * wrote until then) */
		if (loop_signalled())
			stopping(rec);
		n = write(rec->fd, (const char *)buf + done, len - done);
		if (n >= 0) {
			done += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && rec->stop_by && writable_in_time(rec))
			continue;
		if (errno == EAGAIN && rec->stop_by) {
			rec->cut_short = true;
			rec->error = -ETIMEDOUT;
		} else {
			rec->error = -errno;
		}
		break;
	}
	loop_signals_out(&saved);
	rec->file_bytes += done;
	return done;
}

static int write_out(struct recorder *rec, size_t len)
{
	size_t done = put_out(rec, rec->buf, len);

	memmove(rec->buf, rec->buf + done, rec->len - done);
	rec->len -= done;
	return rec->error;
}

void recorder_grace(struct recorder *rec, uint64_t grace_ns)
{
	rec->grace_ns = grace_ns;
}

const char *recorder_strerror(struct recorder *rec)
{
	if (rec->cut_short)
		snprintf(rec->error_text, sizeof(rec->error_text), "its reader "
			 "took nothing for %.1f s after the stop: the "
			 "recording ends at byte %" PRIu64 ", without its end",
			 (double)rec->grace_ns / 1e9, rec->file_bytes);
	else
		snprintf(rec->error_text, sizeof(rec->error_text), "%s",
			 strerror(-rec->error));
	return rec->error_text;
}

/* Room for 'more' bytes at the end of the buffer (no block staged). */
static void make_room(struct recorder *rec, size_t more)
{
	if (rec->len + more <= rec->cap)
		return;
	if (rec->zero_copy)
		recorder_commit(rec);	/* the payloads are still in place */
	else if (rec->len)
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

/* The CRC of the block at p (header, then size bytes of payload). */
static uint32_t block_crc(const unsigned char *p, size_t size)
{
	struct record_block h;

	memcpy(&h, p, sizeof(h));
	return record_block_crc_v(RECORD_VERSION, &h, p + sizeof(h), size);
}

/* Zero-copy mode: note the block whose header starts at off. */
static void batch_add(struct recorder *rec, size_t off, const void *payload,
		      uint32_t size, const struct subbuf_chunk *chunk)
{
	struct recorder_block *b;

	if (!rec->zero_copy)
		return;
	if (rec->nbatch == rec->batch_cap) {
		rec->batch_cap = rec->batch_cap ? 2 * rec->batch_cap : 64;
		rec->batch = realloc(rec->batch,
				     rec->batch_cap * sizeof(*rec->batch));
		if (!rec->batch)
			fatal("out of memory");
	}
	b = &rec->batch[rec->nbatch++];
	*b = (struct recorder_block) { .off = off, .payload = payload,
				       .size = size };
	if (chunk) {
		b->hdr = chunk->hdr;
		b->seq = chunk->seq;
		b->generation = chunk->generation;
	}
}

/* Append a whole block (header filled in but for magic/size/crc). */
static void append_block(struct recorder *rec, struct record_block *h,
			 const void *payload, uint32_t size)
{
	unsigned char *p;

	make_room(rec, RECORD_BLOCK_SIZE + size);
	batch_add(rec, rec->len, NULL, size, NULL);
	h->magic = RECORD_BLOCK_MAGIC;
	h->size = size;
	h->crc = 0;
	p = rec->buf + rec->len;
	memcpy(p, h, sizeof(*h));
	if (size)
		memcpy(p + RECORD_BLOCK_SIZE, payload, size);
	h->crc = block_crc(p, size);
	memcpy(p + offsetof(struct record_block, crc), &h->crc, sizeof(h->crc));
	rec->len += RECORD_BLOCK_SIZE + size;
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
	h->header_size = RECORD_FILE_HDR_SIZE;
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
	h->crc = record_header_crc(h);
}

struct recorder *recorder_create(const char *path, const struct record_meta *meta)
{
	struct recorder *rec;
	struct record_file_header h;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct stat st;

	if (fd < 0)
		return NULL;
	rec = xcalloc(1, sizeof(*rec));
	rec->fd = fd;
	rec->path = xstrdup(path);
	rec->regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
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
	make_room(rec, RECORD_BLOCK_SIZE + (rec->zero_copy ? 0 : size));
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
	if (rec->zero_copy) {
		/* the payload is written from the mapping at the commit */
		h.ts = size ? chunk->recs[0].ts : 0;
		memcpy(p, &h, sizeof(h));
		batch_add(rec, rec->len, chunk->recs, size, chunk);
		rec->len += RECORD_BLOCK_SIZE;
		return;
	}
	/* The one copy of the records: mapping -> file buffer.  A SIGBUS
	 * here (the channel went away) leaves the block staged; the caller
	 * settles it as torn. */
	memcpy(p + RECORD_BLOCK_SIZE, chunk->recs, size);
	h.ts = size ? ((const struct sched_relay_record *)(p + RECORD_BLOCK_SIZE))->ts : 0;
	memcpy(p, &h, sizeof(h));
	rec->len += RECORD_BLOCK_SIZE + size;
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
		/* a SIGBUS in recorder_stage() may have come before the
		 * block was added to the batch: take off only its own */
		if (rec->zero_copy && rec->nbatch &&
		    rec->batch[rec->nbatch - 1].off == rec->stage_pos)
			rec->nbatch--;
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
	if (rec->len >= FLUSH_AT && !rec->zero_copy)
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

/*
 * Zero-copy mode: the batch's DATA blocks marked in bad[] were not
 * written intact.  Each becomes SKIPPED (written: its size stays, the
 * bytes are skipped; not written: no payload), its records are counted
 * lost in it and in every later block of its CPU (rewritten in place when
 * written), and in what the CPU's next blocks will say.
 */
static void repair(struct recorder *rec, const bool *bad, bool written)
{
	uint64_t *extra = xcalloc(rec->ncpus + 1, sizeof(*extra));

	for (unsigned int i = 0; i < rec->nbatch; i++) {
		struct recorder_block *e = &rec->batch[i];
		unsigned char *p = rec->buf + e->off;
		struct record_block h;
		bool changed = false;

		memcpy(&h, p, sizeof(h));
		if (h.cpu >= rec->ncpus)
			continue;	/* a block about all CPUs */
		if (bad[i]) {
			struct recorder_cpu *c = &rec->cpu[h.cpu];

			h.type = RECORD_SKIPPED;
			extra[h.cpu] += h.nrec;
			c->records -= h.nrec;
			c->lost_prev += h.nrec;	/* for its next blocks */
			rec->records -= h.nrec;
			rec->skipped += h.nrec;
			if (!written) {
				h.size = 0;
				e->payload = NULL;
				e->size = 0;
			}
			changed = true;
		}
		if (extra[h.cpu]) {
			h.lost += extra[h.cpu];
			changed = true;
		}
		if (!changed)
			continue;
		h.crc = 0;
		memcpy(p, &h, sizeof(h));
		h.crc = block_crc(p, e->payload ? 0 : h.size);
		memcpy(p + offsetof(struct record_block, crc), &h.crc,
		       sizeof(h.crc));
		if (written && !rec->error &&
		    pwrite(rec->fd, p, sizeof(h), (off_t)e->file_off) !=
		    (ssize_t)sizeof(h))
			rec->error = errno ? -errno : -EIO;
	}
	free(extra);
}

/* The batch's payloads not written yet cannot be any more: SKIPPED. */
static void drop_unwritten(struct recorder *rec)
{
	bool *bad;
	bool any = false;

	if (rec->batch_written) {
		/* written, its check cut short by a SIGBUS: as it is */
		rec->batch_written = false;
		rec->len = 0;
		rec->nbatch = 0;
		return;
	}
	if (!rec->zero_copy || !rec->nbatch)
		return;
	bad = xcalloc(rec->nbatch, sizeof(*bad));
	for (unsigned int i = 0; i < rec->nbatch; i++)
		any |= bad[i] = rec->batch[i].payload != NULL;
	if (any)
		repair(rec, bad, false);
	free(bad);
}

/* writev() all of iov[0..n), in as many calls as it takes: 0 or -errno. */
static int writev_all(struct recorder *rec, struct iovec *iov, int n)
{
	while (n > 0) {
		int cnt = n < IOV_MAX ? n : IOV_MAX;
		ssize_t w = writev(rec->fd, iov, cnt);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		rec->writevs++;
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

int recorder_commit(struct recorder *rec)
{
	struct iovec *iov;
	uint64_t pos = rec->file_bytes, total;
	size_t cursor = 0;
	bool *bad, any = false;
	int n = 0, err;

	if (!rec->zero_copy || rec->staged)
		return rec->error;
	if (rec->error) {
		rec->len = 0;	/* nothing more reaches the file anyway */
		rec->nbatch = 0;
		return rec->error;
	}
	if (!rec->len)
		return 0;
	iov = xcalloc(2 * (size_t)rec->nbatch + 1, sizeof(*iov));
	for (unsigned int i = 0; i < rec->nbatch; i++) {
		struct recorder_block *e = &rec->batch[i];

		e->file_off = pos + (e->off - cursor);
		if (!e->payload)
			continue;
		iov[n++] = (struct iovec) { rec->buf + cursor,
					    e->off + RECORD_BLOCK_SIZE - cursor };
		pos += e->off + RECORD_BLOCK_SIZE - cursor;
		iov[n++] = (struct iovec) { (void *)e->payload, e->size };
		pos += e->size;
		cursor = e->off + RECORD_BLOCK_SIZE;
	}
	if (rec->len > cursor)
		iov[n++] = (struct iovec) { rec->buf + cursor,
					    rec->len - cursor };
	total = pos + (rec->len - cursor) - rec->file_bytes;
	err = writev_all(rec, iov, n);
	free(iov);
	bad = xcalloc(rec->nbatch + 1, sizeof(*bad));
	if (err == -EFAULT) {
		/* a mapping went away under the write: start the batch
		 * again without the payloads (the channel is gone) */
		if (ftruncate(rec->fd, (off_t)rec->file_bytes) &&
		    errno != EINVAL)
			err = -errno;
		else if (lseek(rec->fd, (off_t)rec->file_bytes, SEEK_SET) < 0)
			err = -errno;
		else
			err = 0;
		if (!err) {
			drop_unwritten(rec);
			err = write_all(rec->fd, rec->buf, rec->len);
			total = rec->len;
		}
	} else if (!err) {
		/* the seqlock's read side, after the write: a sub-buffer
		 * rewritten meanwhile was written torn.  A SIGBUS in here
		 * (the buffers went away) leaves the batch as written. */
		rec->file_bytes += total;
		rec->batch_written = true;
		for (unsigned int i = 0; i < rec->nbatch; i++) {
			const struct recorder_block *e = &rec->batch[i];

			bad[i] = e->payload &&
				 !subbuf_still_there(e->hdr, e->seq,
						     e->generation);
			any |= bad[i];
		}
		if (any)
			repair(rec, bad, true);
	}
	free(bad);
	if (err && !rec->error)
		rec->error = err;
	if (!err && !rec->batch_written)
		rec->file_bytes += total;
	rec->batch_written = false;
	rec->len = 0;
	rec->nbatch = 0;
	return rec->error;
}

bool recorder_zero_copy(struct recorder *rec, bool on)
{
	struct stat st;

	if (!on || fstat(rec->fd, &st) ||
	    !(S_ISREG(st.st_mode) ||
	      (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	       minor(st.st_rdev) == 3))) {	/* /dev/null */
		recorder_commit(rec);
		rec->zero_copy = false;
		return false;
	}
	rec->zero_copy = true;
	return true;
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
	/* payloads not written yet are in a mapping that is gone */
	drop_unwritten(rec);
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
	/* where the change goes among the records, in the live figures too */
	h.ts = meta->ts ? meta->ts : mono_ns();
	append_block(rec, &h, &cfg, sizeof(cfg));
}

int recorder_flush(struct recorder *rec)
{
	size_t len = rec->staged ? rec->stage_pos : rec->len;

	if (rec->zero_copy)
		return recorder_commit(rec);
	if (len)
		write_out(rec, len);
	return rec->error;
}

/*
 * The recording on the disk, not only in the page cache: its data and
 * size, and the directory entry of a file just made (a power loss after
 * relaytop said it was done loses nothing).  A file system that cannot
 * sync (EINVAL) is taken as it is.
 */
static void make_durable(struct recorder *rec)
{
	char *dir = xstrdup(rec->path), *slash = strrchr(dir, '/');
	int dfd;

	if (fdatasync(rec->fd) && errno != EINVAL && errno != EROFS) {
		rec->error = -errno;
		free(dir);
		return;
	}
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd) && errno != EINVAL && errno != EROFS)
			rec->error = -errno;
		close(dfd);
	}
	free(dir);
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
	if (!rec->error && rec->regular)
		make_durable(rec);
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
	free(rec->batch);
	free(rec->buf);
	free(rec->cpu);
	free(rec->path);
	free(rec);
}

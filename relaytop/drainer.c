// SPDX-License-Identifier: GPL-2.0
/*
 * drainer.c - a reader thread per CPU buffer, its queue of copies, and
 * their replay in the main thread (see drainer.h).
 *
 * A drainer waits in poll() for its buffer file (POLLIN: a sub-buffer is
 * complete) and its kick eventfd.  Woken by the buffer, it reads what the
 * producer committed (subbuf_reader_read(), one lap at most, again at
 * once while there is more), copying each chunk with its sub-buffer's
 * header into the queue as the reader stages it and keeping it only if
 * the reader settles it intact; then it hands the finished sub-buffers
 * back and queues what the read ended with (struct drain_read).  A read
 * on the buffer's POLLIN that brought nothing, with POLLIN still up (a
 * buffer whose POLLIN stays up: overwrite mode, a read-only file), leaves
 * the buffer unpolled until the next kick, as the loop does with its idle
 * buffers; with POLLIN down (the main thread's read took it first), or a
 * kick's read that brings nothing (a quiet buffer), it is polled on.  A
 * SIGBUS in the read (the buffers were removed) or POLLERR ends its
 * reading: it queues that the buffer went away and waits to be stopped.
 *
 * An item is 8-byte aligned and starts with its kind and size.  A chunk
 * item holds the struct subbuf_chunk, then the header of its sub-buffer,
 * then the records; its pointers are set again when it is replayed (the
 * queue moves as it grows).
 */
#include "drainer.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "util.h"

enum item_kind { ITEM_CHUNK, ITEM_RESTART, ITEM_READ };

struct item {
	uint32_t kind;
	uint32_t size;		/* bytes to the next item */
};

struct chunk_item {
	struct item h;
	struct subbuf_chunk chunk;
	/* then the header (SUBBUF_HDR_SIZE) and the records */
};

struct restart_item {
	struct item h;
	unsigned int cpu;
	uint64_t generation;
	uint64_t lost;		/* the reader's count when it met it */
};

struct read_item {
	struct item h;
	struct drain_read r;
};

#define ITEM_ALIGN 8

/* Room for size bytes at the end of q: their offset. */
static size_t q_reserve(struct drain_queue *q, size_t size)
{
	size_t off = q->len;

	size = (size + ITEM_ALIGN - 1) & ~(size_t)(ITEM_ALIGN - 1);
	if (q->len + size > q->cap) {
		size_t cap = q->cap ? q->cap : 64 * 1024;

		while (cap < q->len + size)
			cap *= 2;
		q->buf = realloc(q->buf, cap);
		if (!q->buf)
			fatal("out of memory");
		q->cap = cap;
	}
	memset(q->buf + off, 0, sizeof(struct item));
	((struct item *)(q->buf + off))->size = (uint32_t)size;
	q->len += size;
	return off;
}

/* ---- the reading side (a drainer's lock held) ---- */

/* What a read needs inside the guard. */
struct read_ctx {
	struct drainer *d;
	struct channel_cpu *cc;
	struct drain_read *out;
	bool staged;		/* a chunk is staged, not yet settled */
	size_t staged_at;
};

/*
 * Copy n bytes (a multiple of 8, both 8-byte aligned: headers and records)
 * a word at a time.  Not memcpy(): under QEMU's TCG, where make bench
 * measures, glibc's memcpy (AVX, rep movsb, emulated) copied 450 MB/s and
 * this loop 3 GB/s (64 KiB blocks, 4 vCPUs, -cpu max); on the host both
 * copy tens of GB/s.  The attribute keeps GCC from turning the loop back
 * into a memcpy() call.
 */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void copy_words(void *dst, const void *src, size_t n)
{
	uint64_t *d = dst;
	const uint64_t *s = src;

	for (size_t i = 0; i < n / 8; i++)
		d[i] = s[i];
}

static void q_stage(void *ctx, const struct subbuf_chunk *c)
{
	struct read_ctx *rc = ctx;
	struct drain_queue *q = &rc->d->fill;
	size_t bytes = (size_t)c->nrec * SUBBUF_REC_SIZE;
	size_t off = q_reserve(q, sizeof(struct chunk_item) +
			       SUBBUF_HDR_SIZE + bytes);
	struct chunk_item *it = (void *)(q->buf + off);
	unsigned char *p = (unsigned char *)(it + 1);

	rc->staged = true;
	rc->staged_at = off;
	it->h.kind = ITEM_CHUNK;
	it->chunk = *c;
	/* the copies: a SIGBUS in here leaves the chunk staged, and the
	 * fault path takes it off */
	copy_words(p, c->hdr, SUBBUF_HDR_SIZE);
	copy_words(p + SUBBUF_HDR_SIZE, c->recs, bytes);
}

static void q_settle(void *ctx, const struct subbuf_chunk *c, bool intact)
{
	struct read_ctx *rc = ctx;

	(void)c;
	if (rc->staged && !intact)
		rc->d->fill.len = rc->staged_at;	/* torn: not kept */
	rc->staged = false;
}

static void q_restart(void *ctx, unsigned int cpu, uint64_t generation)
{
	struct read_ctx *rc = ctx;
	struct drain_queue *q = &rc->d->fill;
	size_t off = q_reserve(q, sizeof(struct restart_item));
	struct restart_item *it = (void *)(q->buf + off);

	it->h.kind = ITEM_RESTART;
	it->cpu = cpu;
	it->generation = generation;
	it->lost = rc->cc->reader.lost;
}

static void guarded_read(void *self, void *arg)
{
	struct read_ctx *rc = self;
	struct subbuf_reader *r = &rc->cc->reader;
	struct subbuf_sink sink = {
		.stage = q_stage, .settle = q_settle, .restart = q_restart,
		.ctx = rc,
	};

	(void)arg;
	rc->out->fill = (double)subbuf_reader_backlog(r) /
			(double)subbuf_buffer_size(&r->geom);
	/* a sub-buffer, handed back before the next (read_locked()) */
	rc->out->flags = subbuf_reader_read_upto(r, &sink, 1);
}

static void notify(struct drainers *ds)
{
	uint64_t one = 1;

	if (!__atomic_exchange_n(&ds->pending, 1, __ATOMIC_SEQ_CST) &&
	    write(ds->notify_fd, &one, sizeof(one)) < 0)
		__atomic_store_n(&ds->pending, 0, __ATOMIC_SEQ_CST);
}

/*
 * One read of d's buffer into its queue, a sub-buffer at most, and its
 * hand-back: its flags (SUBBUF_MORE: read again); what it ended with into
 * *out when out is not NULL.  A sub-buffer at a time, so that a reader
 * preempted in the middle of a read (a storm's tasks share its CPU: 92
 * ms in a storm of three task pairs a CPU) holds back only the sub-buffer
 * it is in, not all it has read.
 */
static unsigned int read_locked(struct drainer *d, struct drain_read *out)
{
	struct drain_read rd = { .start_ns = mono_ns() };
	struct read_ctx rc = { .d = d, .out = &rd };
	struct read_item *it;
	size_t off;

	rc.cc = channel_cpu(d->set->ch, d->cpu);
	if (!rc.cc) {
		rd.gone = true;
	} else if (!channel_guarded(guarded_read, &rc, NULL)) {
		if (rc.staged)
			d->fill.len = rc.staged_at;
		rd.gone = true;
	} else {
		rd.handback_err = subbuf_reader_handback(&rc.cc->reader,
							 d->set->give_back,
							 rc.cc);
	}
	if (rc.cc)
		rd.reader = rc.cc->reader;
	/* reserved first: the queue may move */
	off = q_reserve(&d->fill, sizeof(*it));
	it = (void *)(d->fill.buf + off);
	it->h.kind = ITEM_READ;
	it->r = rd;
	if (out)
		*out = rd;
	return rd.gone ? 0 : rd.flags;
}

void drainer_read_now(struct drainer *d)
{
	/* a lap at most, as subbuf_reader_read() */
	uint32_t lap = d->set->ch->geom.n_subbufs + 2;
	unsigned int flags;

	/*
	 * The lock is taken for a sub-buffer at a time: the main thread,
	 * preempted while it holds it, keeps the drainer from its buffer
	 * (a reset's read, or the one after the stats file, in a storm).
	 * The drainer may read in between: the reads go on from where the
	 * last one stopped, whoever made it, in order in the queue.
	 */
	do {
		pthread_mutex_lock(&d->lock);
		flags = read_locked(d, NULL);
		pthread_mutex_unlock(&d->lock);
	} while ((flags & SUBBUF_MORE) && --lap);
}

/* ---- the thread ---- */

static bool take_kick(int fd)
{
	uint64_t v;

	return read(fd, &v, sizeof(v)) == sizeof(v);
}

/*
 * The pace of a buffer's drainer: the producer's rate (events/s, from the
 * reader's counts at the start of each read: a rise counts at once, a fall
 * by halves) and so how long the drainer may wait before the next read.
 */
struct pace {
	uint64_t at_ns;		/* start of the read the count is of */
	uint64_t events;	/* records read + lost + dropped by then */
	double rate;
};

static void pace_update(struct pace *p, const struct drain_read *rd)
{
	const struct subbuf_reader *r = &rd->reader;
	uint64_t events = r->records + r->lost + r->dropped;
	uint64_t dt = rd->start_ns - p->at_ns;
	double now;

	if (!p->at_ns || events < p->events || rd->start_ns < p->at_ns) {
		p->at_ns = rd->start_ns;	/* the first, or a reset */
		p->events = events;
		return;
	}
	if (dt < DRAINER_MIN_NAP_NS)
		return;		/* too short to tell */
	now = (double)(events - p->events) * 1e9 / (double)dt;
	p->rate = now > p->rate ? now : (p->rate + now) / 2;
	p->at_ns = rd->start_ns;
	p->events = events;
}

uint64_t drainer_nap_ns(const struct subbuf_geometry *g, double rate,
			double fill, uint64_t interval_ns)
{
	double cap = subbuf_capacity(g), room = cap * (g->n_subbufs - 1);
	double t, margin;

	if (rate <= 0 || rate * (double)interval_ns / 1e9 <= cap ||
	    fill >= DRAINER_FILL_BACKSTOP)
		return 0;
	t = DRAINER_FILL_TARGET * room / rate * 1e9;
	margin = (1 - DRAINER_FILL_TARGET) * room / rate * 1e9;
	if (t < (double)DRAINER_MIN_NAP_NS ||
	    margin < (double)DRAINER_NAP_MARGIN_NS)
		return 0;
	return (uint64_t)t;
}

static uint64_t nap_ns(const struct drainer *d, const struct pace *p,
		       const struct drain_read *rd)
{
	return drainer_nap_ns(&rd->reader.geom, p->rate, rd->fill,
			      __atomic_load_n(&d->set->interval_ns,
					      __ATOMIC_RELAXED));
}

/* Should the main thread hear of what d queued now?  When it queued
 * much, met a reset or an error, or the read was a kick's; the rest
 * waits for the tick (or for more), so a busy buffer does not wake the
 * main thread at every sub-buffer. */
static bool worth_telling(const struct drainer *d, const struct drain_read *rd,
			  bool kicked)
{
	size_t much = d->set->queue_max / 2 < DRAINER_NOTIFY_BYTES ?
		      d->set->queue_max / 2 : DRAINER_NOTIFY_BYTES;

	return kicked || rd->gone || rd->handback_err ||
	       (rd->flags & SUBBUF_RESTARTED) || d->fill.len >= much;
}

bool drainer_polls_on(int fd, unsigned int flags)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (flags & SUBBUF_PROGRESS)
		return true;
	return !(poll(&p, 1, 0) == 1 && (p.revents & POLLIN));
}

static void *drainer_thread(void *arg)
{
	struct drainer *d = arg;
	bool poll_buffer = true, gone = false;
	struct pace pace = { 0 };
	uint64_t nap = 0;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = d->kick_fd, .events = POLLIN },
			{ .fd = gone || nap ? -1 : d->fd,
			  .events = poll_buffer ? POLLIN : 0 },
		};
		struct drain_read rd = { 0 };
		unsigned int flags = 0;
		bool kicked, stop, read_it, tell = false;
		int n;

		n = poll(pfd, 2, nap ? (int)((nap + 999999) / 1000000) : -1);
		if (n < 0 && errno != EINTR)
			break;
		kicked = (pfd[0].revents & POLLIN) && take_kick(d->kick_fd);
		pthread_mutex_lock(&d->lock);
		/* a full queue: nothing more till the main thread took it */
		while (!d->stop && d->fill.len >= d->set->queue_max)
			pthread_cond_wait(&d->room, &d->lock);
		stop = d->stop;
		if (!stop && !gone &&
		    (pfd[1].revents & (POLLERR | POLLHUP | POLLNVAL))) {
			size_t off = q_reserve(&d->fill,
					       sizeof(struct read_item));
			struct read_item *it = (void *)(d->fill.buf + off);

			it->h.kind = ITEM_READ;
			it->r = (struct drain_read) { .gone = true };
			gone = true;
			notify(d->set);
		}
		/* the buffer's POLLIN, a kick, or the nap is over */
		read_it = !stop && !gone &&
			  (kicked || (pfd[1].revents & POLLIN) ||
			   (nap && n == 0));
		if (read_it) {
			double fill = -1;

			do {
				flags = read_locked(d, &rd);
				tell |= worth_telling(d, &rd, kicked);
				if (fill < 0)
					fill = rd.fill;
			} while ((flags & SUBBUF_MORE) &&
				 d->fill.len < d->set->queue_max);
			rd.fill = fill;	/* what the wake-up found: the nap's */
		}
		pthread_mutex_unlock(&d->lock);
		if (stop)
			break;
		if (!read_it)
			continue;
		if (tell)
			notify(d->set);
		if (rd.gone) {
			gone = true;
			nap = 0;
			continue;
		}
		pace_update(&pace, &rd);
		nap = nap_ns(d, &pace, &rd);
		/* a kick without news is a quiet buffer, polled on */
		if (pfd[1].revents & POLLIN)
			poll_buffer = drainer_polls_on(d->fd, flags);
		else
			poll_buffer = true;
		if (!poll_buffer)
			nap = 0;	/* a kick, and only a kick, wakes it */
	}
	return NULL;
}

/* ---- the set ---- */

struct drainer *drainers_of(const struct drainers *ds, unsigned int cpu)
{
	return cpu < ds->max ? ds->d[cpu] : NULL;
}

static int start_one(struct drainers *ds, const struct channel_cpu *cc)
{
	struct drainer *d = xcalloc(1, sizeof(*d));
	sigset_t all, old;
	int err;

	d->set = ds;
	d->cpu = cc->cpu;
	d->fd = cc->fd;
	d->view.reader = cc->reader;	/* before the thread touches it */
	d->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (d->kick_fd < 0) {
		err = -errno;
		free(d);
		return err;
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->room, NULL);
	/* every signal but SIGBUS (its own faults) stays with the main
	 * thread: the keys, SIGTERM, SIGWINCH, the status request */
	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = -pthread_create(&d->thread, NULL, drainer_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pthread_cond_destroy(&d->room);
		pthread_mutex_destroy(&d->lock);
		close(d->kick_fd);
		free(d);
		return err;
	}
	d->running = true;
	if (cc->cpu >= ds->max) {
		unsigned int max = cc->cpu + 1;

		ds->d = realloc(ds->d, max * sizeof(*ds->d));
		if (!ds->d)
			fatal("out of memory");
		memset(ds->d + ds->max, 0, (max - ds->max) * sizeof(*ds->d));
		ds->max = max;
	}
	ds->d[cc->cpu] = d;
	ds->n++;
	return 0;
}

int drainers_start_one(struct drainers *ds, struct channel *ch,
		       const struct channel_cpu *cc,
		       int (*give_back)(void *cc, uint64_t until))
{
	ds->ch = ch;
	ds->give_back = give_back;
	if (!ds->queue_max)
		ds->queue_max = DRAINER_QUEUE_MAX;
	if (!ds->have_notify) {
		ds->notify_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (ds->notify_fd < 0)
			return -errno;
		ds->have_notify = true;
	}
	return start_one(ds, cc);
}

static void kick(const struct drainer *d)
{
	uint64_t one = 1;

	if (write(d->kick_fd, &one, sizeof(one)) < 0) {
		/* the counter is full: a kick is pending anyway */
	}
}

void drainers_kick(struct drainers *ds)
{
	for (unsigned int c = 0; c < ds->max; c++)
		if (ds->d[c])
			kick(ds->d[c]);
}

void drainers_stop(struct drainers *ds)
{
	for (unsigned int c = 0; c < ds->max; c++) {
		struct drainer *d = ds->d[c];

		if (!d || !d->running)
			continue;
		pthread_mutex_lock(&d->lock);
		d->stop = true;
		pthread_cond_broadcast(&d->room);
		pthread_mutex_unlock(&d->lock);
		kick(d);
		pthread_join(d->thread, NULL);
		d->running = false;
	}
}

void drainers_free(struct drainers *ds)
{
	drainers_stop(ds);
	for (unsigned int c = 0; c < ds->max; c++) {
		struct drainer *d = ds->d[c];

		if (!d)
			continue;
		pthread_cond_destroy(&d->room);
		pthread_mutex_destroy(&d->lock);
		close(d->kick_fd);
		free(d->fill.buf);
		free(d->taken.buf);
		free(d);
	}
	free(ds->d);
	if (ds->have_notify)
		close(ds->notify_fd);
	memset(ds, 0, sizeof(*ds));
}

void drainers_lock(struct drainers *ds)
{
	ds->stopped_all++;
	for (unsigned int c = 0; c < ds->max; c++)
		if (ds->d[c])
			pthread_mutex_lock(&ds->d[c]->lock);
}

void drainers_unlock(struct drainers *ds)
{
	for (unsigned int c = ds->max; c-- > 0;)
		if (ds->d[c])
			pthread_mutex_unlock(&ds->d[c]->lock);
}

/* ---- the main thread's side ---- */

void drainers_clear_notify(struct drainers *ds)
{
	uint64_t v;

	if (!ds->have_notify)
		return;
	/* cleared first: an item queued from here on notifies again */
	__atomic_store_n(&ds->pending, 0, __ATOMIC_SEQ_CST);
	if (read(ds->notify_fd, &v, sizeof(v)) < 0) {
		/* nothing was pending: EAGAIN */
	}
}

void drainer_take(struct drainer *d)
{
	struct drain_queue q;

	pthread_mutex_lock(&d->lock);
	q = d->fill;
	d->fill = d->taken;	/* replayed and done: empty */
	d->fill.len = 0;
	d->taken = q;
	pthread_cond_broadcast(&d->room);
	pthread_mutex_unlock(&d->lock);
}

void drainer_replay(struct drainer *d, const struct drain_target *t)
{
	size_t off = 0;

	while (off < d->taken.len) {
		struct item *h = (void *)(d->taken.buf + off);

		if (h->kind == ITEM_CHUNK) {
			struct chunk_item *it = (void *)h;
			const unsigned char *p = (const void *)(it + 1);

			it->chunk.hdr = (const void *)p;
			it->chunk.recs = (const void *)(p + SUBBUF_HDR_SIZE);
			t->chunk(t->ctx, &it->chunk);
		} else if (h->kind == ITEM_RESTART) {
			const struct restart_item *it = (const void *)h;

			t->restart(t->ctx, it->cpu, it->generation, it->lost);
		} else {
			const struct read_item *it = (const void *)h;

			if (!it->r.gone)
				d->view = it->r;
			t->read_done(t->ctx, d->cpu, &it->r);
		}
		off += h->size;
	}
}

void drainer_done(struct drainer *d)
{
	d->taken.len = 0;
}

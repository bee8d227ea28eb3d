/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drainer.h - a thread per CPU buffer that reads the buffer the moment a
 * sub-buffer is complete, copies what it read into a queue and hands the
 * sub-buffers back at once, as trace-cmd record has a reader per CPU.
 *
 * The main thread does everything else: it replays each queue (drainer_
 * take() then drainer_replay()) into the live source's sink, in the order
 * the reads happened, and frees the copies once the feed committed them.
 * So the producer gets its sub-buffers back as soon as a drainer ran,
 * however long the main thread spends merging, counting, recording and
 * painting, and however late it is scheduled.
 *
 * Who touches what:
 * - the reader of a buffer (struct subbuf_reader in its channel_cpu) and
 *   the queue being filled: only with the drainer's lock held, by the
 *   drainer's thread, or by the main thread for a read it wants now
 *   (drainer_read_now(): a reset's, after the stats file, the last);
 *   the tick kicks the drainers instead, so that the main thread, one
 *   for every CPU, holds no drainer's lock through a read when it is
 *   preempted;
 * - the channel's cpus[] array, which moves when a buffer is added: by
 *   the main thread, with every drainer's lock held (drainers_lock());
 *   a drainer finds its channel_cpu by CPU number under its lock;
 * - the queue taken, and the view (the reader's counts as of the last
 *   read replayed: what the feed has seen): the main thread only.
 *
 * A queue is bounded (DRAINER_QUEUE_MAX): a drainer that finds its queue
 * that full reads nothing more until the main thread took it, so the
 * producer drops, and counts, what did not fit.
 */
#ifndef RELAYTOP_DRAINER_H
#define RELAYTOP_DRAINER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "channel.h"
#include "subbuf.h"

/* A drainer stops reading when its queue holds this many bytes. */
#define DRAINER_QUEUE_MAX	(64u << 20)
/* It wakes the main thread when its queue holds this many (or half its
 * bound), or it met something the main thread must act on; otherwise the
 * tick takes what it queued. */
#define DRAINER_NOTIFY_BYTES	(1u << 20)
/*
 * A busy buffer is read every time its producer fills DRAINER_FILL_TARGET
 * of its free room (a wait without polling it: not a wake-up per
 * sub-buffer), when that is at least DRAINER_MIN_NAP_NS; a read that finds
 * it past DRAINER_FILL_BACKSTOP has it polled again (its rate rose), and
 * so is a quiet one (a burst is read at once).  As the main loop's drain
 * timer (live_source.h), per buffer.
 */
#define DRAINER_FILL_TARGET	0.4
#define DRAINER_FILL_BACKSTOP	0.6
#define DRAINER_MIN_NAP_NS	1000000ull
/*
 * ... and only when the rest of the free room, what the producer fills
 * while the drainer wakes from its nap and waits to run, lasts at least
 * DRAINER_NAP_MARGIN_NS at the rate: a thread at normal priority on a
 * CPU the load keeps busy waits that long to run (the bench's drains
 * came up to 28 ms late).  Less room than that, small buffers above all,
 * and the buffer is polled: woken at each sub-buffer, as ftrace's
 * readers are at each page.
 */
#define DRAINER_NAP_MARGIN_NS	30000000ull

/* Copies of what reads produced, in order (items, see drainer.c). */
struct drain_queue {
	unsigned char *buf;
	size_t len, cap;
	size_t staged;		/* start of a chunk staged, not settled */
};

/* What one read ended with, replayed after its chunks. */
struct drain_read {
	unsigned int flags;	/* SUBBUF_* of subbuf_reader_read() */
	double fill;		/* the backlog before it, 0..1 */
	uint64_t start_ns;	/* when it began (CLOCK_MONOTONIC) */
	int handback_err;	/* of the hand-back after it, or 0 */
	bool gone;		/* a SIGBUS or POLLERR: the buffer went away */
	struct subbuf_reader reader;	/* its counts after the read */
};

/* Where drainer_replay() sends what it replays. */
struct drain_target {
	/* a chunk read intact (its records and header are copies) */
	void (*chunk)(void *ctx, const struct subbuf_chunk *chunk);
	/* the reader met a reset; lost: its count then */
	void (*restart)(void *ctx, unsigned int cpu, uint64_t generation,
			uint64_t lost);
	/* a read ended (after its chunks) */
	void (*read_done)(void *ctx, unsigned int cpu,
			  const struct drain_read *r);
	void *ctx;
};

struct drainers;

struct drainer {
	struct drainers *set;
	unsigned int cpu;
	int fd;			/* the buffer file (polled, not owned) */
	int kick_fd;		/* eventfd: wake up, read once more, or stop */
	pthread_t thread;
	bool running;		/* the thread was started */
	pthread_mutex_t lock;
	pthread_cond_t room;	/* the queue was taken (or stop) */
	struct drain_queue fill;	/* under lock */
	bool stop;			/* under lock */
	struct drain_queue taken;	/* the main thread's */
	struct drain_read view;		/* the main thread's: the last read
					 * replayed */
};

struct drainers {
	struct channel *ch;
	int (*give_back)(void *cc, uint64_t until);
	bool have_notify;
	int notify_fd;		/* eventfd: a drainer queued something */
	int pending;		/* atomic: notify_fd was written, not read */
	size_t queue_max;	/* DRAINER_QUEUE_MAX unless a test sets it */
	uint64_t interval_ns;	/* the refresh interval (atomic: the main
				 * thread sets it) */
	uint64_t stopped_all;	/* drainers_lock() calls (main thread) */
	unsigned int n;
	struct drainer **d;	/* by CPU number (NULL: none) */
	unsigned int max;	/* entries in d[] */
};

/*
 * Start a drainer for cc, a buffer of ch (whose cpus[] it finds cc in by
 * its CPU number, under its lock); its reads hand back with give_back
 * (channel_give_back() but in tests).  Its view starts as cc's reader,
 * which must be synced.  Returns 0 or -errno.  Signals other than SIGBUS
 * stay with the calling thread.
 */
int drainers_start_one(struct drainers *ds, struct channel *ch,
		       const struct channel_cpu *cc,
		       int (*give_back)(void *cc, uint64_t until));
/* Stop and join every drainer; what they queued stays to be taken. */
void drainers_stop(struct drainers *ds);
/* Free everything (after drainers_stop() and the last replay). */
void drainers_free(struct drainers *ds);
/* The drainer of cpu, or NULL. */
struct drainer *drainers_of(const struct drainers *ds, unsigned int cpu);

/* Hold every drainer's lock (for moving ch->cpus[]), and release them. */
void drainers_lock(struct drainers *ds);
void drainers_unlock(struct drainers *ds);

/* Wake every drainer to read once more (the tick's: a buffer that woke a
 * drainer without news is read only then, as the loop's idle ones). */
void drainers_kick(struct drainers *ds);

/*
 * How long a drainer may wait before its next read of a buffer of
 * geometry g without polling it (0: poll it, a wake-up per sub-buffer),
 * its producer writing rate events/s, the last read having found it
 * fill (0..1) full, the refresh interval interval_ns: the time the
 * producer takes to fill DRAINER_FILL_TARGET of the free room, when
 * that is at least DRAINER_MIN_NAP_NS, what is left of the room then
 * lasts DRAINER_NAP_MARGIN_NS, the buffer fills a sub-buffer within the
 * refresh interval (else it is quiet: polled, so that a burst is read at
 * once), and the read did not find it past DRAINER_FILL_BACKSTOP.
 */
uint64_t drainer_nap_ns(const struct subbuf_geometry *g, double rate,
			double fill, uint64_t interval_ns);

/*
 * After a read that fd's POLLIN woke, with flags (SUBBUF_*): poll fd on?
 * Yes when the read brought something, or when POLLIN is down by now
 * (another read, the tick's, took what woke it: the next sub-buffer must
 * wake the drainer again); no when it stays up with nothing to read
 * (overwrite mode, a read-only file), where only a kick wakes it.
 */
bool drainer_polls_on(int fd, unsigned int flags);

/* Read d's buffer now, from the calling (main) thread, into its queue:
 * a lap at most, taking d's lock for a sub-buffer at a time. */
void drainer_read_now(struct drainer *d);

/*
 * The main thread's side of a wake-up: read notify_fd (it is
 * non-blocking), so the next queued item writes it again.  Call before
 * taking the queues.
 */
void drainers_clear_notify(struct drainers *ds);

/* Take what d queued (swap queues); then replay it, commit the feed, and
 * drainer_done(). */
void drainer_take(struct drainer *d);
void drainer_replay(struct drainer *d, const struct drain_target *t);
/* The copies replayed are no longer pointed to: reuse them. */
void drainer_done(struct drainer *d);

#endif /* RELAYTOP_DRAINER_H */

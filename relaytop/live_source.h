/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live_source.h - the live channel as a source (source.h): its control
 * attributes, every CPU's mapped buffer and reader, the SIGBUS guard for
 * buffers removed under the mapping, the hand-back of finished
 * sub-buffers, and following the channel through resets, new geometries,
 * CPUs coming online, and its going away and coming back.
 */
#ifndef RELAYTOP_LIVE_SOURCE_H
#define RELAYTOP_LIVE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "channel.h"
#include "control.h"
#include "drainer.h"
#include "feed.h"
#include "source.h"

#define LIVE_MAX_BUFFERS 1024	/* buffers polled at once */
/* A timed buffer is drained when it may be this full (of its free room
 * at its rate), and polled again once a drain finds it fuller than
 * LIVE_FILL_BACKSTOP; the timer's drains start at least
 * LIVE_MIN_DRAIN_NS apart (and never before the last one ended); a
 * buffer that fills LIVE_FILL_TARGET sooner than that stays polled.
 * A buffer goes on the timer once LIVE_BUSY_RUNS rate estimates in a row
 * found it busy, none of them past the backstop: the first after a quiet
 * spell, or after a full buffer (whose drops the next header tells), is
 * an average over time it was not busy, or missed the drops. */
#define LIVE_FILL_TARGET	0.4
#define LIVE_FILL_BACKSTOP	0.6
#define LIVE_MIN_DRAIN_NS	1000000ull
#define LIVE_BUSY_RUNS		2
/* ... and goes on the timer only when what is left of its free room after
 * LIVE_FILL_TARGET, what the producer fills while the timer fires and we
 * wait to run, lasts as long at its rate as a drainer's nap must leave
 * (DRAINER_NAP_MARGIN_NS: one wait to run, for both).  Less room, and it
 * is polled. */
#define LIVE_LATE_MARGIN_NS	DRAINER_NAP_MARGIN_NS

/*
 * Reader threads: always, never, or (auto, the default) for buffers of at
 * most LIVE_THREADS_UP_TO bytes per CPU, which fill faster than one reader
 * of every CPU comes back to them under load (docs/benchmarks.md, "4.
 * Small buffers"); bigger ones cost less with one reader.
 */
enum live_threads { LIVE_THREADS_AUTO, LIVE_THREADS_ON, LIVE_THREADS_OFF };
#define LIVE_THREADS_UP_TO	(64u << 10)

struct live_buffer;
struct live_marks;

struct live_source {
	char *dir;
	const struct feed *feed;
	struct control ctl;
	bool have_ctl;
	struct control_state cfg;
	bool have_cfg;
	struct channel ch;
	bool have_ch;
	bool ever_mapped;	/* the channel was mapped once */
	struct live_buffer *bufs;	/* one per buffer, for subbuf_sink */
	struct live_marks *marks;	/* per CPU number: where gaps are */
	unsigned int nmarks;
	bool has_stats_file;
	bool stats_due;		/* a buffer was found (nearly) full: the
				 * producer may have dropped after its newest
				 * header, which only the stats file tells */
	bool no_mix;		/* nothing shows the event mix: not counted */
	bool seq_drops;		/* feed FEED_SEQ_DROPPED (for a recording) */
	/* hands sub-buffers back; channel_give_back() but in tests */
	int (*give_back)(void *cc, uint64_t until);
	uint64_t restart_gen;	/* last generation a reset was reported for */
	/* the drain timer: buffers that fill a sub-buffer within a refresh
	 * interval are drained every drain_ns (sized from their rate and
	 * free room, less drain_took_ns) instead of waking us per
	 * sub-buffer */
	uint64_t (*clock)(void);	/* NULL: mono_ns() (tests: theirs) */
	uint64_t interval_ns;	/* the refresh interval: the longest wait */
	uint64_t drain_at;	/* next timed drain, or 0: none */
	uint64_t drain_ns;	/* its period, from when a drain begins */
	uint64_t late_margin_ns;	/* LIVE_LATE_MARGIN_NS (tests of the
					 * timer's steps: 0) */
	uint64_t drain_took_ns;	/* how long drains take, from their start
				 * to the hand-back (a rise at once, a fall
				 * by halves): the producer fills that too */
	uint64_t timed_drains;	/* drains the timer made */
	uint64_t drain_late_ns;	/* the latest a timed drain came after
				 * drain_at, stops (SIGSTOP) left out: how
				 * long the reader waited to run */
	uint64_t woken_drains;	/* drains a buffer's POLLIN made */
	/* the order a drain reads buffers in (live_source.c), kept here
	 * so that a SIGBUS out of the drain does not lose it */
	struct read_order *order;
	unsigned int norder;
	/* a drainer thread per buffer (drainer.h), as threads says:
	 * started by the loop's first turn on a mapped channel, stopped
	 * when it is unmapped; what they met, for the main thread */
	enum live_threads threads;
	bool drainers_on;
	struct drainers drainers;
	bool drainer_gone;
	int drainer_err;
	int notify_at;		/* in the last pollfds(): the drainers' fd,
				 * or -1 */
	/* the last pollfds(): control files, then buffers (map: cpus[]) */
	unsigned int nctl, nbuf;
	unsigned int map[LIVE_MAX_BUFFERS];
};

extern const struct source_ops live_source_ops;

/*
 * Open the channel in dir and map its buffers, writing to feed.  Returns
 * 0, or -errno with msg saying what failed (nothing to close then).
 */
int live_source_open(struct live_source *ls, const char *dir,
		     const struct feed *feed, char *msg, size_t len);
void live_source_close(struct live_source *ls);
/*
 * The producer's own drop counts, from its stats file (they also count
 * drops after the newest header, while a full buffer has no sub-buffer to
 * start).  The tick reads them only when a buffer was found (nearly)
 * full since the last time, the only state in which the producer drops;
 * otherwise the headers' counts are as new.
 */
void live_source_read_drops(struct live_source *ls);
/* Count each chunk's event mix (the default), or not (nothing shows it:
 * no record is read for it). */
void live_source_count_mix(struct live_source *ls, bool on);
/* The channel's configuration now (for a recording's header). */
void live_source_config(const struct live_source *ls, struct feed_config *c);
/* ls as a struct source. */
struct source live_source(struct live_source *ls);

#endif /* RELAYTOP_LIVE_SOURCE_H */

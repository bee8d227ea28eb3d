// SPDX-License-Identifier: GPL-2.0
/*
 * live_source.c - the live channel as a source (see live_source.h).
 *
 * What wakes the loop, and what it does here:
 * - the control attributes (POLLPRI): re-read all of them; a new geometry
 *   means re-mapping; every change is put on the status line (and into
 *   the feed as a configuration when the generation moved), and all
 *   buffers are read at once so a reset is noticed without waiting for
 *   the tick;
 * - the buffer files (POLLIN: a sub-buffer is complete): that CPU is read
 *   and its finished sub-buffers handed back, so no-overwrite mode keeps
 *   flowing however long the refresh interval; a buffer that wakes us
 *   without news is left out until the next tick, so nothing spins;
 * - the drain timer: a buffer whose rate fills a sub-buffer within a
 *   refresh interval is not polled (a wake-up per sub-buffer costs more
 *   than a timer that reads several at once); all buffers are read every
 *   drain_ns from one drain's start to the next: the time the busiest
 *   takes to fill LIVE_FILL_TARGET of its free room at its rate, less how
 *   long the timer's drains take (the producer fills the buffer until
 *   the next drain hands sub-buffers back).  A quiet buffer stays
 *   polled, so a burst after a quiet period is read at once, and so does
 *   a busy one that a drain found fuller than LIVE_FILL_BACKSTOP (its
 *   rate rose), and one that fills LIVE_FILL_TARGET of its free room
 *   faster than the timer's shortest period, LIVE_MIN_DRAIN_NS (small
 *   buffers at a high rate: read at each sub-buffer's wake-up); a
 *   buffer goes on the timer only once LIVE_BUSY_RUNS estimates in a
 *   row found it busy and none past the backstop (the first one of a
 *   burst averages the quiet time before it in, the one after a full
 *   buffer misses its drops).  A woken read may bring the
 *   timer's drain nearer, never put it off;
 * - a read takes at most a lap of a buffer (the reader's budget), writes
 *   it (the recording) and hands its finished sub-buffers back before
 *   the next buffer; one with more left is read again at the loop's next
 *   turn (deadline() asks for it at once), after the keys and a signal:
 *   a producer that outruns relaytop starves nothing;
 * - POLLERR on a buffer, or SIGBUS while reading one: the channel went
 *   away (re-configured or unloaded); it is looked for again every tick;
 * - the tick reads every buffer up to what the producer committed
 *   (following it inside the sub-buffer being filled), maps buffers of
 *   CPUs that came online, reads 'generation' alone (every change of
 *   the configuration moves it; the rest only when it moved) and the
 *   producer's stats file only when a buffer was found (nearly) full
 *   since the last tick (else the headers' drop counts are as new).
 */
#include "live_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "loop.h"
#include "util.h"

/* One buffer's sink: subbuf_reader -> the feed. */
struct live_buffer {
	struct live_source *ls;
	struct channel_cpu *cc;
};

/* Per CPU: the counts of the last chunk read, to place gaps, and the
 * stats file's drop count of the sequence read now, when last read. */
struct live_marks {
	bool valid;
	uint64_t dropped;
	uint64_t lost;
	uint64_t stats_dropped;
	/* the drain timer: bytes the producer wrote since rate_ns (read,
	 * dropped or lost), its rate in bytes/s, the fill last found */
	uint64_t bytes;
	uint64_t rate_ns;
	double rate;
	double fill;
	/* estimates in a row that found it busy, up to LIVE_BUSY_RUNS; a
	 * read that finds it past LIVE_FILL_BACKSTOP starts it over */
	unsigned int busy_runs;
	/* when its last two whole reads began (CLOCK_MONOTONIC ns) */
	uint64_t read_ns, prev_read_ns;
	/* its last read stopped after a lap: the rest is read at the
	 * loop's next turn, after the other buffers and the keys */
	bool more;
};

static struct live_marks *marks_of(struct live_source *ls, unsigned int cpu)
{
	ls->marks = xgrow(ls->marks, &ls->nmarks, cpu, sizeof(*ls->marks));
	return &ls->marks[cpu];
}

/*
 * What the main thread may know of cc's reader: the reader itself, or,
 * while a drainer reads it, its counts as of the last read replayed
 * (what the feed has seen).
 */
static const struct subbuf_reader *reader_of(const struct live_source *ls,
					     const struct channel_cpu *cc)
{
	const struct drainer *d = ls->drainers_on ?
		drainers_of(&ls->drainers, cc->cpu) : NULL;

	return d ? &d->view.reader : &cc->reader;
}

static void event(struct live_source *ls, enum feed_kind kind,
		  unsigned int cpu, uint64_t count)
{
	struct feed_event e = { .kind = kind, .cpu = cpu, .count = count };

	feed_event(ls->feed, &e);
}

/* ---- the sink of each reader ---- */

static void buf_stage(void *ctx, const struct subbuf_chunk *chunk)
{
	struct live_buffer *b = ctx;

	feed_stage(b->ls->feed, chunk);
}

static void settled(struct live_source *ls, const struct subbuf_chunk *chunk,
		    bool intact)
{
	struct live_marks *m = marks_of(ls, chunk->cpu);

	if (intact) {
		m->bytes += (uint64_t)chunk->nrec * SUBBUF_REC_SIZE;
		if (m->valid && chunk->dropped > m->dropped)
			m->bytes += (chunk->dropped - m->dropped) *
				    SUBBUF_REC_SIZE;
	}
	/* events missing before this chunk: a gap right before it */
	if (intact && m->valid &&
	    (chunk->dropped != m->dropped || chunk->lost != m->lost))
		event(ls, FEED_GAP, chunk->cpu, 0);
	if (intact) {
		m->valid = true;
		m->dropped = chunk->dropped;
		m->lost = chunk->lost;
	}
	feed_settle(ls->feed, chunk, intact);
}

static void buf_settle(void *ctx, const struct subbuf_chunk *chunk,
		       bool intact)
{
	struct live_buffer *b = ctx;

	settled(b->ls, chunk, intact);
}

/* cpu's reader met a reset (generation); lost: its count then. */
static void restarted(struct live_source *ls, unsigned int cpu,
		      uint64_t generation, uint64_t lost)
{
	struct feed_event e = {
		.kind = FEED_RESTART, .cpu = cpu, .generation = generation,
		.lost = lost,
	};

	marks_of(ls, cpu)->valid = false;
	marks_of(ls, cpu)->stats_dropped = 0;
	feed_event(ls->feed, &e);
	if (generation != ls->restart_gen) {
		ls->restart_gen = generation;
		feed_status(ls->feed, false, false, "channel reset (generation %"
			    PRIu64 "): counters start again", generation);
	}
}

static void buf_restart(void *ctx, unsigned int cpu, uint64_t generation)
{
	struct live_buffer *b = ctx;

	restarted(b->ls, cpu, generation, b->cc->reader.lost);
}

/* ---- the channel ---- */

void live_source_config(const struct live_source *ls, struct feed_config *c)
{
	*c = (struct feed_config) {
		.channel = ls->dir,
		.nr_cpus = ls->have_ch ? ls->ch.n : 0,
		.geom = ls->cfg.geom,
		.events = ls->cfg.events,
		.overwrite = ls->cfg.overwrite,
		.enabled = ls->cfg.enabled,
		.generation = ls->cfg.generation,
	};
}

static void config_event(struct live_source *ls)
{
	struct feed_config c;
	struct feed_event e = { .kind = FEED_CONFIG, .config = &c };

	live_source_config(ls, &c);
	c.ts = mono_ns();
	feed_event(ls->feed, &e);
}

/*
 * The producer's stats file, one entry per CPU, into *cs (the caller
 * frees it): how many, or -errno (-ENOENT: the channel has none).
 */
static int read_stats(struct live_source *ls, struct control_cpu_stats **cs)
{
	*cs = xcalloc(ls->ch.max_cpu + 1, sizeof(**cs));
	return control_read_stats(&ls->ctl, *cs, ls->ch.max_cpu + 1);
}

/* Point the readers' sinks at cpus[] (which moves when it grows). */
static void set_sinks(struct live_source *ls)
{
	free(ls->bufs);
	ls->bufs = xcalloc(ls->ch.n, sizeof(*ls->bufs));
	for (unsigned int i = 0; i < ls->ch.n; i++) {
		ls->bufs[i] = (struct live_buffer) { ls, &ls->ch.cpus[i] };
		ls->ch.cpus[i].reader.count_mix = !ls->no_mix;
	}
}

void live_source_count_mix(struct live_source *ls, bool on)
{
	ls->no_mix = !on;
	drainers_lock(&ls->drainers);
	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n; i++)
		ls->ch.cpus[i].reader.count_mix = on;
	drainers_unlock(&ls->drainers);
}

static void cpu_on(struct live_source *ls, const struct channel_cpu *cc,
		   bool first)
{
	struct feed_event e = {
		.kind = FEED_CPU_ON, .cpu = cc->cpu, .lost = cc->reader.lost,
		.dropped = cc->reader.dropped, .first = first,
	};
	struct live_marks *m = marks_of(ls, cc->cpu);

	m->valid = false;
	m->stats_dropped = 0;
	m->more = false;
	/* a new buffer (maybe of a new geometry): its rate is not known */
	m->rate_ns = m->bytes = 0;
	m->rate = 0;
	m->busy_runs = 0;
	feed_event(ls->feed, &e);
}

static void stop_drainers(struct live_source *ls);

static void unmap_channel(struct live_source *ls)
{
	if (!ls->have_ch)
		return;
	stop_drainers(ls);
	for (unsigned int i = 0; i < ls->ch.n; i++)
		event(ls, FEED_CPU_OFF, ls->ch.cpus[i].cpu, 0);
	channel_close(&ls->ch);
	free(ls->bufs);
	ls->bufs = NULL;
	ls->have_ch = false;
	ls->drain_at = 0;	/* nothing to drain until it is back */
}

static void went_away(struct live_source *ls, const char *why)
{
	if (!ls->have_ch)
		return;
	/* what the drainers read comes before the channel is gone */
	stop_drainers(ls);
	event(ls, FEED_GONE, FEED_ALL_CPUS, 0);
	unmap_channel(ls);
	feed_status(ls->feed, true, false, "channel went away (%s): waiting "
		    "for it to come back", why);
}

/* fn(ls, arg) under the SIGBUS guard (channel.h); false when the
 * channel went away. */
static bool guarded(struct live_source *ls,
		    void (*fn)(void *ls, void *arg), void *arg)
{
	if (channel_guarded(fn, ls, arg))
		return true;
	went_away(ls, "its buffers were removed");
	return false;
}

static void close_control(struct live_source *ls)
{
	if (ls->have_ctl)
		control_close(&ls->ctl);
	ls->have_ctl = false;
}

/*
 * Sync the readers not synced yet where relay's meta area says: after
 * what an earlier reader consumed, after the last reset.
 */
static void sync_readers(void *self, void *arg)
{
	struct live_source *ls = self;

	(void)arg;
	for (unsigned int i = 0; i < ls->ch.n; i++) {
		struct channel_cpu *cc = &ls->ch.cpus[i];

		if (cc->reader.synced)
			continue;	/* only the new ones */
		subbuf_reader_sync(&cc->reader);
		cc->lost_seen = cc->reader.lost;
	}
}

/*
 * Open the control attributes and map the buffers.  Returns 0 or -errno
 * with msg saying what failed.
 */
static int map_channel(struct live_source *ls, char *msg, size_t len)
{
	struct control_cpu_stats *cs = NULL;
	enum control_attr bad = CTL_NR;
	int err, nstats = 0;

	if (!ls->have_ctl) {
		err = control_open(&ls->ctl, ls->dir);
		if (err) {
			snprintf(msg, len, "%s: %s%s", ls->dir, strerror(-err),
				 err == -ENOENT ?
				 " (is the sched_relay module loaded?)" : "");
			return err;
		}
		ls->have_ctl = true;
	}
	err = control_read(&ls->ctl, &ls->cfg, &bad);
	if (err) {
		if (err == -ENODEV)
			snprintf(msg, len, "%s: the channel is going away",
				 ls->dir);
		else
			snprintf(msg, len, "%s/%s: %s", ls->dir,
				 control_attr_name(bad), err == -EINVAL ?
				 "unexpected contents" : strerror(-err));
		close_control(ls);
		return err;
	}
	ls->have_cfg = true;
	err = channel_open(&ls->ch, ls->dir, &ls->cfg.geom, msg, len);
	if (err)
		return err;
	ls->have_ch = true;
	set_sinks(ls);

	nstats = read_stats(ls, &cs);
	free(cs);
	ls->has_stats_file = nstats >= 0;
	if (!guarded(ls, sync_readers, NULL)) {
		snprintf(msg, len, "%s: the buffers went away", ls->dir);
		return -ENODEV;
	}
	for (unsigned int i = 0; i < ls->ch.n; i++)
		cpu_on(ls, &ls->ch.cpus[i], !ls->ever_mapped);
	if (ls->ever_mapped)
		config_event(ls);
	ls->ever_mapped = true;
	return 0;
}

/* CPUs that came online get buffer files: map and follow them too. */
static void add_new_buffers(struct live_source *ls)
{
	bool *fresh;
	char msg[512];
	int added;

	/*
	 * cpus[] may move: no drainer reads meanwhile.  Only when a buffer
	 * is new, not at every tick: the main thread, preempted while it
	 * holds every drainer's lock, kept all four from their buffers for
	 * up to 123 ms in a storm of three task pairs a CPU.
	 */
	if (!channel_has_new(&ls->ch))
		return;
	drainers_lock(&ls->drainers);
	added = channel_add_new(&ls->ch, msg, sizeof(msg));
	/* cpus[] may have moved even when a new buffer failed to open */
	if (added)
		set_sinks(ls);
	drainers_unlock(&ls->drainers);
	if (added < 0)
		feed_status(ls->feed, true, false, "%s", msg);
	if (added <= 0)
		return;
	fresh = xcalloc(ls->ch.n, sizeof(*fresh));
	for (unsigned int i = 0; i < ls->ch.n; i++)
		fresh[i] = !ls->ch.cpus[i].reader.synced;
	if (guarded(ls, sync_readers, NULL)) {
		for (unsigned int i = 0; i < ls->ch.n; i++) {
			struct channel_cpu *cc = &ls->ch.cpus[i];

			if (!fresh[i])
				continue;
			cpu_on(ls, cc, false);
			feed_status(ls->feed, false, false, "CPU %u came "
				    "online: following its buffer too", cc->cpu);
		}
	}
	free(fresh);
}

/* Look for the channel again (after it went away). */
static void remap(struct live_source *ls)
{
	char msg[512];

	unmap_channel(ls);
	if (map_channel(ls, msg, sizeof(msg)) == 0)
		feed_status(ls->feed, false, false, "channel is back: %" PRIu32
			    " x %" PRIu32 " bytes per CPU, generation %" PRIu64,
			    ls->cfg.geom.n_subbufs, ls->cfg.geom.subbuf_size,
			    ls->cfg.generation);
	else
		feed_status(ls->feed, true, false, "waiting for the channel: "
			    "%s", msg);
}

/* What the reader of cc lost and saw of the producer's drops. */
static void note_losses(struct live_source *ls, struct channel_cpu *cc,
			const struct subbuf_reader *r)
{
	uint64_t lost = r->lost;
	struct feed_event e = {
		.kind = FEED_LOST, .cpu = cc->cpu, .lost = lost,
		.count = lost > cc->lost_seen ? lost - cc->lost_seen : 0,
	};

	cc->lost_seen = lost;
	marks_of(ls, cc->cpu)->bytes += e.count * SUBBUF_REC_SIZE;
	feed_event(ls->feed, &e);
	if (!ls->has_stats_file)
		event(ls, FEED_DROPPED, cc->cpu, r->dropped);
}

/*
 * Read buffer i, a lap at most, a sub-buffer at a time: what was read of
 * each is committed (a recording writes it) and the sub-buffer handed
 * back before the next one is read.  The writes are most of a drain's
 * time, and a drain preempted part of the way (a storm's tasks share its
 * CPU) then holds back only the sub-buffers it has not reached, not the
 * whole buffer until all of it is written.  Runs inside the SIGBUS
 * guard.  Returns the reader's flags; *err gets a hand-back's error.
 */
static unsigned int read_buffer(struct live_source *ls, unsigned int i,
				int *err)
{
	struct channel_cpu *cc = &ls->ch.cpus[i];
	struct subbuf_sink sink = {
		.stage = buf_stage, .settle = buf_settle,
		.restart = buf_restart, .ctx = &ls->bufs[i],
	};
	uint64_t size = subbuf_buffer_size(&ls->ch.geom);
	struct feed_event fill = {
		.kind = FEED_FILL, .cpu = cc->cpu,
		.fill = (double)subbuf_reader_backlog(&cc->reader) /
			(double)size,
	};
	/* One lap, the reader's budget, so that a buffer whose producer
	 * outruns relaytop does not starve the others (nor the screen, nor
	 * a SIGTERM): what is left is read at the loop's next turn. */
	uint32_t lap = ls->ch.geom.n_subbufs + 2;
	unsigned int flags = 0, f;
	uint64_t start = mono_ns();

	feed_event(ls->feed, &fill);
	marks_of(ls, cc->cpu)->fill = fill.fill;
	/* n - 1 sub-buffers unread: the producer may be about to drop (it
	 * drops only when none is free), past what any header says */
	if (fill.fill * ls->ch.geom.n_subbufs >= ls->ch.geom.n_subbufs - 1)
		ls->stats_due = true;
	do {
		int e = 0;

		f = subbuf_reader_read_upto(&cc->reader, &sink, 1);
		flags |= f & ~SUBBUF_MORE;
		feed_commit(ls->feed);
		/* a read-only buffer (overwrite mode) is read on all the same,
		 * with one failed hand-back a read (-EBADF) */
		if (!*err)
			e = subbuf_reader_handback(&cc->reader, ls->give_back,
						   cc);
		if (e)
			*err = e;
		if (e == -ENODEV || e == -ENOENT)
			break;	/* gone */
	} while ((f & SUBBUF_MORE) && --lap);
	flags |= f & SUBBUF_MORE;
	note_losses(ls, cc, &cc->reader);
	marks_of(ls, cc->cpu)->more = f & SUBBUF_MORE;
	if (!(f & SUBBUF_MORE)) {
		struct live_marks *m = marks_of(ls, cc->cpu);

		m->prev_read_ns = m->read_ns;
		m->read_ns = start;
	}
	return flags;
}

struct read_args {
	const unsigned int *which;	/* indexes into ch.cpus, or NULL: all */
	unsigned int n;
	bool mark_idle;
	int err;			/* the first hand-back error */
};

struct read_order {
	double until_full;	/* seconds, at the buffer's rate */
	unsigned int i;		/* index into ch.cpus */
};

static int sooner_first(const void *a, const void *b)
{
	const struct read_order *x = a, *y = b;

	if (x->until_full != y->until_full)
		return x->until_full < y->until_full ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The buffers to read, the one that fills soonest first: the free room
 * left over its rate (over 1 byte/s when none is known yet, so the
 * fullest first).  Runs inside the SIGBUS guard (the backlog is in the
 * mapping).
 */
static struct read_order *read_order(struct live_source *ls,
				     const struct read_args *a, unsigned int n)
{
	double size = (double)subbuf_buffer_size(&ls->ch.geom);
	struct read_order *o;

	if (n > ls->norder) {
		ls->order = realloc(ls->order, n * sizeof(*ls->order));
		if (!ls->order)
			fatal("out of memory");
		ls->norder = n;
	}
	o = ls->order;

	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = a->which ? a->which[k] : k;
		struct channel_cpu *cc = &ls->ch.cpus[i];
		double rate = marks_of(ls, cc->cpu)->rate;
		double left = size - (double)subbuf_reader_backlog(&cc->reader);

		o[k] = (struct read_order) {
			.until_full = left / (rate > 1.0 ? rate : 1.0), .i = i,
		};
	}
	qsort(o, n, sizeof(*o), sooner_first);
	return o;
}

static void read_some(void *self, void *arg)
{
	struct live_source *ls = self;
	struct read_args *a = arg;
	unsigned int n = a->which ? a->n : ls->ch.n;
	struct read_order *order = read_order(ls, a, n);

	/*
	 * Each sub-buffer is written (a recording writes it straight from
	 * the mapping, and checks it was not overwritten meanwhile) and
	 * handed back before the next is read (read_buffer()), and the
	 * buffer that fills soonest is read first.
	 */
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = order[k].i;
		struct channel_cpu *cc = &ls->ch.cpus[i];
		int err = 0;
		unsigned int flags = read_buffer(ls, i, &err);

		if (a->mark_idle && !(flags & SUBBUF_PROGRESS))
			cc->idle = true;
		if (err && !a->err)
			a->err = err;
		if (err == -ENODEV || err == -ENOENT)
			break;	/* gone: the others are too */
	}
}

static uint64_t now_ns(const struct live_source *ls)
{
	return ls->clock ? ls->clock() : mono_ns();
}

/* Does a buffer writing rate bytes/s fill a sub-buffer within the refresh
 * interval (and so go on the timer, once its rate is known)? */
static bool busy_at(const struct live_source *ls, double rate)
{
	return rate * (double)ls->interval_ns / 1e9 >
	       (double)ls->ch.geom.subbuf_size;
}

/*
 * After buffers were read from start on: their rates, which buffers the
 * timer drains (and so are not polled), and when it does next.  What the
 * producer writes from one drain's start on must fit in the free room
 * until the next drain has handed sub-buffers back: the period between
 * their starts plus how long a drain takes.
 */
static void schedule(struct live_source *ls, const unsigned int *which,
		     unsigned int n, uint64_t start, bool timed)
{
	uint64_t period = ls->interval_ns, fill_ns = period, at;
	uint64_t end = now_ns(ls), took = end - start;
	double sub = ls->ch.geom.subbuf_size;
	/* what the producer may fill before a drain: the buffer but the
	 * sub-buffer it is in (not handed back) */
	double room = (double)subbuf_buffer_size(&ls->ch.geom) - sub;
	bool any = false;

	for (unsigned int k = 0; k < (which ? n : ls->ch.n); k++) {
		struct live_marks *m =
			marks_of(ls, ls->ch.cpus[which ? which[k] : k].cpu);
		uint64_t dt = start - m->rate_ns;
		double r;

		/* found (nearly) full: what it wrote since is not all seen
		 * yet (the drops are in the header that follows) */
		if (m->fill >= LIVE_FILL_BACKSTOP)
			m->busy_runs = 0;
		if (!m->rate_ns || start < m->rate_ns) {
			m->rate_ns = start;	/* the first look */
			m->bytes = 0;
			continue;
		}
		if (dt < LIVE_MIN_DRAIN_NS)
			continue;	/* too short to tell */
		r = (double)m->bytes * 1e9 / (double)dt;
		/* a rise counts at once, a fall by halves */
		m->rate = r > m->rate ? r : (m->rate + r) / 2;
		m->bytes = 0;
		m->rate_ns = start;
		/* by the rate, which falls by halves: a short window that
		 * happened to hold nothing does not undo it */
		if (!busy_at(ls, m->rate))
			m->busy_runs = 0;
		else if (m->fill < LIVE_FILL_BACKSTOP &&
			 m->busy_runs < LIVE_BUSY_RUNS)
			m->busy_runs++;
	}
	for (unsigned int i = 0; i < ls->ch.n; i++) {
		struct channel_cpu *cc = &ls->ch.cpus[i];
		const struct live_marks *m = marks_of(ls, cc->cpu);
		bool busy = busy_at(ls, m->rate);
		double t = busy ? LIVE_FILL_TARGET * room / m->rate * 1e9 : 0;
		double left = t * (1 - LIVE_FILL_TARGET) / LIVE_FILL_TARGET;

		/* a timer whose shortest period is longer than the buffer
		 * takes to fill, or that leaves less room than a wait to
		 * run, cannot come in time: such a buffer stays polled,
		 * read at each sub-buffer's wake-up (small buffers at a
		 * high rate).  How long a drain takes is not counted: a
		 * woken read takes as long */
		busy = busy && t >= (double)LIVE_MIN_DRAIN_NS &&
		       left >= (double)ls->late_margin_ns;
		/* polled until its rate is known (see LIVE_BUSY_RUNS) */
		cc->timed = busy && m->busy_runs >= LIVE_BUSY_RUNS &&
			    m->fill < LIVE_FILL_BACKSTOP;
		if (busy) {
			any = true;
			if (t < (double)fill_ns)
				fill_ns = (uint64_t)t;
		}
	}
	/* what the timer's drains take (not a woken read of a buffer or
	 * two, nor the tick's right after a drain) */
	if (timed)
		ls->drain_took_ns = took > ls->drain_took_ns ? took :
				    (ls->drain_took_ns + took) / 2;
	if (fill_ns < period)
		period = fill_ns > ls->drain_took_ns ?
			 fill_ns - ls->drain_took_ns : 0;
	if (period < LIVE_MIN_DRAIN_NS)
		period = LIVE_MIN_DRAIN_NS;
	ls->drain_ns = period;
	/* not before this one ended: what comes later is a wait to run */
	at = start + period > end ? start + period : end;
	if (!any)
		ls->drain_at = 0;
	else if (!which || !ls->drain_at || at < ls->drain_at)
		ls->drain_at = at;	/* a woken read never puts it off */
}

/*
 * Read the buffers whose index is in which[] (all when which is NULL).
 * Buffers that had nothing new are marked idle when mark_idle is set.
 */
static void read_buffers(struct live_source *ls, const unsigned int *which,
			 unsigned int n, bool mark_idle, bool timed)
{
	struct read_args a = { which, n, mark_idle, 0 };
	uint64_t start = now_ns(ls);

	if (!ls->have_ch || !guarded(ls, read_some, &a))
		return;
	schedule(ls, which, n, start, timed);
	if (a.err == -ENODEV || a.err == -ENOENT)
		went_away(ls, "its buffers were removed");
	else if (a.err == -EBADF) {
		/* in overwrite mode the producer does not wait for them */
		if (!ls->cfg.overwrite)
			feed_status(ls->feed, true, true, "buffers opened "
				    "read-only: sub-buffers cannot be handed "
				    "back (no-overwrite mode will fill up)");
	} else if (a.err)
		feed_status(ls->feed, true, false, "handing sub-buffers back: "
			    "%s", strerror(-a.err));
}

/* ---- a drainer thread per buffer (drainer.h) ---- */

static void drained_chunk(void *ctx, const struct subbuf_chunk *chunk)
{
	struct live_source *ls = ctx;

	feed_stage(ls->feed, chunk);
	settled(ls, chunk, true);
}

static void drained_restart(void *ctx, unsigned int cpu, uint64_t generation,
			    uint64_t lost)
{
	restarted(ctx, cpu, generation, lost);
}

static void drained_read(void *ctx, unsigned int cpu,
			 const struct drain_read *r)
{
	struct live_source *ls = ctx;
	struct channel_cpu *cc = channel_cpu(&ls->ch, cpu);
	struct live_marks *m = marks_of(ls, cpu);
	struct feed_event fill = {
		.kind = FEED_FILL, .cpu = cpu, .fill = r->fill,
	};

	if (r->gone || !cc) {
		ls->drainer_gone = true;
		return;
	}
	feed_event(ls->feed, &fill);
	m->fill = r->fill;
	if (r->fill * ls->ch.geom.n_subbufs >= ls->ch.geom.n_subbufs - 1)
		ls->stats_due = true;
	note_losses(ls, cc, &r->reader);
	if (!(r->flags & SUBBUF_MORE)) {
		m->prev_read_ns = m->read_ns;
		m->read_ns = r->start_ns;
	}
	if (r->handback_err && !ls->drainer_err)
		ls->drainer_err = r->handback_err;
}

/* Replay what the drainers queued, in the order each read it, and commit
 * it.  Leaves what they met in drainer_gone and drainer_err. */
static void replay_drained(struct live_source *ls)
{
	const struct drain_target t = {
		.chunk = drained_chunk, .restart = drained_restart,
		.read_done = drained_read, .ctx = ls,
	};
	struct drainers *ds = &ls->drainers;

	drainers_clear_notify(ds);
	for (unsigned int c = 0; c < ds->max; c++) {
		if (!ds->d[c])
			continue;
		drainer_take(ds->d[c]);
		drainer_replay(ds->d[c], &t);
	}
	/* the copies are what the sinks point to: free only after */
	feed_commit(ls->feed);
	for (unsigned int c = 0; c < ds->max; c++)
		if (ds->d[c])
			drainer_done(ds->d[c]);
}

/* What the drainers met, as read_buffers() tells it. */
static void drainer_news(struct live_source *ls)
{
	int err = ls->drainer_err;

	ls->drainer_err = 0;
	if (ls->drainer_gone) {
		ls->drainer_gone = false;
		went_away(ls, "its buffers were removed");
	} else if (err == -ENODEV || err == -ENOENT) {
		went_away(ls, "its buffers were removed");
	} else if (err == -EBADF) {
		if (!ls->cfg.overwrite)
			feed_status(ls->feed, true, true, "buffers opened "
				    "read-only: sub-buffers cannot be handed "
				    "back (no-overwrite mode will fill up)");
	} else if (err) {
		feed_status(ls->feed, true, false, "handing sub-buffers back: "
			    "%s", strerror(-err));
	}
}

/* Every buffer read now (by the main thread, under each drainer's lock),
 * and all that is queued replayed. */
static void drain_now(struct live_source *ls)
{
	struct drainers *ds = &ls->drainers;

	for (unsigned int c = 0; c < ds->max; c++)
		if (ds->d[c])
			drainer_read_now(ds->d[c]);
	replay_drained(ls);
	drainer_news(ls);
}

/* Start a drainer for each buffer that has none (the loop's first turn
 * on a channel mapped, after --realtime: threads take the policy of the
 * thread that makes them). */
static void start_drainers(struct live_source *ls)
{
	int err;

	/* auto: small buffers of the kernel's (a plain file's POLLIN does
	 * not say that a sub-buffer is complete) */
	if (!ls->have_ch || ls->threads == LIVE_THREADS_OFF ||
	    (ls->threads == LIVE_THREADS_AUTO &&
	     (ls->ch.read_only ||
	      subbuf_buffer_size(&ls->ch.geom) > LIVE_THREADS_UP_TO)))
		return;
	__atomic_store_n(&ls->drainers.interval_ns, ls->interval_ns,
			 __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < ls->ch.n; i++) {
		struct channel_cpu *cc = &ls->ch.cpus[i];

		if (drainers_of(&ls->drainers, cc->cpu))
			continue;
		err = drainers_start_one(&ls->drainers, &ls->ch, cc,
					 ls->give_back);
		if (err) {
			feed_status(ls->feed, true, false, "a reader thread "
				    "for CPU %u: %s (all read by the main "
				    "loop)", cc->cpu, strerror(-err));
			ls->drainers_on = ls->drainers.n > 0;
			stop_drainers(ls);
			drainers_free(&ls->drainers);
			ls->threads = LIVE_THREADS_OFF;
			return;
		}
	}
	ls->drainers_on = ls->drainers.n > 0;
	if (ls->drainers_on)
		ls->drain_at = 0;	/* no timer: the drainers are woken */
}

/* Stop them, and deliver what they read before. */
static void stop_drainers(struct live_source *ls)
{
	if (!ls->drainers_on)
		return;
	drainers_stop(&ls->drainers);
	replay_drained(ls);
	ls->drainer_gone = false;
	ls->drainer_err = 0;
	drainers_free(&ls->drainers);
	ls->drainers_on = false;
}

static void drain(void *self)
{
	struct live_source *ls = self;

	if (ls->drainers_on)
		drain_now(ls);
	else
		read_buffers(ls, NULL, 0, false, false);
}

/*
 * The recording gets the stats file's drop counts of the sequence each
 * reader is in, so that drops after the newest header survive a reset
 * (a full buffer starts no sub-buffer to carry them).  The buffers are
 * read again after the stats file: a CPU whose reader met a reset in
 * between may have been counted in the new sequence, and keeps its
 * earlier count.  (The stats file and a reset both take the producer's
 * lock: counts from after a reset are always followed by its headers.)
 */
static void note_stats_drops(struct live_source *ls,
			     const struct control_cpu_stats *cs, int n)
{
	uint64_t *restarts = xcalloc((size_t)n + 1, sizeof(*restarts));

	for (int k = 0; k < n; k++) {
		struct channel_cpu *cc = channel_cpu(&ls->ch, cs[k].cpu);

		restarts[k] = cc ? reader_of(ls, cc)->restarts : UINT64_MAX;
	}
	drain(ls);
	for (int k = 0; k < n && ls->have_ch; k++) {
		struct channel_cpu *cc = channel_cpu(&ls->ch, cs[k].cpu);

		if (cc && reader_of(ls, cc)->synced &&
		    reader_of(ls, cc)->restarts == restarts[k])
			event(ls, FEED_SEQ_DROPPED, cs[k].cpu, cs[k].dropped);
	}
	free(restarts);
}

void live_source_read_drops(struct live_source *ls)
{
	struct control_cpu_stats *cs;
	int n;

	if (!ls->have_ch || !ls->has_stats_file)
		return;
	ls->stats_due = false;
	n = read_stats(ls, &cs);
	if (n > 0 && ls->seq_drops)
		note_stats_drops(ls, cs, n);
	for (int k = 0; k < n && ls->have_ch; k++) {
		struct channel_cpu *cc = channel_cpu(&ls->ch, cs[k].cpu);
		uint64_t d = cs[k].dropped;

		if (!cc)
			continue;
		marks_of(ls, cs[k].cpu)->stats_dropped = d;
		if (reader_of(ls, cc)->dropped > d)
			d = reader_of(ls, cc)->dropped;
		event(ls, FEED_DROPPED, cs[k].cpu, d);
	}
	free(cs);
}

/* The drop counts as the headers read say, never below the stats file's
 * last count of the same sequence (no stats file read). */
static void header_drops(struct live_source *ls)
{
	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n; i++) {
		struct channel_cpu *cc = &ls->ch.cpus[i];
		uint64_t d = marks_of(ls, cc->cpu)->stats_dropped;

		if (reader_of(ls, cc)->dropped > d)
			d = reader_of(ls, cc)->dropped;
		event(ls, FEED_DROPPED, cc->cpu, d);
	}
}

/* ---- configuration changes ---- */

static void config_changed(struct live_source *ls)
{
	struct control_state now;
	enum control_attr bad = CTL_NR;
	unsigned int diff;
	char events[128];
	int err;

	if (!ls->have_ctl) {
		remap(ls);
		return;
	}
	err = control_read(&ls->ctl, &now, &bad);
	if (err) {
		went_away(ls, "its attributes were removed");
		close_control(ls);
		return;
	}
	diff = control_diff(&ls->cfg, &now);
	ls->cfg = now;
	ls->have_cfg = true;
	if (!diff)
		return;
	if (diff & (1u << CTL_EVENTS)) {
		events_format(now.events, " ", events, sizeof(events));
		feed_status(ls->feed, false, false, "events: %s", events);
	}
	if (diff & (1u << CTL_ENABLED))
		feed_status(ls->feed, false, false, "the producer was %s",
			    now.enabled ? "enabled" : "disabled");
	if (diff & (1u << CTL_OVERWRITE))
		feed_status(ls->feed, false, false, "mode: %s (the buffers "
			    "were emptied)", now.overwrite ?
			    "overwrite (flight recorder)" : "no-overwrite");
	if (diff & (1u << CTL_GENERATION))
		config_event(ls);
	if (ls->have_ch && (now.geom.subbuf_size != ls->ch.geom.subbuf_size ||
			    now.geom.n_subbufs != ls->ch.geom.n_subbufs)) {
		went_away(ls, "re-configured");
		remap(ls);
		return;
	}
	if (!ls->have_ch)
		remap(ls);
	/* a reset shows in the buffers: look now, not at the tick */
	drain(ls);
}

/*
 * Did the configuration change?  Every change moves 'generation' (the
 * ABI says so), so the tick reads that file alone; the others are read
 * when it moved, or when it cannot be read (the reason is then found by
 * reading all of them).
 */
static bool generation_moved(struct live_source *ls)
{
	uint64_t gen;

	if (!ls->cfg.have[CTL_GENERATION] ||
	    control_read_generation(&ls->ctl, &gen))
		return true;
	return gen != ls->cfg.generation;
}

/* ---- the source ---- */

static unsigned int pollfds(void *self, struct pollfd *pfd, unsigned int max)
{
	struct live_source *ls = self;
	unsigned int max_buf = max < LIVE_MAX_BUFFERS ? max : LIVE_MAX_BUFFERS;

	ls->nctl = ls->nbuf = 0;
	ls->notify_at = -1;
	if (ls->have_ch && !ls->drainers_on)
		start_drainers(ls);
	if (ls->have_ctl)
		ls->nctl = control_pollfds(&ls->ctl, pfd, max < CTL_NR ? max :
					   CTL_NR);
	if (ls->drainers_on) {
		/* the drainers poll the buffers; they wake us by this */
		if (ls->nctl >= max)
			return ls->nctl;
		pfd[ls->nctl] = (struct pollfd) {
			.fd = ls->drainers.notify_fd, .events = POLLIN,
		};
		ls->notify_at = (int)ls->nctl;
		return ls->nctl + 1;
	}
	if (ls->have_ch && max_buf > ls->nctl)
		ls->nbuf = channel_pollfds(&ls->ch, pfd + ls->nctl, ls->map,
					   max_buf - ls->nctl);
	return ls->nctl + ls->nbuf;
}

/* Buffer i's last read stopped after a lap, with more to read. */
static bool more_at(const struct live_source *ls, unsigned int i)
{
	unsigned int cpu = ls->ch.cpus[i].cpu;

	return cpu < ls->nmarks && ls->marks[cpu].more;
}

static bool listed(const unsigned int *which, unsigned int n, unsigned int i)
{
	for (unsigned int k = 0; k < n; k++)
		if (which[k] == i)
			return true;
	return false;
}

static void ready(void *self, const struct pollfd *pfd, unsigned int n)
{
	struct live_source *ls = self;
	unsigned int woke[LIVE_MAX_BUFFERS], nwoke = 0;
	bool ctl_woke = false, gone = false;
	uint64_t now, late;

	if (n < ls->nctl + ls->nbuf)
		return;
	for (unsigned int i = 0; i < ls->nctl; i++)
		ctl_woke |= pfd[i].revents != 0;
	if (ls->notify_at >= 0) {
		if ((unsigned int)ls->notify_at < n &&
		    pfd[ls->notify_at].revents && ls->drainers_on) {
			ls->woken_drains++;
			replay_drained(ls);
			drainer_news(ls);
		}
		if (ctl_woke)
			config_changed(ls);
		return;
	}
	for (unsigned int i = 0; i < ls->nbuf; i++) {
		short r = pfd[ls->nctl + i].revents;

		if (r & (POLLERR | POLLHUP | POLLNVAL))
			gone = true;
		else if (r & POLLIN)
			woke[nwoke++] = ls->map[i];
	}
	if (nwoke)
		ls->woken_drains++;
	/* and those whose last read stopped after a lap */
	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n &&
	     nwoke < LIVE_MAX_BUFFERS; i++)
		if (more_at(ls, i) && !listed(woke, nwoke, i))
			woke[nwoke++] = i;
	if (gone) {
		went_away(ls, "its buffers were removed");
		remap(ls);
	} else if (ls->drain_at && (now = now_ns(ls)) >= ls->drain_at) {
		late = now - ls->drain_at;
		/* a stop and continue is not a wait to run */
		if (!loop_take_continued() && late > ls->drain_late_ns)
			ls->drain_late_ns = late;
		ls->timed_drains++;
		/* all of them, the woken ones too */
		read_buffers(ls, NULL, 0, false, true);
	} else if (nwoke) {
		read_buffers(ls, woke, nwoke, true, false);
	}
	if (ctl_woke)
		config_changed(ls);
}

static uint64_t deadline(const void *self)
{
	const struct live_source *ls = self;

	if (!ls->have_ch || ls->drainers_on)
		return 0;
	/* a buffer with more to read: at once, after the keys */
	for (unsigned int i = 0; i < ls->ch.n; i++)
		if (more_at(ls, i))
			return 1;
	return ls->drain_at;
}

static uint64_t tick(void *self, double interval)
{
	struct live_source *ls = self;

	ls->interval_ns = (uint64_t)(interval * 1e9);
	__atomic_store_n(&ls->drainers.interval_ns, ls->interval_ns,
			 __ATOMIC_RELAXED);
	if (!ls->have_ch)
		remap(ls);
	else
		add_new_buffers(ls);
	if (ls->drainers_on) {
		start_drainers(ls);	/* CPUs that came online */
		/* each drainer reads once more, and a buffer that woke its
		 * drainer without news is polled again from now on.  The
		 * tick does not read their buffers itself: preempted while
		 * it holds a drainer's lock (the loop is one thread for
		 * every CPU), it would keep that drainer from its buffer
		 * (117 ms in a storm of three task pairs a CPU).  What they
		 * read comes at the loop's next turn (their notify). */
		drainers_kick(&ls->drainers);
		replay_drained(ls);
		drainer_news(ls);
	} else {
		drain(ls);
	}
	/* the attributes too, after the buffers: the header is current even
	 * if a notification is still on its way (sysfs delivers them from a
	 * work item), and never older than what the buffers showed */
	if (ls->have_ctl && ls->have_ch && generation_moved(ls))
		config_changed(ls);
	if (ls->stats_due)
		live_source_read_drops(ls);
	else if (ls->has_stats_file)
		header_drops(ls);
	for (unsigned int i = 0; i < ls->ch.n; i++)
		ls->ch.cpus[i].idle = false;
	return mono_ns();
}

static void state(const void *self, struct source_state *st)
{
	const struct live_source *ls = self;

	*st = (struct source_state) {
		.name = ls->dir, .have_cfg = ls->have_cfg, .cfg = ls->cfg,
		.channel_ok = ls->have_ch, .read_only = ls->ch.read_only,
	};
}

static int can_change(const void *self, const char *what, char *msg,
		      size_t len)
{
	const struct live_source *ls = self;

	if (ls->have_ctl)
		return 0;
	snprintf(msg, len, "%s: the channel is gone", what);
	return -1;
}

static int change(void *self, enum source_request req, uint32_t value)
{
	struct live_source *ls = self;

	if (!ls->have_ctl)
		return -ENODEV;
	switch (req) {
	case REQ_RESET:
		return control_reset(&ls->ctl);
	case REQ_EVENTS:
		return control_set_events(&ls->ctl, value);
	case REQ_OVERWRITE:
		return control_set_overwrite(&ls->ctl, value != 0);
	}
	return -EINVAL;
}

/* Everything committed until now, and the producer's final drop counts
 * (for the recording's end). */
static void finish(void *self)
{
	struct live_source *ls = self;
	struct control_cpu_stats *cs;
	int n;

	/* the drainers' reads delivered, and no more of them: the last
	 * read is the main thread's */
	stop_drainers(ls);
	ls->threads = LIVE_THREADS_OFF;
	drain(ls);
	if (!ls->have_ch || !ls->has_stats_file || !ls->seq_drops)
		return;
	n = read_stats(ls, &cs);
	for (int k = 0; k < n; k++)
		event(ls, FEED_SEQ_DROPPED, cs[k].cpu, cs[k].dropped);
	free(cs);
}

static void sync_counts(void *self)
{
	struct live_source *ls = self;

	drain(ls);
	live_source_read_drops(ls);
}

static bool cpu_counts(const void *self, unsigned int i, struct source_cpu *c)
{
	const struct live_source *ls = self;
	const struct channel_cpu *cc;
	const struct subbuf_reader *r;

	if (!ls->have_ch || i >= ls->ch.n)
		return false;
	cc = &ls->ch.cpus[i];
	r = reader_of(ls, cc);
	*c = (struct source_cpu) {
		.cpu = cc->cpu, .generation = r->cur_gen,
		.dropped = r->dropped, .lost = r->lost,
		.misplaced = r->misplaced, .unaccounted = r->unaccounted,
	};
	return true;
}

static void recording(void *self)
{
	struct live_source *ls = self;

	ls->seq_drops = true;
}

/*
 * A time before which every CPU's records have been read.  The producer
 * takes a record's timestamp after it reserved the room, with interrupts
 * off until it commits it, so a record not reserved when a read began is
 * later than that read; one reserved but not committed yet may be earlier
 * and comes with the next read.  So the time is the start of the read
 * before the last whole one of each CPU, the earliest of them: a record
 * whose commit was held up (its vCPU preempted) has had a whole read
 * period to come.  The records wait in the merge as long: a drain period
 * for a busy CPU, a refresh interval for a quiet one.  A record later
 * still is counted (time_merge.h).
 */
static uint64_t complete(const void *self)
{
	const struct live_source *ls = self;
	uint64_t min = UINT64_MAX;

	for (unsigned int i = 0; ls->have_ch && i < ls->ch.n; i++) {
		const struct live_marks *m = ls->ch.cpus[i].cpu < ls->nmarks ?
			&ls->marks[ls->ch.cpus[i].cpu] : NULL;
		uint64_t t = m ? m->prev_read_ns : 0;

		if (t < min)
			min = t;
	}
	return min == UINT64_MAX ? 0 : min;
}

const struct source_ops live_source_ops = {
	.pollfds = pollfds, .ready = ready, .drain = drain, .tick = tick,
	.state = state, .can_change = can_change, .change = change,
	.finish = finish, .sync = sync_counts, .cpu = cpu_counts,
	.recording = recording, .deadline = deadline,
	.complete = complete,
};

struct source live_source(struct live_source *ls)
{
	return (struct source) { &live_source_ops, ls };
}

static int give_back_default(void *cc, uint64_t until)
{
	return channel_give_back(cc, until);
}

int live_source_open(struct live_source *ls, const char *dir,
		     const struct feed *feed, char *msg, size_t len)
{
	int err;

	memset(ls, 0, sizeof(*ls));
	ls->dir = xstrdup(dir);
	ls->feed = feed;
	ls->give_back = give_back_default;
	ls->interval_ns = 1000000000ull;	/* till the first tick says */
	ls->late_margin_ns = LIVE_LATE_MARGIN_NS;
	channel_install_sigbus();
	err = map_channel(ls, msg, len);
	if (err)
		live_source_close(ls);
	return err;
}

void live_source_close(struct live_source *ls)
{
	unmap_channel(ls);
	drainers_free(&ls->drainers);
	close_control(ls);
	free(ls->marks);
	free(ls->order);
	free(ls->dir);
	memset(ls, 0, sizeof(*ls));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - the live session's loop (see session.h).
 *
 * Everything happens in one thread around poll():
 * - the control attributes (POLLPRI): re-read all of them; a new geometry
 *   means re-mapping; every change is put on the status line (and into
 *   the recording as a CONFIG block), and all buffers are read at once so
 *   a reset is noticed without waiting for the tick;
 * - the buffer files (POLLIN: a sub-buffer is complete): that CPU is read
 *   and its finished sub-buffers handed back, so no-overwrite mode keeps
 *   flowing however long the refresh interval; a buffer that wakes us
 *   without news is left out until the next tick, so nothing spins;
 * - POLLERR on a buffer, or SIGBUS while reading one: the channel went
 *   away (re-configured or unloaded); it is looked for again every tick;
 * - the keyboard, in curses mode;
 * - the timeout: the tick, which reads every buffer up to what the
 *   producer committed (following it inside the sub-buffer being filled),
 *   computes the rates and draws.
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "events.h"
#include "keys.h"
#include "ui.h"
#include "util.h"

/* One buffer's sink: subbuf_reader -> stats and recording. */
struct sink_ctx {
	struct session *s;
	struct channel_cpu *cc;
};

static volatile sig_atomic_t got_signal;	/* SIGINT, SIGTERM or SIGHUP arrived */
static volatile sig_atomic_t got_status;	/* SIGUSR1 arrived */
/* A signal writes a byte here, so a poll() that had not begun yet when it
 * came returns at once instead of sleeping out its timeout. */
static int signal_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGUSR1)
		got_status = 1;
	else
		got_signal = sig;
	if (signal_pipe[1] >= 0 && write(signal_pipe[1], "", 1) < 0) {
		/* full: a wake-up is pending anyway */
	}
	errno = saved;
}

/* Empty the signal pipe (its bytes only woke poll()). */
static void drain_signal_pipe(void)
{
	char buf[64];

	while (signal_pipe[0] >= 0 && read(signal_pipe[0], buf, sizeof(buf)) > 0)
		;
}

void session_install_signals(void)
{
	struct sigaction sa;

	if (signal_pipe[0] < 0 && pipe(signal_pipe) == 0) {
		for (int i = 0; i < 2; i++) {
			fcntl(signal_pipe[i], F_SETFL, O_NONBLOCK);
			fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: poll() returns EINTR and the loop looks */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the terminal went away: stop as cleanly (finish the recording) */
	sigaction(SIGHUP, &sa, NULL);
	/* read everything now and say how far we are (as dd does) */
	sigaction(SIGUSR1, &sa, NULL);
	channel_install_sigbus();
}

bool session_signalled(void)
{
	return got_signal != 0;
}

void session_status(struct session *s, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->status, sizeof(s->status), fmt, ap);
	va_end(ap);
	s->status_error = error;
}

/* ---- the sink ---- */

static void sink_stage(void *ctx, const struct subbuf_chunk *chunk)
{
	struct sink_ctx *k = ctx;

	if (k->s->rec && !k->s->rec_failed)
		recorder_stage(k->s->rec, chunk);
}

static void sink_settle(void *ctx, const struct subbuf_chunk *chunk,
			bool intact)
{
	struct sink_ctx *k = ctx;

	if (k->s->rec && !k->s->rec_failed)
		recorder_settle(k->s->rec, intact);
	if (intact)
		stats_add(&k->s->st, chunk->cpu, chunk->nrec, chunk->mix,
			  chunk->unknown);
}

static void sink_restart(void *ctx, unsigned int cpu, uint64_t generation)
{
	struct sink_ctx *k = ctx;
	struct session *s = k->s;

	stats_clear_cpu(&s->st, cpu);
	if (s->rec && !s->rec_failed)
		recorder_restart(s->rec, cpu, generation, k->cc->reader.lost);
	if (generation != s->restart_gen) {
		s->restart_gen = generation;
		session_status(s, false, "channel reset (generation %" PRIu64
			       "): counters start again", generation);
	}
}

/*
 * A write of the recording failed: the recording is what relaytop was
 * asked for, so it stops here (status 1), with the reason on the screen
 * and, at the end, on standard error.
 */
static void recording_failed(struct session *s)
{
	if (!s->rec || s->rec_failed || !s->rec->error)
		return;
	s->rec_failed = true;
	s->quit = true;
	s->exit_status = 1;
	session_status(s, true, "recording stopped: %s: %s",
		       s->rec->path, strerror(-s->rec->error));
}

/* ---- the channel ---- */

static struct record_meta meta_of(const struct session *s)
{
	struct record_meta m = {
		.channel = s->opt->channel,
		.nr_cpus = s->have_ch ? s->ch.n : 0,
		.geom = s->cfg.geom,
		.events = s->cfg.events,
		.flags = (s->cfg.overwrite ? RECORD_F_OVERWRITE : 0) |
			 (s->cfg.enabled ? RECORD_F_ENABLED : 0),
		.generation = s->cfg.generation,
	};

	return m;
}

static void unmap_channel(struct session *s)
{
	if (!s->have_ch)
		return;
	for (unsigned int i = 0; i < s->ch.n; i++)
		stats_cpu_present(&s->st, s->ch.cpus[i].cpu, false);
	channel_close(&s->ch);
	free(s->sinks);
	s->sinks = NULL;
	s->have_ch = false;
}

static void went_away(struct session *s, const char *why)
{
	if (!s->have_ch)
		return;
	if (s->rec && !s->rec_failed) {
		recorder_settle(s->rec, false);
		recorder_gone(s->rec, RECORD_NO_CPU);
	}
	unmap_channel(s);
	session_status(s, true, "channel went away (%s): waiting for it "
		       "to come back", why);
}

/*
 * Run fn(s, arg) where a SIGBUS (the buffers were removed under us) jumps
 * back here.  Nothing in this frame changes between sigsetjmp() and the
 * jump; fn leaves its results in *arg.  False when the channel went away.
 */
static bool guarded(struct session *s, void (*fn)(struct session *, void *),
		    void *arg)
{
	if (sigsetjmp(channel_bus_jmp, 1)) {
		went_away(s, "its buffers were removed");
		return false;
	}
	channel_bus_armed = 1;
	fn(s, arg);
	channel_bus_armed = 0;
	return true;
}

static void close_control(struct session *s)
{
	if (s->have_ctl)
		control_close(&s->ctl);
	s->have_ctl = false;
}

struct sync_args {
	const struct control_cpu_stats *cs;
	int n;
};

/* Sync the readers not synced yet, at the kernel's consumed count when
 * known. */
static void sync_readers(struct session *s, void *arg)
{
	const struct sync_args *a = arg;

	for (unsigned int i = 0; i < s->ch.n; i++) {
		struct channel_cpu *cc = &s->ch.cpus[i];
		bool have_consumed = false;
		uint64_t consumed = 0;

		if (cc->reader.synced)
			continue;	/* only the new ones */
		for (int k = 0; k < a->n; k++)
			if (a->cs[k].cpu == cc->cpu) {
				have_consumed = true;
				consumed = a->cs[k].subbufs_consumed;
			}
		subbuf_reader_sync(&cc->reader, have_consumed, consumed);
		cc->lost_seen = cc->reader.lost;
	}
}

/*
 * Open the control attributes and map the buffers.  Returns 0 or -errno
 * with msg saying what failed.
 */
static int map_channel(struct session *s, char *msg, size_t len)
{
	struct control_cpu_stats *cs = NULL;
	enum control_attr bad = CTL_NR;
	int err, nstats = 0;

	if (!s->have_ctl) {
		err = control_open(&s->ctl, s->opt->channel);
		if (err) {
			snprintf(msg, len, "%s: %s%s", s->opt->channel,
				 strerror(-err), err == -ENOENT ?
				 " (is the sched_relay module loaded?)" : "");
			return err;
		}
		s->have_ctl = true;
	}
	err = control_read(&s->ctl, &s->cfg, &bad);
	if (err) {
		if (err == -ENODEV)
			snprintf(msg, len, "%s: the channel is going away",
				 s->opt->channel);
		else
			snprintf(msg, len, "%s/%s: %s", s->opt->channel,
				 control_attr_name(bad), err == -EINVAL ?
				 "unexpected contents" : strerror(-err));
		close_control(s);
		return err;
	}
	s->have_cfg = true;
	err = channel_open(&s->ch, s->opt->channel, &s->cfg.geom, msg, len);
	if (err)
		return err;
	s->have_ch = true;
	s->sinks = xcalloc(s->ch.n, sizeof(*s->sinks));

	/* Start where the kernel's consumed count says (no re-reading what
	 * an earlier reader consumed), when the channel tells it. */
	cs = xcalloc(s->ch.max_cpu + 1, sizeof(*cs));
	nstats = control_read_stats(&s->ctl, cs, s->ch.max_cpu + 1);
	s->has_stats_file = nstats >= 0;
	for (unsigned int i = 0; i < s->ch.n; i++) {
		s->sinks[i] = (struct sink_ctx) { .s = s, .cc = &s->ch.cpus[i] };
		stats_cpu_present(&s->st, s->ch.cpus[i].cpu, true);
	}
	if (!guarded(s, sync_readers, &(struct sync_args) { cs, nstats })) {
		free(cs);
		snprintf(msg, len, "%s: the buffers went away", s->opt->channel);
		return -ENODEV;
	}
	free(cs);
	for (unsigned int i = 0; i < s->ch.n && s->rec && !s->rec_failed; i++) {
		struct channel_cpu *cc = &s->ch.cpus[i];

		recorder_track_cpu(s->rec, cc->cpu, cc->reader.lost,
				   cc->reader.dropped, !s->ever_mapped);
	}
	if (s->rec && !s->rec_failed && s->ever_mapped) {
		struct record_meta m = meta_of(s);

		recorder_config(s->rec, &m);
	}
	s->ever_mapped = true;
	return 0;
}

/* CPUs that came online get buffer files: map and follow them too. */
static void add_new_buffers(struct session *s)
{
	struct control_cpu_stats *cs;
	bool *fresh;
	char msg[512];
	int added, nstats;

	added = channel_add_new(&s->ch, msg, sizeof(msg));
	if (added < 0)
		session_status(s, true, "%s", msg);
	if (added <= 0)
		return;
	/* cpus[] moved: the sinks point at the new places */
	free(s->sinks);
	s->sinks = xcalloc(s->ch.n, sizeof(*s->sinks));
	fresh = xcalloc(s->ch.n, sizeof(*fresh));
	for (unsigned int i = 0; i < s->ch.n; i++) {
		s->sinks[i] = (struct sink_ctx) { .s = s, .cc = &s->ch.cpus[i] };
		fresh[i] = !s->ch.cpus[i].reader.synced;
	}
	cs = xcalloc(s->ch.max_cpu + 1, sizeof(*cs));
	nstats = control_read_stats(&s->ctl, cs, s->ch.max_cpu + 1);
	if (guarded(s, sync_readers, &(struct sync_args) { cs, nstats })) {
		for (unsigned int i = 0; i < s->ch.n; i++) {
			struct channel_cpu *cc = &s->ch.cpus[i];

			if (!fresh[i])
				continue;
			stats_cpu_present(&s->st, cc->cpu, true);
			if (s->rec && !s->rec_failed)
				recorder_track_cpu(s->rec, cc->cpu,
						   cc->reader.lost,
						   cc->reader.dropped, false);
			session_status(s, false, "CPU %u came online: "
				       "following its buffer too", cc->cpu);
		}
	}
	free(cs);
	free(fresh);
}

/* Look for the channel again (after it went away). */
static void remap(struct session *s)
{
	char msg[512];

	unmap_channel(s);
	if (map_channel(s, msg, sizeof(msg)) == 0)
		session_status(s, false, "channel is back: %" PRIu32 " x %"
			       PRIu32 " bytes per CPU, generation %" PRIu64,
			       s->cfg.geom.n_subbufs, s->cfg.geom.subbuf_size,
			       s->cfg.generation);
	else
		session_status(s, true, "waiting for the channel: %s", msg);
}

static void note_losses(struct session *s, struct channel_cpu *cc)
{
	uint64_t lost = cc->reader.lost;

	if (lost > cc->lost_seen)
		stats_add_lost(&s->st, cc->cpu, lost - cc->lost_seen);
	cc->lost_seen = lost;
	if (s->rec && !s->rec_failed)
		recorder_note_lost(s->rec, cc->cpu, lost);
	if (!s->has_stats_file)
		stats_set_dropped(&s->st, cc->cpu, cc->reader.dropped);
}

/*
 * Read buffer i.  Runs inside the SIGBUS guard.  Returns the reader's
 * flags; *err gets a hand-back error.
 */
static unsigned int read_buffer(struct session *s, unsigned int i, int *err)
{
	struct channel_cpu *cc = &s->ch.cpus[i];
	struct subbuf_sink sink = {
		.stage = sink_stage, .settle = sink_settle,
		.restart = sink_restart, .ctx = &s->sinks[i],
	};
	uint64_t size = subbuf_buffer_size(&s->ch.geom);
	unsigned int flags = 0, f;

	stats_note_fill(&s->st, cc->cpu,
			(double)subbuf_reader_backlog(&cc->reader) / (double)size);
	/* A lap per call; a SIGTERM ends even a long drain within one
	 * (the recording is finished from what was read). */
	do {
		f = subbuf_reader_read(&cc->reader, &sink);
		flags |= f;
	} while ((f & SUBBUF_MORE) && !got_signal);
	note_losses(s, cc);
	*err = subbuf_reader_handback(&cc->reader, s->give_back, cc);
	return flags;
}

struct read_args {
	const unsigned int *which;	/* indexes into ch.cpus, or NULL: all */
	unsigned int n;
	bool mark_idle;
	int err;			/* the first hand-back error */
};

static void read_some(struct session *s, void *arg)
{
	struct read_args *a = arg;
	unsigned int n = a->which ? a->n : s->ch.n;

	for (unsigned int k = 0; k < n && !got_signal; k++) {
		unsigned int i = a->which ? a->which[k] : k;
		int err = 0;
		unsigned int flags = read_buffer(s, i, &err);

		if (a->mark_idle && !(flags & SUBBUF_PROGRESS))
			s->ch.cpus[i].idle = true;
		if (err && !a->err)
			a->err = err;
		if (err == -ENODEV || err == -ENOENT)
			break;	/* gone: the others are too */
	}
}

/*
 * Read the buffers whose index is in which[] (all when which is NULL).
 * Buffers that had nothing new are marked idle when mark_idle is set.
 */
static void read_buffers(struct session *s, const unsigned int *which,
			 unsigned int n, bool mark_idle)
{
	struct read_args a = { which, n, mark_idle, 0 };

	if (!s->have_ch || !guarded(s, read_some, &a))
		return;
	if (a.err == -ENODEV || a.err == -ENOENT) {
		went_away(s, "its buffers were removed");
	} else if (a.err == -EBADF) {
		if (!s->status_error)
			session_status(s, true, "buffers opened read-only: "
				       "sub-buffers cannot be handed back "
				       "(no-overwrite mode will fill up)");
	} else if (a.err) {
		session_status(s, true, "handing sub-buffers back: %s",
			       strerror(-a.err));
	}
	recording_failed(s);
}

void session_drain(struct session *s)
{
	read_buffers(s, NULL, 0, false);
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
static void note_stats_drops(struct session *s,
			     const struct control_cpu_stats *cs, int n)
{
	uint64_t *restarts = xcalloc((size_t)n + 1, sizeof(*restarts));

	for (int k = 0; k < n; k++) {
		struct channel_cpu *cc = channel_cpu(&s->ch, cs[k].cpu);

		restarts[k] = cc ? cc->reader.restarts : UINT64_MAX;
	}
	session_drain(s);
	for (int k = 0; k < n && s->have_ch && s->rec && !s->rec_failed; k++) {
		struct channel_cpu *cc = channel_cpu(&s->ch, cs[k].cpu);

		if (cc && cc->reader.synced &&
		    cc->reader.restarts == restarts[k])
			recorder_note_dropped(s->rec, cs[k].cpu, cs[k].dropped);
	}
	free(restarts);
}

/* The producer's own drop counts (they also count drops after the newest
 * header, while a full buffer has no sub-buffer to start). */
static void read_stats_file(struct session *s)
{
	struct control_cpu_stats *cs;
	int n;

	if (!s->have_ch || !s->has_stats_file)
		return;
	cs = xcalloc(s->ch.max_cpu + 1, sizeof(*cs));
	n = control_read_stats(&s->ctl, cs, s->ch.max_cpu + 1);
	if (n > 0 && s->rec && !s->rec_failed)
		note_stats_drops(s, cs, n);
	for (int k = 0; k < n && s->have_ch; k++) {
		struct channel_cpu *cc = channel_cpu(&s->ch, cs[k].cpu);
		uint64_t d = cs[k].dropped;

		if (!cc)
			continue;
		if (cc->reader.dropped > d)
			d = cc->reader.dropped;
		stats_set_dropped(&s->st, cs[k].cpu, d);
	}
	free(cs);
}

/* ---- configuration changes ---- */

static void config_changed(struct session *s)
{
	struct control_state now;
	enum control_attr bad = CTL_NR;
	unsigned int diff;
	char events[128];
	int err;

	if (!s->have_ctl) {
		remap(s);
		return;
	}
	err = control_read(&s->ctl, &now, &bad);
	if (err) {
		went_away(s, "its attributes were removed");
		close_control(s);
		return;
	}
	diff = control_diff(&s->cfg, &now);
	s->cfg = now;
	s->have_cfg = true;
	if (!diff)
		return;
	if (diff & (1u << CTL_EVENTS)) {
		events_format(now.events, " ", events, sizeof(events));
		session_status(s, false, "events: %s", events);
	}
	if (diff & (1u << CTL_ENABLED))
		session_status(s, false, "the producer was %s",
			       now.enabled ? "enabled" : "disabled");
	if (diff & (1u << CTL_OVERWRITE))
		session_status(s, false, "mode: %s (the buffers were emptied)",
			       now.overwrite ? "overwrite (flight recorder)"
					     : "no-overwrite");
	if (s->rec && !s->rec_failed && (diff & (1u << CTL_GENERATION))) {
		struct record_meta m = meta_of(s);

		recorder_config(s->rec, &m);
	}
	if (s->have_ch && (now.geom.subbuf_size != s->ch.geom.subbuf_size ||
			   now.geom.n_subbufs != s->ch.geom.n_subbufs)) {
		went_away(s, "re-configured");
		remap(s);
		return;
	}
	if (!s->have_ch)
		remap(s);
	/* a reset shows in the buffers: look now, not at the tick */
	session_drain(s);
}

/* ---- time ---- */

static uint64_t interval_ns(const struct session *s)
{
	return (uint64_t)(s->interval * 1e9);
}

/* What the screen shows, live. */
static void live_view(const struct session *s, struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->source = s->replay ? s->opt->replay : s->opt->channel;
	v->replay = s->replay;
	v->have_cfg = s->have_cfg;
	v->cfg = s->cfg;
	v->channel_ok = s->have_ch;
	v->st = &s->st;
	v->elapsed = (double)(s->st.tick_ns - s->st.start_ns) / 1e9;
	v->interval = s->interval;
	v->sort = s->sort;
	v->paused = s->paused;
	v->show_help = s->show_help;
	v->ended = s->ended;
	v->status = s->status;
	v->status_error = s->status_error;
	v->prompt = keys_prompt(s);
	if (s->rec) {
		v->record_path = s->rec->path;
		v->record_bytes = s->rec->file_bytes + s->rec->len;
		v->record_events = s->rec->records;
	}
}

void session_set_paused(struct session *s, bool paused)
{
	s->paused = paused;
	if (paused && !s->replay) {
		live_view(s, &s->frozen);
		stats_copy(&s->frozen_st, &s->st);
		s->frozen.st = &s->frozen_st;
	}
}

/*
 * Paused, a live screen shows the figures of the moment it was paused, so
 * that it stands still (and a repaint restores it exactly); what the keys
 * change (help, sort, interval, the status line) still shows.
 */
void session_view(const struct session *s, struct view *v)
{
	if (!s->paused || s->replay) {
		live_view(s, v);
		return;
	}
	*v = s->frozen;
	v->interval = s->interval;
	v->sort = s->sort;
	v->paused = true;
	v->show_help = s->show_help;
	v->status = s->status;
	v->status_error = s->status_error;
	v->prompt = keys_prompt(s);
}

void session_render(struct session *s)
{
	struct view v;

	session_view(s, &v);
	if (s->out == OUT_CURSES && ui_active()) {
		ui_draw(&v);
	} else if (s->out == OUT_BATCH && !s->output_failed &&
		   batch_print(stdout, &v)) {
		/* nobody reads us any more (| head -1: EPIPE), or the disk
		 * is full: stop, rather than run on writing nothing */
		s->output_failed = true;
		s->quit = true;
		s->exit_status = 1;
		warn("standard output: %s", strerror(errno ? errno : EIO));
	}
}

void session_tick(struct session *s)
{
	uint64_t now;

	if (!s->have_ch)
		remap(s);
	else
		add_new_buffers(s);
	session_drain(s);
	/* the attributes too, after the buffers: the header is current even
	 * if a notification is still on its way (sysfs delivers them from a
	 * work item), and never older than what the buffers showed */
	if (s->have_ctl && s->have_ch)
		config_changed(s);
	read_stats_file(s);
	now = mono_ns();
	stats_tick(&s->st, now);
	s->ticks++;
	if (s->rec && !s->rec_failed)
		recorder_flush(s->rec);
	recording_failed(s);
	for (unsigned int i = 0; i < s->ch.n; i++)
		s->ch.cpus[i].idle = false;
	if (!s->paused || s->out != OUT_CURSES)
		session_render(s);
	if (s->opt->count && s->ticks >= s->opt->count)
		s->quit = true;
}

/* ---- the loop ---- */

/*
 * SIGUSR1: read every buffer up to what the producer committed, then print
 * per CPU, on standard error, what relaytop has of the current generation:
 *
 *   relaytop: status generation G
 *   relaytop: cpu N generation G events E dropped D lost L
 *   relaytop: status end
 *
 * (events read intact, the producer's drops, events relaytop lost, all
 * since the CPU's last reset).  A script that stopped the producer can
 * compare them with the stats file to know that relaytop has everything.
 * Not on the curses screen, which it would garble.
 */
static void print_status(struct session *s)
{
	session_drain(s);
	read_stats_file(s);
	if (s->out == OUT_CURSES && ui_active())
		return;
	fprintf(stderr, "%s: status generation %" PRIu64 "\n", progname,
		s->cfg.generation);
	for (unsigned int i = 0; s->have_ch && i < s->ch.n; i++) {
		const struct channel_cpu *cc = &s->ch.cpus[i];
		const struct cpu_stats *c = cc->cpu < s->st.ncpus ?
					    &s->st.cpu[cc->cpu] : NULL;

		if (!c)
			continue;
		fprintf(stderr, "%s: cpu %u generation %" PRIu64 " events %"
			PRIu64 " dropped %" PRIu64 " lost %" PRIu64 "\n",
			progname, cc->cpu, cc->reader.cur_gen, c->events,
			c->dropped, c->lost);
	}
	fprintf(stderr, "%s: status end\n", progname);
	fflush(stderr);
}

void session_step(struct session *s, int timeout_ms)
{
	struct pollfd pfd[CTL_NR + 2 + 1024];
	unsigned int map[1024], nctl = 0, nbuf = 0, n;
	bool keys = s->out == OUT_CURSES && ui_active();
	int ready;

	if (s->have_ctl)
		nctl = control_pollfds(&s->ctl, pfd, CTL_NR);
	n = nctl;
	if (keys) {
		pfd[n] = (struct pollfd) { .fd = STDIN_FILENO, .events = POLLIN };
		n++;
	}
	/* after the keyboard, so pfd[nctl] stays the keyboard's */
	pfd[n++] = (struct pollfd) { .fd = signal_pipe[0], .events = POLLIN };
	if (s->have_ch)
		nbuf = channel_pollfds(&s->ch, pfd + n, map, 1024);
	ready = poll(pfd, n + nbuf, got_signal ? 0 : timeout_ms);
	if (ready < 0 && errno != EINTR)
		fatal("poll: %s", strerror(errno));
	drain_signal_pipe();
	if (got_signal) {
		s->quit = true;
		return;
	}
	if (got_status) {
		got_status = 0;
		print_status(s);
	}
	if (keys && (pfd[nctl].revents & (POLLHUP | POLLERR | POLLNVAL))) {
		s->quit = true;		/* no terminal any more */
		return;
	}
	if (keys && (ready < 0 || pfd[nctl].revents)) {
		/* keys, and a resize (SIGWINCH interrupts poll) */
		unsigned int redraw = 0;
		int key;

		while ((key = ui_read_key()) >= 0)
			redraw |= keys_dispatch(s, key);
		/* Something else may have written on the terminal (a console
		 * that is not ours alone): a key repaints all of it. */
		if (redraw && !s->quit) {
			ui_repaint();
			session_render(s);
		}
	}
	if (ready > 0) {
		bool ctl_woke = false, gone = false;
		unsigned int woke[1024], nwoke = 0;

		for (unsigned int i = 0; i < nctl; i++)
			ctl_woke |= pfd[i].revents != 0;
		for (unsigned int i = 0; i < nbuf; i++) {
			short r = pfd[n + i].revents;

			if (r & (POLLERR | POLLHUP | POLLNVAL))
				gone = true;
			else if (r & POLLIN)
				woke[nwoke++] = map[i];
		}
		if (gone) {
			went_away(s, "its buffers were removed");
			remap(s);
		} else if (nwoke) {
			read_buffers(s, woke, nwoke, true);
		}
		if (ctl_woke)
			config_changed(s);
	}
	if (s->end_ns && mono_ns() >= s->end_ns)
		s->quit = true;
	if (!s->quit && mono_ns() >= s->next_tick_ns) {
		session_tick(s);
		s->next_tick_ns += interval_ns(s);
		if (s->next_tick_ns <= mono_ns())	/* fell behind */
			s->next_tick_ns = mono_ns() + interval_ns(s);
	}
}

static int give_back_default(void *cc, uint64_t n)
{
	return channel_give_back(cc, n);
}

void session_start(struct session *s, const struct options *opt,
		   enum output_mode out)
{
	char msg[512];
	int err;

	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->out = out;
	s->interval = opt->interval;
	s->give_back = give_back_default;
	s->start_ns = mono_ns();
	stats_init(&s->st, 0, s->start_ns);
	err = map_channel(s, msg, sizeof(msg));
	if (err)
		fatal("%s", msg);
	if (opt->record) {
		struct record_meta m = meta_of(s);

		s->rec = recorder_create(opt->record, &m);
		if (!s->rec)
			fatal("%s: %s", opt->record, strerror(errno));
		for (unsigned int i = 0; i < s->ch.n; i++) {
			struct channel_cpu *cc = &s->ch.cpus[i];

			recorder_track_cpu(s->rec, cc->cpu, cc->reader.lost,
					   cc->reader.dropped, true);
		}
	}
	s->next_tick_ns = s->start_ns + interval_ns(s);
	if (opt->duration > 0)
		s->end_ns = s->start_ns + (uint64_t)(opt->duration * 1e9);
	if (s->ch.read_only)
		session_status(s, true, "buffers opened read-only: "
			       "sub-buffers cannot be handed back");
}

int session_finish(struct session *s)
{
	int status = 0;

	/* everything committed until now goes into the recording */
	session_drain(s);
	if (s->rec) {
		int err;

		if (s->have_ch && s->has_stats_file) {
			struct control_cpu_stats *cs =
				xcalloc(s->ch.max_cpu + 1, sizeof(*cs));
			int n = control_read_stats(&s->ctl, cs,
						   s->ch.max_cpu + 1);

			for (int k = 0; k < n; k++)
				recorder_note_dropped(s->rec, cs[k].cpu,
						      cs[k].dropped);
			free(cs);
		}
		err = recorder_finish(s->rec);
		if (err) {
			warn("%s: %s", s->rec->path, strerror(-err));
			status = 1;
		}
	}
	return status;
}

void session_free(struct session *s)
{
	unmap_channel(s);
	close_control(s);
	recorder_free(s->rec);
	s->rec = NULL;
	stats_free(&s->st);
	stats_free(&s->frozen_st);
}

int session_run(const struct options *opt)
{
	struct session s;
	enum output_mode out;
	const char *note = NULL;
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	int status;

	if (opt->batch)
		out = OUT_BATCH;
	else if (opt->record && (opt->no_ui || !tty))
		out = OUT_NONE;
	else if (!tty || opt->no_ui)
		out = OUT_BATCH;
	else
		out = OUT_CURSES;

	session_install_signals();
	session_start(&s, opt, out);
	if (out == OUT_CURSES) {
		if (ui_init(&note)) {
			warn("%s: printing text instead", note ? note :
			     "no usable terminal");
			s.out = OUT_BATCH;
		} else if (note) {
			session_status(&s, false, "%s", note);
		}
		session_render(&s);
	}
	if (s.out == OUT_NONE && opt->record)
		fprintf(stderr, "%s: recording to %s%s\n", progname,
			opt->record, opt->duration > 0 ? "" :
			" (Ctrl-C or SIGTERM stops)");

	while (!s.quit) {
		uint64_t now = mono_ns(), until = s.next_tick_ns;
		int timeout;

		if (s.end_ns && s.end_ns < until)
			until = s.end_ns;
		timeout = until > now ? (int)((until - now + 999999) / 1000000) : 0;
		session_step(&s, timeout);
	}

	status = session_finish(&s);
	if (s.exit_status)
		status = s.exit_status;
	/* the producer's event numbers disagreed with its own counts: say
	 * so (relaytop --check FILE tells where, for a recording) */
	for (unsigned int i = 0; s.have_ch && i < s.ch.n; i++) {
		const struct subbuf_reader *r = &s.ch.cpus[i].reader;

		if (r->misplaced || r->unaccounted)
			warn("cpu %u: %" PRIu64 " chunks of records not where "
			     "their event numbers say, %" PRIu64 " events "
			     "missing (or extra) that no count says",
			     s.ch.cpus[i].cpu, r->misplaced, r->unaccounted);
	}
	if (ui_active())
		ui_done();
	if (s.rec)
		batch_print_record_summary(s.out == OUT_BATCH ? stderr : stdout,
					   s.rec);
	if (s.rec_failed)
		status = 1;
	session_free(&s);
	return status;
}

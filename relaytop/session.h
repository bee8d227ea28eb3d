/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - a live session: the channel, its readers, the statistics,
 * an optional recording and what the screen shows, driven by one poll()
 * loop that sleeps on the control attributes, the buffer files and the
 * keyboard with the refresh interval as its timeout.
 */
#ifndef RELAYTOP_SESSION_H
#define RELAYTOP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "channel.h"
#include "control.h"
#include "options.h"
#include "record_writer.h"
#include "stats.h"
#include "view.h"

enum output_mode {
	OUT_CURSES,		/* the live screen */
	OUT_BATCH,		/* text blocks on stdout */
	OUT_NONE,		/* nothing until the end (headless recording) */
};

/* What a key's action says needs doing afterwards. */
enum {
	REDRAW = 1 << 0,	/* draw the screen again */
};

struct sink_ctx;

struct session {
	const struct options *opt;
	enum output_mode out;
	bool replay;		/* showing a recording (replay.c) */

	/* the channel */
	struct control ctl;
	bool have_ctl;
	struct control_state cfg;
	bool have_cfg;
	struct channel ch;
	bool have_ch;
	bool ever_mapped;	/* the channel was mapped once */
	struct sink_ctx *sinks;	/* one per buffer, for subbuf_sink */
	bool has_stats_file;
	/* hands sub-buffers back; channel_give_back() but in tests */
	int (*give_back)(void *cc, uint64_t n);

	/* what is shown */
	struct stats st;
	double interval;	/* seconds */
	enum stats_sort sort;
	bool paused;
	struct view frozen;	/* live and paused: what the screen shows */
	struct stats frozen_st;	/* the statistics frozen.st points to */
	bool show_help;
	bool ended;		/* replay: no more items */
	int prompt;		/* a key waiting for its second key, or 0 */
	char status[256];
	bool status_error;
	uint64_t restart_gen;	/* last generation a reset was reported for */

	/* recording */
	struct recorder *rec;
	bool rec_failed;
	bool output_failed;	/* writing the batch output failed */

	/* time */
	uint64_t start_ns;
	uint64_t next_tick_ns;
	uint64_t end_ns;	/* -t; 0: none */
	unsigned long ticks;
	bool quit;
	int exit_status;
};

/* Set up a live session: open (fatal if it cannot) the channel, create
 * the recording.  Nothing is drawn yet. */
void session_start(struct session *s, const struct options *opt,
		   enum output_mode out);
/* One turn of the loop: poll for at most timeout_ms, handle what woke us,
 * and end the interval when it is due. */
void session_step(struct session *s, int timeout_ms);
/* Read every buffer now (a tick does this too). */
void session_drain(struct session *s);
/* End the interval now: drain, rates, render. */
void session_tick(struct session *s);
/* Final drain, close the recording, print its summary: the exit status. */
int session_finish(struct session *s);
void session_free(struct session *s);

/* The whole live program: start, loop until quit, finish. */
int session_run(const struct options *opt);

/* Set the status line. */
__attribute__((format(printf, 3, 4)))
void session_status(struct session *s, bool error, const char *fmt, ...);
/* Pause or resume the screen; a paused live screen stands still (the
 * statistics it shows are a copy) while reading goes on. */
void session_set_paused(struct session *s, bool paused);
/* Gather what to show. */
void session_view(const struct session *s, struct view *v);
/* Draw the screen or print the batch block. */
void session_render(struct session *s);

/* Set when SIGINT, SIGTERM or SIGHUP arrived. */
bool session_signalled(void);
void session_install_signals(void);

#endif /* RELAYTOP_SESSION_H */

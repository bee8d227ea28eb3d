/* SPDX-License-Identifier: GPL-2.0 */
/*
 * controller.h - what the commands of the keys (keys.h) do: they change
 * the application's state (app.h) and ask the source for changes of the
 * channel (source.h).  It draws nothing: it returns what the caller must
 * do about it (htop's reactions).
 */
#ifndef RELAYTOP_CONTROLLER_H
#define RELAYTOP_CONTROLLER_H

#include "app.h"
#include "keys.h"
#include "source.h"

/* What a command says needs doing afterwards. */
enum {
	REACT_REDRAW = 1 << 0,		/* draw the screen again */
	REACT_PAUSE = 1 << 1,		/* paused or resumed */
	REACT_INTERVAL = 1 << 2,	/* the refresh interval changed */
	REACT_ZERO = 1 << 3,		/* zero relaytop's own counters */
	REACT_SEEK = 1 << 4,		/* move the replay by app.seek_ns */
};

/* Do what key means (the table's command, or the answer to a prompt);
 * ncpus: how many CPUs there are to choose from (c). */
unsigned int controller_key(struct app *a, const struct source *src, int key,
			    unsigned int ncpus);
/* Do cmd. */
unsigned int controller_apply(struct app *a, const struct source *src,
			      enum command cmd, unsigned int ncpus);
/* The refresh interval after '+' (direction > 0) or '-' from cur. */
double controller_next_interval(double cur, int direction);
/* The prompt shown while a second key is awaited, or NULL. */
const char *controller_prompt(const struct app *a);

#endif /* RELAYTOP_CONTROLLER_H */

// SPDX-License-Identifier: GPL-2.0
/* feed.c - a source's output handed to each sink (see feed.h). */
#include "feed.h"

#include <stdarg.h>
#include <stdio.h>

#include "util.h"

void feed_add(struct feed *f, const struct feed_sink *s)
{
	if (f->n == FEED_MAX_SINKS)
		fatal("too many sinks");
	f->sink[f->n++] = *s;
}

void feed_stage(const struct feed *f, const struct subbuf_chunk *chunk)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->sink[i].stage)
			f->sink[i].stage(f->sink[i].ctx, chunk);
}

void feed_settle(const struct feed *f, const struct subbuf_chunk *chunk,
		 bool intact)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->sink[i].settle)
			f->sink[i].settle(f->sink[i].ctx, chunk, intact);
}

void feed_event(const struct feed *f, const struct feed_event *e)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->sink[i].event)
			f->sink[i].event(f->sink[i].ctx, e);
}

void feed_commit(const struct feed *f)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->sink[i].commit)
			f->sink[i].commit(f->sink[i].ctx);
}

void feed_status(const struct feed *f, bool error, bool quiet,
		 const char *fmt, ...)
{
	struct feed_event e = { .kind = FEED_STATUS, .error = error,
				.quiet = quiet };
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	e.text = text;
	feed_event(f, &e);
}

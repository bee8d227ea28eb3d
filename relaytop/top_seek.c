// SPDX-License-Identifier: GPL-2.0
/* top_seek.c - the feed's sinks; a replay moved in time (see top_seek.h). */
#include "top_seek.h"

#include <string.h>

#include "text.h"
#include "util.h"

void top_sinks(struct top *t)
{
	const struct filter *f = &t->app.opt->filter;
	char filt[sizeof(t->filter_text) / 4];
	struct feed_sink s;

	/* the figures, for a screen (t and l may ask for them) or the
	 * batch tables; they count what the filter lets through */
	tally_figures(&t->tally, t->app.out == OUT_CURSES ||
		      t->app.opt->tasks || t->app.opt->latency);
	if (filter_any(f))
		tally_filter(&t->tally, f);
	/* the names as the user gave them, escaped as every text is */
	filter_format(f, filt, sizeof(filt));
	text_escape(t->filter_text, sizeof(t->filter_text), filt,
		    sizeof(filt), text_utf8());

	s = tally_sink(&t->tally);
	feed_add(&t->feed, &s);
	s = app_sink(&t->app);
	feed_add(&t->feed, &s);
}

/* Read the recording up to step_s seconds on, as one interval. */
static uint64_t step(struct top *t, double step_s)
{
	uint64_t now = t->src.ops->tick(t->src.self, step_s);

	tally_tick(&t->tally, now, now);
	return now;
}

/* The replay from the start again: a new source, a new tally. */
static int restart(struct top *t)
{
	struct replay_source rp;
	struct feed feed = { .n = 0 };

	if (replay_source_open(&rp, t->app.opt->replay, &feed)) {
		app_status(&t->app, true, "%s", rp.rs.rd.error);
		replay_source_close(&rp);
		return -1;
	}
	replay_source_close(&t->rp);
	tally_free(&t->tally);
	t->feed = feed;
	t->rp = rp;
	t->rp.feed = &t->feed;
	tally_init(&t->tally, replay_source_ncpus(&t->rp),
		   replay_source_start_ns(&t->rp), t->app.out != OUT_NONE);
	top_sinks(t);
	replay_source_start(&t->rp);
	t->src = replay_source(&t->rp);
	return 0;
}

int top_seek(struct top *t, int64_t delta_ns)
{
	double iv = t->app.interval;
	uint64_t now = t->tally.st.tick_ns, start = t->tally.st.start_ns;
	uint64_t target = delta_ns >= 0 ? now + (uint64_t)delta_ns :
			  (uint64_t)-delta_ns > now - start ? start :
			  now - (uint64_t)-delta_ns;
	char at[32];

	if (!t->recorded)
		return -1;
	if (target < now) {
		if (restart(t))
			return -1;
		now = t->tally.st.start_ns;
	}
	/* up to an interval before the target at once, then the interval
	 * that is shown */
	if (target > now + (uint64_t)(iv * 1e9))
		now = step(t, (double)(target - now) / 1e9 - iv);
	if (target > now)
		now = step(t, (double)(target - now) / 1e9);
	fmt_elapsed(at, sizeof(at), (double)(now - t->tally.st.start_ns) /
		    1e9);
	app_status(&t->app, false, "at %s of the recording", at);
	return 0;
}

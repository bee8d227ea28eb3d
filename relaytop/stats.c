// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - rates, drops and history per CPU (see stats.h).
 *
 * Rates are counts divided by the interval's real length (CLOCK_MONOTONIC
 * between two ticks), not by the nominal refresh interval, so a late tick
 * does not inflate them.  Drops are the producer's own count, which only
 * grows between resets; a smaller value means a reset nobody told us of
 * and starts the count over.
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

void stats_init(struct stats *st, unsigned int ncpus, uint64_t now_ns)
{
	memset(st, 0, sizeof(*st));
	st->ncpus = ncpus;
	st->cpu = xcalloc(ncpus ? ncpus : 1, sizeof(*st->cpu));
	st->start_ns = st->tick_ns = now_ns;
}

void stats_free(struct stats *st)
{
	free(st->cpu);
	st->cpu = NULL;
	st->ncpus = 0;
}

void stats_copy(struct stats *dst, const struct stats *src)
{
	struct cpu_stats *cpu = dst->cpu;

	cpu = xrealloc(cpu, (src->ncpus ? src->ncpus : 1) * sizeof(*cpu));
	*dst = *src;
	dst->cpu = cpu;
	memcpy(cpu, src->cpu, src->ncpus * sizeof(*cpu));
}

/* CPU's stats, the array grown (zeroed) to it: ncpus counts CPUs seen. */
static struct cpu_stats *cpu_of(struct stats *st, unsigned int cpu)
{
	if (cpu >= st->ncpus) {
		unsigned int room = st->ncpus;

		st->cpu = xgrow(st->cpu, &room, cpu, sizeof(*st->cpu));
		st->ncpus = cpu + 1;
	}
	return &st->cpu[cpu];
}

void stats_cpu_present(struct stats *st, unsigned int cpu, bool present)
{
	cpu_of(st, cpu)->present = present;
}

void stats_add(struct stats *st, unsigned int cpu, uint64_t nrec,
	       const uint32_t mix[SCHED_RELAY_NR_EVENTS], uint64_t other)
{
	struct cpu_stats *c = cpu_of(st, cpu);

	c->events += nrec;
	c->bytes += nrec * sizeof(struct sched_relay_record);
	c->iv_events += nrec;
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
		c->iv_mix[t] += mix[t];
	c->iv_other += other;
}

void stats_add_lost(struct stats *st, unsigned int cpu, uint64_t n)
{
	struct cpu_stats *c = cpu_of(st, cpu);

	c->lost += n;
	c->iv_lost += n;
}

void stats_set_dropped(struct stats *st, unsigned int cpu, uint64_t dropped)
{
	struct cpu_stats *c = cpu_of(st, cpu);

	if (dropped < c->dropped)	/* reset: counting starts over */
		c->iv_dropped_base = 0;
	if (dropped < c->zero_dropped)
		c->zero_dropped = 0;
	c->dropped = dropped;
}

void stats_note_fill(struct stats *st, unsigned int cpu, double fill)
{
	struct cpu_stats *c = cpu_of(st, cpu);

	if (fill > 1)
		fill = 1;
	if (fill > c->iv_fill)
		c->iv_fill = fill;
}

static void push_history(struct cpu_stats *c, double v)
{
	if (c->history_len == STATS_HISTORY) {
		memmove(c->history, c->history + 1,
			(STATS_HISTORY - 1) * sizeof(c->history[0]));
		c->history_len--;
	}
	c->history[c->history_len++] = v;
}

void stats_tick(struct stats *st, uint64_t now_ns)
{
	double secs = (double)(now_ns - st->tick_ns) / 1e9;
	struct cpu_stats *t = &st->total;

	if (now_ns <= st->tick_ns)
		secs = 0;
	/* the sums start afresh; the total's history carries on */
	t->present = true;
	t->events = t->bytes = t->dropped = t->lost = 0;
	t->shown_dropped = t->shown_lost = 0;
	t->events_rate = t->bytes_rate = t->dropped_rate = t->lost_rate = 0;
	t->fill = 0;
	memset(t->mix, 0, sizeof(t->mix));
	t->mix_other = 0;
	for (unsigned int i = 0; i < st->ncpus; i++) {
		struct cpu_stats *c = &st->cpu[i];
		uint64_t dropped = c->dropped - c->iv_dropped_base;

		c->events_rate = secs > 0 ? (double)c->iv_events / secs : 0;
		c->bytes_rate = c->events_rate * sizeof(struct sched_relay_record);
		c->dropped_rate = secs > 0 ? (double)dropped / secs : 0;
		c->lost_rate = secs > 0 ? (double)c->iv_lost / secs : 0;
		c->fill = c->iv_fill;
		memcpy(c->mix, c->iv_mix, sizeof(c->mix));
		c->mix_other = c->iv_other;
		if (c->present)
			push_history(c, c->events_rate);

		c->iv_events = c->iv_lost = c->iv_other = 0;
		memset(c->iv_mix, 0, sizeof(c->iv_mix));
		c->iv_dropped_base = c->dropped;
		c->iv_fill = 0;
		c->shown_dropped = c->dropped > c->zero_dropped ?
				   c->dropped - c->zero_dropped : 0;
		c->shown_lost = c->lost > c->zero_lost ?
				c->lost - c->zero_lost : 0;

		if (!c->present)
			continue;
		t->events += c->events;
		t->bytes += c->bytes;
		t->dropped += c->dropped;
		t->lost += c->lost;
		t->shown_dropped += c->shown_dropped;
		t->shown_lost += c->shown_lost;
		t->events_rate += c->events_rate;
		t->bytes_rate += c->bytes_rate;
		t->dropped_rate += c->dropped_rate;
		t->lost_rate += c->lost_rate;
		if (c->fill > t->fill)
			t->fill = c->fill;
		for (int k = 0; k < SCHED_RELAY_NR_EVENTS; k++)
			t->mix[k] += c->mix[k];
		t->mix_other += c->mix_other;
	}
	push_history(t, t->events_rate);
	st->interval = secs;
	st->tick_ns = now_ns;
	st->intervals++;
}

void stats_clear_cpu(struct stats *st, unsigned int cpu)
{
	struct cpu_stats *c = cpu_of(st, cpu);
	bool present = c->present;

	memset(c, 0, sizeof(*c));
	c->present = present;
}

void stats_zero(struct stats *st)
{
	for (unsigned int i = 0; i < st->ncpus; i++) {
		struct cpu_stats *c = &st->cpu[i];

		c->zero_dropped = c->dropped;
		c->zero_lost = c->lost;
		c->shown_dropped = c->shown_lost = 0;
	}
	st->total.shown_dropped = st->total.shown_lost = 0;
}

static double sort_value(const struct stats *st, enum stats_sort key,
			 unsigned int cpu)
{
	const struct cpu_stats *c = &st->cpu[cpu];

	switch (key) {
	case SORT_EVENTS:
		return c->events_rate;
	case SORT_DROPS:
		return (double)(c->shown_dropped + c->shown_lost);
	case SORT_FILL:
		return c->fill;
	default:
		return 0;
	}
}

/* Should CPU x come before CPU y?  Largest value first, then by number. */
static bool before(const struct stats *st, enum stats_sort key,
		   unsigned int x, unsigned int y)
{
	double vx = sort_value(st, key, x), vy = sort_value(st, key, y);

	return vx != vy ? vx > vy : x < y;
}

unsigned int stats_order(const struct stats *st, enum stats_sort key,
			 unsigned int *out)
{
	unsigned int n = 0;

	/* insertion sort: a screenful of CPUs, and it needs no globals */
	for (unsigned int i = 0; i < st->ncpus; i++) {
		unsigned int k;

		if (!st->cpu[i].present)
			continue;
		for (k = n; k > 0 && before(st, key, i, out[k - 1]); k--)
			out[k] = out[k - 1];
		out[k] = i;
		n++;
	}
	return n;
}

const char *stats_sort_name(enum stats_sort key)
{
	static const char *const names[SORT_NR] = {
		[SORT_CPU] = "cpu", [SORT_EVENTS] = "events/s",
		[SORT_DROPS] = "drops", [SORT_FILL] = "fill",
	};

	return key < SORT_NR ? names[key] : "?";
}

int stats_sort_parse(const char *name)
{
	for (int k = 0; k < SORT_NR; k++)
		if (!strcasecmp(name, stats_sort_name((enum stats_sort)k)))
			return k;
	return strcasecmp(name, "events") ? -1 : SORT_EVENTS;
}

unsigned int stats_sparkline(const struct cpu_stats *cs, double scale,
			     unsigned int width, unsigned int levels,
			     unsigned char *out)
{
	unsigned int have = cs->history_len < width ? cs->history_len : width;
	unsigned int pad = width - have;

	for (unsigned int i = 0; i < width; i++) {
		double v, frac;
		unsigned int level;

		if (i < pad) {
			out[i] = 0;
			continue;
		}
		v = cs->history[cs->history_len - have + (i - pad)];
		frac = scale > 0 ? v / scale : 0;
		if (frac > 1)
			frac = 1;
		/* anything above zero shows at least the lowest bar */
		level = (unsigned int)(frac * (levels - 1) + 0.5);
		if (v > 0 && level == 0 && levels > 1)
			level = 1;
		out[i] = (unsigned char)level;
	}
	return have;
}

double stats_cpu_history_max(const struct cpu_stats *c, unsigned int width)
{
	unsigned int have = c->history_len < width ? c->history_len : width;
	double max = 0;

	for (unsigned int k = c->history_len - have; k < c->history_len; k++)
		if (c->history[k] > max)
			max = c->history[k];
	return max;
}

double stats_history_max(const struct stats *st, unsigned int width)
{
	double max = 0;

	for (unsigned int i = 0; i < st->ncpus; i++) {
		double m;

		if (!st->cpu[i].present)
			continue;
		m = stats_cpu_history_max(&st->cpu[i], width);
		if (m > max)
			max = m;
	}
	return max;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - the identity check of a recording (see check.h).
 *
 * Per CPU, the check keeps the number the next record must have: after a
 * record n it is n + 1 plus the events counted missing since (the stream's
 * DROPPED and LOST items come right before the record that follows the
 * gap).  The records carry the low 32 bits of their number; the full one
 * is what the expected number says, give or take less than 2^31.  Then:
 *
 * - the expected number: fine;
 * - later than expected: events are missing that the file does not count,
 *   or counted events are not missing (earlier, but after the last
 *   record): "unaccounted", by how many; the check goes on from it;
 * - not after the last record: "duplicated" when that number was
 *   delivered before (the check keeps the delivered numbers as ranges),
 *   else "out of place" (a number the stream had passed over).
 *
 * Where the numbering starts: at a RESTART (a reset) the CPU's events are
 * numbered from 0 again, and the file counts everything missing since
 * then, so the first record must be the number counted.  At the start of
 * the file and after the channel went away (GONE: new buffers, and events
 * before the first one read are not counted) the first record sets it.
 */
#include "check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_NOTES 10

struct range {
	uint64_t from, to;	/* numbers [from, to) were delivered */
};

struct check_cpu {
	bool anchored;		/* expected is a real number */
	uint64_t expected;	/* the next record's number, gaps aside */
	uint64_t pending;	/* events counted missing since the last record */
	bool have_ts;
	uint64_t last_ts;
	uint64_t generation;
	struct range *ranges;	/* delivered, in order */
	size_t nranges, cap;
};

void check_init(struct check *c, FILE *notes)
{
	memset(c, 0, sizeof(*c));
	c->notes = notes;
}

void check_free(struct check *c)
{
	for (unsigned int i = 0; i < c->ncpus; i++)
		free(c->cpu[i].ranges);
	free(c->cpu);
	memset(c, 0, sizeof(*c));
}

static struct check_cpu *cpu_of(struct check *c, unsigned int cpu)
{
	c->cpu = xgrow(c->cpu, &c->ncpus, cpu, sizeof(*c->cpu));
	return &c->cpu[cpu];
}

__attribute__((format(printf, 2, 3)))
static void note(struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->notes || c->nnotes++ >= MAX_NOTES)
		return;
	fprintf(c->notes, "check: ");
	va_start(ap, fmt);
	vfprintf(c->notes, fmt, ap);
	va_end(ap);
	fputc('\n', c->notes);
}

/* A new numbering: anchored at 0 (a reset) or not yet (unknown). */
static void start_over(struct check_cpu *k, bool at_zero, uint64_t gen)
{
	k->anchored = at_zero;
	k->expected = 0;
	k->pending = 0;
	k->have_ts = false;
	k->nranges = 0;
	k->generation = gen;
}

static void delivered(struct check_cpu *k, uint64_t n)
{
	if (k->nranges && k->ranges[k->nranges - 1].to == n) {
		k->ranges[k->nranges - 1].to = n + 1;
		return;
	}
	if (k->nranges == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		k->ranges = xrealloc(k->ranges, k->cap * sizeof(*k->ranges));
	}
	k->ranges[k->nranges++] = (struct range) { n, n + 1 };
}

static bool was_delivered(const struct check_cpu *k, uint64_t n)
{
	size_t lo = 0, hi = k->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n < k->ranges[mid].from)
			hi = mid;
		else if (n >= k->ranges[mid].to)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static void check_record(struct check *c, unsigned int cpu,
			 const struct sched_relay_record *r)
{
	struct check_cpu *k = cpu_of(c, cpu);
	uint64_t want, n;
	int32_t d;

	c->res.records++;
	if (k->have_ts && r->ts < k->last_ts) {
		c->res.time_back++;
		note(c, "cpu %u generation %" PRIu64 ": event %" PRIu32
		     " at %" PRIu64 " ns, before the one before (%" PRIu64
		     " ns)", cpu, k->generation, r->event_seq, (uint64_t)r->ts,
		     k->last_ts);
	}
	if (!k->have_ts || r->ts > k->last_ts)
		k->last_ts = r->ts;
	k->have_ts = true;
	if (!k->anchored) {
		k->anchored = true;
		k->expected = r->event_seq;
		k->pending = 0;
	}
	want = k->expected + k->pending;
	d = (int32_t)(r->event_seq - (uint32_t)want);
	n = want + (uint64_t)(int64_t)d;
	if (d < 0 && n < k->expected) {
		/* at or before a number passed: the gap stays pending */
		if (was_delivered(k, n)) {
			c->res.duplicated++;
			note(c, "cpu %u generation %" PRIu64 ": event %" PRIu64
			     " again", cpu, k->generation, n);
		} else {
			c->res.out_of_place++;
			note(c, "cpu %u generation %" PRIu64 ": event %" PRIu64
			     " after event %" PRIu64, cpu, k->generation, n,
			     k->expected - 1);
		}
		return;
	}
	if (d) {
		uint64_t off = d > 0 ? (uint64_t)d : (uint64_t)-(int64_t)d;

		c->res.unaccounted += off;
		note(c, "cpu %u generation %" PRIu64 ": event %" PRIu64
		     " where %" PRIu64 " was due (%" PRIu64 " counted missing "
		     "before it): %" PRIu64 " events %s", cpu, k->generation, n,
		     want, k->pending, off, d > 0 ? "missing uncounted" :
		     "counted but not missing");
	}
	delivered(k, n);
	k->expected = n + 1;
	k->pending = 0;
}

void check_item(struct check *c, const struct record_item *it)
{
	switch (it->kind) {
	case ITEM_RECORD:
		check_record(c, it->cpu, it->rec);
		break;
	case ITEM_DROPPED:
	case ITEM_LOST:
		cpu_of(c, it->cpu)->pending += it->count;
		break;
	case ITEM_RESTART:
		start_over(cpu_of(c, it->cpu), true, it->generation);
		break;
	case ITEM_GONE:
		if (it->cpu != RECORD_NO_CPU) {
			start_over(cpu_of(c, it->cpu), false, 0);
			break;
		}
		for (unsigned int i = 0; i < c->ncpus; i++)
			start_over(&c->cpu[i], false, 0);
		break;
	case ITEM_CONFIG:
		break;
	}
}

int check_recording(const char *path, FILE *out)
{
	struct record_stream s;
	struct record_item it;
	struct check c;
	int n = 0, status;

	/* trouble (2, as cmp and diff): not a recording to check */
	if (record_stream_open(&s, path)) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		record_stream_close(&s);
		return 2;
	}
	if (!s.rd.identity) {
		fprintf(stderr, "%s: %s: a recording of format %" PRIu32
			" (sched_relay records version %u): its records carry "
			"no event numbers, so there is no identity to check\n",
			progname, path, s.rd.hdr.version,
			(unsigned int)s.rd.hdr.record_version);
		record_stream_close(&s);
		return 2;
	}
	check_init(&c, out);
	for (unsigned int cpu = 0; cpu < s.rd.ncpus; cpu++)
		cpu_of(&c, cpu)->generation = s.rd.hdr.generation;
	while ((n = record_stream_next(&s, &it)) > 0)
		check_item(&c, &it);
	fprintf(out, "check: %" PRIu64 " records, %" PRIu64 " duplicated, %"
		PRIu64 " out of place, %" PRIu64 " unaccounted, %" PRIu64
		" time going back\n", c.res.records, c.res.duplicated,
		c.res.out_of_place, c.res.unaccounted, c.res.time_back);
	status = check_clean(&c.res) ? 0 : 1;
	if (n < 0 || s.rd.error[0]) {
		fprintf(stderr, "%s: %s\n", progname, s.rd.error);
		status = 1;
	}
	if (fflush(out) || ferror(out))
		status = 2;
	check_free(&c);
	record_stream_close(&s);
	return status;
}

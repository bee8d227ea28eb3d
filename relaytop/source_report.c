// SPDX-License-Identifier: GPL-2.0
/* source_report.c - a source's per-CPU counts as text (see source_report.h). */
#include "source_report.h"

#include <inttypes.h>

#include "util.h"

void source_report_status(FILE *out, const struct source *src,
			  const struct stats *st)
{
	struct source_state ss;
	struct source_cpu sc;

	src->ops->state(src->self, &ss);
	fprintf(out, "%s: status generation %" PRIu64 "\n", progname,
		ss.cfg.generation);
	for (unsigned int i = 0; src->ops->cpu && src->ops->cpu(src->self, i, &sc);
	     i++) {
		const struct cpu_stats *c = sc.cpu < st->ncpus ?
					    &st->cpu[sc.cpu] : NULL;

		if (!c)
			continue;
		fprintf(out, "%s: cpu %u generation %" PRIu64 " events %"
			PRIu64 " dropped %" PRIu64 " lost %" PRIu64 "\n",
			progname, sc.cpu, sc.generation, c->events,
			c->dropped, c->lost);
	}
	fprintf(out, "%s: status end\n", progname);
	fflush(out);
}

void source_report_misplaced(const struct source *src)
{
	struct source_cpu sc;

	for (unsigned int i = 0; src->ops->cpu && src->ops->cpu(src->self, i, &sc);
	     i++)
		if (sc.misplaced || sc.unaccounted)
			warn("cpu %u: %" PRIu64 " chunks of records not where "
			     "their event numbers say, %" PRIu64 " events "
			     "missing (or extra) that no count says",
			     sc.cpu, sc.misplaced, sc.unaccounted);
}

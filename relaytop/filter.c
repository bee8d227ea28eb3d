// SPDX-License-Identifier: GPL-2.0
/* filter.c - which tasks and CPUs count (see filter.h). */
#include "filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal number of s at *p, below max: its value, or -1. */
static long number(const char **p, long max)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > max)
		return -1;
	*p = end;
	return v;
}

/* Parse a list of ids for opt into ids[] (*n of them). */
static int parse_ids(int32_t *ids, unsigned int *count, const char *opt,
		     const char *what, const char *s, char *msg, size_t len)
{
	int32_t parsed[FILTER_MAX_PIDS];
	unsigned int n = 0;
	const char *p = s;

	for (;;) {
		long v = number(&p, INT32_MAX);

		if (v < 0 || (*p && *p != ',')) {
			snprintf(msg, len, "%s %s: not a list of %s ids "
				 "(ID[,ID...])", opt, s, what);
			return -1;
		}
		if (n == FILTER_MAX_PIDS) {
			snprintf(msg, len, "%s %s: more than %d %s ids", opt,
				 s, FILTER_MAX_PIDS, what);
			return -1;
		}
		parsed[n++] = (int32_t)v;
		if (!*p++)
			break;
	}
	memcpy(ids, parsed, n * sizeof(*parsed));
	*count = n;
	return 0;
}

int filter_parse_pids(struct filter *f, const char *s, char *msg, size_t len)
{
	return parse_ids(f->pids, &f->npids, "-p", "process", s, msg, len);
}

int filter_parse_tids(struct filter *f, const char *s, char *msg, size_t len)
{
	return parse_ids(f->tids, &f->ntids, "--tid", "thread", s, msg, len);
}

int filter_parse_cpus(struct filter *f, const char *s, char *msg, size_t len)
{
	uint8_t cpus[FILTER_MAX_CPUS / 8] = { 0 };
	const char *p = s;

	for (;;) {
		long lo = number(&p, FILTER_MAX_CPUS - 1), hi = lo;

		if (lo >= 0 && *p == '-') {
			p++;
			hi = number(&p, FILTER_MAX_CPUS - 1);
		}
		if (lo < 0 || hi < lo || (*p && *p != ',')) {
			snprintf(msg, len, "-C %s: not a CPU list (such as "
				 "0-3,8; CPUs below %d)", s, FILTER_MAX_CPUS);
			return -1;
		}
		for (long c = lo; c <= hi; c++)
			cpus[c / 8] |= (uint8_t)(1u << (c % 8));
		if (!*p++)
			break;
	}
	memcpy(f->cpus, cpus, sizeof(cpus));
	f->have_cpus = true;
	return 0;
}

int filter_parse_comms(struct filter *f, const char *s, char *msg,
		       size_t len)
{
	char comms[FILTER_MAX_COMMS][FILTER_COMM_MAX + 1];
	unsigned int n = 0;
	const char *p = s;

	for (;;) {
		size_t l = strcspn(p, ",");

		if (!l || l > FILTER_COMM_MAX) {
			snprintf(msg, len, "--comm: a task name is 1 to %d "
				 "bytes (the kernel keeps no more: "
				 "TASK_COMM_LEN is 16 with its NUL); '%.*s' "
				 "has %zu", FILTER_COMM_MAX,
				 (int)(l > 64 ? 64 : l), p, l);
			return -1;
		}
		if (n == FILTER_MAX_COMMS) {
			snprintf(msg, len, "--comm: more than %d names",
				 FILTER_MAX_COMMS);
			return -1;
		}
		memcpy(comms[n], p, l);
		comms[n++][l] = '\0';
		p += l;
		if (!*p++)
			break;
	}
	memcpy(f->comms, comms, sizeof(comms));
	f->ncomms = n;
	return 0;
}

bool filter_any(const struct filter *f)
{
	return f && (f->npids || f->ntids || f->ncomms || f->have_cpus ||
		     f->tree);
}

static bool has_id(const int32_t *ids, unsigned int n, int32_t id)
{
	for (unsigned int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool filter_task(const struct filter *f, int32_t pid, int32_t tgid,
		 const char *comm)
{
	bool named = false;

	if (!f)
		return true;
	for (unsigned int i = 0; i < f->ncomms && !named; i++)
		named = !strncmp(comm, f->comms[i], sizeof(f->comms[i]));
	if (f->ncomms && !named)
		return false;
	if (!f->npids && !f->ntids && !f->tree)
		return true;
	return has_id(f->pids, f->npids, pid) ||
	       (tgid > 0 && has_id(f->pids, f->npids, tgid)) ||
	       has_id(f->tids, f->ntids, pid) ||
	       (f->tree && (pid_tree_has(f->tree, pid) ||
			    (tgid > 0 && pid_tree_has(f->tree, tgid))));
}

bool filter_cpu(const struct filter *f, unsigned int cpu)
{
	if (!f || !f->have_cpus)
		return true;
	return cpu < FILTER_MAX_CPUS && (f->cpus[cpu / 8] & (1u << (cpu % 8)));
}

int filter_max_cpu(const struct filter *f)
{
	if (!f || !f->have_cpus)
		return -1;
	for (int c = FILTER_MAX_CPUS - 1; c >= 0; c--)
		if (filter_cpu(f, (unsigned int)c))
			return c;
	return -1;
}

/* ", "-separated ids after opt (" opt 1,2"), at buf + *n. */
static void format_ids(char *buf, size_t len, size_t *n, const char *opt,
		       const int32_t *ids, unsigned int count)
{
	for (unsigned int i = 0; i < count && *n < len; i++)
		*n += (size_t)snprintf(buf + *n, len - *n, "%s%s%d",
				       i ? "," : *n ? " " : "",
				       i ? "" : opt, ids[i]);
}

void filter_format(const struct filter *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	format_ids(buf, len, &n, "-p ", f->pids, f->npids);
	format_ids(buf, len, &n, "--tid ", f->tids, f->ntids);
	if (f->tree && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s-F %d",
				      n ? " " : "", f->tree->root);
	for (unsigned int i = 0; i < f->ncomms && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," :
				      n ? " --comm " : "--comm ",
				      f->comms[i]);
	if (f->have_cpus && n < len) {
		bool first = true;

		for (unsigned int c = 0; c < FILTER_MAX_CPUS && n < len; c++) {
			unsigned int e = c;

			if (!filter_cpu(f, c))
				continue;
			while (e + 1 < FILTER_MAX_CPUS && filter_cpu(f, e + 1))
				e++;
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      first ? (n ? " -C " : "-C ") : ",",
					      c);
			if (e > c && n < len)
				n += (size_t)snprintf(buf + n, len - n, "-%u", e);
			first = false;
			c = e;
		}
	}
}

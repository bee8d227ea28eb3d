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

int filter_parse_pids(struct filter *f, const char *s, char *msg, size_t len)
{
	int32_t pids[FILTER_MAX_PIDS];
	unsigned int n = 0;
	const char *p = s;

	for (;;) {
		long v = number(&p, INT32_MAX);

		if (v < 0 || (*p && *p != ',')) {
			snprintf(msg, len, "-p %s: not a list of process ids "
				 "(PID[,PID...])", s);
			return -1;
		}
		if (n == FILTER_MAX_PIDS) {
			snprintf(msg, len, "-p %s: more than %d process ids",
				 s, FILTER_MAX_PIDS);
			return -1;
		}
		pids[n++] = (int32_t)v;
		if (!*p++)
			break;
	}
	memcpy(f->pids, pids, n * sizeof(*pids));
	f->npids = n;
	return 0;
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

int filter_set_comm(struct filter *f, const char *s, char *msg, size_t len)
{
	if (!*s || strlen(s) >= sizeof(f->comm)) {
		snprintf(msg, len, "--comm %s: a task name is 1 to %zu "
			 "characters", s, sizeof(f->comm) - 1);
		return -1;
	}
	snprintf(f->comm, sizeof(f->comm), "%s", s);
	return 0;
}

bool filter_any(const struct filter *f)
{
	return f && (f->npids || f->comm[0] || f->have_cpus);
}

bool filter_task(const struct filter *f, int32_t pid, int32_t tgid,
		 const char *comm)
{
	bool in = false;

	if (!f)
		return true;
	if (f->comm[0] && strncmp(comm, f->comm, sizeof(f->comm)))
		return false;
	for (unsigned int i = 0; i < f->npids && !in; i++)
		in = f->pids[i] == pid || (tgid > 0 && f->pids[i] == tgid);
	return !f->npids || in;
}

bool filter_cpu(const struct filter *f, unsigned int cpu)
{
	if (!f || !f->have_cpus)
		return true;
	return cpu < FILTER_MAX_CPUS && (f->cpus[cpu / 8] & (1u << (cpu % 8)));
}

void filter_format(const struct filter *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	for (unsigned int i = 0; i < f->npids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d",
				      i ? "," : "-p ", f->pids[i]);
	if (f->comm[0] && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s--comm %s",
				      n ? " " : "", f->comm);
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

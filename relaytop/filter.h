/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which tasks and CPUs count, as perf and trace-cmd take them:
 * -p PID[,PID] (a process: every thread whose pid or tgid it is),
 * --comm NAME (the task's name, exactly), -C CPULIST (0-3,8: the records
 * of those CPUs).  An empty part lets everything through.
 */
#ifndef RELAYTOP_FILTER_H
#define RELAYTOP_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FILTER_MAX_PIDS 64
#define FILTER_MAX_CPUS 4096

struct filter {
	int32_t pids[FILTER_MAX_PIDS];
	unsigned int npids;		/* 0: any task */
	char comm[17];			/* "": any name */
	bool have_cpus;			/* false: any CPU */
	uint8_t cpus[FILTER_MAX_CPUS / 8];
};

/* Parse "PID[,PID...]" into f: 0, or -1 with msg saying what is wrong
 * (f unchanged then). */
int filter_parse_pids(struct filter *f, const char *s, char *msg, size_t len);
/* Parse "0-3,8" into f: 0, or -1 with msg (f unchanged then). */
int filter_parse_cpus(struct filter *f, const char *s, char *msg, size_t len);
/* Set the name: 0, or -1 with msg if it is longer than a comm can be. */
int filter_set_comm(struct filter *f, const char *s, char *msg, size_t len);

/* Whether f filters anything at all. */
bool filter_any(const struct filter *f);
/* Whether a task (pid, tgid, comm) counts; f NULL: every one does. */
bool filter_task(const struct filter *f, int32_t pid, int32_t tgid,
		 const char *comm);
/* Whether the records of cpu count; f NULL: every CPU's do. */
bool filter_cpu(const struct filter *f, unsigned int cpu);
/* The filter as the command line would give it ("-p 1,2 -C 0-1"), or "". */
void filter_format(const struct filter *f, char *buf, size_t len);

#endif /* RELAYTOP_FILTER_H */

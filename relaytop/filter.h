/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which tasks and CPUs count, as perf and trace-cmd take them:
 * -p PID[,PID] (a process: every thread whose pid or tgid it is),
 * --tid TID[,TID] (those threads only), --comm NAME[,NAME] (the task's
 * name, exactly: at most 15 bytes, as the kernel keeps it), -C CPULIST
 * (0-3,8: the records of those CPUs), and a workload's process tree
 * (-F -- CMD: pid_tree.h).  A task counts when its name is one of the
 * names (if any are given) and it is one of the processes, threads or
 * the tree's (if any are given).  An empty part lets everything through.
 */
#ifndef RELAYTOP_FILTER_H
#define RELAYTOP_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pid_tree.h"

#define FILTER_MAX_PIDS 64
#define FILTER_MAX_COMMS 16
#define FILTER_COMM_MAX 15	/* bytes of a name: TASK_COMM_LEN - 1 */
#define FILTER_MAX_CPUS 4096

struct filter {
	int32_t pids[FILTER_MAX_PIDS];
	unsigned int npids;		/* 0: any process */
	int32_t tids[FILTER_MAX_PIDS];
	unsigned int ntids;		/* 0: any thread */
	char comms[FILTER_MAX_COMMS][FILTER_COMM_MAX + 1];
	unsigned int ncomms;		/* 0: any name */
	bool have_cpus;			/* false: any CPU */
	uint8_t cpus[FILTER_MAX_CPUS / 8];
	struct pid_tree *tree;		/* a workload's tree, or NULL */
};

/* Parse "PID[,PID...]" into f: 0, or -1 with msg saying what is wrong
 * (f unchanged then). */
int filter_parse_pids(struct filter *f, const char *s, char *msg, size_t len);
/* The same for --tid. */
int filter_parse_tids(struct filter *f, const char *s, char *msg, size_t len);
/* Parse "0-3,8" into f: 0, or -1 with msg (f unchanged then). */
int filter_parse_cpus(struct filter *f, const char *s, char *msg, size_t len);
/* Parse "NAME[,NAME...]": 0, or -1 with msg if a name is empty or longer
 * than a task's name can be (f unchanged then). */
int filter_parse_comms(struct filter *f, const char *s, char *msg,
		       size_t len);

/* Whether f filters anything at all. */
bool filter_any(const struct filter *f);
/* Whether a task (pid, tgid, comm) counts; f NULL: every one does. */
bool filter_task(const struct filter *f, int32_t pid, int32_t tgid,
		 const char *comm);
/* Whether the records of cpu count; f NULL: every CPU's do. */
bool filter_cpu(const struct filter *f, unsigned int cpu);
/* The highest CPU f names, or -1 when it names none. */
int filter_max_cpu(const struct filter *f);
/* The filter as the command line would give it ("-p 1,2 -C 0-1"), or "".
 * The names are given as they are: escape them before printing. */
void filter_format(const struct filter *f, char *buf, size_t len);

#endif /* RELAYTOP_FILTER_H */

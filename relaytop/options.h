/* SPDX-License-Identifier: GPL-2.0 */
/* options.h - what the command line asks for (filled by cli.c). */
#ifndef RELAYTOP_OPTIONS_H
#define RELAYTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"

#define RELAYTOP_DEFAULT_CHANNEL "/sys/kernel/sched_relay"

/* -b --format */
enum output_format {
	FORMAT_TEXT,		/* blocks of columns (the default) */
	FORMAT_CSV,		/* one table, RFC 4180 */
	FORMAT_JSON,		/* a JSON object a block, one a line */
};

struct options {
	const char *channel;	/* -c DIR */
	double interval;	/* -d SECS */
	unsigned long count;	/* -n COUNT intervals, 0: no limit */
	double duration;	/* -t SECS, 0: no limit */
	bool batch;		/* -b */
	bool no_ui;		/* --no-ui */
	bool hide_self;		/* --hide-self */
	const char *record;	/* --record FILE */
	const char *dump;	/* --dump FILE */
	const char *check;	/* --check FILE */
	const char *replay;	/* --replay FILE */
	const char *export_ctf;		/* --export-ctf DIR */
	const char *export_perfetto;	/* --export-perfetto OUT */
	const char *export_tracecmd;	/* --export-tracecmd OUT */
	const char *export_file;	/* the recording to export */
	const char *report;	/* --report FILE */
	bool tasks;		/* --tasks: the tasks view */
	bool latency;		/* --latency: the latency view */
	bool latency_runq;	/* --latency=runq: the run-queue latency */
	bool no_color;		/* --no-color, or NO_COLOR set */
	struct filter filter;	/* -p, --tid, --comm, -C */
	bool have_task_sort;	/* --sort named a tasks column: */
	int task_sort;		/* its enum task_col */
	bool have_cpu_sort;	/* --sort named a CPU table column: */
	int cpu_sort;		/* its enum stats_sort */
	bool read_only;		/* --read-only: r, e and o are refused */
	unsigned int realtime;	/* --realtime PRIO: SCHED_FIFO, 0: no */
	int threads;		/* reader threads per CPU buffer: 0 for
				 * small buffers, 1 --threads (always), -1
				 * --one-thread (never); live and record */
	double speed;		/* --speed: a replay's pace (default 1) */
	enum output_format format;	/* --format */
	bool follow;		/* -F: count only the command's tree */
	char *const *command;	/* after --: the workload, or NULL */
	size_t ncommand;
	bool help;
	bool version;
};

#endif /* RELAYTOP_OPTIONS_H */

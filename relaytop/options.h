/* SPDX-License-Identifier: GPL-2.0 */
/* options.h - what the command line asks for (filled by cli.c). */
#ifndef RELAYTOP_OPTIONS_H
#define RELAYTOP_OPTIONS_H

#include <stdbool.h>

#include "filter.h"

#define RELAYTOP_DEFAULT_CHANNEL "/sys/kernel/sched_relay"

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
	struct filter filter;	/* -p, --comm, -C */
	bool help;
	bool version;
};

#endif /* RELAYTOP_OPTIONS_H */

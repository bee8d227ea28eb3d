// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - relaytop: a live per-CPU viewer, recorder and player of a
 * sched_relay channel (see relaytop.1).  This file only dispatches.
 */
#include <locale.h>
#include <stdio.h>

#include "check.h"
#include "cli.h"
#include "dump.h"
#include "export_ctf.h"
#include "export_perfetto.h"
#include "export_tracecmd.h"
#include "report.h"
#include "task_table.h"
#include "top.h"
#include "util.h"

int main(int argc, char *argv[])
{
	struct options opt;
	char err[256];

	/* the terminal's character set: text keeps UTF-8 names only where
	 * it takes UTF-8 (text.h) */
	setlocale(LC_CTYPE, "");
	if (cli_parse(argc, argv, &opt, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\nTry '%s --help'.\n", progname, err,
			progname);
		return 2;
	}
	if (opt.help) {
		cli_usage(stdout);
		return 0;
	}
	if (opt.version) {
		cli_version(stdout);
		return 0;
	}
	if (opt.dump)
		return dump_recording(opt.dump, stdout);
	if (opt.check)
		return check_recording(opt.check, stdout);
	if (opt.export_ctf)
		return export_ctf(opt.export_file, opt.export_ctf);
	if (opt.report)
		return report_recording_by(opt.report, &opt.filter,
					   opt.have_task_sort ? opt.task_sort :
					   TCOL_RQ_MAX, stdout);
	if (opt.export_perfetto)
		return export_perfetto(opt.export_file, opt.export_perfetto);
	if (opt.export_tracecmd)
		return export_tracecmd(opt.export_file, opt.export_tracecmd);
	return top_run(&opt);	/* live, recording or replay */
}

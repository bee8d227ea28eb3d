// SPDX-License-Identifier: GPL-2.0
/* cli.c - the command line (see cli.h and relaytop.1). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "record_format.h"
#include "sched_relay.h"
#include "util.h"

static const char *const usage[] = {
	"Usage: relaytop [OPTION]...",
	"       relaytop --record FILE [OPTION]...",
	"       relaytop --dump FILE",
	"       relaytop --check FILE",
	"       relaytop --replay FILE [OPTION]...",
	"       relaytop --export-ctf DIR FILE",
	"       relaytop --export-perfetto OUT FILE",
	"       relaytop --export-tracecmd OUT FILE",
	"       relaytop --report FILE [-p PID,...] [--comm NAME] [-C CPUS]",
	"Show the per-CPU event and drop rates of a sched_relay channel live,",
	"record its events to a file, or print and replay a recording.",
	"",
	"  -c, --channel DIR     the channel's sysfs directory",
	"                        (default " RELAYTOP_DEFAULT_CHANNEL ")",
	"  -d, --delay SECS      refresh interval, fractions allowed (default 1)",
	"  -n, --iterations N    stop after N intervals",
	"  -t, --time SECS       stop after SECS seconds",
	"  -b, --batch           no screen: print a block of per-CPU lines",
	"                        every interval (for scripts)",
	"      --record FILE     record every CPU's events into FILE; with a",
	"                        terminal the screen stays live, else (or with",
	"                        --no-ui) it records quietly; q, Ctrl-C, SIGTERM",
	"                        or -t stop it, and it prints a per-CPU summary",
	"      --no-ui           no screen while recording",
	"      --hide-self       leave relaytop's own switches and wake-ups out",
	"                        of the figures (not of a recording; key i)",
	"      --dump FILE       print a recording, one event a line",
	"      --check FILE      check a recording's event numbers: per CPU, none",
	"                        twice, none out of place, every gap counted,",
	"                        time never going back; exit 1 on any problem",
	"      --replay FILE     show a recording on the live screen",
	"      --export-ctf DIR FILE   convert a recording to a CTF 1.8 trace in DIR",
	"                        (babeltrace2, Trace Compass); see docs/export.md",
	"      --export-perfetto OUT FILE  convert a recording to Chrome trace-event",
	"                        JSON (Perfetto UI, chrome://tracing); OUT - is stdout",
	"      --export-tracecmd OUT FILE  convert a recording to a trace.dat",
	"                        (trace-cmd report, KernelShark)",
	"      --report FILE     per task and per CPU: switches, wakeups,",
	"                        migrations, the wakeup latency and the",
	"                        run-queue latency (p50 p90 p99 max, missed),",
	"                        log2 histograms",
	"      --tasks           show the tasks view (key t); with -b, a tasks",
	"                        block after each per-CPU block",
	"      --latency[=KIND]  show the latency view (key l) of KIND: wakeup",
	"                        (the default: wakeup to switch-in) or runq",
	"                        (run-queue latency: wakeup or preemption to",
	"                        switch-in, as runqlat; key L); with -b, both",
	"                        latency blocks after each per-CPU block",
	"  -p, --pid PID[,PID]   count only these processes (their threads)",
	"      --comm NAME       count only tasks of this name",
	"  -C, --cpu CPULIST     count only these CPUs' records (0-3,8)",
	"      --no-color        no colours (also when NO_COLOR is set)",
	"  -h, --help            show this help and exit",
	"  -V, --version         show the version and exit",
	"",
	"Keys: q or F10 quit, h, ? or F1 help, p or space pause, t tasks, l",
	"latency, s or F6 sort, I reverse, g group by process, c CPU, 1",
	"summary, z zero relaytop's counters, + and - refresh interval; r reset",
	"the channel, e toggle an event type, o toggle overwrite mode (each asks",
	"y/n first).  See relaytop(1).",
};

void cli_usage(FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(usage); i++)
		fprintf(out, "%s\n", usage[i]);
}

void cli_version(FILE *out)
{
	/* three numbers of their own (docs/record-format.md, Versions) */
	fprintf(out, "relaytop %s (writes recording format %d, reads 1 to %d; "
		"sched_relay records version %d, reads 1 and %d)\n",
		RELAYTOP_VERSION, RECORD_VERSION, RECORD_VERSION,
		SCHED_RELAY_VERSION, SCHED_RELAY_VERSION);
}

enum {
	OPT_RECORD = 256, OPT_DUMP, OPT_REPLAY, OPT_NO_UI, OPT_EXPORT_CTF,
	OPT_EXPORT_PERFETTO, OPT_CHECK, OPT_REPORT, OPT_TASKS, OPT_LATENCY,
	OPT_COMM, OPT_NO_COLOR, OPT_HIDE_SELF, OPT_EXPORT_TRACECMD,
};

static const struct option long_options[] = {
	{ "channel", required_argument, NULL, 'c' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "time", required_argument, NULL, 't' },
	{ "batch", no_argument, NULL, 'b' },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "no-ui", no_argument, NULL, OPT_NO_UI },
	{ "hide-self", no_argument, NULL, OPT_HIDE_SELF },
	{ "dump", required_argument, NULL, OPT_DUMP },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "export-ctf", required_argument, NULL, OPT_EXPORT_CTF },
	{ "export-perfetto", required_argument, NULL, OPT_EXPORT_PERFETTO },
	{ "export-tracecmd", required_argument, NULL, OPT_EXPORT_TRACECMD },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "tasks", no_argument, NULL, OPT_TASKS },
	{ "latency", optional_argument, NULL, OPT_LATENCY },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "cpu", required_argument, NULL, 'C' },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int seconds(const char *opt, const char *arg, double min, double max,
		   double *out, char *err, size_t errlen)
{
	int e = parse_seconds(arg, out);

	if (!e && (*out < min || *out > max))
		e = -ERANGE;
	if (e == -EINVAL)
		snprintf(err, errlen, "%s: '%s' is not a number of seconds",
			 opt, arg);
	else if (e)
		snprintf(err, errlen, "%s: '%s' is out of range (%g to %g "
			 "seconds)", opt, arg, min, max);
	return e ? -1 : 0;
}

static bool exporting(const struct options *o)
{
	return o->export_ctf || o->export_perfetto || o->export_tracecmd;
}

int cli_parse(int argc, char *const argv[], struct options *o, char *err,
	      size_t errlen)
{
	int c, modes = 0;
	uint64_t n;

	memset(o, 0, sizeof(*o));
	o->channel = RELAYTOP_DEFAULT_CHANNEL;
	/* https://no-color.org: set and not empty */
	o->no_color = getenv("NO_COLOR") && getenv("NO_COLOR")[0];
	o->interval = 1.0;
	err[0] = '\0';
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":c:d:n:t:bp:C:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			o->channel = optarg;
			break;
		case 'd':
			if (seconds("-d", optarg, 0.01, 3600, &o->interval,
				    err, errlen))
				return -1;
			break;
		case 't':
			if (seconds("-t", optarg, 0.001, 1e7, &o->duration,
				    err, errlen))
				return -1;
			break;
		case 'n':
			if (parse_u64(optarg, &n) || n == 0 || n > ULONG_MAX) {
				snprintf(err, errlen, "-n: '%s' is not a "
					 "positive whole number", optarg);
				return -1;
			}
			o->count = (unsigned long)n;
			break;
		case 'b':
			o->batch = true;
			break;
		case OPT_RECORD:
			o->record = optarg;
			modes++;
			break;
		case OPT_NO_UI:
			o->no_ui = true;
			break;
		case OPT_HIDE_SELF:
			o->hide_self = true;
			break;
		case OPT_DUMP:
			o->dump = optarg;
			modes++;
			break;
		case OPT_CHECK:
			o->check = optarg;
			modes++;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			modes++;
			break;
		case OPT_EXPORT_CTF:
			o->export_ctf = optarg;
			modes++;
			break;
		case OPT_EXPORT_PERFETTO:
			o->export_perfetto = optarg;
			modes++;
			break;
		case OPT_EXPORT_TRACECMD:
			o->export_tracecmd = optarg;
			modes++;
			break;
		case OPT_REPORT:
			o->report = optarg;
			modes++;
			break;
		case OPT_TASKS:
			o->tasks = true;
			break;
		case OPT_LATENCY:
			o->latency = true;
			if (optarg && strcmp(optarg, "wakeup") &&
			    strcmp(optarg, "runq")) {
				snprintf(err, errlen, "--latency=%s: say "
					 "wakeup or runq", optarg);
				return -1;
			}
			o->latency_runq = optarg && !strcmp(optarg, "runq");
			break;
		case 'p':
			if (filter_parse_pids(&o->filter, optarg, err, errlen))
				return -1;
			break;
		case OPT_COMM:
			if (filter_set_comm(&o->filter, optarg, err, errlen))
				return -1;
			break;
		case 'C':
			if (filter_parse_cpus(&o->filter, optarg, err, errlen))
				return -1;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "%s needs an argument",
				 argv[optind - 1]);
			return -1;
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option -%c",
					 optopt);
			else
				snprintf(err, errlen, "unknown option %s",
					 argv[optind - 1]);
			return -1;
		}
	}
	if (modes > 1) {
		snprintf(err, errlen, "--record, --dump, --check, --replay, "
			 "--report and --export-* exclude each other");
		return -1;
	}
	/* nothing else would apply them: refuse rather than ignore */
	if (filter_any(&o->filter) &&
	    (o->dump || o->check || exporting(o))) {
		snprintf(err, errlen, "-p, --comm and -C apply to the screen, "
			 "-b and --report, not to --dump, --check or --export-*");
		return -1;
	}
	/* an export takes the recording as its one argument */
	if (exporting(o) && optind < argc)
		o->export_file = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (exporting(o) && !o->export_file) {
		snprintf(err, errlen, "%s needs the recording to export",
			 o->export_ctf ? "--export-ctf DIR" :
			 o->export_perfetto ? "--export-perfetto OUT" :
			 "--export-tracecmd OUT");
		return -1;
	}
	if (o->record && !o->record[0]) {
		snprintf(err, errlen, "--record needs a file name");
		return -1;
	}
	return 0;
}

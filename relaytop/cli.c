// SPDX-License-Identifier: GPL-2.0
/* cli.c - the command line (see cli.h and relaytop.1). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "realtime.h"
#include "record_format.h"
#include "sched_relay.h"
#include "stats.h"
#include "task_table.h"
#include "util.h"

static const char *const usage[] = {
	"Usage: relaytop [OPTION]...",
	"       relaytop --record FILE [OPTION]... [-- COMMAND [ARG]...]",
	"       relaytop -b [OPTION]... [-- COMMAND [ARG]...]",
	"       relaytop --replay FILE [OPTION]...",
	"       relaytop --report FILE [-p PID,...] [--tid TID,...] [--comm NAME,...]",
	"                [-C CPUS] [--sort COL]",
	"       relaytop --dump FILE | --check FILE",
	"       relaytop --export-ctf DIR FILE | --export-perfetto OUT FILE",
	"       relaytop --export-tracecmd OUT FILE",
	"Show the per-CPU event and drop rates of a sched_relay channel live,",
	"record its events to a file (for the life of COMMAND, if given), or",
	"print, check, report on and replay a recording.",
	"",
	"  -c, --channel DIR     the channel's sysfs directory",
	"                        (default " RELAYTOP_DEFAULT_CHANNEL ")",
	"  -d, --delay SECS      refresh interval, fractions allowed (default 1)",
	"  -n, --iterations N    stop after N intervals",
	"  -t, --time SECS       stop after SECS seconds",
	"  -b, --batch           no screen: print a block of per-CPU lines",
	"                        every interval (for scripts)",
	"      --format FMT      -b's blocks as text (the default), csv (one",
	"                        table) or json (an object a line)",
	"      --record FILE     record every CPU's events into FILE (an",
	"                        existing FILE is kept as FILE.old); with a",
	"                        terminal the screen stays live, else (or with",
	"                        --no-ui) it records quietly; q, Ctrl-C, SIGTERM",
	"                        or -t stop it, and it prints a per-CPU summary",
	"  -- COMMAND [ARG]...   run COMMAND, record (or print -b blocks) until",
	"                        it ends, exit with its status",
	"  -F, --follow          with -b, count only COMMAND and the tasks it",
	"                        forks (as the records name them)",
	"      --no-ui           no screen while recording",
	"      --hide-self       leave relaytop's own switches and wake-ups out",
	"                        of the figures (not of a recording; key i)",
	"      --read-only       never change the channel: r, e and o refuse",
	"      --realtime PRIO   run at SCHED_FIFO priority PRIO (1-99), as",
	"                        perf record -r: no waiting for a turn on a",
	"                        busy CPU; COMMAND runs at normal priority",
	"      --threads         a reader thread per CPU buffer, which hands",
	"                        sub-buffers back at once (the default for",
	"                        buffers of 64 KiB a CPU or less)",
	"      --one-thread      one reader for every CPU's buffer, whatever",
	"                        their size",
	"      --dump FILE       print a recording, one event a line",
	"      --check FILE      check a recording's event numbers: per CPU, none",
	"                        twice, none out of place, every gap counted,",
	"                        time never going back; exit 1 on any problem,",
	"                        2 when it cannot check (as cmp)",
	"      --replay FILE     show a recording on the live screen",
	"      --speed X         replay X times as fast as recorded (default 1)",
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
	"  -s, --sort COL        sort by COL: a tasks column (pid comm sw wake",
	"                        mig inv cpu last wakavg wakmax rqavg rqmax)",
	"                        or the CPUs' (cpu events drops fill)",
	"  -p, --pid PID[,PID]   count only these processes (their threads)",
	"      --tid TID[,TID]   count only these threads",
	"      --comm NAME[,NAME]  count only tasks of these names (15 bytes)",
	"  -C, --cpu CPULIST     count only these CPUs' records (0-3,8)",
	"      --no-color        no colours (also when NO_COLOR is set)",
	"  -h, --help            show this help and exit",
	"  -V, --version         show the version and exit",
	"",
	"Keys: q or F10 quit, h, ? or F1 help, p or space pause, t tasks, l",
	"latency, L wakeup or run-queue latency, / or F3 search, \\ or F4",
	"filter the tasks, s or F6 sort, I reverse, g group by process, c CPU,",
	"1 summary, z zero relaytop's counters, + and - refresh interval, Left",
	"and Right seek a replay; r reset the channel, e toggle an event type,",
	"o toggle overwrite mode (each asks y/n first).  See relaytop(1).",
	"Exit status: 0 ok, 1 an error (or a damaged recording), 2 a bad",
	"command line (or --check could not check); with a COMMAND, its own.",
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
	OPT_COMM, OPT_NO_COLOR, OPT_HIDE_SELF, OPT_EXPORT_TRACECMD, OPT_TID,
	OPT_READ_ONLY, OPT_SPEED, OPT_FORMAT, OPT_REALTIME, OPT_THREADS, OPT_ONE_THREAD,
};

static const struct option long_options[] = {
	{ "channel", required_argument, NULL, 'c' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "time", required_argument, NULL, 't' },
	{ "batch", no_argument, NULL, 'b' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "follow", no_argument, NULL, 'F' },
	{ "no-ui", no_argument, NULL, OPT_NO_UI },
	{ "hide-self", no_argument, NULL, OPT_HIDE_SELF },
	{ "read-only", no_argument, NULL, OPT_READ_ONLY },
	{ "realtime", required_argument, NULL, OPT_REALTIME },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "one-thread", no_argument, NULL, OPT_ONE_THREAD },
	{ "dump", required_argument, NULL, OPT_DUMP },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "export-ctf", required_argument, NULL, OPT_EXPORT_CTF },
	{ "export-perfetto", required_argument, NULL, OPT_EXPORT_PERFETTO },
	{ "export-tracecmd", required_argument, NULL, OPT_EXPORT_TRACECMD },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "tasks", no_argument, NULL, OPT_TASKS },
	{ "latency", optional_argument, NULL, OPT_LATENCY },
	{ "sort", required_argument, NULL, 's' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "cpu", required_argument, NULL, 'C' },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* What relaytop is asked to do: the modes, as bits. */
enum {
	M_LIVE = 1 << 0,	/* the live view (screen or -b) */
	M_RECORD = 1 << 1,
	M_REPLAY = 1 << 2,
	M_DUMP = 1 << 3,
	M_CHECK = 1 << 4,
	M_REPORT = 1 << 5,
	M_EXPORT = 1 << 6,
	M_NR = 7,
};

static const char *const mode_names[M_NR] = {
	"the live view", "--record", "--replay", "--dump", "--check",
	"--report", "--export-*",
};

#define M_VIEWS (M_LIVE | M_RECORD | M_REPLAY)

/* The modes each option applies to: any other refuses it rather than
 * ignore it. */
static const struct {
	int opt;
	const char *name;
	unsigned int modes;
} applies[] = {
	{ 'c', "-c", M_LIVE | M_RECORD },
	{ 'd', "-d", M_VIEWS },
	{ 'n', "-n", M_VIEWS },
	{ 't', "-t", M_VIEWS },
	{ 'b', "-b", M_VIEWS },
	{ OPT_FORMAT, "--format", M_VIEWS },
	{ 'F', "-F", M_LIVE | M_RECORD },
	{ OPT_NO_UI, "--no-ui", M_VIEWS },
	{ OPT_HIDE_SELF, "--hide-self", M_LIVE | M_RECORD },
	{ OPT_READ_ONLY, "--read-only", M_LIVE | M_RECORD },
	{ OPT_REALTIME, "--realtime", M_LIVE | M_RECORD },
	{ OPT_THREADS, "--threads", M_LIVE | M_RECORD },
	{ OPT_ONE_THREAD, "--one-thread", M_LIVE | M_RECORD },
	{ OPT_SPEED, "--speed", M_REPLAY },
	{ OPT_TASKS, "--tasks", M_VIEWS },
	{ OPT_LATENCY, "--latency", M_VIEWS },
	{ 's', "--sort", M_VIEWS | M_REPORT },
	{ 'p', "-p", M_VIEWS | M_REPORT },
	{ OPT_TID, "--tid", M_VIEWS | M_REPORT },
	{ OPT_COMM, "--comm", M_VIEWS | M_REPORT },
	{ 'C', "-C", M_VIEWS | M_REPORT },
	{ OPT_NO_COLOR, "--no-color", M_VIEWS },
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

static unsigned int mode_of(const struct options *o)
{
	return o->record ? M_RECORD : o->replay ? M_REPLAY : o->dump ? M_DUMP :
	       o->check ? M_CHECK : o->report ? M_REPORT :
	       exporting(o) ? M_EXPORT : M_LIVE;
}

/* "a, b and c" of the modes in mask. */
static void modes_text(unsigned int mask, char *buf, size_t len)
{
	unsigned int n = 0, total = 0;
	size_t at = 0;

	for (unsigned int m = 0; m < M_NR; m++)
		total += !!(mask & (1u << m));
	buf[0] = '\0';
	for (unsigned int m = 0; m < M_NR && at < len; m++) {
		if (!(mask & (1u << m)))
			continue;
		n++;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       n == 1 ? "" : n == total ? " and " : ", ",
				       mode_names[m]);
	}
}

/* What was wrong with the option getopt_long() could not take, the one
 * at argv[optind - 1] (or -optopt in a group of short options). */
static void unknown(int argc, char *const argv[], char *err, size_t errlen)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "";
	const struct option *match = NULL;
	char found[200] = "";
	size_t at = 0, len;
	unsigned int n = 0;

	if (strncmp(arg, "--", 2) || !arg[2]) {
		snprintf(err, errlen, "unknown option -%c", optopt ? optopt : '?');
		return;
	}
	len = strcspn(arg + 2, "=");
	for (const struct option *lo = long_options; lo->name; lo++) {
		if (strncmp(lo->name, arg + 2, len))
			continue;
		if (strlen(lo->name) == len) {		/* exact */
			match = lo;
			n = 1;
			break;
		}
		match = lo;
		n++;
		if (at < sizeof(found))
			at += (size_t)snprintf(found + at, sizeof(found) - at,
					       " --%s", lo->name);
	}
	if (n > 1)
		snprintf(err, errlen, "option '--%.*s' is ambiguous:%s",
			 (int)(len > 64 ? 64 : len), arg + 2, found);
	else if (n == 1 && arg[2 + len] == '=' &&
		 match->has_arg == no_argument)
		snprintf(err, errlen, "option '--%s' takes no argument "
			 "('%.64s')", match->name, arg);
	else
		snprintf(err, errlen, "unknown option '%.64s'", arg);
}

/* --speed: how many seconds of the recording a second shows. */
static int speed(const char *arg, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= 0.01 && v <= 100000)) {
		snprintf(err, errlen, "--speed: '%s' is not a speed from 0.01 "
			 "to 100000 (1: as recorded, 10: ten times as fast)",
			 arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int sort_by(const char *arg, struct options *o, char *err,
		   size_t errlen)
{
	int col = task_col_parse(arg), order = stats_sort_parse(arg);

	if (col < 0 && order < 0) {
		snprintf(err, errlen, "--sort: '%.64s' is not a column (the "
			 "tasks': pid comm sw wake mig inv cpu last wakavg "
			 "wakmax rqavg rqmax; the CPUs': cpu events drops "
			 "fill)", arg);
		return -1;
	}
	o->have_task_sort = col >= 0;
	o->task_sort = col;
	o->have_cpu_sort = order >= 0;
	o->cpu_sort = order;
	return 0;
}

static int format(const char *arg, struct options *o, char *err,
		  size_t errlen)
{
	static const char *const names[] = {
		[FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv",
		[FORMAT_JSON] = "json",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(arg, names[i])) {
			o->format = (enum output_format)i;
			return 0;
		}
	snprintf(err, errlen, "--format: '%.64s' is not text, csv or json",
		 arg);
	return -1;
}

/* One option (c, with optarg); modes counts the mode options. */
static int take(int c, int argc, char *const argv[], struct options *o,
		int *modes, char *err, size_t errlen)
{
	uint64_t n;

	switch (c) {
	case 'c':
		o->channel = optarg;
		return 0;
	case 'd':
		return seconds("-d", optarg, 0.01, 3600, &o->interval, err,
			       errlen);
	case 't':
		return seconds("-t", optarg, 0.001, 1e7, &o->duration, err,
			       errlen);
	case 'n':
		if (parse_u64(optarg, &n) || n == 0 || n > ULONG_MAX) {
			snprintf(err, errlen, "-n: '%s' is not a positive "
				 "whole number", optarg);
			return -1;
		}
		o->count = (unsigned long)n;
		return 0;
	case 'b':
		o->batch = true;
		return 0;
	case OPT_FORMAT:
		return format(optarg, o, err, errlen);
	case 'F':
		o->follow = true;
		return 0;
	case OPT_RECORD:
		o->record = optarg;
		break;
	case OPT_NO_UI:
		o->no_ui = true;
		return 0;
	case OPT_HIDE_SELF:
		o->hide_self = true;
		return 0;
	case OPT_READ_ONLY:
		o->read_only = true;
		return 0;
	case OPT_THREADS:
	case OPT_ONE_THREAD:
		if (o->threads) {
			snprintf(err, errlen, "--threads and --one-thread: "
				 "say one of them");
			return -1;
		}
		o->threads = c == OPT_THREADS ? 1 : -1;
		return 0;
	case OPT_REALTIME:
		if (parse_uint(optarg, REALTIME_MAX_PRIO, &o->realtime) ||
		    o->realtime < REALTIME_MIN_PRIO) {
			snprintf(err, errlen, "--realtime: '%.64s' is not a "
				 "priority (%d to %d)", optarg,
				 REALTIME_MIN_PRIO, REALTIME_MAX_PRIO);
			o->realtime = 0;
			return -1;
		}
		return 0;
	case OPT_DUMP:
		o->dump = optarg;
		break;
	case OPT_CHECK:
		o->check = optarg;
		break;
	case OPT_REPLAY:
		o->replay = optarg;
		break;
	case OPT_SPEED:
		return speed(optarg, &o->speed, err, errlen);
	case OPT_EXPORT_CTF:
		o->export_ctf = optarg;
		break;
	case OPT_EXPORT_PERFETTO:
		o->export_perfetto = optarg;
		break;
	case OPT_EXPORT_TRACECMD:
		o->export_tracecmd = optarg;
		break;
	case OPT_REPORT:
		o->report = optarg;
		break;
	case OPT_TASKS:
		o->tasks = true;
		return 0;
	case OPT_LATENCY:
		o->latency = true;
		if (optarg && strcmp(optarg, "wakeup") &&
		    strcmp(optarg, "runq")) {
			snprintf(err, errlen, "--latency=%.64s: say wakeup or "
				 "runq", optarg);
			return -1;
		}
		o->latency_runq = optarg && !strcmp(optarg, "runq");
		return 0;
	case 's':
		return sort_by(optarg, o, err, errlen);
	case 'p':
		return filter_parse_pids(&o->filter, optarg, err, errlen);
	case OPT_TID:
		return filter_parse_tids(&o->filter, optarg, err, errlen);
	case OPT_COMM:
		return filter_parse_comms(&o->filter, optarg, err, errlen);
	case 'C':
		return filter_parse_cpus(&o->filter, optarg, err, errlen);
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case 'h':
		o->help = true;
		return 0;
	case 'V':
		o->version = true;
		return 0;
	case ':':
		snprintf(err, errlen, "%s needs an argument", argv[optind - 1]);
		return -1;
	default:
		unknown(argc, argv, err, errlen);
		return -1;
	}
	(*modes)++;		/* a mode option */
	return 0;
}

/* Options given that the mode would ignore: refused, saying where they
 * apply. */
static int check_modes(const bool *given, const struct options *o,
		       char *err, size_t errlen)
{
	unsigned int mode = mode_of(o);

	for (size_t i = 0; i < ARRAY_SIZE(applies); i++) {
		char where[160];

		if (!given[i] || (applies[i].modes & mode))
			continue;
		modes_text(applies[i].modes, where, sizeof(where));
		snprintf(err, errlen, "%s does not apply to %s (only to %s)",
			 applies[i].name, mode_names[__builtin_ctz(mode)],
			 where);
		return -1;
	}
	return 0;
}

/* What the options ask of each other. */
static int check_together(const bool *given, const struct options *o,
			  char *err, size_t errlen)
{
	if (o->format != FORMAT_TEXT && !o->batch) {
		snprintf(err, errlen, "--format applies to -b's blocks: give "
			 "-b too");
		return -1;
	}
	if (o->format == FORMAT_CSV && o->tasks && o->latency) {
		snprintf(err, errlen, "--format csv prints one table: the "
			 "CPUs', --tasks or --latency, not both");
		return -1;
	}
	if (o->command && !o->record && !o->batch) {
		snprintf(err, errlen, "a command after -- runs with --record "
			 "FILE or -b (the screen would share its terminal)");
		return -1;
	}
	if (o->follow && !o->command) {
		snprintf(err, errlen, "-F follows the command given after --: "
			 "there is none");
		return -1;
	}
	/* a recording keeps every task: only -b's blocks count by it */
	if (o->follow && !o->batch) {
		snprintf(err, errlen, "-F narrows what -b's blocks count: give "
			 "-b too (a recording keeps every task)");
		return -1;
	}
	(void)given;
	return 0;
}

/* The first "--" ends the options: what follows is a command to run. */
static int split_command(int argc, char *const argv[], struct options *o,
			 char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (i + 1 == argc) {
			snprintf(err, errlen, "-- is followed by no command");
			return -1;
		}
		o->command = &argv[i + 1];
		o->ncommand = (size_t)(argc - i - 1);
		return i;
	}
	return argc;
}

int cli_parse(int argc, char *const argv[], struct options *o, char *err,
	      size_t errlen)
{
	bool given[ARRAY_SIZE(applies)] = { false };
	int c, modes = 0;

	memset(o, 0, sizeof(*o));
	o->channel = RELAYTOP_DEFAULT_CHANNEL;
	/* https://no-color.org: set and not empty */
	o->no_color = getenv("NO_COLOR") && getenv("NO_COLOR")[0];
	o->interval = 1.0;
	o->speed = 1.0;
	err[0] = '\0';
	argc = split_command(argc, argv, o, err, errlen);
	if (argc < 0)
		return -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":c:d:n:t:bFs:p:C:hV",
				long_options, NULL)) != -1) {
		if (take(c, argc, argv, o, &modes, err, errlen))
			return -1;
		for (size_t i = 0; i < ARRAY_SIZE(applies); i++)
			if (applies[i].opt == c)
				given[i] = true;
	}
	if (o->help || o->version)
		return 0;
	if (modes > 1) {
		snprintf(err, errlen, "--record, --dump, --check, --replay, "
			 "--report and --export-* exclude each other");
		return -1;
	}
	/* an export takes the recording as its one argument */
	if (exporting(o) && optind < argc)
		o->export_file = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%.64s'%s",
			 argv[optind], o->command ? "" : " (a command to run "
			 "goes after --)");
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
	if (o->command && mode_of(o) & ~(M_LIVE | M_RECORD)) {
		snprintf(err, errlen, "a command after -- does not apply to "
			 "%s (only to --record and -b)",
			 mode_names[__builtin_ctz(mode_of(o))]);
		return -1;
	}
	if (check_modes(given, o, err, errlen))
		return -1;
	return check_together(given, o, err, errlen);
}

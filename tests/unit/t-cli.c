// SPDX-License-Identifier: GPL-2.0
/*
 * t-cli.c - pins the command line (relaytop/cli.c): defaults; -d takes
 * fractions and refuses junk, zero and huge values; -n takes a positive
 * whole number; -t a duration; long options; --record/--dump/--replay/
 * --report/--export-* exclude each other; an export takes exactly one
 * recording; -p, --comm and -C fill the filter and refuse bad lists,
 * and are refused where nothing would apply them (--dump, --check,
 * --export-*);
 * --tasks, --latency, --no-color and NO_COLOR; unknown options, missing
 * arguments and stray
 * arguments are refused with a message naming them; an ambiguous prefix
 * names the options it could be (--rep: --replay --report), an argument
 * given to an option that takes none says so (--help=x); an option the
 * mode would ignore (-b with --dump, --speed without --replay) is
 * refused, naming the modes it applies to; --comm takes a list of names
 * of at most 15 bytes (what the kernel keeps); --tid, --sort, --speed,
 * --format, --read-only, --latency=runq, --realtime (1 to 99, live
 * and --record only), --threads and --one-thread (reader threads always
 * or never, not both; live and --record only); a command after -- (with
 * --record or -b; -F follows it); the usage text mentions every option; --version states the version scheme in the
 * words of the man page and docs/record-format.md (each holds the line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stats.h"
#include "task_table.h"
#include "test-lib.h"
#include "test-util.h"

static int parse(struct options *o, char *err, const char *a1,
		 const char *a2, const char *a3, const char *a4)
{
	char *argv[6] = { "relaytop", (char *)a1, (char *)a2, (char *)a3,
			  (char *)a4, NULL };
	int argc = 1;

	while (argc < 5 && argv[argc])
		argc++;
	return cli_parse(argc, argv, o, err, 256);
}

static void test_defaults(void)
{
	struct options o;
	char err[256];
	int rc = parse(&o, err, NULL, NULL, NULL, NULL);

	check_int(rc, ==, 0);
	check_str(o.channel, "/sys/kernel/sched_relay");
	check_int((int)o.interval, ==, 1);
	check_uint(o.count, ==, 0);
	check(!o.batch && !o.record && !o.dump && !o.replay && !o.no_ui);
}

static void test_values(void)
{
	struct options o;
	char err[256];
	int rc;

	rc = parse(&o, err, "-d", "0.25", "-n", "3");
	check_int(rc, ==, 0);
	check_int((int)(o.interval * 100), ==, 25);
	check_uint(o.count, ==, 3);
	rc = parse(&o, err, "-b", "-c", "/tmp/x", "--no-ui");
	check_int(rc, ==, 0);
	check(o.batch && o.no_ui);
	check_str(o.channel, "/tmp/x");
	rc = parse(&o, err, "--record", "out.bin", "-t", "2.5");
	check_int(rc, ==, 0);
	check_str(o.record, "out.bin");
	check_int((int)(o.duration * 10), ==, 25);
	rc = parse(&o, err, "--delay=2", "--iterations=4", NULL, NULL);
	check_int(rc, ==, 0);
	check_int((int)o.interval, ==, 2);
	check_uint(o.count, ==, 4);
	rc = parse(&o, err, "--dump", "f.bin", NULL, NULL);
	check_int(rc, ==, 0);
	check_str(o.dump, "f.bin");
	rc = parse(&o, err, "--export-ctf", "outdir", "rec.bin", NULL);
	check_int(rc, ==, 0);
	check_str(o.export_ctf, "outdir");
	check_str(o.export_file, "rec.bin");
	rc = parse(&o, err, "--export-perfetto=-", "rec.bin", NULL, NULL);
	check_int(rc, ==, 0);
	check_str(o.export_perfetto, "-");
	check_str(o.export_file, "rec.bin");
	rc = parse(&o, err, "--export-tracecmd", "t.dat", "rec.bin", NULL);
	check_int(rc, ==, 0);
	check_str(o.export_tracecmd, "t.dat");
	check_str(o.export_file, "rec.bin");
	rc = parse(&o, err, "-V", NULL, NULL, NULL);
	check(rc == 0 && o.version);
	rc = parse(&o, err, "--help", NULL, NULL, NULL);
	check(rc == 0 && o.help);
	rc = parse(&o, err, "--report", "r.bin", "-p", "12,34");
	check_int(rc, ==, 0);
	check_str(o.report, "r.bin");
	check_uint(o.filter.npids, ==, 2);
	check_int(o.filter.pids[1], ==, 34);
	rc = parse(&o, err, "--comm", "loadgen", "--cpu", "0-1,3");
	check_int(rc, ==, 0);
	check_str(o.filter.comms[0], "loadgen");
	check(filter_cpu(&o.filter, 3) && !filter_cpu(&o.filter, 2));
	rc = parse(&o, err, "--tasks", "--latency", "--no-color", "-C0");
	check_int(rc, ==, 0);
	check(o.tasks && o.latency && o.no_color);
	unsetenv("NO_COLOR");
	rc = parse(&o, err, "-b", NULL, NULL, NULL);
	check(rc == 0 && !o.no_color);
	setenv("NO_COLOR", "1", 1);
	rc = parse(&o, err, "-b", NULL, NULL, NULL);
	check(rc == 0 && o.no_color);
	setenv("NO_COLOR", "", 1);		/* empty: as unset */
	rc = parse(&o, err, "-b", NULL, NULL, NULL);
	check(rc == 0 && !o.no_color);
	unsetenv("NO_COLOR");
}

static void expect_error(const char *a1, const char *a2, const char *a3,
			 const char *needle)
{
	struct options o;
	char err[256];
	int rc = parse(&o, err, a1, a2, a3, NULL);

	check_int(rc, ==, -1);
	if (!check(strstr(err, needle) != NULL))
		test_msg("error: \"%s\", expected \"%s\" in it", err, needle);
}

static void test_errors(void)
{
	expect_error("-d", "abc", NULL, "-d: 'abc' is not a number of seconds");
	expect_error("-d", "0", NULL, "-d: '0' is out of range");
	expect_error("-d", "1e9", NULL, "out of range");
	expect_error("-d", "-1", NULL, "not a number");
	expect_error("-d", "1s", NULL, "not a number");
	expect_error("-n", "0", NULL, "-n: '0' is not a positive whole number");
	expect_error("-n", "2.5", NULL, "-n: '2.5'");
	expect_error("-n", "-3", NULL, "-n: '-3'");
	expect_error("-t", "soon", NULL, "-t: 'soon'");
	expect_error("-x", NULL, NULL, "unknown option -x");
	expect_error("--bogus", NULL, NULL, "unknown option '--bogus'");
	expect_error("-d", NULL, NULL, "-d needs an argument");
	expect_error("--record", NULL, NULL, "--record needs an argument");
	expect_error("stray", NULL, NULL, "unexpected argument 'stray'");
	expect_error("--record", "a", "--dump=b", "exclude each other");
	expect_error("--record=", NULL, NULL, "--record needs a file name");
	expect_error("--export-ctf", "dir", NULL, "needs the recording to export");
	expect_error("--dump", "a", "--export-ctf=d", "exclude each other");
	expect_error("--report", "a", "--dump=b", "exclude each other");
	expect_error("-p", "1,,2", NULL, "-p 1,,2: not a list of process ids");
	expect_error("-p", "x", NULL, "-p x: not a list");
	expect_error("-C", "3-1", NULL, "-C 3-1: not a CPU list");
	/* the kernel keeps 15 bytes of a name: 16 can never match */
	expect_error("--comm", "sixteen-bytes-xx", NULL,
		     "--comm: a task name is 1 to 15 bytes");
	expect_error("--comm", "a,,b", NULL, "'' has 0");
	/* the filters count for the views and --report: elsewhere they
	 * would be ignored without a word */
	expect_error("--dump", "a", "-p1", "-p does not apply to --dump");
	expect_error("--check", "a", "--comm=x", "--comm does not apply to --check");
	expect_error("--export-perfetto=-", "a", "-C0", "-C does not apply to --export-*");
	expect_error("-C0", "--export-ctf=d", "a", "-C does not apply to --export-*");
	expect_error("--export-tracecmd", "t.dat", NULL,
		     "--export-tracecmd OUT needs the recording to export");
	expect_error("--export-tracecmd=t", "--export-ctf=d", "a",
		     "exclude each other");
	expect_error("--export-tracecmd=t", "a", "-p1", "-p does not apply");
	{
		struct options o;
		char err[256];
		int rc = parse(&o, err, "--export-ctf", "dir", "a", "b");

		check_int(rc, ==, -1);
		check(strstr(err, "unexpected argument 'b'") != NULL);
	}
}

/* Where getopt_long() alone says "unknown" or names the wrong option. */
static void test_long_option_errors(void)
{
	expect_error("--rep", "x", NULL,
		     "option '--rep' is ambiguous: --replay --report");
	expect_error("--no", NULL, NULL,
		     "option '--no' is ambiguous: --no-ui --no-color");
	expect_error("--export", "x", "y", "is ambiguous: --export-ctf "
		     "--export-perfetto --export-tracecmd");
	expect_error("--help=x", NULL, NULL,
		     "option '--help' takes no argument ('--help=x')");
	expect_error("--batch=1", NULL, NULL, "'--batch' takes no argument");
	expect_error("--bogus=1", NULL, NULL, "unknown option '--bogus=1'");
	expect_error("-bx", NULL, NULL, "unknown option -x");
	/* an unambiguous prefix is the option */
	{
		struct options o;
		char err[256];

		check_int(parse(&o, err, "--repl", "x", NULL, NULL), ==, 0);
		check_str(o.replay, "x");
		check_int(parse(&o, err, "--lat", NULL, NULL, NULL), ==, 0);
		check(o.latency);
	}
}

/* Options the mode would ignore are refused, naming where they apply. */
static void test_modes(void)
{
	expect_error("--dump", "f", "-b",
		     "-b does not apply to --dump (only to the live view, "
		     "--record and --replay)");
	expect_error("--check", "f", "-n3", "-n does not apply to --check");
	expect_error("--report", "f", "--tasks",
		     "--tasks does not apply to --report");
	expect_error("--replay", "f", "-c/tmp",
		     "-c does not apply to --replay (only to the live view "
		     "and --record)");
	expect_error("--speed", "2", NULL, "--speed does not apply to the "
		     "live view (only to --replay)");
	expect_error("--replay", "f", "--read-only",
		     "--read-only does not apply to --replay");
	expect_error("--report", "f", "--hide-self",
		     "--hide-self does not apply to --report");
	expect_error("--dump", "f", "--no-color",
		     "--no-color does not apply to --dump");
	expect_error("--dump", "f", "--sort=pid",
		     "--sort does not apply to --dump");
	expect_error("--format", "csv", NULL,
		     "--format applies to -b's blocks: give -b too");
	{
		struct options o;
		char err[256];

		check_int(parse(&o, err, "-b", "--format=csv", "--tasks",
				"--latency"), ==, -1);
		check(strstr(err, "--format csv prints one table") != NULL);
	}
}

static void test_new_options(void)
{
	struct options o;
	char err[256];
	int rc;

	rc = parse(&o, err, "--comm", "kworker/0:1H-kb,a", NULL, NULL);
	check_int(rc, ==, 0);
	check_uint(o.filter.ncomms, ==, 2);
	check_str(o.filter.comms[0], "kworker/0:1H-kb");	/* 15 */
	check_str(o.filter.comms[1], "a");
	check(filter_task(&o.filter, 9, 9, "a"));
	check(!filter_task(&o.filter, 9, 9, "b"));
	rc = parse(&o, err, "--tid", "5,6", "-p", "7");
	check_int(rc, ==, 0);
	check_uint(o.filter.ntids, ==, 2);
	/* a thread: by its own id only; a process: by pid or tgid */
	check(filter_task(&o.filter, 6, 100, "x"));
	check(!filter_task(&o.filter, 8, 5, "x"));
	check(filter_task(&o.filter, 8, 7, "x"));
	expect_error("--tid", "x", NULL, "--tid x: not a list of thread ids");
	rc = parse(&o, err, "--sort", "RQMAX", NULL, NULL);
	check(rc == 0 && o.have_task_sort && !o.have_cpu_sort);
	check_int(o.task_sort, ==, TCOL_RQ_MAX);
	rc = parse(&o, err, "-s", "CPU%", NULL, NULL);
	check(rc == 0 && o.have_task_sort && o.task_sort == TCOL_CPU);
	rc = parse(&o, err, "--sort=fill", NULL, NULL, NULL);
	check(rc == 0 && !o.have_task_sort && o.have_cpu_sort);
	check_int(o.cpu_sort, ==, SORT_FILL);
	rc = parse(&o, err, "--sort=cpu", NULL, NULL, NULL);
	check(rc == 0 && o.have_task_sort && o.have_cpu_sort);
	expect_error("--sort", "nope", NULL, "--sort: 'nope' is not a column");
	rc = parse(&o, err, "--replay", "f", "--speed", "10");
	check_int(rc, ==, 0);
	check_int((int)o.speed, ==, 10);
	check_int(parse(&o, err, NULL, NULL, NULL, NULL), ==, 0);
	check_int((int)o.speed, ==, 1);
	expect_error("--replay=f", "--speed", "0", "--speed: '0' is not a speed");
	expect_error("--replay=f", "--speed", "fast", "--speed: 'fast'");
	rc = parse(&o, err, "-b", "--format", "json", NULL);
	check(rc == 0 && o.format == FORMAT_JSON);
	expect_error("-b", "--format=xml", NULL, "'xml' is not text, csv or json");
	rc = parse(&o, err, "--read-only", NULL, NULL, NULL);
	check(rc == 0 && o.read_only);
	rc = parse(&o, err, "--record", "f", "--realtime", "50");
	check(rc == 0 && o.realtime == 50);
	check_int(parse(&o, err, NULL, NULL, NULL, NULL), ==, 0);
	check_uint(o.realtime, ==, 0);
	expect_error("--realtime", "0", NULL,
		     "--realtime: '0' is not a priority (1 to 99)");
	expect_error("--realtime", "100", NULL, "'100' is not a priority");
	expect_error("--realtime", "x", NULL, "'x' is not a priority");
	expect_error("--dump=f", "--realtime", "5",
		     "--realtime does not apply to --dump");
	/* reader threads for small buffers unless --threads (always) or
	 * --one-thread (never); live and --record */
	check_int(o.threads, ==, 0);
	rc = parse(&o, err, "--record", "f", "--threads", NULL);
	check(rc == 0 && o.threads == 1);
	rc = parse(&o, err, "--record", "f", "--one-thread", NULL);
	check(rc == 0 && o.threads == -1);
	expect_error("--threads", "--one-thread", NULL,
		     "--threads and --one-thread: say one of them");
	expect_error("--replay=f", "--threads", NULL,
		     "--threads does not apply to --replay");
	expect_error("--dump=f", "--one-thread", NULL,
		     "--one-thread does not apply to --dump");
	rc = parse(&o, err, "--latency=runq", NULL, NULL, NULL);
	check(rc == 0 && o.latency && o.latency_runq);
	expect_error("--latency=both", NULL, NULL, "say wakeup or runq");
}

/* A command after --: what it runs with, what it is refused with. */
static void test_command(void)
{
	char *argv[] = { "relaytop", "--record", "r.bin", "-bF", "--",
			 "make", "-j4", "--", "x", NULL };
	struct options o;
	char err[256];

	check_int(cli_parse(9, argv, &o, err, sizeof(err)), ==, 0);
	check_str(o.record, "r.bin");
	check(o.follow);
	check_uint(o.ncommand, ==, 4);	/* its own -- and options kept */
	if (check(o.command != NULL)) {
		check_str(o.command[0], "make");
		check_str(o.command[1], "-j4");
		check_str(o.command[2], "--");
	}
	expect_error("--", "true", NULL, "a command after -- runs with "
		     "--record FILE or -b");
	expect_error("-b", "--", NULL, "-- is followed by no command");
	expect_error("-b", "-F", NULL, "-F follows the command given after "
		     "--: there is none");
	expect_error("--replay=f", "--", "true", "a command after -- does "
		     "not apply to --replay");
	{
		char *argv2[] = { "relaytop", "--record", "r.bin", "-F", "--",
				  "true", NULL };

		check_int(cli_parse(6, argv2, &o, err, sizeof(err)), ==, -1);
		check(strstr(err, "-F narrows what -b's blocks count") != NULL);
	}
	expect_error("-b", "true", NULL, "unexpected argument 'true' (a "
		     "command to run goes after --)");
	check_int(parse(&o, err, "-b", "--", "true", NULL), ==, 0);
	check_uint(o.ncommand, ==, 1);
}

static void test_usage(void)
{
	static const char *const opts[] = {
		"--channel", "--delay", "--iterations", "--time", "--batch",
		"--record", "--no-ui", "--dump", "--replay", "--help",
		"--version", "--export-ctf", "--export-perfetto", "--report",
		"--export-tracecmd",
		"--tasks", "--latency", "--pid", "--comm", "--cpu", "--no-color",
		"--tid", "--sort", "--speed", "--read-only", "--format",
		"--follow", "--realtime", "-- COMMAND",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cli_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!check(strstr(text, opts[i]) != NULL))
			test_msg("usage lacks %s", opts[i]);
	free(text);
}

/* The whole of a file of the repository (malloc'd), or NULL. */
static char *repo_file(const char *rel)
{
	char path[1024];
	const char *at = strstr(__FILE__, "tests/unit/");

	snprintf(path, sizeof(path), "%.*s%s", at ? (int)(at - __FILE__) : 0,
		 __FILE__, rel);
	return slurp_text(path, NULL);
}

static void test_version(void)
{
	char *line = NULL, *man = repo_file("relaytop/relaytop.1");
	char *spec = repo_file("docs/record-format.md");
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	cli_version(f);
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	check(strstr(line, "writes recording format 3, reads 1 to 3") != NULL);
	if (!check(man && strstr(man, line)))
		test_msg("relaytop.1 does not say \"%s\"", line);
	if (!check(spec && strstr(spec, line)))
		test_msg("record-format.md does not say \"%s\"", line);
	free(line);
	free(man);
	free(spec);
}

int main(void)
{
	TEST(test_defaults(), "defaults: the sched_relay channel, 1 s, no limit");
	TEST(test_values(), "short and long options take their values");
	TEST(test_errors(), "bad values, unknown options, conflicts: named errors");
	TEST(test_long_option_errors(), "ambiguous prefixes name the options; --help=x says --help takes none");
	TEST(test_modes(), "an option the mode would ignore is refused, saying where it applies");
	TEST(test_new_options(), "--comm a,b (15 bytes), --tid, --sort, --speed, --format, --read-only, --latency=runq, --realtime");
	TEST(test_command(), "a command after --: with --record or -b, -F follows it");
	TEST(test_usage(), "the usage text mentions every option");
	TEST(test_version(), "--version says what the man page and the format's spec say");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen - drive context switches and wake-ups on chosen CPUs.
 *
 * For every CPU of the list it starts pairs of threads pinned to that CPU
 * which ping-pong one token over a pair of pipes (or a futex word):
 *
 *	driver: send token, wait for it to come back   (switch to echo)
 *	echo:   wait for token, send it back            (switch to driver)
 *
 * so one round trip is two voluntary context switches and two wake-ups on
 * that CPU.  The threads are named lgd-CPU-N (driver) and lge-CPU-N (echo)
 * for pair N of the CPU, so a scheduler view can tell them apart.  Flat out by default; with -r the drivers pace themselves to a
 * number of switches per second per CPU.  It runs for -t seconds or until
 * SIGINT/SIGTERM and then prints, per CPU, the switches it made (its own
 * count: two per round trip) and the switches the kernel counted for its
 * threads (/proc/thread-self/status), the system-wide count from
 * /proc/stat, and a last line for scripts:
 *
 *	total_switches=N elapsed_ns=N task_ctxt=N system_ctxt=N
 *
 * Exit status: 0 done, 1 failure while running, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE	2
#define MAX_PAIRS	64		/* per CPU */
#define MAX_SECONDS	(7 * 24 * 3600.0)
#define NSEC_PER_SEC	1000000000ULL

enum mode { MODE_PIPE, MODE_FUTEX };

/* Futex word values of a pair in futex mode. */
enum { TURN_DRIVER, TURN_ECHO, TURN_QUIT };

/* What the command line asked for. */
struct options {
	cpu_set_t cpus;			/* CPUs to load */
	unsigned int nr_cpus;		/* CPUs in 'cpus' */
	unsigned int pairs;		/* thread pairs per CPU */
	uint64_t rate;			/* switches/s per CPU, 0: flat out */
	double seconds;			/* run time, 0: until a signal */
	enum mode mode;
	bool quiet;
};

/* State all threads share: the start line and the stop flag. */
struct shared {
	pthread_barrier_t ready;	/* workers are pinned; main may start */
	pthread_barrier_t go;		/* start_ns is set; workers run */
	_Atomic uint32_t stop;		/* set once; futex word for pacing */
	uint64_t start_ns;		/* CLOCK_MONOTONIC at the start */
};

/* One ping-pong pair of threads pinned to one CPU. */
struct pair {
	struct shared *shared;
	int cpu;
	uint64_t round_trip_ns;		/* pacing interval, 0: flat out */
	enum mode mode;
	int ping[2];			/* driver -> echo (pipe mode) */
	int pong[2];			/* echo -> driver (pipe mode) */
	_Atomic uint32_t turn;		/* futex mode */
	pthread_t driver, echo;
	uint64_t round_trips;		/* written by the driver */
	uint64_t ctxt[2];		/* kernel-counted switches per thread */
	int error;			/* driver's errno of a failure, or 0 */
	int echo_error;			/* echo's errno of a failure, or 0 */
};

static const char *const usage_lines[] = {
	"usage: loadgen [options]",
	"",
	"Drive context switches and wake-ups: pairs of threads pinned to each",
	"chosen CPU ping-pong a token; one round trip is two switches.",
	"",
	"  -c, --cpus LIST   CPUs to load, e.g. 0,1,2-3 (default: all allowed)",
	"  -r, --rate N      switches per second per CPU (default: flat out)",
	"  -t, --time SECS   run time, fractions allowed (default: until",
	"                    SIGINT or SIGTERM)",
	"  -m, --mode MODE   pipe (default) or futex",
	"  -p, --pairs N     thread pairs per CPU, 1..64 (default: 1)",
	"  -q, --quiet       print only the summary line",
	"  -h, --help        this text",
	"",
	"The last line of output is for scripts:",
	"  total_switches=N elapsed_ns=N task_ctxt=N system_ctxt=N",
	"total_switches counts two per round trip; task_ctxt is what the kernel",
	"counted for loadgen's threads; system_ctxt is the /proc/stat delta.",
	"Exit status: 0 done, 1 failure, 2 bad usage.",
};

static void print_usage(FILE *f)
{
	for (size_t i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++)
		fprintf(f, "%s\n", usage_lines[i]);
}

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("loadgen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'loadgen --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* A decimal unsigned number, all of 'arg', at most 'max'. */
static bool parse_u64(const char *arg, uint64_t max, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (*arg < '0' || *arg > '9')
		return false;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || v > max)
		return false;
	*val = v;
	return true;
}

/* "0,1,2-3": CPUs that must all be in 'allowed'; no CPU twice. */
static void parse_cpu_list(const char *arg, const cpu_set_t *allowed,
			   struct options *opt)
{
	const char *p = arg;

	CPU_ZERO(&opt->cpus);
	opt->nr_cpus = 0;
	for (;;) {
		unsigned long first, last;
		char *end;

		if (*p < '0' || *p > '9')
			usage_error("bad CPU list '%s': expected a CPU number at '%s'",
				    arg, *p ? p : "the end");
		errno = 0;
		first = strtoul(p, &end, 10);
		last = first;
		if (!errno && *end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				usage_error("bad CPU list '%s': expected a CPU number at '%s'",
					    arg, *p ? p : "the end");
			last = strtoul(p, &end, 10);
		}
		if (errno || first >= CPU_SETSIZE || last >= CPU_SETSIZE)
			usage_error("bad CPU list '%s': CPU number too large", arg);
		if (last < first)
			usage_error("bad CPU list '%s': range %lu-%lu goes backwards",
				    arg, first, last);
		for (unsigned long cpu = first; cpu <= last; cpu++) {
			if (!CPU_ISSET(cpu, allowed))
				usage_error("CPU %lu is not online or not allowed for this process",
					    cpu);
			if (CPU_ISSET(cpu, &opt->cpus))
				usage_error("bad CPU list '%s': CPU %lu listed twice",
					    arg, cpu);
			CPU_SET(cpu, &opt->cpus);
			opt->nr_cpus++;
		}
		if (!*end)
			break;
		if (*end != ',')
			usage_error("bad CPU list '%s': unexpected '%c'", arg, *end);
		p = end + 1;
	}
}

static double parse_seconds(const char *arg)
{
	char *end;
	double v;

	if ((*arg < '0' || *arg > '9') && *arg != '.')
		usage_error("bad time '%s': expected seconds, e.g. 5 or 0.5", arg);
	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > MAX_SECONDS)
		usage_error("bad time '%s': expected seconds > 0 and <= %.0f",
			    arg, MAX_SECONDS);
	return v;
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "cpus",  required_argument, NULL, 'c' },
		{ "rate",  required_argument, NULL, 'r' },
		{ "time",  required_argument, NULL, 't' },
		{ "mode",  required_argument, NULL, 'm' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "quiet", no_argument,       NULL, 'q' },
		{ "help",  no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cpu_set_t allowed;
	bool cpus_given = false;
	uint64_t v;
	int c;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("loadgen: sched_getaffinity");
		exit(1);
	}
	memset(opt, 0, sizeof(*opt));
	opt->pairs = 1;
	opt->mode = MODE_PIPE;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:r:t:m:p:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			parse_cpu_list(optarg, &allowed, opt);
			cpus_given = true;
			break;
		case 'r':
			if (!parse_u64(optarg, 1000000000, &v) || !v)
				usage_error("bad rate '%s': expected switches per second, 1..1000000000",
					    optarg);
			opt->rate = v;
			break;
		case 't':
			opt->seconds = parse_seconds(optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "pipe"))
				opt->mode = MODE_PIPE;
			else if (!strcmp(optarg, "futex"))
				opt->mode = MODE_FUTEX;
			else
				usage_error("bad mode '%s': expected pipe or futex", optarg);
			break;
		case 'p':
			if (!parse_u64(optarg, MAX_PAIRS, &v) || !v)
				usage_error("bad pair count '%s': expected 1..%d",
					    optarg, MAX_PAIRS);
			opt->pairs = (unsigned int)v;
			break;
		case 'q':
			opt->quiet = true;
			break;
		case 'h':
			print_usage(stdout);
			exit(0);
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!cpus_given) {
		opt->cpus = allowed;
		opt->nr_cpus = (unsigned int)CPU_COUNT(&allowed);
	}
}

static long futex(_Atomic uint32_t *word, int op, uint32_t val,
		  const struct timespec *timeout, uint32_t val3)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, val3);
}

/* Wait while *word == val; false on a real error. */
static bool futex_wait(_Atomic uint32_t *word, uint32_t val)
{
	while (atomic_load(word) == val) {
		if (futex(word, FUTEX_WAIT_PRIVATE, val, NULL, 0) &&
		    errno != EAGAIN && errno != EINTR)
			return false;
	}
	return true;
}

static void futex_wake(_Atomic uint32_t *word)
{
	futex(word, FUTEX_WAKE_PRIVATE, 1, NULL, 0);
}

/* Sleep until CLOCK_MONOTONIC 'deadline' or until the stop flag is set. */
static void sleep_until(struct shared *sh, uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / NSEC_PER_SEC),
		.tv_nsec = (long)(deadline % NSEC_PER_SEC),
	};

	while (!atomic_load(&sh->stop) && now_ns() < deadline)
		futex(&sh->stop, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts,
		      FUTEX_BITSET_MATCH_ANY);
}

/* Context switches the kernel counted for the calling thread, or 0. */
static uint64_t thread_ctxt_switches(void)
{
	char line[128];
	uint64_t total = 0;
	FILE *f = fopen("/proc/thread-self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			total += v;
	}
	fclose(f);
	return total;
}

/* System-wide context switches since boot (/proc/stat ctxt), or 0. */
static uint64_t system_ctxt_switches(void)
{
	char line[256];
	unsigned long long v = 0;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

static bool pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !sched_setaffinity(0, sizeof(set), &set);
}

/* One round trip: hand the token to the echo thread and wait for it back. */
static bool round_trip(struct pair *p)
{
	char token = 'p';

	if (p->mode == MODE_FUTEX) {
		atomic_store(&p->turn, TURN_ECHO);
		futex_wake(&p->turn);
		return futex_wait(&p->turn, TURN_ECHO);
	}
	return write(p->ping[1], &token, 1) == 1 &&
	       read(p->pong[0], &token, 1) == 1;
}

static void tell_echo_to_quit(struct pair *p)
{
	char token = 'q';

	if (p->mode == MODE_FUTEX) {
		atomic_store(&p->turn, TURN_QUIT);
		futex_wake(&p->turn);
	} else if (write(p->ping[1], &token, 1) != 1 && !p->error) {
		p->error = errno;
	}
}

static void *driver_main(void *arg)
{
	struct pair *p = arg;
	struct shared *sh = p->shared;
	uint64_t start_ctxt, n = 0;

	if (!pin_to(p->cpu))
		p->error = errno;
	pthread_barrier_wait(&sh->ready);
	pthread_barrier_wait(&sh->go);
	start_ctxt = thread_ctxt_switches();
	while (!p->error && !atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		if (p->round_trip_ns) {
			uint64_t due = sh->start_ns + n * p->round_trip_ns;

			if (now_ns() < due) {
				sleep_until(sh, due);
				continue;
			}
		}
		if (!round_trip(p)) {
			p->error = errno ? errno : EIO;
			break;
		}
		n++;
	}
	p->round_trips = n;
	p->ctxt[0] = thread_ctxt_switches() - start_ctxt;
	tell_echo_to_quit(p);
	return NULL;
}

static void *echo_main(void *arg)
{
	struct pair *p = arg;
	uint64_t start_ctxt;
	char token;

	if (!pin_to(p->cpu))
		p->echo_error = errno;
	pthread_barrier_wait(&p->shared->ready);
	pthread_barrier_wait(&p->shared->go);
	start_ctxt = thread_ctxt_switches();
	for (;;) {
		if (p->mode == MODE_FUTEX) {
			if (!futex_wait(&p->turn, TURN_DRIVER)) {
				p->echo_error = errno;
				break;
			}
			if (atomic_load(&p->turn) == TURN_QUIT)
				break;
			atomic_store(&p->turn, TURN_DRIVER);
			futex_wake(&p->turn);
			continue;
		}
		if (read(p->ping[0], &token, 1) != 1) {
			p->echo_error = errno ? errno : EIO;
			break;
		}
		if (token == 'q')
			break;
		if (write(p->pong[1], &token, 1) != 1) {
			p->echo_error = errno;
			break;
		}
	}
	p->ctxt[1] = thread_ctxt_switches() - start_ctxt;
	return NULL;
}

static int setup_pair(struct pair *p, struct shared *sh, int cpu,
		      const struct options *opt)
{
	memset(p, 0, sizeof(*p));
	p->shared = sh;
	p->cpu = cpu;
	p->mode = opt->mode;
	p->ping[0] = p->ping[1] = p->pong[0] = p->pong[1] = -1;
	atomic_init(&p->turn, TURN_DRIVER);
	/* Each round trip is two switches; the CPU's rate is split over its pairs. */
	if (opt->rate)
		p->round_trip_ns = 2 * NSEC_PER_SEC * opt->pairs / opt->rate;
	if (opt->mode == MODE_PIPE && (pipe(p->ping) || pipe(p->pong)))
		return -errno;
	return 0;
}

static void close_pair(struct pair *p)
{
	for (int i = 0; i < 2; i++) {
		if (p->ping[i] >= 0)
			close(p->ping[i]);
		if (p->pong[i] >= 0)
			close(p->pong[i]);
	}
}

/* Wait for SIGINT/SIGTERM or the run time; they are blocked in all threads. */
static void wait_for_end(const struct options *opt, const sigset_t *sigs)
{
	struct timespec ts;
	int sig;

	if (!opt->seconds) {
		while (sigwait(sigs, &sig))
			;
		return;
	}
	ts.tv_sec = (time_t)opt->seconds;
	ts.tv_nsec = (long)((opt->seconds - (double)ts.tv_sec) * 1e9);
	for (;;) {
		sig = sigtimedwait(sigs, NULL, &ts);
		if (sig >= 0 || errno == EAGAIN)
			return;
		/* EINTR: some other signal; wait for what is left. */
	}
}

static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

static void print_report(const struct options *opt, const struct pair *pairs,
			 unsigned int nr_pairs, uint64_t elapsed_ns,
			 uint64_t system_ctxt)
{
	uint64_t total = 0, task_total = 0;
	unsigned int i = 0;

	if (!opt->quiet) {
		printf("loadgen: %u CPU%s, %u %s pair%s per CPU, %s",
		       opt->nr_cpus, opt->nr_cpus == 1 ? "" : "s", opt->pairs,
		       opt->mode == MODE_PIPE ? "pipe" : "futex",
		       opt->pairs == 1 ? "" : "s",
		       opt->rate ? "paced" : "flat out");
		if (opt->rate)
			printf(" at %" PRIu64 " switches/s per CPU", opt->rate);
		printf(", %.3f s\n", (double)elapsed_ns / 1e9);
		printf("%4s %14s %12s %14s %12s\n", "cpu", "switches",
		       "switches/s", "task_ctxt", "task_ctxt/s");
	}
	while (i < nr_pairs) {
		uint64_t sw = 0, ctxt = 0;
		int cpu = pairs[i].cpu;

		for (; i < nr_pairs && pairs[i].cpu == cpu; i++) {
			sw += 2 * pairs[i].round_trips;
			ctxt += pairs[i].ctxt[0] + pairs[i].ctxt[1];
		}
		total += sw;
		task_total += ctxt;
		if (!opt->quiet)
			printf("%4d %14" PRIu64 " %12.0f %14" PRIu64 " %12.0f\n",
			       cpu, sw, per_sec(sw, elapsed_ns),
			       ctxt, per_sec(ctxt, elapsed_ns));
	}
	if (!opt->quiet) {
		printf("%4s %14" PRIu64 " %12.0f %14" PRIu64 " %12.0f\n", "all",
		       total, per_sec(total, elapsed_ns),
		       task_total, per_sec(task_total, elapsed_ns));
		printf("system-wide (/proc/stat ctxt): %" PRIu64 " switches, %.0f/s\n",
		       system_ctxt, per_sec(system_ctxt, elapsed_ns));
	}
	printf("total_switches=%" PRIu64 " elapsed_ns=%" PRIu64
	       " task_ctxt=%" PRIu64 " system_ctxt=%" PRIu64 "\n",
	       total, elapsed_ns, task_total, system_ctxt);
}

/* lgd-CPU-N and lge-CPU-N (a name is at most 15 characters). */
static void name_threads(struct pair *p, unsigned int n)
{
	char name[32];

	/* CPU < CPU_SETSIZE and n < MAX_PAIRS: it fits in 15 */
	snprintf(name, sizeof(name), "lgd-%d-%u", p->cpu % CPU_SETSIZE,
		 n % MAX_PAIRS);
	pthread_setname_np(p->driver, name);
	name[2] = 'e';
	pthread_setname_np(p->echo, name);
}

int main(int argc, char **argv)
{
	struct options opt;
	struct shared sh;
	struct pair *pairs;
	unsigned int nr_pairs, i = 0;
	uint64_t ctxt_before, elapsed_ns;
	sigset_t sigs;
	int err, status = 0;

	parse_options(argc, argv, &opt);

	/* Every thread inherits the blocked set; only sigwait() sees them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	nr_pairs = opt.nr_cpus * opt.pairs;
	pairs = calloc(nr_pairs, sizeof(*pairs));
	if (!pairs) {
		perror("loadgen: calloc");
		return 1;
	}
	atomic_init(&sh.stop, 0);
	pthread_barrier_init(&sh.ready, NULL, 2 * nr_pairs + 1);
	pthread_barrier_init(&sh.go, NULL, 2 * nr_pairs + 1);

	for (int cpu = 0; cpu < CPU_SETSIZE && i < nr_pairs; cpu++) {
		if (!CPU_ISSET(cpu, &opt.cpus))
			continue;
		for (unsigned int k = 0; k < opt.pairs; k++, i++) {
			err = setup_pair(&pairs[i], &sh, cpu, &opt);
			if (err) {
				fprintf(stderr, "loadgen: pipe: %s\n", strerror(-err));
				return 1;
			}
		}
	}
	for (i = 0; i < nr_pairs; i++) {
		err = pthread_create(&pairs[i].echo, NULL, echo_main, &pairs[i]);
		if (!err)
			err = pthread_create(&pairs[i].driver, NULL, driver_main,
					     &pairs[i]);
		if (err) {
			/* The threads started so far wait at the barrier. */
			fprintf(stderr, "loadgen: pthread_create: %s\n", strerror(err));
			return 1;
		}
		name_threads(&pairs[i], i % opt.pairs);
	}

	pthread_barrier_wait(&sh.ready);
	ctxt_before = system_ctxt_switches();
	sh.start_ns = now_ns();
	pthread_barrier_wait(&sh.go);
	wait_for_end(&opt, &sigs);
	atomic_store(&sh.stop, 1);
	futex(&sh.stop, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, 0);
	elapsed_ns = now_ns() - sh.start_ns;

	for (i = 0; i < nr_pairs; i++) {
		int e;

		pthread_join(pairs[i].driver, NULL);
		pthread_join(pairs[i].echo, NULL);
		e = pairs[i].error ? pairs[i].error : pairs[i].echo_error;
		if (e) {
			fprintf(stderr, "loadgen: CPU %d: %s\n", pairs[i].cpu,
				strerror(e));
			status = 1;
		}
		close_pair(&pairs[i]);
	}
	print_report(&opt, pairs, nr_pairs, elapsed_ns,
		     system_ctxt_switches() - ctxt_before);
	free(pairs);
	return status;
}

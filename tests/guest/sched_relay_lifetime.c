// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_lifetime - pins that sched_relay comes and goes safely while
 * it is used: with loadgen running on every CPU and readers attached to
 * every CPU's buffer (one reading with read(), one mapping it, one asleep
 * in poll()) and one polling 'generation', rmmod succeeds, each reader
 * learns its file is gone the documented way (read() fails with ENODEV,
 * the mapping faults with SIGBUS, poll() reports POLLERR) and exits, and
 * insmod brings everything back; a new geometry does the same to buffer
 * readers but not to the 'generation' poller.  Repeated several times.
 * The console staying free of kernel splats is checked by the .t script
 * and the host harness.
 *
 * Needs the module file, root, and /usr/bin/loadgen.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <setjmp.h>
#include <signal.h>

#include "sched_relay_test.h"

#define CYCLES		4
#define ATTACH_MS	400	/* attached readers work this long before the change */
#define READER_SECS	120	/* a reader that sees no removal gives up (the
				   debug kernel under TCG is slow) */

enum reader_mode { READ_LOOP, MMAP_LOOP, POLL_LOOP, NR_BUFFER_MODES, GEN_POLL };

static const char *const mode_names[] = {
	[READ_LOOP] = "read", [MMAP_LOOP] = "mmap", [POLL_LOOP] = "poll",
	[GEN_POLL] = "generation poll",
};

/* Reader exit statuses. */
enum {
	GONE_AS_DOCUMENTED = 0,
	OPEN_FAILED = 2,
	NO_DATA = 3,		/* removed before anything was seen */
	WRONG_ERROR = 4,
	TIMED_OUT = 5,		/* SIGALRM */
};

static sigjmp_buf bus_jmp;

/*
 * Readers say here, one byte each, that they are working: they hold their
 * file and have seen data through it (the first read() that returned
 * bytes, the first pass over the mapping that found a header).  "Attached"
 * right after open() or mmap() would let the change come before the
 * reader had looked once, and it would then end with NO_DATA.
 */
static int attached_pipe[2];

static void attached(void)
{
	char c = 1;

	if (write(attached_pipe[1], &c, 1) != 1)
		_exit(OPEN_FAILED);
}

/*
 * Wait until @n readers are attached, so that the change comes while they
 * hold their files however slow the kernel (a debug kernel under TCG
 * takes seconds to start a process); then let them work ATTACH_MS.
 */
static void wait_attached(int n)
{
	struct pollfd pfd = { .fd = attached_pipe[0], .events = POLLIN };
	char c;

	while (n > 0 && poll(&pfd, 1, READER_SECS * 1000) == 1 &&
	       read(attached_pipe[0], &c, 1) == 1)
		n--;
	if (n)
		test_msg("%d readers did not attach", n);
	usleep(ATTACH_MS * 1000);
}

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

static int read_loop(int fd)
{
	static char buf[65536];
	size_t got = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			return errno == ENODEV ? (got ? GONE_AS_DOCUMENTED : NO_DATA) :
			       WRONG_ERROR;
		if (n > 0 && !got)
			attached();
		got += (size_t)n;
		if (!n)
			usleep(2000);
	}
}

static int mmap_loop(int fd, size_t size, size_t n_subbufs)
{
	volatile const unsigned char *map;
	volatile uint64_t sum = 0;
	volatile bool seen = false;	/* survives siglongjmp() */
	volatile bool said = false;	/* attached() was called */

	map = mmap(NULL, size * n_subbufs, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return OPEN_FAILED;
	signal(SIGBUS, on_sigbus);
	if (sigsetjmp(bus_jmp, 1))
		return seen ? GONE_AS_DOCUMENTED : NO_DATA;
	for (;;) {
		for (size_t i = 0; i < n_subbufs; i++) {
			const volatile struct sched_relay_header *h =
				(const volatile void *)(map + i * size);

			if (h->magic == SCHED_RELAY_MAGIC)
				seen = true;
			/* Touch every page, as a parser would. */
			for (size_t off = 0; off < size; off += 4096)
				sum += map[i * size + off];
		}
		if (seen && !said) {
			attached();
			said = true;
		}
		usleep(2000);
	}
}

static int poll_loop(int fd)
{
	static char buf[65536];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		if (poll(&pfd, 1, -1) < 0)
			return WRONG_ERROR;
		if (pfd.revents & POLLERR)
			return GONE_AS_DOCUMENTED;
		/* Consume, so that the next poll() sleeps again. */
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	}
}

/* Wait for 'generation' to go away; wake-ups for changes keep it going. */
static int generation_loop(void)
{
	char path[128], buf[64];
	struct pollfd pfd = { .events = POLLPRI | POLLERR };

	pfd.fd = open(sr_path("generation", path, sizeof(path)), O_RDONLY);
	if (pfd.fd < 0 || read(pfd.fd, buf, sizeof(buf)) <= 0)
		return OPEN_FAILED;
	attached();
	for (;;) {
		if (poll(&pfd, 1, -1) < 0)
			return WRONG_ERROR;
		if (pread(pfd.fd, buf, sizeof(buf), 0) < 0)
			return errno == ENODEV ? GONE_AS_DOCUMENTED : WRONG_ERROR;
	}
}

static int reader_main(enum reader_mode mode, int cpu)
{
	size_t size = sr_read_u64("subbuf_size");
	size_t n = sr_read_u64("n_subbufs");
	int fd;

	alarm(READER_SECS);
	if (mode == GEN_POLL)
		return generation_loop();
	fd = sr_open_buffer(cpu, mode == READ_LOOP || mode == POLL_LOOP ?
			    O_RDONLY | O_NONBLOCK : O_RDONLY);
	if (fd < 0)
		return OPEN_FAILED;
	if (mode == POLL_LOOP)
		attached();	/* the others once they have seen data */
	switch (mode) {
	case READ_LOOP:
		return read_loop(fd);
	case MMAP_LOOP:
		return mmap_loop(fd, size, n);
	default:
		return poll_loop(fd);
	}
}

struct reader {
	pid_t pid;
	enum reader_mode mode;
	int cpu;
};

static pid_t start_reader(enum reader_mode mode, int cpu)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(reader_main(mode, cpu));
	return pid;
}

/* One reader of each buffer mode on every CPU. */
static int start_buffer_readers(struct reader *r, int nr_cpus)
{
	int n = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (int mode = 0; mode < NR_BUFFER_MODES; mode++) {
			r[n].mode = mode;
			r[n].cpu = cpu;
			r[n].pid = start_reader(mode, cpu);
			n++;
		}
	}
	return n;
}

/* Each reader must end the documented way; false if one did not. */
static bool reap(struct reader *r, int n)
{
	bool ok = true;

	for (int i = 0; i < n; i++) {
		int status = sr_wait(r[i].pid);

		if (status != GONE_AS_DOCUMENTED) {
			test_msg("%s reader of cpu%d ended with %d%s", mode_names[r[i].mode],
				 r[i].cpu, status,
				 status == 128 + SIGALRM ? " (timed out)" : "");
			ok = false;
		}
	}
	return ok;
}

static void test_cycles(void)
{
	struct reader r[3 * SR_MAX_CPUS + 1], gen;
	int nr_cpus, n, ret, status;
	pid_t lg, gone;

	if (!check_int(pipe(attached_pipe), ==, 0))
		return;
	lg = sr_loadgen(NULL, "5000", "600");
	for (int cycle = 0; cycle < CYCLES; cycle++) {
		ret = sr_load(NULL);
		if (!check_int(ret, ==, 0))
			break;
		nr_cpus = sr_nr_buffers();
		check_int(nr_cpus, >, 0);
		gen.mode = GEN_POLL;
		gen.cpu = -1;
		gen.pid = start_reader(GEN_POLL, 0);
		n = start_buffer_readers(r, nr_cpus);
		wait_attached(n + 1);

		if (cycle % 2) {
			/* New geometry: buffer readers go, the poller stays. */
			if (!check(sr_set("subbuf_size", cycle == 1 ? "8192" : "16384")) ||
			    !check(reap(r, n)))
				test_msg("cycle %d: re-creating the channel", cycle);
			gone = waitpid(gen.pid, NULL, WNOHANG);
			if (!check_int(gone, ==, 0))
				test_msg("the generation poller ended on a re-creation");
			n = start_buffer_readers(r, sr_nr_buffers());
			wait_attached(n);
		}

		ret = sr_unload();
		if (!check_int(ret, ==, 0))
			break;
		check(access(SR_DIR, F_OK) == -1);
		if (!check(reap(r, n)) || !check(reap(&gen, 1)))
			test_msg("cycle %d: unloading", cycle);
	}
	kill(lg, SIGTERM);
	status = sr_wait(lg);
	check_int(status, ==, 0);
}

static void test_loads_again(void)
{
	char buf[64];
	int ret;

	ret = sr_load(NULL);
	if (!check_int(ret, ==, 0))
		return;
	check_str(sr_value("enabled", buf, sizeof(buf)), "1");
	check_uint(sr_read_u64("generation"), ==, 1);
	check_int(sr_nr_buffers(), ==, sysconf(_SC_NPROCESSORS_ONLN));
	ret = sr_unload();
	check_int(ret, ==, 0);
}

static void test_bad_parameters(void)
{
	static const char *const bad[] = {
		"subbuf_size=4097", "subbuf_size=2048", "n_subbufs=1",
		"n_subbufs=257", "events=128",
	};

	char buf[64];
	int ret;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ret = sr_load(bad[i]);
		if (!check_int(ret, !=, 0))
			test_msg("insmod with %s succeeded", bad[i]);
		check(access(SR_DIR, F_OK) == -1);
		sr_unload();
	}
	ret = sr_load("subbuf_size=8192 n_subbufs=4 overwrite=1 events=0x11");
	if (!check_int(ret, ==, 0))
		return;
	check_uint(sr_read_u64("subbuf_size"), ==, 8192);
	check_uint(sr_read_u64("n_subbufs"), ==, 4);
	check_uint(sr_read_u64("overwrite"), ==, 1);
	check_str(sr_value("events", buf, sizeof(buf)), "switch fork");
	ret = sr_unload();
	check_int(ret, ==, 0);
}

int main(void)
{
	sr_unload();
	TEST(test_cycles(),
	     "rmmod and re-creation under load with read/mmap/poll readers attached");
	TEST(test_loads_again(), "after the cycles it loads as new");
	TEST(test_bad_parameters(), "bad module parameters fail the load; good ones apply");
	return test_done();
}

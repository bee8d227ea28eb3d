// SPDX-License-Identifier: GPL-2.0
/*
 * relay_faults.c - relay channels in sysfs under faults and races
 *
 * Pins what the kernel series promises when things go wrong around a
 * channel (driven by tests/modules/relay_test.ko; one TEST per defect of
 * issue 12, each failed on the series before the fix, as noted):
 *
 *  - read_fault: a read() whose copy to user space faults loses nothing:
 *    one that can copy nothing fails with EFAULT and consumes nothing, one
 *    that faults part of the way returns the part it copied, and the next
 *    read() goes on from there; poll() still says POLLIN.  Before: the
 *    first read() (EFAULT) consumed sub-buffer 0 anyway; the next one
 *    returned record 64, poll() said nothing was ready, and the stream
 *    held 0 of the 65 records it should have.
 *  - reset_storm: relay_reset() excludes the consumers of every buffer.  A
 *    no-overwrite channel under a storm of resets and hand-backs (60 s,
 *    the module's "storm"; it stops at the first violation) keeps
 *    produced >= consumed and at most n_subbufs ready on every CPU, and
 *    keeps accepting records.  Before: a violation within the 20 s (1662
 *    resets: cpu 0 had produced 0, consumed 27673, so relay_buf_full()
 *    wrapped and the buffer dropped everything until the next reset).
 *  - hotplug_clash: a CPU comes online although its buffer file cannot be
 *    created (a name clash); the buffer works without its file and the
 *    log says so in one line; once the name is free, the CPU's next
 *    online makes the file, with the records written meanwhile.  Before:
 *    writing 1 to cpu3/online failed with ENOMEM, after a stack dump from
 *    sysfs_warn_dup() and "relay: cpu 3 buffer creation failed"; then
 *    (series v2) the file never came until the channel was re-created.
 *  - open_hotplug_race: relay_open() (a new geometry) racing a CPU coming
 *    online gives that CPU a buffer and a file.  Before: relay_open()
 *    finished inside the window and cpu3 came online with neither (a
 *    write on it would have dereferenced NULL).
 *  - orphan_remove: removing a relay attribute after its kobject's
 *    directory was removed touches no freed kernfs node and prints
 *    nothing.  Before: an oops (NULL pointer dereference in
 *    rwsem_write_trylock() from kernfs_remove() in
 *    sysfs_relay_remove_file(): the node had been freed with the
 *    directory; KASAN would call it a use-after-free).
 *  - hotplug_gone_dir: a CPU comes online under a channel whose kobject
 *    directory was already removed.  Before: an oops in kernfs_new_node()
 *    (kobj->sd was NULL) from relay_prepare_cpu(), which killed the
 *    write to cpu3/online.
 *
 * Tests wait for conditions (with generous deadlines), never for time;
 * the storm runs for a fixed, short time on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test-lib.h"
#include "../modules/relay_test.h"
#include "relay_test_lib.h"

#define STORM_SECS	60

static unsigned int cpus[MAX_CPUS];
static unsigned int ncpus;

/* --- helpers of this test (shared ones: relay_test_lib.h) --------------- */

static bool fresh(unsigned int size, unsigned int n, int mode)
{
	int ret = ctl("geometry", "%u %u %d\n", size, n, mode);

	return check_int(ret, ==, 0);
}

static bool put(unsigned int cpu, unsigned long count, unsigned int size)
{
	int ret = ctl("write", "%u %lu %u write\n", cpu, count, size);

	if (ret)
		test_msg("write %u %lu %u: %s", cpu, count, size,
			 strerror(-ret));
	return check_int(ret, ==, 0);
}

static int set_online(unsigned int cpu, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	return write_file(path, on ? "1\n" : "0\n");
}

static bool buf_file_exists(unsigned int cpu)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), BUF_DIR "/cpu%u", cpu);
	return stat(path, &st) == 0;
}

/* Kernel log lines that contain @needle. */
static int log_count(const char *needle)
{
	static char log[1 << 20];
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	int n = 0;
	char *p, *nl;

	if (len < 0)
		return -1;
	log[len] = '\0';
	for (p = log; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (memmem(p, nl - p, needle, strlen(needle)))
			n++;
		if (!*nl)
			break;
	}
	return n;
}

/* Splats in the kernel log: "WARNING:", "BUG:", "Call Trace:". */
static int log_splats(void)
{
	return log_count("WARNING:") + log_count("BUG:") +
	       log_count("Call Trace:");
}

/* --- the tests ------------------------------------------------------------ */

static void test_read_fault(void)
{
	static uint8_t data[65536];
	unsigned int cpu = cpus[ncpus > 1 ? 1 : 0];
	struct pollfd pfd = { .events = POLLIN };
	char path[64];
	uint8_t *area;
	ssize_t n, got;
	long r;

	/* 65 records: sub-buffer 0 (64 records) is ready, one is pending */
	if (!fresh(4096, 4, 0) || !put(cpu, 65, 64))
		return;
	snprintf(path, sizeof(path), BUF_DIR "/cpu%u", cpu);
	pfd.fd = open(path, O_RDONLY);
	if (!check_int(pfd.fd, >=, 0))
		return;
	/* two pages: the second is not accessible */
	area = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!check(area != MAP_FAILED))
		goto out;
	r = mprotect(area + PAGE, PAGE, PROT_NONE);
	check_int(r, ==, 0);

	errno = 0;
	r = read(pfd.fd, area + PAGE, PAGE);
	check_int(r, ==, -1);
	check_int(errno, ==, EFAULT);
	/* what the failed read held is still ready */
	r = poll(&pfd, 1, 0);
	check_int(r, ==, 1);
	check(pfd.revents & POLLIN);
	/* straddling: the first 640 bytes fit and are what it returns */
	got = read(pfd.fd, area + PAGE - 640, PAGE);
	check_int(got, ==, 640);
	if (got > 0)
		memcpy(data, area + PAGE - 640, got);
	else
		got = 0;
	/* a smaller read, then the rest: the same stream from seq 0 */
	n = read(pfd.fd, data + got, 100);
	check_int(n, ==, 100);
	if (n > 0)
		got += n;
	n = read_all(pfd.fd, data + got, sizeof(data) - got, 1000, NULL);
	if (check_int(n, >=, 0))
		stream_ok(data, got + n, cpu, 0, 65, 64);
	munmap(area, 2 * PAGE);
out:
	close(pfd.fd);
}

static void test_reset_storm(void)
{
	unsigned long secs = 0, resets = 0, handbacks = 0, violations = 1;
	unsigned long long events = 0, full = 0, produced = 0, consumed = 0;
	struct cpu_stats st;
	unsigned int i;
	int vcpu = -1, r;

	/* a switch per record: 64-byte sub-buffers, 4 of them, no-overwrite */
	if (!fresh(64, 4, 0))
		return;
	r = ctl("storm", "%u\n", STORM_SECS);
	if (!check_int(r, ==, 0))
		return;
	sscanf(ctl_read("storm"), "%lu %lu %lu %llu %llu %lu %d %llu %llu",
	       &secs, &resets, &handbacks, &events, &full, &violations, &vcpu,
	       &produced, &consumed);
	test_msg("storm: %lu s, %lu resets, %lu hand-backs, %llu records in, %llu dropped full",
		 secs, resets, handbacks, events, full);
	if (violations)
		test_msg("first violation: cpu %d produced %llu consumed %llu",
			 vcpu, produced, consumed);
	check_uint(violations, ==, 0);
	check_uint(resets, >, 0);
	check_uint(handbacks, >, 0);
	check_uint(events, >, 0);

	/* afterwards every buffer takes 4 records and drops nothing */
	for (i = 0; i < ncpus; i++) {
		if (!put(cpus[i], 4, 64) || !check(get_stats("stats", cpus[i], &st)))
			continue;
		check_uint(st.events, ==, 4);
		check_uint(st.refused, ==, 0);
		check_uint(st.produced, >=, st.consumed);
	}
}

static void test_hotplug_clash(void)
{
	unsigned int cpu = cpus[ncpus - 1];
	char needle[64];
	struct cpu_stats st;
	int r, before, splats;

	if (ncpus < 2) {
		test_msg("needs two CPUs");
		return;
	}
	snprintf(needle, sizeof(needle), "/cpu%u: no file (error ", cpu);
	before = log_count(needle);
	splats = log_splats();
	if (!check(set_online(cpu, 0) == 0))
		return;
	if (!fresh(4096, 4, 0))
		goto out_online;
	r = ctl("clash", "%u\n", cpu);
	if (!check_int(r, ==, 0))
		goto out_online;

	r = set_online(cpu, 1);
	if (r)
		test_msg("cpu%u/online: %s", cpu, strerror(-r));
	check_int(r, ==, 0);
	/* the buffer is there and takes records, without its file */
	if (check(get_stats("stats", cpu, &st)) && put(cpu, 10, 64) &&
	    check(get_stats("stats", cpu, &st)))
		check_uint(st.events, ==, 10);
	check_int(log_count(needle), ==, before + 1);
	check_int(log_splats(), ==, splats);

	r = ctl("clash", "-1\n");
	check_int(r, ==, 0);
	/*
	 * The file is tried again when the CPU next comes online: it appears
	 * for the same channel, and the records written while it had no
	 * file are there to read, each once.
	 */
	check(!buf_file_exists(cpu));
	if (check(set_online(cpu, 0) == 0) && check(set_online(cpu, 1) == 0) &&
	    check(buf_file_exists(cpu))) {
		uint8_t data[20 * 64];
		char path[64];
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), BUF_DIR "/cpu%u", cpu);
		fd = open(path, O_RDONLY);
		if (check_int(fd, >=, 0)) {
			/* the last sub-buffer is the one being filled */
			n = read_all(fd, data, sizeof(data), sizeof(data), NULL);
			if (check_int(n, >=, 0))
				stream_ok(data, n, cpu, 0, 10, 64);
			close(fd);
		}
	}
	check_int(log_count(needle), ==, before + 1);
out_online:
	ctl("clash", "-1\n");
	set_online(cpu, 1);
}

/*
 * A CPU comes online while the debugfs channel's file for it cannot be
 * created: relay_prepare_cpu() fails the online, and must clear only
 * that CPU's buffer slot.  CPU 0's buffer then still takes records; had
 * its slot been cleared, relay_write() on CPU 0 would dereference NULL.
 * The CPU must have no buffer yet, so the module is loaded again while
 * it is offline (relay keeps the buffers of CPUs that go offline).
 */
static void test_dbg_file_fails(void)
{
	unsigned int cpu = cpus[ncpus - 1], first = cpus[0];
	struct cpu_stats before, after;
	int r, splats;

	if (ncpus < 2) {
		test_msg("needs two CPUs");
		return;
	}
	splats = log_splats();
	if (!check(set_online(cpu, 0) == 0))
		return;
	if (!check_int(system("rmmod relay_test && insmod /lib/modules/relay_test.ko"),
		       ==, 0))
		goto out;
	if (!check_int(ctl("dbg_fail", "%u\n", cpu), ==, 0))
		goto out;
	r = set_online(cpu, 1);
	test_msg("cpu%u/online with its debugfs file failing: %s", cpu,
		 r ? strerror(-r) : "online");
	/* relay fails the CPU's prepare step: the CPU stays offline */
	check_int(r, !=, 0);
	check_int(ctl("dbg_fail", "-1\n"), ==, 0);
	if (check(get_stats("debugfs_stats", first, &before)) &&
	    check_int(ctl("debugfs_write", "%u 10 64\n", first), ==, 0) &&
	    check(get_stats("debugfs_stats", first, &after)))
		check_uint(after.events + after.refused,
			   ==, before.events + before.refused + 10);
	/* and the CPU comes online once its file can be made */
	check_int(set_online(cpu, 1), ==, 0);
	if (check(get_stats("debugfs_stats", cpu, &after)))
		check_uint(after.events, ==, 0);
	check_int(log_splats(), ==, splats);
out:
	ctl("dbg_fail", "-1\n");
	set_online(cpu, 1);
}

static void test_open_hotplug_race(void)
{
	unsigned int cpu = cpus[ncpus - 1];
	char state[32] = "";
	int inside = -1, err = -1, r;
	struct cpu_stats st;
	double deadline;

	if (ncpus < 2) {
		test_msg("needs two CPUs");
		return;
	}
	if (!check(set_online(cpu, 0) == 0))
		return;
	if (!fresh(4096, 4, 0))
		goto out_online;
	r = ctl("hotplug_race", "%u\n", cpu);
	if (!check_int(r, ==, 0))
		goto out_online;
	r = set_online(cpu, 1);
	check_int(r, ==, 0);

	/* the re-creation may still be waiting for the hotplug to end */
	deadline = now() + 120;
	while (now() < deadline) {
		sscanf(ctl_read("hotplug_race"), "%31s %d %d", state, &inside,
		       &err);
		if (!strcmp(state, "done"))
			break;
		sleep_ms(20);
	}
	check_str(state, "done");
	check_int(err, ==, 0);
	test_msg("relay_open() %s while cpu%u came up", inside ?
		 "finished" : "waited", cpu);
	check(buf_file_exists(cpu));
	/* only write where there is a buffer: relay_write() would oops */
	if (check(get_stats("stats", cpu, &st)) && put(cpu, 10, 64) &&
	    check(get_stats("stats", cpu, &st)))
		check_uint(st.events, ==, 10);
out_online:
	set_online(cpu, 1);
}

static void test_hotplug_gone_dir(void)
{
	unsigned int cpu = cpus[ncpus - 1], nbufs = 0;
	char state[32] = "";
	int r, splats;

	if (ncpus < 2) {
		test_msg("needs two CPUs");
		return;
	}
	splats = log_splats();
	if (!check(set_online(cpu, 0) == 0))
		return;
	r = ctl("orphan", "create\n");
	if (!check_int(r, ==, 0))
		goto out_online;
	r = ctl("orphan", "del\n");
	check_int(r, ==, 0);
	r = set_online(cpu, 1);
	if (r)
		test_msg("cpu%u/online: %s", cpu, strerror(-r));
	check_int(r, ==, 0);
	sscanf(ctl_read("orphan"), "%31s %u", state, &nbufs);
	check_str(state, "deleted");
	check_uint(nbufs, ==, ncpus);
	check_int(log_splats(), ==, splats);
out_online:
	set_online(cpu, 1);
}

static void test_orphan_remove(void)
{
	int r, splats = log_splats();

	/* left over by the previous test, or a fresh one */
	if (strncmp(ctl_read("orphan"), "deleted", 7)) {
		ctl("orphan", "remove\n");
		r = ctl("orphan", "create\n");
		check_int(r, ==, 0);
		r = ctl("orphan", "del\n");
		check_int(r, ==, 0);
	}
	r = ctl("orphan", "remove\n");
	check_int(r, ==, 0);
	check_str(ctl_read("orphan"), "none 0");
	check_int(log_splats(), ==, splats);
	/* the channel of the module still works */
	if (fresh(4096, 4, 0))
		put(cpus[0], 10, 64);
}

/* With arguments, run only the tests named (read_fault, reset_storm, ...). */
static int want_argc;
static char **want_argv;

static bool want(const char *name)
{
	int i;

	for (i = 1; i < want_argc; i++)
		if (!strcmp(want_argv[i], name))
			return true;
	return want_argc < 2;
}

int main(int argc, char **argv)
{
	want_argc = argc;
	want_argv = argv;
	ncpus = online_cpus(cpus);
	if (ncpus == 0 || access(CTL_DIR "/storm", W_OK)) {
		printf("# relay_test is not loaded or no CPU is online\n");
		printf("not ok 1 - setup\n1..1\n0 passed, 1 failed\n");
		return 1;
	}
	test_msg("%u CPUs online", ncpus);

	if (want("read_fault"))
		TEST(test_read_fault(), "a read() that faults loses nothing: it returns what it copied (EFAULT for none), and the next read() goes on from there");
	if (want("reset_storm"))
		TEST(test_reset_storm(), "resets racing hand-backs keep produced >= consumed and records flowing (" TEST__STR(STORM_SECS) " s)");
	if (want("dbg_file_fails"))
		TEST(test_dbg_file_fails(), "a debugfs buffer file that cannot be created fails the CPU's online and leaves CPU 0's buffer alone");
	if (want("hotplug_clash"))
		TEST(test_hotplug_clash(), "a CPU comes online although its file cannot be created, one log line says so, and the file comes at its next online with the records written meanwhile");
	if (want("open_hotplug_race"))
		TEST(test_open_hotplug_race(), "relay_open() racing a CPU coming online gives that CPU a buffer and a file");
	if (want("hotplug_gone_dir"))
		TEST(test_hotplug_gone_dir(), "a CPU comes online under a channel whose directory is gone");
	if (want("orphan_remove"))
		TEST(test_orphan_remove(), "removing a channel after its directory went touches no freed node");

	ctl("geometry", "4096 4 0\n");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_poll - pins the notifications of /sys/kernel/sched_relay:
 * poll() with POLLPRI|POLLERR on 'generation', and on the file that
 * changed, wakes after a reset and after each change of enabled, events,
 * overwrite, subbuf_size and n_subbufs made by another process, and
 * generation then reads one higher; a refused write and a write of the
 * current value wake nobody, and with no change poll() sleeps.
 *
 * Needs the module loaded and root.
 */
#define _GNU_SOURCE
#include <poll.h>

#include "sched_relay_test.h"

#define WAKE_MS		5000	/* a wake-up must come within this */
#define QUIET_MS	300	/* no wake-up may come within this */

/* Open @name and read it once, so that poll() waits for the next change. */
static int open_armed(const char *name)
{
	char path[128], buf[4096];
	int fd = open(sr_path(name, path, sizeof(path)), O_RDONLY);

	if (fd >= 0 && read(fd, buf, sizeof(buf)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* After a short delay, in another process, write @val to @file. */
static pid_t write_later(const char *file, const char *val)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		usleep(100 * 1000);
		_exit(sr_write(file, val) ? 1 : 0);
	}
	return pid;
}

/*
 * Poll 'generation' and @watch while another process writes @val to @file;
 * both must wake.
 */
static void check_wakes(const char *file, const char *val, const char *watch)
{
	struct pollfd pfd[2] = {
		{ .fd = open_armed("generation"), .events = POLLPRI | POLLERR },
		{ .fd = open_armed(watch), .events = POLLPRI | POLLERR },
	};
	uint64_t gen = sr_read_u64("generation");
	uint64_t t0 = sr_now_ns();
	pid_t writer;
	int n, status;

	if (!check_int(pfd[0].fd, >=, 0) || !check_int(pfd[1].fd, >=, 0))
		goto out;
	writer = write_later(file, val);
	n = poll(pfd, 2, WAKE_MS);
	if (n == 1) {
		/* One woke first; the other must follow at once. */
		struct pollfd *other = pfd[0].revents ? &pfd[1] : &pfd[0];

		n += poll(other, 1, WAKE_MS);
	}
	status = sr_wait(writer);
	if (!check_int(status, ==, 0))
		test_msg("writing '%s' to %s failed", val, file);
	if (!check_int(n, ==, 2))
		test_msg("poll woke %d of 2 files after writing '%s' to %s", n,
			 val, file);
	check_int(pfd[0].revents & (POLLPRI | POLLERR), ==, POLLPRI | POLLERR);
	check_int(pfd[1].revents & (POLLPRI | POLLERR), ==, POLLPRI | POLLERR);
	check_uint(sr_read_u64("generation"), ==, gen + 1);
	test_msg("%s=%s: woke after %" PRIu64 " ms", file, val,
		 (sr_now_ns() - t0) / 1000000);
out:
	if (pfd[0].fd >= 0)
		close(pfd[0].fd);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
}

/* Poll 'generation' while another process writes @val to @file: no wake. */
static void check_sleeps(const char *file, const char *val, bool write_fails)
{
	struct pollfd pfd = {
		.fd = open_armed("generation"), .events = POLLPRI | POLLERR,
	};
	pid_t writer = -1;
	int n, status;

	if (!check_int(pfd.fd, >=, 0))
		return;
	if (file)
		writer = write_later(file, val);
	n = poll(&pfd, 1, QUIET_MS + 100);
	if (!check_int(n, ==, 0))
		test_msg("woken by writing '%s' to %s", val ? val : "", file ? file : "nothing");
	if (file) {
		status = sr_wait(writer);
		check_int(status, ==, write_fails ? 1 : 0);
	}
	close(pfd.fd);
}

static void test_reset_wakes(void)
{
	check_wakes("reset", "1", "stats/produced");
	check_wakes("reset", "1", "stats/dropped");
	check_wakes("reset", "1", "stats/fill_bytes");
}

static void test_enabled_wakes(void)
{
	check_wakes("enabled", "0", "enabled");
	check_wakes("enabled", "1", "enabled");
}

static void test_events_wakes(void)
{
	check_wakes("events", "switch", "events");
	check_wakes("events", "all", "events");
}

static void test_overwrite_wakes(void)
{
	check_wakes("overwrite", "1", "overwrite");
	check_wakes("overwrite", "0", "overwrite");
}

static void test_geometry_wakes(void)
{
	check_wakes("subbuf_size", "8192", "subbuf_size");
	check_wakes("n_subbufs", "4", "n_subbufs");
	check_wakes("subbuf_size", "65536", "subbuf_size");
	check_wakes("n_subbufs", "8", "n_subbufs");
}

static void test_no_change_no_wake(void)
{
	check_sleeps(NULL, NULL, false);
	check_sleeps("enabled", "1", false);
	check_sleeps("n_subbufs", "8", false);
	check_sleeps("enabled", "2", true);
	check_sleeps("subbuf_size", "1000", true);
}

int main(void)
{
	if (sr_load(NULL)) {
		printf("# cannot load %s\n", SR_MODULE);
		return 1;
	}
	sr_set("enabled", "1");
	sr_set("events", "all");
	sr_set("overwrite", "0");
	sr_set("subbuf_size", "65536");
	sr_set("n_subbufs", "8");

	TEST(test_reset_wakes(), "poll() on generation and stats wakes after reset");
	TEST(test_enabled_wakes(), "poll() on generation and enabled wakes after each change");
	TEST(test_events_wakes(), "poll() on generation and events wakes after each change");
	TEST(test_overwrite_wakes(), "poll() on generation and overwrite wakes after each change");
	TEST(test_geometry_wakes(),
	     "poll() on generation and subbuf_size/n_subbufs wakes after each re-creation");
	TEST(test_no_change_no_wake(),
	     "no wake-up without a change: idle, same value, refused value");
	return test_done();
}

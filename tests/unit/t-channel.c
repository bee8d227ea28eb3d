// SPDX-License-Identifier: GPL-2.0
/*
 * t-channel.c - pins relaytop/channel.c on a fake channel directory: the
 * cpuN buffer files are found (and nothing else: cpu01, cpufreq, cpuX),
 * in CPU order, mapped read-only at the channel's size; a directory
 * without buffers, or a geometry relaytop cannot follow, gives an error
 * naming it; hand-back writes the ASCII count "N\n" to the buffer file,
 * and only to one the kernel serves (sysfs, debugfs, tracefs): a plain
 * file's cpuN (this fake channel, a copy of a channel) is opened read-only
 * and never written, where "N\n" would land in its records;
 * poll lists skip idle buffers; and when a mapped buffer disappears
 * (truncated here, removed by kernfs in the kernel) the SIGBUS guard
 * brings the reader back instead of killing it, and leaves the signal
 * mask as it was (saving none).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "fake-channel.h"
#include "test-lib.h"

static void touch(const char *dir, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	close(open(path, O_CREAT | O_WRONLY, 0600));
}

static void test_finds_buffers(void)
{
	struct fake_channel fc;
	struct channel ch;
	struct subbuf_geometry g = { 4096, 4 };
	char err[256] = "";
	int rc;

	if (!check(fake_channel_create(&fc, 3, 4096, 4, false)))
		return;
	touch(fc.dir, "cpu01");
	touch(fc.dir, "cpufreq");
	touch(fc.dir, "cpuX");
	rc = channel_open(&ch, fc.dir, &g, err, sizeof(err));
	check_int(rc, ==, 0);
	check_str(err, "");
	check_uint(ch.n, ==, 3);
	check_uint(ch.max_cpu, ==, 3);
	for (unsigned int i = 0; i < ch.n; i++) {
		check_uint(ch.cpus[i].cpu, ==, i);
		/* the buffer and relay's meta area, a page, after it */
		check_uint(ch.cpus[i].map_len, ==, 4 * 4096 + 4096);
		check((const unsigned char *)ch.cpus[i].reader.meta ==
		      (const unsigned char *)ch.cpus[i].map + 4 * 4096);
	}
	check(channel_cpu(&ch, 2) == &ch.cpus[2]);
	check(channel_cpu(&ch, 7) == NULL);
	/* the mapping shows what the producer writes */
	fake_relay_events(&fc.relay[1], 3);
	check(subbuf_reader_sync(&ch.cpus[1].reader));
	check_uint(((struct sched_relay_header *)ch.cpus[1].map)->committed, ==,
		   64 + 3 * 64);
	channel_close(&ch);
	fake_channel_destroy(&fc);
}

static void test_errors(void)
{
	struct fake_channel fc;
	struct channel ch;
	struct subbuf_geometry g = { 4096, 4 }, odd = { 100, 4 };
	char err[256], path[128];
	int rc;

	rc = channel_open(&ch, "/nonexistent/dir", &g, err, sizeof(err));
	check_int(rc, ==, -ENOENT);
	check(strstr(err, "/nonexistent/dir/buffers: No such file") != NULL);
	if (!check(fake_channel_create(&fc, 1, 4096, 4, false)))
		return;
	rc = channel_open(&ch, fc.dir, &odd, err, sizeof(err));
	check_int(rc, ==, -EINVAL);
	check(strstr(err, "unusable geometry") != NULL);
	snprintf(path, sizeof(path), "%s/buffers/cpu0", fc.dir);
	unlink(path);
	rc = channel_open(&ch, fc.dir, &g, err, sizeof(err));
	check_int(rc, ==, -ENOENT);
	check(strstr(err, "no cpuN buffer files") != NULL);
	fake_channel_destroy(&fc);
}

static void test_give_back(void)
{
	char path[] = "/tmp/t-channel.XXXXXX", text[32] = "";
	struct channel_cpu cc = { .writable = true };
	int err;
	ssize_t n;

	cc.fd = mkstemp(path);
	err = channel_give_back(&cc, 3);
	check_int(err, ==, 0);
	err = channel_give_back(&cc, 12);
	check_int(err, ==, 0);
	n = pread(cc.fd, text, sizeof(text) - 1, 0);
	check_int(n, ==, 5);
	check_str(text, "3\n12\n");
	cc.writable = false;
	err = channel_give_back(&cc, 1);
	check_int(err, ==, -EBADF);
	close(cc.fd);
	unlink(path);
}

/*
 * The fake channel's cpuN are plain files: a hand-back written there would
 * overwrite the bytes at the file offset (the header of sub-buffer 0,
 * then its records) under the producer and the reader.
 */
static void test_plain_file_not_written(void)
{
	struct subbuf_geometry g = { .subbuf_size = 4096, .n_subbufs = 4 };
	struct fake_channel fc;
	struct channel ch;
	unsigned char before[64];
	char err[256];
	int rc;

	if (!check(fake_channel_create(&fc, 2, 4096, 4, true)))
		return;
	fake_relay_events(&fc.relay[0], 70);	/* sub-buffers 0 and 1 */
	memcpy(before, fc.map[0], sizeof(before));
	rc = channel_open(&ch, fc.dir, &g, err, sizeof(err));
	if (!check_int(rc, ==, 0)) {
		fake_channel_destroy(&fc);
		return;
	}
	check(ch.read_only);
	for (unsigned int i = 0; i < ch.n; i++) {
		check(!ch.cpus[i].writable);
		check_int(channel_give_back(&ch.cpus[i], 1), ==, -EBADF);
	}
	check(memcmp(before, fc.map[0], sizeof(before)) == 0);
	channel_close(&ch);
	fake_channel_destroy(&fc);
}

static void test_pollfds(void)
{
	struct fake_channel fc;
	struct channel ch;
	struct subbuf_geometry g = { 4096, 4 };
	struct pollfd pfd[4];
	unsigned int map[4], n;
	char err[256];

	if (!check(fake_channel_create(&fc, 3, 4096, 4, false)))
		return;
	channel_open(&ch, fc.dir, &g, err, sizeof(err));
	ch.cpus[1].idle = true;
	n = channel_pollfds(&ch, pfd, map, 4);
	check_uint(n, ==, 2);
	check_uint(map[0], ==, 0);
	check_uint(map[1], ==, 2);
	check_int(pfd[1].fd, ==, ch.cpus[2].fd);
	check_int(pfd[1].events, ==, POLLIN);
	channel_close(&ch);
	fake_channel_destroy(&fc);
}

static void touch_map(void *ctx, void *arg)
{
	const volatile unsigned char *p = ctx;

	(void)arg;
	(void)p[0];
}

/* Touch the mapping inside the guard; false when SIGBUS brought us back. */
static bool touch_guarded(const volatile unsigned char *p)
{
	return channel_guarded(touch_map, (void *)(uintptr_t)p, NULL);
}

/* The signal mask now. */
static sigset_t mask_now(void)
{
	sigset_t m;

	sigprocmask(SIG_BLOCK, NULL, &m);
	return m;
}

static void test_sigbus_guard(void)
{
	struct fake_channel fc;
	struct channel ch;
	struct subbuf_geometry g = { 4096, 4 };
	sigset_t after;
	char err[256];
	bool ok;

	if (!check(fake_channel_create(&fc, 1, 4096, 4, false)))
		return;
	channel_install_sigbus();
	channel_open(&ch, fc.dir, &g, err, sizeof(err));
	ok = touch_guarded(ch.cpus[0].map);
	check(ok);
	fake_channel_remove_buffers(&fc);	/* the mapping now faults */
	ok = touch_guarded(ch.cpus[0].map);
	check(!ok);
	check_int(channel_bus_armed, ==, 0);
	/* and again: the handler is still in place, SIGBUS not left blocked
	 * (a fault while it is blocked would kill us) */
	ok = touch_guarded(ch.cpus[0].map);
	check(!ok);
	after = mask_now();
	check(!sigismember(&after, SIGBUS));
	fake_channel_restore_buffers(&fc);
	ok = touch_guarded(ch.cpus[0].map);
	check(ok);
	channel_close(&ch);
	fake_channel_destroy(&fc);
}

/*
 * The guard saves no mask (no system call per call), yet after a fault
 * the mask is the one before: what the caller blocked stays blocked,
 * what it let in stays let in, SIGBUS is taken again.
 */
static void test_sigbus_mask(void)
{
	struct fake_channel fc;
	struct channel ch;
	struct subbuf_geometry g = { 4096, 4 };
	sigset_t usr2, before, after, old;
	char err[256];

	if (!check(fake_channel_create(&fc, 1, 4096, 4, false)))
		return;
	channel_install_sigbus();
	channel_open(&ch, fc.dir, &g, err, sizeof(err));
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &old);
	before = mask_now();
	fake_channel_remove_buffers(&fc);
	for (int i = 0; i < 3; i++)
		check(!touch_guarded(ch.cpus[0].map));
	after = mask_now();
	check(sigismember(&after, SIGUSR2));
	check(!sigismember(&after, SIGBUS));
	check(!sigismember(&after, SIGUSR1));
	for (int sig = 1; sig < 32; sig++)
		if (sigismember(&before, sig) != sigismember(&after, sig))
			check_int(sig, ==, 0);	/* names the signal */
	sigprocmask(SIG_SETMASK, &old, NULL);
	fake_channel_restore_buffers(&fc);
	check(touch_guarded(ch.cpus[0].map));
	channel_close(&ch);
	fake_channel_destroy(&fc);
}

int main(void)
{
	TEST(test_finds_buffers(), "cpuN files are found in order and mapped");
	TEST(test_errors(), "missing directory or buffers, bad geometry: named errors");
	TEST(test_give_back(), "hand-back writes \"N\\n\" to the buffer file");
	TEST(test_plain_file_not_written(), "a plain file's cpuN is opened read-only, never written");
	TEST(test_pollfds(), "idle buffers are left out of poll()");
	TEST(test_sigbus_guard(), "a buffer that went away raises SIGBUS, caught");
	TEST(test_sigbus_mask(), "after a fault the signal mask is the one before");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * read_reader - the read()-based baseline reader of `make bench` section 3.
 *
 * A recorder of relay buffers the classic way: it waits in poll() on every
 * per-CPU file (a sub-buffer is ready, or the interval passed) and copies
 * what each one has with read() to standard output, until SECS seconds
 * passed and one last pass found nothing.  relaytop --record does the same
 * job through its mappings; `make bench` runs both under cputime on the
 * same load and compares their CPU time per million events.  At the end
 * it prints "records=N" (64-byte records copied) on standard error.
 *
 *   read_reader SECS FILE... > OUT
 *
 * Exit status: 0 done, 1 an error (said on standard error), 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched_relay.h"

#define MAX_FILES	256
#define INTERVAL_MS	1000	/* relaytop's default interval */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(STDOUT_FILENO, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Copy what file @i has now; the bytes copied, or -1. */
static long long drain(int fd, const char *name)
{
	static char buf[1 << 16];
	long long total = 0;

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return total;
		if (r < 0) {
			fprintf(stderr, "read_reader: %s: %s\n", name,
				strerror(errno));
			return -1;
		}
		if (r == 0)
			return total;
		if (write_all(buf, (size_t)r)) {
			fprintf(stderr, "read_reader: writing: %s\n",
				strerror(errno));
			return -1;
		}
		total += r;
	}
}

int main(int argc, char **argv)
{
	struct pollfd pfd[MAX_FILES];
	unsigned long long bytes = 0;
	double end, secs;
	int n, i;
	char *tail;

	if (argc < 3 || argc - 2 > MAX_FILES) {
		fprintf(stderr, "usage: read_reader SECS FILE... > OUT (at most %d files)\n",
			MAX_FILES);
		return 2;
	}
	secs = strtod(argv[1], &tail);
	if (*tail || !(secs > 0)) {
		fprintf(stderr, "read_reader: %s: not a number of seconds\n", argv[1]);
		return 2;
	}
	end = now_s() + secs;
	n = argc - 2;
	for (i = 0; i < n; i++) {
		pfd[i].fd = open(argv[i + 2], O_RDONLY | O_NONBLOCK);
		if (pfd[i].fd < 0) {
			fprintf(stderr, "read_reader: %s: %s\n", argv[i + 2],
				strerror(errno));
			return 1;
		}
		pfd[i].events = POLLIN;
	}
	for (;;) {
		int last = now_s() >= end, ready, got = 0;

		ready = last ? 0 : poll(pfd, (nfds_t)n, INTERVAL_MS);
		if (ready < 0 && errno != EINTR) {
			perror("read_reader: poll");
			return 1;
		}
		for (i = 0; i < n; i++) {
			long long r;

			if (ready > 0 && !(pfd[i].revents & (POLLIN | POLLERR)))
				continue;
			r = drain(pfd[i].fd, argv[i + 2]);
			if (r < 0)
				return 1;
			bytes += (unsigned long long)r;
			got |= r > 0;
		}
		if (last && !got)
			break;
	}
	fprintf(stderr, "records=%llu\n",
		bytes / sizeof(struct sched_relay_record));
	return 0;
}

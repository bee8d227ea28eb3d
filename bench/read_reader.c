// SPDX-License-Identifier: GPL-2.0
/*
 * read_reader: the read()-based baseline reader for `make bench` section 3.
 * Drains the given per-CPU relay files (e.g. /sys/kernel/sched_relay/cpuN)
 * with plain read() for SECS seconds, then prints the records consumed
 * (64-byte records) and its own user+system CPU time, so its CPU time per
 * million events can be compared with relaytop's mmap path.
 * Usage: read_reader SECS FILE...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define RECORD_SIZE 64

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long bytes = 0;
	struct rusage ru;
	double end;
	int fds[256];
	int n, i;

	if (argc < 3 || argc - 2 > 256) {
		fprintf(stderr, "usage: read_reader SECS FILE... (at most 256 files)\n");
		return 2;
	}
	end = now_s() + atof(argv[1]);
	n = argc - 2;
	for (i = 0; i < n; i++) {
		fds[i] = open(argv[i + 2], O_RDONLY | O_NONBLOCK);
		if (fds[i] < 0) {
			perror(argv[i + 2]);
			return 1;
		}
	}
	while (now_s() < end) {
		int got = 0;

		for (i = 0; i < n; i++) {
			ssize_t r = read(fds[i], buf, sizeof(buf));

			if (r > 0) {
				bytes += (unsigned long long)r;
				got = 1;
			}
		}
		if (!got)
			usleep(1000);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("records=%llu cpu_us=%lld\n", bytes / RECORD_SIZE,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay_test_lib.h - what the guest tests of relay_test.ko share
 * (relay_sysfs.c, relay_faults.c): its control files under
 * /sys/kernel/relay_test, its stats, the CPUs online, reading a buffer
 * file whole, and the checks of its records (tests/modules/relay_test.h).
 *
 * Functions are static inline so that each test program, built from one
 * .c file, takes what it uses.
 */
#ifndef RELAY_TEST_LIB_H
#define RELAY_TEST_LIB_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/types.h>

#include "test-lib.h"
#include "../modules/relay_test.h"

#define CTL_DIR		"/sys/kernel/relay_test"
#define BUF_DIR		CTL_DIR "/buffers"	/* the channel's cpuN files */
#define PAGE		4096U
#define MAX_CPUS	64

/*
 * Counters of one CPU, as the module's stats files print them: full is
 * upstream's full_count (sub-buffer switches that found the buffer full,
 * flushes and overwrites included), refused the records dropped because
 * a switch was refused, big those larger than a sub-buffer, overwrites
 * the unconsumed sub-buffers an overwrite-mode switch destroyed (and
 * overwrite_bytes their data).  produced and consumed count sub-buffers
 * from the channel's creation: a reset does not set them back.
 */
struct cpu_stats {
	unsigned long long events, bytes, full, big, refused, produced, consumed;
	unsigned long long wakeups, overwrites, overwrite_bytes;
};

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Write a string to a file; 0 or -errno. */
static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

__attribute__((format(printf, 2, 3)))
static inline int ctl(const char *file, const char *fmt, ...)
{
	char path[256], val[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), CTL_DIR "/%s", file);
	return write_file(path, val);
}

/* A file of the test module's control directory, for reading. */
static inline FILE *open_ctl_file(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), CTL_DIR "/%s", file);
	return fopen(path, "r");
}

/*
 * The first line of a control file, without the newline; "" on error.
 * The buffer is static: valid until the next call.
 */
static inline const char *ctl_read(const char *file)
{
	static char line[256];
	FILE *f = open_ctl_file(file);

	line[0] = '\0';
	if (!f)
		return line;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* One CPU's line of a stats file; false if the CPU has none. */
static inline bool get_stats(const char *file, unsigned int cpu, struct cpu_stats *st)
{
	char line[256];
	unsigned int c;
	bool found = false;
	FILE *f = open_ctl_file(file);

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &c, &st->events, &st->bytes, &st->full, &st->big,
			   &st->refused, &st->produced, &st->consumed,
			   &st->wakeups, &st->overwrites,
			   &st->overwrite_bytes) == 11 &&
		    c == cpu) {
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

/* CPUs that are online now, as a list; returns how many. */
static inline unsigned int online_cpus(unsigned int *cpus)
{
	unsigned int n = 0, a, b;
	char buf[256], *p = buf;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	/* a list of ranges: "0-3", "0,2-3" */
	while (*p && *p != '\n') {
		int used = 0;

		if (sscanf(p, "%u-%u%n", &a, &b, &used) != 2) {
			if (sscanf(p, "%u%n", &a, &used) != 1)
				break;
			b = a;
		}
		for (; a <= b && n < MAX_CPUS; a++)
			cpus[n++] = a;
		p += used;
		if (*p == ',')
			p++;
	}
	return n;
}

/* Read until read() returns 0 or fails, @chunk bytes per call. */
static inline ssize_t read_all(int fd, uint8_t *buf, size_t cap, size_t chunk,
			size_t *max_read)
{
	size_t got = 0;

	if (max_read)
		*max_read = 0;
	while (got < cap) {
		size_t want = cap - got < chunk ? cap - got : chunk;
		ssize_t n = read(fd, buf + got, want);

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		if (max_read && (size_t)n > *max_read)
			*max_read = n;
		got += n;
	}
	return got;
}

/* Check one record: header and every payload byte. */
static inline bool record_ok(const uint8_t *p, unsigned int cpu, uint64_t seq,
		      unsigned int size)
{
	struct relay_test_record hdr;
	unsigned int i;

	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.magic != RELAY_TEST_MAGIC || hdr.cpu != cpu ||
	    hdr.size != size || hdr.seq != seq || hdr.zero ||
	    hdr.sum != relay_test_sum(cpu, seq, size)) {
		test_msg("bad record header: magic %#x cpu %u size %u seq %llu sum %#x, expected cpu %u size %u seq %llu",
			 hdr.magic, hdr.cpu, hdr.size,
			 (unsigned long long)hdr.seq, hdr.sum, cpu, size,
			 (unsigned long long)seq);
		return false;
	}
	for (i = 0; i + sizeof(hdr) < size; i++) {
		if (p[sizeof(hdr) + i] != relay_test_byte(cpu, seq, i)) {
			test_msg("record cpu %u seq %llu: payload byte %u is %#x, expected %#x",
				 cpu, (unsigned long long)seq, i,
				 p[sizeof(hdr) + i], relay_test_byte(cpu, seq, i));
			return false;
		}
	}
	return true;
}

/* A byte stream of @count records of @size bytes, seq from @first. */
static inline bool stream_ok(const uint8_t *p, size_t len, unsigned int cpu,
		      uint64_t first, size_t count, unsigned int size)
{
	size_t i;

	if (!check_uint(len, ==, count * size))
		return false;
	for (i = 0; i < count; i++)
		if (!record_ok(p + i * size, cpu, first + i, size))
			return false;
	return true;
}

#endif /* RELAY_TEST_LIB_H */

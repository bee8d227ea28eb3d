// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - fatal errors, strict number parsing, small file helpers,
 * clocks, CRC-32 and human-readable numbers.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *progname = "relaytop";

/* Restores the terminal before a fatal message; set by the curses code. */
static void (*fatal_hook)(void);

void set_fatal_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook) {
		void (*hook)(void) = fatal_hook;

		fatal_hook = NULL;	/* a failing hook must not recurse */
		hook();
	}
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		fatal("out of memory (%zu bytes)", size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		fatal("out of memory (%zu bytes)", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xgrow(void *p, unsigned int *n, unsigned int i, size_t size)
{
	unsigned int want;

	if (i < *n)
		return p;
	want = i + 1 > 2 * *n ? i + 1 : 2 * *n;
	p = xrealloc(p, (size_t)want * size);
	memset((char *)p + (size_t)*n * size, 0, (size_t)(want - *n) * size);
	*n = want;
	return p;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

/* The number ends at end: nothing may follow but one newline. */
static bool only_newline_after(const char *end)
{
	return *end == '\0' || (end[0] == '\n' && end[1] == '\0');
}

static int parse_u64_base(const char *s, int base, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull() skips blanks and accepts a sign: refuse both. */
	if (!s || !(*s >= '0' && *s <= '9'))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s || !only_newline_after(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_base(s, 10, out);
}

int parse_u64_any(const char *s, uint64_t *out)
{
	if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		/* "0x" alone or "0x-1" is not a number */
		if (!((s[2] >= '0' && s[2] <= '9') ||
		      (s[2] >= 'a' && s[2] <= 'f') ||
		      (s[2] >= 'A' && s[2] <= 'F')))
			return -EINVAL;
		return parse_u64_base(s + 2, 16, out);
	}
	return parse_u64_base(s, 10, out);
}

int parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;
	int err = parse_u64(s, &v);

	if (err)
		return err;
	if (v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	double v;
	char *end;

	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s || *end != '\0')
		return -EINVAL;
	if (!isfinite(v) || v <= 0)
		return -ERANGE;
	*out = v;
	return 0;
}

ssize_t read_text_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return -EINVAL;
	/* sysfs hands out at most a page per read; loop until EOF. */
	while (len < size - 1) {
		ssize_t n = pread(fd, buf + len, size - 1 - len, (off_t)len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t read_text_at(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read_text_fd(fd, buf, size);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

int write_text_fd(int fd, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;

	do
		n = pwrite(fd, s, len, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	return 0;
}

int write_text_at(int dirfd, const char *name, const char *s)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = write_text_fd(fd, s);
	close(fd);
	return err;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/*
 * Slicing-by-8: eight bytes per step through eight tables (8 KiB, built on
 * first use), some five times faster than a byte at a time; recordings run
 * every record through it.
 */
static uint32_t crc_table[8][256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
				crc_table[0][crc_table[t - 1][i] & 0xff];
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!crc_table[0][1])	/* built once; idempotent if raced */
		crc_init();
	crc = ~crc;
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		/* little-endian loads: the tables are for that order */
		uint32_t lo = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
			      (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
			      (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		lo ^= crc;
		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		      crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		      crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

void fmt_count(char *buf, size_t size, double value, bool iec)
{
	static const char units[] = "KMGTPE";
	double base = iec ? 1024.0 : 1000.0;
	int unit = -1;

	if (value < 0 || !isfinite(value))
		value = 0;
	if (value < 1000) {
		snprintf(buf, size, "%.0f", value);
		return;
	}
	while (value >= 999.5 && unit < (int)sizeof(units) - 2) {
		value /= base;
		unit++;
	}
	if (value < 9.995)
		snprintf(buf, size, "%.2f%c", value, units[unit]);
	else if (value < 99.95)
		snprintf(buf, size, "%.1f%c", value, units[unit]);
	else
		snprintf(buf, size, "%.0f%c", value, units[unit]);
}

void fmt_size(char *buf, size_t size, uint64_t bytes)
{
	if (bytes && bytes % (1u << 30) == 0)
		snprintf(buf, size, "%" PRIu64 " GiB", bytes >> 30);
	else if (bytes && bytes % (1u << 20) == 0)
		snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
	else
		snprintf(buf, size, "%" PRIu64 " bytes", bytes);
}

void fmt_elapsed(char *buf, size_t size, double seconds)
{
	unsigned long s = seconds > 0 ? (unsigned long)seconds : 0;

	if (s >= 3600)
		snprintf(buf, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, size, "%lu:%02lu", s / 60, s % 60);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every part of relaytop needs: fatal errors that leave the
 * terminal usable, strict number parsing, small file helpers, clocks,
 * CRC-32 and human-readable numbers.
 */
#ifndef RELAYTOP_UTIL_H
#define RELAYTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Name used in messages ("relaytop"); main() sets it once. */
extern const char *progname;

/*
 * fatal() - print "relaytop: MESSAGE" on stderr and exit with status 1.
 * The hook set with set_fatal_hook() runs first, so a curses screen is
 * restored before the message is printed.
 */
__attribute__((noreturn, format(printf, 1, 2)))
void fatal(const char *fmt, ...);
void set_fatal_hook(void (*hook)(void));

/* warn() - print "relaytop: MESSAGE" on stderr and carry on. */
__attribute__((format(printf, 1, 2)))
void warn(const char *fmt, ...);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/*
 * Make the array p of *n elements of size bytes hold index i: when it
 * does not, it grows to twice its size or to i + 1, the new elements
 * zeroed, and *n says its new size.  Returns the (maybe moved) array.
 */
void *xgrow(void *p, unsigned int *n, unsigned int i, size_t size);

/*
 * Strict number parsing: the whole string must be the number (a trailing
 * newline is allowed, as sysfs adds one), no sign, no overflow.  Return 0 or
 * -EINVAL (not a number) or -ERANGE (too large).  parse_u64() takes decimal
 * only; parse_u64_any() also takes 0x hex, as the events mask is written.
 */
int parse_u64(const char *s, uint64_t *out);
int parse_u64_any(const char *s, uint64_t *out);
int parse_uint(const char *s, unsigned int max, unsigned int *out);
/* Seconds with an optional fraction ("0.5", "2", "1e-1"), > 0 and finite. */
int parse_seconds(const char *s, double *out);

/*
 * Read a whole small (sysfs) file from offset 0 into buf, NUL-terminated.
 * Returns the length or -errno.  read_text_fd() re-reads an open file from
 * the start, which is how a sysfs attribute is re-armed after a poll wake.
 */
ssize_t read_text_fd(int fd, char *buf, size_t size);
ssize_t read_text_at(int dirfd, const char *name, char *buf, size_t size);
/* Write a string to an open attribute (from offset 0): 0 or -errno. */
int write_text_fd(int fd, const char *s);
int write_text_at(int dirfd, const char *name, const char *s);

/* Write all of buf or fail: 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* CLOCK_MONOTONIC and CLOCK_REALTIME in nanoseconds. */
uint64_t mono_ns(void);
uint64_t real_ns(void);

/* CRC-32 (IEEE 802.3, as zlib's crc32()); start with crc = 0. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

/*
 * Human-readable numbers, 5 columns at most: 999, 1.2K, 12.3K, 123K, 1.2M,
 * ... (powers of 1000 for counts, of 1024 with iec for bytes).
 */
void fmt_count(char *buf, size_t size, double value, bool iec);
/* A size in bytes, exact: "64 KiB", "4 MiB", "1000 bytes". */
void fmt_size(char *buf, size_t size, uint64_t bytes);
/* Seconds as H:MM:SS (or M:SS under an hour). */
void fmt_elapsed(char *buf, size_t size, double seconds);

#endif /* RELAYTOP_UTIL_H */

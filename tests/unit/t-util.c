// SPDX-License-Identifier: GPL-2.0
/*
 * t-util.c - pins relaytop/util.c: numbers are parsed strictly (no sign, no
 * blanks, no trailing junk, overflow is ERANGE, one trailing newline as
 * sysfs adds is fine), seconds take fractions and refuse 0/inf/nan, CRC-32
 * is zlib's, small files are re-read from offset 0, and human-readable
 * numbers stay within 5 columns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-lib.h"
#include "util.h"

static void test_parse_u64(void)
{
	uint64_t v = 0;
	int err;

	err = parse_u64("0", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 0);
	err = parse_u64("18446744073709551615", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, UINT64_MAX);
	err = parse_u64("18446744073709551616", &v);
	check_int(err, ==, -ERANGE);
	err = parse_u64("42\n", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 42);
	err = parse_u64("42\n\n", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("-1", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("+1", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64(" 1", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("1 ", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("12abc", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64("0x10", &v);
	check_int(err, ==, -EINVAL);	/* decimal only */
	err = parse_u64(NULL, &v);
	check_int(err, ==, -EINVAL);
}

static void test_parse_u64_any(void)
{
	uint64_t v = 0;
	int err;

	err = parse_u64_any("0x3f", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 63);
	err = parse_u64_any("0X10\n", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 16);
	err = parse_u64_any("0x", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64_any("0x-1", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64_any("0xg", &v);
	check_int(err, ==, -EINVAL);
	err = parse_u64_any("17", &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 17);
}

static void test_parse_uint(void)
{
	unsigned int v = 0;
	int err;

	err = parse_uint("100", 100, &v);
	check_int(err, ==, 0);
	check_uint(v, ==, 100);
	err = parse_uint("101", 100, &v);
	check_int(err, ==, -ERANGE);
	err = parse_uint("4294967296", UINT32_MAX, &v);
	check_int(err, ==, -ERANGE);
}

static void test_parse_seconds(void)
{
	double v = 0;
	int err;

	err = parse_seconds("0.5", &v);
	check_int(err, ==, 0);
	check_int((int)(v * 1000), ==, 500);
	err = parse_seconds("2", &v);
	check_int(err, ==, 0);
	check_int((int)v, ==, 2);
	err = parse_seconds(".25", &v);
	check_int(err, ==, 0);
	err = parse_seconds("0", &v);
	check_int(err, ==, -ERANGE);
	err = parse_seconds("-1", &v);
	check_int(err, ==, -EINVAL);
	err = parse_seconds("inf", &v);
	check_int(err, ==, -EINVAL);
	err = parse_seconds("nan", &v);
	check_int(err, ==, -EINVAL);
	err = parse_seconds("1s", &v);
	check_int(err, ==, -EINVAL);
	err = parse_seconds("", &v);
	check_int(err, ==, -EINVAL);
	err = parse_seconds("1e999", &v);
	check_int(err, ==, -ERANGE);
}

static void test_crc32(void)
{
	/* the standard check value of CRC-32/ISO-HDLC (zlib) */
	check_uint(crc32_update(0, "123456789", 9), ==, 0xcbf43926u);
	check_uint(crc32_update(crc32_update(0, "1234", 4), "56789", 5), ==,
		   0xcbf43926u);
	check_uint(crc32_update(0, "", 0), ==, 0);
}

static void test_files(void)
{
	char dir[] = "/tmp/t-util.XXXXXX", buf[64];
	int dfd, fd;
	ssize_t n;
	int err;

	if (!check(mkdtemp(dir) != NULL))
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	/* attributes exist: writing never creates one */
	err = write_text_at(dfd, "attr", "123\n");
	check_int(err, ==, -ENOENT);
	close(openat(dfd, "attr", O_CREAT | O_WRONLY, 0644));
	err = write_text_at(dfd, "attr", "123\n");
	check_int(err, ==, 0);
	n = read_text_at(dfd, "attr", buf, sizeof(buf));
	check_int(n, ==, 4);
	check_str(buf, "123\n");
	fd = openat(dfd, "attr", O_RDWR);
	n = read_text_fd(fd, buf, sizeof(buf));
	check_int(n, ==, 4);
	/* a second read starts from offset 0 again */
	n = read_text_fd(fd, buf, sizeof(buf));
	check_int(n, ==, 4);
	check_str(buf, "123\n");
	n = read_text_fd(fd, buf, 3);	/* cut to fit, NUL-terminated */
	check_int(n, ==, 2);
	check_str(buf, "12");
	close(fd);
	n = read_text_at(dfd, "missing", buf, sizeof(buf));
	check_int(n, ==, -ENOENT);
	err = write_text_at(dfd, "missing-dir/x", "1");
	check_int(err, ==, -ENOENT);
	unlinkat(dfd, "attr", 0);
	close(dfd);
	rmdir(dir);
}

static void test_fmt_count(void)
{
	char b[16];

	fmt_count(b, sizeof(b), 0, false);
	check_str(b, "0");
	fmt_count(b, sizeof(b), 999, false);
	check_str(b, "999");
	fmt_count(b, sizeof(b), 1000, false);
	check_str(b, "1.00K");
	fmt_count(b, sizeof(b), 12345, false);
	check_str(b, "12.3K");
	fmt_count(b, sizeof(b), 123456, false);
	check_str(b, "123K");
	fmt_count(b, sizeof(b), 999999, false);
	check_str(b, "1.00M");
	fmt_count(b, sizeof(b), 1048576, true);
	check_str(b, "1.00M");
	fmt_count(b, sizeof(b), 5.0e18, false);
	check_str(b, "5.00E");
	fmt_count(b, sizeof(b), -3, false);
	check_str(b, "0");
	fmt_elapsed(b, sizeof(b), 59.9);
	check_str(b, "0:59");
	fmt_elapsed(b, sizeof(b), 3725);
	check_str(b, "1:02:05");
}

int main(void)
{
	TEST(test_parse_u64(), "decimal numbers are parsed strictly");
	TEST(test_parse_u64_any(), "0x hex is taken where masks are");
	TEST(test_parse_uint(), "a maximum is enforced with ERANGE");
	TEST(test_parse_seconds(), "seconds take fractions, refuse 0, inf, nan, junk");
	TEST(test_crc32(), "CRC-32 is zlib's and can be computed in pieces");
	TEST(test_files(), "attributes are written and re-read from offset 0");
	TEST(test_fmt_count(), "human-readable numbers fit 5 columns");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test-lib.c - the harness behind test-lib.h: TAP output, checks, totals.
 */
#include "test-lib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

union test__tmp test__tmp[2];

static struct {
	int count;		/* tests started so far */
	int passed;
	int failed;
	bool running;		/* inside TEST() */
	bool current_failed;	/* a check in the current test failed */
} ctx;

void test_msg(const char *format, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, format);
	vprintf(format, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void check_failed(const char *loc, const char *check)
{
	if (!ctx.running) {
		fprintf(stderr, "%s: check outside of a test: %s\n", loc, check);
		exit(2);
	}
	ctx.current_failed = true;
	test_msg("check \"%s\" failed at %s", check, loc);
}

int check_bool_loc(const char *loc, const char *check, int ok)
{
	if (!ok)
		check_failed(loc, check);
	return ok;
}

int check_int_loc(const char *loc, const char *check, int ok,
		  intmax_t a, intmax_t b)
{
	if (!ok) {
		check_failed(loc, check);
		test_msg("   left: %jd", a);
		test_msg("  right: %jd", b);
	}
	return ok;
}

int check_uint_loc(const char *loc, const char *check, int ok,
		   uintmax_t a, uintmax_t b)
{
	if (!ok) {
		check_failed(loc, check);
		test_msg("   left: %ju", a);
		test_msg("  right: %ju", b);
	}
	return ok;
}

int check_str_loc(const char *loc, const char *check,
		  const char *a, const char *b)
{
	int ok = (!a && !b) || (a && b && !strcmp(a, b));

	if (!ok) {
		check_failed(loc, check);
		test_msg("   left: %s%s%s", a ? "\"" : "", a ? a : "NULL",
			 a ? "\"" : "");
		test_msg("  right: %s%s%s", b ? "\"" : "", b ? b : "NULL",
			 b ? "\"" : "");
	}
	return ok;
}

bool test_failed(void)
{
	return ctx.current_failed;
}

int test__run_begin(void)
{
	if (ctx.running) {
		fprintf(stderr, "TEST() nested inside TEST()\n");
		exit(2);
	}
	ctx.running = true;
	ctx.current_failed = false;
	ctx.count++;
	return 0;
}

int test__run_end(int was_run, const char *location, const char *format, ...)
{
	va_list ap;

	(void)was_run;
	(void)location;
	if (ctx.current_failed) {
		ctx.failed++;
		fputs("not ok ", stdout);
	} else {
		ctx.passed++;
		fputs("ok ", stdout);
	}
	printf("%d - ", ctx.count);
	va_start(ap, format);
	vprintf(format, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	ctx.running = false;
	return !ctx.current_failed;
}

int test_done(void)
{
	printf("1..%d\n", ctx.count);
	printf("%d passed, %d failed\n", ctx.passed, ctx.failed);
	fflush(stdout);
	return ctx.failed ? 1 : 0;
}

uint64_t test_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

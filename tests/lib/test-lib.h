/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-lib.h - a small TAP test harness for C tests, host and guest alike.
 *
 * In the shape of git's t/unit-tests/test-lib:
 *
 *	static void test_parse_empty(void)
 *	{
 *		check_int(parse(""), ==, -1);
 *	}
 *
 *	int main(int argc, const char **argv)
 *	{
 *		TEST(test_parse_empty(), "an empty line is refused");
 *		return test_done();
 *	}
 *
 * Each TEST() prints "ok N - description" or "not ok N - description";
 * a failed check prints file:line, the expression and both values as "# "
 * lines.  test_done() prints the plan ("1..N") and the closing line
 * "N passed, N failed" and returns the exit status for main().
 */
#ifndef TEST_LIB_H
#define TEST_LIB_H

#include <stdbool.h>
#include <stdint.h>

/* Run one test: a statement (usually a call) and what it pins. */
#define TEST(t, ...)					\
	test__run_end(test__run_begin() ? 0 : (t, 1),	\
		      TEST_LOCATION(), __VA_ARGS__)

/*
 * Compare two integers with a C comparison operator.  Each operand is
 * evaluated exactly once (check_int(write(fd, ...), ==, 1) writes once).
 */
#define check_int(a, op, b)						\
	(test__tmp[0].i = (a), test__tmp[1].i = (b),			\
	 check_int_loc(TEST_LOCATION(), #a" "#op" "#b,			\
		       test__tmp[0].i op test__tmp[1].i,		\
		       test__tmp[0].i, test__tmp[1].i))

/* Compare two unsigned integers with a C comparison operator. */
#define check_uint(a, op, b)						\
	(test__tmp[0].u = (a), test__tmp[1].u = (b),			\
	 check_uint_loc(TEST_LOCATION(), #a" "#op" "#b,			\
			test__tmp[0].u op test__tmp[1].u,		\
			test__tmp[0].u, test__tmp[1].u))

/* Check that two strings are equal (NULL is a distinct value). */
#define check_str(a, b)							\
	check_str_loc(TEST_LOCATION(), "!strcmp("#a", "#b")", a, b)

/* Check that a condition holds. */
#define check(x) check_bool_loc(TEST_LOCATION(), #x, x)

#define TEST_LOCATION() __FILE__ ":" TEST__STR(__LINE__)
#define TEST__STR(x) TEST__STR2(x)
#define TEST__STR2(x) #x

/* Where check_int()/check_uint() keep their operands (not re-entrant). */
union test__tmp {
	intmax_t i;
	uintmax_t u;
};
extern union test__tmp test__tmp[2];

__attribute__((format(printf, 1, 2)))
void test_msg(const char *format, ...);

int check_bool_loc(const char *loc, const char *check, int ok);
int check_int_loc(const char *loc, const char *check, int ok,
		  intmax_t a, intmax_t b);
int check_uint_loc(const char *loc, const char *check, int ok,
		   uintmax_t a, uintmax_t b);
int check_str_loc(const char *loc, const char *check,
		  const char *a, const char *b);

/*
 * The next number of a seeded pseudo-random sequence (xorshift64*): the
 * same seed gives the same sequence on every libc, so a printed seed
 * replays a run.  *state must not be 0.
 */
uint64_t test_rand(uint64_t *state);

/* True when the current test has failed a check so far. */
bool test_failed(void);

int test_done(void);

int test__run_begin(void);
__attribute__((format(printf, 3, 4)))
int test__run_end(int was_run, const char *location, const char *format, ...);

#endif /* TEST_LIB_H */

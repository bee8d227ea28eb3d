// SPDX-License-Identifier: GPL-2.0
/*
 * t-hostile-names.c - pins that no text relaytop prints carries a byte a
 * traced task chose raw: a recording whose tasks are named "\033]0;x\007"
 * (a terminal title change) and "\033[2J" (a screen erase), a child
 * named by C1 CSI bytes and bytes that are no UTF-8, and a channel name
 * with an escape in the file header, goes through --dump, --report and
 * --replay -b (--tasks, --latency).  Each output holds no control byte
 * but newlines, no DEL and (this test runs in the C locale) no byte
 * above 0x7f, and shows the names escaped: \x1b]0;x\x07, \x1b[2J.
 * (t-ui.c checks the screen the same way.)  Before, all three printed
 * the names' bytes as they were.  And the escaping itself (text.c):
 * printable ASCII as it is, the backslash doubled, valid UTF-8 of a
 * printable character as it is where the output takes UTF-8, every other
 * byte \xNN (C0, DEL, C1 also as UTF-8, bidi overrides, separators, bytes
 * that are no UTF-8, and any byte above 0x7f for an ASCII output); no
 * escape is cut in half at the end of the buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "hostile-recording.h"
#include "options.h"
#include "report.h"
#include "test-lib.h"
#include "test-util.h"
#include "text.h"
#include "top.h"

static char dir[] = "/tmp/t-hostile-names.XXXXXX";
static char path[256];

static int run_dump(const void *arg)
{
	(void)arg;
	return dump_recording(path, stdout);
}

static int run_report(const void *arg)
{
	struct filter f = { 0 };

	(void)arg;
	return report_recording(path, &f, stdout);
}

static int run_replay(const void *arg)
{
	struct options o = { .replay = path, .interval = 1, .batch = true,
			     .tasks = true, .latency = true };

	(void)arg;
	return top_run(&o);
}

/* Every byte is printable ASCII or a newline; else say where it is not. */
static bool plain(const char *what, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n' || (c >= 0x20 && c < 0x7f))
			continue;
		/* (not the text: it would reach the reader's terminal) */
		test_msg("%s: byte %zu of %zu is 0x%02x", what, i, len, c);
		return false;
	}
	return true;
}

static void test_output(const char *what, int (*fn)(const void *arg))
{
	char *text;
	size_t len;
	int status = run_captured(fn, NULL, &text, &len, NULL);

	check_int(status, ==, 0);
	check_uint(len, >, 0);
	check(plain(what, text, len));
	check(strstr(text, HOSTILE_TITLE_ESCAPED) != NULL);
	check(strstr(text, HOSTILE_ERASE_ESCAPED) != NULL);
	free(text);
}

static const char *esc(const char *s, size_t max, bool utf8)
{
	static char buf[TEXT_ESCAPED_SIZE(64)];

	text_escape(buf, sizeof(buf), s, max, utf8);
	return buf;
}

static void test_escape_rules(void)
{
	char small[8];

	check_str(esc("kworker/0:1", 16, false), "kworker/0:1");
	check_str(esc(HOSTILE_TITLE, 16, true), HOSTILE_TITLE_ESCAPED);
	check_str(esc(HOSTILE_ERASE, 16, true), HOSTILE_ERASE_ESCAPED);
	check_str(esc("a\\b\tc\r\x7f", 16, true), "a\\\\b\\x09c\\x0d\\x7f");
	check_str(esc("caf\xc3\xa9", 16, true), "caf\xc3\xa9");
	check_str(esc("caf\xc3\xa9", 16, false), "caf\\xc3\\xa9");
	/* C1 CSI as UTF-8 and raw, a right-to-left override, a stray
	 * continuation byte, a sequence cut short, an overlong NUL */
	check_str(esc("\xc2\x9b", 16, true), "\\xc2\\x9b");
	check_str(esc("\x9b", 16, true), "\\x9b");
	check_str(esc("a\xe2\x80\xaez", 16, true), "a\\xe2\\x80\\xaez");
	check_str(esc("\x80", 16, true), "\\x80");
	check_str(esc("x\xe2\x82", 16, true), "x\\xe2\\x82");
	check_str(esc("\xc0\x80", 16, true), "\\xc0\\x80");
	/* 16 bytes, no NUL: max stops it */
	check_str(esc("0123456789abcdefXYZ", 16, true), "0123456789abcdef");
	/* the buffer ends: whole escapes only */
	check_uint(text_escape(small, sizeof(small), "ab\033cd", 16, true), ==, 7);
	check_str(small, "ab\\x1bc");
	check_uint(text_escape(small, sizeof(small), "abcd\033", 16, true), ==, 4);
	check_str(small, "abcd");
}

int main(void)
{
	if (!mkdtemp(dir))
		return 2;
	snprintf(path, sizeof(path), "%s/hostile.rec", dir);
	hostile_recording(path);
	TEST(test_escape_rules(), "the escaping: what stays, what becomes \\xNN");
	TEST(test_output("--dump", run_dump), "--dump prints the names escaped, no control byte");
	TEST(test_output("--report", run_report), "--report prints the names escaped, no control byte");
	TEST(test_output("--replay -b", run_replay), "--replay -b --tasks --latency prints the names escaped, no control byte");
	unlink(path);
	rmdir(dir);
	return test_done();
}

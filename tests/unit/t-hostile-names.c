// SPDX-License-Identifier: GPL-2.0
/*
 * t-hostile-names.c - pins that no text relaytop prints carries a byte a
 * traced task chose raw: a recording whose tasks are named "\033]0;x\007"
 * (a terminal title change) and "\033[2J" (a screen erase), a child
 * named by C1 CSI bytes and bytes that are no UTF-8, and a channel name
 * with an escape in the file header, goes through --dump, --report and
 * --replay -b (--tasks, --latency, and as CSV and JSON, which Python's
 * csv and json modules read back).  Each output holds no control byte
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

static int run_replay_csv(const void *arg)
{
	struct options o = { .replay = path, .interval = 1, .batch = true,
			     .tasks = true, .format = FORMAT_CSV };

	(void)arg;
	return top_run(&o);
}

static int run_replay_json(const void *arg)
{
	struct options o = { .replay = path, .interval = 1, .batch = true,
			     .tasks = true, .latency = true,
			     .format = FORMAT_JSON };

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

/*
 * What Python's csv and json modules read of the output at file: every
 * CSV row as long as the header, every line a JSON object; the names
 * among the values, as escaped.  python3 is one of make deps' packages.
 */
static void parsed_by_python(const char *what, const char *file, bool json)
{
	static const char csv_check[] =
		"import csv, sys\n"
		"rows = list(csv.reader(open(sys.argv[1], newline='')))\n"
		"assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows)\n"
		"names = [r[rows[0].index('comm')] for r in rows[1:]]\n"
		"assert sys.argv[2] in names and sys.argv[3] in names, names\n";
	static const char json_check[] =
		"import json, sys\n"
		"names = []\n"
		"for line in open(sys.argv[1]):\n"
		"    b = json.loads(line)\n"
		"    assert 'latency' in b and 'runq' in b['latency']\n"
		"    names += [t['comm'] for t in b['tasks']['rows']]\n"
		"assert sys.argv[2] in names and sys.argv[3] in names, names\n";
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "python3 -c \"$(cat <<'EOF'\n%sEOF\n)\" "
		 "%s '%s' '%s'", json ? json_check : csv_check, file,
		 HOSTILE_TITLE_ESCAPED, HOSTILE_ERASE_ESCAPED);
	if (!check_int(system(cmd), ==, 0))
		test_msg("%s: python could not read it as it should", what);
}

/* -b --format csv and json: plain bytes, the names escaped as every
 * text, then quoted as CSV or as JSON strings; both parse. */
static void test_machine_formats(void)
{
	static const struct {
		const char *what;
		int (*fn)(const void *arg);
		bool json;
	} formats[] = {
		{ "--format csv", run_replay_csv, false },
		{ "--format json", run_replay_json, true },
	};

	for (size_t i = 0; i < 2; i++) {
		char file[300], *text;
		size_t len;
		FILE *f;

		check_int(run_captured(formats[i].fn, NULL, &text, &len, NULL),
			  ==, 0);
		check(plain(formats[i].what, text, len));
		snprintf(file, sizeof(file), "%s/out.txt", dir);
		f = fopen(file, "w");
		if (f) {
			fwrite(text, 1, len, f);
			fclose(f);
		}
		parsed_by_python(formats[i].what, file, formats[i].json);
		/* JSON doubles the escape's backslash */
		check(strstr(text, formats[i].json ? "\\\\x1b]0;x\\\\x07" :
			     HOSTILE_TITLE_ESCAPED) != NULL);
		if (test_failed())
			test_msg("%s:\n%.2000s", formats[i].what, text);
		free(text);
		unlink(file);
	}
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
	TEST(test_machine_formats(), "-b --format csv and json: names escaped, then quoted; Python parses both");
	unlink(path);
	rmdir(dir);
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * t-install.c - pins `make install` (the top Makefile): with DESTDIR and
 * PREFIX it puts relaytop at DESTDIR/PREFIX/bin (mode 0755, the binary
 * that was built: its --version) and the man page at
 * DESTDIR/PREFIX/share/man/man1/relaytop.1 (mode 0644); man -l renders
 * that page without a warning and it has the sections a user looks for
 * (SIGNALS, REQUIREMENTS, BUGS, EXAMPLES, FILES, EXIT STATUS); man finds
 * it by name in that tree (MANPATH); `make uninstall` takes both away.
 * Before, there was no install target: `man relaytop` found nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-lib.h"
#include "test-util.h"

static char dest[] = "/tmp/t-install.XXXXXX";
static char top[1024];

/* Run cmd with its output in *out (malloc'd); its exit status. */
static int run(const char *cmd, char **out)
{
	char file[1100], line[4096];
	int rc;

	snprintf(file, sizeof(file), "%s.out", dest);
	snprintf(line, sizeof(line), "%s >%s 2>&1", cmd, file);
	rc = system(line);
	*out = slurp_text(file, NULL);
	unlink(file);
	if (!*out)
		*out = strdup("");
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

/* make in the repository's top, not the make check this runs under. */
static int make(const char *target, char **out)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
		 "make -s -C %s %s DESTDIR=%s PREFIX=/usr", top, target, dest);
	return run(cmd, out);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_mode & 07777;
}

static void test_install(void)
{
	char bin[1200], page[1200], cmd[2600], *out, *version;
	static const char *const sections[] = {
		"\nSIGNALS\n", "\nREQUIREMENTS\n", "\nBUGS\n", "\nEXAMPLES\n",
		"\nFILES\n", "\nEXIT STATUS\n", "\nKEYS\n",
	};

	snprintf(bin, sizeof(bin), "%s/usr/bin/relaytop", dest);
	snprintf(page, sizeof(page), "%s/usr/share/man/man1/relaytop.1", dest);
	if (!check_int(make("install", &out), ==, 0))
		test_msg("make install:\n%s", out);
	free(out);
	check_uint(mode_of(bin), ==, 0755);
	check_uint(mode_of(page), ==, 0644);
	snprintf(cmd, sizeof(cmd), "%s --version", bin);
	check_int(run(cmd, &out), ==, 0);
	snprintf(cmd, sizeof(cmd), "%s/relaytop/relaytop --version", top);
	run(cmd, &version);
	check_str(out, version);
	free(out);
	free(version);
	/* rendered, warnings and all (troff's go to standard error) */
	snprintf(cmd, sizeof(cmd), "{ MANWIDTH=80 man --warnings -l %s "
		 "2>&1 >/dev/null; }", page);
	check_int(run(cmd, &out), ==, 0);
	if (!check_str(out, ""))
		test_msg("man -l warns about the page");
	free(out);
	snprintf(cmd, sizeof(cmd), "MANWIDTH=80 man -l %s | col -b", page);
	check_int(run(cmd, &out), ==, 0);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!check(strstr(out, sections[i]) != NULL))
			test_msg("the page has no section %s", sections[i] + 1);
	free(out);
	/* by name, in the installed tree */
	snprintf(cmd, sizeof(cmd), "MANPATH=%s/usr/share/man man -w relaytop",
		 dest);
	check_int(run(cmd, &out), ==, 0);
	check(strncmp(out, page, strlen(page)) == 0);
	free(out);
	check_int(make("uninstall", &out), ==, 0);
	free(out);
	check(access(bin, F_OK) != 0);
	check(access(page, F_OK) != 0);
}

int main(void)
{
	const char *at = strstr(__FILE__, "tests/unit/");
	char cmd[1200];

	snprintf(top, sizeof(top), "%.*s.", at ? (int)(at - __FILE__) : 0,
		 __FILE__);
	if (!mkdtemp(dest))
		return 2;
	if (system("command -v man >/dev/null 2>&1")) {
		TEST(check(false), "man is installed (man-db: make deps)");
		return test_done();
	}
	TEST(test_install(), "make install DESTDIR PREFIX: the binary and the page man finds; uninstall");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dest);
	if (system(cmd))
		test_msg("could not remove %s", dest);
	return test_done();
}

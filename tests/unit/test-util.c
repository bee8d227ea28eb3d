// SPDX-License-Identifier: GPL-2.0
/* test-util.c - small things several tests need (see test-util.h). */
#include "test-util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool sleeps_in(pid_t p, const char *where)
{
	char path[64], wchan[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)p);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(wchan, sizeof(wchan), f))
		wchan[0] = '\0';
	fclose(f);
	return strstr(wchan, where) != NULL;
}

char *slurp_text(const char *path, size_t *len_out)
{
	FILE *f = fopen(path, "r");
	char *text;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	if (len_out)
		*len_out = (size_t)len;
	return text;
}

/* A temporary file's name in name (size bytes) and its descriptor. */
static int temp_file(char *name, size_t size)
{
	snprintf(name, size, "/tmp/test-captured.XXXXXX");
	return mkstemp(name);
}

int run_captured(int (*fn)(const void *arg), const void *arg, char **out,
		 size_t *out_len, char **err)
{
	char oname[64], ename[64];
	int fo = temp_file(oname, sizeof(oname));
	int fe = err ? temp_file(ename, sizeof(ename)) :
		 open("/dev/null", O_WRONLY);
	int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO), status;

	if (fo < 0 || fe < 0 || so < 0 || se < 0)
		exit(2);
	fflush(stdout);
	fflush(stderr);
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	status = fn(arg);
	fflush(stdout);
	fflush(stderr);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	close(fo);
	close(fe);
	*out = slurp_text(oname, out_len);
	unlink(oname);
	if (err) {
		*err = slurp_text(ename, NULL);
		unlink(ename);
	}
	if (!*out || (err && !*err))
		exit(2);
	return status;
}

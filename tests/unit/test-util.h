/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-util.h - small things several tests need: where a process sleeps,
 * a whole file as text, and what a function prints.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Process p sleeps in the kernel function named by where (its wchan). */
bool sleeps_in(pid_t p, const char *where);

/* The whole of the file at path, NUL-terminated (malloc'd), or NULL;
 * *len (unless NULL) its length, NUL bytes in it included. */
char *slurp_text(const char *path, size_t *len);

/*
 * Run fn(arg) with standard output and standard error going to files;
 * *out and *err get what it printed (malloc'd; err may be NULL: then it
 * goes nowhere), *out_len (unless NULL) the length of *out.  Returns what
 * fn returned.
 */
int run_captured(int (*fn)(const void *arg), const void *arg, char **out,
		 size_t *out_len, char **err);

#endif

// SPDX-License-Identifier: GPL-2.0
/* record_keep.c - an existing recording kept as FILE.old (see record_keep.h). */
#include "record_keep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int record_keep_old(const char *path, char *msg, size_t len)
{
	struct stat st;
	size_t n = strlen(path);
	char *old;
	int rc = 1;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	old = xmalloc(n + 5);
	memcpy(old, path, n);
	memcpy(old + n, ".old", 5);
	if (rename(path, old)) {
		snprintf(msg, len, "%s exists and cannot be kept as %s: %s",
			 path, old, strerror(errno));
		rc = -1;
	} else {
		snprintf(msg, len, "kept the existing %s as %s", path, old);
	}
	free(old);
	return rc;
}

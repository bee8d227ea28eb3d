// SPDX-License-Identifier: GPL-2.0
/* task_find.c - the tasks view's search (see task_find.h). */
#include "task_find.h"

long task_find(const struct task_row *rows, size_t n, const char *text,
	       int32_t *found, bool next)
{
	long at = -1;

	for (size_t i = 0; i < n && at < 0; i++)
		if (rows[i].id == *found && task_row_matches(&rows[i], text))
			at = (long)i;
	if (at >= 0 && next) {
		for (size_t k = 1; k <= n; k++) {
			size_t i = ((size_t)at + k) % n;

			if (task_row_matches(&rows[i], text)) {
				at = (long)i;
				break;
			}
		}
	}
	for (size_t i = 0; i < n && at < 0; i++)
		if (task_row_matches(&rows[i], text))
			at = (long)i;
	if (at >= 0)
		*found = rows[at].id;
	return at;
}

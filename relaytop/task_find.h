/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_find.h - the tasks view's search (/ and F3, as htop's): the row a
 * typed text names (task_row_matches()), kept while it still matches so
 * that the screen follows the task as the rows move.
 */
#ifndef RELAYTOP_TASK_FIND_H
#define RELAYTOP_TASK_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "task_table.h"

/*
 * The row a search for text finds among rows[0..n): the row of id *found
 * if it still matches (or, with next, the next matching row after it,
 * from the top again after the last), else the first that matches.
 * Returns its index and sets *found to its id, or returns -1 when no row
 * matches.
 */
long task_find(const struct task_row *rows, size_t n, const char *text,
	       int32_t *found, bool next);

#endif /* RELAYTOP_TASK_FIND_H */

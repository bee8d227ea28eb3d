// SPDX-License-Identifier: GPL-2.0
/* pid_tree.c - a workload's process tree (see pid_tree.h). */
#include "pid_tree.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Where pid is, or would go, in the sorted pids. */
static size_t place(const struct pid_tree *t, int32_t pid)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void add(struct pid_tree *t, int32_t pid)
{
	size_t i = place(t, pid);

	if (i < t->n && t->pids[i] == pid)
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->pids = xrealloc(t->pids, t->cap * sizeof(*t->pids));
	}
	memmove(t->pids + i + 1, t->pids + i, (t->n - i) * sizeof(*t->pids));
	t->pids[i] = pid;
	t->n++;
}

static void drop(struct pid_tree *t, int32_t pid)
{
	size_t i = place(t, pid);

	if (i == t->n || t->pids[i] != pid)
		return;
	memmove(t->pids + i, t->pids + i + 1, (t->n - i - 1) * sizeof(*t->pids));
	t->n--;
}

void pid_tree_init(struct pid_tree *t, int32_t root)
{
	memset(t, 0, sizeof(*t));
	t->root = root;
	add(t, root);
}

void pid_tree_free(struct pid_tree *t)
{
	free(t->pids);
	memset(t, 0, sizeof(*t));
}

bool pid_tree_has(const struct pid_tree *t, int32_t pid)
{
	size_t i = place(t, pid);

	return i < t->n && t->pids[i] == pid;
}

void pid_tree_fork(struct pid_tree *t, int32_t parent, int32_t parent_tgid,
		   int32_t child)
{
	if (child <= 0)
		return;
	if (pid_tree_has(t, parent) ||
	    (parent_tgid > 0 && pid_tree_has(t, parent_tgid)))
		add(t, child);
	else if (child != t->root)
		drop(t, child);		/* the pid went to another task */
}

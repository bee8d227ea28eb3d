/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pid_tree.h - a workload's process tree as the records tell it (relaytop
 * -F -- CMD): the command's pid, then every task a sched_process_fork
 * record says a member made (its threads and children, theirs in turn).
 * A pid the kernel gives again to a task forked outside the tree leaves
 * it: a fork that names it as the child of a parent not in the tree.
 */
#ifndef RELAYTOP_PID_TREE_H
#define RELAYTOP_PID_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pid_tree {
	int32_t root;
	int32_t *pids;		/* sorted */
	size_t n, cap;
};

void pid_tree_init(struct pid_tree *t, int32_t root);
void pid_tree_free(struct pid_tree *t);
bool pid_tree_has(const struct pid_tree *t, int32_t pid);
/* A fork record: parent (its pid or thread group id) made child. */
void pid_tree_fork(struct pid_tree *t, int32_t parent, int32_t parent_tgid,
		   int32_t child);

#endif /* RELAYTOP_PID_TREE_H */

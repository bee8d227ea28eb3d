/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmux-pane.h - the built relaytop ($RELAYTOP) on a real terminal, for
 * the screen tests: a tmux server of their own (no other tmux user can
 * end it), a pane of a given size running a command, its text captured,
 * keys sent, and waits for what the screen shows (10 s at most, the
 * screen shown when it never came).
 */
#ifndef TMUX_PANE_H
#define TMUX_PANE_H

#include <stdbool.h>
#include <sys/types.h>

/* Start our tmux server's directory; false (and a "not ok") when tmux or
 * $RELAYTOP is missing: the caller ends its tests then. */
bool pane_setup(void);
/* The relaytop binary ($RELAYTOP). */
const char *pane_relaytop_bin(void);
/*
 * Run cmd (a shell command line, no double quotes) in a fresh pane of
 * cols x rows, after which the pane prints "EXITED=<its status>", runs
 * then (a command line ending in ";", or "") and stays.  The new session
 * comes first, then the old one goes: a tmux server whose last session
 * is killed exits, and a new-session right after can reach it while it
 * does ("server exited unexpectedly").
 */
void pane_run(const char *cmd, const char *then, int cols, int rows);
/* relaytop with args in an 80x24 pane (as nobody when root: fake buffers
 * are regular files that must not be written), env before it, then the
 * shell command then (may be ""). */
void pane_relaytop(const char *env, const char *args, const char *then);
/* The pane's text (flags: tmux capture-pane's, "" or "-e" or "-J"). */
char *pane_capture(const char *flags);
/* Send keys (tmux send-keys words: "h", "Escape", "F3", "'/'"). */
void pane_keys(const char *keys);
/* Wait for holds(screen), or for needle on the screen. */
bool pane_wait_until(bool (*holds)(const char *screen), const char *what);
bool pane_wait_for(const char *needle);
/* Let relaytop, which the panes run as nobody when root, read the fake
 * channel at dir of ncpus CPUs, and only read its buffers (regular files
 * must not be written as the kernel's buffer files are). */
void pane_share_channel(const char *dir, unsigned int ncpus);
/* The session's name, for tmux commands of the test's own. */
const char *pane_session(void);
/* The pid of the pane's program's child (relaytop), or 0. */
pid_t pane_child_pid(void);
/* Sleep ms milliseconds. */
void pane_sleep_ms(long ms);
/* Our tmux server and its directory go. */
void pane_teardown(void);

#endif

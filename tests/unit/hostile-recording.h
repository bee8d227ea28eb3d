/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostile-recording.h - a recording whose tasks' names are terminal
 * escape sequences and bytes that are not UTF-8, for the tests that no
 * text output of relaytop carries them raw (t-hostile-names.c, t-ui.c).
 */
#ifndef HOSTILE_RECORDING_H
#define HOSTILE_RECORDING_H

/* A title change (OSC 0, ended by BEL) and a screen erase (CSI 2J). */
#define HOSTILE_TITLE	"\033]0;x\007"
#define HOSTILE_ERASE	"\033[2J"
/* How they print escaped (text.h). */
#define HOSTILE_TITLE_ESCAPED	"\\x1b]0;x\\x07"
#define HOSTILE_ERASE_ESCAPED	"\\x1b[2J"

/*
 * Write it to path: on CPU 0, over 2.5 s, tasks named HOSTILE_TITLE (pid
 * 100) and HOSTILE_ERASE (pid 200) switch, wake each other and fork a
 * child whose name is a C1 CSI (0x9b, as UTF-8 and raw) and bytes that
 * are no UTF-8.  Exits with status 2 if it cannot be written.
 */
void hostile_recording(const char *path);

#endif

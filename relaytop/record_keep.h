/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_keep.h - --record FILE over an existing recording: the old one
 * is kept as FILE.old (an older FILE.old replaced), as perf record keeps
 * perf.data.old, rather than overwritten.
 */
#ifndef RELAYTOP_RECORD_KEEP_H
#define RELAYTOP_RECORD_KEEP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A non-empty regular file at path becomes path.old: 1 (msg says so), 0
 * when there was nothing to keep (no file, an empty one, or not a
 * regular file: a FIFO, /dev/stdout), or -1 with msg saying why it
 * could not be kept (then nothing was changed).
 */
int record_keep_old(const char *path, char *msg, size_t len);

#endif /* RELAYTOP_RECORD_KEEP_H */

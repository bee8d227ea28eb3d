/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The meta area of a mapped relay buffer.
 *
 * A relay channel buffer can be mapped together with a read-only meta
 * area that follows it in the file's mapping space:
 *
 *   offset 0                     data_size                data_size + meta_size
 *   +----------------------------+------------------------+
 *   | the buffer: n_subbufs      | struct relay_buf_meta, |
 *   | sub-buffers of subbuf_size | then ends[n_subbufs]   |
 *   +----------------------------+------------------------+
 *
 * Map [0, data_size) for the buffer alone, [0, data_size + meta_size)
 * for both, or whole pages of the meta area alone from offset data_size
 * (data_size is the file's size; the meta area's first page says how
 * large it is).  Both are read-only.
 *
 * Sub-buffers are numbered from 0 when the buffer is created and the
 * numbers never go back: sub-buffer s lives at index s % n_subbufs.
 * The writer fills sub-buffer @produced; those below it are finished.
 * A reader hands sub-buffers back by writing the number of the first one
 * it has not finished (an absolute number, see the host's file ABI);
 * @consumed is the first not handed back.  relay_reset() ends the
 * sub-buffer being filled and consumes every sub-buffer up to it: the
 * new data starts at @reset_at, and what lay below it was discarded.
 *
 * Ordering: the kernel stores ends[] of a sub-buffer, then @produced with
 * release semantics; a reader loads @produced with acquire semantics and
 * may then use ends[] of every sub-buffer below it.  relay_reset() stores
 * @produced, @consumed and @resets before @reset_at, with release
 * semantics; a reader loads @reset_at with acquire first.  In overwrite
 * mode the writer starts sub-buffer s + n_subbufs in the place of s: a
 * reader that loads @produced again (after an acquire fence) and finds it
 * beyond s + n_subbufs, or at s + n_subbufs with @stopped 0, may have
 * read s torn.  But @produced moves before the client's subbuf_start()
 * decides whether the switch happens, and @stopped tells a refusal only
 * after it: for that moment a full buffer in no-overwrite mode looks the
 * same.  A reader that must tell them apart looks at what the client
 * wrote in s (a header the writer changes before anything else in its
 * place), or looks again after the next wake-up.
 *
 * On a 32-bit kernel the counts wrap at 2^32 (the upper halves stay 0).
 */
#ifndef _UAPI_LINUX_RELAY_H
#define _UAPI_LINUX_RELAY_H

#include <linux/types.h>

#define RELAY_BUF_META_VERSION	1

/**
 * struct relay_buf_meta - the meta area of a relay buffer
 * @version:	RELAY_BUF_META_VERSION
 * @meta_size:	bytes of the meta area (whole pages)
 * @data_size:	bytes of the buffer (whole pages): where the meta area is
 * @subbuf_size: bytes per sub-buffer
 * @n_subbufs:	sub-buffers in the buffer
 * @produced:	the sub-buffer being filled; those below it are finished
 * @consumed:	the first sub-buffer not handed back or read
 * @resets:	relay_reset()s of this buffer
 * @reset_at:	the first sub-buffer after the last reset (0 before one)
 * @stopped:	1 while the writer's last switch was refused (no-overwrite
 *		mode with the buffer full, or the client's subbuf_start()
 *		said no): sub-buffer @produced is not started, records are
 *		dropped, and every sub-buffer below @produced is intact even
 *		where @produced - s == n_subbufs; 0 while it fills @produced,
 *		and from the moment @produced moves until the switch is
 *		decided
 * @reserved32:	zero
 * @reserved:	zero
 * @ends:	bytes of data in each finished sub-buffer, at its index:
 *		sub-buffer s < @produced ended at ends[s % n_subbufs] (until
 *		sub-buffer s + n_subbufs finishes); the rest is padding
 */
struct relay_buf_meta {
	__u32 version;
	__u32 meta_size;
	__u64 data_size;
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u64 produced;
	__u64 consumed;
	__u64 resets;
	__u64 reset_at;
	__u32 stopped;
	__u32 reserved32;
	__u64 reserved[2];
	__u32 ends[];
};

#endif /* _UAPI_LINUX_RELAY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracecmd_format.h - what a trace.dat says of the kernel it comes from
 * (relaytop --export-tracecmd): the ring buffer's page and event header
 * formats and the sched tracepoints' format files, as the tracefs of a
 * Debian 6.1 x86_64 kernel shows them, and a sched_relay record as the
 * entry its tracepoint writes into the ring buffer.  trace-cmd and
 * KernelShark parse the entries by these formats.
 *
 * Numbers are written in the host's byte order, which is the recording's.
 */
#ifndef RELAYTOP_TRACECMD_FORMAT_H
#define RELAYTOP_TRACECMD_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sched_relay.h"

#define TRACECMD_PAGE_SIZE	4096u	/* the ring buffer's page */
#define TRACECMD_LONG_SIZE	8u	/* the kernel's long (x86_64) */
#define TRACECMD_ENTRY_MAX	64u	/* the largest entry (sched_switch) */

static inline void tracecmd_put_u16(FILE *f, uint16_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

static inline void tracecmd_put_u32(FILE *f, uint32_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

static inline void tracecmd_put_u64(FILE *f, uint64_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

/* A string with its NUL. */
static inline void tracecmd_put_str(FILE *f, const char *s)
{
	fwrite(s, 1, strlen(s) + 1, f);
}

/* Text after its size (u64), as trace.dat holds the kernel's files. */
static inline void tracecmd_put_text8(FILE *f, const char *text, size_t len)
{
	tracecmd_put_u64(f, len);
	fwrite(text, 1, len, f);
}

/* "header_page" and "header_event", each followed by its format. */
void tracecmd_put_headers(FILE *f);
/*
 * The event formats: none of ftrace's own, then two systems, "sched" with
 * the seven tracepoints sched_relay records and "sched_relay" with
 * "unknown_record" (a record of a type this relaytop does not know).
 */
void tracecmd_put_formats(FILE *f);
/*
 * The entry of r as its tracepoint writes it into the ring buffer, with
 * common_pid pid (who ran): its size, a multiple of 4.
 */
unsigned int tracecmd_entry(const struct sched_relay_record *r, int32_t pid,
			    unsigned char buf[TRACECMD_ENTRY_MAX]);

#endif /* RELAYTOP_TRACECMD_FORMAT_H */

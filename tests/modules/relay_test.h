/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * relay_test.h - the self-checking records of the relay_test module
 *
 * Shared by tests/modules/relay_test.c, which writes the records, and
 * tests/guest/relay_sysfs.c, which reads them back.  Every byte of a
 * record follows from (cpu, seq, size), so a reader checks what it got
 * byte for byte and knows which record it expected next:
 *
 *   +-------+-----+------+-----+-----+--------------------------------+
 *   | magic | cpu | size | seq | sum | payload: size - 24 bytes       |
 *   +-------+-----+------+-----+-----+--------------------------------+
 *   0       4     6      8     16    20 (+ 4 bytes zero)              size
 *
 * seq counts write attempts on that CPU since the channel was created or
 * reset, dropped ones included, so a gap in seq is a dropped record.
 */
#ifndef RELAY_TEST_H
#define RELAY_TEST_H

#include <linux/types.h>

#define RELAY_TEST_MAGIC	0x54534c52U	/* "RLST" in memory order */

struct relay_test_record {
	__u32 magic;	/* RELAY_TEST_MAGIC */
	__u16 cpu;	/* CPU that wrote it */
	__u16 size;	/* bytes of the whole record, header included */
	__u64 seq;	/* write attempt on this CPU, from 0 */
	__u32 sum;	/* relay_test_sum() of the payload */
	__u32 zero;	/* 0 */
};

#define RELAY_TEST_MIN_SIZE	((unsigned int)sizeof(struct relay_test_record))
#define RELAY_TEST_MAX_SIZE	65535U

/* Byte i of the payload of record (cpu, seq). */
static inline __u8 relay_test_byte(unsigned int cpu, __u64 seq, unsigned int i)
{
	return (__u8)(seq * 131 + i * 7 + cpu * 29 + 1);
}

/* FNV-1a over the payload of record (cpu, seq) of @size bytes. */
static inline __u32 relay_test_sum(unsigned int cpu, __u64 seq,
				   unsigned int size)
{
	__u32 h = 2166136261U;
	unsigned int i;

	for (i = 0; i + RELAY_TEST_MIN_SIZE < size; i++) {
		h ^= relay_test_byte(cpu, seq, i);
		h *= 16777619U;
	}
	return h;
}

#endif /* RELAY_TEST_H */

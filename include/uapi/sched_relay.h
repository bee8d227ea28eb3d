/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sched_relay.h - binary format of the sched_relay channel
 *
 * The one definition of what the sched_relay module writes into its relay
 * buffers (/sys/kernel/sched_relay/cpuN) and what readers (relaytop, the
 * tests) parse.  Included by the kernel module and by user space alike, so
 * it uses only the fixed-width __u types of <linux/types.h>.
 *
 * A relay buffer is n_subbufs sub-buffers of subbuf_size bytes each:
 *
 *   +--------------------+--------+--------+-----+--------+---------+
 *   | sched_relay_header | record | record | ... | record | padding |
 *   +--------------------+--------+--------+-----+--------+---------+
 *   0                    hdr_size                committed  subbuf_size
 *
 * The header is written when relay starts the sub-buffer (the module's
 * subbuf_start callback).  'committed' is the number of bytes of the
 * sub-buffer in use, header included; the writer stores it with release
 * semantics after each record is complete, so a reader that only mmaps the
 * buffer may read records [hdr_size, committed) of a sub-buffer that is still
 * being filled (load 'committed' with acquire semantics first).
 *
 * In overwrite (flight recorder) mode the writer may start a sub-buffer
 * again while a reader is looking at it.  'seq' changes when that happens:
 * a reader copies what it needs, then checks that 'seq' still holds the
 * value it expected; if not, the data it copied is to be thrown away and
 * counted as overwritten.
 *
 * All fields are in the CPU's native byte order.
 */
#ifndef _UAPI_SCHED_RELAY_H
#define _UAPI_SCHED_RELAY_H

#include <linux/types.h>

#define SCHED_RELAY_MAGIC	0x4c525353U	/* "SSRL" in memory order */
#define SCHED_RELAY_VERSION	1

/* Event types; bit (1 << type) in the 'events' mask. */
enum sched_relay_event_type {
	SCHED_RELAY_SWITCH	= 0,	/* sched_switch */
	SCHED_RELAY_WAKEUP	= 1,	/* sched_wakeup */
	SCHED_RELAY_WAKEUP_NEW	= 2,	/* sched_wakeup_new */
	SCHED_RELAY_MIGRATE	= 3,	/* sched_migrate_task */
	SCHED_RELAY_FORK	= 4,	/* sched_process_fork */
	SCHED_RELAY_EXIT	= 5,	/* sched_process_exit */
	SCHED_RELAY_NR_EVENTS
};

#define SCHED_RELAY_ALL_EVENTS	((1U << SCHED_RELAY_NR_EVENTS) - 1)

#define SCHED_RELAY_COMM_LEN	16	/* TASK_COMM_LEN */

/*
 * struct sched_relay_header - start of every sub-buffer (64 bytes)
 * @magic:      SCHED_RELAY_MAGIC
 * @version:    SCHED_RELAY_VERSION
 * @hdr_size:   sizeof(struct sched_relay_header): records start here
 * @cpu:        CPU whose buffer this is
 * @record_size: sizeof(struct sched_relay_record)
 * @seq:        sequence number of this sub-buffer since the last reset or
 *              re-configuration, starting at 0; sub-buffer seq lives at
 *              index seq % n_subbufs of the buffer
 * @first_ts:   timestamp of the first record, 0 while there is none
 * @dropped:    events dropped on this CPU since the last reset, counted
 *              when this sub-buffer was started (cumulative)
 * @generation: value of the channel's 'generation' file when the sub-buffer
 *              was started
 * @committed:  bytes in use, header included; updated after every record
 * @reserved:   zero
 */
struct sched_relay_header {
	__u32 magic;
	__u16 version;
	__u16 hdr_size;
	__u32 cpu;
	__u32 record_size;
	__u64 seq;
	__u64 first_ts;
	__u64 dropped;
	__u64 generation;
	__u32 committed;
	__u32 reserved[3];
};

/*
 * struct sched_relay_record - one scheduler event (64 bytes)
 * @ts:         nanoseconds of CLOCK_MONOTONIC (ktime_get_mono_fast_ns()):
 *              one clock for all CPUs, comparable with
 *              clock_gettime(CLOCK_MONOTONIC) in user space
 * @type:       enum sched_relay_event_type
 * @flags:      zero
 * @cpu:        CPU the event was recorded on (the buffer's CPU)
 * @state:      switch: prev_state (TASK_* bits as sched_switch reports
 *              them); otherwise 0
 * @pid:        switch: prev_pid; fork: parent_pid; others: pid
 * @pid2:       switch: next_pid; fork: child_pid; others: 0
 * @prio:       switch: prev_prio; fork: parent's prio; others: prio
 * @prio2:      switch: next_prio; fork: child's prio; others: 0
 * @target_cpu: wakeup, wakeup_new: target_cpu; migrate: dest_cpu;
 *              others: the recording CPU
 * @orig_cpu:   migrate: orig_cpu; others: the recording CPU
 * @comm:       switch: prev_comm; fork: parent_comm; others: comm
 * @comm2:      switch: next_comm; fork: child_comm; others: zeroes
 */
struct sched_relay_record {
	__u64 ts;
	__u8  type;
	__u8  flags;
	__u16 cpu;
	__u32 state;
	__s32 pid;
	__s32 pid2;
	__s16 prio;
	__s16 prio2;
	__u16 target_cpu;
	__u16 orig_cpu;
	char  comm[SCHED_RELAY_COMM_LEN];
	char  comm2[SCHED_RELAY_COMM_LEN];
};

#endif /* _UAPI_SCHED_RELAY_H */

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sched_relay.h - binary format of the sched_relay channel
 *
 * The one definition of what the sched_relay module writes into its relay
 * buffers (/sys/kernel/sched_relay/buffers/cpuN) and what readers (relaytop, the
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
 * subbuf_start callback); 'committed' is the number of bytes of the
 * sub-buffer in use, header included.
 *
 * The header is a seqlock whose sequence is 'seq':
 *
 *   writer (starting sub-buffer n)       reader (of sub-buffer n)
 *   WRITE_ONCE(seq, SEQ_BUSY)            s = load_acquire(&seq)
 *   smp_wmb()                            if (s != n) not there yet (or gone)
 *   write the other fields,              read the fields; c = load_acquire(
 *     committed = hdr_size                 &committed); copy records below c
 *   store_release(&seq, n)               smp_rmb() (an acquire fence)
 *   ... records; after each:             if (READ_ONCE(seq) != s) all of it
 *   store_release(&committed, end)         was overwritten: throw it away
 *
 * So a reader that sees seq == n sees n's header complete, and records up
 * to every committed it loads; and the store-release of the next
 * sub-buffer's seq orders this one's last committed before it: once seq
 * n + 1 is seen, n's committed is final.  A reader that only mmaps the
 * buffer may read records [hdr_size, committed) of the sub-buffer being
 * filled.  In overwrite (flight recorder) mode the writer may start a
 * sub-buffer again while a reader copies from it: seq is SEQ_BUSY first,
 * then n + n_subbufs, and the re-check after the copy tells.
 *
 * Every record carries its place in its CPU's stream: event_seq counts
 * every event the producer saw on that CPU since the channel was created
 * or reset, written or dropped.  Record i (from 0) of a sub-buffer has
 * event number first_event_seq + i, and event_seq holds its low 32 bits,
 * so a gap between two records is exactly the events missing there
 * (dropped by the producer, or overwritten before a reader got them) and
 * a record seen twice is seen to be.
 *
 * All fields are in the CPU's native byte order.
 */
#ifndef _UAPI_SCHED_RELAY_H
#define _UAPI_SCHED_RELAY_H

#include <linux/types.h>

#define SCHED_RELAY_MAGIC	0x4c525353U	/* "SSRL" in memory order */
#define SCHED_RELAY_VERSION	2

/* Event types; bit (1 << type) in the 'events' mask. */
enum sched_relay_event_type {
	SCHED_RELAY_SWITCH	= 0,	/* sched_switch */
	SCHED_RELAY_WAKEUP	= 1,	/* sched_wakeup */
	SCHED_RELAY_WAKEUP_NEW	= 2,	/* sched_wakeup_new */
	SCHED_RELAY_MIGRATE	= 3,	/* sched_migrate_task */
	SCHED_RELAY_FORK	= 4,	/* sched_process_fork */
	SCHED_RELAY_EXIT	= 5,	/* sched_process_exit */
	SCHED_RELAY_WAKING	= 6,	/* sched_waking (version 2) */
	SCHED_RELAY_NR_EVENTS
};

#define SCHED_RELAY_ALL_EVENTS	((1U << SCHED_RELAY_NR_EVENTS) - 1)

#define SCHED_RELAY_COMM_LEN	16	/* TASK_COMM_LEN */

/* The header's seq while the writer sets the header up. */
#define SCHED_RELAY_SEQ_BUSY	(~(__u64)0)

/*
 * A switch record's state: the previous task's state as the sched_switch
 * trace event prints it (its letter), from __task_state_index(), or
 * PREEMPTED ("R+") when it was preempted while runnable.
 */
enum sched_relay_task_state {
	SCHED_RELAY_STATE_RUNNING	= 0,	/* R: runnable, gave up the CPU */
	SCHED_RELAY_STATE_SLEEPING	= 1,	/* S: interruptible sleep */
	SCHED_RELAY_STATE_DISK		= 2,	/* D: uninterruptible sleep */
	SCHED_RELAY_STATE_STOPPED	= 3,	/* T */
	SCHED_RELAY_STATE_TRACED	= 4,	/* t */
	SCHED_RELAY_STATE_DEAD		= 5,	/* X */
	SCHED_RELAY_STATE_ZOMBIE	= 6,	/* Z */
	SCHED_RELAY_STATE_PARKED	= 7,	/* P */
	SCHED_RELAY_STATE_IDLE		= 8,	/* I: idle kernel thread */
	SCHED_RELAY_STATE_PREEMPTED	= 9,	/* R+: preempted while runnable */
	SCHED_RELAY_NR_STATES
};

/* prio and prio2 of a deadline task (the kernel's prio -1). */
#define SCHED_RELAY_PRIO_DEADLINE	255

/*
 * struct sched_relay_header - start of every sub-buffer (64 bytes)
 * @magic:      SCHED_RELAY_MAGIC
 * @version:    SCHED_RELAY_VERSION
 * @hdr_size:   sizeof(struct sched_relay_header): records start here
 * @cpu:        CPU whose buffer this is
 * @record_size: sizeof(struct sched_relay_record)
 * @seq:        relay's number of this sub-buffer: counted from 0 when the
 *              channel was created (a new geometry creates it again),
 *              never set back (a reset ends the sub-buffer being filled
 *              and goes on at the next number, the relay meta area's
 *              reset_at); sub-buffer seq lives at index seq % n_subbufs
 *              of the buffer; SCHED_RELAY_SEQ_BUSY while the header is
 *              being set up (see above)
 * @first_ts:   timestamp of the first record, 0 while there is none
 * @dropped:    events dropped on this CPU since the last reset, counted
 *              when this sub-buffer was started (cumulative)
 * @generation: value of the channel's 'generation' file when the sub-buffer
 *              was started
 * @committed:  bytes in use, header included; updated after every record
 * @reserved:   zero
 * @first_event_seq: event number of the sub-buffer's first record (the
 *              events this CPU saw before it since the reset, written or
 *              dropped); the next record's number while it is empty
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
	__u32 reserved;
	__u64 first_event_seq;
};

/*
 * struct sched_relay_record - one scheduler event (64 bytes)
 * @ts:         nanoseconds of CLOCK_MONOTONIC (ktime_get_mono_fast_ns()):
 *              one clock for all CPUs, comparable with
 *              clock_gettime(CLOCK_MONOTONIC) in user space
 * @event_seq:  low 32 bits of the event's number on its CPU (see above)
 * @type:       enum sched_relay_event_type
 * @state:      switch: enum sched_relay_task_state of prev; otherwise 0
 * @prio:       switch: prev_prio; fork: parent's prio; others: prio;
 *              0..139, or SCHED_RELAY_PRIO_DEADLINE
 * @prio2:      switch: next_prio; fork: child's prio; others: 0
 * @pid:        switch: prev_pid; fork: parent_pid; others: pid
 * @tgid:       thread-group id (process id) of the task of @pid
 * @pid2:       switch: next_pid; fork: child_pid; others: 0
 * @tgid2:      thread-group id of the task of @pid2; others: 0
 * @comm:       switch: prev_comm; fork: parent_comm; others: comm
 * @comm2:      switch: next_comm; fork: child_comm
 * @target_cpu: (instead of @comm2) wakeup, wakeup_new, waking: target_cpu;
 *              migrate: dest_cpu; exit: the recording CPU
 * @orig_cpu:   (instead of @comm2) migrate: orig_cpu; others: the
 *              recording CPU
 * @reserved:   (instead of @comm2) zero
 *
 * The recording CPU is the buffer's (the header's @cpu).
 */
struct sched_relay_record {
	__u64 ts;
	__u32 event_seq;
	__u8  type;
	__u8  state;
	__u8  prio;
	__u8  prio2;
	__s32 pid;
	__s32 tgid;
	__s32 pid2;
	__s32 tgid2;
	char  comm[SCHED_RELAY_COMM_LEN];
	union {
		char comm2[SCHED_RELAY_COMM_LEN];
		struct {
			__u16 target_cpu;
			__u16 orig_cpu;
			__u32 reserved[3];
		};
	};
};

/*
 * struct sched_relay_record_v1 - the record of SCHED_RELAY_VERSION 1
 * (64 bytes), for readers of files recorded from it.  No event_seq, tgid
 * or sched_waking; cpu is the recording CPU; state is the TASK_REPORT bit
 * of prev_state (1 << (index - 1), 0 for R), or 0x100 (TASK_REPORT_MAX)
 * when preempted; prio and prio2 as the kernel's (-1 for deadline);
 * target_cpu and orig_cpu as in version 2, set for every type.
 */
struct sched_relay_record_v1 {
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

// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay - scheduler events into a relay channel exposed in sysfs
 *
 * The module hooks the scheduler tracepoints (sched_switch, sched_waking,
 * sched_wakeup, sched_wakeup_new, sched_migrate_task, sched_process_fork
 * and sched_process_exit), which it finds by name, and writes one 64-byte
 * struct sched_relay_record per event into the buffer of the CPU the event
 * happens on.  The channel is a
 * sysfs relay attribute, so user space finds it, and the knobs that control
 * it, in one directory:
 *
 *   /sys/kernel/sched_relay/
 *     buffers/      the relay channel (a sysfs relay attribute), one file
 *       cpu0 .. cpuN  per CPU buffer (0600): read() consumes what it
 *                   returns, mmap() maps the buffer and relay's read-only
 *                   meta area after it, poll() reports a ready
 *                   sub-buffer (a poller is woken once wakeup_subbufs
 *                   are ready), write("N") after mmap reading hands
 *                   back every sub-buffer before absolute number N
 *                   (ESTALE once a reset has passed N)
 *     enabled       0|1
 *     events        which event types are recorded
 *     overwrite     0: drop new events when full (counted), 1: flight recorder
 *     subbuf_size   bytes per sub-buffer (a write re-creates the channel)
 *     n_subbufs     sub-buffers per CPU (a write re-creates the channel)
 *     wakeup_subbufs  sub-buffers ready to read that wake a poller of a
 *                   buffer (relay_set_wakeup_subbufs()); a full buffer
 *                   always wakes
 *     reset         write 1: empty every buffer and zero the counters
 *     generation    bumped by every configuration change and reset
 *     stats/        one file per counter, each an array over the CPUs
 *                   (value N is CPU N's): produced, dropped,
 *                   subbufs_produced, subbufs_consumed, fill_bytes,
 *                   wakeups
 *
 * The buffers, the attributes and stats/ exist before the KOBJ_ADD uevent
 * of the kobject (add@/kernel/sched_relay, SUBSYSTEM=sched_relay); rmmod
 * sends remove@/kernel/sched_relay.  A geometry change re-creates buffers/
 * later; readers learn of it from 'generation', which is notified, and
 * from a KOBJ_CHANGE uevent (RELAY=buffers) once the new files are there.
 *
 * Buffer layout (sched_relay.h is the one definition):
 *
 *   one CPU's buffer: n_subbufs sub-buffers of subbuf_size bytes
 *   +------------+------------+-----+------------+
 *   | sub-buf 0  | sub-buf 1  | ... | sub-buf n-1|   sub-buffer seq lives at
 *   +------------+------------+-----+------------+   index seq % n_subbufs
 *
 *   one sub-buffer:
 *   +--------+--------+--------+-----+--------+----------------+
 *   | header | record | record | ... | record |   (not yet)    |
 *   +--------+--------+--------+-----+--------+----------------+
 *   0        64                              committed     subbuf_size
 *
 * The header is written by relay's subbuf_start callback whenever relay
 * moves to a new sub-buffer (and when the channel is created or reset):
 * magic, version, the CPU, the sub-buffer's sequence number (relay's
 * subbufs_produced: counted from the channel's creation, never set back
 * by a reset), the generation, the events dropped
 * on this CPU so far and the number of its first event.  The header is a
 * seqlock: seq is SCHED_RELAY_SEQ_BUSY while the rest is written and is
 * published last, with release semantics.  In no-overwrite mode the
 * callback refuses a full buffer without touching it, and relay counts the
 * event as dropped (counts.refused_count); in overwrite mode it always accepts and
 * readers notice overwritten sub-buffers by their changed seq.
 *
 * Every event a probe sees while there is a channel gets the next number
 * of its CPU's count (sched_relay_event_seq), whether relay keeps or drops
 * it; the record holds its low 32 bits.  So readers see where events are
 * missing and how many, and a record delivered twice.
 *
 * Probes are attached only for the event types being recorded, none while
 * disabled, so what is not recorded costs the scheduler nothing.
 *
 * Write path: every probe checks the event mask (zero while disabled: it
 * covers the moments while probes come and go), then reserves 64 bytes with
 * relay_reserve() and fills the record in place, no copy.  Probes run in
 * scheduler context, sched_switch with the runqueue lock held and interrupts
 * off, but sched_process_fork/exit (and a task's wake-up of itself) with
 * interrupts on: an interrupt's wake-up could then re-enter the same CPU's
 * buffer, so reserve, fill and commit run with local interrupts off
 * (sched_switch has them off already).  Nothing on the write path sleeps or
 * takes a lock; relay wakes readers through irq_work.
 * After each record the header's committed is stored with release semantics
 * so that a reader which only maps the buffer can parse the sub-buffer being
 * filled (it loads committed with acquire semantics).
 *
 * Lifetime: the probes find the channel through an RCU-protected pointer and
 * run with preemption disabled.  Every change that frees or empties buffers
 * (new geometry, reset, mode change, unload) first clears the pointer and
 * waits with synchronize_rcu(), so no probe is inside the channel when relay
 * touches it; on unload the probes are unregistered and
 * tracepoint_synchronize_unregister() waits for them before anything is
 * freed.  Configuration changes are serialized by sched_relay.lock and run
 * in process context, which sysfs_notify() needs.  Readers that hold a
 * buffer open, mapped or polled are handled by the sysfs relay host: removal
 * drains them (reads fail, mappings fault, pollers wake with POLLERR).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include <sched_relay.h>

#define SCHED_RELAY_MIN_SUBBUF_SIZE	4096UL
#define SCHED_RELAY_MAX_SUBBUF_SIZE	(4UL << 20)
#define SCHED_RELAY_MIN_SUBBUFS		2UL
#define SCHED_RELAY_MAX_SUBBUFS		256UL
#define SCHED_RELAY_HDR_SIZE		sizeof(struct sched_relay_header)
#define SCHED_RELAY_REC_SIZE		sizeof(struct sched_relay_record)

static_assert(sizeof(struct sched_relay_header) == 64);
static_assert(sizeof(struct sched_relay_record) == 64);

/* Names of the event types in 'events', indexed by enum sched_relay_event_type. */
static const char *const sched_relay_event_names[SCHED_RELAY_NR_EVENTS] = {
	[SCHED_RELAY_SWITCH]		= "switch",
	[SCHED_RELAY_WAKEUP]		= "wakeup",
	[SCHED_RELAY_WAKEUP_NEW]	= "wakeup_new",
	[SCHED_RELAY_MIGRATE]		= "migrate",
	[SCHED_RELAY_FORK]		= "fork",
	[SCHED_RELAY_EXIT]		= "exit",
	[SCHED_RELAY_WAKING]		= "waking",
};

/*
 * Events this CPU's probes saw since the channel was created or reset,
 * written or dropped: the next record's event number.  Read and advanced
 * on the write path with interrupts off, read by subbuf_start on the same
 * CPU, zeroed with the writers stopped.
 */
static DEFINE_PER_CPU(u64, sched_relay_event_seq);

/* What the write path reads: kept apart from the configuration. */
static struct {
	unsigned int mask;		/* events to record: 0 while disabled */
	struct rchan __rcu *chan;	/* channel to write to, or NULL */
} sched_relay_hot __read_mostly;

/* Configuration and the channel; all fields under 'lock' unless noted. */
static struct {
	struct mutex lock;		/* serializes configuration changes */
	struct kset *kset;		/* the kobject's, for its uevents */
	struct kobject *kobj;		/* /sys/kernel/sched_relay */
	struct sysfs_relay *files;	/* buffers/cpuN, when chan exists */
	struct rchan *chan;		/* the channel that exists, or NULL */
	size_t subbuf_size;		/* its geometry (or the last asked) */
	size_t n_subbufs;
	bool enabled;
	unsigned int events;		/* SCHED_RELAY_* bits */
	unsigned int attached;		/* event types with a probe attached */
	bool overwrite;			/* read locklessly by subbuf_start */
	size_t wakeup_subbufs;		/* applied to every channel created */
	u64 generation;			/* read locklessly by subbuf_start */
} sched_relay = {
	.lock = __MUTEX_INITIALIZER(sched_relay.lock),
};

/* Initial configuration; the sysfs files change it later. */
static unsigned long param_subbuf_size = 65536;
module_param_named(subbuf_size, param_subbuf_size, ulong, 0);
MODULE_PARM_DESC(subbuf_size, "bytes per sub-buffer: a power of two, 4096..4194304 (65536)");

static unsigned long param_n_subbufs = 8;
module_param_named(n_subbufs, param_n_subbufs, ulong, 0);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per CPU buffer: 2..256 (8)");

static unsigned long param_wakeup_subbufs = 1;
module_param_named(wakeup_subbufs, param_wakeup_subbufs, ulong, 0);
MODULE_PARM_DESC(wakeup_subbufs, "ready sub-buffers that wake a reader: 1..256 (1)");

static bool param_overwrite;
module_param_named(overwrite, param_overwrite, bool, 0);
MODULE_PARM_DESC(overwrite, "overwrite the oldest data when full instead of dropping (0)");

static bool param_enabled = true;
module_param_named(enabled, param_enabled, bool, 0);
MODULE_PARM_DESC(enabled, "record from the start (1)");

static unsigned int param_events = SCHED_RELAY_ALL_EVENTS;
module_param_named(events, param_events, uint, 0);
MODULE_PARM_DESC(events, "mask of event types to record, 0x0..0x7f (0x7f)");

/*
 * Relay callback: start a sub-buffer.  Runs on the write path (buffer's CPU,
 * interrupts off) when relay switches sub-buffers, and in process context
 * with no writer when the channel is created or reset.
 */
static int sched_relay_subbuf_start(struct rchan_buf *buf, void *subbuf,
				    void *prev_subbuf)
{
	struct sched_relay_header *hdr = subbuf;

	if (!READ_ONCE(sched_relay.overwrite) && relay_buf_full(buf))
		return 0;

	/* The header is a seqlock (sched_relay.h). */
	WRITE_ONCE(hdr->seq, SCHED_RELAY_SEQ_BUSY);
	/*
	 * A reader may still be copying this sub-buffer's previous lap in
	 * overwrite mode: busy before anything in it changes.  Pairs with the
	 * reader's smp_rmb() before it checks seq again.
	 */
	smp_wmb();
	hdr->magic = SCHED_RELAY_MAGIC;
	hdr->version = SCHED_RELAY_VERSION;
	hdr->hdr_size = SCHED_RELAY_HDR_SIZE;
	hdr->cpu = buf->cpu;
	hdr->record_size = SCHED_RELAY_REC_SIZE;
	hdr->first_ts = 0;
	hdr->dropped = buf->counts.refused_count + buf->stats.big_count;
	hdr->generation = READ_ONCE(sched_relay.generation);
	hdr->reserved = 0;
	/* the event being reserved (the write path has not counted it yet) */
	hdr->first_event_seq = per_cpu(sched_relay_event_seq, buf->cpu);
	WRITE_ONCE(hdr->committed, SCHED_RELAY_HDR_SIZE);
	subbuf_start_reserve(buf, SCHED_RELAY_HDR_SIZE);
	/*
	 * Publish: the header above, and the previous sub-buffer's last
	 * committed, before seq.  Pairs with the reader's smp_load_acquire()
	 * of seq.
	 */
	smp_store_release(&hdr->seq, buf->subbufs_produced);
	return 1;
}

/* buffers/cpuN: the channel's directory, apart from the attributes */
static const struct relay_attribute sched_relay_buffers =
	__ATTR_RELAY(buffers, 0600, sched_relay_subbuf_start);

/*
 * Reserve a record in this CPU's buffer and give the event its number
 * (*seq), counted whether relay keeps or drops it.  On success interrupts
 * are off until sched_relay_commit(): if the caller did not have them off
 * already (@irqs_off), they are disabled here and the state saved in
 * *flags.  NULL if there is no channel or relay dropped the event.
 */
static __always_inline struct sched_relay_record *
sched_relay_reserve(struct rchan_buf **bufp, unsigned long *flags,
		    bool irqs_off, u64 *seq)
{
	struct sched_relay_record *rec;
	struct rchan *chan;

	chan = rcu_dereference_sched(sched_relay_hot.chan);
	if (unlikely(!chan))
		return NULL;
	if (irqs_off)
		lockdep_assert_irqs_disabled();
	else
		local_irq_save(*flags);
	/* a sub-buffer started by this reserve reads the number too */
	*seq = __this_cpu_read(sched_relay_event_seq);
	rec = relay_reserve(chan, SCHED_RELAY_REC_SIZE);
	__this_cpu_write(sched_relay_event_seq, *seq + 1);
	if (unlikely(!rec)) {
		if (!irqs_off)
			local_irq_restore(*flags);
		return NULL;
	}
	*bufp = *this_cpu_ptr(chan->buf);
	return rec;
}

/* A task's prio as a record holds it. */
static __always_inline u8 sched_relay_prio(int prio)
{
	return prio < 0 ? SCHED_RELAY_PRIO_DEADLINE : prio;
}

/* Make a filled record visible to mmap readers; undo what reserve did. */
static __always_inline void sched_relay_commit(struct rchan_buf *buf,
					       struct sched_relay_record *rec,
					       unsigned long flags,
					       bool irqs_off)
{
	struct sched_relay_header *hdr = buf->data;

	if (unlikely((void *)rec == (void *)(hdr + 1)))
		hdr->first_ts = rec->ts;
	/*
	 * The record (and first_ts) before the offset that covers it: pairs
	 * with the reader's smp_load_acquire() of committed.
	 */
	smp_store_release(&hdr->committed, (u32)buf->offset);
	if (!irqs_off)
		local_irq_restore(flags);
}

/*
 * Write one record.  @p2 is the second task (switch: next, fork: child) or
 * NULL; @target_cpu and @orig_cpu are -1 for "the recording CPU".  With
 * @irqs_off the caller has interrupts off and nothing is saved or
 * restored.  sched_switch always comes with them off; the other events
 * usually do (a wake-up under the runqueue lock) but not always (a wake-up
 * of current, fork, exit), so their probes ask irqs_disabled(): a flags
 * read is cheaper than a save and restore.
 */
static __always_inline void sched_relay_log(enum sched_relay_event_type type,
					    const struct task_struct *p,
					    const struct task_struct *p2,
					    u32 state, int target_cpu,
					    int orig_cpu, bool irqs_off)
{
	struct sched_relay_record *rec;
	struct rchan_buf *buf;
	unsigned long flags = 0;
	u64 seq;

	if (!(READ_ONCE(sched_relay_hot.mask) & BIT(type)))
		return;
	rec = sched_relay_reserve(&buf, &flags, irqs_off, &seq);
	if (!rec)
		return;

	rec->ts = ktime_get_mono_fast_ns();
	rec->event_seq = (u32)seq;
	rec->type = type;
	rec->state = state;
	rec->prio = sched_relay_prio(p->prio);
	rec->pid = p->pid;
	rec->tgid = p->tgid;
	memcpy(rec->comm, p->comm, SCHED_RELAY_COMM_LEN);
	if (p2) {
		rec->prio2 = sched_relay_prio(p2->prio);
		rec->pid2 = p2->pid;
		rec->tgid2 = p2->tgid;
		memcpy(rec->comm2, p2->comm, SCHED_RELAY_COMM_LEN);
	} else {
		rec->prio2 = 0;
		rec->pid2 = 0;
		rec->tgid2 = 0;
		rec->target_cpu = target_cpu < 0 ? buf->cpu : target_cpu;
		rec->orig_cpu = orig_cpu < 0 ? buf->cpu : orig_cpu;
		memset(rec->reserved, 0, sizeof(rec->reserved));
	}
	sched_relay_commit(buf, rec, flags, irqs_off);
}

/* prev_state as the sched_switch trace event reports it (its letter). */
static __always_inline u32 sched_relay_switch_state(bool preempt,
						    unsigned int prev_state,
						    const struct task_struct *prev)
{
	if (preempt)
		return SCHED_RELAY_STATE_PREEMPTED;
	return __task_state_index(prev_state, prev->exit_state);
}

static void sched_relay_probe_switch(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	sched_relay_log(SCHED_RELAY_SWITCH, prev, next,
			sched_relay_switch_state(preempt, prev_state, prev),
			-1, -1, true);
}

static void sched_relay_probe_wakeup(void *data, struct task_struct *p)
{
	sched_relay_log(SCHED_RELAY_WAKEUP, p, NULL, 0, task_cpu(p), -1,
			irqs_disabled());
}

static void sched_relay_probe_waking(void *data, struct task_struct *p)
{
	sched_relay_log(SCHED_RELAY_WAKING, p, NULL, 0, task_cpu(p), -1,
			irqs_disabled());
}

static void sched_relay_probe_wakeup_new(void *data, struct task_struct *p)
{
	sched_relay_log(SCHED_RELAY_WAKEUP_NEW, p, NULL, 0, task_cpu(p), -1,
			irqs_disabled());
}

static void sched_relay_probe_migrate(void *data, struct task_struct *p,
				      int dest_cpu)
{
	sched_relay_log(SCHED_RELAY_MIGRATE, p, NULL, 0, dest_cpu, task_cpu(p),
			irqs_disabled());
}

static void sched_relay_probe_fork(void *data, struct task_struct *parent,
				   struct task_struct *child)
{
	sched_relay_log(SCHED_RELAY_FORK, parent, child, 0, -1, -1,
			irqs_disabled());
}

static void sched_relay_probe_exit(void *data, struct task_struct *p)
{
	sched_relay_log(SCHED_RELAY_EXIT, p, NULL, 0, -1, -1, irqs_disabled());
}

/*
 * The tracepoint and probe of each event type.  The tracepoints are found
 * by name (for_each_kernel_tracepoint()), as
 * samples/trace_events/trace_custom_sched.c does, so that the kernel need
 * not export them to modules; check_trace_callback_type_*() checks each
 * probe's prototype against its tracepoint at build time.
 */
static struct sched_relay_tracepoint {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} sched_relay_tps[SCHED_RELAY_NR_EVENTS] = {
	[SCHED_RELAY_SWITCH]	 = { "sched_switch", sched_relay_probe_switch },
	[SCHED_RELAY_WAKEUP]	 = { "sched_wakeup", sched_relay_probe_wakeup },
	[SCHED_RELAY_WAKEUP_NEW] = { "sched_wakeup_new", sched_relay_probe_wakeup_new },
	[SCHED_RELAY_MIGRATE]	 = { "sched_migrate_task", sched_relay_probe_migrate },
	[SCHED_RELAY_FORK]	 = { "sched_process_fork", sched_relay_probe_fork },
	[SCHED_RELAY_EXIT]	 = { "sched_process_exit", sched_relay_probe_exit },
	[SCHED_RELAY_WAKING]	 = { "sched_waking", sched_relay_probe_waking },
};

static void __init sched_relay_check_probes(void)
{
	check_trace_callback_type_sched_switch(sched_relay_probe_switch);
	check_trace_callback_type_sched_wakeup(sched_relay_probe_wakeup);
	check_trace_callback_type_sched_wakeup_new(sched_relay_probe_wakeup_new);
	check_trace_callback_type_sched_migrate_task(sched_relay_probe_migrate);
	check_trace_callback_type_sched_process_fork(sched_relay_probe_fork);
	check_trace_callback_type_sched_process_exit(sched_relay_probe_exit);
	check_trace_callback_type_sched_waking(sched_relay_probe_waking);
	/* switch states are __task_state_index() values, "RSDTtXZPI" */
	BUILD_BUG_ON(ilog2(TASK_REPORT_IDLE) + 1 != SCHED_RELAY_STATE_IDLE);
}

static void __init sched_relay_find_tracepoint(struct tracepoint *tp, void *priv)
{
	int type;

	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++)
		if (!strcmp(tp->name, sched_relay_tps[type].name))
			sched_relay_tps[type].tp = tp;
}

/* Find every tracepoint; -ENOENT (and which) if the kernel lacks one. */
static int __init sched_relay_find_tracepoints(void)
{
	int type;

	sched_relay_check_probes();
	for_each_kernel_tracepoint(sched_relay_find_tracepoint, NULL);
	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++) {
		if (!sched_relay_tps[type].tp) {
			pr_err("no tracepoint %s in this kernel\n",
			       sched_relay_tps[type].name);
			return -ENOENT;
		}
	}
	return 0;
}

/* Attach (@on) or detach the probe of one event type. */
static int sched_relay_attach(enum sched_relay_event_type type, bool on)
{
	const struct sched_relay_tracepoint *t = &sched_relay_tps[type];

	return on ? tracepoint_probe_register(t->tp, t->probe, NULL) :
		    tracepoint_probe_unregister(t->tp, t->probe, NULL);
}

/* --- configuration (process context, sched_relay.lock held) --- */

/*
 * Record the event types of @mask: attach their probes, detach the others,
 * and let the probes see the mask.  Probes are attached only while their
 * event type is recorded, so a disabled channel costs the scheduler
 * nothing; the mask the probes check covers the moments in between.  On
 * an error nothing has changed.  When it returns with a type dropped, no
 * probe is recording it any more.
 */
static int sched_relay_set_mask(unsigned int mask)
{
	unsigned int old = sched_relay.attached, added = 0;
	int type, err;

	/* Attaching can fail (no memory): do it first, undo on failure. */
	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++) {
		if (!(mask & ~old & BIT(type)))
			continue;
		err = sched_relay_attach(type, true);
		if (err)
			goto err_detach;
		added |= BIT(type);
	}
	WRITE_ONCE(sched_relay_hot.mask, mask);
	/* Detaching does not fail: tracepoints fall back to a stub. */
	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++)
		if (old & ~mask & BIT(type))
			sched_relay_attach(type, false);
	sched_relay.attached = mask;
	if (old & ~mask)
		tracepoint_synchronize_unregister();
	return 0;

err_detach:
	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++)
		if (added & BIT(type))
			sched_relay_attach(type, false);
	tracepoint_synchronize_unregister();
	return err;
}

/* The event types recorded for @enabled and @events. */
static unsigned int sched_relay_mask(bool enabled, unsigned int events)
{
	return enabled ? events : 0;
}

/* Keep the probes out of the channel; on return none is inside it. */
static void sched_relay_stop_writers(void)
{
	RCU_INIT_POINTER(sched_relay_hot.chan, NULL);
	synchronize_rcu();
}

static void sched_relay_start_writers(void)
{
	rcu_assign_pointer(sched_relay_hot.chan, sched_relay.chan);
}

/* A new generation: sub-buffers started from now on carry it. */
static void sched_relay_bump_generation(void)
{
	WRITE_ONCE(sched_relay.generation, sched_relay.generation + 1);
}

static void sched_relay_notify_stats(void);

/* Wake pollers of @name (if any) and of 'generation'. */
static void sched_relay_notify(const char *name)
{
	if (name)
		sysfs_notify(sched_relay.kobj, NULL, name);
	sysfs_notify(sched_relay.kobj, NULL, "generation");
}

static bool sched_relay_geometry_valid(unsigned long size, unsigned long n)
{
	return is_power_of_2(size) &&
	       size >= SCHED_RELAY_MIN_SUBBUF_SIZE &&
	       size <= SCHED_RELAY_MAX_SUBBUF_SIZE &&
	       n >= SCHED_RELAY_MIN_SUBBUFS && n <= SCHED_RELAY_MAX_SUBBUFS;
}

/*
 * Number events from 0 again on every CPU: before relay starts the first
 * sub-buffers of a new or reset channel (their first_event_seq).  With
 * the writers stopped.
 */
static void sched_relay_zero_event_seqs(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(sched_relay_event_seq, cpu) = 0;
}

/* Empty every buffer and zero its counters; with the writers stopped. */
static void sched_relay_empty_channel(void)
{
	sched_relay_zero_event_seqs();
	relay_reset(sched_relay.chan);
}

static bool sched_relay_wakeup_valid(unsigned long n)
{
	return n >= 1 && n <= SCHED_RELAY_MAX_SUBBUFS;
}

static int sched_relay_create_channel(size_t size, size_t n)
{
	struct sysfs_relay *files;

	sched_relay_zero_event_seqs();
	files = sysfs_create_relay_file(sched_relay.kobj, &sched_relay_buffers,
					size, n, NULL);
	if (IS_ERR(files))
		return PTR_ERR(files);
	sched_relay.files = files;
	sched_relay.chan = sysfs_relay_chan(files);
	sched_relay.subbuf_size = size;
	sched_relay.n_subbufs = n;
	/*
	 * Until this is set, relay wakes pollers for every sub-buffer:
	 * earlier than asked, never later.  It cannot fail: chan is set
	 * and the value was checked.
	 */
	WARN_ON(relay_set_wakeup_subbufs(sched_relay.chan,
					 sched_relay.wakeup_subbufs));
	return 0;
}

static void sched_relay_destroy_channel(void)
{
	if (!sched_relay.chan)
		return;
	sysfs_remove_relay_file(sched_relay.files);
	sched_relay.files = NULL;
	sched_relay.chan = NULL;
}

/*
 * Re-create the channel with a new geometry.  The buffer files go away
 * (readers see them removed) and come back with the new size.  If the new
 * buffers cannot be had, the old geometry is restored.
 */
static int sched_relay_set_geometry(size_t size, size_t n)
{
	size_t old_size = sched_relay.subbuf_size;
	size_t old_n = sched_relay.n_subbufs;
	u64 avail, want, have = 0;
	int err;

	if (sched_relay.chan && size == old_size && n == old_n)
		return 0;

	/* Refuse what would starve the system rather than invoke the OOM killer. */
	if (sched_relay.chan)
		have = (u64)old_size * old_n * num_possible_cpus();
	want = (u64)size * n * num_possible_cpus();
	avail = ((u64)si_mem_available() << PAGE_SHIFT) + have;
	if (want > avail / 2)
		return -ENOMEM;

	sched_relay_stop_writers();
	sched_relay_destroy_channel();
	sched_relay_bump_generation();
	err = sched_relay_create_channel(size, n);
	if (err) {
		pr_warn("cannot create a channel of %zu x %zu bytes per CPU (%d), keeping %zu x %zu\n",
			n, size, err, old_n, old_size);
		if (sched_relay_create_channel(old_size, old_n))
			pr_err("cannot re-create the channel: no buffers until the geometry is set again\n");
		/* The buffers were re-created all the same: readers must know. */
		sched_relay_notify(NULL);
	}
	sched_relay_start_writers();
	return err;
}

/* Empty every buffer and zero its counters. */
static void sched_relay_reset_channel(void)
{
	sched_relay_stop_writers();
	sched_relay_bump_generation();
	sched_relay_empty_channel();
	sched_relay_start_writers();
}

/* --- sysfs control files --- */

/*
 * sysfs hands store() a NUL-terminated copy of at most a page of what was
 * written.  A full page may be the head of a longer write, which would
 * otherwise look like a short write that succeeded: refuse it.  Refuse
 * writes that carry a NUL of their own too, which kstrto*() would stop at,
 * and a leading '+', which kstrto*() skips but the ABI calls a sign.
 */
static int sched_relay_check_input(const char *buf, size_t count)
{
	if (count >= PAGE_SIZE)
		return -E2BIG;
	if (strnlen(buf, count) != count || buf[0] == '+')
		return -EINVAL;
	return 0;
}

/* A decimal unsigned long, by the rules of sched_relay_check_input(). */
static int sched_relay_parse_ulong(const char *buf, size_t count,
				   unsigned long *val)
{
	int err = sched_relay_check_input(buf, count);

	return err ? err : kstrtoul(buf, 10, val);
}

/* Show one size_t of the configuration, read under the lock. */
static ssize_t sched_relay_show_size(char *buf, const size_t *field)
{
	size_t val;

	mutex_lock(&sched_relay.lock);
	val = *field;
	mutex_unlock(&sched_relay.lock);
	return sysfs_emit(buf, "%zu\n", val);
}

static int sched_relay_parse_bool(const char *buf, size_t count, bool *val)
{
	unsigned int v;
	int err;

	err = sched_relay_check_input(buf, count);
	if (err)
		return err;
	err = kstrtouint(buf, 10, &v);
	if (err)
		return err;
	if (v > 1)
		return -EINVAL;
	*val = v;
	return 0;
}

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(sched_relay.enabled));
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	bool val;
	int err;

	err = sched_relay_parse_bool(buf, count, &val);
	if (err)
		return err;

	mutex_lock(&sched_relay.lock);
	if (val != sched_relay.enabled) {
		/*
		 * When disabling, the probes are gone when this returns:
		 * after "echo 0 > enabled" the counters stand still.
		 */
		err = sched_relay_set_mask(sched_relay_mask(val, sched_relay.events));
		if (!err) {
			WRITE_ONCE(sched_relay.enabled, val);
			sched_relay_bump_generation();
			sched_relay_notify(attr->attr.name);
		}
	}
	mutex_unlock(&sched_relay.lock);
	return err ? err : count;
}

static ssize_t events_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	unsigned int mask = READ_ONCE(sched_relay.events);
	const char *sep = "";
	int type, len = 0;

	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++) {
		if (!(mask & BIT(type)))
			continue;
		len += sysfs_emit_at(buf, len, "%s%s", sep,
				     sched_relay_event_names[type]);
		sep = " ";
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/* One event name (or "all", "none") of @len bytes at @s into @mask. */
static int sched_relay_parse_event_name(const char *s, size_t len,
					unsigned int *mask)
{
	int type;

	if (len == 3 && !strncmp(s, "all", 3)) {
		*mask |= SCHED_RELAY_ALL_EVENTS;
		return 0;
	}
	if (len == 4 && !strncmp(s, "none", 4))
		return 0;
	for (type = 0; type < SCHED_RELAY_NR_EVENTS; type++) {
		const char *name = sched_relay_event_names[type];

		if (strlen(name) == len && !strncmp(s, name, len)) {
			*mask |= BIT(type);
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * A number (decimal, or hex with 0x) no larger than the all-events mask, or
 * event names separated by spaces and commas, with one optional trailing
 * newline.
 */
static int sched_relay_parse_events(const char *buf, size_t count,
				    unsigned int *mask)
{
	unsigned int m = 0;
	size_t len, names = 0;
	int err;

	err = sched_relay_check_input(buf, count);
	if (err)
		return err;
	if (buf[0] >= '0' && buf[0] <= '9') {
		bool hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');

		err = kstrtouint(buf, hex ? 16 : 10, &m);
		if (err)
			return err;
		if (m & ~SCHED_RELAY_ALL_EVENTS)
			return -EINVAL;
		*mask = m;
		return 0;
	}

	if (count && buf[count - 1] == '\n')
		count--;
	while (count) {
		if (*buf == ' ' || *buf == ',') {
			buf++;
			count--;
			continue;
		}
		for (len = 0; len < count; len++)
			if (buf[len] == ' ' || buf[len] == ',')
				break;
		err = sched_relay_parse_event_name(buf, len, &m);
		if (err)
			return err;
		names++;
		buf += len;
		count -= len;
	}
	if (!names)
		return -EINVAL;
	*mask = m;
	return 0;
}

static ssize_t events_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int mask;
	int err;

	err = sched_relay_parse_events(buf, count, &mask);
	if (err)
		return err;

	mutex_lock(&sched_relay.lock);
	if (mask != sched_relay.events) {
		err = sched_relay_set_mask(sched_relay_mask(sched_relay.enabled, mask));
		if (!err) {
			WRITE_ONCE(sched_relay.events, mask);
			sched_relay_bump_generation();
			sched_relay_notify(attr->attr.name);
		}
	}
	mutex_unlock(&sched_relay.lock);
	return err ? err : count;
}

static ssize_t overwrite_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(sched_relay.overwrite));
}

/*
 * Changing the mode empties the buffers, as reset does: produced and
 * consumed sub-buffer counts mean different things in the two modes, so a
 * flight recorder switched to no-overwrite would otherwise start out full.
 */
static ssize_t overwrite_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	bool val;
	int err;

	err = sched_relay_parse_bool(buf, count, &val);
	if (err)
		return err;

	mutex_lock(&sched_relay.lock);
	if (val != sched_relay.overwrite) {
		sched_relay_stop_writers();
		WRITE_ONCE(sched_relay.overwrite, val);
		sched_relay_bump_generation();
		sched_relay_empty_channel();
		sched_relay_start_writers();
		sched_relay_notify(attr->attr.name);
	}
	mutex_unlock(&sched_relay.lock);
	return count;
}

/*
 * A write to subbuf_size (@is_size) or n_subbufs: the new geometry is the
 * current one with that value replaced.
 */
static ssize_t sched_relay_store_geometry(struct kobj_attribute *attr,
					  const char *buf, size_t count,
					  bool is_size)
{
	unsigned long val, size, n;
	int err;

	err = sched_relay_parse_ulong(buf, count, &val);
	if (err)
		return err;

	mutex_lock(&sched_relay.lock);
	size = is_size ? val : sched_relay.subbuf_size;
	n = is_size ? sched_relay.n_subbufs : val;
	if (!sched_relay_geometry_valid(size, n)) {
		err = -EINVAL;
	} else if (size != sched_relay.subbuf_size ||
		   n != sched_relay.n_subbufs || !sched_relay.chan) {
		err = sched_relay_set_geometry(size, n);
		if (!err)
			sched_relay_notify(attr->attr.name);
	}
	mutex_unlock(&sched_relay.lock);
	return err ? err : count;
}

static ssize_t subbuf_size_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sched_relay_show_size(buf, &sched_relay.subbuf_size);
}

static ssize_t subbuf_size_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t count)
{
	return sched_relay_store_geometry(attr, buf, count, true);
}

static ssize_t n_subbufs_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return sched_relay_show_size(buf, &sched_relay.n_subbufs);
}

static ssize_t n_subbufs_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	return sched_relay_store_geometry(attr, buf, count, false);
}

static ssize_t wakeup_subbufs_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sched_relay_show_size(buf, &sched_relay.wakeup_subbufs);
}

/* Applies to the channel at once, to its next sub-buffer switches. */
static ssize_t wakeup_subbufs_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	unsigned long n;
	int err;

	err = sched_relay_parse_ulong(buf, count, &n);
	if (err)
		return err;
	if (!sched_relay_wakeup_valid(n))
		return -EINVAL;

	mutex_lock(&sched_relay.lock);
	if (n != sched_relay.wakeup_subbufs) {
		if (sched_relay.chan)
			err = relay_set_wakeup_subbufs(sched_relay.chan, n);
		if (!err) {
			sched_relay.wakeup_subbufs = n;
			sched_relay_bump_generation();
			sched_relay_notify(attr->attr.name);
		}
	}
	mutex_unlock(&sched_relay.lock);
	return err ? err : count;
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int val;
	int err;

	err = sched_relay_check_input(buf, count);
	if (err)
		return err;
	err = kstrtouint(buf, 10, &val);
	if (err)
		return err;
	if (val != 1)
		return -EINVAL;

	mutex_lock(&sched_relay.lock);
	if (sched_relay.chan) {
		sched_relay_reset_channel();
		sched_relay_notify_stats();
		sched_relay_notify(NULL);
	} else {
		err = -ENODEV;
	}
	mutex_unlock(&sched_relay.lock);
	return err ? err : count;
}

static ssize_t generation_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(sched_relay.generation));
}

/*
 * Bytes of @buf holding data no reader has consumed: the unconsumed whole
 * sub-buffers plus the used part of the current one, less what read() has
 * already taken of the oldest.
 */
static size_t sched_relay_fill_bytes(struct rchan_buf *buf)
{
	size_t size = buf->chan->subbuf_size, n = buf->chan->n_subbufs;
	size_t ready = READ_ONCE(buf->subbufs_produced) -
		       READ_ONCE(buf->subbufs_consumed);
	size_t offset = READ_ONCE(buf->offset);
	size_t fill;

	if (offset > size)	/* no-overwrite and full: no current sub-buffer */
		fill = min(ready, n) * size;
	else
		fill = min(ready, n - 1) * size + offset;
	return fill - min(fill, READ_ONCE(buf->bytes_consumed));
}

/* --- stats/: one file per counter, an array over the CPUs --- */

enum sched_relay_counter {
	SCHED_RELAY_PRODUCED,		/* events that entered the buffer */
	SCHED_RELAY_DROPPED,		/* events lost: buffer full, too big */
	SCHED_RELAY_SUBBUFS_PRODUCED,	/* relay's subbufs_produced */
	SCHED_RELAY_SUBBUFS_CONSUMED,	/* relay's subbufs_consumed */
	SCHED_RELAY_FILL_BYTES,		/* bytes not consumed yet */
	SCHED_RELAY_WAKEUPS,		/* relay's wakeup_count */
};

struct sched_relay_stat_attribute {
	struct kobj_attribute attr;
	enum sched_relay_counter counter;
};

/* One CPU's @counter, 0 if it has no buffer; under sched_relay.lock. */
static u64 sched_relay_counter(unsigned int cpu,
			       enum sched_relay_counter counter)
{
	struct relay_counters st;
	struct rchan_buf *rbuf;

	if (!cpu_possible(cpu) || relay_buf_counters(sched_relay.chan, cpu, &st))
		return 0;
	rbuf = *per_cpu_ptr(sched_relay.chan->buf, cpu);
	switch (counter) {
	case SCHED_RELAY_PRODUCED:
		return st.record_count;
	case SCHED_RELAY_DROPPED:
		return st.refused_count + st.big_count;
	case SCHED_RELAY_SUBBUFS_PRODUCED:
		return READ_ONCE(rbuf->subbufs_produced);
	case SCHED_RELAY_SUBBUFS_CONSUMED:
		return READ_ONCE(rbuf->subbufs_consumed);
	case SCHED_RELAY_FILL_BYTES:
		return sched_relay_fill_bytes(rbuf);
	case SCHED_RELAY_WAKEUPS:
		return st.wakeup_count;
	}
	return 0;
}

/*
 * "V0 V1 ... Vn\n": value N is CPU N's, for every CPU number below
 * nr_cpu_ids (0 for one that is not possible or has no buffer).  An
 * array that does not fit in the page is -EOVERFLOW, never cut short.
 */
static ssize_t sched_relay_stat_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct sched_relay_stat_attribute *sa =
		container_of(attr, struct sched_relay_stat_attribute, attr);
	char val[24];
	unsigned int cpu;
	size_t len = 0;
	ssize_t ret;
	int n;

	mutex_lock(&sched_relay.lock);
	ret = -ENODEV;
	if (!sched_relay.chan)
		goto out;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		n = scnprintf(val, sizeof(val), "%s%llu", cpu ? " " : "",
			      sched_relay_counter(cpu, sa->counter));
		ret = -EOVERFLOW;
		if (len + n + 1 >= PAGE_SIZE)	/* and the newline, and NUL */
			goto out;
		memcpy(buf + len, val, n);
		len += n;
	}
	buf[len++] = '\n';
	ret = len;
out:
	mutex_unlock(&sched_relay.lock);
	return ret;
}

#define SCHED_RELAY_STAT(_name, _counter)				\
static struct sched_relay_stat_attribute sched_relay_stat_##_name = {	\
	.attr = __ATTR_NOTIFY(_name, 0444, sched_relay_stat_show, NULL), \
	.counter = _counter,						\
}

SCHED_RELAY_STAT(produced, SCHED_RELAY_PRODUCED);
SCHED_RELAY_STAT(dropped, SCHED_RELAY_DROPPED);
SCHED_RELAY_STAT(subbufs_produced, SCHED_RELAY_SUBBUFS_PRODUCED);
SCHED_RELAY_STAT(subbufs_consumed, SCHED_RELAY_SUBBUFS_CONSUMED);
SCHED_RELAY_STAT(fill_bytes, SCHED_RELAY_FILL_BYTES);
SCHED_RELAY_STAT(wakeups, SCHED_RELAY_WAKEUPS);

static struct attribute *sched_relay_stats_attrs[] = {
	&sched_relay_stat_produced.attr.attr,
	&sched_relay_stat_dropped.attr.attr,
	&sched_relay_stat_subbufs_produced.attr.attr,
	&sched_relay_stat_subbufs_consumed.attr.attr,
	&sched_relay_stat_fill_bytes.attr.attr,
	&sched_relay_stat_wakeups.attr.attr,
	NULL,
};

static const struct attribute_group sched_relay_stats_group = {
	.name = "stats",
	.attrs = sched_relay_stats_attrs,
};

/* Wake pollers of every stats/ file: the counters changed at once. */
static void sched_relay_notify_stats(void)
{
	int i;

	for (i = 0; sched_relay_stats_attrs[i]; i++)
		sysfs_notify(sched_relay.kobj, "stats",
			     sched_relay_stats_attrs[i]->name);
}

/*
 * Every attribute that sched_relay_notify() names is declared notifying
 * (SYSFS_NOTIFY): poll() answers POLLRDBAND on them, so readers know that
 * a wait for POLLPRI ends at the next change.  'reset' has no value to
 * change; it is woken only when it goes away, like every file.
 */
#define SCHED_RELAY_ATTR_RW(_name)					\
	__ATTR_NOTIFY(_name, 0644, _name##_show, _name##_store)

static struct kobj_attribute enabled_attr = SCHED_RELAY_ATTR_RW(enabled);
static struct kobj_attribute events_attr = SCHED_RELAY_ATTR_RW(events);
static struct kobj_attribute overwrite_attr = SCHED_RELAY_ATTR_RW(overwrite);
static struct kobj_attribute subbuf_size_attr =
	SCHED_RELAY_ATTR_RW(subbuf_size);
static struct kobj_attribute n_subbufs_attr = SCHED_RELAY_ATTR_RW(n_subbufs);
static struct kobj_attribute wakeup_subbufs_attr =
	SCHED_RELAY_ATTR_RW(wakeup_subbufs);
static struct kobj_attribute reset_attr = __ATTR_WO(reset);
static struct kobj_attribute generation_attr =
	__ATTR_NOTIFY(generation, 0444, generation_show, NULL);

static struct attribute *sched_relay_attrs[] = {
	&enabled_attr.attr,
	&events_attr.attr,
	&overwrite_attr.attr,
	&subbuf_size_attr.attr,
	&n_subbufs_attr.attr,
	&wakeup_subbufs_attr.attr,
	&reset_attr.attr,
	&generation_attr.attr,
	NULL,
};

static const struct attribute_group sched_relay_group = {
	.attrs = sched_relay_attrs,
};

static const struct attribute_group *sched_relay_groups[] = {
	&sched_relay_group,
	&sched_relay_stats_group,
	NULL,
};

/* --- load and unload --- */

static void sched_relay_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
}

static const struct kobj_type sched_relay_ktype = {
	.release	= sched_relay_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

/*
 * /sys/kernel/sched_relay, in a kset of its own.  The kernel sends a
 * kobject's uevents only if it or a parent is in a kset, and nothing at
 * or above /sys/kernel is: a plain kobject there gets -EINVAL from
 * kobject_uevent() and user space never hears of it.  The kset lives in
 * the module's directory, /sys/module/sched_relay/sched_relay (its own
 * uevent is filtered out by the module kset), and names the SUBSYSTEM of
 * the kobject's events.
 */
static int sched_relay_add_kobj(void)
{
	struct kobject *kobj;
	int err;

	sched_relay.kset = kset_create_and_add(KBUILD_MODNAME, NULL,
					       &THIS_MODULE->mkobj.kobj);
	if (!sched_relay.kset)
		return -ENOMEM;
	kobj = kzalloc(sizeof(*kobj), GFP_KERNEL);
	if (!kobj) {
		err = -ENOMEM;
		goto err_kset;
	}
	kobj->kset = sched_relay.kset;
	err = kobject_init_and_add(kobj, &sched_relay_ktype, kernel_kobj,
				   "sched_relay");
	if (err) {
		kobject_put(kobj);
		goto err_kset;
	}
	sched_relay.kobj = kobj;
	return 0;

err_kset:
	kset_unregister(sched_relay.kset);
	return err;
}

/* Sends remove@/kernel/sched_relay if the add event went out. */
static void sched_relay_put_kobj(void)
{
	kobject_put(sched_relay.kobj);
	kset_unregister(sched_relay.kset);
}

static int __init sched_relay_init(void)
{
	int err;

	if (!sched_relay_geometry_valid(param_subbuf_size, param_n_subbufs)) {
		pr_err("subbuf_size must be a power of two in 4096..4194304 and n_subbufs in 2..256\n");
		return -EINVAL;
	}
	if (!sched_relay_wakeup_valid(param_wakeup_subbufs)) {
		pr_err("wakeup_subbufs must be in 1..256\n");
		return -EINVAL;
	}
	if (param_events & ~SCHED_RELAY_ALL_EVENTS) {
		pr_err("events must be a mask within 0x%x\n", SCHED_RELAY_ALL_EVENTS);
		return -EINVAL;
	}
	err = sched_relay_find_tracepoints();
	if (err)
		return err;

	sched_relay.enabled = param_enabled;
	sched_relay.events = param_events;
	sched_relay.overwrite = param_overwrite;
	sched_relay.wakeup_subbufs = param_wakeup_subbufs;
	sched_relay.generation = 1;

	err = sched_relay_add_kobj();
	if (err)
		return err;

	mutex_lock(&sched_relay.lock);
	err = sched_relay_create_channel(param_subbuf_size, param_n_subbufs);
	if (!err) {
		sched_relay_start_writers();
		err = sched_relay_set_mask(sched_relay_mask(param_enabled,
							    param_events));
		if (err)
			sched_relay_stop_writers();
	}
	mutex_unlock(&sched_relay.lock);
	if (err)
		goto err_destroy_channel;

	err = sysfs_create_groups(sched_relay.kobj, sched_relay_groups);
	if (err)
		goto err_detach;
	/* everything is there: now tell user space */
	err = kobject_uevent(sched_relay.kobj, KOBJ_ADD);
	if (err) {
		pr_err("cannot send the KOBJ_ADD uevent: %d\n", err);
		goto err_remove_groups;
	}
	return 0;

err_remove_groups:
	sysfs_remove_groups(sched_relay.kobj, sched_relay_groups);
err_detach:
	mutex_lock(&sched_relay.lock);
	sched_relay_set_mask(0);
	mutex_unlock(&sched_relay.lock);
	sched_relay_stop_writers();
err_destroy_channel:
	/* Nothing to destroy if creating it failed. */
	sched_relay_destroy_channel();
	sched_relay_put_kobj();
	return err;
}

/*
 * Remove the control files and wake whoever polls them: kernfs does not
 * wake pollers of a removed attribute, but once woken their next poll()
 * sees the file gone (POLLERR) and read() fails with ENODEV.
 */
static void sched_relay_remove_groups(void)
{
	struct kernfs_node *kn[ARRAY_SIZE(sched_relay_attrs) +
			       ARRAY_SIZE(sched_relay_stats_attrs)];
	struct kernfs_node *stats;
	int i, n = 0;

	for (i = 0; sched_relay_attrs[i]; i++)
		kn[n++] = sysfs_get_dirent(sched_relay.kobj->sd,
					   sched_relay_attrs[i]->name);
	stats = sysfs_get_dirent(sched_relay.kobj->sd, "stats");
	for (i = 0; stats && sched_relay_stats_attrs[i]; i++)
		kn[n++] = sysfs_get_dirent(stats,
					   sched_relay_stats_attrs[i]->name);
	sysfs_put(stats);
	/* No configuration change runs after this: kernfs drains them. */
	sysfs_remove_groups(sched_relay.kobj, sched_relay_groups);
	for (i = 0; i < n; i++) {
		if (!kn[i])
			continue;
		sysfs_notify_dirent(kn[i]);
		sysfs_put(kn[i]);
	}
}

static void __exit sched_relay_exit(void)
{
	sched_relay_remove_groups();
	/* Detaches every probe and waits for those still running. */
	mutex_lock(&sched_relay.lock);
	sched_relay_set_mask(0);
	mutex_unlock(&sched_relay.lock);
	RCU_INIT_POINTER(sched_relay_hot.chan, NULL);
	sched_relay_destroy_channel();
	sched_relay_put_kobj();
}

module_init(sched_relay_init);
module_exit(sched_relay_exit);

MODULE_DESCRIPTION("Scheduler events into a sysfs relay channel");
MODULE_AUTHOR("relay-sysfs project");
MODULE_LICENSE("GPL");

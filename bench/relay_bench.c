// SPDX-License-Identifier: GPL-2.0
/*
 * relay_bench - the write-path microbenchmarks of `make bench`.
 *
 * Writes N records of the producer's size (struct sched_relay_record, 64
 * bytes) through one write path, with preemption off, and reports how long
 * that took, REPS times over.  The paths:
 *
 *   memcpy       copy the record into a per-CPU buffer of the channel's
 *                size, wrapping at its end: the floor, what any buffer
 *                costs at the least (the compiler inlines the copy of a
 *                known size)
 *   memcpy_call  the same through a direct call of the kernel's memcpy(),
 *                with a length known only at run time, as relay_write()
 *                copies (not an indirect call: nothing here measures one)
 *   clock        ktime_get_mono_fast_ns(), the producer's time stamp
 *   clock_copy   the producer's floor: a time stamp into the record, then
 *                the record copied as memcpy does (what any tracer that
 *                time-stamps a 64-byte record costs at the least)
 *   relay_write  relay_write() into a buffer-only relay channel of
 *                sched_relay's default geometry, overwriting when full
 *   ring_buffer  ring_buffer_lock_reserve(), copy, ring_buffer_unlock_commit()
 *                into a ring buffer of the same size per CPU, overwriting
 *                (ftrace's buffer, its default flags and clock)
 *   tracepoint   fire the sched_wakeup tracepoint for current: whatever is
 *                attached to it runs - sched_relay's probe, ftrace's
 *                sched_wakeup event, or nothing; with interrupts off, as
 *                the scheduler calls it (under the runqueue lock), in
 *                stretches of BENCH_IRQ_CHUNK records
 *
 * Interface, in debugfs: write "PATH N REPS" to relay_bench/run, then read
 * it back: one line "PATH N T1 T2 ... TREPS", the nanoseconds each round
 * of N records took.  A bad line is EINVAL, a round that cannot start
 * (no memory) ENOMEM; nothing is kept from a failed write.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

#include "sched_relay.h"

#define BENCH_SUBBUF_SIZE	65536	/* sched_relay's default geometry */
#define BENCH_N_SUBBUFS		8
#define BENCH_BUF_SIZE		(BENCH_SUBBUF_SIZE * BENCH_N_SUBBUFS)
#define BENCH_MAX_N		1000000
#define BENCH_MAX_REPS		100
#define BENCH_RESULT_SIZE	(32 + BENCH_MAX_REPS * 21)
#define BENCH_IRQ_CHUNK		256

enum bench_path { BENCH_MEMCPY, BENCH_MEMCPY_CALL, BENCH_CLOCK,
		  BENCH_RELAY_WRITE, BENCH_RING_BUFFER, BENCH_TRACEPOINT,
		  BENCH_CLOCK_COPY, BENCH_NR_PATHS };

static const char *const bench_path_names[BENCH_NR_PATHS] = {
	[BENCH_MEMCPY]		= "memcpy",
	[BENCH_MEMCPY_CALL]	= "memcpy_call",
	[BENCH_CLOCK]		= "clock",
	[BENCH_RELAY_WRITE]	= "relay_write",
	[BENCH_RING_BUFFER]	= "ring_buffer",
	[BENCH_TRACEPOINT]	= "tracepoint",
	[BENCH_CLOCK_COPY]	= "clock_copy",
};

/* The floor: one buffer of the channel's size per CPU. */
struct bench_copy_buf {
	void *data;
	size_t offset;
};

static DEFINE_PER_CPU(struct bench_copy_buf, bench_copy_bufs);
static struct rchan *bench_chan;
static struct trace_buffer *bench_rb;
static struct dentry *bench_dir;

/* Keep the copy length and the clock readings opaque to the compiler. */
static size_t bench_record_size = sizeof(struct sched_relay_record);
static u64 bench_clock_sum;

/* The last result, and the lock that makes one benchmark run at a time. */
static DEFINE_MUTEX(bench_lock);
static char *bench_result;

/* The record every path writes: a sched_wakeup of the running task. */
static void bench_fill_record(struct sched_relay_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->ts = ktime_get_mono_fast_ns();
	rec->type = SCHED_RELAY_WAKEUP;
	rec->pid = current->pid;
	rec->tgid = current->tgid;
	rec->prio = current->prio < 0 ? SCHED_RELAY_PRIO_DEADLINE : current->prio;
	rec->target_cpu = raw_smp_processor_id();
	rec->orig_cpu = rec->target_cpu;
	memcpy(rec->comm, current->comm, SCHED_RELAY_COMM_LEN);
}

/* relay: overwrite when full, like ftrace's default, so nothing is dropped. */
static int bench_subbuf_start(struct rchan_buf *buf, void *subbuf,
			      void *prev_subbuf)
{
	return 1;
}

/* Buffer-only channel: no files. */
static struct dentry *bench_create_buf_file(const char *filename,
					    struct dentry *parent, umode_t mode,
					    struct rchan_buf *buf,
					    int *is_global)
{
	return NULL;
}

static int bench_remove_buf_file(struct dentry *dentry)
{
	return 0;
}

static const struct rchan_callbacks bench_relay_callbacks = {
	.subbuf_start		= bench_subbuf_start,
	.create_buf_file	= bench_create_buf_file,
	.remove_buf_file	= bench_remove_buf_file,
};

static noinline void bench_memcpy(const struct sched_relay_record *rec,
				  unsigned int n)
{
	struct bench_copy_buf *b = this_cpu_ptr(&bench_copy_bufs);
	unsigned int i;

	for (i = 0; i < n; i++) {
		memcpy(b->data + b->offset, rec, sizeof(*rec));
		b->offset += sizeof(*rec);
		if (b->offset == BENCH_BUF_SIZE)
			b->offset = 0;
		barrier();
	}
}

static noinline void bench_memcpy_call(const struct sched_relay_record *rec,
				       unsigned int n)
{
	struct bench_copy_buf *b = this_cpu_ptr(&bench_copy_bufs);
	size_t len = READ_ONCE(bench_record_size);
	unsigned int i;

	for (i = 0; i < n; i++) {
		memcpy(b->data + b->offset, rec, len);
		b->offset += len;
		if (b->offset == BENCH_BUF_SIZE)
			b->offset = 0;
		barrier();
	}
}

static noinline void bench_clock_copy(struct sched_relay_record *rec,
				      unsigned int n)
{
	struct bench_copy_buf *b = this_cpu_ptr(&bench_copy_bufs);
	unsigned int i;

	for (i = 0; i < n; i++) {
		rec->ts = ktime_get_mono_fast_ns();
		memcpy(b->data + b->offset, rec, sizeof(*rec));
		b->offset += sizeof(*rec);
		if (b->offset == BENCH_BUF_SIZE)
			b->offset = 0;
		barrier();
	}
}

static noinline u64 bench_clock(unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += ktime_get_mono_fast_ns();
	return sum;
}

static noinline void bench_relay_write(const struct sched_relay_record *rec,
				       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		relay_write(bench_chan, rec, sizeof(*rec));
}

/* 6.2 dropped the event argument of ring_buffer_unlock_commit(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define bench_rb_commit(rb, event)	ring_buffer_unlock_commit(rb)
#else
#define bench_rb_commit(rb, event)	ring_buffer_unlock_commit(rb, event)
#endif

static noinline int bench_ring_buffer(const struct sched_relay_record *rec,
				      unsigned int n)
{
	struct ring_buffer_event *event;
	unsigned int i;

	for (i = 0; i < n; i++) {
		event = ring_buffer_lock_reserve(bench_rb, sizeof(*rec));
		if (!event)
			return -EBUSY;
		memcpy(ring_buffer_event_data(event), rec, sizeof(*rec));
		bench_rb_commit(bench_rb, event);
	}
	return 0;
}

/*
 * The kernel does not export its sched tracepoints to modules, so the
 * benchmark cannot call trace_sched_wakeup().  It finds the tracepoint by
 * name, as sched_relay does, and fires it through the tracepoint's
 * iterator, __traceiter_sched_wakeup(), which calls every attached probe
 * with its data: skip it while the key is off, else call tp->iterator
 * with the type it is defined with (int (void *, proto) in
 * include/linux/tracepoint.h), so that kCFI finds the type it expects.
 * trace_sched_wakeup() itself goes through a static call that the kernel
 * patches to the one probe when there is one; here there is one more
 * call, through a pointer, and a loop over the probes.  So the figure is
 * an upper bound on what the scheduler pays.  (memcpy_call is no
 * measure of that call: it is a direct call of memcpy().)
 */
static struct tracepoint *bench_wakeup_tp;

/* The iterator's own type: DEFINE_TRACE_FN() in include/linux/tracepoint.h. */
typedef int (*bench_wakeup_iter_t)(void *data, struct task_struct *p);

static void __init bench_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_wakeup"))
		bench_wakeup_tp = tp;
}

static __always_inline void bench_fire_wakeup(struct tracepoint *tp,
					      struct task_struct *p)
{
	bench_wakeup_iter_t iter = tp->iterator;

	if (!static_key_enabled(&tp->key))
		return;
	/* as __DO_TRACE(): the iterator takes each probe's data itself */
	iter(NULL, p);
}

static noinline void bench_tracepoint(unsigned int n)
{
	unsigned int i, chunk;

	for (; n; n -= chunk) {
		chunk = min(n, BENCH_IRQ_CHUNK);
		local_irq_disable();
		for (i = 0; i < chunk; i++)
			bench_fire_wakeup(bench_wakeup_tp, current);
		local_irq_enable();
	}
}

/* One round: N records through @path with preemption off; ns or -errno. */
static s64 bench_round(enum bench_path path, unsigned int n)
{
	struct sched_relay_record rec;
	int err = 0;
	u64 t0, t1;

	preempt_disable();
	bench_fill_record(&rec);
	t0 = ktime_get_ns();
	switch (path) {
	case BENCH_MEMCPY:
		bench_memcpy(&rec, n);
		break;
	case BENCH_MEMCPY_CALL:
		bench_memcpy_call(&rec, n);
		break;
	case BENCH_CLOCK:
		bench_clock_sum += bench_clock(n);
		break;
	case BENCH_CLOCK_COPY:
		bench_clock_copy(&rec, n);
		break;
	case BENCH_RELAY_WRITE:
		bench_relay_write(&rec, n);
		break;
	case BENCH_RING_BUFFER:
		err = bench_ring_buffer(&rec, n);
		break;
	case BENCH_TRACEPOINT:
		bench_tracepoint(n);
		break;
	default:
		err = -EINVAL;
	}
	t1 = ktime_get_ns();
	preempt_enable();
	return err ? err : (s64)(t1 - t0);
}

static ssize_t bench_run_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int n, reps, i;
	char line[64], name[16];
	size_t len = 0;
	char *result;
	int path;
	s64 ns;

	if (count >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	line[count] = '\0';
	if (sscanf(line, "%15s %u %u", name, &n, &reps) != 3 ||
	    !n || n > BENCH_MAX_N || !reps || reps > BENCH_MAX_REPS)
		return -EINVAL;
	path = match_string(bench_path_names, BENCH_NR_PATHS, name);
	if (path < 0)
		return -EINVAL;
	result = kzalloc(BENCH_RESULT_SIZE, GFP_KERNEL);
	if (!result)
		return -ENOMEM;

	mutex_lock(&bench_lock);
	len = scnprintf(result, BENCH_RESULT_SIZE, "%s %u", name, n);
	for (i = 0; i < reps; i++) {
		ns = bench_round(path, n);
		if (ns < 0) {
			mutex_unlock(&bench_lock);
			kfree(result);
			return ns;
		}
		len += scnprintf(result + len, BENCH_RESULT_SIZE - len,
				 " %lld", ns);
		cond_resched();
	}
	scnprintf(result + len, BENCH_RESULT_SIZE - len, "\n");
	kfree(bench_result);
	bench_result = result;
	mutex_unlock(&bench_lock);
	return count;
}

static ssize_t bench_run_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = bench_result ?
		simple_read_from_buffer(ubuf, count, ppos, bench_result,
					strlen(bench_result)) : 0;
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct file_operations bench_run_fops = {
	.owner	= THIS_MODULE,
	.read	= bench_run_read,
	.write	= bench_run_write,
	.llseek	= default_llseek,
};

static void bench_free_copy_bufs(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		vfree(per_cpu_ptr(&bench_copy_bufs, cpu)->data);
}

static int __init relay_bench_init(void)
{
	int cpu;

	for_each_kernel_tracepoint(bench_find_tracepoint, NULL);
	if (!bench_wakeup_tp) {
		pr_err("no tracepoint sched_wakeup in this kernel\n");
		return -ENOENT;
	}
	for_each_possible_cpu(cpu) {
		struct bench_copy_buf *b = per_cpu_ptr(&bench_copy_bufs, cpu);

		b->data = vzalloc_node(BENCH_BUF_SIZE, cpu_to_node(cpu));
		if (!b->data)
			goto err_copy;
	}
	bench_chan = relay_open(NULL, NULL, BENCH_SUBBUF_SIZE, BENCH_N_SUBBUFS,
				&bench_relay_callbacks, NULL);
	if (!bench_chan)
		goto err_copy;
	bench_rb = ring_buffer_alloc(BENCH_BUF_SIZE, RB_FL_OVERWRITE);
	if (!bench_rb)
		goto err_chan;
	bench_dir = debugfs_create_dir("relay_bench", NULL);
	debugfs_create_file("run", 0600, bench_dir, NULL, &bench_run_fops);
	return 0;

err_chan:
	relay_close(bench_chan);
err_copy:
	bench_free_copy_bufs();
	return -ENOMEM;
}

static void __exit relay_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	ring_buffer_free(bench_rb);
	relay_close(bench_chan);
	bench_free_copy_bufs();
	kfree(bench_result);
}

module_init(relay_bench_init);
module_exit(relay_bench_exit);
MODULE_DESCRIPTION("Write-path microbenchmarks: memcpy, relay, ftrace ring buffer, sched_wakeup tracepoint");
MODULE_LICENSE("GPL");

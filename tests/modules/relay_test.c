// SPDX-License-Identifier: GPL-2.0
/*
 * relay_test.c - test module for relay channels in sysfs (and debugfs)
 *
 * Pins, together with tests/guest/relay_sysfs.c, what the kernel series
 * promises: a relay_attribute shows one file per CPU buffer that reads,
 * maps, polls and hands sub-buffers back; drops are counted exactly; the
 * files can be removed under readers; debugfs relay files still work.
 * The module only provides the means: it writes self-checking records
 * (relay_test.h) on the CPU it is told to and reports relay's counters.
 *
 * /sys/kernel/relay_test/
 *	buffers/cpu0..cpuN
 *			the sysfs relay channel (0600)
 *	geometry	"SUBBUF_SIZE N_SUBBUFS MODE" (0644); writing re-creates
 *			the channel.  MODE 0: relay's default (no-overwrite,
 *			no callback), 1: overwrite (subbuf_start callback
 *			that always continues), 2: no-overwrite through a
 *			subbuf_start callback
 *	present		"1" while the channel exists (0644); write 0 to remove
 *			it, 1 to create it again
 *	write		"CPU COUNT SIZE [write|__write|reserve]" (0200): write
 *			COUNT records of SIZE bytes on CPU with relay_write(),
 *			__relay_write() or relay_reserve()
 *	reset, flush	write 1: relay_reset() / relay_flush() (0200)
 *	wakeup_subbufs	N: relay_set_wakeup_subbufs(chan, N), kept when the
 *			channel is re-created; relay's errno is the write's
 *			(0644)
 *	stats		header, then per CPU that has a buffer:
 *			"cpu events bytes full big refused produced consumed
 *			wakeups overwrites overwrite_bytes", from
 *			relay_buf_counters() (0444); wakeups is relay's
 *			wakeup_count, overwrites its overwrite_count;
 *			produced and consumed count sub-buffers from the
 *			channel's creation (a reset does not set them back)
 *	beside		write "flush|reset CPU COUNT SIZE": write as "write"
 *			does on CPU while a thread on another CPU calls
 *			relay_flush() or relay_reset() on the sysfs channel
 *			in a loop until the writer is done; read: how many
 *			calls the last run made (0600)
 *	callbacks	"CALLS BAD": subbuf_start calls, and calls that did
 *			not find the attribute in chan->private_data (0444)
 *	debugfs_write, debugfs_reset, debugfs_stats
 *			the same for a debugfs channel "dbg" in
 *			/sys/kernel/debug/relay_test/ (no-overwrite)
 *	dbg_fail	"CPU": the debugfs channel's create_buf_file() fails
 *			for file dbg<CPU> (as debugfs does without memory);
 *			"-1": it does not (0600)
 *	global_write, global_reset, global_stats
 *			the same for a buffer-only global channel (one buffer
 *			that every CPU writes to, no-overwrite, the geometry
 *			of the debugfs channel)
 *	bench		write "CPU COUNT SIZE": on CPU, time COUNT writes of a
 *			SIZE-byte record with relay_write(), with the same code
 *			without the statistics, and with a plain memcpy() into
 *			a sub-buffer-sized area; read: "COUNT SIZE WRITE_NS
 *			NOCOUNT_NS MEMCPY_NS", the best of 5 rounds each (0600;
 *			use overwrite mode, or drops are timed instead of copies)
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/relay.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "relay_test.h"

static unsigned int subbuf_size = 4096;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "sub-buffer size of the sysfs channel at load");

static unsigned int n_subbufs = 4;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per CPU of the sysfs channel at load");

static unsigned int dbg_subbuf_size = 4096;
module_param(dbg_subbuf_size, uint, 0444);
MODULE_PARM_DESC(dbg_subbuf_size, "sub-buffer size of the debugfs channel");

static unsigned int dbg_n_subbufs = 4;
module_param(dbg_n_subbufs, uint, 0444);
MODULE_PARM_DESC(dbg_n_subbufs, "sub-buffers per CPU of the debugfs channel");

enum relay_test_mode {
	RELAY_TEST_DEFAULT,	/* no callback: relay's no-overwrite */
	RELAY_TEST_OVERWRITE,	/* callback that always continues */
	RELAY_TEST_CALLBACK,	/* callback that stops when full */
	RELAY_TEST_NR_MODES
};

enum relay_test_method { RELAY_TEST_WRITE, RELAY_TEST___WRITE, RELAY_TEST_RESERVE };

/* A channel the module writes to, with the next seq of every CPU. */
struct relay_test_chan {
	struct rchan *rchan;
	u64 *seq;			/* nr_cpu_ids entries */
};

/* A file of one channel's (write, reset, stats): the channel it acts on. */
struct relay_test_chan_attr {
	struct kobj_attribute attr;
	struct relay_test_chan *tc;	/* relay_test_sysfs, _dbg or _glob */
};

static struct relay_test_chan *relay_test_chan_of(struct kobj_attribute *attr)
{
	return container_of(attr, struct relay_test_chan_attr, attr)->tc;
}

static DEFINE_MUTEX(relay_test_lock);	/* everything below */
static struct kobject *relay_test_kobj;
static struct relay_test_chan relay_test_sysfs;
static struct relay_test_chan relay_test_dbg;
static struct relay_test_chan relay_test_glob;
static struct dentry *relay_test_dbg_dir;
static enum relay_test_mode relay_test_mode;
/* Under relay_test_lock: what the sysfs channel gets when it is created. */
static size_t relay_test_wakeup_subbufs = 1;
static atomic_long_t relay_test_calls;
static atomic_long_t relay_test_bad_private;

/* The sysfs channel's files, its geometry (under relay_test_lock). */
static struct sysfs_relay *relay_test_files;
static size_t relay_test_subbuf_size = 4096;
static size_t relay_test_n_subbufs = 4;

static void relay_test_check_private(struct rchan_buf *buf)
{
	atomic_long_inc(&relay_test_calls);
	if (buf->chan->private_data != &relay_test_sysfs)
		atomic_long_inc(&relay_test_bad_private);
}

static int relay_test_subbuf_overwrite(struct rchan_buf *buf, void *subbuf,
				       void *prev_subbuf)
{
	relay_test_check_private(buf);
	return 1;
}

static int relay_test_subbuf_stop(struct rchan_buf *buf, void *subbuf,
				  void *prev_subbuf)
{
	relay_test_check_private(buf);
	return !relay_buf_full(buf);
}

/* One attribute per mode, const: the channel's state is not in them. */
static const struct relay_attribute relay_test_buf_attrs[RELAY_TEST_NR_MODES] = {
	[RELAY_TEST_DEFAULT]	= __ATTR_RELAY(buffers, 0600, NULL),
	[RELAY_TEST_OVERWRITE]	= __ATTR_RELAY(buffers, 0600,
					       relay_test_subbuf_overwrite),
	[RELAY_TEST_CALLBACK]	= __ATTR_RELAY(buffers, 0600,
					       relay_test_subbuf_stop),
};

/* --- writing records ------------------------------------------------------ */

struct relay_test_job {
	struct rchan *rchan;
	unsigned int cpu;
	unsigned long count;
	unsigned int size;
	enum relay_test_method method;
	u64 first_seq;
	u8 *rec;			/* one record, rebuilt for every seq */
	long ret;			/* what relay_test_write_fn() said */
	struct completion done;		/* the beside writer finished */
};

static void relay_test_fill(u8 *rec, unsigned int cpu, u64 seq,
			    unsigned int size)
{
	struct relay_test_record hdr = {
		.magic = RELAY_TEST_MAGIC,
		.cpu = cpu,
		.size = size,
		.seq = seq,
		.sum = relay_test_sum(cpu, seq, size),
	};
	unsigned int i;

	memcpy(rec, &hdr, sizeof(hdr));
	for (i = 0; i + sizeof(hdr) < size; i++)
		rec[sizeof(hdr) + i] = relay_test_byte(cpu, seq, i);
}

/* Runs on job->cpu (work_on_cpu_safe()). */
static long relay_test_write_fn(void *arg)
{
	struct relay_test_job *job = arg;
	unsigned long i;
	void *slot;

	if (raw_smp_processor_id() != job->cpu)
		return -EIO;

	for (i = 0; i < job->count; i++) {
		relay_test_fill(job->rec, job->cpu, job->first_seq + i,
				job->size);
		switch (job->method) {
		case RELAY_TEST_WRITE:
			relay_write(job->rchan, job->rec, job->size);
			break;
		case RELAY_TEST___WRITE:
			__relay_write(job->rchan, job->rec, job->size);
			break;
		case RELAY_TEST_RESERVE:
			preempt_disable();
			slot = relay_reserve(job->rchan, job->size);
			if (slot)
				memcpy(slot, job->rec, job->size);
			preempt_enable();
			break;
		}
		if (!(i % 1024))
			cond_resched();
	}

	return 0;
}

static int relay_test_parse_method(const char *s, enum relay_test_method *m)
{
	if (!*s || !strcmp(s, "write"))
		*m = RELAY_TEST_WRITE;
	else if (!strcmp(s, "__write"))
		*m = RELAY_TEST___WRITE;
	else if (!strcmp(s, "reserve"))
		*m = RELAY_TEST_RESERVE;
	else
		return -EINVAL;
	return 0;
}

/* "CPU COUNT SIZE [METHOD]" */
static ssize_t relay_test_write(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	struct relay_test_chan *tc = relay_test_chan_of(attr);
	struct relay_test_job job = { };
	char method[16] = "";
	int n, end = 0;
	long ret;

	n = sscanf(buf, "%u %lu %u %n%15s %n", &job.cpu, &job.count, &job.size,
		   &end, method, &end);
	if (n < 3 || buf[end] != '\0')
		return -EINVAL;
	if (relay_test_parse_method(method, &job.method))
		return -EINVAL;
	if (job.cpu >= nr_cpu_ids || !job.count || job.count > (1UL << 24) ||
	    job.size < RELAY_TEST_MIN_SIZE || job.size > RELAY_TEST_MAX_SIZE)
		return -EINVAL;

	job.rec = kmalloc(job.size, GFP_KERNEL);
	if (!job.rec)
		return -ENOMEM;

	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (!tc->rchan)
		goto out;
	job.rchan = tc->rchan;
	job.first_seq = tc->seq[job.cpu];
	ret = work_on_cpu_safe(job.cpu, relay_test_write_fn, &job);
	if (!ret)
		tc->seq[job.cpu] += job.count;
out:
	mutex_unlock(&relay_test_lock);
	kfree(job.rec);

	return ret ? ret : count;
}

/* --- flushing and resetting beside a writer ----------------------------------- */

struct relay_test_beside {
	struct rchan *rchan;
	bool reset;			/* relay_reset(), else relay_flush() */
	struct completion *written;	/* the writer's last record is in */
	unsigned long calls;
};

static unsigned long relay_test_beside_calls;	/* under relay_test_lock */

/* The writer of "beside": a thread of its own, not a work item (below). */
static int relay_test_beside_writer(void *arg)
{
	struct relay_test_job *job = arg;

	job->ret = relay_test_write_fn(job);
	complete(&job->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int relay_test_beside_fn(void *arg)
{
	struct relay_test_beside *b = arg;

	/*
	 * Beside the writer, not after it: a flush of the empty sub-buffer
	 * that follows the last record overwrites the oldest one in
	 * overwrite mode, and enough of them would leave no record to check.
	 */
	while (!kthread_should_stop() && !completion_done(b->written)) {
		if (b->reset)
			relay_reset(b->rchan);
		else
			relay_flush(b->rchan);
		b->calls++;
		cond_resched();
	}
	return 0;
}

static ssize_t beside_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	unsigned long calls;

	mutex_lock(&relay_test_lock);
	calls = relay_test_beside_calls;
	mutex_unlock(&relay_test_lock);
	return sysfs_emit(buf, "%lu\n", calls);
}

/* "flush|reset CPU COUNT SIZE" */
static ssize_t beside_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	struct relay_test_job job = { .method = RELAY_TEST_WRITE };
	struct relay_test_beside b = { };
	struct task_struct *task, *writer;
	unsigned int other;
	char what[8];
	int end = 0;
	long ret;

	if (sscanf(buf, "%7s %u %lu %u %n", what, &job.cpu, &job.count,
		   &job.size, &end) != 4 || buf[end] != '\0')
		return -EINVAL;
	if (!strcmp(what, "reset"))
		b.reset = true;
	else if (strcmp(what, "flush"))
		return -EINVAL;
	if (job.cpu >= nr_cpu_ids || !job.count || job.count > (1UL << 24) ||
	    job.size < RELAY_TEST_MIN_SIZE || job.size > RELAY_TEST_MAX_SIZE)
		return -EINVAL;

	job.rec = kmalloc(job.size, GFP_KERNEL);
	if (!job.rec)
		return -ENOMEM;

	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (!relay_test_sysfs.rchan)
		goto out;
	other = cpumask_any_but(cpu_online_mask, job.cpu);
	ret = -EINVAL;
	if (other >= nr_cpu_ids || !cpu_online(job.cpu))
		goto out;
	job.rchan = relay_test_sysfs.rchan;
	job.first_seq = relay_test_sysfs.seq[job.cpu];
	b.rchan = job.rchan;
	b.written = &job.done;
	init_completion(&job.done);
	task = kthread_create_on_cpu(relay_test_beside_fn, &b, other,
				     "relay_test_b/%u");
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		goto out;
	}
	/*
	 * The writer runs in a thread of its own on its CPU: a work item
	 * that never sleeps would keep the kworker that relay_flush() and
	 * relay_reset() queue on that CPU from running until it is done.
	 */
	writer = kthread_create_on_cpu(relay_test_beside_writer, &job, job.cpu,
				       "relay_test_w/%u");
	if (IS_ERR(writer)) {
		kthread_stop(task);
		ret = PTR_ERR(writer);
		goto out;
	}
	wake_up_process(task);
	wake_up_process(writer);
	/*
	 * A second at a time: the job takes over 30 s on the debug kernel
	 * on a slow host, and one uninterruptible wait that long is what
	 * the hung-task watchdog reports (a splat that fails the suite).
	 */
	while (!wait_for_completion_timeout(&job.done, HZ))
		;
	kthread_stop(writer);
	kthread_stop(task);
	ret = job.ret;
	relay_test_beside_calls = b.calls;
	if (!ret)
		relay_test_sysfs.seq[job.cpu] += job.count;
out:
	mutex_unlock(&relay_test_lock);
	kfree(job.rec);

	return ret ? ret : count;
}

/* --- timing the write path -------------------------------------------------- */

struct relay_test_bench {
	struct rchan *rchan;
	unsigned int cpu;
	unsigned long count;
	unsigned int size;
	u8 *rec;
	u8 *area;			/* subbuf_size bytes for memcpy() */
	size_t area_size;
	u64 ns[3];			/* write, nocount, memcpy: best round */
};

/* The last run's figures, under relay_test_lock. */
static struct {
	unsigned long count;
	unsigned int size;
	u64 ns[3];
} relay_test_bench_result;

/* relay_write() as include/linux/relay.h has it, minus the statistics. */
static void relay_test_write_nocount(struct rchan *chan, const void *data,
				     size_t length)
{
	unsigned long flags;
	struct rchan_buf *buf;

	local_irq_save(flags);
	buf = *this_cpu_ptr(chan->buf);
	if (unlikely(buf->offset + length > chan->subbuf_size)) {
		length = relay_switch_subbuf(buf, length);
		if (!length)
			goto out;
	}
	memcpy(buf->data + buf->offset, data, length);
	buf->offset += length;
out:
	local_irq_restore(flags);
}

/* The same loop around a memcpy() into memory of a sub-buffer's size. */
static void relay_test_memcpy(struct relay_test_bench *b, size_t *off)
{
	unsigned long flags;

	local_irq_save(flags);
	if (*off + b->size > b->area_size)
		*off = 0;
	memcpy(b->area + *off, b->rec, b->size);
	*off += b->size;
	local_irq_restore(flags);
}

static long relay_test_bench_fn(void *arg)
{
	struct relay_test_bench *b = arg;
	unsigned int round, v;
	unsigned long i;
	size_t off = 0;
	u64 t;

	if (raw_smp_processor_id() != b->cpu)
		return -EIO;

	for (v = 0; v < 3; v++)
		b->ns[v] = U64_MAX;
	for (round = 0; round < 5; round++) {
		for (v = 0; v < 3; v++) {
			t = ktime_get_ns();
			for (i = 0; i < b->count; i++) {
				if (v == 0)
					relay_write(b->rchan, b->rec, b->size);
				else if (v == 1)
					relay_test_write_nocount(b->rchan, b->rec,
								 b->size);
				else
					relay_test_memcpy(b, &off);
			}
			t = ktime_get_ns() - t;
			b->ns[v] = min(b->ns[v], t);
			cond_resched();
		}
	}

	return 0;
}

static ssize_t bench_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	ssize_t len;

	mutex_lock(&relay_test_lock);
	len = sysfs_emit(buf, "%lu %u %llu %llu %llu\n",
			 relay_test_bench_result.count,
			 relay_test_bench_result.size,
			 relay_test_bench_result.ns[0],
			 relay_test_bench_result.ns[1],
			 relay_test_bench_result.ns[2]);
	mutex_unlock(&relay_test_lock);
	return len;
}

static ssize_t bench_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct relay_test_bench b = { };
	int end = 0;
	long ret;

	if (sscanf(buf, "%u %lu %u %n", &b.cpu, &b.count, &b.size, &end) != 3 ||
	    buf[end] != '\0' || b.cpu >= nr_cpu_ids || !b.count ||
	    b.count > (1UL << 24) || b.size < RELAY_TEST_MIN_SIZE ||
	    b.size > RELAY_TEST_MAX_SIZE)
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (!relay_test_sysfs.rchan)
		goto out;
	ret = -EINVAL;
	if (b.size > relay_test_subbuf_size)
		goto out;
	ret = -ENOMEM;
	b.area_size = relay_test_subbuf_size;
	b.rec = kmalloc(b.size, GFP_KERNEL);
	b.area = kvmalloc(b.area_size, GFP_KERNEL);
	if (!b.rec || !b.area)
		goto out_free;
	relay_test_fill(b.rec, b.cpu, 0, b.size);
	b.rchan = relay_test_sysfs.rchan;
	ret = work_on_cpu_safe(b.cpu, relay_test_bench_fn, &b);
	if (!ret) {
		relay_test_bench_result.count = b.count;
		relay_test_bench_result.size = b.size;
		memcpy(relay_test_bench_result.ns, b.ns, sizeof(b.ns));
	}
out_free:
	kvfree(b.area);
	kfree(b.rec);
out:
	mutex_unlock(&relay_test_lock);
	return ret ? ret : count;
}

/* --- channel set-up ------------------------------------------------------- */

static int relay_test_create(void)
{
	struct sysfs_relay *files;

	files = sysfs_create_relay_file(relay_test_kobj,
					&relay_test_buf_attrs[relay_test_mode],
					relay_test_subbuf_size,
					relay_test_n_subbufs, &relay_test_sysfs);
	if (IS_ERR(files))
		return PTR_ERR(files);
	relay_test_files = files;
	relay_test_sysfs.rchan = sysfs_relay_chan(files);
	memset(relay_test_sysfs.seq, 0, nr_cpu_ids * sizeof(u64));
	/* The value was accepted by relay before: this cannot fail. */
	WARN_ON(relay_set_wakeup_subbufs(relay_test_sysfs.rchan,
					 relay_test_wakeup_subbufs));
	return 0;
}

static void relay_test_remove(void)
{
	relay_test_sysfs.rchan = NULL;
	sysfs_remove_relay_file(relay_test_files);
	relay_test_files = NULL;
}

static bool relay_test_geometry_ok(unsigned long size, unsigned long n,
				   unsigned int mode)
{
	return size >= 64 && size <= (4UL << 20) && n >= 1 && n <= 1024 &&
	       size * n <= (64UL << 20) && mode < RELAY_TEST_NR_MODES;
}

/* The CPU whose debugfs buffer file cannot be created, or -1 (dbg_fail). */
static atomic_t relay_test_dbg_fail = ATOMIC_INIT(-1);

static struct dentry *relay_test_dbg_create(const char *filename,
					    struct dentry *parent,
					    umode_t mode,
					    struct rchan_buf *buf,
					    int *is_global)
{
	char failing[sizeof("dbg") + 11];
	int cpu = atomic_read(&relay_test_dbg_fail);

	/* by name: relay names the file after the CPU it is for */
	snprintf(failing, sizeof(failing), "dbg%d", cpu);
	if (cpu >= 0 && !strcmp(filename, failing))
		return ERR_PTR(-ENOMEM);
	return debugfs_create_file(filename, mode, parent, buf,
				   &relay_file_operations);
}

static ssize_t dbg_fail_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&relay_test_dbg_fail));
}

static ssize_t dbg_fail_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	int cpu;

	if (kstrtoint(buf, 10, &cpu) || cpu < -1 || cpu >= (int)nr_cpu_ids)
		return -EINVAL;
	atomic_set(&relay_test_dbg_fail, cpu);
	return count;
}

static int relay_test_dbg_remove(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks relay_test_dbg_cb = {
	.create_buf_file = relay_test_dbg_create,
	.remove_buf_file = relay_test_dbg_remove,
};

/* A buffer-only channel with one buffer for all CPUs: no file at all. */
static struct dentry *relay_test_glob_create(const char *filename,
					     struct dentry *parent,
					     umode_t mode,
					     struct rchan_buf *buf,
					     int *is_global)
{
	*is_global = 1;
	return NULL;
}

static int relay_test_glob_remove(struct dentry *dentry)
{
	return 0;
}

static const struct rchan_callbacks relay_test_glob_cb = {
	.create_buf_file = relay_test_glob_create,
	.remove_buf_file = relay_test_glob_remove,
};

/* --- faults and races for relay_faults (tests/guest/relay_faults.c) ------ */

/*
 * storm: for SECONDS, one writer per online CPU fills the sysfs channel,
 * one consumer per buffer hands sub-buffers back with relay_subbufs_consumed()
 * and this thread calls relay_reset() in a loop.  The writers are kept
 * out of relay_reset() (relay requires it of its callers); the consumers
 * are not, since user space hands sub-buffers back whenever it likes.
 * Before every reset, with the writers stopped, every buffer must hold
 * produced >= consumed and at most n_subbufs ready sub-buffers.
 */
struct relay_test_storm {
	struct rchan *rchan;
	struct rw_semaphore sem;	/* writers (read) against resets (write) */
	atomic_long_t handbacks;	/* sub-buffers handed back */
};

struct relay_test_storm_buf {
	struct relay_test_storm *storm;
	struct rchan_buf *buf;
	unsigned int cpu;
};

/* The last storm's figures, under relay_test_lock. */
static struct {
	unsigned long secs, resets, handbacks, violations;
	u64 events, full;
	int cpu;			/* first violation: CPU, -1 if none */
	size_t produced, consumed;	/* and its counts */
} relay_test_storm_result = { .cpu = -1 };

static int relay_test_storm_writer(void *arg)
{
	struct relay_test_storm_buf *sb = arg;
	struct relay_test_storm *s = sb->storm;
	u8 rec[64];
	int i;

	relay_test_fill(rec, sb->cpu, 0, sizeof(rec));
	while (!kthread_should_stop()) {
		down_read(&s->sem);
		for (i = 0; i < 16; i++)
			relay_write(s->rchan, rec, sizeof(rec));
		up_read(&s->sem);
		cond_resched();
	}
	return 0;
}

static int relay_test_storm_consumer(void *arg)
{
	struct relay_test_storm_buf *sb = arg;

	while (!kthread_should_stop()) {
		/* one more, racing resets (relay takes the reader lock) */
		relay_subbufs_consumed(sb->storm->rchan, sb->cpu, 1);
		atomic_long_inc(&sb->storm->handbacks);
		cond_resched();
	}
	return 0;
}

/* Check every buffer of the channel; the writers must be stopped. */
static void relay_test_storm_check(struct relay_test_storm *s)
{
	size_t n = s->rchan->n_subbufs, produced, consumed;
	struct relay_counters st;
	struct rchan_buf *buf;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		buf = *per_cpu_ptr(s->rchan->buf, cpu);
		if (!buf)
			continue;
		/* produced is stable; consumed only grows towards it */
		produced = READ_ONCE(buf->subbufs_produced);
		consumed = READ_ONCE(buf->subbufs_consumed);
		if (consumed > produced || produced - consumed > n) {
			if (!relay_test_storm_result.violations++) {
				relay_test_storm_result.cpu = cpu;
				relay_test_storm_result.produced = produced;
				relay_test_storm_result.consumed = consumed;
			}
		}
		if (!relay_buf_counters(s->rchan, cpu, &st)) {
			relay_test_storm_result.events += st.record_count;
			relay_test_storm_result.full += st.full_count;
		}
	}
}

static ssize_t storm_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	ssize_t len;

	mutex_lock(&relay_test_lock);
	len = sysfs_emit(buf, "%lu %lu %lu %llu %llu %lu %d %zu %zu\n",
			 relay_test_storm_result.secs,
			 relay_test_storm_result.resets,
			 relay_test_storm_result.handbacks,
			 relay_test_storm_result.events,
			 relay_test_storm_result.full,
			 relay_test_storm_result.violations,
			 relay_test_storm_result.cpu,
			 relay_test_storm_result.produced,
			 relay_test_storm_result.consumed);
	mutex_unlock(&relay_test_lock);
	return len;
}

/* "SECONDS": run a storm; stops early at the first violation. */
static ssize_t storm_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct relay_test_storm_buf *bufs;
	struct task_struct **tasks;
	struct relay_test_storm s;
	unsigned int secs, cpu, i, n = 0;
	unsigned long end;
	ssize_t ret;

	if (kstrtouint(buf, 10, &secs) || !secs || secs > 600)
		return -EINVAL;

	bufs = kcalloc(nr_cpu_ids, sizeof(*bufs), GFP_KERNEL);
	tasks = kcalloc(2 * nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	ret = -ENOMEM;
	if (!bufs || !tasks)
		goto out_free;

	/*
	 * No cpus_read_lock() here: relay_reset() takes it itself, and a
	 * read side nested in another deadlocks once a CPU hotplug writer
	 * waits between the two (lockdep: recursive locking).  relay_faults
	 * takes no CPU offline during a storm; a writer whose CPU goes away
	 * anyway only runs elsewhere.
	 */
	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (!relay_test_sysfs.rchan || relay_test_subbuf_size < 64)
		goto out_unlock;
	s.rchan = relay_test_sysfs.rchan;
	init_rwsem(&s.sem);
	atomic_long_set(&s.handbacks, 0);
	memset(&relay_test_storm_result, 0, sizeof(relay_test_storm_result));
	relay_test_storm_result.secs = secs;
	relay_test_storm_result.cpu = -1;
	relay_reset(s.rchan);

	ret = 0;
	for_each_online_cpu(cpu) {
		bufs[cpu].storm = &s;
		bufs[cpu].cpu = cpu;
		bufs[cpu].buf = *per_cpu_ptr(s.rchan->buf, cpu);
		if (!bufs[cpu].buf)
			continue;
		tasks[n] = kthread_create_on_cpu(relay_test_storm_writer,
						 &bufs[cpu], cpu,
						 "relay_test_w/%u");
		if (IS_ERR(tasks[n])) {
			ret = PTR_ERR(tasks[n]);
			break;
		}
		wake_up_process(tasks[n++]);
		tasks[n] = kthread_run(relay_test_storm_consumer, &bufs[cpu],
				       "relay_test_c/%u", cpu);
		if (IS_ERR(tasks[n])) {
			ret = PTR_ERR(tasks[n]);
			break;
		}
		n++;
	}

	end = jiffies + secs * HZ;
	while (!ret && time_before(jiffies, end) &&
	       !relay_test_storm_result.violations) {
		down_write(&s.sem);
		relay_test_storm_check(&s);
		relay_reset(s.rchan);
		relay_test_storm_result.resets++;
		up_write(&s.sem);
		cond_resched();
	}

	for (i = 0; i < n; i++)
		kthread_stop(tasks[i]);
	relay_test_storm_check(&s);
	relay_test_storm_result.handbacks = atomic_long_read(&s.handbacks);
	relay_reset(s.rchan);
	memset(relay_test_sysfs.seq, 0, nr_cpu_ids * sizeof(u64));
out_unlock:
	mutex_unlock(&relay_test_lock);
out_free:
	kfree(tasks);
	kfree(bufs);
	return ret ? ret : count;
}

/*
 * clash: "CPU" puts a plain attribute named cpu<CPU> into the channel's
 * directory, where that CPU's buffer file would go; "-1" takes it away
 * again.  Removing the channel removes it with the directory.
 */
static struct kobj_attribute relay_test_clash_attr;
static int relay_test_clash_cpu = -1;

static ssize_t relay_test_clash_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "in the way\n");
}

static ssize_t clash_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	ssize_t len;

	mutex_lock(&relay_test_lock);
	len = sysfs_emit(buf, "%d\n", relay_test_clash_cpu);
	mutex_unlock(&relay_test_lock);
	return len;
}

static void relay_test_unclash(void)
{
	if (relay_test_clash_cpu < 0)
		return;
	sysfs_remove_file_from_group(relay_test_kobj, &relay_test_clash_attr.attr,
				     "buffers");
	kfree(relay_test_clash_attr.attr.name);
	relay_test_clash_attr.attr.name = NULL;
	relay_test_clash_cpu = -1;
}

static ssize_t clash_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	int cpu, ret = 0;
	char *name;

	if (kstrtoint(buf, 10, &cpu) || cpu < -1 || cpu >= (int)nr_cpu_ids)
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	relay_test_unclash();
	if (cpu >= 0) {
		ret = -ENOMEM;
		name = kasprintf(GFP_KERNEL, "cpu%d", cpu);
		if (!name)
			goto out;
		sysfs_attr_init(&relay_test_clash_attr.attr);
		relay_test_clash_attr.attr.name = name;
		relay_test_clash_attr.attr.mode = 0444;
		relay_test_clash_attr.show = relay_test_clash_show;
		ret = sysfs_add_file_to_group(relay_test_kobj,
					      &relay_test_clash_attr.attr,
					      "buffers");
		if (ret) {
			kfree(name);
			relay_test_clash_attr.attr.name = NULL;
			goto out;
		}
		relay_test_clash_cpu = cpu;
	}
out:
	mutex_unlock(&relay_test_lock);
	return ret ? ret : count;
}

/*
 * orphan: a second relay attribute, on a child kobject "orphan_kobj".
 * "create" makes both, "del" removes the child's directory with
 * kobject_del() while the channel lives on, "remove" then removes the
 * relay attribute and puts the child.  Reads "STATE BUFFERS": none,
 * live or deleted, and how many CPUs have a buffer in its channel.
 */
enum relay_test_orphan_state { ORPHAN_NONE, ORPHAN_LIVE, ORPHAN_DELETED };

static struct kobject *relay_test_orphan_kobj;
static enum relay_test_orphan_state relay_test_orphan_state;
static struct sysfs_relay *relay_test_orphan_files;

static void relay_test_orphan_remove(void)
{
	if (relay_test_orphan_state == ORPHAN_NONE)
		return;
	sysfs_remove_relay_file(relay_test_orphan_files);
	relay_test_orphan_files = NULL;
	kobject_put(relay_test_orphan_kobj);
	relay_test_orphan_kobj = NULL;
	relay_test_orphan_state = ORPHAN_NONE;
}

static ssize_t orphan_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	static const char *const names[] = { "none", "live", "deleted" };
	struct relay_counters st;
	unsigned int cpu, nbufs = 0;
	ssize_t len;

	mutex_lock(&relay_test_lock);
	for (cpu = 0; relay_test_orphan_files && cpu < nr_cpu_ids; cpu++)
		if (!relay_buf_counters(sysfs_relay_chan(relay_test_orphan_files),
					cpu, &st))
			nbufs++;
	len = sysfs_emit(buf, "%s %u\n", names[relay_test_orphan_state],
			 nbufs);
	mutex_unlock(&relay_test_lock);
	return len;
}

static ssize_t orphan_store(struct kobject *dir, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	struct kobject *kobj;
	int ret = 0;

	mutex_lock(&relay_test_lock);
	if (sysfs_streq(buf, "create")) {
		ret = -EBUSY;
		if (relay_test_orphan_state != ORPHAN_NONE)
			goto out;
		ret = -ENOMEM;
		kobj = kobject_create_and_add("orphan_kobj", relay_test_kobj);
		if (!kobj)
			goto out;
		relay_test_orphan_kobj = kobj;
		relay_test_orphan_files =
			sysfs_create_relay_file(relay_test_orphan_kobj,
						&relay_test_buf_attrs[RELAY_TEST_DEFAULT],
						4096, 2, NULL);
		ret = PTR_ERR_OR_ZERO(relay_test_orphan_files);
		if (ret) {
			relay_test_orphan_files = NULL;
			kobject_put(relay_test_orphan_kobj);
			relay_test_orphan_kobj = NULL;
			goto out;
		}
		relay_test_orphan_state = ORPHAN_LIVE;
	} else if (sysfs_streq(buf, "del")) {
		ret = -EINVAL;
		if (relay_test_orphan_state != ORPHAN_LIVE)
			goto out;
		kobject_del(relay_test_orphan_kobj);
		relay_test_orphan_state = ORPHAN_DELETED;
		ret = 0;
	} else if (sysfs_streq(buf, "remove")) {
		relay_test_orphan_remove();
	} else {
		ret = -EINVAL;
	}
out:
	mutex_unlock(&relay_test_lock);
	return ret ? ret : count;
}

/*
 * hotplug_race: "CPU" arms a CPU hotplug callback that runs when CPU is
 * being brought up, after relay's own (CPUHP_RELAY_PREPARE) and before the
 * CPU is online.  It re-creates the sysfs channel from a work item, as a
 * new geometry would, and waits up to 5 s for that to finish, so that
 * relay_open() runs inside the window unless it waits for the hotplug to
 * end.  Reads "STATE INSIDE ERR": idle, armed, running or done; whether
 * the re-creation finished inside the window; its error.
 */
enum relay_test_race_state { RACE_IDLE, RACE_ARMED, RACE_RUNNING, RACE_DONE };

static int relay_test_race_cpu = -1;
static enum relay_test_race_state relay_test_race_state;
static int relay_test_race_inside;
static int relay_test_race_err;
static int relay_test_cpuhp_state = -1;
static DECLARE_COMPLETION(relay_test_race_done);

static void relay_test_race_fn(struct work_struct *work)
{
	int ret = 0;

	mutex_lock(&relay_test_lock);
	if (relay_test_sysfs.rchan)
		relay_test_remove();
	ret = relay_test_create();
	WRITE_ONCE(relay_test_race_err, ret);
	mutex_unlock(&relay_test_lock);
	complete(&relay_test_race_done);
	WRITE_ONCE(relay_test_race_state, RACE_DONE);
}

static DECLARE_WORK(relay_test_race_work, relay_test_race_fn);

static int relay_test_cpu_prepare(unsigned int cpu)
{
	unsigned long left;

	if (READ_ONCE(relay_test_race_cpu) != cpu)
		return 0;
	WRITE_ONCE(relay_test_race_cpu, -1);
	WRITE_ONCE(relay_test_race_state, RACE_RUNNING);
	reinit_completion(&relay_test_race_done);
	queue_work(system_unbound_wq, &relay_test_race_work);
	left = wait_for_completion_timeout(&relay_test_race_done, 5 * HZ);
	WRITE_ONCE(relay_test_race_inside, left != 0);
	return 0;
}

static ssize_t hotplug_race_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	static const char *const names[] = {
		"idle", "armed", "running", "done"
	};

	return sysfs_emit(buf, "%s %d %d\n",
			  names[READ_ONCE(relay_test_race_state)],
			  READ_ONCE(relay_test_race_inside),
			  READ_ONCE(relay_test_race_err));
}

static ssize_t hotplug_race_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	unsigned int cpu;

	if (kstrtouint(buf, 10, &cpu) || cpu >= nr_cpu_ids)
		return -EINVAL;
	if (relay_test_cpuhp_state < 0)
		return -ENODEV;
	if (READ_ONCE(relay_test_race_state) == RACE_RUNNING)
		return -EBUSY;
	flush_work(&relay_test_race_work);
	WRITE_ONCE(relay_test_race_inside, 0);
	WRITE_ONCE(relay_test_race_err, 0);
	WRITE_ONCE(relay_test_race_state, RACE_ARMED);
	WRITE_ONCE(relay_test_race_cpu, cpu);
	return count;
}

/* --- attributes ----------------------------------------------------------- */

static ssize_t relay_test_stats(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct relay_test_chan *tc = relay_test_chan_of(attr);
	struct relay_counters st;
	struct rchan_buf *rbuf;
	unsigned int cpu;
	int len;

	len = sysfs_emit(buf, "cpu events bytes full big refused produced consumed wakeups overwrites overwrite_bytes\n");
	mutex_lock(&relay_test_lock);
	for (cpu = 0; tc->rchan && cpu < nr_cpu_ids; cpu++) {
		if (relay_buf_counters(tc->rchan, cpu, &st))
			continue;
		/* a global channel's buffer is in slot 0 (relay_open_buf()) */
		rbuf = *per_cpu_ptr(tc->rchan->buf, tc->rchan->is_global ? 0 : cpu);
		len += sysfs_emit_at(buf, len, "%u %llu %llu %llu %llu %llu %zu %zu %llu %llu %llu\n",
				     cpu, st.record_count, st.record_bytes,
				     st.full_count, st.big_count,
				     st.refused_count,
				     READ_ONCE(rbuf->subbufs_produced),
				     READ_ONCE(rbuf->subbufs_consumed),
				     st.wakeup_count, st.overwrite_count,
				     st.overwrite_bytes);
	}
	mutex_unlock(&relay_test_lock);

	return len;
}

static int relay_test_parse_one(const char *buf)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v != 1)
		return -EINVAL;
	return 0;
}

static ssize_t geometry_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	ssize_t len;

	mutex_lock(&relay_test_lock);
	len = sysfs_emit(buf, "%zu %zu %u\n", relay_test_subbuf_size,
			 relay_test_n_subbufs, relay_test_mode);
	mutex_unlock(&relay_test_lock);
	return len;
}

static ssize_t geometry_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	unsigned long size, n;
	unsigned int mode;
	int end = 0;
	int ret;

	if (sscanf(buf, "%lu %lu %u %n", &size, &n, &mode, &end) != 3 ||
	    buf[end] != '\0' || !relay_test_geometry_ok(size, n, mode))
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	if (relay_test_sysfs.rchan)
		relay_test_remove();
	relay_test_subbuf_size = size;
	relay_test_n_subbufs = n;
	relay_test_mode = mode;
	ret = relay_test_create();
	mutex_unlock(&relay_test_lock);

	return ret ? ret : count;
}

static ssize_t present_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", !!READ_ONCE(relay_test_sysfs.rchan));
}

static ssize_t present_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	bool want;
	int ret = 0;

	if (kstrtobool(buf, &want))
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	if (want && !relay_test_sysfs.rchan)
		ret = relay_test_create();
	else if (!want && relay_test_sysfs.rchan)
		relay_test_remove();
	mutex_unlock(&relay_test_lock);

	return ret ? ret : count;
}

static ssize_t relay_test_reset(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	struct relay_test_chan *tc = relay_test_chan_of(attr);
	ssize_t ret;

	if (relay_test_parse_one(buf))
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (tc->rchan) {
		relay_reset(tc->rchan);
		memset(tc->seq, 0, nr_cpu_ids * sizeof(u64));
		ret = count;
	}
	mutex_unlock(&relay_test_lock);
	return ret;
}

static ssize_t flush_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	if (relay_test_parse_one(buf))
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	relay_flush(relay_test_sysfs.rchan);
	mutex_unlock(&relay_test_lock);
	return count;
}

static ssize_t wakeup_subbufs_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	size_t n;

	mutex_lock(&relay_test_lock);
	n = relay_test_wakeup_subbufs;
	mutex_unlock(&relay_test_lock);
	return sysfs_emit(buf, "%zu\n", n);
}

/* 0 goes to relay too: its -EINVAL is what the test checks. */
static ssize_t wakeup_subbufs_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	unsigned long n;
	int ret;

	if (kstrtoul(buf, 10, &n))
		return -EINVAL;

	mutex_lock(&relay_test_lock);
	ret = -ENODEV;
	if (relay_test_sysfs.rchan)
		ret = relay_set_wakeup_subbufs(relay_test_sysfs.rchan, n);
	if (!ret)
		relay_test_wakeup_subbufs = n;
	mutex_unlock(&relay_test_lock);
	return ret ? ret : count;
}

static ssize_t callbacks_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%ld %ld\n", atomic_long_read(&relay_test_calls),
			  atomic_long_read(&relay_test_bad_private));
}

/*
 * Two attributes that count the writes to them and notify their pollers
 * of each: notify_declared says so (SYSFS_NOTIFY), notify_legacy does not,
 * as every attribute did before the declaration.  The guest test
 * sysfs_notify_decl pins that poll() tells them apart without waiting and
 * that both wake a poller as before.  A kernel with
 * CONFIG_DEBUG_SYSFS_NOTIFY would warn at notify_legacy's sysfs_notify():
 * there it is woken through sysfs_notify_dirent(), which ends in the same
 * kernfs_notify() without the check.
 */
static atomic_long_t relay_test_notify_count[2];

static ssize_t notify_show(struct kobj_attribute *attr, char *buf, int i)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&relay_test_notify_count[i]));
}

static void relay_test_notify_legacy(struct kobject *kobj)
{
	struct kernfs_node *kn;

	if (!IS_ENABLED(CONFIG_DEBUG_SYSFS_NOTIFY)) {
		sysfs_notify(kobj, NULL, "notify_legacy");
		return;
	}
	kn = sysfs_get_dirent(kobj->sd, "notify_legacy");
	if (kn) {
		sysfs_notify_dirent(kn);
		sysfs_put(kn);
	}
}

static ssize_t notify_declared_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return notify_show(attr, buf, 0);
}

static ssize_t notify_declared_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	atomic_long_inc(&relay_test_notify_count[0]);
	sysfs_notify(kobj, NULL, "notify_declared");
	return count;
}

static ssize_t notify_legacy_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return notify_show(attr, buf, 1);
}

static ssize_t notify_legacy_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	atomic_long_inc(&relay_test_notify_count[1]);
	relay_test_notify_legacy(kobj);
	return count;
}

static struct kobj_attribute notify_declared_attr =
	__ATTR_NOTIFY(notify_declared, 0644, notify_declared_show,
		      notify_declared_store);
static struct kobj_attribute notify_legacy_attr = __ATTR_RW(notify_legacy);

static struct kobj_attribute geometry_attr = __ATTR_RW(geometry);
static struct kobj_attribute present_attr = __ATTR_RW(present);
static struct kobj_attribute flush_attr = __ATTR_WO(flush);
static struct kobj_attribute wakeup_subbufs_attr = __ATTR_RW(wakeup_subbufs);
static struct kobj_attribute callbacks_attr = __ATTR_RO(callbacks);

/* PREFIX##write, PREFIX##reset and PREFIX##stats of the channel CHAN */
#define RELAY_TEST_CHAN_ATTRS(prefix, chan)				\
static struct relay_test_chan_attr prefix##write_attr = {		\
	.attr = __ATTR(prefix##write, 0200, NULL, relay_test_write),	\
	.tc = &(chan),							\
};									\
static struct relay_test_chan_attr prefix##reset_attr = {		\
	.attr = __ATTR(prefix##reset, 0200, NULL, relay_test_reset),	\
	.tc = &(chan),							\
};									\
static struct relay_test_chan_attr prefix##stats_attr = {		\
	.attr = __ATTR(prefix##stats, 0444, relay_test_stats, NULL),	\
	.tc = &(chan),							\
}

RELAY_TEST_CHAN_ATTRS(, relay_test_sysfs);
RELAY_TEST_CHAN_ATTRS(debugfs_, relay_test_dbg);
RELAY_TEST_CHAN_ATTRS(global_, relay_test_glob);

static struct kobj_attribute bench_attr = __ATTR(bench, 0600, bench_show, bench_store);
static struct kobj_attribute storm_attr = __ATTR(storm, 0600, storm_show, storm_store);
static struct kobj_attribute beside_attr = __ATTR(beside, 0600, beside_show, beside_store);
static struct kobj_attribute clash_attr = __ATTR(clash, 0600, clash_show, clash_store);
static struct kobj_attribute dbg_fail_attr = __ATTR(dbg_fail, 0600, dbg_fail_show,
						    dbg_fail_store);
static struct kobj_attribute orphan_attr = __ATTR(orphan, 0600, orphan_show, orphan_store);
static struct kobj_attribute hotplug_race_attr =
	__ATTR(hotplug_race, 0600, hotplug_race_show, hotplug_race_store);

static struct attribute *relay_test_attrs[] = {
	&geometry_attr.attr,
	&present_attr.attr,
	&write_attr.attr.attr,
	&reset_attr.attr.attr,
	&flush_attr.attr,
	&wakeup_subbufs_attr.attr,
	&stats_attr.attr.attr,
	&callbacks_attr.attr,
	&debugfs_write_attr.attr.attr,
	&debugfs_reset_attr.attr.attr,
	&debugfs_stats_attr.attr.attr,
	&global_write_attr.attr.attr,
	&global_reset_attr.attr.attr,
	&global_stats_attr.attr.attr,
	&bench_attr.attr,
	&storm_attr.attr,
	&beside_attr.attr,
	&clash_attr.attr,
	&dbg_fail_attr.attr,
	&orphan_attr.attr,
	&hotplug_race_attr.attr,
	&notify_declared_attr.attr,
	&notify_legacy_attr.attr,
	NULL,
};

static const struct attribute_group relay_test_group = {
	.attrs = relay_test_attrs,
};

/* --- module --------------------------------------------------------------- */

static int __init relay_test_init(void)
{
	int ret = -ENOMEM;

	if (!relay_test_geometry_ok(subbuf_size, n_subbufs, 0) ||
	    !relay_test_geometry_ok(dbg_subbuf_size, dbg_n_subbufs, 0))
		return -EINVAL;

	relay_test_sysfs.seq = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	relay_test_dbg.seq = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	relay_test_glob.seq = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	if (!relay_test_sysfs.seq || !relay_test_dbg.seq || !relay_test_glob.seq)
		goto err_free_seq;

	relay_test_kobj = kobject_create_and_add("relay_test", kernel_kobj);
	if (!relay_test_kobj)
		goto err_free_seq;

	ret = sysfs_create_group(relay_test_kobj, &relay_test_group);
	if (ret)
		goto err_put_kobj;

	relay_test_subbuf_size = subbuf_size;
	relay_test_n_subbufs = n_subbufs;
	ret = relay_test_create();
	if (ret)
		goto err_remove_group;

	relay_test_dbg_dir = debugfs_create_dir("relay_test", NULL);
	relay_test_dbg.rchan = relay_open("dbg", relay_test_dbg_dir,
					  dbg_subbuf_size, dbg_n_subbufs,
					  &relay_test_dbg_cb, NULL);
	if (!relay_test_dbg.rchan) {
		ret = -ENOMEM;
		goto err_remove_dir;
	}
	relay_test_glob.rchan = relay_open(NULL, NULL, dbg_subbuf_size,
					   dbg_n_subbufs, &relay_test_glob_cb,
					   NULL);
	if (!relay_test_glob.rchan) {
		ret = -ENOMEM;
		goto err_close_dbg;
	}

	/* for hotplug_race: runs after CPUHP_RELAY_PREPARE */
	relay_test_cpuhp_state = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
							   "relay_test:prepare",
							   relay_test_cpu_prepare,
							   NULL);
	if (relay_test_cpuhp_state < 0)
		pr_warn("no CPU hotplug state (%d): hotplug_race is off\n",
			relay_test_cpuhp_state);

	return 0;

err_close_dbg:
	relay_close(relay_test_dbg.rchan);
err_remove_dir:
	debugfs_remove(relay_test_dbg_dir);
	relay_test_remove();
err_remove_group:
	sysfs_remove_group(relay_test_kobj, &relay_test_group);
err_put_kobj:
	kobject_put(relay_test_kobj);
err_free_seq:
	kfree(relay_test_glob.seq);
	kfree(relay_test_dbg.seq);
	kfree(relay_test_sysfs.seq);
	return ret;
}

static void __exit relay_test_exit(void)
{
	if (relay_test_cpuhp_state >= 0)
		cpuhp_remove_state_nocalls(relay_test_cpuhp_state);
	flush_work(&relay_test_race_work);
	mutex_lock(&relay_test_lock);
	relay_test_orphan_remove();
	relay_test_unclash();
	mutex_unlock(&relay_test_lock);
	relay_close(relay_test_glob.rchan);
	relay_close(relay_test_dbg.rchan);
	debugfs_remove(relay_test_dbg_dir);
	if (relay_test_sysfs.rchan)
		relay_test_remove();
	sysfs_remove_group(relay_test_kobj, &relay_test_group);
	kobject_put(relay_test_kobj);
	kfree(relay_test_glob.seq);
	kfree(relay_test_dbg.seq);
	kfree(relay_test_sysfs.seq);
}

module_init(relay_test_init);
module_exit(relay_test_exit);

MODULE_DESCRIPTION("Test module for relay channels as sysfs attributes");
MODULE_AUTHOR("Relay Sysfs Maintainers <maintainers@users.noreply.a-seed-96cd6f7c.example>");
MODULE_LICENSE("GPL");

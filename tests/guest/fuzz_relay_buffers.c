// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_relay_buffers - pins that sched_relay's buffer files (cpuN, the
 * sysfs relay attribute) answer seeded random sequences of open, read,
 * pread, write, mmap, mprotect, munmap, touches of the mapping, poll,
 * epoll, lseek, fork and close, issued by several processes at once, with
 * success or only the errnos that docs/ABI/testing/sysfs-kernel-sched_relay
 * and the VFS document, while a controller races them with reset, overwrite
 * and enabled toggles, geometry changes (the files are re-created), CPU
 * hotplug and module unload and reload.  A mapping may fault (SIGBUS) only
 * when its file was removed since it was mapped.  Afterwards the channel
 * must still record: every CPU's stream read back with read() has
 * consecutive headers, well-formed records with consecutive event numbers
 * (gaps only where drops were counted), exactly as many as stats says
 * were produced.
 *
 *   fuzz_relay_buffers SEED OPS GUARD_SECONDS [WORKERS]
 *
 * Does OPS operations, however long a loaded machine takes for them: how
 * much is fuzzed must not depend on the machine's speed.  GUARD_SECONDS
 * only catches a hang: a run that has not finished by then stops and fails.
 * Prints the seed, and the count of every operation and errno.  Needs
 * root, the module file and loadgen; leaves the module loaded with its
 * defaults and every CPU online.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/epoll.h>

#include "sched_relay_test.h"

#define MAX_WORKERS	8
#define MAX_FDS		6
#define MAX_MAPS	3
#define MAX_ERRNO	160
#define ONLINE_PATH	"/sys/devices/system/cpu/cpu%d/online"

enum op {
	OP_OPEN, OP_CLOSE, OP_READ, OP_PREAD, OP_READ_FAULT, OP_WRITE_BACK,
	OP_WRITE_GARBAGE, OP_WRITE_FAULT, OP_MMAP, OP_MMAP_BAD, OP_TOUCH,
	OP_MPROTECT, OP_MUNMAP, OP_POLL, OP_EPOLL, OP_LSEEK, OP_FORK,
	OP_RESET, OP_OVERWRITE, OP_ENABLED, OP_GEOMETRY, OP_HOTPLUG, OP_RELOAD,
	NR_OPS
};

static const char *const op_names[NR_OPS] = {
	[OP_OPEN] = "open", [OP_CLOSE] = "close", [OP_READ] = "read",
	[OP_PREAD] = "pread", [OP_READ_FAULT] = "read-into-fault",
	[OP_WRITE_BACK] = "write-hand-back", [OP_WRITE_GARBAGE] = "write-garbage",
	[OP_WRITE_FAULT] = "write-from-fault", [OP_MMAP] = "mmap",
	[OP_MMAP_BAD] = "mmap-bad", [OP_TOUCH] = "touch-mapping",
	[OP_MPROTECT] = "mprotect-write", [OP_MUNMAP] = "munmap",
	[OP_POLL] = "poll", [OP_EPOLL] = "epoll", [OP_LSEEK] = "lseek",
	[OP_FORK] = "fork-and-use", [OP_RESET] = "ctl-reset",
	[OP_OVERWRITE] = "ctl-overwrite", [OP_ENABLED] = "ctl-enabled",
	[OP_GEOMETRY] = "ctl-geometry", [OP_HOTPLUG] = "ctl-hotplug",
	[OP_RELOAD] = "ctl-rmmod-insmod",
};

/* What every process sees: counts, and the controller's removal epoch. */
struct shared {
	/*
	 * Odd while the controller removes or re-creates the buffer files
	 * (geometry change, rmmod/insmod), bumped before and after.  A
	 * mapping made at an even epoch that still holds may not fault.
	 */
	atomic_uint epoch;
	atomic_bool stop;
	atomic_ulong ops;
	atomic_ulong result[NR_OPS][MAX_ERRNO + 1];	/* [0] = success */
	atomic_ulong sigbus_expected;
	atomic_ulong failures;
	atomic_flag said_first;
	char first_failure[256];
};

static struct shared *sh;
static unsigned int nr_cpus;

/* One stream per process, from the printed seed (test_rand()). */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	return test_rand(&rng_state);
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static const char *errno_name(int e)
{
	switch (e) {
	case 0: return "ok";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case ERANGE: return "ERANGE";
	case ESPIPE: return "ESPIPE";
	default: return NULL;
	}
}

/*
 * Count one result; an errno not in @allowed (0-terminated) is a failure,
 * except ENODEV, EINVAL and ENOENT when @removed (the file may have been
 * removed or re-created with another geometry since it was opened).
 */
static void tally_r(enum op op, int err, const int *allowed, bool removed)
{
	bool ok = !err || (removed && (err == ENODEV || err == EINVAL || err == ENOENT));

	atomic_fetch_add(&sh->ops, 1);
	atomic_fetch_add(&sh->result[op][err > 0 && err <= MAX_ERRNO ? err : 0], 1);
	for (const int *a = allowed; !ok && *a; a++)
		ok = *a == err;
	if (ok)
		return;
	atomic_fetch_add(&sh->failures, 1);
	if (!atomic_flag_test_and_set(&sh->said_first))
		snprintf(sh->first_failure, sizeof(sh->first_failure),
			 "%s: unexpected %s (%d)", op_names[op], strerror(err), err);
}

static void tally(enum op op, int err, const int *allowed)
{
	tally_r(op, err, allowed, false);
}

static void fail(enum op op, const char *what)
{
	atomic_fetch_add(&sh->failures, 1);
	if (!atomic_flag_test_and_set(&sh->said_first))
		snprintf(sh->first_failure, sizeof(sh->first_failure), "%s: %s",
			 op_names[op], what);
}

/*
 * ENOENT and ENODEV are documented for files that are removed: they are
 * allowed only when the controller may have removed the file (see
 * struct shared's epoch), the other errnos always.
 */
static const int open_errs[] = { ENOENT, ENODEV, 0 };
static const int read_errs[] = { EBADF, 0 };
static const int read_fault_errs[] = { EBADF, EFAULT, 0 };
/* ESTALE: a hand-back of sub-buffers consumed already */
static const int write_errs[] = { EBADF, EINVAL, ESTALE, 0 };
static const int write_fault_errs[] = { EBADF, EINVAL, ESTALE, EFAULT, 0 };
/* EACCES: PROT_READ on an O_WRONLY file, or MAP_SHARED+PROT_WRITE on O_RDONLY */
static const int mmap_errs[] = { EACCES, 0 };
static const int mmap_bad_errs[] = { EACCES, EPERM, EINVAL, 0 };
static const int mprotect_errs[] = { EACCES, 0 };
static const int none[] = { 0 };
/* the buffer files are not seekable (a faulting read() keeps its place) */
static const int espipe[] = { ESPIPE, 0 };
static const int epoll_errs[] = { EEXIST, ENOENT, 0 };
/* a reset with no channel (after a failed re-creation) */
static const int reset_errs[] = { ENODEV, 0 };
/* ENOMEM: a geometry the memory check refuses */
static const int geometry_errs[] = { ENOMEM, 0 };
/* EBUSY: a CPU that cannot go offline now (hotplug is refused, not broken) */
static const int hotplug_errs[] = { EBUSY, 0 };

struct mapping {
	void *addr;
	size_t len;
	size_t subbuf_size;
	unsigned int epoch;	/* sh->epoch when it was mapped */
};

struct worker {
	int fd[MAX_FDS];
	int fd_cpu[MAX_FDS];
	unsigned int fd_epoch[MAX_FDS];
	struct mapping map[MAX_MAPS];
	int epfd;
	char *fault_page;	/* a page followed by a PROT_NONE page */
};

/* May slot @i's file have been removed since it was opened? */
static bool stale(const struct worker *w, int i)
{
	return w->fd_epoch[i] & 1 || w->fd_epoch[i] != atomic_load(&sh->epoch);
}

static sigjmp_buf bus_jmp;
static volatile sig_atomic_t in_touch;

static void on_sigbus(int sig)
{
	(void)sig;
	if (in_touch)
		siglongjmp(bus_jmp, 1);
	_exit(70);
}

/* The geometry the files have now (it changes under us: a snapshot). */
static size_t buffer_len(size_t *subbuf_size)
{
	uint64_t ss = sr_read_u64("subbuf_size"), n = sr_read_u64("n_subbufs");

	if (ss == UINT64_MAX || n == UINT64_MAX)
		return 0;
	*subbuf_size = ss;
	return ss * n;
}

static int free_slot(const int *fds)
{
	for (int i = 0; i < MAX_FDS; i++)
		if (fds[i] < 0)
			return i;
	return -1;
}

static int some_fd(struct worker *w)
{
	int start = (int)rnd_below(MAX_FDS);

	for (int i = 0; i < MAX_FDS; i++)
		if (w->fd[(start + i) % MAX_FDS] >= 0)
			return (start + i) % MAX_FDS;
	return -1;
}

static void op_open(struct worker *w)
{
	static const int flags[] = { O_RDONLY, O_RDWR, O_WRONLY,
				     O_RDONLY | O_NONBLOCK, O_RDWR | O_CLOEXEC };
	int slot = free_slot(w->fd);
	/* now and then a CPU that has no file */
	int cpu = (int)rnd_below(nr_cpus + 1);
	unsigned int epoch = atomic_load(&sh->epoch);

	if (slot < 0)
		return;
	w->fd[slot] = sr_open_buffer(cpu, flags[rnd_below(5)]);
	w->fd_cpu[slot] = cpu;
	w->fd_epoch[slot] = epoch;
	/* cpu == nr_cpus has no file; others only while files are removed */
	tally_r(OP_OPEN, w->fd[slot] < 0 ? errno : 0,
		cpu == (int)nr_cpus ? open_errs : none, stale(w, slot));
}

static void op_close(struct worker *w)
{
	int i = some_fd(w);

	if (i < 0)
		return;
	if (w->epfd >= 0)
		epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->fd[i], NULL);
	tally(OP_CLOSE, close(w->fd[i]) ? errno : 0, none);
	w->fd[i] = -1;
}

static size_t read_size(void)
{
	static const size_t sizes[] = { 0, 1, 63, 64, 65, 4095, 4096, 4097,
					8192, 65536 };

	return rnd_below(4) ? sizes[rnd_below(10)] : rnd_below(70000);
}

static void op_read(struct worker *w, bool positioned)
{
	static char buf[70000 + 64];
	int i = some_fd(w);
	size_t len = read_size();
	char *at = buf + rnd_below(64);	/* unaligned too */
	ssize_t n;

	if (i < 0)
		return;
	if (positioned) {
		n = pread(w->fd[i], at, len, (off_t)rnd_below(1 << 20));
		if (n >= 0)
			fail(OP_PREAD, "pread() of a file that is not seekable succeeded");
		else
			tally(OP_PREAD, errno, espipe);
		return;
	}
	n = read(w->fd[i], at, len);
	tally_r(OP_READ, n < 0 ? errno : 0, read_errs, stale(w, i));
	if (n > (ssize_t)len)
		fail(OP_READ, "read returned more than asked");
}

/* Read into a buffer whose end (or all of it) is an unmapped page. */
static void op_read_fault(struct worker *w)
{
	int i = some_fd(w);
	size_t before = rnd_below(3) ? rnd_below(4096) : 0;
	ssize_t n;

	if (i < 0)
		return;
	n = read(w->fd[i], w->fault_page + 4096 - before, before + 1 + rnd_below(8192));
	tally_r(OP_READ_FAULT, n < 0 ? errno : 0, read_fault_errs, stale(w, i));
	if (n > (ssize_t)before)
		fail(OP_READ_FAULT, "read wrote past a PROT_NONE page");
}

static void op_write(struct worker *w, enum op op)
{
	char buf[96];
	int i = some_fd(w);
	size_t len;
	ssize_t n;

	if (i < 0)
		return;
	if (op == OP_WRITE_BACK) {
		/* 0 .. more than a buffer can hold, with or without newline */
		len = (size_t)snprintf(buf, sizeof(buf), "%u%s", rnd_below(10),
				       rnd_below(2) ? "\n" : "");
	} else {
		static const char *const junk[] = {
			"", "\n", "-1", "+1", " 1", "1 ", "0x1", "1\n\n",
			"4294967296", "99999999999999999999", "1\0002", "abc",
		};

		if (rnd_below(3)) {
			len = strlen(junk[rnd_below(12)]);
			memcpy(buf, junk[rnd_below(12)], len + 1);
			if (!strcmp(buf, "1\0002"))
				len = 3;
		} else {
			len = rnd_below(sizeof(buf));
			for (size_t k = 0; k < len; k++)
				buf[k] = (char)rnd();
		}
	}
	n = write(w->fd[i], buf, len);
	tally_r(op, n < 0 ? errno : 0, write_errs, stale(w, i));
	if (n >= 0 && (size_t)n != len)
		fail(op, "a write succeeded in part");
}

static void op_write_fault(struct worker *w)
{
	int i = some_fd(w);
	ssize_t n;

	if (i < 0)
		return;
	n = write(w->fd[i], w->fault_page + 4096 - rnd_below(3), 2 + rnd_below(8));
	tally_r(OP_WRITE_FAULT, n < 0 ? errno : 0, write_fault_errs, stale(w, i));
}

static int free_map(struct worker *w)
{
	for (int i = 0; i < MAX_MAPS; i++)
		if (!w->map[i].addr)
			return i;
	return -1;
}

/* A valid mapping: whole buffer, offset 0, PROT_READ, shared or private. */
static void op_mmap(struct worker *w)
{
	int i = some_fd(w), m = free_map(w);
	size_t subbuf_size, len;
	unsigned int epoch = atomic_load(&sh->epoch);
	void *p;

	if (i < 0 || m < 0)
		return;
	len = buffer_len(&subbuf_size);
	if (!len)
		return;
	p = mmap(NULL, len, PROT_READ, rnd_below(4) ? MAP_SHARED : MAP_PRIVATE,
		 w->fd[i], 0);
	if (p == MAP_FAILED) {
		/* EINVAL too when the geometry changed since it was read */
		tally_r(OP_MMAP, errno, mmap_errs, stale(w, i) || w->fd_epoch[i] != epoch);
		return;
	}
	tally(OP_MMAP, 0, none);
	/* a mapping of a file opened before a re-creation is dead already */
	w->map[m] = (struct mapping){ p, len, subbuf_size,
		w->fd_epoch[i] == epoch ? epoch : 1 };
}

/* Mappings the ABI refuses: wrong length or offset, writable. */
static void op_mmap_bad(struct worker *w)
{
	int i = some_fd(w);
	size_t subbuf_size, len = buffer_len(&subbuf_size);
	size_t lens[] = { 0, 4096, len ? len - 4096 : 1, len + 4096, len };
	off_t offs[] = { 0, 4096, (off_t)len, 12 };
	int prot = rnd_below(2) ? PROT_READ | PROT_WRITE : PROT_READ;
	int flags = rnd_below(2) ? MAP_SHARED : MAP_PRIVATE;
	size_t l = lens[rnd_below(5)];
	off_t o = offs[rnd_below(4)];
	void *p;

	if (i < 0)
		return;
	/*
	 * The valid ranges belong to op_mmap: the buffer, the buffer and
	 * its meta area (one page for sched_relay's at most 256
	 * sub-buffers), the meta area alone; here they go with PROT_WRITE.
	 */
	if ((((l == len || l == len + 4096) && !o) ||
	     (o == (off_t)len && l == 4096)) && prot == PROT_READ)
		prot |= PROT_WRITE;
	p = mmap(NULL, l, prot, flags, w->fd[i], o);
	if (p != MAP_FAILED) {
		munmap(p, l);
		fail(OP_MMAP_BAD, "a mapping the ABI refuses succeeded");
		return;
	}
	tally_r(OP_MMAP_BAD, errno, mmap_bad_errs, stale(w, i));
}

/* Read every header of a mapping, guarded against SIGBUS. */
static void op_touch(struct worker *w)
{
	struct mapping *m = &w->map[rnd_below(MAX_MAPS)];
	volatile uint64_t sum = 0;

	if (!m->addr)
		return;
	if (sigsetjmp(bus_jmp, 1)) {
		in_touch = 0;
		if (m->epoch & 1 || m->epoch != atomic_load(&sh->epoch)) {
			atomic_fetch_add(&sh->sigbus_expected, 1);
			tally(OP_TOUCH, 0, none);
		} else {
			fail(OP_TOUCH, "SIGBUS on a mapping whose file is there");
		}
		/* dead for good: drop it */
		munmap(m->addr, m->len);
		m->addr = NULL;
		return;
	}
	in_touch = 1;
	for (size_t off = 0; off < m->len; off += m->subbuf_size) {
		const struct sched_relay_header *h = (const void *)((char *)m->addr + off);

		sum += h->seq + __atomic_load_n(&h->committed, __ATOMIC_ACQUIRE);
	}
	in_touch = 0;
	tally(OP_TOUCH, 0, none);
}

static void op_mprotect(struct worker *w)
{
	struct mapping *m = &w->map[rnd_below(MAX_MAPS)];

	if (!m->addr)
		return;
	/* VM_MAYWRITE is cleared: a mapping can never become writable */
	if (!mprotect(m->addr, m->len, PROT_READ | PROT_WRITE)) {
		fail(OP_MPROTECT, "a buffer mapping became writable");
		mprotect(m->addr, m->len, PROT_READ);
		return;
	}
	tally(OP_MPROTECT, errno, mprotect_errs);
}

static void op_munmap(struct worker *w)
{
	struct mapping *m = &w->map[rnd_below(MAX_MAPS)];

	if (!m->addr)
		return;
	tally(OP_MUNMAP, munmap(m->addr, m->len) ? errno : 0, none);
	m->addr = NULL;
}

static void op_poll(struct worker *w)
{
	struct pollfd pfd[MAX_FDS];
	int n = 0, r;

	for (int i = 0; i < MAX_FDS; i++)
		if (w->fd[i] >= 0)
			pfd[n++] = (struct pollfd){ .fd = w->fd[i],
				.events = (short)(rnd_below(2) ? POLLIN : POLLIN | POLLPRI) };
	if (!n)
		return;
	r = poll(pfd, (nfds_t)n, (int)rnd_below(3));
	tally(OP_POLL, r < 0 ? errno : 0, none);
	for (int i = 0; r > 0 && i < n; i++)
		if (pfd[i].revents & POLLNVAL)
			fail(OP_POLL, "POLLNVAL on an open buffer file");
}

static void op_epoll(struct worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLPRI }, out[MAX_FDS];
	int i = some_fd(w), r;

	if (i < 0 || w->epfd < 0)
		return;
	switch (rnd_below(3)) {
	case 0:
		ev.data.fd = w->fd[i];
		r = epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->fd[i], &ev);
		break;
	case 1:
		r = epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->fd[i], NULL);
		break;
	default:
		r = epoll_wait(w->epfd, out, MAX_FDS, (int)rnd_below(2));
		break;
	}
	tally(OP_EPOLL, r < 0 ? errno : 0, epoll_errs);
}

static void op_lseek(struct worker *w)
{
	int i = some_fd(w);
	off_t to = rnd_below(4) ? (off_t)rnd_below(1 << 24) : -1;

	if (i < 0)
		return;
	if (lseek(w->fd[i], to, SEEK_SET) >= 0)
		fail(OP_LSEEK, "lseek() of a file that is not seekable succeeded");
	else
		tally(OP_LSEEK, errno, espipe);
}

static void worker_op(struct worker *w, unsigned int depth);

/* A child shares the open files and mappings for a few operations. */
static void op_fork(struct worker *w, unsigned int depth)
{
	pid_t pid;
	int st;

	if (depth)
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		rng_state ^= (uint64_t)getpid() << 32;
		for (int k = 0; k < 20; k++)
			worker_op(w, depth + 1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		fail(OP_FORK, "fork or waitpid failed");
		return;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail(OP_FORK, "the child sharing the files did not exit 0");
	else
		tally(OP_FORK, 0, none);
}

static void worker_op(struct worker *w, unsigned int depth)
{
	unsigned int r = rnd_below(100);

	if (r < 12) op_open(w);
	else if (r < 20) op_close(w);
	else if (r < 36) op_read(w, false);
	else if (r < 40) op_read(w, true);
	else if (r < 44) op_read_fault(w);
	else if (r < 54) op_write(w, OP_WRITE_BACK);
	else if (r < 59) op_write(w, OP_WRITE_GARBAGE);
	else if (r < 61) op_write_fault(w);
	else if (r < 67) op_mmap(w);
	else if (r < 71) op_mmap_bad(w);
	else if (r < 82) op_touch(w);
	else if (r < 84) op_mprotect(w);
	else if (r < 88) op_munmap(w);
	else if (r < 92) op_poll(w);
	else if (r < 96) op_epoll(w);
	else if (r < 99) op_lseek(w);
	else op_fork(w, depth);
}

static int worker(uint64_t seed, unsigned long quota)
{
	struct worker w = { .epfd = epoll_create1(0) };
	struct sigaction sa = { .sa_handler = on_sigbus };

	rng_state = seed;
	sigaction(SIGBUS, &sa, NULL);
	for (int i = 0; i < MAX_FDS; i++)
		w.fd[i] = -1;
	w.fault_page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w.fault_page == MAP_FAILED || mprotect(w.fault_page + 4096, 4096, PROT_NONE))
		return 2;
	for (unsigned long n = 0; n < quota && !atomic_load(&sh->stop); n++)
		worker_op(&w, 0);
	return 0;
}

/* --- the controller --------------------------------------------------- */

static void begin_removal(void)
{
	atomic_fetch_add(&sh->epoch, 1);	/* odd: files may go */
}

static void end_removal(void)
{
	atomic_fetch_add(&sh->epoch, 1);	/* even: files are back */
}

static int write_path(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int set_online(int cpu, bool on)
{
	char path[64];

	snprintf(path, sizeof(path), ONLINE_PATH, cpu);
	return write_path(path, on ? "1" : "0");
}

static void controller_op(void)
{
	static const char *const sizes[] = { "4096", "8192", "16384", "65536" };
	static const char *const counts[] = { "2", "4", "8" };
	unsigned int r = rnd_below(100);
	int err;

	if (r < 30) {
		err = sr_write("reset", "1");
		tally(OP_RESET, -err, reset_errs);
	} else if (r < 45) {
		err = sr_write("overwrite", rnd_below(2) ? "1" : "0");
		tally(OP_OVERWRITE, -err, none);
	} else if (r < 60) {
		err = sr_write("enabled", rnd_below(2) ? "1" : "0");
		tally(OP_ENABLED, -err, none);
	} else if (r < 75) {
		begin_removal();
		if (rnd_below(2))
			err = sr_write("subbuf_size", sizes[rnd_below(4)]);
		else
			err = sr_write("n_subbufs", counts[rnd_below(3)]);
		end_removal();
		tally(OP_GEOMETRY, -err, geometry_errs);
	} else if (r < 92) {
		int cpu = 1 + (int)rnd_below(nr_cpus - 1);

		err = set_online(cpu, false);
		tally(OP_HOTPLUG, err, hotplug_errs);
		err = set_online(cpu, true);
		tally(OP_HOTPLUG, err, none);
	} else {
		char cmd[160];

		begin_removal();
		err = sr_sh("rmmod sched_relay");
		snprintf(cmd, sizeof(cmd), "insmod " SR_MODULE " subbuf_size=%s n_subbufs=%s",
			 sizes[rnd_below(4)], counts[rnd_below(3)]);
		if (!err)
			err = sr_sh(cmd);
		end_removal();
		if (err)
			fail(OP_RELOAD, "rmmod or insmod failed");
		else
			tally(OP_RELOAD, 0, none);
	}
}

/* --- after the fuzzing: does the channel still record? ----------------- */

static bool records_read_back(void)
{
	struct sr_stats st;
	bool good = true;
	pid_t lg;

	if (sr_sh("rmmod sched_relay; insmod " SR_MODULE) || sr_nr_buffers() != (int)nr_cpus) {
		test_msg("sched_relay does not come back with one file per CPU");
		return false;
	}
	lg = sr_loadgen(NULL, "2000", "1");
	if (sr_wait(lg)) {
		test_msg("loadgen failed");
		return false;
	}
	if (!sr_set("enabled", "0") || sr_read_stats(&st))
		return false;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct sr_parse p;
		void *data = NULL;
		ssize_t len = sr_read_buffer((int)cpu, &data);

		if (len < 0) {
			test_msg("cpu%u: %s", cpu, strerror((int)-len));
			return false;
		}
		/* consecutive headers and event numbers, well-formed records */
		sr_parse_init(&p, cpu, nr_cpus, 65536, 0);
		if (!sr_parse_stream(&p, data, (size_t)len)) {
			test_msg("%s", p.problem);
			good = false;
		} else if (p.first_seq || !p.records || st.cpu[cpu].produced != p.records ||
			   /* drops after the last header (a full buffer) are in no header */
			   p.next_event != st.cpu[cpu].produced + p.last_dropped ||
			   st.cpu[cpu].dropped < p.last_dropped) {
			test_msg("cpu%u: %" PRIu64 " records from sub-buffer %" PRIu64
				 ", next event %" PRIu64 "; stats: %" PRIu64
				 " produced, %" PRIu64 " dropped", cpu, p.records,
				 p.first_seq, p.next_event, st.cpu[cpu].produced,
				 st.cpu[cpu].dropped);
			good = false;
		}
		free(data);
	}
	sr_set("enabled", "1");
	return good;
}

static void print_counts(void)
{
	for (int op = 0; op < NR_OPS; op++) {
		char line[512];
		int len = snprintf(line, sizeof(line), "#   %-18s", op_names[op]);
		unsigned long total = 0;

		for (int e = 0; e <= MAX_ERRNO; e++) {
			unsigned long n = atomic_load(&sh->result[op][e]);
			const char *name = errno_name(e);

			if (!n)
				continue;
			total += n;
			if (len < (int)sizeof(line) - 40)
				len += name ? snprintf(line + len, sizeof(line) - len, " %s=%lu", name, n)
					    : snprintf(line + len, sizeof(line) - len, " errno%d=%lu", e, n);
		}
		if (total)
			printf("%s\n", line);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long want, done;
	unsigned int nr_workers = 3;
	double secs;
	pid_t pids[MAX_WORKERS];
	uint64_t end;
	bool workers_ok = true;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s SEED OPS GUARD_SECONDS [WORKERS]\n", argv[0]);
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	want = strtoul(argv[2], NULL, 0);
	secs = strtod(argv[3], NULL);
	if (argc == 5)
		nr_workers = (unsigned int)strtoul(argv[4], NULL, 0);
	if (!nr_workers || nr_workers > MAX_WORKERS) {
		fprintf(stderr, "%s: WORKERS is 1 to %d\n", argv[0], MAX_WORKERS);
		return 2;
	}
	nr_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || nr_cpus < 2 || sr_nr_buffers() != (int)nr_cpus) {
		fprintf(stderr, "%s: needs sched_relay loaded and 2 CPUs or more\n", argv[0]);
		return 2;
	}
	printf("# buffer-file fuzzer: seed %" PRIu64 ", %u workers, %lu operations (hang guard %.0f s)\n",
	       seed, nr_workers, want, secs);
	fflush(stdout);

	for (unsigned int i = 0; i < nr_workers; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(worker(seed * 0x9E3779B97F4A7C15ULL + i + 1, want));
	}
	rng_state = seed ^ 0xC0FFEEULL;
	end = sr_now_ns() + (uint64_t)(secs * 1e9);
	while (sr_now_ns() < end && atomic_load(&sh->ops) < want) {
		struct timespec pause = { 0, (long)(5 + rnd_below(60)) * 1000000L };

		nanosleep(&pause, NULL);
		controller_op();
	}
	atomic_store(&sh->stop, true);
	for (unsigned int i = 0; i < nr_workers; i++) {
		int st = sr_wait(pids[i]);

		if (st) {
			printf("# worker %u exited with %d\n", i, st);
			workers_ok = false;
		}
	}
	for (int cpu = 1; cpu < (int)nr_cpus; cpu++)
		set_online(cpu, true);

	done = atomic_load(&sh->ops);
	printf("# %lu operations (%lu SIGBUS on removed files), seed %" PRIu64 ":\n",
	       done, atomic_load(&sh->sigbus_expected), seed);
	print_counts();
	if (atomic_load(&sh->failures))
		printf("# %lu unexpected results; first: %s\n",
		       atomic_load(&sh->failures), sh->first_failure);

	TEST(check(workers_ok), "every fuzzing process ran to the end");
	TEST(check_uint(done, >=, want), "all %lu operations were done within the %.0f s hang guard",
	     want, secs);
	TEST(check_uint(atomic_load(&sh->failures), ==, 0),
	     "every operation got success or a documented errno (seed %" PRIu64 ")", seed);
	TEST(check(records_read_back()),
	     "afterwards every CPU's buffer records well-formed, consecutive data");
	return test_done();
}

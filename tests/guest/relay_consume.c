// SPDX-License-Identifier: GPL-2.0
/*
 * relay_consume.c - what a relay buffer file consumes, and when
 *
 * Pins the consume protocol of the kernel series (issue 28), driven by
 * tests/modules/relay_test.ko:
 *  - a hand-back names sub-buffers by their absolute number, which a
 *    reset never sets back: one that crosses a relay_reset() is refused
 *    with ESTALE and consumes nothing, so every record written after the
 *    reset is read (before: the hand-back "3" consumed 3 of the new
 *    sub-buffers, and 192 of 200 new records were never read);
 *  - the meta area after the buffer says where the writer is, what was
 *    consumed and reset, and where each finished sub-buffer's data ends;
 *    it maps read-only, alone or after the buffer, and nothing else maps;
 *  - every read consumes exactly what it delivered, whatever the syscall:
 *    read(), readv() into a destination that faults part of the way, aio
 *    (IOCB_CMD_PREAD) and io_uring (IORING_OP_READ) at offset 0 again and
 *    again, at increasing offsets, and at -1 (before: the position decided
 *    what was delivered, so offset 0 repeated returned the same bytes for
 *    ever and increasing offsets skipped data);
 *  - relay_flush() from another CPU while a CPU writes, and relay_reset()
 *    while it writes, keep every counter equal to what the writer did and
 *    every record intact and in its place (before: the flush and the reset
 *    worked on the buffer from their own CPU, under the writer).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <linux/relay.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "test-lib.h"
#include "relay_test_lib.h"

#define REC	64U		/* record size of these tests */

static unsigned int cpus[MAX_CPUS];
static unsigned int ncpus;

static int geometry(unsigned int size, unsigned int n, int mode)
{
	return ctl("geometry", "%u %u %d\n", size, n, mode);
}

static bool put(unsigned int cpu, unsigned long count, unsigned int size)
{
	int ret = ctl("write", "%u %lu %u\n", cpu, count, size);

	if (ret)
		test_msg("write %u %lu %u: %s", cpu, count, size, strerror(-ret));
	return check_int(ret, ==, 0);
}

static int open_buf(unsigned int cpu, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), BUF_DIR "/cpu%u", cpu);
	return open(path, flags);
}

/* Hand back up to sub-buffer @until: 0 or -errno. */
static int hand_back(int fd, unsigned long long until)
{
	char s[32];
	int len = snprintf(s, sizeof(s), "%llu\n", until);

	return write(fd, s, len) == len ? 0 : -errno;
}

/* Everything read() gives from @fd now, into @buf. */
static ssize_t drain(int fd, uint8_t *buf, size_t cap)
{
	return read_all(fd, buf, cap, cap, NULL);
}

/* --- the meta area --------------------------------------------------------- */

struct mapped {
	void *base;
	size_t len;
	const struct relay_buf_meta *meta;
};

static size_t meta_size_of(unsigned int n_subbufs)
{
	size_t bytes = sizeof(struct relay_buf_meta) + 4 * (size_t)n_subbufs;

	return (bytes + PAGE - 1) / PAGE * PAGE;
}

static bool map_meta(int fd, size_t data_size, unsigned int n_subbufs,
		     struct mapped *m)
{
	m->len = data_size + meta_size_of(n_subbufs);
	m->base = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, 0);
	if (m->base == MAP_FAILED) {
		test_msg("mmap of %zu bytes: %s", m->len, strerror(errno));
		return check(false);
	}
	m->meta = (const void *)((const uint8_t *)m->base + data_size);
	return true;
}

static uint64_t load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* --- hand-backs ------------------------------------------------------------ */

static void test_stale_handback(void)
{
	static uint8_t buf[64 * 1024];
	struct cpu_stats st = { 0 };
	ssize_t got;
	int fd;

	if (!check_int(geometry(4096, 4, 0), ==, 0))
		return;
	fd = open_buf(0, O_RDWR);
	if (!check_int(fd, >=, 0))
		return;
	/* 200 records of 64 bytes: three sub-buffers of 64 and 8 more */
	if (!put(0, 200, REC))
		goto out;
	check(get_stats("stats", 0, &st));
	check_uint(st.produced, ==, 3);
	/* a reset the mapping reader has not seen yet */
	check_int(ctl("reset", "1\n"), ==, 0);
	if (!put(0, 200, REC))
		goto out;
	/* the reader hands back the three it parsed before the reset */
	check_int(hand_back(fd, 3), ==, -ESTALE);
	got = drain(fd, buf, sizeof(buf));
	/* every one of the 200 new records */
	check(stream_ok(buf, got, 0, 0, 200, REC));	/* numbered from the reset */
	check(get_stats("stats", 0, &st));
	check_uint(st.events, ==, 200);
	check_uint(st.consumed, ==, st.produced);
out:
	close(fd);
}

static void test_handback_absolute(void)
{
	struct cpu_stats st = { 0 };
	int fd;

	if (!check_int(geometry(4096, 4, 0), ==, 0))
		return;
	fd = open_buf(0, O_RDWR);
	if (!check_int(fd, >=, 0))
		return;
	/* 5 x 64 records: the buffer is full with 4 finished */
	if (!put(0, 5 * 64, REC))
		goto out;
	check(get_stats("stats", 0, &st));
	check_uint(st.produced, ==, 4);
	check_uint(st.refused, ==, 64);
	check_int(hand_back(fd, 5), ==, -EINVAL);	/* not finished */
	check_int(hand_back(fd, 0), ==, 0);		/* nothing new */
	check_int(hand_back(fd, 2), ==, 0);
	check(get_stats("stats", 0, &st));
	check_uint(st.consumed, ==, 2);
	check_int(hand_back(fd, 1), ==, -ESTALE);	/* behind */
	check_int(hand_back(fd, 2), ==, 0);		/* again: a no-op */
	check(get_stats("stats", 0, &st));
	check_uint(st.consumed, ==, 2);
	check_int(write(fd, "x\n", 2), ==, -1);
	check_int(errno, ==, EINVAL);
	check_int(write(fd, "-1\n", 3), ==, -1);
	check_int(errno, ==, EINVAL);
	check_int(write(fd, "99999999999999999999999\n", 24), ==, -1);
	check_int(errno, ==, EINVAL);
	check(get_stats("stats", 0, &st));
	check_uint(st.consumed, ==, 2);
	check_int(hand_back(fd, 4), ==, 0);
	check(get_stats("stats", 0, &st));
	check_uint(st.consumed, ==, 4);
out:
	close(fd);
}

/* --- the meta area --------------------------------------------------------- */

static void test_meta(void)
{
	struct cpu_stats st = { 0 };
	struct mapped m;
	uint8_t *p;
	int fd;

	if (!check_int(geometry(4096, 4, 0), ==, 0))
		return;
	fd = open_buf(0, O_RDWR);
	if (!check_int(fd, >=, 0))
		return;
	if (!map_meta(fd, 4 * 4096, 4, &m))
		goto out;
	check_uint(m.meta->version, ==, RELAY_BUF_META_VERSION);
	check_uint(m.meta->meta_size, ==, meta_size_of(4));
	check_uint(m.meta->data_size, ==, 4 * 4096);
	check_uint(m.meta->subbuf_size, ==, 4096);
	check_uint(m.meta->n_subbufs, ==, 4);
	check_uint(load(&m.meta->produced), ==, 0);
	/* 100-byte records: 40 fit a sub-buffer, 96 bytes of padding */
	if (!put(0, 100, 100))
		goto unmap;
	check_uint(load(&m.meta->produced), ==, 2);
	check_uint(m.meta->ends[0], ==, 4000);
	check_uint(m.meta->ends[1], ==, 4000);
	check_uint(load(&m.meta->consumed), ==, 0);
	check_int(hand_back(fd, 2), ==, 0);
	check_uint(load(&m.meta->consumed), ==, 2);
	/* the records are where the ends say */
	p = m.base;
	check(stream_ok(p, 4000, 0, 0, 40, 100));
	check(stream_ok(p + 4096, 4000, 0, 40, 40, 100));
	check_uint(load(&m.meta->resets), ==, 0);
	check_int(ctl("reset", "1\n"), ==, 0);
	/* the sub-buffer being filled ended, and everything is consumed */
	check_uint(load(&m.meta->reset_at), ==, 3);
	check_uint(load(&m.meta->resets), ==, 1);
	check_uint(load(&m.meta->produced), ==, 3);
	check_uint(load(&m.meta->consumed), ==, 3);
	check(get_stats("stats", 0, &st));
	check_uint(st.produced, ==, 3);
	check_uint(st.consumed, ==, 3);
	/* the new data starts in sub-buffer 3, index 3 */
	if (put(0, 50, 100))
		check(stream_ok(p + 3 * 4096, 4000, 0, 0, 40, 100));
	check_uint(load(&m.meta->produced), ==, 4);
	check_uint(m.meta->ends[3], ==, 4000);
unmap:
	munmap(m.base, m.len);
out:
	close(fd);
}

static void test_meta_mappings(void)
{
	size_t data = 4 * 4096, meta = meta_size_of(4);
	void *a;
	int fd;

	if (!check_int(geometry(4096, 4, 0), ==, 0))
		return;
	fd = open_buf(0, O_RDWR);
	if (!check_int(fd, >=, 0))
		return;
	/* the meta area alone, from where the buffer ends */
	a = mmap(NULL, meta, PROT_READ, MAP_SHARED, fd, data);
	if (check(a != MAP_FAILED)) {
		const struct relay_buf_meta *mt = a;

		check_uint(mt->data_size, ==, data);
		munmap(a, meta);
	}
	/* read-only, and nothing past the meta area or between */
	errno = 0;
	a = mmap(NULL, data + meta, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(a == MAP_FAILED);
	check_int(errno, ==, EPERM);
	a = mmap(NULL, data + meta + PAGE, PROT_READ, MAP_SHARED, fd, 0);
	check(a == MAP_FAILED);
	a = mmap(NULL, meta + PAGE, PROT_READ, MAP_SHARED, fd, data);
	check(a == MAP_FAILED);
	a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	check(a == MAP_FAILED);
	a = mmap(NULL, data + PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (meta > PAGE)
		check(a == MAP_FAILED);
	else if (check(a != MAP_FAILED))
		munmap(a, data + PAGE);
	close(fd);
}

/* --- reads that consume what they delivered ------------------------------ */

/*
 * Read @count records from @fd with @rd (and then, if @to_the_end, until
 * a read returns 0) and check the stream: @count records of REC bytes
 * from seq 0, every one once and in order.  @rd reads at most @chunk
 * bytes at the offset @pos(i) of its i-th call.
 */
typedef ssize_t (*reader_fn)(void *ctx, int fd, void *buf, size_t len,
			     long long off);

static bool read_records(reader_fn rd, void *ctx, int fd, size_t chunk,
			 long long (*pos)(unsigned int i), unsigned long count,
			 bool to_the_end)
{
	size_t cap = count * REC + (to_the_end ? chunk : 0), got = 0;
	uint8_t *buf = malloc(cap);
	unsigned int i;
	bool ok;

	if (!check(buf != NULL))
		return false;
	for (i = 0; got < cap; i++) {
		size_t want = cap - got < chunk ? cap - got : chunk;
		ssize_t n = rd(ctx, fd, buf + got, want, pos(i));

		if (n < 0) {
			test_msg("read %u: %s", i, strerror(-n));
			free(buf);
			return check(false);
		}
		if (!n)
			break;
		got += n;
	}
	ok = stream_ok(buf, got, 0, 0, count, REC);
	free(buf);
	return ok;
}

/*
 * Read with @rd until a read returns 0, and check that the bytes are
 * @count records, in order, each once.
 */
static bool read_stream(reader_fn rd, void *ctx, int fd, size_t chunk,
			long long (*pos)(unsigned int i), unsigned long count)
{
	return read_records(rd, ctx, fd, chunk, pos, count, true);
}

static long long at_zero(unsigned int i)
{
	(void)i;
	return 0;
}

static long long at_gaps(unsigned int i)
{
	return (long long)i * 3 * PAGE + 8;	/* increasing, not contiguous */
}

static long long at_current(unsigned int i)
{
	(void)i;
	return -1;
}

/* Fill cpu 0's buffer with @count records, ready to read (no-overwrite). */
static bool fill(unsigned long count)
{
	return check_int(geometry(4096, 8, 0), ==, 0) && put(0, count, REC);
}

/* aio: IOCB_CMD_PREAD at the offset asked, one at a time */
struct aio_ctx {
	aio_context_t ctx;
};

static ssize_t aio_read_at(void *c, int fd, void *buf, size_t len,
			   long long off)
{
	struct aio_ctx *a = c;
	struct iocb cb = {
		.aio_lio_opcode = IOCB_CMD_PREAD,
		.aio_fildes = fd,
		.aio_buf = (uintptr_t)buf,
		.aio_nbytes = len,
		.aio_offset = off < 0 ? 0 : off,
	};
	struct iocb *cbs[1] = { &cb };
	struct io_event ev;

	if (syscall(SYS_io_submit, a->ctx, 1, cbs) != 1)
		return -errno;
	if (syscall(SYS_io_getevents, a->ctx, 1, 1, &ev, NULL) != 1)
		return -errno;
	return ev.res;
}

static void test_aio(void)
{
	long long (*pos[])(unsigned int) = { at_zero, at_gaps };
	struct aio_ctx a = { 0 };
	unsigned int i;
	int fd;

	if (!check_int(syscall(SYS_io_setup, 4, &a.ctx), ==, 0)) {
		test_msg("io_setup: %s (CONFIG_AIO?)", strerror(errno));
		return;
	}
	for (i = 0; i < 2; i++) {
		if (!fill(300))
			break;
		fd = open_buf(0, O_RDONLY);
		if (!check_int(fd, >=, 0))
			break;
		check(read_stream(aio_read_at, &a, fd, 1000, pos[i], 300));
		close(fd);
	}
	syscall(SYS_io_destroy, a.ctx);
}

/* io_uring: one IORING_OP_READ at a time, through raw syscalls */
struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail,
		     *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq_ring, *cq_ring;
	size_t sq_len, cq_len, sqe_len;
};

static bool uring_setup(struct uring *u)
{
	struct io_uring_params p = { 0 };
	uint8_t *sq, *cq;

	u->fd = syscall(SYS_io_uring_setup, 4, &p);
	if (u->fd < 0) {
		test_msg("io_uring_setup: %s (CONFIG_IO_URING?)", strerror(errno));
		return false;
	}
	u->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	u->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	u->sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	u->sq_ring = mmap(NULL, u->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  u->fd, IORING_OFF_SQ_RING);
	u->cq_ring = mmap(NULL, u->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  u->fd, IORING_OFF_CQ_RING);
	u->sqes = mmap(NULL, u->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       u->fd, IORING_OFF_SQES);
	if (u->sq_ring == MAP_FAILED || u->cq_ring == MAP_FAILED ||
	    u->sqes == MAP_FAILED) {
		test_msg("io_uring mmap: %s", strerror(errno));
		return false;
	}
	sq = u->sq_ring;
	cq = u->cq_ring;
	u->sq_tail = (void *)(sq + p.sq_off.tail);
	u->sq_mask = (void *)(sq + p.sq_off.ring_mask);
	u->sq_array = (void *)(sq + p.sq_off.array);
	u->cq_head = (void *)(cq + p.cq_off.head);
	u->cq_tail = (void *)(cq + p.cq_off.tail);
	u->cq_mask = (void *)(cq + p.cq_off.ring_mask);
	u->cqes = (void *)(cq + p.cq_off.cqes);
	return true;
}

static void uring_done(struct uring *u)
{
	munmap(u->sq_ring, u->sq_len);
	munmap(u->cq_ring, u->cq_len);
	munmap(u->sqes, u->sqe_len);
	close(u->fd);
}

/* Submit one read; wait for its completion when @wait. */
static int uring_submit(struct uring *u, int fd, void *buf, size_t len,
			long long off, bool wait)
{
	unsigned int tail = *u->sq_tail, idx = tail & *u->sq_mask;
	struct io_uring_sqe *sqe = &u->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = len;
	sqe->off = (uint64_t)off;	/* -1: the file's position */
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, u->fd, 1, wait,
		    wait ? IORING_ENTER_GETEVENTS : 0, NULL, 0) < 0)
		return -errno;
	return 0;
}

/* The result of the oldest completion, if there is one (else -EAGAIN). */
static ssize_t uring_reap(struct uring *u)
{
	unsigned int head = *u->cq_head;
	ssize_t res;

	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

static ssize_t uring_read_at(void *c, int fd, void *buf, size_t len,
			     long long off)
{
	int err = uring_submit(c, fd, buf, len, off, true);

	return err ? err : uring_reap(c);
}

static void test_io_uring(void)
{
	long long (*pos[])(unsigned int) = { at_zero, at_gaps, at_current };
	uint8_t rest[REC];
	struct uring u;
	unsigned int i;
	int fd;

	if (!check(uring_setup(&u)))
		return;
	/*
	 * io_uring completes a read of a regular file only when it is full
	 * or a read returns 0 (see test_io_uring_waits()), so read whole
	 * records.  6.12's io_uring also polls a file before it reads it
	 * and waits while poll() says it is not readable, that is until a
	 * sub-buffer is finished: so flush the last one, read the 300
	 * records, and let read() see that nothing is left over.
	 */
	for (i = 0; i < 3; i++) {
		if (!fill(300) || !check_int(ctl("flush", "1\n"), ==, 0))
			break;
		fd = open_buf(0, O_RDONLY);
		if (!check_int(fd, >=, 0))
			break;
		check(read_records(uring_read_at, &u, fd, REC, pos[i], 300,
				   false));
		check_int(read(fd, rest, sizeof(rest)), ==, 0);
		close(fd);
	}
	uring_done(&u);
}

/*
 * A read of more than is ready: io_uring takes what there is, then waits
 * for the buffer to be readable (poll) and completes the read with what
 * came next; the bytes are the stream's next, each once.
 */
static void test_io_uring_waits(void)
{
	uint8_t *buf = malloc(2 * 64 * REC);
	struct uring u;
	ssize_t res = -EAGAIN;
	int fd;

	if (!check(buf != NULL) || !check(uring_setup(&u)))
		goto out;
	if (!fill(40))
		goto done;
	fd = open_buf(0, O_RDONLY);
	if (check_int(fd, >=, 0)) {
		/* 40 records ready in the sub-buffer being filled; ask for 100 */
		check_int(uring_submit(&u, fd, buf, 100 * REC, 0, false), ==, 0);
		check_int(uring_reap(&u), ==, -EAGAIN);
		/* 88 more: the first sub-buffer completes, 64 in it */
		check(put(0, 88, REC));
		for (int i = 0; i < 1000 && res == -EAGAIN; i++) {
			syscall(SYS_io_uring_enter, u.fd, 0, 1,
				IORING_ENTER_GETEVENTS, NULL, 0);
			res = uring_reap(&u);
		}
		check_int(res, ==, 100 * REC);
		check(stream_ok(buf, res > 0 ? res : 0, 0, 0, 100, REC));
		/* the other 28, and nothing twice */
		res = read(fd, buf, 64 * REC);
		check(stream_ok(buf, res > 0 ? res : 0, 0, 100, 28, REC));
		close(fd);
	}
done:
	uring_done(&u);
out:
	free(buf);
}

static void test_pread_refused(void)
{
	char b[64];
	int fd;

	if (!fill(10))
		return;
	fd = open_buf(0, O_RDONLY);
	if (!check_int(fd, >=, 0))
		return;
	check_int(pread(fd, b, sizeof(b), 0), ==, -1);
	check_int(errno, ==, ESPIPE);
	check_int(lseek(fd, 0, SEEK_SET), ==, -1);
	check_int(errno, ==, ESPIPE);
	close(fd);
}

/*
 * readv() into two pages whose second is not mapped: the first page's
 * bytes arrive, and the rest comes with the next read, none twice.
 */
static void test_readv_fault(void)
{
	size_t cap = 300 * REC;
	uint8_t *pages, *all = malloc(cap);
	size_t got = 0;
	ssize_t n;
	int fd;

	if (!check(all != NULL) || !fill(300))
		goto out;
	pages = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!check(pages != MAP_FAILED))
		goto out;
	munmap(pages + PAGE, PAGE);
	fd = open_buf(0, O_RDONLY);
	if (check_int(fd, >=, 0)) {
		/* 100 bytes short of the hole, asking for 200 */
		struct iovec iov = { pages + PAGE - 100, 200 };

		n = readv(fd, &iov, 1);
		check_int(n, ==, 100);
		if (n > 0) {
			memcpy(all, pages + PAGE - 100, n);
			got = n;
		}
		iov.iov_base = pages + PAGE;	/* nothing can be copied */
		check_int(readv(fd, &iov, 1), ==, -1);
		check_int(errno, ==, EFAULT);
		n = read_all(fd, all + got, cap - got, PAGE, NULL);
		if (check_int(n, >=, 0))
			got += n;
		check(stream_ok(all, got, 0, 0, 300, REC));
		close(fd);
	}
	munmap(pages, PAGE);
out:
	free(all);
}

/* --- flush and reset beside a writer ------------------------------------- */

/*
 * The records of sub-buffers [from, to) of a mapped buffer, each up to
 * where the meta area says it ends: intact, for CPU @cpu, consecutive.
 * Returns how many, with the first's seq in *first (or -1 on a bad one).
 */
static long walk(const struct mapped *m, unsigned int subbuf_size,
		 unsigned int n, unsigned long long from,
		 unsigned long long to, unsigned int cpu, uint64_t *first)
{
	long count = 0;

	for (unsigned long long s = from; s < to; s++) {
		const uint8_t *sb = (const uint8_t *)m->base + s % n * subbuf_size;
		unsigned int end = m->meta->ends[s % n], k;

		if (!check_uint(end % REC, ==, 0))
			return -1;
		for (k = 0; k < end / REC; k++, count++) {
			if (!count)
				memcpy(first, sb + 8, sizeof(*first));
			if (!record_ok(sb + k * REC, cpu, *first + count, REC))
				return -1;
		}
	}
	return count;
}

/*
 * Overwrite mode, 16 sub-buffers of 4 records, nobody consuming: COUNT
 * records on the last CPU while a thread on another CPU calls
 * relay_flush() in a loop until the writer is done.  The writer's counts
 * are exact, every switch after the first n - 1 found the buffer full and
 * overwrote one sub-buffer, and the finished sub-buffers still in the
 * buffer hold the last records in order, each ending where the meta area
 * says.  A flush that came after the last record, and the final one,
 * switch an empty sub-buffer, which takes the place of one with records:
 * with 15 finished ones, records are left to check.
 */
#define FLUSH_RECORDS	(1UL << 22)	/* about 10^6 sub-buffer switches */

static void test_flush_beside_writer(void)
{
	unsigned int w = cpus[ncpus - 1], n = 16;
	struct cpu_stats st = { 0 };
	unsigned long long produced;
	struct mapped m;
	uint64_t first = 0;
	long count;
	int fd;

	if (!check_uint(ncpus, >=, 2) ||
	    !check_int(geometry(256, n, 1), ==, 0))
		return;
	check_int(ctl("beside", "flush %u %lu %u\n", w, FLUSH_RECORDS, REC), ==, 0);
	test_msg("%s flushes beside the writer", ctl_read("beside"));
	/* end the sub-buffer being filled too: every one has its end */
	check_int(ctl("flush", "1\n"), ==, 0);
	if (!check(get_stats("stats", w, &st)))
		return;
	test_msg("%llu sub-buffer switches, %llu full", st.produced, st.full);
	check_uint(st.events, ==, FLUSH_RECORDS);
	check_uint(st.bytes, ==, FLUSH_RECORDS * REC);
	check_uint(st.refused, ==, 0);
	check_uint(st.big, ==, 0);
	check_uint(st.produced, >=, FLUSH_RECORDS / 4);
	check_uint(st.full, ==, st.produced - n + 1);
	check_uint(st.overwrites, ==, st.full);

	fd = open_buf(w, O_RDONLY);
	if (!check_int(fd, >=, 0))
		return;
	if (map_meta(fd, PAGE, n, &m)) {	/* 256 * n, a page */
		produced = load(&m.meta->produced);
		check_uint(produced, ==, st.produced);
		/* the n - 1 finished ones: the one being filled took the
		 * place of the oldest */
		count = walk(&m, 256, n, produced - n + 1, produced, w, &first);
		if (check_int(count, >, 0))
			check_uint(first + count, ==, FLUSH_RECORDS);
		munmap(m.base, m.len);
	}
	close(fd);
}

/*
 * The same with relay_reset() in the loop (a buffer of 16 sub-buffers):
 * what the last reset left is intact and consecutive, ends with the
 * writer's last record, and is exactly what the counters say entered
 * since that reset.
 */
static void test_reset_beside_writer(void)
{
	unsigned int w = cpus[ncpus - 1], n = 16;
	unsigned long count = 1UL << 20;
	struct cpu_stats st = { 0 };
	unsigned long long produced, from;
	struct mapped m;
	uint64_t first = 0;
	long got;
	int fd;

	if (!check_uint(ncpus, >=, 2) ||
	    !check_int(geometry(4096, n, 1), ==, 0))
		return;
	check_int(ctl("beside", "reset %u %lu %u\n", w, count, REC), ==, 0);
	test_msg("%s resets beside the writer", ctl_read("beside"));
	check_int(ctl("flush", "1\n"), ==, 0);
	if (!check(get_stats("stats", w, &st)))
		return;
	fd = open_buf(w, O_RDONLY);
	if (!check_int(fd, >=, 0))
		return;
	if (map_meta(fd, 4096 * n, n, &m)) {
		produced = load(&m.meta->produced);
		from = load(&m.meta->reset_at);
		if (produced - from > n - 1)
			from = produced - n + 1;
		got = walk(&m, 4096, n, from, produced, w, &first);
		check_int(got, >=, 0);
		if (got > 0)
			check_uint(first + got, ==, count);
		if (!st.overwrites)
			check_uint(got, ==, st.events);
		munmap(m.base, m.len);
	}
	close(fd);
}

int main(void)
{
	ncpus = online_cpus(cpus);
	TEST(test_stale_handback(), "a hand-back across a reset is refused (ESTALE) and every record written after the reset is read");
	TEST(test_handback_absolute(), "a hand-back names the first sub-buffer not done with: beyond the finished is EINVAL, behind the consumed ESTALE, garbage EINVAL, none changes anything");
	TEST(test_meta(), "the meta area shows the geometry, produced, consumed, each sub-buffer's end, and a reset's place");
	TEST(test_meta_mappings(), "the meta area maps alone or after the buffer, read-only; nothing else maps");
	TEST(test_pread_refused(), "pread() and lseek() on a buffer file are ESPIPE");
	TEST(test_readv_fault(), "a read that faults part of the way consumes the part delivered, and the rest comes next, once");
	TEST(test_aio(), "aio reads at offset 0 repeated and at increasing offsets deliver every record once, in order");
	TEST(test_io_uring(), "io_uring reads at offset 0 repeated, at increasing offsets and at -1 deliver every record once, in order");
	TEST(test_io_uring_waits(), "an io_uring read of more than is ready completes with the next records once they come, each once");
	TEST(test_flush_beside_writer(), "relay_flush() from another CPU beside a writer: every counter as the writer did, records intact in their places");
	TEST(test_reset_beside_writer(), "relay_reset() from another CPU beside a writer leaves whole records in order");
	return test_done();
}

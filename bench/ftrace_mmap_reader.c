// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_mmap_reader - the bench's reader of ftrace's memory-mapped ring
 * buffer (Linux 6.10 and later; Documentation/trace/ring-buffer-map.rst).
 *
 *   ftrace_mmap_reader SECS FILE...     (SECS 0: until SIGTERM or SIGINT)
 *
 * Maps each per-CPU trace_pipe_raw FILE (its meta page, then its
 * sub-buffers), waits in poll() for POLLIN (which ftrace gives when the
 * buffer is buffer_percent full), and on each wake asks every CPU for its
 * reader page with TRACE_MMAP_IOCTL_GET_READER: the new bytes of page
 * meta->reader.id are [where the last look ended if the id is the same,
 * else 0, meta->reader.read), and go to standard output with write(),
 * straight from the mapping (no copy in between), until a look finds
 * nothing new.  At the end it looks once more and prints on standard
 * error "ftrace_mmap_reader: bytes=B pages=P wakes=W read=R overrun=O"
 * (R and O: the meta pages' counts of entries read and overwritten, summed).  Exit status 2,
 * with a message, when the kernel cannot map the buffers (before 6.10);
 * 1 on any other error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* include/uapi/linux/trace_mmap.h of Linux 6.12 (the host's headers may
 * be older) */
struct trace_buffer_meta {
	uint32_t meta_page_size;
	uint32_t meta_struct_len;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	struct {
		uint64_t lost_events;
		uint32_t id;
		uint32_t read;
	} reader;
	uint64_t flags;
	uint64_t entries;
	uint64_t overrun;
	uint64_t read;
	uint64_t Reserved1;
	uint64_t Reserved2;
};

#define TRACE_MMAP_IOCTL_GET_READER	_IO('R', 0x20)
#define MAX_CPUS			256

struct cpu {
	int fd;
	volatile struct trace_buffer_meta *meta;
	size_t meta_len;
	const unsigned char *data;
	size_t data_len;
	uint32_t last_id;	/* the reader page of the last look */
	uint32_t last_end;	/* and where it ended */
	int have_last;
};

static volatile sig_atomic_t stop;
static unsigned long long total_bytes, pages, wakes;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int put(const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t w = write(STDOUT_FILENO, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Everything new on c, until a look finds nothing: 0, or -1. */
static int drain(struct cpu *c)
{
	for (;;) {
		uint32_t id, rd, start;

		if (ioctl(c->fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
			if (errno == EINTR)
				continue;
			perror("TRACE_MMAP_IOCTL_GET_READER");
			return -1;
		}
		id = c->meta->reader.id;
		rd = c->meta->reader.read;
		start = c->have_last && id == c->last_id ? c->last_end : 0;
		if (c->have_last && id != c->last_id)
			pages++;
		c->have_last = 1;
		c->last_id = id;
		if (rd <= start || id >= c->meta->nr_subbufs ||
		    rd > c->meta->subbuf_size)
			return 0;	/* nothing new */
		if (put(c->data + (size_t)id * c->meta->subbuf_size + start,
			rd - start))
			return -1;
		total_bytes += rd - start;
		c->last_end = rd;
	}
}

static int map_cpu(struct cpu *c, const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0) {
		fprintf(stderr, "ftrace_mmap_reader: %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	m = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, c->fd, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "ftrace_mmap_reader: %s: cannot be mapped "
			"(%s): this kernel has no mapped ring buffer\n", path,
			strerror(errno));
		return 2;
	}
	c->meta = m;
	c->meta_len = c->meta->meta_page_size;
	if (c->meta_len > (size_t)page) {
		munmap(m, (size_t)page);
		m = mmap(NULL, c->meta_len, PROT_READ, MAP_SHARED, c->fd, 0);
		if (m == MAP_FAILED) {
			perror("mmap of the meta page");
			return 1;
		}
		c->meta = m;
	}
	c->data_len = (size_t)c->meta->subbuf_size * c->meta->nr_subbufs;
	m = mmap(NULL, c->data_len, PROT_READ, MAP_SHARED, c->fd,
		 (off_t)c->meta_len);
	if (m == MAP_FAILED) {
		perror("mmap of the sub-buffers");
		return 1;
	}
	c->data = m;
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	static struct cpu cpus[MAX_CPUS];
	struct pollfd pfd[MAX_CPUS];
	struct sigaction sa;
	unsigned long long entries_read = 0, overrun = 0;
	int n = argc - 2, rc;
	uint64_t end;

	if (argc < 3 || n > MAX_CPUS) {
		fprintf(stderr, "usage: ftrace_mmap_reader SECS FILE...\n");
		return 1;
	}
	end = atoi(argv[1]) > 0 ? now_ms() + 1000ull * (unsigned)atoi(argv[1]) : 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (int i = 0; i < n; i++) {
		rc = map_cpu(&cpus[i], argv[i + 2]);
		if (rc)
			return rc;
		pfd[i] = (struct pollfd) { .fd = cpus[i].fd, .events = POLLIN };
	}
	while (!stop && (!end || now_ms() < end)) {
		int left = end ? (int)(end - now_ms()) : 1000;

		if (left > 1000 || left < 0)
			left = left < 0 ? 0 : 1000;
		if (poll(pfd, (nfds_t)n, left) < 0 && errno != EINTR) {
			perror("poll");
			return 1;
		}
		wakes++;
		for (int i = 0; i < n; i++)
			if (drain(&cpus[i]))
				return 1;
	}
	for (int i = 0; i < n; i++) {
		if (drain(&cpus[i]))
			return 1;
		entries_read += cpus[i].meta->read;
		overrun += cpus[i].meta->overrun;
	}
	fprintf(stderr, "ftrace_mmap_reader: bytes=%llu pages=%llu wakes=%llu "
		"read=%llu overrun=%llu\n", total_bytes, pages, wakes,
		entries_read, overrun);
	return 0;
}

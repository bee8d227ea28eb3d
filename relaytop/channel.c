// SPDX-License-Identifier: GPL-2.0
/*
 * channel.c - finding, mapping and handing back a channel's buffers, and
 * the SIGBUS guard for when they go away (see channel.h).
 */
#include "channel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util.h"

_Thread_local sigjmp_buf channel_bus_jmp;
_Thread_local volatile sig_atomic_t channel_bus_armed;

static void on_sigbus(int sig)
{
	if (channel_bus_armed) {
		channel_bus_armed = 0;
		siglongjmp(channel_bus_jmp, 1);
	}
	signal(sig, SIG_DFL);	/* not ours: die of it as usual */
	raise(sig);
}

void channel_install_sigbus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	/* The kernel blocks SIGBUS while the handler runs, and nothing
	 * else; the jump out of it keeps that mask (the guard does not save
	 * one: that would be a system call per guarded call), so the
	 * fault path unblocks SIGBUS again below. */
	sa.sa_flags = 0;
	sigaction(SIGBUS, &sa, NULL);
}

bool channel_guarded(void (*fn)(void *ctx, void *arg), void *ctx, void *arg)
{
	/* No signal mask saved: sigsetjmp(env, 1) costs an rt_sigprocmask
	 * system call each time, and this runs per drain. */
	if (sigsetjmp(channel_bus_jmp, 0)) {
		sigset_t bus;

		/* the mask is the one at the fault plus SIGBUS, which the
		 * handler's entry added: take that back, and only that */
		sigemptyset(&bus);
		sigaddset(&bus, SIGBUS);
		sigprocmask(SIG_UNBLOCK, &bus, NULL);
		return false;
	}
	channel_bus_armed = 1;
	fn(ctx, arg);
	channel_bus_armed = 0;
	return true;
}

/* "cpu12" -> 12; -1 for anything else. */
static int cpu_number(const char *name)
{
	unsigned int cpu;

	if (strncmp(name, "cpu", 3) || parse_uint(name + 3, 65535, &cpu))
		return -1;
	if (name[3] == '0' && name[4])	/* "cpu01" is not a buffer */
		return -1;
	return (int)cpu;
}

static int by_cpu(const void *a, const void *b)
{
	const struct channel_cpu *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Is there a buffer of cpu already (among the first n)? */
static bool have_cpu(const struct channel *ch, unsigned int n, unsigned int cpu)
{
	for (unsigned int i = 0; i < n; i++)
		if (ch->cpus[i].cpu == cpu)
			return true;
	return false;
}

/* Add an entry for every cpuN file not known yet; returns how many. */
static int find_buffers(struct channel *ch, char *err, size_t errlen)
{
	DIR *d = opendir(ch->dir);
	struct dirent *e;
	unsigned int cap = ch->n, known = ch->n;

	if (!d) {
		int e2 = errno;

		snprintf(err, errlen, "%s: %s", ch->dir, strerror(e2));
		return -e2;
	}
	while ((e = readdir(d))) {
		int cpu = cpu_number(e->d_name);

		if (cpu < 0 || have_cpu(ch, known, (unsigned int)cpu))
			continue;
		if (ch->n == cap) {
			cap = cap ? 2 * cap : 16;
			ch->cpus = realloc(ch->cpus, cap * sizeof(*ch->cpus));
			if (!ch->cpus)
				fatal("out of memory");
		}
		memset(&ch->cpus[ch->n], 0, sizeof(ch->cpus[0]));
		ch->cpus[ch->n].cpu = (unsigned int)cpu;
		ch->cpus[ch->n].fd = -1;
		ch->n++;
		if ((unsigned int)cpu + 1 > ch->max_cpu)
			ch->max_cpu = (unsigned int)cpu + 1;
	}
	closedir(d);
	if (!ch->n) {
		snprintf(err, errlen, "%s: no cpuN buffer files", ch->dir);
		return -ENOENT;
	}
	return (int)(ch->n - known);
}

/*
 * Is fd a relay buffer file, one whose write() is a hand-back?  Only the
 * kernel's files are: a relay channel lives in sysfs (sched_relay's), or
 * debugfs or tracefs.  A plain file named cpuN (a copy of a channel, the
 * tests' fake one) would take "N\n" as data, over the records.
 */
static bool is_relay_file(int fd)
{
	struct statfs fs;

	if (fstatfs(fd, &fs))
		return false;
	return fs.f_type == SYSFS_MAGIC || fs.f_type == DEBUGFS_MAGIC ||
	       fs.f_type == TRACEFS_MAGIC;
}

static int map_buffer(struct channel *ch, struct channel_cpu *cc, char *err,
		      size_t errlen)
{
	char path[4096];
	unsigned long page;
	int e;

	snprintf(path, sizeof(path), "%s/cpu%u", ch->dir, cc->cpu);
	cc->fd = open(path, O_RDWR | O_CLOEXEC);
	cc->writable = cc->fd >= 0;
	if (cc->writable && !is_relay_file(cc->fd)) {
		/* nothing to hand back to: never write into it */
		close(cc->fd);
		cc->writable = false;
		cc->fd = open(path, O_RDONLY | O_CLOEXEC);
	} else if (cc->fd < 0 &&
		   (errno == EACCES || errno == EPERM || errno == EROFS)) {
		cc->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (cc->fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: %s%s", path, strerror(e),
			 e == EACCES ? " (the buffers are root's: run as root)"
				     : "");
		return -e;
	}
	if (!cc->writable)
		ch->read_only = true;
	/* the buffer and relay's meta area after it */
	page = (unsigned long)sysconf(_SC_PAGESIZE);
	cc->map_len = (size_t)subbuf_map_size(&ch->geom, page);
	cc->map = mmap(NULL, cc->map_len, PROT_READ, MAP_SHARED, cc->fd, 0);
	if (cc->map == MAP_FAILED) {
		e = errno;
		cc->map = NULL;
		snprintf(err, errlen, "mmap of %s (%zu bytes): %s", path,
			 cc->map_len, strerror(e));
		return -e;
	}
	subbuf_reader_init(&cc->reader, cc->map,
			   (const void *)((const unsigned char *)cc->map +
					  subbuf_meta_offset(&ch->geom, page)),
			   &ch->geom, cc->cpu);
	return 0;
}

int channel_open(struct channel *ch, const char *dir,
		 const struct subbuf_geometry *geom, char *err, size_t errlen)
{
	int ret;

	memset(ch, 0, sizeof(*ch));
	/* the channel's buffers are in their own directory, buffers/ */
	ch->dir = xmalloc(strlen(dir) + sizeof("/" CHANNEL_BUFFERS_DIR));
	sprintf(ch->dir, "%s/" CHANNEL_BUFFERS_DIR, dir);
	ch->geom = *geom;
	if (subbuf_geometry_check(geom)) {
		snprintf(err, errlen, "%s: unusable geometry %" PRIu32 " x %"
			 PRIu32 " bytes", dir, geom->n_subbufs,
			 geom->subbuf_size);
		channel_close(ch);
		return -EINVAL;
	}
	ret = find_buffers(ch, err, errlen);
	if (ret > 0)
		ret = 0;
	for (unsigned int i = 0; !ret && i < ch->n; i++)
		ret = map_buffer(ch, &ch->cpus[i], err, errlen);
	if (ret) {
		channel_close(ch);
		return ret;
	}
	qsort(ch->cpus, ch->n, sizeof(ch->cpus[0]), by_cpu);
	return 0;
}

bool channel_has_new(const struct channel *ch)
{
	DIR *d = opendir(ch->dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return true;	/* channel_add_new() says why */
	while (!found && (e = readdir(d))) {
		int cpu = cpu_number(e->d_name);

		found = cpu >= 0 && !have_cpu(ch, ch->n, (unsigned int)cpu);
	}
	closedir(d);
	return found;
}

int channel_add_new(struct channel *ch, char *err, size_t errlen)
{
	unsigned int known = ch->n;
	int added = find_buffers(ch, err, errlen), ret = 0;

	if (added <= 0)
		return added;
	for (unsigned int i = known; !ret && i < ch->n; i++)
		ret = map_buffer(ch, &ch->cpus[i], err, errlen);
	if (ret) {
		/* forget the new ones; the old ones are untouched */
		for (unsigned int i = known; i < ch->n; i++) {
			if (ch->cpus[i].map)
				munmap(ch->cpus[i].map, ch->cpus[i].map_len);
			if (ch->cpus[i].fd >= 0)
				close(ch->cpus[i].fd);
		}
		ch->n = known;
		return ret;
	}
	/* the readers point at the mappings, not into cpus[]: moving is fine */
	qsort(ch->cpus, ch->n, sizeof(ch->cpus[0]), by_cpu);
	return added;
}

void channel_close(struct channel *ch)
{
	for (unsigned int i = 0; i < ch->n; i++) {
		struct channel_cpu *cc = &ch->cpus[i];

		if (cc->map)
			munmap(cc->map, cc->map_len);
		if (cc->fd >= 0)
			close(cc->fd);
	}
	free(ch->cpus);
	free(ch->dir);
	memset(ch, 0, sizeof(*ch));
}

struct channel_cpu *channel_cpu(struct channel *ch, unsigned int cpu)
{
	for (unsigned int i = 0; i < ch->n; i++)
		if (ch->cpus[i].cpu == cpu)
			return &ch->cpus[i];
	return NULL;
}

int channel_give_back(void *arg, uint64_t until)
{
	struct channel_cpu *cc = arg;
	char text[32];
	int len = snprintf(text, sizeof(text), "%" PRIu64 "\n", until);
	ssize_t w;

	if (!cc->writable)
		return -EBADF;
	do
		w = write(cc->fd, text, (size_t)len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return w == len ? 0 : -EIO;
}

unsigned int channel_pollfds(const struct channel *ch, struct pollfd *pfd,
			     unsigned int *map, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ch->n && n < max; i++) {
		if (ch->cpus[i].idle || ch->cpus[i].timed)
			continue;
		pfd[n].fd = ch->cpus[i].fd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		map[n] = i;
		n++;
	}
	return n;
}

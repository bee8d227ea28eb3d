// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_notify_decl - pins the declaration of notifying sysfs attributes
 * (SYSFS_NOTIFY, "Waiting for changes" in Documentation/filesystems/
 * sysfs.rst): poll() on every file under /sys/kernel/sched_relay and on a
 * few of the kernel's own attributes tells, without waiting, which ones
 * are declared (POLLRDBAND); the files sched_relay notifies are, 'reset'
 * and the kernel's are not, and the undeclared ones answer exactly
 * POLLIN|POLLRDNORM|POLLOUT|POLLWRNORM as they always did; an undeclared
 * attribute that its owner notifies (relay_test's notify_legacy) still
 * wakes a poller with POLLERR|POLLPRI, and a declared one
 * (notify_declared) wakes the same way, answering POLLRDBAND throughout.
 *
 * Needs sched_relay and relay_test loaded (the .t does it) and root.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <poll.h>

#include "sched_relay_test.h"

#define RT_DIR		"/sys/kernel/relay_test"
#define WAKE_MS		5000	/* a wake-up must come within this */
#define QUIET_MS	300	/* no wake-up may come within this */
#define PROBE_MS	100	/* poll() with no timeout returns within this */

/* kernfs's DEFAULT_POLLMASK: what an attribute has always answered */
#define DEFAULT_MASK	(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM)
/* every bit poll() can report for a file, asked for at once */
#define EVERY_BIT	(POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND | \
			 POLLWRNORM | POLLWRBAND | POLLMSG | POLLRDHUP)
#define CHANGED		(POLLERR | POLLPRI)

#define MAX_FILES	(SR_MAX_CPUS + 64)

struct probed {
	char path[PATH_MAX];
	bool write_only;	/* opened for writing: it cannot be read */
	int revents;		/* poll()'s answer, or -errno */
	uint64_t ms;		/* how long poll() took */
};

static struct probed files[MAX_FILES];
static unsigned int nfiles;

/*
 * Open @path for reading (else, for a write-only file, for writing) and
 * read it once, so that only a later notification is news (a file opened
 * after one was sent answers POLLERR|POLLPRI until it is read).  Relay
 * buffers are not read: that would consume records, and their poll()
 * does not look at notifications.
 */
static int open_read(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno == EACCES)
		return open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || strstr(path, "/buffers/"))
		return fd;
	if (read(fd, buf, sizeof(buf)) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Read @fd again from offset 0, which re-arms a notified attribute. */
static void reread(int fd)
{
	char buf[4096];

	if (pread(fd, buf, sizeof(buf), 0) < 0)
		test_msg("re-read: %s", strerror(errno));
}

/* poll() @fd for @events with no timeout: revents, or -errno. */
static int probe(int fd, short events, uint64_t *ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	uint64_t t0 = sr_now_ns();
	int n = poll(&pfd, 1, 0);

	if (ms)
		*ms = (sr_now_ns() - t0) / 1000000;
	if (n < 0)
		return -errno;
	return n ? pfd.revents : 0;
}

static int probe_path(const char *path, uint64_t *ms, bool *write_only)
{
	int fd = open_read(path);
	int r;

	if (fd < 0)
		return -errno;
	*write_only = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY;
	r = probe(fd, EVERY_BIT, ms);
	close(fd);
	return r;
}

/* Every regular file under @dir (and its directories), probed. */
static void probe_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		test_msg("%s: %s", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)) && nfiles < MAX_FILES) {
		char path[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path))
			continue;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 2) {
			probe_tree(path, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			struct probed *p = &files[nfiles++];

			snprintf(p->path, sizeof(p->path), "%s", path);
			p->revents = probe_path(path, &p->ms, &p->write_only);
		}
	}
	closedir(d);
}

static const char *name_of(const struct probed *p)
{
	return p->path + strlen(SR_DIR) + 1;
}

/* Does sched_relay notify this file (the ABI's list)? */
static bool notified_by_sched_relay(const char *name)
{
	static const char *const control[] = {
		"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
		"wakeup_subbufs", "generation",
	};

	for (size_t i = 0; i < sizeof(control) / sizeof(control[0]); i++)
		if (!strcmp(name, control[i]))
			return true;
	return !strncmp(name, "stats/", 6) || !strncmp(name, "buffers/cpu", 11);
}

/*
 * Fails if a poll() with no timeout errs or takes PROBE_MS or more (it
 * must never wait), or if the walk found no file.
 */
static void test_walk(void)
{
	probe_tree(SR_DIR, 0);
	check_uint(nfiles, >, 8);
	for (unsigned int i = 0; i < nfiles; i++) {
		const struct probed *p = &files[i];

		test_msg("%-24s %s (revents 0x%x, %" PRIu64 " ms)", name_of(p),
			 p->revents < 0 ? "poll failed" :
			 p->revents & POLLRDBAND ? "notifies" :
			 "does not declare", (unsigned int)p->revents, p->ms);
		if (!check_int(p->revents, >=, 0))
			test_msg("%s: %s", p->path, strerror(-p->revents));
		check_uint(p->ms, <, PROBE_MS);
	}
}

/*
 * Fails if a file sched_relay notifies lacks POLLRDBAND (a kernel without
 * the declaration, or the sample not declaring it), or if a declared
 * control file answers anything but DEFAULT_MASK | POLLRDBAND.
 */
static void test_declared(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nfiles; i++) {
		const struct probed *p = &files[i];
		const char *name = name_of(p);

		if (!notified_by_sched_relay(name) || p->revents < 0)
			continue;
		n++;
		if (!check_int(p->revents & POLLRDBAND, ==, POLLRDBAND))
			test_msg("%s is notified but not declared", name);
		/* buffers answer their own readiness; controls the default */
		if (strncmp(name, "buffers/", 8))
			check_int(p->revents, ==, DEFAULT_MASK | POLLRDBAND);
	}
	/* 7 controls, 6 counters, one buffer at least */
	check_uint(n, >=, 14);
}

/*
 * Fails if 'reset' (never notified of a change) or any file not in the
 * list answers POLLRDBAND, or answers anything but what kernfs always
 * answered: DEFAULT_MASK, and POLLERR | POLLPRI as well for a file that
 * was opened write-only ('reset'): kernfs takes an open file that was
 * never read for one that changed since, and such a file cannot be read.
 */
static void test_undeclared(void)
{
	bool saw_reset = false;

	for (unsigned int i = 0; i < nfiles; i++) {
		const struct probed *p = &files[i];
		const char *name = name_of(p);
		int before = DEFAULT_MASK | (p->write_only ? CHANGED : 0);

		if (notified_by_sched_relay(name))
			continue;
		saw_reset |= !strcmp(name, "reset");
		if (!check_int(p->revents, ==, before))
			test_msg("%s answers 0x%x", name,
				 (unsigned int)p->revents);
	}
	check(saw_reset);
}

/*
 * The kernel's own attributes, which nobody declared.  Fails if one that
 * exists answers anything but DEFAULT_MASK (the change leaked into
 * unmarked attributes), or if none of them exists.
 */
static void test_kernel_attributes(void)
{
	static const char *const paths[] = {
		"/sys/kernel/uevent_seqnum",
		"/sys/devices/system/cpu/online",
		"/sys/devices/system/cpu/possible",
		"/sys/module/sched_relay/initstate",
	};
	unsigned int seen = 0;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		uint64_t ms;
		bool write_only;
		int r;

		if (access(paths[i], F_OK))
			continue;
		seen++;
		r = probe_path(paths[i], &ms, &write_only);
		test_msg("%-34s %s (revents 0x%x, %" PRIu64 " ms)", paths[i],
			 r >= 0 && (r & POLLRDBAND) ? "notifies" :
			 "does not declare", (unsigned int)r, ms);
		check_int(r, ==, DEFAULT_MASK);
		check_uint(ms, <, PROBE_MS);
	}
	check_uint(seen, >, 0);
}

/* After a short delay, in another process, write "1" to @path. */
static pid_t write_later(const char *path)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(path, O_WRONLY);

		usleep(100 * 1000);
		_exit(fd >= 0 && write(fd, "1\n", 2) == 2 ? 0 : 1);
	}
	return pid;
}

/*
 * A notified attribute, declared (extra = POLLRDBAND) or not (extra = 0):
 * with nothing written, a poller sleeps; a write (which the module
 * notifies) wakes it with POLLERR | POLLPRI; poll() then answers
 * DEFAULT_MASK | POLLERR | POLLPRI (| extra) until the file is read again
 * from offset 0, then DEFAULT_MASK (| extra).  Fails if the poller wakes
 * without a write, does not wake within WAKE_MS of one, or any answer
 * differs by a bit; for the undeclared one, that is "as before".
 */
static void check_wakes(const char *name, short extra)
{
	char path[128];
	struct pollfd pfd = { .events = POLLPRI | POLLERR };
	pid_t writer;
	int n;

	snprintf(path, sizeof(path), RT_DIR "/%s", name);
	pfd.fd = open_read(path);
	if (!check_int(pfd.fd, >=, 0)) {
		test_msg("%s: %s", path, strerror(errno));
		return;
	}
	check_int(probe(pfd.fd, EVERY_BIT, NULL), ==, DEFAULT_MASK | extra);

	n = poll(&pfd, 1, QUIET_MS);
	if (!check_int(n, ==, 0))
		test_msg("%s woke with nothing written", name);

	writer = write_later(path);
	n = poll(&pfd, 1, WAKE_MS);
	check_int(sr_wait(writer), ==, 0);
	if (!check_int(n, ==, 1))
		test_msg("%s: no wake-up within %d ms of a write", name,
			 WAKE_MS);
	check_int(pfd.revents, ==, CHANGED);

	/* asking for POLLRDBAND alone (POLLERR always comes) answers the
	 * declaration and does not eat the news */
	check_int(probe(pfd.fd, POLLRDBAND, NULL), ==, POLLERR | extra);
	check_int(probe(pfd.fd, EVERY_BIT, NULL), ==,
		  DEFAULT_MASK | CHANGED | extra);
	reread(pfd.fd);
	check_int(probe(pfd.fd, EVERY_BIT, NULL), ==, DEFAULT_MASK | extra);
	close(pfd.fd);
}

static void test_legacy_wakes(void)
{
	check_wakes("notify_legacy", 0);
}

static void test_declared_wakes(void)
{
	check_wakes("notify_declared", POLLRDBAND);
}

int main(void)
{
	if (sr_load(NULL)) {
		printf("# cannot load %s\n", SR_MODULE);
		return 1;
	}
	if (access(RT_DIR, F_OK)) {
		printf("# %s is not there: load relay_test.ko first\n", RT_DIR);
		return 1;
	}

	TEST(test_walk(), "poll() answers at once on every file under sched_relay");
	TEST(test_declared(), "the files sched_relay notifies declare it (POLLRDBAND)");
	TEST(test_undeclared(), "'reset' does not, and answers exactly as before");
	TEST(test_kernel_attributes(),
	     "the kernel's own attributes do not, and answer exactly as before");
	TEST(test_legacy_wakes(),
	     "an undeclared attribute that is notified wakes a poller as before");
	TEST(test_declared_wakes(),
	     "a declared attribute wakes a poller the same way, POLLRDBAND throughout");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_uevent - pins that sched_relay announces its directory with
 * a KOBJ_ADD uevent ("add@/kernel/sched_relay") only when everything in it
 * is there: buffers/cpuN for every online CPU, the control files and the
 * stats/ arrays; that files made later are announced once they are there
 * (a KOBJ_CHANGE, "change@/kernel/sched_relay" with RELAY=buffers): a new
 * geometry's buffers/cpuN, the file of a CPU that comes online for the
 * first time since the channel was made; and that rmmod announces its
 * removal ("remove@...").
 *
 * The files are looked at the moment the event arrives, not after insmod
 * returns (by then they exist whatever the order): the test listens on a
 * NETLINK_KOBJECT_UEVENT socket as a SCHED_FIFO task pinned to the CPU
 * that runs insmod, so the event's wake-up preempts the module's init at
 * its next preemption point, before it can create anything more.  An
 * event sent too early finds files missing.  If insmod ends without the
 * event, it was never sent: init_module() broadcasts synchronously, so
 * every uevent of the load is queued on the socket before insmod exits.
 *
 * Needs the module file and root.  Leaves the module unloaded.
 */
#define _GNU_SOURCE
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "sched_relay_test.h"

#define DEVPATH		"/kernel/sched_relay"
#define UEVENT_BUF	8192

/* The files that must exist when the KOBJ_ADD uevent is sent. */
static const char *const sr_files[] = {
	"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
	"wakeup_subbufs", "reset", "generation", "stats/produced",
	"stats/dropped", "stats/subbufs_produced", "stats/subbufs_consumed",
	"stats/fill_bytes", "stats/wakeups",
};

/* What was seen when the add event arrived (filled before any output). */
struct add_seen {
	bool event;			/* add@DEVPATH arrived */
	char subsystem[64];		/* its SUBSYSTEM= */
	int nr_missing;
	char missing[512];		/* names of the files not there yet */
};

static int uevent_socket(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,		/* the kernel's uevent group */
	};
	int size = 1 << 20, fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -1;
	/* room for every event of a load: none may be lost to ENOBUFS */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * One uevent from @fd: its "ACTION@DEVPATH" header in @msg, NUL-separated
 * KEY=VALUE lines after it; length, 0 if none is queued (with
 * MSG_DONTWAIT), or -errno.
 */
static ssize_t uevent_recv(int fd, char *msg, size_t size, int flags)
{
	ssize_t n = recv(fd, msg, size - 1, flags);

	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	msg[n] = '\0';
	return n;
}

/* The value of KEY in a uevent of @len bytes, or "". */
static const char *uevent_value(const char *msg, size_t len, const char *key)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = msg; p < msg + len; p += strlen(p) + 1)
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
	return "";
}

static void note_missing(struct add_seen *s, const char *name)
{
	size_t len = strlen(s->missing);

	s->nr_missing++;
	snprintf(s->missing + len, sizeof(s->missing) - len, "%s%s",
		 len ? " " : "", name);
}

/* Look at every file that must be there; no output, no sleeping on I/O. */
static void look(struct add_seen *s, int nr_cpus)
{
	char path[128], name[32];
	struct stat st;
	size_t i;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "buffers/cpu%d", cpu);
		if (stat(sr_path(name, path, sizeof(path)), &st))
			note_missing(s, name);
	}
	for (i = 0; i < sizeof(sr_files) / sizeof(sr_files[0]); i++)
		if (stat(sr_path(sr_files[i], path, sizeof(path)), &st))
			note_missing(s, sr_files[i]);
}

/* Start insmod on the calling thread's CPU as an ordinary task. */
static pid_t start_insmod(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
		execl("/sbin/insmod", "insmod", SR_MODULE, (char *)NULL);
		execlp("insmod", "insmod", SR_MODULE, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/*
 * Load the module and watch for add@DEVPATH until insmod has exited and
 * the socket is drained; insmod's exit status (or -1).
 */
static int load_and_watch(int fd, struct add_seen *s, int nr_cpus)
{
	static char msg[UEVENT_BUF];
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .events = POLLIN },
	};
	bool exited = false;
	int status = -1;
	pid_t pid;

	pid = start_insmod();
	if (pid < 0)
		return -1;
	/* without it the files could only be looked at after insmod */
	pfd[1].fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd[1].fd < 0) {
		test_msg("pidfd_open: %s", strerror(errno));
		sr_wait(pid);
		return -1;
	}
	for (;;) {
		ssize_t n;

		/* after insmod's exit, take what is queued and stop */
		if (!exited && poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		n = uevent_recv(fd, msg, sizeof(msg), MSG_DONTWAIT);
		if (n > 0 && !s->event && !strcmp(msg, "add@" DEVPATH)) {
			look(s, nr_cpus);	/* first: init may go on */
			s->event = true;
			snprintf(s->subsystem, sizeof(s->subsystem), "%s",
				 uevent_value(msg, n, "SUBSYSTEM"));
		}
		if (n > 0)
			continue;
		if (n < 0) {
			test_msg("uevent socket: %s", strerror((int)-n));
			break;
		}
		if (exited)
			break;
		if (pfd[1].revents & POLLIN) {
			status = sr_wait(pid);
			exited = true;
		}
	}
	if (!exited)
		status = sr_wait(pid);
	close(pfd[1].fd);
	return status;
}

static void test_add_after_files(int fd, int nr_cpus)
{
	struct sched_param fifo = { .sched_priority = 50 };
	struct sched_param other = { .sched_priority = 0 };
	struct add_seen s = { 0 };
	int status;

	if (!check_int(sr_pin(0), ==, 0) ||
	    !check_int(sched_setscheduler(0, SCHED_FIFO, &fifo), ==, 0))
		return;
	status = load_and_watch(fd, &s, nr_cpus);
	sched_setscheduler(0, SCHED_OTHER, &other);
	check_int(status, ==, 0);
	if (!check(s.event))
		test_msg("insmod ended and no add@" DEVPATH " uevent was sent");
	else if (!check_int(s.nr_missing, ==, 0))
		test_msg("missing when add@" DEVPATH " arrived: %s", s.missing);
	if (s.event)
		check_str(s.subsystem, "sched_relay");
}

/* rmmod announces the removal: remove@DEVPATH is queued when it returns. */
static void test_remove_event(int fd)
{
	static char msg[UEVENT_BUF];
	bool removed = false;
	ssize_t n;

	if (!check_int(sr_unload(), ==, 0))
		return;
	while ((n = uevent_recv(fd, msg, sizeof(msg), MSG_DONTWAIT)) > 0)
		if (!strcmp(msg, "remove@" DEVPATH))
			removed = true;
	check_int(n, ==, 0);
	if (!check(removed))
		test_msg("rmmod ended and no remove@" DEVPATH " uevent was sent");
	check(access(SR_DIR, F_OK) && errno == ENOENT);
}

/*
 * Write @val into the control file @name from a child at normal priority,
 * on the caller's CPU: its pid.
 */
static pid_t set_in_child(const char *name, const char *val)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
		_exit(sr_set(name, val) ? 0 : 1);
	}
	return pid;
}

/* Write @val to cpu@cpu/online from a child, as set_in_child(): its pid. */
static pid_t online_in_child(int cpu, const char *val)
{
	char path[64];
	pid_t pid;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 0 };
		int fd;

		sched_setscheduler(0, SCHED_OTHER, &sp);
		fd = open(path, O_WRONLY);
		_exit(fd >= 0 && write(fd, val, strlen(val)) > 0 ? 0 : 1);
	}
	return pid;
}

/*
 * Wait in poll() on the uevent socket @fd while the child @pid makes a
 * change, and look at the buffer files the moment each change@DEVPATH
 * with RELAY=buffers arrives.  The caller runs SCHED_FIFO on the child's
 * CPU, so it runs as soon as the kernel queues the event, before the
 * child goes on: an event sent before its files exist finds them
 * missing.  Returns the number of such events, the last one's view in
 * @last and the child's exit status in @status.
 */
static int watch_child(int fd, pid_t pid, int nr_cpus, struct add_seen *last,
		       int *status)
{
	static char msg[UEVENT_BUF];
	bool exited = false;
	int changes = 0;

	*status = -1;
	if (pid < 0)
		return 0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, exited ? 0 : 50) > 0) {
			n = uevent_recv(fd, msg, sizeof(msg), MSG_DONTWAIT);
			if (n > 0 && !strcmp(msg, "change@" DEVPATH) &&
			    !strcmp(uevent_value(msg, n, "RELAY"), "buffers")) {
				*last = (struct add_seen) { .event = true };
				look(last, nr_cpus);
				changes++;
			}
			continue;
		}
		/* the child's events are queued before its write returns */
		if (exited)
			break;
		if (waitpid(pid, status, WNOHANG) == pid) {
			*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
			exited = true;
		}
	}
	return changes;
}

/* Drop what is queued on the uevent socket. */
static void drain(int fd)
{
	static char msg[UEVENT_BUF];

	while (uevent_recv(fd, msg, sizeof(msg), MSG_DONTWAIT) > 0)
		;
}

/* SCHED_FIFO on CPU 0, where the children that make changes run too. */
static bool fifo_on_cpu0(void)
{
	struct sched_param fifo = { .sched_priority = 50 };

	return check_int(sr_pin(0), ==, 0) &&
	       check_int(sched_setscheduler(0, SCHED_FIFO, &fifo), ==, 0);
}

static void not_fifo(void)
{
	struct sched_param other = { .sched_priority = 0 };

	sched_setscheduler(0, SCHED_OTHER, &other);
}

/*
 * A new geometry removes buffers/ and makes it again: each is announced
 * (change@, RELAY=buffers), the making once every cpuN is there.
 */
static void test_geometry_announced(int fd, int nr_cpus)
{
	struct add_seen last = { 0 };
	int changes, status;

	drain(fd);
	if (!fifo_on_cpu0())
		return;
	changes = watch_child(fd, set_in_child("subbuf_size", "8192"),
			      nr_cpus, &last, &status);
	not_fifo();
	check_int(status, ==, 0);
	/* one for the files going, one for the new ones */
	check_int(changes, ==, 2);
	if (!check_int(last.nr_missing, ==, 0))
		test_msg("missing when the last change@ arrived: %s", last.missing);
	check_int(sr_wait(set_in_child("subbuf_size", "65536")), ==, 0);
	drain(fd);
}

/*
 * A CPU that comes online for the first time since the channel was made
 * gets its buffer and file, announced once the file is there.
 */
static void test_cpu_online_announced(int fd, int nr_cpus)
{
	int cpu = nr_cpus - 1, changes, status;
	struct add_seen last = { 0 };

	if (!check_int(nr_cpus, >=, 2) || !check_int(sr_unload(), ==, 0))
		return;
	if (!check_int(sr_wait(online_in_child(cpu, "0")), ==, 0))
		goto out;
	if (!check_int(sr_load(NULL), ==, 0))
		goto out;
	drain(fd);	/* the load's: no change@ */
	if (!fifo_on_cpu0())
		goto out;
	changes = watch_child(fd, online_in_child(cpu, "1"), nr_cpus, &last,
			      &status);
	not_fifo();
	check_int(status, ==, 0);
	check_int(changes, ==, 1);
	if (!check_int(last.nr_missing, ==, 0))
		test_msg("missing when change@ arrived: %s", last.missing);
out:
	sr_wait(online_in_child(cpu, "1"));
}

int main(void)
{
	int nr_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	int fd;

	if (sr_unload()) {
		printf("Bail out! sched_relay is loaded and rmmod fails\n");
		return 1;
	}
	fd = uevent_socket();
	if (fd < 0) {
		printf("Bail out! NETLINK_KOBJECT_UEVENT socket: %s\n", strerror(errno));
		return 1;
	}
	TEST(test_add_after_files(fd, nr_cpus),
	     "add@" DEVPATH " is sent when buffers/cpu0..%d, the control files and stats/ exist",
	     nr_cpus - 1);
	TEST(test_geometry_announced(fd, nr_cpus),
	     "a new geometry's buffers/ is announced (change@, RELAY=buffers) once its files exist");
	TEST(test_cpu_online_announced(fd, nr_cpus),
	     "a CPU online for the first time gets buffers/cpuN, announced once it exists");
	TEST(test_remove_event(fd), "rmmod sends remove@" DEVPATH);
	close(fd);
	return test_done();
}

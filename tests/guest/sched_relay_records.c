// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_records - pins what a reader of sched_relay's buffers gets:
 * one buffer file per CPU; under load every CPU's data parses as sub-buffer
 * headers and records (magic, version, sizes, cpu, consecutive seq, the
 * generation of the last reset, committed on a record boundary); every
 * record's fields are in range, its cpu is the buffer's CPU, timestamps
 * never go back on a CPU, the pids in it existed; every event type shows
 * up; a reader that only mmaps the buffer can follow the sub-buffer being
 * filled through the header's committed field and hands sub-buffers back by
 * writing to the file, getting exactly what stats says was produced; and
 * poll() on a buffer reports POLLIN when a sub-buffer is complete.
 *
 * Needs the module loaded, root, and /usr/bin/loadgen.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <signal.h>

#include "sched_relay_test.h"

#define PID_LIMIT	4194305		/* pid_max can be at most 4194304 */

static unsigned int nr_cpus;

/* The default configuration with @n_subbufs, enabled, freshly reset. */
static bool start_clean(const char *n_subbufs)
{
	return sr_set("enabled", "0") && sr_set("overwrite", "0") &&
	       sr_set("events", "all") && sr_set("subbuf_size", "65536") &&
	       sr_set("n_subbufs", n_subbufs) && sr_set("enabled", "1") &&
	       sr_set("reset", "1");
}

static void test_one_buffer_per_cpu(void)
{
	check_int(sr_nr_buffers(), ==, sysconf(_SC_NPROCESSORS_ONLN));
	check_int(nr_cpus, >=, 1);
}

/* Pids seen: what existed at the start, and what records say. */
struct pid_sets {
	unsigned char *known;		/* existed at the start, or forked */
	unsigned char *used;		/* appears in a record */
};

static void mark_pid(unsigned char *set, long pid)
{
	if (pid >= 0 && pid < PID_LIMIT)
		set[pid / 8] |= 1 << (pid % 8);
}

static bool has_pid(const unsigned char *set, long pid)
{
	return pid >= 0 && pid < PID_LIMIT && (set[pid / 8] & (1 << (pid % 8)));
}

/* Every task now: /proc/PID/task/TID. */
static void mark_existing_tasks(unsigned char *set)
{
	DIR *proc = opendir("/proc");
	struct dirent *d, *t;
	char path[300];

	if (!proc)
		return;
	while ((d = readdir(proc))) {
		DIR *tasks;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		mark_pid(set, atol(d->d_name));
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;
		while ((t = readdir(tasks)))
			if (t->d_name[0] >= '0' && t->d_name[0] <= '9')
				mark_pid(set, atol(t->d_name));
		closedir(tasks);
	}
	closedir(proc);
}

static void note_pids(const struct sched_relay_record *r, void *ctx)
{
	struct pid_sets *ps = ctx;

	mark_pid(ps->used, r->pid);
	if (r->type == SCHED_RELAY_SWITCH)
		mark_pid(ps->used, r->pid2);
	if (r->type == SCHED_RELAY_FORK)
		mark_pid(ps->known, r->pid2);
}

/*
 * Under load on every CPU, then stopped: read() each buffer to the end and
 * check all of it; the pids in it must have existed.
 */
static void test_read_under_load(void)
{
	struct pid_sets ps = {
		.known = calloc(PID_LIMIT / 8 + 1, 1),
		.used = calloc(PID_LIMIT / 8 + 1, 1),
	};
	uint64_t types[SCHED_RELAY_NR_EVENTS] = { 0 };
	struct sr_stats st, st0;
	uint64_t gen;
	int unknown = 0, status, err;
	pid_t lg;

	if (!check(ps.known && ps.used))
		goto out;
	/*
	 * Tasks that exist before and after recording starts; any created
	 * later have a fork record.
	 */
	mark_existing_tasks(ps.known);
	if (!check(start_clean("64")))
		goto out;
	mark_existing_tasks(ps.known);
	mark_pid(ps.known, 0);
	gen = sr_read_u64("generation");
	/* where the clean channel starts: sub-buffers count from its
	 * creation, and a reset ends the one being filled */
	err = sr_read_stats(&st0);
	if (!check_int(err, ==, 0))
		goto out;
	lg = sr_loadgen(NULL, "3000", "1");
	status = sr_wait(lg);
	check_int(status, ==, 0);
	check(sr_set("enabled", "0"));
	err = sr_read_stats(&st);
	if (!check_int(err, ==, 0))
		goto out;
	check_int(st.nr, ==, nr_cpus);
	/* The buffers were large enough: every check below is exact. */
	check_uint(st.dropped, ==, 0);

	for (int i = 0; i < st.nr; i++) {
		struct sr_cpu_stats *c = &st.cpu[i];
		struct sr_parse p;
		void *data = NULL;
		ssize_t len = sr_read_buffer((int)c->cpu, &data);

		if (!check_int(len, >=, (ssize_t)SR_HDR)) {
			test_msg("cpu%u: read gave %zd", c->cpu, len);
			continue;
		}
		sr_parse_init(&p, c->cpu, nr_cpus, 65536, gen);
		p.on_record = note_pids;
		p.ctx = &ps;
		if (!check(sr_parse_stream(&p, data, (size_t)len)))
			test_msg("%s", p.problem);
		check_uint(p.first_seq, ==, st0.cpu[i].subbufs_produced);
		check_uint(p.records, ==, c->produced);
		/* every event was numbered, and none is missing */
		check_uint(p.next_event, ==, c->produced + c->dropped);
		check_uint(p.subbufs, ==, c->subbufs_produced - p.first_seq + 1);
		check_uint(p.types[SCHED_RELAY_SWITCH], >, 0);
		check_uint(p.types[SCHED_RELAY_WAKEUP], >, 0);
		test_msg("cpu%u: %" PRIu64 " records in %" PRIu64 " sub-buffers",
			 c->cpu, p.records, p.subbufs);
		for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++)
			types[t] += p.types[t];
		free(data);
	}
	for (int t = 0; t < SCHED_RELAY_NR_EVENTS; t++) {
		if (!check_uint(types[t], >, 0))
			test_msg("no record of type %d", t);
	}
	for (long pid = 0; pid < PID_LIMIT; pid++) {
		if (has_pid(ps.used, pid) && !has_pid(ps.known, pid)) {
			if (unknown++ < 5)
				test_msg("pid %ld in a record never existed", pid);
		}
	}
	check_int(unknown, ==, 0);
out:
	free(ps.known);
	free(ps.used);
}

/* A reader that only maps CPU @cpu's buffer. */
struct mmap_reader {
	unsigned int cpu;
	size_t subbuf_size, n_subbufs;
	unsigned char *map;
	int fd;
	uint64_t first;			/* the first sub-buffer to read */
	uint64_t seq;			/* sub-buffer being read */
	uint32_t pos;			/* bytes of it parsed */
	uint64_t live_reads;		/* records taken from a filling sub-buffer */
	struct sr_parse p;
};

static struct sched_relay_header *subbuf_header(struct mmap_reader *m,
						uint64_t seq)
{
	return (void *)(m->map + (seq % m->n_subbufs) * m->subbuf_size);
}

/* The sub-buffer @seq has been started by the writer. */
static bool started(struct mmap_reader *m, uint64_t seq)
{
	struct sched_relay_header *h = subbuf_header(m, seq);

	return __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE) == seq &&
	       h->magic == SCHED_RELAY_MAGIC;
}

/*
 * Take what has been committed; move to the next sub-buffer once this one
 * is full and the writer has started the next, handing this one back.
 * True if it made progress; false on a problem (in m->p.problem) too.
 */
static bool mmap_step(struct mmap_reader *m)
{
	struct sched_relay_header *h = subbuf_header(m, m->seq);
	uint32_t committed;
	size_t n;

	if (!started(m, m->seq))
		return false;
	/* Pairs with the writer's smp_store_release() of committed. */
	committed = __atomic_load_n(&h->committed, __ATOMIC_ACQUIRE);
	if (m->pos == 0) {
		if (!sr_parse_header(&m->p, h, m->seq == m->first))
			return false;
		m->pos = SR_HDR;
	}
	if (committed > m->pos) {
		n = (committed - m->pos) / SR_REC;
		if (!sr_parse_records(&m->p, h, (void *)((unsigned char *)h + m->pos), n))
			return false;
		if (committed < m->subbuf_size)
			m->live_reads += n;
		m->pos = committed;
		return true;
	}
	if (committed == m->subbuf_size && started(m, m->seq + 1)) {
		char until[32];
		int len = snprintf(until, sizeof(until), "%" PRIu64,
				   m->seq + 1);

		/* done with the sub-buffers below seq + 1 */
		if (write(m->fd, until, len) != len) {
			sr_problem(&m->p, "handing back sub-buffer %" PRIu64 ": %s",
				   m->seq, strerror(errno));
			return false;
		}
		m->seq++;
		m->pos = 0;
		return true;
	}
	return false;
}

/*
 * loadgen on one CPU, a reader on another following the buffer through
 * mmap only; then stop and check it got exactly what was produced.
 */
static void test_mmap_follows_writer(void)
{
	unsigned int cpu = nr_cpus > 1 ? 1 : 0;
	struct mmap_reader m = { .cpu = cpu, .fd = -1 };
	struct sr_stats st;
	char cpus[16];
	int status = -1, err;
	pid_t lg;

	if (!check(start_clean("8")))
		return;
	if (nr_cpus > 1)
		sr_pin(0);
	/* sub-buffers count from the channel's creation: start at the one
	 * the clean channel fills */
	err = sr_read_stats(&st);
	if (!check_int(err, ==, 0))
		return;
	for (int i = 0; i < st.nr; i++)
		if (st.cpu[i].cpu == cpu)
			m.first = m.seq = st.cpu[i].subbufs_consumed;
	m.subbuf_size = 65536;
	m.n_subbufs = 8;
	sr_parse_init(&m.p, cpu, nr_cpus, m.subbuf_size,
		      sr_read_u64("generation"));
	m.fd = sr_open_buffer((int)cpu, O_RDWR);
	if (!check_int(m.fd, >=, 0))
		return;
	m.map = mmap(NULL, m.subbuf_size * m.n_subbufs, PROT_READ, MAP_SHARED,
		     m.fd, 0);
	if (!check(m.map != MAP_FAILED)) {
		test_msg("mmap: %s", strerror(errno));
		close(m.fd);
		return;
	}
	snprintf(cpus, sizeof(cpus), "%u", cpu);
	lg = sr_loadgen(cpus, "20000", "2");
	while (!m.p.problem[0]) {
		if (mmap_step(&m))
			continue;
		if (status < 0 && waitpid(lg, &status, WNOHANG) == lg)
			check(sr_set("enabled", "0"));
		else if (status >= 0)
			break;	/* stopped and nothing left */
		usleep(1000);
	}
	if (status < 0) {
		waitpid(lg, &status, 0);
		sr_set("enabled", "0");
	}
	check_int(status, ==, 0);
	if (!check(!m.p.problem[0]))
		test_msg("%s", m.p.problem);
	err = sr_read_stats(&st);
	if (check_int(err, ==, 0)) {
		for (int i = 0; i < st.nr; i++) {
			if (st.cpu[i].cpu != cpu)
				continue;
			check_uint(m.p.records, ==, st.cpu[i].produced);
			check_uint(m.p.last_dropped, <=, st.cpu[i].dropped);
			test_msg("cpu%u: mmap reader got %" PRIu64 " records, %" PRIu64
				 " of them from a sub-buffer being filled, %" PRIu64
				 " dropped", cpu, m.p.records, m.live_reads,
				 st.cpu[i].dropped);
		}
	}
	check_uint(m.p.records, >, 1000);
	check_uint(m.live_reads, >, 0);
	munmap(m.map, m.subbuf_size * m.n_subbufs);
	close(m.fd);
}

static void test_poll_buffer(void)
{
	unsigned int cpu = nr_cpus > 1 ? 1 : 0;
	struct pollfd pfd;
	char cpus[16];
	pid_t lg;
	int n;

	if (!check(start_clean("8")) || !check(sr_set("enabled", "0")) ||
	    !check(sr_set("reset", "1")))
		return;
	pfd.fd = sr_open_buffer((int)cpu, O_RDONLY);
	pfd.events = POLLIN;
	if (!check_int(pfd.fd, >=, 0))
		return;
	/* Nothing complete yet: poll() must not say readable. */
	n = poll(&pfd, 1, 200);
	check_int(n, ==, 0);
	check(sr_set("enabled", "1"));
	snprintf(cpus, sizeof(cpus), "%u", cpu);
	lg = sr_loadgen(cpus, "20000", "3");
	n = poll(&pfd, 1, 10000);
	if (check_int(n, ==, 1))
		check_int(pfd.revents & (POLLIN | POLLERR), ==, POLLIN);
	kill(lg, SIGTERM);
	sr_wait(lg);
	check(sr_set("enabled", "0"));
	close(pfd.fd);
}

int main(void)
{
	if (sr_load(NULL)) {
		printf("# cannot load %s\n", SR_MODULE);
		return 1;
	}
	nr_cpus = (unsigned int)sr_nr_buffers();

	TEST(test_one_buffer_per_cpu(), "there is one buffer file per online CPU");
	TEST(test_read_under_load(),
	     "read(): records on every CPU parse, fields sane, time monotonic, pids existed");
	TEST(test_mmap_follows_writer(),
	     "mmap(): a reader following committed gets exactly what was produced");
	TEST(test_poll_buffer(), "poll() on a buffer reports POLLIN once a sub-buffer is complete");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_stats - pins sched_relay's accounting: nothing is lost
 * silently.  In no-overwrite mode with a buffer too small for the load,
 * produced + dropped over all CPUs equals the number of forks the kernel
 * counted (/proc/stat "processes"), read() returns exactly 'produced'
 * records, only the enabled event type is recorded, and the next
 * sub-buffer's header carries the drops before it.  In overwrite mode
 * nothing is dropped and the newest event survives.  With enabled=0 the
 * counters stand still.  reset empties every buffer (a lone header, seq 0),
 * zeroes the counters and bumps generation by one.
 *
 * Needs the module loaded, root, /usr/bin/loadgen, and a quiet guest (no
 * other process forking while it runs).
 */
#define _GNU_SOURCE
#include "sched_relay_test.h"

#define FORKS		1000
#define FORK_CPU	2

static unsigned int nr_cpus;
static int fork_cpu;

/* Forks since boot, from /proc/stat. */
static uint64_t forks_so_far(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "processes %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Fork @n children that exit at once; the pid of the last one. */
static pid_t fork_children(int n)
{
	pid_t pid = -1;

	for (int i = 0; i < n; i++) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			return -1;
	}
	return pid;
}

/* Small buffers (two 4 KiB sub-buffers: 126 records), only fork events. */
static bool start_small(const char *overwrite)
{
	return sr_set("enabled", "0") && sr_set("overwrite", overwrite) &&
	       sr_set("subbuf_size", "4096") && sr_set("n_subbufs", "2") &&
	       sr_set("events", "fork") && sr_set("enabled", "1") &&
	       sr_set("reset", "1");
}

/* Read and parse every CPU's buffer; parse results in @p (nr_cpus of them). */
static bool read_all(struct sr_parse *p, const struct sr_stats *st,
		     size_t subbuf_size, uint64_t gen)
{
	bool ok = true;

	for (int i = 0; i < st->nr; i++) {
		void *data = NULL;
		ssize_t len = sr_read_buffer((int)st->cpu[i].cpu, &data);

		sr_parse_init(&p[i], st->cpu[i].cpu, nr_cpus, subbuf_size, gen);
		if (len < 0) {
			test_msg("reading cpu%u: %s", st->cpu[i].cpu,
				 strerror((int)-len));
			ok = false;
			continue;
		}
		if (!sr_parse_stream(&p[i], data, (size_t)len)) {
			test_msg("%s", p[i].problem);
			ok = false;
		}
		free(data);
	}
	return ok;
}

static void test_no_overwrite_accounts_for_every_fork(void)
{
	struct sr_parse p[SR_MAX_CPUS], p2[SR_MAX_CPUS];
	struct sr_stats st, st2;
	uint64_t before, after, gen;
	int fc = -1, err;
	pid_t last;

	if (!check(start_small("0")))
		return;
	gen = sr_read_u64("generation");
	before = forks_so_far();
	last = fork_children(FORKS);
	check_int(last, >, 0);
	check(sr_set("enabled", "0"));
	after = forks_so_far();

	err = sr_read_stats(&st);
	if (!check_int(err, ==, 0))
		return;
	test_msg("%" PRIu64 " forks: %" PRIu64 " produced, %" PRIu64 " dropped",
		 after - before, st.produced, st.dropped);
	check_uint(after - before, >=, FORKS);
	check_uint(st.produced + st.dropped, ==, after - before);
	for (int i = 0; i < st.nr; i++)
		if (st.cpu[i].cpu == (unsigned int)fork_cpu)
			fc = i;
	if (!check_int(fc, >=, 0))
		return;
	/* Two sub-buffers of 63 records were all there was room for. */
	check_uint(st.cpu[fc].produced, ==, 2 * 63);
	check_uint(st.cpu[fc].dropped, >=, FORKS - 2 * 63);
	check_uint(st.cpu[fc].fill_bytes, ==, 2 * 4096);

	if (!check(read_all(p, &st, 4096, gen)))
		return;
	for (int i = 0; i < st.nr; i++) {
		check_uint(p[i].records, ==, st.cpu[i].produced);
		check_uint(p[i].types[SCHED_RELAY_FORK], ==, p[i].records);
		check_uint(p[i].last_dropped, <=, st.cpu[i].dropped);
	}

	/* Read and consumed: the next sub-buffer carries the drops. */
	check(sr_set("enabled", "1"));
	last = fork_children(10);
	check_int(last, >, 0);
	check(sr_set("enabled", "0"));
	err = sr_read_stats(&st2);
	if (!check_int(err, ==, 0) || !check(read_all(p2, &st2, 4096, 0)))
		return;
	check_uint(st2.cpu[fc].dropped, ==, st.cpu[fc].dropped);
	check_uint(st2.cpu[fc].produced, ==, st.cpu[fc].produced + 10);
	check_uint(p2[fc].records, ==, 10);
	/* the sub-buffer after the two full ones (counted since the
	 * channel was created: the reset at the start ended one) */
	check_uint(p2[fc].first_seq, ==, st.cpu[fc].subbufs_produced);
	check_uint(p2[fc].last_dropped, ==, st.cpu[fc].dropped);
}

struct last_child {
	pid_t pid;
};

static void note_child(const struct sched_relay_record *r, void *ctx)
{
	struct last_child *lc = ctx;

	if (r->type == SCHED_RELAY_FORK)
		lc->pid = r->pid2;
}

static void test_overwrite_keeps_newest(void)
{
	struct last_child lc = { 0 };
	uint64_t before, after;
	struct sr_stats st;
	struct sr_parse p;
	void *data = NULL;
	ssize_t len;
	pid_t last;
	int fc = -1, err;

	if (!check(start_small("1")))
		return;
	before = forks_so_far();
	last = fork_children(FORKS);
	check_int(last, >, 0);
	check(sr_set("enabled", "0"));
	after = forks_so_far();
	err = sr_read_stats(&st);
	if (!check_int(err, ==, 0))
		return;
	check_uint(st.dropped, ==, 0);
	check_uint(st.produced, ==, after - before);
	for (int i = 0; i < st.nr; i++)
		if (st.cpu[i].cpu == (unsigned int)fork_cpu)
			fc = i;
	if (!check_int(fc, >=, 0))
		return;
	check_uint(st.cpu[fc].produced, >=, FORKS);

	len = sr_read_buffer(fork_cpu, &data);
	sr_parse_init(&p, (unsigned int)fork_cpu, nr_cpus, 4096, 0);
	p.on_record = note_child;
	p.ctx = &lc;
	if (check_int(len, >, 0) && !check(sr_parse_stream(&p, data, (size_t)len)))
		test_msg("%s", p.problem);
	free(data);
	/* Older sub-buffers were overwritten: the stream starts later. */
	check_uint(p.first_seq, >, 0);
	check_uint(p.records, <, st.cpu[fc].produced);
	check_int(lc.pid, ==, last);
	check(sr_set("overwrite", "0"));
}

static void test_disabled_stands_still(void)
{
	struct sr_stats a, b;
	int status, err;
	pid_t lg;

	if (!check(sr_set("subbuf_size", "65536")) ||
	    !check(sr_set("n_subbufs", "8")) || !check(sr_set("events", "all")) ||
	    !check(sr_set("enabled", "1")))
		return;
	lg = sr_loadgen(NULL, "2000", "0.5");
	status = sr_wait(lg);
	check_int(status, ==, 0);
	check(sr_set("enabled", "0"));
	err = sr_read_stats(&a);
	check_int(err, ==, 0);
	check_uint(a.produced, >, 0);
	lg = sr_loadgen(NULL, "2000", "0.5");
	status = sr_wait(lg);
	check_int(status, ==, 0);
	err = sr_read_stats(&b);
	check_int(err, ==, 0);
	check_uint(b.produced, ==, a.produced);
	check_uint(b.dropped, ==, a.dropped);
}

static void test_reset_empties(void)
{
	struct sr_stats st, before;
	uint64_t gen;
	int status, err;

	/* Something in the buffers first. */
	check(sr_set("enabled", "1"));
	status = sr_wait(sr_loadgen(NULL, "2000", "0.3"));
	check_int(status, ==, 0);
	check(sr_set("enabled", "0"));
	err = sr_read_stats(&st);
	check_int(err, ==, 0);
	check_uint(st.produced, >, 0);
	gen = sr_read_u64("generation");

	if (!check(sr_set("reset", "1")))
		return;
	check_uint(sr_read_u64("generation"), ==, gen + 1);
	before = st;
	err = sr_read_stats(&st);
	if (!check_int(err, ==, 0))
		return;
	check_int(st.nr, ==, nr_cpus);
	for (int i = 0; i < st.nr; i++) {
		struct sr_cpu_stats *c = &st.cpu[i];
		struct sched_relay_header *h;
		void *data = NULL;
		ssize_t len;

		/* the sub-buffer counts go on: the one being filled ended,
		 * and everything up to the new one is consumed */
		uint64_t next = before.cpu[i].subbufs_produced + 1;

		check_uint(c->produced, ==, 0);
		check_uint(c->dropped, ==, 0);
		check_uint(c->subbufs_produced, ==, next);
		check_uint(c->subbufs_consumed, ==, next);
		check_uint(c->fill_bytes, ==, SR_HDR);
		len = sr_read_buffer((int)c->cpu, &data);
		/* Only the header of the first sub-buffer is left. */
		if (check_int(len, ==, (ssize_t)SR_HDR)) {
			h = data;
			check(!sr_header_problem(h, c->cpu, 65536));
			check_uint(h->seq, ==, next);
			check_uint(h->committed, ==, SR_HDR);
			check_uint(h->first_ts, ==, 0);
			check_uint(h->dropped, ==, 0);
			check_uint(h->generation, ==, gen + 1);
		}
		free(data);
	}
}

int main(void)
{
	if (sr_load(NULL)) {
		printf("# cannot load %s\n", SR_MODULE);
		return 1;
	}
	nr_cpus = (unsigned int)sr_nr_buffers();
	fork_cpu = nr_cpus > FORK_CPU ? FORK_CPU : 0;
	sr_pin(fork_cpu);

	TEST(test_no_overwrite_accounts_for_every_fork(),
	     "no-overwrite: produced + dropped equals every fork, read() gets all produced");
	TEST(test_overwrite_keeps_newest(),
	     "overwrite: nothing dropped, every fork produced, the newest survives");
	TEST(test_disabled_stands_still(), "with enabled=0 the counters stand still");
	TEST(test_reset_empties(),
	     "reset empties every buffer, zeroes the counters, bumps generation by one");
	return test_done();
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_relay_test.h - what the sched_relay guest tests share: access to
 * /sys/kernel/sched_relay, the stats/ arrays, child processes, and the checks
 * of sub-buffer headers and records against include/uapi/sched_relay.h.
 *
 * Functions are static inline so that each test program, built from one
 * .c file, takes what it uses.
 */
#ifndef SCHED_RELAY_TEST_H
#define SCHED_RELAY_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sched_relay.h"
#include "test-lib.h"

#define SR_DIR		"/sys/kernel/sched_relay"
#define SR_MODULE	"/lib/modules/sched_relay.ko"
#define SR_LOADGEN	"/usr/bin/loadgen"
#define SR_MAX_CPUS	64
#define SR_HDR		((size_t)sizeof(struct sched_relay_header))
#define SR_REC		((size_t)sizeof(struct sched_relay_record))

/* The largest pid the kernel hands out (PID_MAX_LIMIT on 64-bit). */
#define SR_PID_MAX	4194304

static inline const char *sr_path(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, SR_DIR "/%s", name);
	return buf;
}

/* Read a whole control file into @buf (NUL-terminated); length or -errno. */
static inline ssize_t sr_read(const char *name, char *buf, size_t size)
{
	char path[128];
	ssize_t n, len = 0;
	int fd = open(sr_path(name, path, sizeof(path)), O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

/* One write(2) of @len bytes to a control file: 0 or -errno (of open or write). */
static inline int sr_write_buf(const char *name, const void *val, size_t len)
{
	char path[128];
	ssize_t n;
	int fd = open(sr_path(name, path, sizeof(path)), O_WRONLY);

	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

static inline int sr_write(const char *name, const char *val)
{
	return sr_write_buf(name, val, strlen(val));
}

/* Write a control file; on failure say so on a "# " line.  True on success. */
static inline bool sr_set(const char *name, const char *val)
{
	int err = sr_write(name, val);

	if (err)
		test_msg("writing '%s' to %s: %s", val, name, strerror(-err));
	return !err;
}

/* A control file's value as a number, UINT64_MAX if unreadable. */
static inline uint64_t sr_read_u64(const char *name)
{
	char buf[64], *end;
	unsigned long long v;

	if (sr_read(name, buf, sizeof(buf)) <= 0)
		return UINT64_MAX;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n"))
		return UINT64_MAX;
	return v;
}

/* A control file's value without its newline, "<errno>" if unreadable. */
static inline const char *sr_value(const char *name, char *buf, size_t size)
{
	ssize_t n = sr_read(name, buf, size);

	if (n < 0) {
		snprintf(buf, size, "<%s>", strerror((int)-n));
		return buf;
	}
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

struct sr_cpu_stats {
	unsigned int cpu;
	uint64_t produced;
	uint64_t dropped;
	uint64_t subbufs_produced;
	uint64_t subbufs_consumed;
	uint64_t fill_bytes;
};

struct sr_stats {
	int nr;				/* CPU lines */
	struct sr_cpu_stats cpu[SR_MAX_CPUS];
	uint64_t produced;		/* sums over the CPUs */
	uint64_t dropped;
};

/*
 * The files of stats/, in the order of struct sr_cpu_stats's counters:
 * each holds one line, one value per CPU number (value N is CPU N's).
 */
static const char *const sr_stats_files[] = {
	"stats/produced", "stats/dropped", "stats/subbufs_produced",
	"stats/subbufs_consumed", "stats/fill_bytes",
};

/* Parse one stats/ array into @v; its length, or -1 with a "# " line. */
static inline int sr_read_array(const char *name, uint64_t *v, int max)
{
	char buf[8192], *p, *end;
	ssize_t n = sr_read(name, buf, sizeof(buf));
	int nr = 0;

	if (n < 0) {
		test_msg("cannot read %s: %s", name, strerror((int)-n));
		return -1;
	}
	if (n == 0 || buf[n - 1] != '\n' || memchr(buf, '\n', n) != buf + n - 1) {
		test_msg("%s is not one line: %.80s", name, buf);
		return -1;
	}
	for (p = buf; *p != '\n'; p = end) {
		if (nr == max || (nr && *p++ != ' ') || *p < '0' || *p > '9') {
			test_msg("%s: not an array of numbers: %.80s", name, buf);
			return -1;
		}
		errno = 0;
		v[nr++] = strtoull(p, &end, 10);
		if (errno || (*end != ' ' && *end != '\n')) {
			test_msg("%s: bad value at '%.20s'", name, p);
			return -1;
		}
	}
	return nr;
}

/* Read the stats/ arrays; 0, or -1 with a "# " line saying what was wrong. */
static inline int sr_read_stats(struct sr_stats *st)
{
	uint64_t v[5][SR_MAX_CPUS];
	int i, nr = -1;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < 5; i++) {
		int n = sr_read_array(sr_stats_files[i], v[i], SR_MAX_CPUS);

		if (n < 0)
			return -1;
		if (nr >= 0 && n != nr) {
			test_msg("%s has %d values, %s %d", sr_stats_files[i], n,
				 sr_stats_files[0], nr);
			return -1;
		}
		nr = n;
	}
	for (i = 0; i < nr; i++) {
		struct sr_cpu_stats *c = &st->cpu[i];

		*c = (struct sr_cpu_stats) {
			.cpu = (unsigned int)i, .produced = v[0][i],
			.dropped = v[1][i], .subbufs_produced = v[2][i],
			.subbufs_consumed = v[3][i], .fill_bytes = v[4][i],
		};
		st->produced += c->produced;
		st->dropped += c->dropped;
	}
	st->nr = nr;
	return 0;
}

/* Number of buffers/cpuN files (N = 0, 1, ... without gaps). */
static inline int sr_nr_buffers(void)
{
	char path[128], name[32];
	int n = 0;

	for (;;) {
		snprintf(name, sizeof(name), "buffers/cpu%d", n);
		if (access(sr_path(name, path, sizeof(path)), F_OK))
			return n;
		n++;
	}
}

static inline int sr_open_buffer(int cpu, int flags)
{
	char path[128], name[32];

	snprintf(name, sizeof(name), "buffers/cpu%d", cpu);
	return open(sr_path(name, path, sizeof(path)), flags);
}

static inline uint64_t sr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Start a program, free to run on every CPU, its stdout on /dev/null if
 * @quiet; its pid, or -1.
 */
static inline pid_t sr_spawn_opt(char *const argv[], bool quiet)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		cpu_set_t all;

		/* Undo the test's own pinning: the program picks its CPUs. */
		CPU_ZERO(&all);
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &all);
		sched_setaffinity(0, sizeof(all), &all);
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, STDOUT_FILENO);
		}
		execv(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static inline pid_t sr_spawn(char *const argv[])
{
	return sr_spawn_opt(argv, false);
}

/* Start loadgen quietly with these arguments (NULL-terminated). */
static inline pid_t sr_loadgen(const char *cpus, const char *rate,
			       const char *secs)
{
	char *argv[10];
	int i = 0;

	argv[i++] = SR_LOADGEN;
	argv[i++] = "-q";
	argv[i++] = "-t";
	argv[i++] = (char *)secs;
	if (cpus) {
		argv[i++] = "-c";
		argv[i++] = (char *)cpus;
	}
	if (rate) {
		argv[i++] = "-r";
		argv[i++] = (char *)rate;
	}
	argv[i] = NULL;
	return sr_spawn_opt(argv, true);
}

/* Wait for a child: its exit status, 128 + signal, or -1. */
static inline int sr_wait(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Run a shell command; its exit status. */
static inline int sr_sh(const char *cmd)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };

	return sr_wait(sr_spawn(argv));
}

/* Pin the calling thread (and children forked later) to one CPU. */
static inline int sr_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static inline bool sr_comm_ok(const char *comm)
{
	return memchr(comm, '\0', SCHED_RELAY_COMM_LEN) != NULL;
}

static inline bool sr_zero(const void *p, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		if (c[i])
			return false;
	return true;
}

/*
 * What is wrong with a sub-buffer header of CPU @cpu, or NULL.
 * @subbuf_size bounds committed.
 */
static inline const char *sr_header_problem(const struct sched_relay_header *h,
					    unsigned int cpu, size_t subbuf_size)
{
	if (h->magic != SCHED_RELAY_MAGIC)
		return "bad magic";
	if (h->version != SCHED_RELAY_VERSION)
		return "bad version";
	if (h->hdr_size != SR_HDR || h->record_size != SR_REC)
		return "bad header or record size";
	if (h->cpu != cpu)
		return "header cpu is not the buffer's CPU";
	if (h->committed < SR_HDR || h->committed > subbuf_size ||
	    (h->committed - SR_HDR) % SR_REC)
		return "committed out of range or not on a record boundary";
	if (h->reserved)
		return "reserved not zero";
	if (h->committed == SR_HDR && h->first_ts)
		return "first_ts set in an empty sub-buffer";
	return NULL;
}

static inline bool sr_prio_ok(unsigned int prio)
{
	return prio <= 139 || prio == SCHED_RELAY_PRIO_DEADLINE;
}

/* A (pid, tgid) pair: pid 0 is the idle task, whose tgid is 0 too. */
static inline bool sr_task_ok(int32_t pid, int32_t tgid)
{
	return pid >= 0 && pid <= SR_PID_MAX && tgid >= 0 && tgid <= SR_PID_MAX &&
	       (pid ? tgid > 0 : tgid == 0);
}

/* What is wrong with a record of CPU @cpu (of @nr_cpus), or NULL. */
static inline const char *sr_record_problem(const struct sched_relay_record *r,
					    unsigned int cpu,
					    unsigned int nr_cpus)
{
	bool two = r->type == SCHED_RELAY_SWITCH || r->type == SCHED_RELAY_FORK;

	if (r->type >= SCHED_RELAY_NR_EVENTS)
		return "bad type";
	if (!r->ts)
		return "zero timestamp";
	if (!sr_task_ok(r->pid, r->tgid))
		return "pid or tgid out of range";
	if (!sr_prio_ok(r->prio))
		return "prio out of range";
	if (!sr_comm_ok(r->comm))
		return "comm not terminated";
	if (r->type == SCHED_RELAY_SWITCH) {
		if (r->state >= SCHED_RELAY_NR_STATES)
			return "switch state not a task state";
	} else if (r->state) {
		return "state set outside a switch";
	}
	if (two) {
		if (!sr_task_ok(r->pid2, r->tgid2))
			return "pid2 or tgid2 out of range";
		if (!sr_prio_ok(r->prio2))
			return "prio2 out of range";
		if (!sr_comm_ok(r->comm2))
			return "comm2 not terminated";
		if (r->type == SCHED_RELAY_FORK && !r->pid2)
			return "fork of pid 0";
		/* a new thread joins its parent's group, a new process is one */
		if (r->type == SCHED_RELAY_FORK && r->tgid2 != r->tgid &&
		    r->tgid2 != r->pid2)
			return "fork child's tgid neither the parent's nor its own";
		return NULL;
	}
	if (r->pid2 || r->tgid2 || r->prio2 || !sr_zero(r->reserved, sizeof(r->reserved)))
		return "second task or reserved set in a one-task event";
	switch (r->type) {
	case SCHED_RELAY_WAKEUP:
	case SCHED_RELAY_WAKEUP_NEW:
	case SCHED_RELAY_WAKING:
		if (r->target_cpu >= nr_cpus || r->orig_cpu != cpu)
			return "wakeup cpus wrong";
		break;
	case SCHED_RELAY_MIGRATE:
		if (r->target_cpu >= nr_cpus || r->orig_cpu >= nr_cpus)
			return "migrate cpus out of range";
		break;
	default:
		if (r->target_cpu != cpu || r->orig_cpu != cpu)
			return "target_cpu/orig_cpu not the recording CPU";
		break;
	}
	if (r->type == SCHED_RELAY_EXIT && !r->pid)
		return "exit of pid 0";
	return NULL;
}

/* What a parse of one CPU's data found. */
struct sr_parse {
	unsigned int cpu;
	unsigned int nr_cpus;
	size_t subbuf_size;
	uint64_t generation;		/* expected in every header, 0: any */
	uint64_t records;
	uint64_t subbufs;
	uint64_t first_seq, next_seq;	/* next_seq: expected seq */
	uint64_t next_event;		/* the next record's event number */
	uint64_t last_ts;
	uint64_t last_dropped;		/* dropped of the last header */
	uint64_t types[SCHED_RELAY_NR_EVENTS];
	char problem[200];		/* first problem found, "" if none */
	/* Called for every good record, if set. */
	void (*on_record)(const struct sched_relay_record *r, void *ctx);
	void *ctx;
};

static inline void sr_parse_init(struct sr_parse *p, unsigned int cpu,
				 unsigned int nr_cpus, size_t subbuf_size,
				 uint64_t generation)
{
	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	p->nr_cpus = nr_cpus;
	p->subbuf_size = subbuf_size;
	p->generation = generation;
}

__attribute__((format(printf, 2, 3)))
static inline void sr_problem(struct sr_parse *p, const char *fmt, ...)
{
	va_list ap;

	if (p->problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(p->problem, sizeof(p->problem), fmt, ap);
	va_end(ap);
}

/*
 * Check one sub-buffer's header; @first says whether it is the first one
 * seen, whose seq starts the expected sequence.  False on a problem.
 */
static inline bool sr_parse_header(struct sr_parse *p,
				   const struct sched_relay_header *h,
				   bool first)
{
	const char *why = sr_header_problem(h, p->cpu, p->subbuf_size);

	if (why) {
		sr_problem(p, "cpu%u sub-buffer %" PRIu64 ": %s", p->cpu,
			   p->subbufs, why);
		return false;
	}
	if (first) {
		p->first_seq = h->seq;
		p->next_seq = h->seq;
		p->next_event = h->first_event_seq;
		p->last_dropped = h->dropped;
	}
	if (h->seq != p->next_seq) {
		sr_problem(p, "cpu%u: seq %" PRIu64 " where %" PRIu64 " was due",
			   p->cpu, (uint64_t)h->seq, p->next_seq);
		return false;
	}
	if (p->generation && h->generation != p->generation) {
		sr_problem(p, "cpu%u seq %" PRIu64 ": generation %" PRIu64
			   " where %" PRIu64 " was due", p->cpu, (uint64_t)h->seq,
			   (uint64_t)h->generation, p->generation);
		return false;
	}
	if (h->dropped < p->last_dropped) {
		sr_problem(p, "cpu%u seq %" PRIu64 ": dropped went back from %"
			   PRIu64 " to %" PRIu64, p->cpu, (uint64_t)h->seq,
			   p->last_dropped, (uint64_t)h->dropped);
		return false;
	}
	/*
	 * Identity: the events missing before this sub-buffer are exactly
	 * those dropped since the last one started (no reader loses any: the
	 * stream is read(2) in no-overwrite mode).
	 */
	if (h->first_event_seq - p->next_event != h->dropped - p->last_dropped) {
		sr_problem(p, "cpu%u seq %" PRIu64 ": first event %" PRIu64
			   " where %" PRIu64 " + %" PRIu64 " dropped was due",
			   p->cpu, (uint64_t)h->seq, (uint64_t)h->first_event_seq,
			   p->next_event, (uint64_t)(h->dropped - p->last_dropped));
		return false;
	}
	p->next_event = h->first_event_seq;
	p->last_dropped = h->dropped;
	p->next_seq++;
	p->subbufs++;
	return true;
}

/* Check @n records that follow header @h. */
static inline bool sr_parse_records(struct sr_parse *p,
				    const struct sched_relay_header *h,
				    const struct sched_relay_record *r,
				    size_t n)
{
	for (size_t i = 0; i < n; i++, r++) {
		const char *why = sr_record_problem(r, p->cpu, p->nr_cpus);

		if (!why && r->event_seq != (uint32_t)p->next_event)
			why = "event number out of place";
		if (!why && r->ts < p->last_ts)
			why = "timestamp went back";
		if (!why && r->ts < h->first_ts)
			why = "timestamp before the sub-buffer's first_ts";
		if (!why && (void *)r == (void *)(h + 1) && h->first_ts &&
		    r->ts != h->first_ts)
			why = "first record's ts is not first_ts";
		if (why) {
			sr_problem(p, "cpu%u seq %" PRIu64 " record %zu: %s "
				   "(type %u event %u (due %" PRIu64 ") ts %" PRIu64
				   " pid %d/%d)", p->cpu, (uint64_t)h->seq,
				   (size_t)(r - (const struct sched_relay_record *)(h + 1)),
				   why, r->type, r->event_seq, p->next_event,
				   (uint64_t)r->ts, r->pid, r->pid2);
			return false;
		}
		p->last_ts = r->ts;
		p->next_event++;
		p->types[r->type]++;
		p->records++;
		if (p->on_record)
			p->on_record(r, p->ctx);
	}
	return true;
}

/*
 * Parse the byte stream read(2) gave for one CPU: sub-buffers back to back,
 * each as long as its header's committed says (the stream was read after
 * writing stopped, so every header copy is final), all but the last full.
 */
static inline bool sr_parse_stream(struct sr_parse *p, const void *data,
				   size_t len)
{
	const unsigned char *pos = data, *end = pos + len;

	while (pos < end) {
		const struct sched_relay_header *h = (const void *)pos;
		size_t n;

		if ((size_t)(end - pos) < SR_HDR) {
			sr_problem(p, "cpu%u: %zu bytes left, a partial header",
				   p->cpu, (size_t)(end - pos));
			return false;
		}
		if (!sr_parse_header(p, h, pos == data))
			return false;
		if (h->committed > (size_t)(end - pos)) {
			sr_problem(p, "cpu%u seq %" PRIu64 ": committed %u but only %zu bytes read",
				   p->cpu, (uint64_t)h->seq, h->committed,
				   (size_t)(end - pos));
			return false;
		}
		if (pos + h->committed < end && h->committed != p->subbuf_size) {
			sr_problem(p, "cpu%u seq %" PRIu64 ": committed %u in a sub-buffer that is not the last",
				   p->cpu, (uint64_t)h->seq, h->committed);
			return false;
		}
		n = (h->committed - SR_HDR) / SR_REC;
		if (!sr_parse_records(p, h, (const void *)(h + 1), n))
			return false;
		pos += h->committed;
	}
	return true;
}

/* read(2) a CPU's buffer until it returns 0; bytes in *data (malloc'd). */
static inline ssize_t sr_read_buffer(int cpu, void **data)
{
	size_t cap = 1 << 20, len = 0;
	unsigned char *buf = malloc(cap);
	int fd = sr_open_buffer(cpu, O_RDONLY);
	ssize_t n;

	if (!buf || fd < 0) {
		n = -errno;
		free(buf);
		if (fd >= 0)
			close(fd);
		return n;
	}
	for (;;) {
		if (cap - len < 65536) {
			unsigned char *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			n = -errno;
			free(buf);
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	*data = buf;
	return (ssize_t)len;
}

/* Make sure the module is loaded; 0 or the status of insmod. */
static inline int sr_load(const char *params)
{
	char cmd[256];

	if (!access(SR_DIR, F_OK))
		return 0;
	snprintf(cmd, sizeof(cmd), "insmod " SR_MODULE " %s", params ? params : "");
	return sr_sh(cmd);
}

static inline int sr_unload(void)
{
	if (access(SR_DIR, F_OK))
		return 0;
	return sr_sh("rmmod sched_relay");
}

#endif /* SCHED_RELAY_TEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * t-fuzz-record.c - a structured fuzzer of everything that reads a
 * recording: --check, --dump, --report, --replay -b (with --tasks and
 * --latency), --export-ctf and --export-perfetto each run on thousands of
 * damaged recordings whose CRCs are right, so that the damage gets past
 * the CRC checks into the readers.  A recording with every block type
 * (written by the real recorder) is mutated field by field: header fields
 * (versions, sizes, CPUs, times), block fields (type, cpu, counts going
 * down or up to 2^64, ts), record fields (ts near UINT64_MAX, 0 or going
 * back; unknown types and states; prio; pids; comm bytes that are not
 * UTF-8), blocks duplicated, dropped, swapped or cut; then every CRC is
 * recomputed by the rule of the file's format version (format 3: a DATA
 * or SKIPPED block's CRC is of its header alone; the format 2 rule made
 * 2993 of 3000 cases stop at the first DATA block, so no mutation of a
 * record reached a reader).
 *
 * Pinned, under ASan and UBSan: no reader crashes, overflows or hangs
 * (each reader's run of a case must end within FUZZ_TIMEOUT s of CPU
 * time: SIGPROF fails the test and names the case and the reader; one
 * blocked without using the CPU is caught by SIGALRM after
 * FUZZ_WALL_TIMEOUT s), no Perfetto slice is longer than the time the
 * recording's own timestamps span (a timestamp going back once made a
 * 584-year slice; one near UINT64_MAX made the export loop for ever),
 * and the fuzzer reaches what it aims at: most cases (more than half)
 * get past their first DATA block into the records, counted and printed,
 * as is how many cases each reader took without an error.
 * The seed is printed; FUZZ_SEED=N repeats a run, FUZZ_CASES=N sets its
 * length (default 3000).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "dump.h"
#include "export_ctf.h"
#include "export_perfetto.h"
#include "options.h"
#include "record_format.h"
#include "record_merge.h"
#include "record_writer.h"
#include "report.h"
#include "test-lib.h"
#include "top.h"
#include "util.h"

/* A hang here is a loop: CPU time measures it on a busy machine too,
 * where a case's wall time can be many times its CPU time. */
#define FUZZ_TIMEOUT 10
#define FUZZ_WALL_TIMEOUT 120

/* The sanitizers report on this fd (ours, not the silenced stderr). */
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

/* in memory where there is a tmpfs: a case writes and removes files for
 * each reader, thousands of times */
static char dir[] = "/dev/shm/t-fuzz-record.XXXXXX";
static char dir_tmp[] = "/tmp/t-fuzz-record.XXXXXX";
static const char *dir_used;
static char rec_path[256], json_path[256], ctf_path[256];
static unsigned char *base;
static size_t base_len;
static uint64_t rng;
static volatile unsigned long current_case;
static const char *volatile current_reader = "";
static unsigned long long seed;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* ---- the recording that gets mutated -------------------------------- */

static void chunk(struct recorder *w, unsigned int cpu, uint64_t seq,
		  uint32_t n, uint64_t *ts, uint32_t *ev, uint64_t dropped,
		  uint64_t lost)
{
	struct sched_relay_record r[8];
	struct subbuf_chunk c = {
		.cpu = cpu, .seq = seq, .generation = 1, .offset = 64,
		.nrec = n, .recs = r, .dropped = dropped, .lost = lost,
	};

	memset(r, 0, sizeof(r));
	for (uint32_t i = 0; i < n; i++) {
		r[i].ts = *ts += 1000;
		r[i].event_seq = (*ev)++;
		r[i].type = (uint8_t)(i % SCHED_RELAY_NR_EVENTS);
		r[i].pid = (int32_t)(100 + i);
		r[i].tgid = 100;
		r[i].prio = 120;
		snprintf(r[i].comm, sizeof(r[i].comm), "task%u", i);
		if (r[i].type == SCHED_RELAY_SWITCH ||
		    r[i].type == SCHED_RELAY_FORK) {
			r[i].pid2 = (int32_t)(200 + i);
			r[i].tgid2 = 200;
			r[i].prio2 = 100;
			r[i].state = (uint8_t)(i % SCHED_RELAY_NR_STATES);
			snprintf(r[i].comm2, sizeof(r[i].comm2), "next%u", i);
		} else {
			r[i].target_cpu = (uint16_t)cpu;
		}
	}
	recorder_stage(w, &c);
	recorder_settle(w, true);
}

static void make_base(void)
{
	struct record_meta meta = {
		.channel = "/sys/kernel/sched_relay", .nr_cpus = 3,
		.geom = { 4096, 8 }, .events = SCHED_RELAY_ALL_EVENTS,
		.flags = RECORD_F_ENABLED, .generation = 1,
	};
	struct recorder *w = recorder_create(rec_path, &meta);
	uint64_t ts = mono_ns();
	uint32_t ev[3] = { 0 };
	FILE *f;

	for (unsigned int c = 0; c < 3; c++)
		recorder_track_cpu(w, c, 0, 0, true);
	/* events missing exactly where the blocks count them (2 dropped
	 * before round 2, 1 lost before round 3): --check passes it */
	for (int round = 0; round < 4; round++)
		for (unsigned int c = 0; c < 3; c++) {
			ev[c] += round == 2 ? 2 : round == 3 ? 1 : 0;
			chunk(w, c, (uint64_t)round, 3 + c, &ts, &ev[c],
			      round > 1 ? 2 : 0, round > 2 ? 1 : 0);
		}
	ev[0] += 2;
	chunk(w, 0, 4, 2, &ts, &ev[0], 4, 1);
	recorder_restart(w, 1, 2, 0);
	ev[1] = 0;
	chunk(w, 1, 0, 4, &ts, &ev[1], 0, 0);
	recorder_config(w, &meta);
	recorder_gone(w, RECORD_NO_CPU);
	recorder_track_cpu(w, 2, 0, 0, false);
	chunk(w, 2, 0, 5, &ts, &ev[2], 0, 0);
	recorder_note_dropped(w, 2, 3);
	while (mono_ns() <= ts)
		usleep(100);
	if (recorder_finish(w))
		exit(2);
	recorder_free(w);
	f = fopen(rec_path, "rb");
	fseek(f, 0, SEEK_END);
	base_len = (size_t)ftell(f);
	rewind(f);
	base = xmalloc(base_len);
	if (fread(base, 1, base_len, f) != base_len)
		exit(2);
	fclose(f);
	f = fopen("/dev/null", "w");
	if (check_recording(rec_path, f)) {
		printf("# the recording to mutate does not pass --check\n");
		exit(2);
	}
	fclose(f);
}

/* ---- mutations ------------------------------------------------------ */

struct blocks {
	size_t off[256];
	size_t n;
};

static void find_blocks(const unsigned char *d, size_t len, struct blocks *b)
{
	struct record_file_header h;
	size_t off;

	memcpy(&h, d, sizeof(h));
	b->n = 0;
	off = h.header_size >= 128 && h.header_size < len ? h.header_size : 128;
	while (off + 64 <= len && b->n < 256) {
		struct record_block blk;

		memcpy(&blk, d + off, sizeof(blk));
		b->off[b->n++] = off;
		if (blk.size > len - off - 64)
			break;
		off += 64 + blk.size;
	}
}

/* A value that tends to break things. */
static uint64_t nasty(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 63, 64, 65, 0xff, 0xffff, 0x10000, 0x7fffffff,
		0x80000000u, 0xffffffffu, 0x100000000ull, UINT64_MAX,
		UINT64_MAX - 1, UINT64_MAX - 99999999, UINT64_MAX / 2,
		INT64_MAX, (uint64_t)INT64_MIN,
	};

	return below(3) ? v[below(ARRAY_SIZE(v))] : rnd();
}

static uint32_t peek32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void poke(unsigned char *p, size_t width, uint64_t v)
{
	memcpy(p, &v, width);	/* little-endian host: the low bytes */
}

static void mutate_record(unsigned char *r, uint64_t prev_ts)
{
	switch (below(9)) {
	case 0:	/* time near the end of time, or going back */
		poke(r, 8, below(2) ? UINT64_MAX - below(200000000) :
		     prev_ts - below(4000000000ull));
		break;
	case 1:	poke(r, 8, nasty()); break;
	case 2:	poke(r + 8, 4, nasty()); break;		/* event_seq */
	case 3:	r[12] = (uint8_t)rnd(); break;		/* type */
	case 4:	r[13] = (uint8_t)rnd(); break;		/* state */
	case 5:	r[14 + below(2)] = (uint8_t)rnd(); break;	/* prio */
	case 6:	poke(r + 16 + 4 * below(4), 4, nasty()); break;	/* ids */
	default:	/* comm, comm2: any bytes, no NUL */
		for (int i = 0; i < 32; i++)
			if (below(2))
				r[32 + i] = (uint8_t)rnd();
		break;
	}
}

static size_t mutate(unsigned char *d, size_t len, size_t cap)
{
	struct blocks b;
	unsigned char *p;
	size_t bo, bsz;

	find_blocks(d, len, &b);
	if (!b.n)
		return len;
	bo = b.off[below(b.n)];
	p = d + bo;
	bsz = 64 + (size_t)peek32(p + 8);
	if (bo + bsz > len)
		bsz = len - bo;
	switch (below(12)) {
	case 0: {	/* the file header */
		static const size_t fields[][2] = {
			{ 8, 4 }, { 12, 4 }, { 20, 2 }, { 22, 2 }, { 24, 4 },
			{ 28, 4 }, { 32, 4 }, { 36, 4 }, { 48, 8 }, { 56, 8 },
			{ 64, 8 },
		};
		size_t k = below(ARRAY_SIZE(fields));

		poke(d + fields[k][0], fields[k][1],
		     fields[k][0] == 8 ? below(4) : nasty());
		break;
	}
	case 1: {	/* a block header field */
		static const size_t fields[][2] = {
			{ 4, 2 }, { 6, 2 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
			{ 40, 8 }, { 48, 4 }, { 52, 4 }, { 56, 8 },
		};
		size_t k = below(ARRAY_SIZE(fields));

		poke(p + fields[k][0], fields[k][1],
		     fields[k][0] == 6 && below(2) ? below(8) :
		     fields[k][0] == 4 && below(2) ? below(8) : nasty());
		break;
	}
	case 2:	/* counts going down */
		poke(p + 32 + 8 * below(2), 8, below(3));
		break;
	case 3:	/* the size and nrec together */
		poke(p + 52, 4, below(12));
		poke(p + 8, 4, 64 * (uint64_t)peek32(p + 52));
		break;
	case 4:	/* a block twice */
		if (len + bsz <= cap) {
			memmove(p + bsz, p, len - bo);
			len += bsz;
		}
		break;
	case 5:	/* a block gone */
		memmove(p, p + bsz, len - bo - bsz);
		len -= bsz;
		break;
	case 6:	/* cut anywhere */
		len = below(len + 1);
		break;
	case 7:
	case 8: {	/* two blocks swapped */
		size_t o2 = b.off[below(b.n)], s2, lo, hi, slo, shi;
		unsigned char *tmp;

		if (o2 == bo)
			break;
		s2 = 64 + (size_t)peek32(d + o2 + 8);
		if (o2 + s2 > len)
			break;
		lo = bo < o2 ? bo : o2;
		hi = bo < o2 ? o2 : bo;
		slo = bo < o2 ? bsz : s2;
		shi = bo < o2 ? s2 : bsz;
		if (lo + slo > hi)
			break;
		tmp = xmalloc(hi + shi - lo);
		memcpy(tmp, d + hi, shi);
		memcpy(tmp + shi, d + lo + slo, hi - lo - slo);
		memcpy(tmp + shi + hi - lo - slo, d + lo, slo);
		memcpy(d + lo, tmp, hi + shi - lo);
		free(tmp);
		break;
	}
	default: {	/* a record of a DATA block */
		uint32_t n = (uint32_t)((bsz - 64) / 64);

		if ((p[4] | p[5] << 8) == RECORD_DATA && n) {
			uint32_t i = (uint32_t)below(n);
			uint64_t prev;

			memcpy(&prev, p + 64 + 64 * (i ? i - 1 : 0), 8);
			mutate_record(p + 64 + 64 * i, prev);
		}
		break;
	}
	}
	return len;
}

/* Every CRC right again, so the damage gets past them: by the rule of
 * the format version the file says it is (record_format.h). */
static void fix_crcs(unsigned char *d, size_t len)
{
	struct record_file_header h;
	struct blocks b;

	if (len < sizeof(h))
		return;
	memcpy(&h, d, sizeof(h));
	h.crc = record_header_crc(&h);
	memcpy(d, &h, sizeof(h));
	find_blocks(d, len, &b);
	for (size_t i = 0; i < b.n; i++) {
		struct record_block blk;
		size_t size;

		memcpy(&blk, d + b.off[i], sizeof(blk));
		size = blk.size <= len - b.off[i] - 64 ? blk.size :
		       len - b.off[i] - 64;
		blk.crc = record_block_crc_v(h.version, &blk, d + b.off[i] + 64,
					     size);
		memcpy(d + b.off[i], &blk, sizeof(blk));
	}
}

/* Did the readers' check of the file get past its first DATA block
 * (records of it reach them)? */
static bool reaches_records(const char *path)
{
	struct record_reader rd;
	bool past;

	past = record_reader_open(&rd, path) == 0 && rd.records > 0;
	record_reader_close(&rd);
	return past;
}

/* The time the file's own timestamps span (what a slice may last). */
static uint64_t span_of(const unsigned char *d, size_t len)
{
	struct record_file_header h;
	struct blocks b;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, d, sizeof(h));
	lo = hi = h.start_mono_ns;
	find_blocks(d, len, &b);
	for (size_t i = 0; i < b.n; i++) {
		struct record_block blk;
		size_t end;

		memcpy(&blk, d + b.off[i], sizeof(blk));
		lo = blk.ts < lo ? blk.ts : lo;
		hi = blk.ts > hi ? blk.ts : hi;
		end = b.off[i] + 64 + blk.size;
		for (size_t o = b.off[i] + 64; o + 64 <= end && o + 64 <= len;
		     o += 64) {
			uint64_t t;

			memcpy(&t, d + o, 8);
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
	}
	return hi - lo;
}

/* The longest "dur" in the JSON, in ns. */
static uint64_t longest_slice(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[8192];
	uint64_t most = 0;

	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f)) {
		const char *p = strstr(buf, "\"dur\":");
		unsigned long long us, frac;

		if (p && sscanf(p + 6, "%llu.%llu", &us, &frac) == 2 &&
		    us * 1000 + frac > most)
			most = us * 1000 + frac;
	}
	fclose(f);
	return most;
}

/* The CTF export's directory and its files (no rm -rf: no fork a case). */
static void remove_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(path);
}

/* Where the TAP lines go while standard output is /dev/null. */
static int report_fd = STDOUT_FILENO;

static void on_alarm(int sig)
{
	char msg[200];
	int n;

	n = snprintf(msg, sizeof(msg), "not ok - fuzz case %lu (FUZZ_SEED=%llu)"
		     ": %s still running after %d s%s\n", current_case, seed,
		     current_reader,
		     sig == SIGPROF ? FUZZ_TIMEOUT : FUZZ_WALL_TIMEOUT,
		     sig == SIGPROF ? " of CPU time" : "");
	if (write(report_fd, msg, (size_t)n) < 0)
		_exit(3);
	_exit(1);
}

/* ---- the readers ---------------------------------------------------- */

static FILE *null_out;

static int read_check(void)
{
	return check_recording(rec_path, null_out);
}

static int read_dump(void)
{
	return dump_recording(rec_path, null_out);
}

static int read_report(void)
{
	struct filter f = { 0 };

	return report_recording(rec_path, &f, null_out);
}

/* --replay -b --tasks --latency: the batch blocks go to standard output,
 * which is /dev/null here. */
static int read_replay(void)
{
	struct options o = { .replay = rec_path, .interval = 1, .batch = true,
			     .tasks = true, .latency = true };
	int status = top_run(&o);

	fflush(stdout);
	return status;
}

static int read_ctf(void)
{
	int status = export_ctf(rec_path, ctf_path);

	remove_dir(ctf_path);
	return status;
}

static int read_perfetto(void)
{
	return export_perfetto(rec_path, json_path);
}

static const struct {
	const char *name;
	int (*run)(void);
} readers[] = {
	{ "--check", read_check }, { "--dump", read_dump },
	{ "--report", read_report }, { "--replay -b", read_replay },
	{ "--export-ctf", read_ctf }, { "--export-perfetto", read_perfetto },
};

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t reader_cpu_ns[ARRAY_SIZE(readers)];

/* One reader on the case's file, bounded in time: its status. */
static int run_reader(size_t i)
{
	uint64_t t0 = cpu_ns();
	int status;

	current_reader = readers[i].name;
	setitimer(ITIMER_PROF, &(struct itimerval) {
		.it_value = { .tv_sec = FUZZ_TIMEOUT } }, NULL);
	alarm(FUZZ_WALL_TIMEOUT);
	status = readers[i].run();
	alarm(0);
	setitimer(ITIMER_PROF, &(struct itimerval) { 0 }, NULL);
	reader_cpu_ns[i] += cpu_ns() - t0;
	return status;
}

static void test_fuzz(void)
{
	unsigned long cases = getenv("FUZZ_CASES") ?
			      strtoul(getenv("FUZZ_CASES"), NULL, 10) : 3000;
	size_t cap = base_len * 3 + 4096;
	unsigned char *d = xmalloc(cap);
	unsigned long long_slices = 0, reached = 0;
	unsigned long read_ok[ARRAY_SIZE(readers)] = { 0 };
	int saved_err = dup(STDERR_FILENO), saved_out = dup(STDOUT_FILENO);
	int devnull;

	null_out = fopen("/dev/null", "w");
	devnull = fileno(null_out);
	report_fd = saved_out;
	signal(SIGALRM, on_alarm);
	signal(SIGPROF, on_alarm);
	if (__sanitizer_set_report_fd)
		__sanitizer_set_report_fd((void *)(intptr_t)saved_err);
	fflush(stdout);
	fflush(stderr);
	dup2(devnull, STDOUT_FILENO);		/* the replay's blocks */
	if (!getenv("FUZZ_VERBOSE"))
		dup2(devnull, STDERR_FILENO);	/* the readers' complaints */
	for (current_case = 0; current_case < cases; current_case++) {
		if (getenv("FUZZ_VERBOSE"))
			dprintf(saved_err, "case %lu\n", current_case);
		size_t len = base_len;
		unsigned int muts = 1 + (unsigned int)below(4);
		FILE *f;
		uint64_t span, slice;

		memcpy(d, base, base_len);
		for (unsigned int m = 0; m < muts; m++)
			len = mutate(d, len, cap);
		fix_crcs(d, len);
		f = fopen(rec_path, "wb");
		if (fwrite(d, 1, len, f) != len)
			exit(2);
		fclose(f);
		reached += reaches_records(rec_path);
		for (size_t i = 0; i < ARRAY_SIZE(readers); i++)
			read_ok[i] += run_reader(i) == 0;
		span = span_of(d, len);
		slice = longest_slice(json_path);
		if (slice > span && ++long_slices < 4)
			dprintf(saved_out, "# case %lu: a slice of %" PRIu64
				" ns in a recording spanning %" PRIu64 " ns\n",
				current_case, slice, span);
		unlink(json_path);
	}
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	report_fd = STDOUT_FILENO;
	fclose(null_out);
	test_msg("%lu cases (FUZZ_SEED=%llu) for each reader; %lu got past "
		 "their first DATA block into the records", cases, seed,
		 reached);
	for (size_t i = 0; i < ARRAY_SIZE(readers); i++)
		test_msg("%-18s read %lu cases without an error, refused %lu "
			 "(%.1f s of CPU time)", readers[i].name, read_ok[i],
			 cases - read_ok[i], (double)reader_cpu_ns[i] / 1e9);
	check_uint(long_slices, ==, 0);
	/* the damage reaches the records in most cases, not a few */
	check_uint(2 * reached, >, cases);
	free(d);
}

int main(void)
{
	seed = getenv("FUZZ_SEED") ? strtoull(getenv("FUZZ_SEED"), NULL, 10) :
	       (unsigned long long)(mono_ns() ^ (uint64_t)getpid());
	rng = seed ? seed : 1;
	printf("# seed %llu (FUZZ_SEED=%llu repeats this run)\n", seed, seed);
	dir_used = mkdtemp(dir);
	if (!dir_used)
		dir_used = mkdtemp(dir_tmp);
	if (!dir_used)
		return 2;
	snprintf(rec_path, sizeof(rec_path), "%s/rec", dir_used);
	snprintf(json_path, sizeof(json_path), "%s/out.json", dir_used);
	snprintf(ctf_path, sizeof(ctf_path), "%s/ctf", dir_used);
	make_base();
	TEST(test_fuzz(), "damaged recordings with valid CRCs, through every reader: no crash, hang or absurd slice; most reach the records");
	free(base);
	unlink(rec_path);
	rmdir(dir_used);
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_sched_relay - pins that every writable control file of
 * /sys/kernel/sched_relay (enabled, events, overwrite, subbuf_size,
 * n_subbufs, wakeup_subbufs, reset) answers thousands of seeded random writes (random
 * bytes, numbers, boundary values, long strings, truncated values) with
 * success or one of the documented errnos (EINVAL, ERANGE, E2BIG, ENOMEM),
 * and that a refused write leaves the state (every readable control file,
 * generation included) exactly as it was.
 *
 *   fuzz_sched_relay [SEED [WRITES [GUARD_SECONDS]]]
 *
 * Makes WRITES writes (5000 unless told), however long a loaded machine
 * takes for them: how much is fuzzed must not depend on the machine's
 * speed.  GUARD_SECONDS (600 unless told) only catches a hang: a run that
 * has not finished by then stops and fails.  Prints the seed so that a
 * failure can be replayed.  Expects sched_relay to be loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test-lib.h"

#define SR_DIR "/sys/kernel/sched_relay/"

static const char *const writable[] = {
	"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
	"wakeup_subbufs", "reset",
};
static const char *const readable[] = {
	"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
	"wakeup_subbufs", "generation",
};
#define N_WRITABLE (sizeof(writable) / sizeof(writable[0]))
#define N_READABLE (sizeof(readable) / sizeof(readable[0]))

struct state {
	char val[N_READABLE][256];
};

struct tally {
	unsigned long ok, einval, erange, e2big, enomem, other;
};

static int read_file(const char *name, char *buf, size_t size)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SR_DIR "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int snapshot(struct state *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < N_READABLE; i++)
		if (read_file(readable[i], s->val[i], sizeof(s->val[i])))
			return -1;
	return 0;
}

/* One write(2): 0 or -errno. */
static int write_file(const char *name, const char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), SR_DIR "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return test_rand(&rng_state);
}

static const char *const tokens[] = {
	"0", "1", "2", "-1", "+1", " 1", "1 ", "1\n", "1\n\n", "\n", "0x3f",
	"0x40", "63", "64", "all", "none", "switch", "wakeup", "wakeup_new",
	"migrate", "fork", "exit", "switch,wakeup", "fork exit", "bogus",
	"4096", "4095", "8192", "65536", "4194304", "8388608", "256", "257",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999", "0x", "08", "1e3", "1\0", "\0",
};

/* Build a random value in @buf; its length. */
static size_t make_value(char *buf, size_t size)
{
	size_t len = 0, n;

	switch (rnd() % 6) {
	case 0:	/* random bytes */
		n = rnd() % 64;
		for (len = 0; len < n; len++)
			buf[len] = (char)rnd();
		break;
	case 1:	/* a random number, maybe negative, maybe hex */
		len = (size_t)snprintf(buf, size, rnd() % 2 ? "%" PRIu64 "%s" : "0x%" PRIx64 "%s",
				       rnd() >> (rnd() % 64), rnd() % 2 ? "\n" : "");
		break;
	case 2:	/* a boundary or known token */
	case 3: {
		const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];

		len = strlen(t);
		if (!len)
			len = 1;	/* "\0": one NUL byte */
		memcpy(buf, t, len);
		break;
	}
	case 4:	/* a long string, up to and beyond a page */
		n = rnd() % 3 == 0 ? 4096 + rnd() % 100 : rnd() % 4200;
		if (n >= size)
			n = size - 1;
		memset(buf, "1a ,\n"[rnd() % 5], n);
		len = n;
		break;
	default: {	/* a truncated token: a partial write */
		const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];
		size_t tl = strlen(t);

		len = tl ? rnd() % tl : 0;
		memcpy(buf, t, len);
		break;
	}
	}
	return len;
}

/* Keep the geometry small: big re-creations are slow under KASAN. */
static void restore_defaults(void)
{
	write_file("n_subbufs", "8", 1);
	write_file("subbuf_size", "65536", 5);
	write_file("enabled", "1", 1);
	write_file("events", "all", 3);
	write_file("overwrite", "0", 1);
	write_file("wakeup_subbufs", "1", 1);
}

static unsigned long iterations, refused, bad_errno, changed_on_error;
static struct tally tally;

static void fuzz(uint64_t seed, unsigned long max_iter, unsigned int max_secs)
{
	static char buf[8192];
	struct state before, after;
	time_t end = time(NULL) + max_secs;

	rng_state = seed ? seed : 1;
	for (iterations = 0; iterations < max_iter && time(NULL) < end; iterations++) {
		const char *file = writable[rnd() % N_WRITABLE];
		size_t len = make_value(buf, sizeof(buf));
		int err;

		if (snapshot(&before)) {
			test_msg("cannot read the control files: %s", strerror(errno));
			bad_errno++;
			return;
		}
		err = write_file(file, buf, len);
		switch (-err) {
		case 0: tally.ok++; break;
		case EINVAL: tally.einval++; break;
		case ERANGE: tally.erange++; break;
		case E2BIG: tally.e2big++; break;
		case ENOMEM: tally.enomem++; break;
		default:
			tally.other++;
			bad_errno++;
			test_msg("iteration %lu: %s (%zu bytes) gave %s", iterations, file,
				 len, strerror(-err));
		}
		if (err) {
			refused++;
			snapshot(&after);
			/* ENOMEM may re-create the old geometry and bump generation. */
			if (err != -ENOMEM && memcmp(&before, &after, sizeof(before))) {
				changed_on_error++;
				test_msg("iteration %lu: refused write to %s changed the state",
					 iterations, file);
			}
		}
		if (iterations % 64 == 63)
			restore_defaults();
	}
	restore_defaults();
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (uint64_t)time(NULL);
	unsigned long max_iter = argc > 2 ? strtoul(argv[2], NULL, 0) : 5000;
	unsigned int max_secs = argc > 3 ? (unsigned int)strtoul(argv[3], NULL, 0) : 600;

	printf("# fuzz seed %" PRIu64 " (replay: fuzz_sched_relay %" PRIu64 " %lu %u)\n",
	       seed, seed, max_iter, max_secs);
	fuzz(seed, max_iter, max_secs);
	printf("# fuzz: %lu iterations, %lu refused; ok %lu EINVAL %lu ERANGE %lu "
	       "E2BIG %lu ENOMEM %lu other %lu\n", iterations, refused, tally.ok,
	       tally.einval, tally.erange, tally.e2big, tally.enomem, tally.other);
	TEST(check_uint(iterations, ==, max_iter),
	     "the fuzzer made all %lu writes within the %u s hang guard", max_iter, max_secs);
	TEST(check_uint(bad_errno, ==, 0), "every refused write gave a documented errno");
	TEST(check_uint(changed_on_error, ==, 0), "no refused write changed the state");
	TEST(check(tally.ok > 0 && refused > 0), "writes were both accepted and refused");
	return test_done();
}

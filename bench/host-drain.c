// SPDX-License-Identifier: GPL-2.0
/*
 * host-drain.c - a host microbenchmark of relaytop's drain path: the CPU
 * time relaytop spends per event to read a channel's buffers, record
 * them and hand the sub-buffers back, with nothing but that running.
 *
 * A fake channel (tests/unit/fake-channel.c: regular files mapped shared,
 * written by a model of the kernel's relay and the sched_relay module)
 * of the default geometry is filled by the producers, then relaytop's
 * live mode (top.c over live_source.c, as --record FILE with no screen,
 * started by tests/unit/fake-session.c) drains it; only the drain is
 * timed (CPU time of the process).  The hand-back writes "n\n" to
 * /dev/null before telling the fake relay, so it costs the system call
 * the real one costs.  The output is one line
 * per mode:
 *
 *   drain no-overwrite: 16777216 events, 52.1 ns/event, ...
 *
 * Built by `make -C relaytop bench-host`, run by `make bench-host`.
 * Arguments: [events per CPU] [record file] (default 4194304, /dev/null).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "fake-session.h"
#include "top.h"

#define NCPUS		4
#define SUBBUF_SIZE	(64u << 10)
#define N_SUBBUFS	8u

static int null_fd = -1;

/* The real hand-back is a write() to the buffer file: pay for one. */
static int give_back(void *cc, uint64_t n)
{
	char text[32];
	int len = snprintf(text, sizeof(text), "%" PRIu64 "\n", n);

	if (write(null_fd, text, (size_t)len) != len)
		return -5;
	return fake_channel_give_back(cc, n);
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int run(bool overwrite, uint64_t per_cpu, const char *record)
{
	struct fake_session s;
	uint64_t spent = 0, events = 0, chunk, t0;
	uint32_t cap;

	memset(&s, 0, sizeof(s));
	s.opt.record = record;
	if (!fake_session_start(&s, NCPUS, SUBBUF_SIZE, N_SUBBUFS, overwrite,
				OUT_NONE)) {
		fprintf(stderr, "host-drain: cannot create a fake channel\n");
		return 1;
	}
	s.t.live.give_back = give_back;
	/* three sub-buffers a CPU between drains: what a wake-up per
	 * sub-buffer, a little late, finds */
	cap = fake_relay_capacity(&s.fc.relay[0]);
	chunk = 3ull * cap;
	for (uint64_t done = 0; done < per_cpu; done += chunk) {
		for (unsigned int c = 0; c < NCPUS; c++)
			fake_relay_events(&s.fc.relay[c], chunk);
		t0 = cpu_ns();
		top_drain(&s.t);
		if ((done / chunk) % 64 == 63)
			top_tick(&s.t);
		spent += cpu_ns() - t0;
	}
	t0 = cpu_ns();
	top_finish(&s.t);
	spent += cpu_ns() - t0;
	for (unsigned int c = 0; c < NCPUS; c++)
		events += s.fc.relay[c].events;
	printf("drain %s: %" PRIu64 " events, %.1f ns/event, %" PRIu64
	       " recorded, %" PRIu64 " dropped, to %s\n",
	       overwrite ? "overwrite" : "no-overwrite", events,
	       (double)spent / (double)events, s.t.rec ? s.t.rec->records : 0,
	       (uint64_t)(s.fc.relay[0].full + s.fc.relay[1].full +
			  s.fc.relay[2].full + s.fc.relay[3].full), record);
	fake_session_stop(&s);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t per_cpu = argc > 1 ? strtoull(argv[1], NULL, 0) : 4194304;
	const char *record = argc > 2 ? argv[2] : "/dev/null";

	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0) {
		perror("/dev/null");
		return 1;
	}
	if (run(false, per_cpu, record) || run(true, per_cpu, record))
		return 1;
	return 0;
}

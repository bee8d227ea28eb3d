// SPDX-License-Identifier: GPL-2.0
/*
 * t-control.c - pins relaytop/control.c on a fake channel directory: the
 * attributes are read and parsed (geometry, mode, enabled, events,
 * generation), read again from offset 0 after they change, and what
 * changed is reported; only attributes that poll() declares notified
 * (POLLRDBAND) are waited on, and a sysfs channel that declares none says
 * so; a missing geometry attribute, a garbled value or a
 * removed directory each give their own error; writes put exactly what
 * the ABI takes into reset, events, overwrite and enabled; the stats file
 * parses, and a malformed one is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "fake-channel.h"
#include "test-lib.h"

static void test_read(void)
{
	struct fake_channel fc;
	struct control c;
	struct control_state st;
	enum control_attr bad = CTL_NR;
	struct pollfd pfd[CTL_NR];
	int err;

	if (!check(fake_channel_create(&fc, 2, 4096, 8, false)))
		return;
	err = control_open(&c, fc.dir);
	check_int(err, ==, 0);
	err = control_read(&c, &st, &bad);
	check_int(err, ==, 0);
	check_uint(st.geom.subbuf_size, ==, 4096);
	check_uint(st.geom.n_subbufs, ==, 8);
	check_uint(st.generation, ==, 1);
	check(!st.overwrite);
	check(st.enabled);
	check_uint(st.events, ==, SCHED_RELAY_ALL_EVENTS);
	for (int i = 0; i < CTL_NR; i++)
		check(st.have[i]);
	/* plain files declare nothing (no POLLRDBAND): none is polled, and
	 * they are not sysfs, so nothing is said about it either */
	for (int i = 0; i < CTL_NR; i++)
		check(!c.notifies[i]);
	check(!control_fd_notifies(c.fd[CTL_GENERATION]));
	check(!control_fd_notifies(-1));
	check(!control_notified(&c));
	check(!st.unnotified);
	check_uint(control_pollfds(&c, pfd, CTL_NR), ==, 0);
	/* as sysfs attributes that declare nothing, the status says so */
	c.on_sysfs = true;
	err = control_read(&c, &st, &bad);
	check_int(err, ==, 0);
	check(st.unnotified);
	c.on_sysfs = false;
	/* as if declared: 'generation' changes with everything, polling it
	 * is enough */
	for (int i = 0; i < CTL_NR; i++)
		c.notifies[i] = true;
	check(control_notified(&c));
	check_uint(control_pollfds(&c, pfd, CTL_NR), ==, 1);
	check_int(pfd[0].fd, ==, c.fd[CTL_GENERATION]);
	check_int(pfd[0].events, ==, POLLPRI);
	{
		/* a channel without it: every attribute is polled */
		int gen_fd = c.fd[CTL_GENERATION];

		c.fd[CTL_GENERATION] = -1;
		check_uint(control_pollfds(&c, pfd, CTL_NR), ==, CTL_NR - 1);
		check_int(pfd[0].events, ==, POLLPRI);
		/* but only those declared */
		c.notifies[CTL_EVENTS] = false;
		check_uint(control_pollfds(&c, pfd, CTL_NR), ==, CTL_NR - 2);
		c.notifies[CTL_EVENTS] = true;
		c.fd[CTL_GENERATION] = gen_fd;
	}
	/* a declared 'generation' that is not there: the others */
	c.notifies[CTL_GENERATION] = false;
	check_uint(control_pollfds(&c, pfd, CTL_NR), ==, CTL_NR - 1);
	c.notifies[CTL_GENERATION] = true;

	/* a change from another process, read again from offset 0 */
	fc.events = 1u << SCHED_RELAY_SWITCH;
	fc.generation = 2;
	fc.overwrite = true;
	fake_channel_sync_files(&fc);
	{
		struct control_state now;
		unsigned int diff;

		err = control_read(&c, &now, &bad);
		check_int(err, ==, 0);
		diff = control_diff(&st, &now);
		check_uint(diff, ==, (1u << CTL_EVENTS) | (1u << CTL_GENERATION) |
			   (1u << CTL_OVERWRITE));
		check_uint(now.events, ==, 1);
		check(now.overwrite);
	}
	control_close(&c);
	fake_channel_destroy(&fc);
}

static void put(struct fake_channel *fc, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fc->dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_bad_attributes(void)
{
	struct fake_channel fc;
	struct control c;
	struct control_state st;
	enum control_attr bad = CTL_NR;
	char path[128];
	int err;

	if (!check(fake_channel_create(&fc, 1, 4096, 8, false)))
		return;
	control_open(&c, fc.dir);
	put(&fc, "overwrite", "2\n");
	err = control_read(&c, &st, &bad);
	check_int(err, ==, -EINVAL);
	check_int(bad, ==, CTL_OVERWRITE);
	fake_channel_sync_files(&fc);
	put(&fc, "events", "switch bogus\n");
	err = control_read(&c, &st, &bad);
	check_int(err, ==, -EINVAL);
	check_int(bad, ==, CTL_EVENTS);
	fake_channel_sync_files(&fc);
	put(&fc, "subbuf_size", "-4096\n");
	err = control_read(&c, &st, &bad);
	check_int(err, ==, -EINVAL);
	check_int(bad, ==, CTL_SUBBUF_SIZE);
	control_close(&c);
	fake_channel_sync_files(&fc);
	/* no n_subbufs: a channel relaytop cannot map */
	snprintf(path, sizeof(path), "%s/n_subbufs", fc.dir);
	unlink(path);
	control_open(&c, fc.dir);
	err = control_read(&c, &st, &bad);
	check_int(err, ==, -ENOENT);
	check_int(bad, ==, CTL_N_SUBBUFS);
	control_close(&c);
	/* optional attributes may be missing */
	fake_channel_sync_files(&fc);
	snprintf(path, sizeof(path), "%s/enabled", fc.dir);
	unlink(path);
	control_open(&c, fc.dir);
	err = control_read(&c, &st, &bad);
	check_int(err, ==, 0);
	check(!st.have[CTL_ENABLED]);
	control_close(&c);
	fake_channel_destroy(&fc);
	err = control_open(&c, "/nonexistent/channel");
	check_int(err, ==, -ENOENT);
}

/* What a write left at the start of a regular file (sysfs has no rest). */
static const char *written(struct fake_channel *fc, const char *name)
{
	static char line[256];
	const char *text = fake_channel_read(fc, name);
	size_t len = strcspn(text, "\n");

	snprintf(line, sizeof(line), "%.*s\n", (int)len, text);
	return line;
}

static void test_writes(void)
{
	struct fake_channel fc;
	struct control c;
	int err;

	if (!check(fake_channel_create(&fc, 1, 4096, 8, false)))
		return;
	control_open(&c, fc.dir);
	err = control_reset(&c);
	check_int(err, ==, 0);
	check_str(written(&fc, "reset"), "1\n");
	err = control_set_events(&c, 0x3d);
	check_int(err, ==, 0);
	check_str(written(&fc, "events"), "0x3d\n");
	err = control_set_overwrite(&c, true);
	check_int(err, ==, 0);
	check_str(written(&fc, "overwrite"), "1\n");
	err = control_set_enabled(&c, false);
	check_int(err, ==, 0);
	check_str(written(&fc, "enabled"), "0\n");
	err = control_write(&c, "no-such-attribute", "1\n");
	check_int(err, ==, -ENOENT);
	control_close(&c);
	fake_channel_destroy(&fc);
}

static void test_stats_arrays(void)
{
	struct control_cpu_stats cs[4];
	struct fake_channel fc;
	char path[256];
	struct control c;
	uint64_t v[4];
	FILE *f;
	int n;

	n = control_parse_array("100 5 0 4160\n", v, 4);
	check_int(n, ==, 4);
	check_uint(v[0], ==, 100);
	check_uint(v[3], ==, 4160);
	n = control_parse_array("18446744073709551615\n", v, 4);
	check_int(n, ==, 1);
	check_uint(v[0], ==, UINT64_MAX);
	n = control_parse_array("\n", v, 4);
	check_int(n, ==, 0);
	n = control_parse_array("1 2 3 4 5 6\n", v, 4);
	check_int(n, ==, 4);		/* cut at max */
	check_int(control_parse_array("", v, 4), ==, -EINVAL);
	check_int(control_parse_array("1 2", v, 4), ==, -EINVAL);	/* no newline */
	check_int(control_parse_array("1  2\n", v, 4), ==, -EINVAL);
	check_int(control_parse_array(" 1\n", v, 4), ==, -EINVAL);
	check_int(control_parse_array("1 -2\n", v, 4), ==, -EINVAL);
	check_int(control_parse_array("1 x\n", v, 4), ==, -EINVAL);
	check_int(control_parse_array("1\n2\n", v, 4), ==, -EINVAL);	/* two lines */
	/* the old table is not an array */
	check_int(control_parse_array("cpu produced dropped\n0 1 2\n", v, 4),
		  ==, -EINVAL);

	/* the five files of a channel directory, value N is CPU N's */
	if (!check(fake_channel_create(&fc, 3, 4096, 4, false)))
		return;
	if (check_int(control_open(&c, fc.dir), ==, 0)) {
		fc.relay[2].events = 7;
		fc.relay[1].full = 3;
		fake_channel_sync_files(&fc);
		n = control_read_stats(&c, cs, 4);
		check_int(n, ==, 3);
		check_uint(cs[2].cpu, ==, 2);
		check_uint(cs[2].produced, ==, 7);
		check_uint(cs[1].dropped, ==, 3);
		/* arrays of different lengths are refused */
		snprintf(path, sizeof(path), "%s/stats/dropped", fc.dir);
		f = fopen(path, "w");
		if (check(f != NULL)) {
			fputs("1 2\n", f);
			fclose(f);
			check_int(control_read_stats(&c, cs, 4), ==, -EINVAL);
		}
		control_close(&c);
	}
	fake_channel_destroy(&fc);
}

int main(void)
{
	TEST(test_read(), "attributes are read, re-read after a change, and diffed");
	TEST(test_bad_attributes(), "bad or missing attributes are named");
	TEST(test_writes(), "writes put what the ABI takes into the attributes");
	TEST(test_stats_arrays(), "stats/ arrays parse, value N for CPU N; malformed or uneven is refused");
	return test_done();
}

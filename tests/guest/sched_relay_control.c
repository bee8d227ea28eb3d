// SPDX-License-Identifier: GPL-2.0
/*
 * sched_relay_control - pins the control files of /sys/kernel/sched_relay as
 * docs/ABI/testing/sysfs-kernel-sched_relay documents them: the files and
 * their modes; each control file takes its documented values (read back as
 * documented) and refuses bad ones with the documented errno from write(2)
 * (EINVAL for malformed, out-of-range, empty or NUL-carrying input, ERANGE
 * for overflow, E2BIG for a page or more, ENOMEM for buffers the machine
 * cannot spare) leaving the value and generation unchanged; every change
 * bumps generation by exactly one and rewriting the current value by none;
 * read-only files refuse writes; only root may write or open the buffers;
 * a buffer maps only at the current geometry.
 *
 * Needs the module loaded and root.
 */
#define _GNU_SOURCE
#include "sched_relay_test.h"

#define ALL_NAMES "switch wakeup wakeup_new migrate fork exit waking"

struct accept_case {
	const char *file;
	const char *input;
	const char *reads_back;		/* expected value afterwards */
};

struct refuse_case {
	const char *file;
	const char *input;
	size_t len;			/* 0: strlen(input) */
	int err;			/* errno of write(2) */
};

static const struct accept_case accepted[] = {
	{ "enabled", "1", "1" },
	{ "enabled", "1\n", "1" },		/* same value: no change */
	{ "enabled", "0\n", "0" },
	{ "overwrite", "1", "1" },
	{ "overwrite", "0\n", "0" },
	{ "events", "none", "" },
	{ "events", "all\n", ALL_NAMES },
	{ "events", "fork,exit", "fork exit" },
	{ "events", "exit switch\n", "switch exit" },
	{ "events", "switch, wakeup", "switch wakeup" },
	{ "events", "wakeup_new", "wakeup_new" },
	{ "events", "0x3", "switch wakeup" },
	{ "events", "12\n", "wakeup_new migrate" },
	{ "events", "0x0", "" },
	{ "events", "waking,wakeup", "wakeup waking" },
	{ "events", "0x40", "waking" },
	{ "events", "0X7F", ALL_NAMES },
	{ "events", "127", ALL_NAMES },		/* same value: no change */
	{ "subbuf_size", "4096", "4096" },
	{ "subbuf_size", "4194304\n", "4194304" },
	{ "subbuf_size", "8192", "8192" },
	{ "n_subbufs", "2", "2" },
	{ "n_subbufs", "256\n", "256" },
	{ "n_subbufs", "8", "8" },
	{ "subbuf_size", "65536", "65536" },
	{ "wakeup_subbufs", "4", "4" },
	{ "wakeup_subbufs", "256\n", "256" },	/* above n_subbufs: when full */
	{ "wakeup_subbufs", "256", "256" },	/* same value: no change */
	{ "wakeup_subbufs", "1", "1" },
};

static const struct refuse_case refused[] = {
	{ "enabled", "2", 0, EINVAL },
	{ "enabled", "-1", 0, EINVAL },
	{ "enabled", "\n", 0, EINVAL },
	{ "enabled", " 1", 0, EINVAL },
	{ "enabled", "1 ", 0, EINVAL },
	{ "enabled", "1\n\n", 0, EINVAL },
	{ "enabled", "yes", 0, EINVAL },
	{ "enabled", "0x1", 0, EINVAL },
	{ "enabled", "1x", 0, EINVAL },
	{ "enabled", "1\0", 2, EINVAL },
	{ "enabled", "99999999999999999999", 0, ERANGE },
	{ "enabled", "+1", 0, EINVAL },		/* a sign: kstrto*() took it */
	{ "overwrite", "2", 0, EINVAL },
	{ "overwrite", "true", 0, EINVAL },
	{ "overwrite", "\n", 0, EINVAL },
	{ "events", "bogus", 0, EINVAL },
	{ "events", "switch,bogus", 0, EINVAL },
	{ "events", "Switch", 0, EINVAL },
	{ "events", "switch\n\n", 0, EINVAL },
	{ "events", "\n", 0, EINVAL },
	{ "events", ",", 0, EINVAL },
	{ "events", "0x80", 0, EINVAL },
	{ "events", "128", 0, EINVAL },
	{ "events", "-1", 0, EINVAL },
	{ "events", "0x", 0, EINVAL },
	{ "events", "+0x3", 0, EINVAL },
	{ "events", "+3", 0, EINVAL },
	{ "events", "7f", 0, EINVAL },
	{ "events", "all\0", 4, EINVAL },
	{ "events", "0x100000000", 0, ERANGE },
	{ "subbuf_size", "4095", 0, EINVAL },
	{ "subbuf_size", "6000", 0, EINVAL },
	{ "subbuf_size", "2048", 0, EINVAL },
	{ "subbuf_size", "0", 0, EINVAL },
	{ "subbuf_size", "8388608", 0, EINVAL },
	{ "subbuf_size", "64k", 0, EINVAL },
	{ "subbuf_size", "-4096", 0, EINVAL },
	{ "subbuf_size", "0x1000", 0, EINVAL },
	{ "subbuf_size", " 4096", 0, EINVAL },
	{ "subbuf_size", "+4096", 0, EINVAL },
	{ "subbuf_size", "\n", 0, EINVAL },
	{ "subbuf_size", "99999999999999999999999", 0, ERANGE },
	{ "n_subbufs", "1", 0, EINVAL },
	{ "n_subbufs", "0", 0, EINVAL },
	{ "n_subbufs", "257", 0, EINVAL },
	{ "n_subbufs", "8x", 0, EINVAL },
	{ "n_subbufs", "-8", 0, EINVAL },
	{ "n_subbufs", "+4", 0, EINVAL },
	{ "wakeup_subbufs", "0", 0, EINVAL },
	{ "wakeup_subbufs", "257", 0, EINVAL },
	{ "wakeup_subbufs", "4x", 0, EINVAL },
	{ "wakeup_subbufs", "-1", 0, EINVAL },
	{ "wakeup_subbufs", "+4", 0, EINVAL },
	{ "wakeup_subbufs", " 4", 0, EINVAL },
	{ "wakeup_subbufs", "\n", 0, EINVAL },
	{ "wakeup_subbufs", "4\0", 2, EINVAL },
	{ "wakeup_subbufs", "99999999999999999999", 0, ERANGE },
	{ "reset", "0", 0, EINVAL },
	{ "reset", "2", 0, EINVAL },
	{ "reset", "+1", 0, EINVAL },
	{ "reset", "true", 0, EINVAL },
	{ "reset", "\n", 0, EINVAL },
	{ "reset", "1\0", 2, EINVAL },
};

/* The value of @file, "-" for the write-only reset. */
static const char *value_of(const char *file, char *buf, size_t size)
{
	if (!strcmp(file, "reset")) {
		snprintf(buf, size, "-");
		return buf;
	}
	return sr_value(file, buf, size);
}

static void test_files_and_modes(void)
{
	static const struct {
		const char *name;
		mode_t mode;
	} files[] = {
		{ "buffers", 040755 }, { "buffers/cpu0", 0100600 },
		{ "enabled", 0100644 }, { "events", 0100644 },
		{ "overwrite", 0100644 }, { "subbuf_size", 0100644 },
		{ "n_subbufs", 0100644 }, { "wakeup_subbufs", 0100644 },
		{ "reset", 0100200 },
		{ "generation", 0100444 }, { "stats", 040755 },
		{ "stats/produced", 0100444 }, { "stats/dropped", 0100444 },
		{ "stats/subbufs_produced", 0100444 },
		{ "stats/subbufs_consumed", 0100444 },
		{ "stats/fill_bytes", 0100444 },
		{ "stats/wakeups", 0100444 },
	};
	char path[128], name[32];
	struct stat sb;
	int err;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		err = stat(sr_path(files[i].name, path, sizeof(path)), &sb);
		if (!check_int(err, ==, 0)) {
			test_msg("%s: %s", path, strerror(errno));
			continue;
		}
		/* the type too: buffers/ and stats/ are directories */
		if (!check_int(sb.st_mode & (S_IFMT | 07777), ==, files[i].mode))
			test_msg("mode of %s", files[i].name);
		check_int(sb.st_uid, ==, 0);
	}
	for (int cpu = 0; cpu < sr_nr_buffers(); cpu++) {
		snprintf(name, sizeof(name), "buffers/cpu%d", cpu);
		err = stat(sr_path(name, path, sizeof(path)), &sb);
		if (check_int(err, ==, 0))
			check_int(sb.st_mode & 07777, ==, 0600);
	}
}

static void test_defaults(void)
{
	char buf[128];

	check_str(sr_value("enabled", buf, sizeof(buf)), "1");
	check_str(sr_value("events", buf, sizeof(buf)), ALL_NAMES);
	check_str(sr_value("overwrite", buf, sizeof(buf)), "0");
	check_str(sr_value("subbuf_size", buf, sizeof(buf)), "65536");
	check_str(sr_value("n_subbufs", buf, sizeof(buf)), "8");
	check_str(sr_value("wakeup_subbufs", buf, sizeof(buf)), "1");
	check_uint(sr_read_u64("generation"), ==, 1);
}

static void test_accepted_values(void)
{
	char before[256], after[256];

	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		const struct accept_case *c = &accepted[i];
		uint64_t gen = sr_read_u64("generation");
		bool same;
		int err;

		value_of(c->file, before, sizeof(before));
		same = !strcmp(before, c->reads_back);
		err = sr_write(c->file, c->input);
		if (!check_int(err, ==, 0)) {
			test_msg("writing '%s' to %s: %s", c->input, c->file,
				 strerror(-err));
			continue;
		}
		if (!check_str(value_of(c->file, after, sizeof(after)), c->reads_back))
			test_msg("after writing '%s' to %s", c->input, c->file);
		if (!check_uint(sr_read_u64("generation"), ==, gen + !same))
			test_msg("generation after writing '%s' to %s (%s before)",
				 c->input, c->file, same ? "same value" : "a change");
	}
}

static void test_reset_accepts_one(void)
{
	uint64_t gen = sr_read_u64("generation");
	int err;

	err = sr_write("reset", "1");
	check_int(err, ==, 0);
	check_uint(sr_read_u64("generation"), ==, gen + 1);
	err = sr_write("reset", "1\n");
	check_int(err, ==, 0);
	check_uint(sr_read_u64("generation"), ==, gen + 2);
}

static void test_refused_values(void)
{
	char before[256], after[256];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const struct refuse_case *c = &refused[i];
		size_t len = c->len ? c->len : strlen(c->input);
		uint64_t gen = sr_read_u64("generation");
		int err;

		value_of(c->file, before, sizeof(before));
		err = sr_write_buf(c->file, c->input, len);
		if (!check_int(err, ==, -c->err))
			test_msg("writing '%s' (%zu bytes) to %s gave %s", c->input,
				 len, c->file, err ? strerror(-err) : "success");
		if (!check_str(value_of(c->file, after, sizeof(after)), before))
			test_msg("%s changed by '%s'", c->file, c->input);
		check_uint(sr_read_u64("generation"), ==, gen);
	}
}

static void test_empty_and_huge_writes(void)
{
	static const char *const files[] = {
		"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
		"wakeup_subbufs", "reset",
	};
	char before[256], after[256], huge[5000];

	memset(huge, '1', sizeof(huge));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		uint64_t gen = sr_read_u64("generation");
		int empty, over, page, under;

		value_of(files[i], before, sizeof(before));
		/* Zero bytes: sysfs returns 0 and the module never sees it. */
		empty = sr_write_buf(files[i], "", 0);
		/* sysfs passes at most a page on: a full page is refused too. */
		over = sr_write_buf(files[i], huge, sizeof(huge));
		page = sr_write_buf(files[i], huge, 4096);
		under = sr_write_buf(files[i], huge, 4095);
		if (!check_int(empty, ==, 0) || !check_int(over, ==, -E2BIG) ||
		    !check_int(page, ==, -E2BIG) || !check_int(under, ==, -ERANGE))
			test_msg("writing to %s", files[i]);
		check_str(value_of(files[i], after, sizeof(after)), before);
		check_uint(sr_read_u64("generation"), ==, gen);
	}
}

static void test_too_much_memory(void)
{
	char buf[64];
	uint64_t gen;
	int err;

	if (!check(sr_set("subbuf_size", "4194304")))
		return;
	gen = sr_read_u64("generation");
	/* 1 GiB per CPU: more than half of what a 1 GiB guest has. */
	err = sr_write("n_subbufs", "256");
	check_int(err, ==, -ENOMEM);
	check_str(sr_value("n_subbufs", buf, sizeof(buf)), "8");
	check_uint(sr_read_u64("generation"), ==, gen);
	check(sr_set("subbuf_size", "65536"));
}

static void test_read_only_files(void)
{
	static const struct {
		const char *name;
		int flags;
	} refused[] = {
		{ "generation", O_WRONLY }, { "stats/produced", O_WRONLY }, { "reset", O_RDONLY },
	};
	char path[128];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int fd = open(sr_path(refused[i].name, path, sizeof(path)),
			      refused[i].flags);
		int err = fd < 0 ? errno : 0;

		if (!check_int(fd, ==, -1) || !check_int(err, ==, EACCES))
			test_msg("opening %s", refused[i].name);
		if (fd >= 0)
			close(fd);
	}
}

/* In a child that has become nobody: exit status says what failed. */
static int as_nobody(void)
{
	static const char *const writable[] = {
		"enabled", "events", "overwrite", "subbuf_size", "n_subbufs",
		"wakeup_subbufs", "reset",
	};
	char buf[1024];

	if (setgid(65534) || setuid(65534))
		return 10;
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++)
		if (sr_write(writable[i], "1") != -EACCES)
			return 20 + (int)i;
	if (sr_open_buffer(0, O_RDONLY) != -1 || errno != EACCES)
		return 30;
	if (sr_read("stats/dropped", buf, sizeof(buf)) <= 0 ||
	    sr_read("generation", buf, sizeof(buf)) <= 0)
		return 40;
	return 0;
}

static void test_root_only(void)
{
	char before[64], after[64];
	int status;
	pid_t pid;

	sr_value("enabled", before, sizeof(before));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(as_nobody());
	status = sr_wait(pid);
	if (!check_int(status, ==, 0))
		test_msg("exit status: 1x setuid, 2x writing a control file, 30 opening cpu0, 40 reading stats");
	check_str(sr_value("enabled", after, sizeof(after)), before);
}

static void test_mmap_geometry(void)
{
	void *map;
	int fd;

	if (!check(sr_set("subbuf_size", "4096")) || !check(sr_set("n_subbufs", "2")))
		return;
	fd = sr_open_buffer(0, O_RDONLY);
	if (!check_int(fd, >=, 0))
		return;
	map = mmap(NULL, 65536 * 8, PROT_READ, MAP_SHARED, fd, 0);
	check(map == MAP_FAILED);
	check_int(errno, ==, EINVAL);
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
	if (check(map != MAP_FAILED)) {
		check_uint(((struct sched_relay_header *)map)->magic, ==, SCHED_RELAY_MAGIC);
		munmap(map, 8192);
	}
	close(fd);
	check(sr_set("subbuf_size", "65536"));
	check(sr_set("n_subbufs", "8"));
}

int main(void)
{
	/* A fresh load, for the defaults. */
	if (sr_unload() || sr_load(NULL)) {
		printf("# cannot load %s\n", SR_MODULE);
		return 1;
	}
	TEST(test_files_and_modes(), "the files exist with their documented modes");
	TEST(test_defaults(), "a fresh load: enabled, all events, no overwrite, 65536 x 8, wake-up per sub-buffer, generation 1");
	sr_set("enabled", "0");
	TEST(test_accepted_values(),
	     "each control file takes its documented values; a change bumps generation once");
	TEST(test_reset_accepts_one(), "reset takes 1 and bumps generation");
	TEST(test_refused_values(),
	     "bad values get EINVAL/ERANGE from write(2), value and generation unchanged");
	TEST(test_empty_and_huge_writes(),
	     "empty writes change nothing, writes of a page or more get E2BIG");
	TEST(test_too_much_memory(), "buffers the machine cannot spare get ENOMEM, nothing changes");
	TEST(test_read_only_files(), "generation and stats cannot be written, reset not read");
	TEST(test_root_only(), "only root writes control files and opens buffers; anyone reads stats");
	TEST(test_mmap_geometry(), "a buffer maps only at the size of the current geometry");
	return test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - the channel's control attributes (see control.h and
 * docs/ABI/testing/sysfs-kernel-sched_relay).
 */
#include "control.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "events.h"
#include "util.h"

static const char *const attr_names[CTL_NR] = {
	[CTL_GENERATION] = "generation",
	[CTL_SUBBUF_SIZE] = "subbuf_size",
	[CTL_N_SUBBUFS] = "n_subbufs",
	[CTL_OVERWRITE] = "overwrite",
	[CTL_ENABLED] = "enabled",
	[CTL_EVENTS] = "events",
};

#define SYSFS_MAGIC	0x62656572	/* linux/magic.h */

const char *control_attr_name(enum control_attr attr)
{
	return attr < CTL_NR ? attr_names[attr] : "?";
}

bool control_fd_notifies(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLRDBAND };

	/* a declared attribute answers POLLRDBAND on every poll(), whether
	 * or not a change is pending; others never do: this never waits */
	return fd >= 0 && poll(&pfd, 1, 0) == 1 &&
	       (pfd.revents & POLLRDBAND);
}

bool control_notified(const struct control *c)
{
	for (int i = 0; i < CTL_NR; i++)
		if (c->fd[i] >= 0 && c->notifies[i])
			return true;
	return false;
}

/* Open attribute i (if it is there) and ask whether it is notified. */
static void open_attr(struct control *c, int i)
{
	c->fd[i] = openat(c->dirfd, attr_names[i], O_RDONLY | O_CLOEXEC);
	c->notifies[i] = control_fd_notifies(c->fd[i]);
}

int control_open(struct control *c, const char *dir)
{
	struct statfs sfs;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < CTL_NR; i++)
		c->fd[i] = -1;
	c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0)
		return -errno;
	c->dir = xstrdup(dir);
	c->on_sysfs = fstatfs(c->dirfd, &sfs) == 0 &&
		      sfs.f_type == SYSFS_MAGIC;
	for (int i = 0; i < CTL_NR; i++)
		open_attr(c, i);
	return 0;
}

void control_close(struct control *c)
{
	for (int i = 0; i < CTL_NR; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	if (c->dirfd >= 0)
		close(c->dirfd);
	free(c->dir);
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	for (int i = 0; i < CTL_NR; i++)
		c->fd[i] = -1;
}

static int parse_attr(enum control_attr a, const char *text,
		      struct control_state *out)
{
	uint64_t v;
	uint32_t mask;
	int err;

	if (a == CTL_EVENTS) {
		err = events_parse(text, &mask);
		if (!err)
			out->events = mask;
		return err;
	}
	err = parse_u64(text, &v);
	if (err)
		return -EINVAL;
	switch (a) {
	case CTL_GENERATION:
		out->generation = v;
		break;
	case CTL_SUBBUF_SIZE:
		if (v > UINT32_MAX)
			return -EINVAL;
		out->geom.subbuf_size = (uint32_t)v;
		break;
	case CTL_N_SUBBUFS:
		if (v > UINT32_MAX)
			return -EINVAL;
		out->geom.n_subbufs = (uint32_t)v;
		break;
	case CTL_OVERWRITE:
	case CTL_ENABLED:
		if (v > 1)
			return -EINVAL;
		if (a == CTL_OVERWRITE)
			out->overwrite = v;
		else
			out->enabled = v;
		break;
	default:
		break;
	}
	return 0;
}

int control_read(struct control *c, struct control_state *out,
		 enum control_attr *bad)
{
	struct control_state st = { 0 };
	char text[512];

	for (int i = 0; i < CTL_NR; i++) {
		ssize_t n;

		if (c->fd[i] < 0)	/* maybe it exists by now */
			open_attr(c, i);
		if (c->fd[i] < 0) {
			if (errno == ENOENT &&
			    (i == CTL_SUBBUF_SIZE || i == CTL_N_SUBBUFS)) {
				if (bad)
					*bad = (enum control_attr)i;
				return -ENOENT;
			}
			continue;
		}
		n = read_text_fd(c->fd[i], text, sizeof(text));
		if (n < 0) {
			/* removed under us (module unloaded) */
			if (n == -ENODEV || n == -ENOENT)
				return -ENODEV;
			if (bad)
				*bad = (enum control_attr)i;
			return (int)n;
		}
		if (parse_attr((enum control_attr)i, text, &st)) {
			if (bad)
				*bad = (enum control_attr)i;
			return -EINVAL;
		}
		st.have[i] = true;
	}
	/* say so when the kernel declares none of them: nothing wakes us */
	st.unnotified = c->on_sysfs && !control_notified(c);
	*out = st;
	return 0;
}

int control_read_generation(struct control *c, uint64_t *gen)
{
	char text[64];
	ssize_t n;

	if (c->fd[CTL_GENERATION] < 0)
		return -ENOENT;
	n = read_text_fd(c->fd[CTL_GENERATION], text, sizeof(text));
	if (n < 0)
		return (int)n;
	return parse_u64(text, gen) ? -EINVAL : 0;
}

unsigned int control_diff(const struct control_state *a,
			  const struct control_state *b)
{
	unsigned int d = 0;

	for (int i = 0; i < CTL_NR; i++)
		if (a->have[i] != b->have[i])
			d |= 1u << i;
	if (a->generation != b->generation)
		d |= 1u << CTL_GENERATION;
	if (a->geom.subbuf_size != b->geom.subbuf_size)
		d |= 1u << CTL_SUBBUF_SIZE;
	if (a->geom.n_subbufs != b->geom.n_subbufs)
		d |= 1u << CTL_N_SUBBUFS;
	if (a->overwrite != b->overwrite)
		d |= 1u << CTL_OVERWRITE;
	if (a->enabled != b->enabled)
		d |= 1u << CTL_ENABLED;
	if (a->events != b->events)
		d |= 1u << CTL_EVENTS;
	return d;
}

unsigned int control_pollfds(const struct control *c, struct pollfd *pfd,
			     unsigned int max)
{
	unsigned int n = 0;

	/* Every change bumps 'generation' and wakes its pollers (the ABI
	 * says so): one file does, and every poll() costs per file.  But
	 * only a file the kernel declares notified is worth waiting on. */
	if (c->fd[CTL_GENERATION] >= 0 && c->notifies[CTL_GENERATION] &&
	    max) {
		pfd[0] = (struct pollfd) { .fd = c->fd[CTL_GENERATION],
					   .events = POLLPRI };
		return 1;
	}
	for (int i = 0; i < CTL_NR && n < max; i++) {
		if (c->fd[i] < 0 || !c->notifies[i])
			continue;
		pfd[n].fd = c->fd[i];
		pfd[n].events = POLLPRI;
		pfd[n].revents = 0;
		n++;
	}
	return n;
}

int control_write(struct control *c, const char *name, const char *value)
{
	return write_text_at(c->dirfd, name, value);
}

int control_reset(struct control *c)
{
	return control_write(c, "reset", "1\n");
}

int control_set_events(struct control *c, uint32_t mask)
{
	char v[32];

	snprintf(v, sizeof(v), "0x%" PRIx32 "\n", mask);
	return control_write(c, "events", v);
}

int control_set_overwrite(struct control *c, bool on)
{
	return control_write(c, "overwrite", on ? "1\n" : "0\n");
}

int control_set_enabled(struct control *c, bool on)
{
	return control_write(c, "enabled", on ? "1\n" : "0\n");
}

int control_parse_array(const char *text, uint64_t *v, unsigned int max)
{
	const char *p = text;
	unsigned int n = 0;

	while (*p != '\n') {
		unsigned long long x;
		int used = 0;

		if ((n && *p++ != ' ') || *p < '0' || *p > '9' ||
		    sscanf(p, "%llu%n", &x, &used) != 1 ||
		    (p[used] != ' ' && p[used] != '\n'))
			return -EINVAL;
		if (n < max)
			v[n] = x;
		n++;
		p += used;
	}
	if (p[1] != '\0')
		return -EINVAL;		/* one line only */
	return (int)(n < max ? n : max);
}

/* The producer's stats/ files, in the order of control_cpu_stats. */
static const char *const stats_files[] = {
	"stats/produced", "stats/dropped", "stats/subbufs_produced",
	"stats/subbufs_consumed", "stats/fill_bytes",
};

int control_read_stats(struct control *c, struct control_cpu_stats *out,
		       unsigned int max)
{
	/* 21 bytes a CPU at most: a large page's worth covers thousands */
	static const size_t size = 1 << 16;
	char *text = xmalloc(size);
	uint64_t *v = xmalloc(5 * (size_t)(max ? max : 1) * sizeof(*v));
	int ret = 0, nr = -1;

	for (unsigned int f = 0; f < 5; f++) {
		ssize_t n = read_text_at(c->dirfd, stats_files[f], text, size);

		ret = n < 0 ? (int)n : control_parse_array(text, v + f * max, max);
		if (ret < 0)
			break;
		if (nr >= 0 && ret != nr) {
			ret = -EINVAL;	/* arrays of different lengths */
			break;
		}
		nr = ret;
	}
	for (int i = 0; ret >= 0 && i < nr; i++)
		out[i] = (struct control_cpu_stats) {
			.cpu = (unsigned int)i, .produced = v[i],
			.dropped = v[max + i], .subbufs_produced = v[2 * max + i],
			.subbufs_consumed = v[3 * max + i],
			.fill_bytes = v[4 * max + i],
		};
	free(v);
	free(text);
	return ret;
}

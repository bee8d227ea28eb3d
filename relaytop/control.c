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

const char *control_attr_name(enum control_attr attr)
{
	return attr < CTL_NR ? attr_names[attr] : "?";
}

int control_open(struct control *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < CTL_NR; i++)
		c->fd[i] = -1;
	c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0)
		return -errno;
	c->dir = xstrdup(dir);
	for (int i = 0; i < CTL_NR; i++)
		c->fd[i] = openat(c->dirfd, attr_names[i], O_RDONLY | O_CLOEXEC);
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
			c->fd[i] = openat(c->dirfd, attr_names[i],
					  O_RDONLY | O_CLOEXEC);
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
	 * says so): one file does, and every poll() costs per file. */
	if (c->fd[CTL_GENERATION] >= 0 && max) {
		pfd[0] = (struct pollfd) { .fd = c->fd[CTL_GENERATION],
					   .events = POLLPRI };
		return 1;
	}
	for (int i = 0; i < CTL_NR && n < max; i++) {
		if (c->fd[i] < 0)
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

int control_parse_stats(const char *text, struct control_cpu_stats *out,
			unsigned int max)
{
	const char *line = strchr(text, '\n');
	unsigned int n = 0;

	if (!line || strncmp(text, "cpu ", 4))
		return -EINVAL;		/* no header line */
	line++;
	while (*line) {
		struct control_cpu_stats s;
		unsigned long long v[6];
		int used = 0;

		if (sscanf(line, "%llu %llu %llu %llu %llu %llu%n", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &used) != 6 ||
		    (line[used] != '\n' && line[used] != '\0') ||
		    line[0] < '0' || line[0] > '9' || v[0] > UINT32_MAX)
			return -EINVAL;
		s = (struct control_cpu_stats) {
			.cpu = (unsigned int)v[0], .produced = v[1],
			.dropped = v[2], .subbufs_produced = v[3],
			.subbufs_consumed = v[4], .fill_bytes = v[5],
		};
		if (n < max)
			out[n] = s;
		n++;
		line += used;
		if (*line == '\n')
			line++;
	}
	return (int)(n < max ? n : max);
}

int control_read_stats(struct control *c, struct control_cpu_stats *out,
		       unsigned int max)
{
	/* one line per CPU: a large page's worth covers thousands */
	static const size_t size = 1 << 16;
	char *text = xmalloc(size);
	ssize_t n = read_text_at(c->dirfd, "stats", text, size);
	int ret;

	if (n < 0)
		ret = (int)n;
	else
		ret = control_parse_stats(text, out, max);
	free(text);
	return ret;
}

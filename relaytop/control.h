/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - the channel's control attributes in sysfs: reading them,
 * writing them, and waiting for changes.
 *
 * sysfs wakes a poll()er of an attribute with POLLPRI|POLLERR when the
 * producer calls sysfs_notify() on it; the attribute must then be read
 * again from offset 0 to re-arm it.  relaytop keeps the watched
 * attributes open for that and re-reads all of them after any wake.
 *
 * Only an attribute whose producer calls sysfs_notify() ever wakes a
 * poller; the kernel says which do: poll() on a declared attribute
 * answers POLLRDBAND at once (SYSFS_NOTIFY, "Waiting for changes" in
 * Documentation/filesystems/sysfs.rst).  relaytop waits only on declared
 * attributes; when none is, it re-reads 'generation' every tick, as it
 * does anyway, and the status line says so.
 */
#ifndef RELAYTOP_CONTROL_H
#define RELAYTOP_CONTROL_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "subbuf.h"

enum control_attr {
	CTL_GENERATION,
	CTL_SUBBUF_SIZE,
	CTL_N_SUBBUFS,
	CTL_OVERWRITE,
	CTL_ENABLED,
	CTL_EVENTS,
	CTL_NR
};

/* What the attributes said when last read. */
struct control_state {
	bool have[CTL_NR];	/* the attribute exists and parsed */
	uint64_t generation;
	struct subbuf_geometry geom;
	bool overwrite;
	bool enabled;
	uint32_t events;	/* SCHED_RELAY_* bits */
	bool unnotified;	/* sysfs attributes, none declared notified:
				 * changes are seen at the tick only */
};

struct control {
	char *dir;		/* the channel directory */
	int dirfd;
	int fd[CTL_NR];		/* open for poll(), or -1 */
	bool notifies[CTL_NR];	/* fd's attribute is declared notified */
	bool on_sysfs;		/* dir is in sysfs */
};

/* One CPU's counters, from the producer's stats/ files. */
struct control_cpu_stats {
	unsigned int cpu;
	uint64_t produced;
	uint64_t dropped;
	uint64_t subbufs_produced;
	uint64_t subbufs_consumed;
	uint64_t fill_bytes;
};

/* Attribute file names, indexed by enum control_attr. */
const char *control_attr_name(enum control_attr attr);

/* Open dir and its attributes: 0 or -errno (dir missing: -ENOENT). */
int control_open(struct control *c, const char *dir);
void control_close(struct control *c);

/*
 * Read every attribute from offset 0 (which re-arms poll).  Returns 0, or
 * -ENODEV when the channel is gone (files removed), or -EINVAL naming the
 * bad attribute in *bad.  subbuf_size and n_subbufs must be there.
 */
int control_read(struct control *c, struct control_state *out,
		 enum control_attr *bad);

/* Read 'generation' alone (one pread() of the open file): 0 or -errno
 * (-ENOENT: not there; -EINVAL: not a number). */
int control_read_generation(struct control *c, uint64_t *gen);

/* Bits (1 << enum control_attr) of what differs between a and b. */
unsigned int control_diff(const struct control_state *a,
			  const struct control_state *b);

/* Does poll() on fd say that it is notified (POLLRDBAND, no wait)? */
bool control_fd_notifies(int fd);

/* Is any open attribute declared notified? */
bool control_notified(const struct control *c);

/* pollfds (POLLPRI) that wake on any change: 'generation' alone when it
 * is declared notified, else every open attribute that is; returns how
 * many (0 when none is: then only the tick sees changes). */
unsigned int control_pollfds(const struct control *c, struct pollfd *pfd,
			     unsigned int max);

/* Write value to attribute name: 0 or -errno (kernel's EINVAL etc.). */
int control_write(struct control *c, const char *name, const char *value);
int control_reset(struct control *c);
int control_set_events(struct control *c, uint32_t mask);
int control_set_overwrite(struct control *c, bool on);
int control_set_enabled(struct control *c, bool on);

/*
 * Read the producer's stats/ directory into out[] (at most max CPUs): one
 * file per counter, each an array "V0 V1 ... Vn\n" in which value N is
 * CPU N's.  Returns the number of CPUs, or -ENOENT when the channel has no
 * stats/, or -EINVAL when a file is not such an array or the arrays
 * differ in length.
 */
int control_read_stats(struct control *c, struct control_cpu_stats *out,
		       unsigned int max);
/* One such array into v[] (at most max values): how many, or -EINVAL. */
int control_parse_array(const char *text, uint64_t *v, unsigned int max);

#endif /* RELAYTOP_CONTROL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * channel.h - a sysfs relay channel's per-CPU buffer files (buffers/cpuN
 * in the channel's directory): finding them,
 * mapping them read-only, handing consumed sub-buffers back, and surviving
 * their removal.
 *
 * When the producer re-creates its channel (new geometry) or is unloaded,
 * kernfs removes the buffer files and zaps every mapping of them: the next
 * access of the mapping raises SIGBUS.  Code that touches a mapping runs
 * with channel_bus_armed set after a sigsetjmp(channel_bus_jmp, 1) in its
 * own frame (channel_guarded() does it); the SIGBUS handler then jumps
 * back there and the caller treats the channel as gone.  A SIGBUS outside
 * such a section is fatal as usual.  The guard saves no signal mask (no
 * system call per guarded call); after a fault it unblocks SIGBUS, which
 * the handler's entry blocked, and leaves the rest of the mask as it was.
 */
#ifndef RELAYTOP_CHANNEL_H
#define RELAYTOP_CHANNEL_H

#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "subbuf.h"

/* The directory of the buffer files cpuN inside the channel's directory. */
#define CHANNEL_BUFFERS_DIR	"buffers"

struct channel_cpu {
	unsigned int cpu;
	int fd;
	void *map;
	size_t map_len;
	bool writable;		/* hand-back possible */
	bool idle;		/* woke us without news: not polled till the tick */
	bool timed;		/* drained by the reader's timer: not polled */
	uint64_t lost_seen;	/* reader->lost already accounted for */
	struct subbuf_reader reader;
};

struct channel {
	char *dir;		/* the buffers' directory, <channel>/buffers */
	struct subbuf_geometry geom;
	unsigned int n;		/* buffers (entries in cpus[]) */
	struct channel_cpu *cpus;	/* in CPU order */
	unsigned int max_cpu;	/* highest CPU number + 1 */
	bool read_only;		/* a buffer could not be opened for writing */
};

/* Set by channel_install_sigbus(); see above.  Each thread has its own
 * (SIGBUS goes to the thread that faulted): the drainers (drainer.h) read
 * under the guard too. */
extern _Thread_local sigjmp_buf channel_bus_jmp;
extern _Thread_local volatile sig_atomic_t channel_bus_armed;
void channel_install_sigbus(void);

/*
 * Run fn(ctx, arg) with the guard armed: true when it returned, false
 * when a SIGBUS (a mapping that went away) cut it short.  Nothing fn
 * keeps in locals survives the jump: it leaves its results in *arg or
 * *ctx.  The signal mask afterwards is the one before, either way (fn
 * must leave it as it found it).
 */
bool channel_guarded(void (*fn)(void *ctx, void *arg), void *ctx, void *arg);

/*
 * Find dir's cpuN files, open and map each (the subbuf_size * n_subbufs
 * bytes of geom and relay's meta area after them, subbuf_map_size()).  Returns 0, or -errno with err naming the file and the
 * problem.  Readers are set up but not synced.  A buffer file that is not
 * the kernel's (not on sysfs, debugfs or tracefs: a plain file) is opened
 * read-only, as one the user may not write: a hand-back would write "N\n"
 * into its data.
 */
int channel_open(struct channel *ch, const char *dir,
		 const struct subbuf_geometry *geom, char *err, size_t errlen);
void channel_close(struct channel *ch);

/*
 * Map buffer files that appeared since (a CPU came online: the kernel
 * gives it its file then).  cpus[] may move, on failure too.  Returns how
 * many were added, or -errno with err saying which file failed (then none
 * was added).
 */
int channel_add_new(struct channel *ch, char *err, size_t errlen);
/* Is there a buffer file channel_add_new() would add (or a directory it
 * cannot read)?  It only reads cpus[]: no drainer has to stop for it. */
bool channel_has_new(const struct channel *ch);

/* The buffer of cpu, or NULL. */
struct channel_cpu *channel_cpu(struct channel *ch, unsigned int cpu);

/*
 * Tell the kernel the reader of cc is done with its sub-buffers below
 * number until ("until\n"): 0 or -errno (-ESTALE: consumed already).
 */
int channel_give_back(void *cc, uint64_t until);

/* pollfds (POLLIN) for the buffers not marked idle or timed; returns how
 * many and fills map[] with the index in cpus[] of each. */
unsigned int channel_pollfds(const struct channel *ch, struct pollfd *pfd,
			     unsigned int *map, unsigned int max);

#endif /* RELAYTOP_CHANNEL_H */

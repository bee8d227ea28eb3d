/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake-session.h - relaytop's live mode (relaytop/top.c) started on a fake
 * channel (fake-channel.h) whose producers the caller drives, for the
 * tests and the drain benchmark: the channel, the options that name it
 * and the top set up and torn down in one place.
 */
#ifndef FAKE_SESSION_H
#define FAKE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "fake-channel.h"
#include "options.h"
#include "top.h"

struct fake_session {
	struct fake_channel fc;
	struct options opt;	/* the caller's; start sets the channel */
	struct top t;
};

/*
 * Create a fake channel of @ncpus CPUs with @n_subbufs sub-buffers of
 * @subbuf_size bytes (@overwrite: flight-recorder mode) and start the
 * live mode on it with output @out and the options the caller put in
 * s->opt, their channel the fake one and their interval 1 s.  Finished
 * sub-buffers go back to the fake relays (s->t.live.give_back, which the
 * caller may replace).  False if the channel cannot be created: then
 * there is nothing to stop.
 */
bool fake_session_start(struct fake_session *s, unsigned int ncpus,
			uint32_t subbuf_size, uint32_t n_subbufs,
			bool overwrite, enum output_mode out);
/* Free the top and remove the fake channel. */
void fake_session_stop(struct fake_session *s);

#endif /* FAKE_SESSION_H */

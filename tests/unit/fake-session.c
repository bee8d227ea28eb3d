// SPDX-License-Identifier: GPL-2.0
/*
 * fake-session.c - relaytop's live mode on a fake channel (see
 * fake-session.h).
 */
#include "fake-session.h"

bool fake_session_start(struct fake_session *s, unsigned int ncpus,
			uint32_t subbuf_size, uint32_t n_subbufs,
			bool overwrite, enum output_mode out)
{
	if (!fake_channel_create(&s->fc, ncpus, subbuf_size, n_subbufs,
				 overwrite))
		return false;
	s->opt.channel = s->fc.dir;
	s->opt.interval = 1;
	top_start(&s->t, &s->opt, out);
	s->t.live.give_back = fake_channel_give_back;
	fake_channel_set_current(&s->fc);
	return true;
}

void fake_session_stop(struct fake_session *s)
{
	top_free(&s->t);
	fake_channel_destroy(&s->fc);
}

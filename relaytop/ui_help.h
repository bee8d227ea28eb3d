/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui_help.h - the help screen: the keys (keys.h), in two columns on a
 * screen of 80 or more, then what the columns of the view shown mean.
 * At 80x24 all of it fits and no line is cut; a smaller screen scrolls
 * it, saying how much more there is.
 */
#ifndef RELAYTOP_UI_HELP_H
#define RELAYTOP_UI_HELP_H

#include "view.h"

/* Draw the help for the view mode from line top to bottom (exclusive),
 * from its line scroll on; returns the first line shown. */
unsigned int ui_draw_help(enum view_mode mode, unsigned int scroll, int top,
			  int bottom);

#endif /* RELAYTOP_UI_HELP_H */

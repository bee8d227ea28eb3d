// SPDX-License-Identifier: GPL-2.0
/* keys.c - the key table (see keys.h). */
#include "keys.h"

#include "util.h"

static const struct key_binding table[] = {
	{ 'q', "q", CMD_QUIT, "quit" },
	{ 'h', "h ?", CMD_HELP, "show or hide this help" },
	{ '?', NULL, CMD_HELP, NULL },
	{ 'p', "p space", CMD_PAUSE, "pause or resume the screen" },
	{ ' ', NULL, CMD_PAUSE, NULL },
	{ 'r', "r", CMD_RESET, "reset the channel (empties the buffers, zeroes the counters)" },
	{ '+', "+", CMD_SLOWER, "refresh less often" },
	{ '-', "-", CMD_FASTER, "refresh more often" },
	{ 's', "s", CMD_SORT, "sort by CPU, events/s, drops, fill" },
	{ 'e', "e", CMD_EVENTS, "turn an event type on or off (then s w n m f x k)" },
	{ 'o', "o", CMD_OVERWRITE, "toggle overwrite (flight recorder) mode" },
	{ 'i', "i", CMD_SELF, "hide or show relaytop's own switches and wake-ups (not in a recording)" },
	{ KEY_CODE_CTRL_L, "^L", CMD_REDRAW, "repaint the whole screen" },
	{ KEY_CODE_RESIZE, NULL, CMD_REDRAW, NULL },
};

const struct key_binding *keys_table(size_t *n)
{
	*n = ARRAY_SIZE(table);
	return table;
}

enum command keys_command(int key)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].key == key)
			return table[i].cmd;
	return CMD_NONE;
}

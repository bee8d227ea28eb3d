// SPDX-License-Identifier: GPL-2.0
/* keys.c - the key table (see keys.h). */
#include "keys.h"

#include "util.h"

static const struct key_binding table[] = {
	{ 'q', "q F10", CMD_QUIT, "quit" },
	{ KEY_CODE_F(10), NULL, CMD_QUIT, NULL },
	{ 'h', "h ? F1", CMD_HELP, "show or hide this help" },
	{ '?', NULL, CMD_HELP, NULL },
	{ KEY_CODE_F(1), NULL, CMD_HELP, NULL },
	{ 'p', "p space", CMD_PAUSE, "pause or resume the screen" },
	{ ' ', NULL, CMD_PAUSE, NULL },
	{ 't', "t", CMD_TASKS, "tasks view (again: back to the CPUs)" },
	{ 'l', "l", CMD_LATENCY, "latency view (again: back to the CPUs)" },
	{ 'L', "L", CMD_LAT_KIND, "wakeup or run-queue latency (runqlat's)" },
	{ 's', "s F6", CMD_SORT, "next sort column (CPUs: CPU, events/s, drops, fill)" },
	{ KEY_CODE_F(6), NULL, CMD_SORT, NULL },
	{ 'I', "I", CMD_REVERSE, "reverse the tasks' sort" },
	{ 'g', "g", CMD_GROUP, "tasks by process (tgid) or by thread" },
	{ 'c', "c", CMD_CPU, "tasks and latency of all CPUs or of the next one" },
	{ '1', "1", CMD_SUMMARY, "only the all row, or every CPU" },
	{ 'z', "z", CMD_ZERO, "zero relaytop's own counters (not the channel's)" },
	{ KEY_CODE_UP, "arrows", CMD_UP, "scroll a row (PgUp PgDn Home: a page, the top)" },
	{ KEY_CODE_DOWN, NULL, CMD_DOWN, NULL },
	{ KEY_CODE_PGUP, NULL, CMD_PGUP, NULL },
	{ KEY_CODE_PGDN, NULL, CMD_PGDN, NULL },
	{ KEY_CODE_HOME, NULL, CMD_HOME, NULL },
	{ '+', "+", CMD_SLOWER, "refresh less often" },
	{ '-', "-", CMD_FASTER, "refresh more often" },
	{ 'r', "r", CMD_RESET, "reset the channel (empties the buffers, zeroes the counters; asks y/n)" },
	{ 'e', "e", CMD_EVENTS, "turn an event type on or off (asks y/n, then s w n m f x k)" },
	{ 'o', "o", CMD_OVERWRITE, "toggle overwrite (flight recorder) mode (asks y/n)" },
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

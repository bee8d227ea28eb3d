// SPDX-License-Identifier: GPL-2.0
/* keys.c - the key table (see keys.h). */
#include "keys.h"

#include "util.h"

/* The help shows two columns of them at 80: a label of 7 characters at
 * most, a text of 31 (t-keys checks it). */
static const struct key_binding table[] = {
	{ 'q', "q F10", CMD_QUIT, "quit" },
	{ KEY_CODE_F(10), NULL, CMD_QUIT, NULL },
	{ 'h', "h ? F1", CMD_HELP, "this help (again: back)" },
	{ '?', NULL, CMD_HELP, NULL },
	{ KEY_CODE_F(1), NULL, CMD_HELP, NULL },
	{ 'p', "p space", CMD_PAUSE, "pause or resume the screen" },
	{ ' ', NULL, CMD_PAUSE, NULL },
	{ 't', "t", CMD_TASKS, "tasks view (again: the CPUs)" },
	{ 'l', "l", CMD_LATENCY, "latency view (again: the CPUs)" },
	{ 'L', "L", CMD_LAT_KIND, "wakeup or run-queue latency" },
	{ '/', "/ F3", CMD_FIND, "find a task (F3: the next)" },
	{ KEY_CODE_F(3), NULL, CMD_FIND_NEXT, NULL },
	{ '\\', "\\ F4", CMD_FILTER, "only the tasks named (Esc: all)" },
	{ KEY_CODE_F(4), NULL, CMD_FILTER, NULL },
	{ 's', "s F6", CMD_SORT, "sort by the next column" },
	{ KEY_CODE_F(6), NULL, CMD_SORT, NULL },
	{ 'I', "I", CMD_REVERSE, "reverse the tasks' sort" },
	{ 'g', "g", CMD_GROUP, "tasks by process or by thread" },
	{ 'c', "c", CMD_CPU, "all CPUs, or the next one only" },
	{ '1', "1", CMD_SUMMARY, "only the all row, or every CPU" },
	{ 'z', "z", CMD_ZERO, "zero relaytop's own counters" },
	{ KEY_CODE_UP, "arrows", CMD_UP, "scroll (PgUp PgDn Home)" },
	{ KEY_CODE_DOWN, NULL, CMD_DOWN, NULL },
	{ KEY_CODE_PGUP, NULL, CMD_PGUP, NULL },
	{ KEY_CODE_PGDN, NULL, CMD_PGDN, NULL },
	{ KEY_CODE_HOME, NULL, CMD_HOME, NULL },
	{ KEY_CODE_LEFT, "<- ->", CMD_SEEK_BACK, "replay: 10 s back, on" },
	{ KEY_CODE_RIGHT, NULL, CMD_SEEK_FORWARD, NULL },
	{ '<', "< >", CMD_SEEK_BACK_MORE, "replay: 60 s back, on" },
	{ '>', NULL, CMD_SEEK_FORWARD_MORE, NULL },
	{ '+', "+ -", CMD_SLOWER, "refresh less or more often" },
	{ '-', NULL, CMD_FASTER, NULL },
	{ 'r', "r", CMD_RESET, "reset the channel (asks y/n)" },
	{ 'e', "e", CMD_EVENTS, "an event type on/off (y/n)" },
	{ 'o', "o", CMD_OVERWRITE, "overwrite mode on/off (y/n)" },
	{ 'i', "i", CMD_SELF, "hide relaytop's own events" },
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

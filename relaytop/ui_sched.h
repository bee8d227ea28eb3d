/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui_sched.h - the curses screen's scheduler views, from the figures of
 * the view (the model fed in time order, one interval behind):
 *
 * the tasks view (t), a row a task or a process:
 *     PID COMM           SW/s WAKE/s MIG/s INV%  CPU% LAST WAKAVG WAKMAX
 * (RQAVG RQMAX in place of the last two with the run-queue latency);
 *
 * the latency view (l): the wakeup latency (or, L, the run-queue
 * latency: sched_model.h) per CPU and all,
 *     CPU   COUNT MISSED    P50    P90    P99    MAX    AVG
 * then runqlat's log2 histogram of all CPUs or of the chosen one.
 */
#ifndef RELAYTOP_UI_SCHED_H
#define RELAYTOP_UI_SCHED_H

#include "view.h"

/* Draw between lines top and bottom (exclusive); return the first row
 * shown (v->scroll, kept inside the table). */
unsigned int ui_draw_tasks(const struct view *v, int top, int bottom);
unsigned int ui_draw_latency(const struct view *v, int top, int bottom);

#endif /* RELAYTOP_UI_SCHED_H */

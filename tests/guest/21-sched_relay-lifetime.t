#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 21-sched_relay-lifetime.t - pins that sched_relay loads and unloads, and
# re-creates its channel, safely under load while readers hold its buffers
# open, mapped and polled (sched_relay_lifetime: each reader must learn the
# documented way that its file is gone), that bad module parameters fail
# the load, and that the kernel log stays free of splats.  Leaves the
# module unloaded.
. /tests/lib/tap.sh

dmesg -c > /dev/null
t_run_c sched_relay_lifetime
t_ok "sched_relay is not left loaded" sh -c '! grep -q "^sched_relay " /proc/modules'
t_no_splat "the kernel log has no splat"
t_done && [ $T_C_FAILED -eq 0 ]

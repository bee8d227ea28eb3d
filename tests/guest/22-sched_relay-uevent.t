#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 22-sched_relay-uevent.t - pins the promise that user space woken by
# sched_relay's KOBJ_ADD uevent (add@/kernel/sched_relay) finds everything
# there: buffers/cpuN for every online CPU, the control files and stats/,
# looked at the moment the event arrives (sched_relay_uevent); that rmmod
# sends remove@/kernel/sched_relay; and that the kernel log stays free of
# splats.  Leaves the module unloaded.
. /tests/lib/tap.sh

dmesg -c > /dev/null
t_run_c sched_relay_uevent
t_ok "sched_relay is not left loaded" sh -c '! grep -q "^sched_relay " /proc/modules'
t_no_splat "the kernel log has no splat"
t_done && [ $T_C_FAILED -eq 0 ]

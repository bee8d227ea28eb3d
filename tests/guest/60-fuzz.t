#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 60-fuzz.t - pins that seeded random writes to every writable control file
# of sched_relay get only documented errnos, leave the state unchanged when
# refused, and leave the kernel log free of splats.  FUZZ_SEED replays a
# run (the seed is printed).  The load is paced (a flat-out load under TCG
# leaves the fuzzer a few writes a second).  A fixed number of writes, not a
# time budget: 5000 on the default kernel, 120 on the debug kernel (KASAN,
# lockdep: a write and its state checks take half a second to a second
# there, more on a busy host), so a slow machine fuzzes as much as a fast
# one and only a hang (600 s) fails the count.  Leaves the module unloaded.
. /tests/lib/tap.sh

dmesg -c > /dev/null
grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
seed=${FUZZ_SEED:-$(date +%s)}
writes=5000
[ -d /sys/kernel/debug/kfence ] && writes=120
/usr/bin/loadgen -r 2000 > /dev/null 2>&1 &
lg=$!
/tests/bin/fuzz_sched_relay "$seed" $writes 600
rc=$?
kill $lg 2>/dev/null; wait $lg 2>/dev/null
t_ok "sched_relay unloads after the fuzzing" rmmod sched_relay
t_no_splat "the kernel log has no splat"
t_done && [ $rc -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 60-fuzz.t - pins that seeded random writes to every writable control file
# of sched_relay get only documented errnos, leave the state unchanged when
# refused, and leave the kernel log free of splats.  FUZZ_SEED replays a
# run (the seed is printed).  The load is paced (a flat-out load under TCG
# leaves the fuzzer a few writes a second); at least 2000 writes must go
# through in 90 s, 100 on the debug kernel (KASAN, lockdep: about twenty times
# slower).  Leaves the module unloaded.
. /tests/lib/tap.sh

dmesg -c > /dev/null
grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
seed=${FUZZ_SEED:-$(date +%s)}
at_least=2000
[ -d /sys/kernel/debug/kfence ] && at_least=100
/usr/bin/loadgen -r 2000 > /dev/null 2>&1 &
lg=$!
/tests/bin/fuzz_sched_relay "$seed" 5000 90 $at_least
rc=$?
kill $lg 2>/dev/null; wait $lg 2>/dev/null
t_ok "sched_relay unloads after the fuzzing" rmmod sched_relay
t_no_splat "the kernel log has no splat"
t_done && [ $rc -eq 0 ]

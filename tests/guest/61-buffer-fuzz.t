#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 61-buffer-fuzz.t - pins that sched_relay's buffer files (cpuN) survive
# seeded random open/read/write/mmap/poll/epoll/close sequences from three
# processes (and children sharing their files) while a controller races
# them with reset, overwrite and enabled changes, geometry changes, CPU
# hotplug and rmmod/insmod, under a paced load: only documented errnos, a
# SIGBUS only on removed files, no splat, and a channel that records
# correctly afterwards (fuzz_relay_buffers).  FUZZ_SEED replays a run (the
# seed and the count of every operation and errno are printed).  A fixed
# number of operations, not a time budget: 250000 on the default kernel
# (about 35 s on an idle host), 5000 on the debug kernel (KASAN, lockdep:
# about 60 s on an idle host), so a slow machine fuzzes as much as a fast one
# and only a hang (600 s) fails the count.  Leaves the module unloaded.
. /tests/lib/tap.sh

dmesg -c > /dev/null
grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
seed=${FUZZ_SEED:-$(date +%s)}
ops=250000
[ -d /sys/kernel/debug/kfence ] && ops=5000
/usr/bin/loadgen -r 2000 > /dev/null 2>&1 &
lg=$!
/tests/bin/fuzz_relay_buffers "$seed" $ops 600 3
rc=$?
kill $lg 2>/dev/null; wait $lg 2>/dev/null
t_ok "every CPU is online again" sh -c '! grep -q 0 /sys/devices/system/cpu/cpu[1-9]*/online'
t_ok "sched_relay unloads after the fuzzing" rmmod sched_relay
t_no_splat "the kernel log has no splat"
t_done && [ $rc -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 10-relay.t - pins the kernel series from user space: relay_test.ko loads
# and shows a relay channel as /sys/kernel/relay_test/buffers/cpuN files,
# relay_sysfs checks reading, mapping, polling, exact drop counts, removal
# under readers, CPU hotplug and the old debugfs path byte for byte (its
# TAP lines count too), and the module unloads cleanly even while a reader
# still holds a buffer file open, which then reads as an error.
. /tests/lib/tap.sh

dir=/sys/kernel/relay_test

t_ok "relay_test.ko loads" insmod /lib/modules/relay_test.ko
t_eq "one buffer file per online CPU" \
	"$(grep -c ^processor /proc/cpuinfo)" "$(ls $dir/buffers | grep -c '^cpu[0-9]*$')"

/tests/bin/relay_sysfs
t_ok "relay_sysfs passed" [ $? -eq 0 ]

exec 3<$dir/buffers/cpu0
t_ok "relay_test unloads while cpu0 is open" rmmod relay_test
t_ok "its files are gone" [ ! -e $dir ]
t_ok "the open cpu0 now fails to read" sh -c '! cat <&3 >/dev/null 2>&1'
exec 3<&-
t_ok "relay_test loads again" insmod /lib/modules/relay_test.ko
t_ok "and unloads again" rmmod relay_test
t_done

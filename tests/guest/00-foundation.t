#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 00-foundation.t - pins what every other guest test stands on: the guest
# sees the CPUs QEMU gave it (4 by default, so per-CPU code really runs on
# several), proc/sysfs/devtmpfs are mounted, the kernel has relay and module
# support, and the shared folder works when qemu/run shares one.
. /tests/lib/tap.sh

expect_cpus=${rt_expect_cpus:-4}
t_eq "the guest sees $expect_cpus CPUs" "$expect_cpus" "$(grep -c ^processor /proc/cpuinfo)"
t_eq "all $expect_cpus CPUs are online" "0-$((expect_cpus - 1))" "$(cat /sys/devices/system/cpu/online)"
t_ok "proc is mounted" grep -q '^proc /proc proc' /proc/mounts
t_ok "sysfs is mounted" grep -q '^sysfs /sys sysfs' /proc/mounts
t_ok "devtmpfs is mounted on /dev" grep -q '^devtmpfs /dev devtmpfs' /proc/mounts
t_ok "debugfs is mounted" grep -q ' /sys/kernel/debug debugfs' /proc/mounts
t_ok "the kernel has relay (relay_open in kallsyms)" grep -q ' relay_open$' /proc/kallsyms
t_ok "the kernel loads modules" test -e /proc/modules
t_ok "the serial console is the console" grep -q 'console=ttyS0' /proc/cmdline
if [ -d /host ]; then
	t_ok "the shared folder is writable from the guest" sh -c 'echo guest > /host/.guest-probe && rm /host/.guest-probe'
fi
t_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 23-sysfs-notify.t - pins the declaration of notifying attributes
# (SYSFS_NOTIFY; "Waiting for changes" in Documentation/filesystems/
# sysfs.rst): with sched_relay and relay_test loaded, sysfs_notify_decl
# polls every file under /sys/kernel/sched_relay and a few of the kernel's
# own attributes, and tells without waiting which declare that they are
# notified (POLLRDBAND); the undeclared ones answer exactly as before, and
# an undeclared attribute that is notified (relay_test's notify_legacy)
# still wakes its poller.  relaytop's own check is shown last: the status
# of a channel whose files are declared does not say "not notified".
# The kernel log stays free of splats (a CONFIG_DEBUG_SYSFS_NOTIFY kernel
# would warn if sched_relay notified a file it did not declare).
. /tests/lib/tap.sh

SR=/sys/kernel/sched_relay
dmesg -c > /dev/null
rmmod relay_test 2>/dev/null
rmmod sched_relay 2>/dev/null
t_ok "sched_relay loads" insmod /lib/modules/sched_relay.ko
t_ok "relay_test loads" insmod /lib/modules/relay_test.ko

t_run_c sysfs_notify_decl

# fails if relaytop's batch header says the declared files are not notified
t_ok "relaytop finds sched_relay's attributes notified" sh -c \
	"relaytop -b -d 0.2 -n 2 2>&1 | grep '^# relaytop' > /tmp/decl.out;
	 grep -q generation /tmp/decl.out && ! grep -q attributes-not-notified /tmp/decl.out ||
	 { cat /tmp/decl.out; false; }"

t_ok "relay_test unloads" rmmod relay_test
t_ok "sched_relay unloads" rmmod sched_relay
t_no_splat "the kernel log has no splat"
t_done && [ $T_C_FAILED -eq 0 ]

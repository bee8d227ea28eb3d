#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 70-perm.t - pins that a non-root user (nobody) can neither open a
# sched_relay buffer (and so not map or read it) nor write any control
# file: open(2) fails with EACCES.  Leaves the module unloaded.
. /tests/lib/tap.sh

grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
D=/sys/kernel/sched_relay

# as_nobody CMD: run CMD as nobody; print its stderr.
as_nobody() {
	su nobody -s /bin/sh -c "$1" 2>&1
}

# denied OUTPUT: the refused command said "Permission denied" (EACCES).
denied() {
	case $1 in
	*"Permission denied"*) return 0 ;;
	*) echo "$1"; return 1 ;;
	esac
}

t_ok "root can read cpu0" sh -c "dd if=$D/buffers/cpu0 of=/dev/null bs=4096 count=1 2>/dev/null"
out=$(as_nobody "cat $D/buffers/cpu0 > /dev/null")
t_ok "nobody cannot open cpu0 for reading (EACCES)" denied "$out"
out=$(as_nobody "echo 1 > $D/buffers/cpu0")
t_ok "nobody cannot open cpu0 for writing (EACCES)" denied "$out"
for f in enabled events overwrite subbuf_size n_subbufs wakeup_subbufs reset; do
	before=$(cat $D/generation)
	out=$(as_nobody "echo 1 > $D/$f")
	t_ok "nobody cannot write $f (EACCES)" denied "$out"
	t_eq "the refused write to $f changed nothing" "$before" "$(cat $D/generation)"
done
t_ok "nobody can read stats" su nobody -s /bin/sh -c "cat $D/stats/produced > /dev/null"
t_ok "sched_relay unloads" rmmod sched_relay
t_done

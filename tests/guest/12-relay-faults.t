#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 12-relay-faults.t - pins the kernel series under faults and races (issue
# 12): a read() that faults loses nothing; relay_reset() racing hand-backs
# keeps the counters consistent (a 60 s storm); a CPU comes online although
# its buffer file cannot be created (name clash, directory gone); relay_open()
# racing a CPU coming online gives it a buffer; removing a channel whose
# directory went first touches no freed node.  relay_faults prints the TAP
# lines (see its header for how each failed before the fixes); around it,
# relay_test.ko loads and unloads cleanly.
. /tests/lib/tap.sh

t_ok "relay_test.ko loads" insmod /lib/modules/relay_test.ko

/tests/bin/relay_faults
t_ok "relay_faults passed" [ $? -eq 0 ]

t_ok "relay_test unloads" rmmod relay_test
t_ok "every CPU is online again" \
	sh -c '! grep -q 0 /sys/devices/system/cpu/cpu*/online 2>/dev/null'
t_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 11-relay-consume.t - pins the consume protocol of the kernel series
# (issue 28): absolute hand-backs that a reset makes stale, the meta area
# of a mapped buffer, reads that consume exactly what they delivered
# through read(), readv(), aio and io_uring at any offset, and relay_flush()
# and relay_reset() beside a running writer.  relay_consume prints the TAP
# lines (its header says how each failed before the fixes); around it,
# relay_test.ko loads and unloads cleanly.
. /tests/lib/tap.sh

t_ok "relay_test.ko loads" insmod /lib/modules/relay_test.ko

/tests/bin/relay_consume
t_ok "relay_consume passed" [ $? -eq 0 ]

t_ok "relay_test unloads" rmmod relay_test
t_done

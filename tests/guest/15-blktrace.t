#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 15-blktrace.t - pins that relay's other user still works on the patched
# kernel: Debian's own blktrace (over debugfs relay files) records block
# I/O on a RAM disk (brd) and blkparse finds in it exactly the I/O done, a
# known number of direct writes at known sectors, with 0 events dropped
# and no gap in the sequence numbers.
. /tests/lib/tap.sh

dmesg -c > /dev/null
dev=/dev/ram0
out=/tmp/blktrace
writes=8	# 4 KiB direct writes, at 4 KiB blocks 16..23
rm -rf $out
mkdir -p $out

t_ok "blktrace and blkparse run" sh -c 'blktrace -v && blkparse -V'
t_ok "$dev is a block device" [ -b $dev ]
t_ok "debugfs holds blktrace's directory" [ -d /sys/kernel/debug/block ]

blktrace -d $dev -D $out -o ram0 > $out/blktrace.out 2>&1 &
bt=$!

# Ready means tracing has started, not only that the relay files are open.
# blktrace (1.x) opens every CPU's relay file in one thread per CPU, which
# then waits until the main thread unblocks them all; the main thread then
# starts the trace (ioctl BLKTRACESTART) and waits for the threads to end.
# Output files fill only in large pieces, so they cannot say when.  So:
# every CPU's relay file is open, every per-CPU thread sleeps in poll
# (unblocked), and the main thread sleeps in futex again (so it is past
# BLKTRACESTART: it has no other wait between the two).  Checking only
# the open files raced with BLKTRACESTART and lost the first I/O.
in_syscall() {	# TID NR...: the thread sleeps in one of the syscalls NR
	read -r nr _ < /proc/$bt/task/$1/syscall 2>/dev/null || return 1
	shift
	for want; do [ "$nr" = "$want" ] && return 0; done
	return 1
}
tracing() {
	[ "$(ls -l /proc/$bt/fd 2>/dev/null | grep -c '/sys/kernel/debug/block/ram0/trace[0-9]')" \
		-eq "$(nproc)" ] || return 1
	polling=0
	for tid in $(ls /proc/$bt/task 2>/dev/null); do
		if [ "$tid" = "$bt" ]; then
			in_syscall "$tid" 202 || return 1	# futex
		elif in_syscall "$tid" 7 271; then	# poll, ppoll
			polling=$((polling + 1))
		fi
	done
	[ $polling -eq "$(nproc)" ]
}
t_ok "blktrace has started tracing on every CPU" t_wait 120 tracing
# probe reads (direct, so they reach the device) at block 1000
dd if=$dev of=/dev/null bs=4096 skip=1000 count=1 iflag=direct 2>/dev/null

i=0
while [ $i -lt $writes ]; do
	dd if=/dev/zero of=$dev bs=4096 seek=$((16 + i)) count=1 oflag=direct \
		conv=notrunc 2>/dev/null || echo "dd: write $i failed"
	i=$((i + 1))
done

kill -INT $bt
wait $bt
rc=$?
t_eq "blktrace exits 0 on SIGINT" 0 $rc
sed 's/^/# /' $out/blktrace.out
t_ok "blktrace dropped no event" grep -qE '^ *Total:.*\(dropped 0\)' $out/blktrace.out
t_ok "blktrace's summary counts events" grep -qE '^ *Total: +[1-9][0-9]* events' $out/blktrace.out

blkparse -i ram0 -D $out -f '%a %d %S %n %C\n' > $out/parsed 2>&1
t_eq "blkparse exits 0" 0 $?
grep -E '^(Events|Skips|Total)' $out/parsed | sed 's/^/# /'
# every write queued (Q), with its sector and length: 8 sectors at 8*(16+i)
expected=$(i=0; while [ $i -lt $writes ]; do
	echo "$((8 * (16 + i))) 8 dd"; i=$((i + 1)); done)
got=$(awk '$1 == "Q" && $2 ~ /^W/ { print $3, $4, $5 }' $out/parsed)
t_eq "blkparse shows the $writes writes queued, at their sectors, by dd" "$expected" "$got"
t_ok "the probe read is there too" grep -qE '^Q RS? 8000 8 dd$' $out/parsed
t_ok "blkparse saw no gap in the sequence numbers" grep -qE '^Skips: 0 forward' $out/parsed
t_no_splat "the kernel log has no splat"
t_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 14-relay-wakeups.t - pins what a reader's wake-ups cost: while a reader
# holds a sysfs relay buffer open and drains it, every sub-buffer switch
# wakes its pollers, and no kworker runs kernfs's notify work
# (kernfs_notify_workfn, seen as ftrace's workqueue_execute_start events)
# for it, for relay_test's channel and for sched_relay's under loadgen;
# relay's wakeup_count (relay_test's stats, sched_relay's stats/wakeups)
# counts one wake-up per switch while a file is open.  Removal still
# notifies the files: kernfs_notify_workfn runs then, which shows that the
# trace would see the work.  sched_relay's wakeup_subbufs (module parameter
# and file) batches the wake-ups: with N asked for and nothing consumed, a
# CPU's buffer wakes its reader at every switch from the Nth on, so
# stats/wakeups is subbufs_produced - (N - 1) per CPU; the value survives a
# new geometry.  The exact counts and the pollers' wake-ups, on a switch, at
# the watermark and on removal, are in relay_sysfs (10-relay.t).
. /tests/lib/tap.sh

T=/sys/kernel/tracing
RT=/sys/kernel/relay_test
SR=/sys/kernel/sched_relay

# trace_start: from now on, record workqueue_execute_start events only.
trace_start() {
	echo 0 > $T/tracing_on &&
	echo 0 > $T/events/enable &&
	echo 1 > $T/events/workqueue/workqueue_execute_start/enable &&
	echo > $T/trace &&
	echo 1 > $T/tracing_on
}

# notify_works_before MARK: kernfs_notify_workfn runs in the trace before
# the trace_marker line MARK.
notify_works_before() {
	awk -v m="$1" 'index($0, m) { exit } /kernfs_notify_workfn/ { n++ }
		END { print n + 0 }' $T/trace
}

# notify_work_after MARK: the trace has kernfs_notify_workfn after MARK.
notify_work_after() {
	awk -v m="$1" 'index($0, m) { seen = 1; next }
		seen && /kernfs_notify_workfn/ { found = 1 } END { exit !found }' $T/trace
}

# rt_col CPU N: column N of relay_test's stats line of CPU (1 is the CPU).
rt_col() {
	awk -v c="$1" -v n="$2" '$1 == c { print $n }' $RT/stats
}

# sum FILE: the sum of a stats/ array.
sum() {
	awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }' "$1"
}

t_ok "tracefs has the workqueue_execute_start event" \
	test -e $T/events/workqueue/workqueue_execute_start/enable

# --- relay_test: one switch at a time, drained by a reader ------------------
# relay_test writes on CPU 0 from a work item (work_on_cpu), in the system
# workqueue of CPU 0: a notify work that a switch queued there would run
# before the next round's write, so every round but the last would show.
t_ok "relay_test.ko loads" insmod /lib/modules/relay_test.ko
t_ok "overwrite mode, 4 sub-buffers of 4096 bytes" sh -c "echo '4096 4 1' > $RT/geometry"
exec 3< $RT/buffers/cpu0
t_ok "tracing workqueue_execute_start" trace_start
i=0
while [ $i -lt 20 ]; do
	echo "0 64 64 write" > $RT/write
	cat <&3 > /dev/null
	i=$((i + 1))
done
echo relay_test-drained > $T/trace_marker
sw=$(rt_col 0 7)
t_eq "20 sub-buffers' worth of records switched 19 times" 19 "$sw"
t_eq "wakeup_count counts each switch while the file is open" "$sw" "$(rt_col 0 9)"
t_eq "no kworker ran kernfs_notify_workfn while the reader drained" 0 \
	"$(notify_works_before relay_test-drained)"
t_ok "the channel is removed with cpu0 open" sh -c "echo 0 > $RT/present"
t_ok "removal notifies the files: kernfs_notify_workfn runs" \
	t_wait 60 notify_work_after relay_test-drained
exec 3<&-
t_ok "relay_test unloads" rmmod relay_test

# --- sched_relay under loadgen, drained by relaytop ---------------------------
t_ok "sched_relay loads" insmod /lib/modules/sched_relay.ko
t_ok "tracing workqueue_execute_start" trace_start
w0=$(sum $SR/stats/wakeups)
p0=$(sum $SR/stats/subbufs_produced)
s0=$(cut -d' ' -f1 /proc/uptime)
# relaytop drains until told to stop: first it must be reading (its first
# block is out), then loadgen's switches must have woken it, however slow
# the machine; a fixed run could end before a sub-buffer filled.
relaytop -b -d 0.5 > /tmp/rt14.out 2>&1 &
rt=$!
t_ok "relaytop is reading the buffers" \
	t_wait 120 t_lines_at_least 1 /tmp/rt14.out '^# relaytop '
woken() {
	[ "$(sum $SR/stats/wakeups)" -gt "$w0" ]
}
loadgen -q -r 2000 -t 2 > /dev/null 2>&1
until woken; do
	[ "$(cut -d. -f1 /proc/uptime)" -ge "$(( ${s0%.*} + 300 ))" ] && break
	loadgen -q -r 2000 -t 1 > /dev/null 2>&1
done
kill -TERM $rt
wait $rt
rc=$?
s1=$(cut -d' ' -f1 /proc/uptime)
w1=$(sum $SR/stats/wakeups)
p1=$(sum $SR/stats/subbufs_produced)
echo sched_relay-drained > $T/trace_marker
t_eq "relaytop drained the buffers and exited 0 on SIGTERM" 0 $rc
wakeups=$((w1 - w0))
switches=$((p1 - p0))
awk -v w=$wakeups -v s=$switches -v a=$s0 -v b=$s1 'BEGIN {
	printf "# sched_relay under loadgen: %d wake-ups, %d sub-buffer switches in %.1f s: %.0f wake-ups/s\n",
		w, s, b - a, (b > a) ? w / (b - a) : 0 }'
t_ok "the reader was woken (stats/wakeups grew)" [ "$wakeups" -gt 0 ]
t_ok "no more wake-ups than sub-buffer switches" [ "$wakeups" -le "$switches" ]
t_eq "no kworker ran kernfs_notify_workfn while relaytop drained" 0 \
	"$(notify_works_before sched_relay-drained)"
t_ok "sched_relay unloads" rmmod sched_relay
t_ok "its removal notifies the files: kernfs_notify_workfn runs" \
	t_wait 60 notify_work_after sched_relay-drained
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
echo > $T/trace

# --- sched_relay's wakeup_subbufs, counted per CPU ----------------------------
# every_cpu_woke_as N: with no sub-buffer consumed since the channel was
# created or reset (sub-buffers count from its creation; a reset consumes
# all there was), each CPU's wakeups is its ready sub-buffers,
# subbufs_produced - subbufs_consumed, less N - 1, or 0 below N.
every_cpu_woke_as() {
	paste -d' ' $SR/stats/subbufs_produced $SR/stats/subbufs_consumed \
		$SR/stats/wakeups | awk -v n="$1" '{
		k = NF / 3
		for (i = 1; i <= k; i++) {
			p = $i - $(i + k); w = $(i + 2 * k); want = p >= n ? p - n + 1 : 0
			if (w != want) { printf "cpu%d: %d switches, %d wake-ups, want %d\n", i - 1, p, w, want; bad = 1 }
		}
	} END { exit bad }'
}

# some_cpu_switched_at_least N: a CPU's buffer completed N sub-buffers
# since the channel was created or reset (none consumed).
some_cpu_switched_at_least() {
	paste -d' ' $SR/stats/subbufs_produced $SR/stats/subbufs_consumed | awk -v n="$1" '{
		k = NF / 2
		for (i = 1; i <= k; i++) if ($i - $(i + k) >= n) f = 1
	} END { exit !f }'
}

# load_until N: loadgen until a CPU has switched N times (at most 300 s).
load_until() {
	end=$(( $(cut -d. -f1 /proc/uptime) + 300 ))
	until some_cpu_switched_at_least "$1"; do
		[ "$(cut -d. -f1 /proc/uptime)" -ge $end ] && return 1
		loadgen -q -r 2000 -t 1 > /dev/null 2>&1
	done
}

# hold_open: a sleeper per CPU holds its buffer open (so relay counts the
# wake-ups) and reads nothing; all_held says when every one has its file.
# Not under t_ok, whose output capture would wait for the sleepers.
hold_open() {
	holders=
	for f in $SR/buffers/cpu*; do
		sleep 100000 < $f > /dev/null 2>&1 &
		holders="$holders $!"
	done
}
all_held() {
	for p in $holders; do
		case "$(readlink /proc/$p/fd/0)" in
		$SR/buffers/cpu*) ;;
		*) return 1 ;;
		esac
	done
}
let_go() {
	kill $holders
	wait $holders 2> /dev/null
}

# Switches while a file is closed wake no one and are not counted, so the
# producer is enabled only once every buffer is held open.
t_ok "sched_relay loads disabled, with wakeup_subbufs=4, 8 sub-buffers of 4096 bytes" \
	insmod /lib/modules/sched_relay.ko enabled=0 wakeup_subbufs=4 subbuf_size=4096 n_subbufs=8
t_eq "wakeup_subbufs reads the parameter" 4 "$(cat $SR/wakeup_subbufs)"
hold_open
t_ok "every buffer is held open, none read" t_wait 60 all_held
echo 1 > $SR/enabled
t_ok "a CPU's buffer completes 6 sub-buffers under loadgen" load_until 6
echo 0 > $SR/enabled
t_ok "each CPU woke its reader from the 4th ready sub-buffer on" every_cpu_woke_as 4
t_ok "wakeup_subbufs 1, and a reset" \
	sh -c "echo 1 > $SR/wakeup_subbufs && echo 1 > $SR/reset && echo 1 > $SR/enabled"
t_ok "a CPU's buffer completes 3 sub-buffers under loadgen" load_until 3
echo 0 > $SR/enabled
t_ok "each CPU woke its reader at every switch" every_cpu_woke_as 1
let_go
t_ok "wakeup_subbufs 3, then a new geometry" \
	sh -c "echo 3 > $SR/wakeup_subbufs && echo 8192 > $SR/subbuf_size"
t_eq "wakeup_subbufs still reads 3" 3 "$(cat $SR/wakeup_subbufs)"
hold_open
t_ok "every buffer of the new channel is held open" t_wait 60 all_held
echo 1 > $SR/enabled
t_ok "a CPU's buffer completes 5 sub-buffers under loadgen" load_until 5
echo 0 > $SR/enabled
t_ok "the new channel wakes from the 3rd ready sub-buffer on" every_cpu_woke_as 3
let_go
t_ok "sched_relay unloads" rmmod sched_relay
t_ok "sched_relay refuses wakeup_subbufs=0 at load" \
	sh -c "! insmod /lib/modules/sched_relay.ko wakeup_subbufs=0 2> /dev/null"
t_ok "and is not loaded" sh -c "! test -d $SR"
t_no_splat "the kernel log has no splat"
t_done

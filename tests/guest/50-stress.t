#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 50-stress.t - pins that sched_relay survives, with loadgen running and
# relaytop --record attached, time-bounded loops of: reset; re-configuration
# of subbuf_size, n_subbufs, overwrite, events, enabled; module unload and
# reload; CPU offline/online; a reader stopped with SIGSTOP.  relaytop must
# exit 0 and its recording must dump; the kernel log must stay free of
# splats.  Across the reloads the recording says the channel went away and
# came back, and records follow.  Prints the iterations per scenario.
#
# The "readers" scenario pins what several readers of one channel get: two
# relaytop --record, a relaytop -b and a read() reader (cat cpuN) at once
# under load.  The kernel keeps one consumed count per buffer, so every
# reader hands back (write(N)) or read()s away sub-buffers the others may
# not have read yet: readers steal from each other.  What each relaytop
# still promises is its own exact accounting: a sub-buffer another reader
# freed and the producer then overwrote is detected by its sequence number
# and counted as lost, so per CPU, events in each recording + its lost =
# produced, and its dropped = the producer's dropped; each exits 0.
# Every recording of every scenario passes relaytop --check (per CPU and
# generation: no record twice, none out of place, every gap counted).
# Leaves the module unloaded.
. /tests/lib/tap.sh

SECS=${STRESS_SECS:-8}
D=/sys/kernel/sched_relay

step_reset() { echo 1 > $D/reset; }
step_config() {
	case $((i % 5)) in
	0) echo $((4096 << (i % 4))) > $D/subbuf_size ;;
	1) echo $((2 + i % 7)) > $D/n_subbufs ;;
	2) echo $((i % 2)) > $D/overwrite ;;
	3) echo $(( (i * 7) % 128 )) > $D/events ;;
	4) echo $((i % 2)) > $D/enabled ;;
	esac
}
step_reload() { rmmod sched_relay && insmod /lib/modules/sched_relay.ko; }
step_cpu() { echo 0 > /sys/devices/system/cpu/cpu$((1 + i % 3))/online; echo 1 > /sys/devices/system/cpu/cpu$((1 + i % 3))/online; }
step_sigstop() { kill -STOP $rt; sleep 1; kill -CONT $rt; }

# scenario NAME STEP: loop STEP for SECS seconds under load with a recorder.
scenario() {
	dmesg -c > /dev/null
	grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
	/usr/bin/loadgen > /dev/null 2>&1 &
	lg=$!
	# (a scenario's recording replaces the last one's: --record would
	# keep it as rec.bin.old, twice the memory in the guest's tmpfs)
	rm -f /tmp/rec.bin
	relaytop --record /tmp/rec.bin --no-ui > /tmp/rt.out 2>&1 &
	rt=$!
	t_wait 120 grep -q 'recording to' /tmp/rt.out
	i=0
	end=$(($(date +%s) + SECS))
	while [ "$(date +%s)" -lt $end ]; do
		$2 2>/dev/null
		i=$((i + 1))
	done
	echo "# scenario $1: $i iterations in ${SECS}s"
	# a tick or two after the last step (a reload: the channel is back)
	sleep 3
	kill -TERM $rt 2>/dev/null
	wait $rt
	rc=$?
	kill $lg 2>/dev/null; wait $lg 2>/dev/null
	t_eq "$1: relaytop --record exits 0" 0 $rc
	[ $rc -eq 0 ] || sed 's/^/# /' /tmp/rt.out | tail -5
	t_ok "$1: the recording dumps" sh -c 'relaytop --dump /tmp/rec.bin > /dev/null'
	t_relaytop_check "$1" /tmp/rec.bin
	t_no_splat "$1: the kernel log has no splat"
	[ -e $D/reset ] && { echo 65536 > $D/subbuf_size; echo 8 > $D/n_subbufs; echo 0 > $D/overwrite; echo all > $D/events; echo 1 > $D/enabled; }
}

# readers: several readers of the same buffers at once (see the top).
readers() {
	dmesg -c > /dev/null
	grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko
	# start every reader on empty buffers of one sequence, so that each
	# recording can account for everything produced after this reset
	echo 0 > $D/enabled
	echo 1 > $D/reset
	rm -f /tmp/rec1.bin /tmp/rec2.bin
	relaytop --record /tmp/rec1.bin --no-ui > /tmp/rt1.out 2>&1 &
	r1=$!
	relaytop --record /tmp/rec2.bin --no-ui -d 0.5 > /tmp/rt2.out 2>&1 &
	r2=$!
	relaytop -b -d 1 -t $((SECS + 4)) > /tmp/rtb.out 2>&1 &
	rb=$!
	t_wait 120 grep -q 'recording to' /tmp/rt1.out
	t_wait 120 grep -q 'recording to' /tmp/rt2.out
	echo 1 > $D/enabled
	/usr/bin/loadgen > /dev/null 2>&1 &
	lg=$!
	i=0
	end=$(($(date +%s) + SECS))
	while [ "$(date +%s)" -lt $end ]; do
		# a bounded read(): under load the buffer may never run dry
		dd if=$D/buffers/cpu$((i % 4)) of=/dev/null bs=4096 count=16 2>/dev/null
		i=$((i + 1))
	done
	kill $lg 2>/dev/null; wait $lg 2>/dev/null
	echo 0 > $D/enabled	# the counters stand still once this returns
	sr_stats_table $D > /tmp/stats.txt
	# (relaytop reads what was committed when SIGTERM ends it, below)
	echo "# scenario readers: $i read() passes over cpu0..cpu3 in ${SECS}s, $(grep -c '^# relaytop ' /tmp/rtb.out) relaytop -b blocks"
	for p in $r1 $r2; do
		kill -TERM $p 2>/dev/null
	done
	wait $r1; rc1=$?
	wait $r2; rc2=$?
	wait $rb; rcb=$?
	t_eq "readers: the first relaytop --record exits 0" 0 $rc1
	t_eq "readers: the second relaytop --record exits 0" 0 $rc2
	t_eq "readers: relaytop -b exits 0" 0 $rcb
	for n in 1 2; do
		# only the summary at the end: "# cpu events dropped lost"
		{ relaytop --dump /tmp/rec$n.bin 2>&1; echo "exit $?"; } |
			tail -n 12 > /tmp/dump$n.txt
		t_eq "readers: recording $n dumps" "exit 0" "$(tail -n 1 /tmp/dump$n.txt)"
		bad=
		for c in $(awk '$1 ~ /^[0-9]+$/ { print $1 }' /tmp/stats.txt); do
			set -- $(awk -v c=$c '$1 == c { print $2, $3 }' /tmp/stats.txt)
			p=$1 d=$2
			set -- $(awk -v c=$c '$1 == "#" && $2 == c && NF == 5 { print $3, $4, $5 }' /tmp/dump$n.txt)
			[ "$(($1 + $3))" = "$p" ] && [ "$2" = "$d" ] ||
				bad="$bad cpu$c: file $1+$3 lost, $2 dropped; producer $p, $d dropped;"
		done
		t_eq "readers: recording $n: per CPU events + lost = produced, dropped = the producer's" "" "$bad"
		t_relaytop_check "readers: recording $n" /tmp/rec$n.bin
		awk -v n=$n '$1 == "#" && $2 == "all" && NF == 5 {
			print "# readers: recording " n ": " $3 " events, " $4 " dropped, " $5 " lost" }' /tmp/dump$n.txt
	done
	t_no_splat "readers: the kernel log has no splat"
	echo 1 > $D/enabled
}

# went_away_and_back DUMP: a "[CHANNEL WENT AWAY]" line, a "# configuration:"
# line after it, and a record after that.
went_away_and_back() {
	awk '/\[CHANNEL WENT AWAY\]$/ { gone = 1 }
		gone && /^# configuration: / { back = 1 }
		back && / \[[0-9][0-9][0-9]\] +[0-9]+\.[0-9]+: / { ok = 1 }
		END { exit !ok }' "$1"
}

t_eq "the guest has 4 CPUs online" 0-3 "$(cat /sys/devices/system/cpu/online)"
scenario reset step_reset
scenario config step_config
scenario reload step_reload
relaytop --dump /tmp/rec.bin > /tmp/reload.txt 2>&1
t_ok "reload: the recording says the channel went away, came back, and records follow" \
	went_away_and_back /tmp/reload.txt
echo "# reload: the channel went away $(grep -c 'CHANNEL WENT AWAY\]$' /tmp/reload.txt) times in the recording, came back $(grep -c '^# configuration: ' /tmp/reload.txt) times"
scenario cpu-hotplug step_cpu
scenario sigstop step_sigstop
readers
t_ok "sched_relay unloads" rmmod sched_relay
t_done

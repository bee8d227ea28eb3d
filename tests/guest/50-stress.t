#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 50-stress.t - pins that sched_relay survives, with loadgen running and
# relaytop --record attached, time-bounded loops of: reset; re-configuration
# of subbuf_size, n_subbufs, overwrite, events, enabled; module unload and
# reload; CPU offline/online; a reader stopped with SIGSTOP.  relaytop must
# exit 0 and its recording must dump; the kernel log must stay free of
# splats.  Prints the iterations per scenario.  Leaves the module unloaded.
. /tests/lib/tap.sh

SECS=${STRESS_SECS:-8}
D=/sys/kernel/sched_relay
SPLAT='Oops|BUG:|WARNING:|Call Trace:|scheduling while atomic|sleeping function called|soft lockup|detected stalls|blocked for more than|suspicious RCU usage|circular locking|inconsistent lock state|KASAN|KFENCE'

step_reset() { echo 1 > $D/reset; }
step_config() {
	case $((i % 5)) in
	0) echo $((4096 << (i % 4))) > $D/subbuf_size ;;
	1) echo $((2 + i % 7)) > $D/n_subbufs ;;
	2) echo $((i % 2)) > $D/overwrite ;;
	3) echo $(( (i * 7) % 64 )) > $D/events ;;
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
	relaytop --record /tmp/rec.bin --no-ui -t $((SECS + 3)) > /tmp/rt.out 2>&1 &
	rt=$!
	sleep 1
	i=0
	end=$(($(date +%s) + SECS))
	while [ "$(date +%s)" -lt $end ]; do
		$2 2>/dev/null
		i=$((i + 1))
	done
	echo "# scenario $1: $i iterations in ${SECS}s"
	wait $rt
	rc=$?
	kill $lg 2>/dev/null; wait $lg 2>/dev/null
	t_eq "$1: relaytop --record exits 0" 0 $rc
	[ $rc -eq 0 ] || sed 's/^/# /' /tmp/rt.out | tail -5
	t_ok "$1: the recording dumps" sh -c 'relaytop --dump /tmp/rec.bin > /dev/null'
	t_ok "$1: the kernel log has no splat" sh -c "! dmesg | grep -E '$SPLAT'"
	[ -e $D/reset ] && { echo 65536 > $D/subbuf_size; echo 8 > $D/n_subbufs; echo 0 > $D/overwrite; echo all > $D/events; echo 1 > $D/enabled; }
}

scenario reset step_reset
scenario config step_config
scenario reload step_reload
scenario cpu-hotplug step_cpu
scenario sigstop step_sigstop
t_ok "sched_relay unloads" rmmod sched_relay
t_done

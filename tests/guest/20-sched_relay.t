#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 20-sched_relay.t - pins the sched_relay producer as its users meet it:
# the module loads; /sys/kernel/sched_relay shows a buffer per CPU in
# buffers/, the control files, and stats/ with one array over the CPUs per
# counter; under loadgen it records; `echo 1 > reset` from a shell
# empties every buffer and bumps generation by one; then the C tests pin
# the control files and their errnos (sched_relay_control), the records
# and sub-buffer headers read through read() and mmap() (sched_relay_records),
# the accounting of produced and dropped events (sched_relay_stats), and
# poll() on generation (sched_relay_poll); the module unloads; and the
# kernel log stays free of splats throughout.
. /tests/lib/tap.sh

SR=/sys/kernel/sched_relay
# Every column but the first (cpu) of every line but the header is 0.
stats_all() {
	_t=$(sr_stats_table $SR) || { echo "stats/ is not five arrays of one length"; return 1; }
	echo "$_t" | awk -v col="$1" -v want="$2" 'NR > 1 && $col != want { bad = 1 } END { exit bad }'
}

# stats_arrays: every stats/ file is one line, one value per CPU number.
stats_arrays() {
	_n=$(grep -c ^processor /proc/cpuinfo)
	for _f in $SR/stats/*; do
		[ "$(wc -l < $_f)" -eq 1 ] && [ "$(awk '{ print NF }' $_f)" -eq $_n ] &&
			awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) exit 1 }' $_f ||
			{ echo "$_f: $(cat $_f)"; return 1; }
	done
}

dmesg -c > /dev/null
rmmod sched_relay 2>/dev/null
t_ok "sched_relay loads" insmod /lib/modules/sched_relay.ko
t_eq "one buffer file per CPU" "$(grep -c ^processor /proc/cpuinfo)" "$(ls $SR/buffers | grep -c '^cpu[0-9][0-9]*$')"
for f in enabled events overwrite subbuf_size n_subbufs reset generation \
	stats/produced stats/dropped stats/subbufs_produced stats/subbufs_consumed \
	stats/fill_bytes stats/wakeups; do
	t_ok "$SR/$f exists" test -e $SR/$f
done
t_ok "the buffers are in buffers/, not among the attributes" sh -c "! ls $SR | grep -q '^cpu'"
t_ok "stats/ holds six files, each an array of one value per CPU" stats_arrays
t_eq "stats/ holds nothing else" 6 "$(ls $SR/stats | wc -l)"
t_ok "loadgen runs on every CPU" loadgen -q -t 0.5
t_ok "events were recorded" sh -c ". /tests/lib/tap.sh; sr_stats_table $SR | awk 'NR > 1 { n += \$2 } END { exit !(n > 0) }'"
echo 0 > $SR/enabled
gen=$(cat $SR/generation)
t_ok "echo 1 > reset succeeds" sh -c "echo 1 > $SR/reset"
t_eq "reset bumps generation by one" "$((gen + 1))" "$(cat $SR/generation)"
t_ok "reset zeroes produced on every CPU" stats_all 2 0
t_ok "reset zeroes dropped on every CPU" stats_all 3 0
t_ok "reset leaves one empty sub-buffer (its header) per CPU" stats_all 6 64
t_eq "cpu0 reads as a lone 64-byte header" 64 "$(cat $SR/buffers/cpu0 | wc -c)"
echo 1 > $SR/enabled

t_run_c sched_relay_control
t_run_c sched_relay_records
t_run_c sched_relay_stats
t_run_c sched_relay_poll

t_ok "sched_relay unloads" rmmod sched_relay
t_ok "its sysfs directory is gone" test ! -e $SR
t_no_splat "the kernel log has no splat"
t_done && [ $T_C_FAILED -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 35-sched-views.t - pins relaytop's scheduler figures (issue 19) against
# the real channel, under a load whose shape is known: loadgen -c 0,1 -r
# 2000 runs, per CPU, one pair of named threads (lgd-C-0 and lge-C-0)
# switching 2000 times a second, while relaytop -b --tasks --latency runs
# live and records:
# - the tasks tables name those threads, and in a block in the middle of
#   the run their switches/s on each CPU are within 10 % of the rate
#   loadgen reports for its threads there (task_ctxt/s: the kernel's
#   count of their context switches);
# - the latency figures account for every wakeup in the recording: for
#   each loadgen thread, --report's latencies + missed + no_wait equal its
#   sched_waking and sched_wakeup_new records in --dump;
# - the final batch block (since the start, after everything was read)
#   has the same latency table as --report on the recording: count,
#   missed, p50, p90, p99, max and mean per CPU and all.
. /tests/lib/tap.sh

dir=/sys/kernel/sched_relay
tmp=/tmp/35-sched-views
mkdir -p $tmp
if [ ! -d $dir ]; then
	insmod /lib/modules/sched_relay.ko
fi
t_ok "the sched_relay channel is there" test -d $dir
echo 0 > $dir/enabled
echo all > $dir/events
echo 0 > $dir/overwrite
echo 262144 > $dir/subbuf_size
echo 16 > $dir/n_subbufs
echo 1 > $dir/enabled
echo 1 > $dir/reset

relaytop -b -d 0.5 --tasks --latency --record $tmp/r.bin \
	> $tmp/batch.txt 2> $tmp/relaytop.err &
rt=$!
t_ok "relaytop prints its blocks" t_wait 60 t_lines_at_least 2 $tmp/batch.txt '^# relaytop '
loadgen -c 0,1 -r 2000 -t 4 > $tmp/loadgen.txt 2>&1
t_eq "loadgen runs" 0 $?
# relaytop has every event: the producer stops, relaytop catches up
echo 0 > $dir/enabled
sr_stats_table $dir > $tmp/stats.txt
t_ok "relaytop read every event" t_wait 60 t_relaytop_has $rt $tmp/relaytop.err $tmp/stats.txt
kill -TERM $rt
wait $rt
t_eq "relaytop ends with status 0" 0 $?
t_ok "a final block" grep -q '^# relaytop .* final' $tmp/batch.txt

# --- the tasks view's rates ------------------------------------------------
# rate CPU: the switches/s of lgd-CPU-0 and lge-CPU-0 together, in the
# middle one of the blocks that have both (tasks table: comm is $13)
rate() {
	awk -v c=$1 '
		/^# relaytop / { b++; sec = 0 }
		/^# tasks the last interval/ { sec = 1; next }
		/^$/ { sec = 0 }
		sec && ($13 == "lgd-" c "-0" || $13 == "lge-" c "-0") {
			r[b] += $3; seen[b]++
		}
		END {
			for (i = 1; i <= b; i++) if (seen[i] == 2) k[++n] = i
			if (!n) exit 1
			print r[k[int((n + 1) / 2)]]
		}' $tmp/batch.txt
}
within10() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d <= b / 10) }' || {
		echo "relaytop: $1/s, loadgen: $2/s"; return 1; }
}
for cpu in 0 1; do
	want=$(awk -v c=$cpu '$1 == c { print $5 }' $tmp/loadgen.txt)
	got=$(rate $cpu)
	echo "# CPU $cpu: loadgen's threads switch $want/s (loadgen), $got/s (relaytop)"
	t_ok "CPU $cpu: the tasks view names lgd-$cpu-0 and lge-$cpu-0" test -n "$got"
	t_ok "CPU $cpu: their switches/s within 10 % of loadgen's" within10 "$got" "$want"
done

# --- every wakeup accounted for -----------------------------------------
relaytop --report $tmp/r.bin > $tmp/report.txt
t_eq "relaytop --report exits 0" 0 $?
relaytop --dump $tmp/r.bin > $tmp/dump.txt
t_eq "relaytop --dump exits 0" 0 $?
for name in lgd-0-0 lge-0-0 lgd-1-0 lge-1-0; do
	pid=$(awk -v n=$name '$13 == n { print $1; exit }' $tmp/report.txt)
	wakeups=$(grep -c -E "sched_(waking|wakeup_new): comm=[^ ]* pid=$pid " $tmp/dump.txt)
	relaytop --report $tmp/r.bin -p "$pid" > $tmp/report-$name.txt
	counted=$(awk -v p=$pid '
		/^# latency per CPU/ { sec = 1; next }
		sec && $1 == "all" { lat = $2 + $3 }
		/^# tasks/ { t = 1; next }
		t && $1 == p { nw = $12; t = 0 }
		END { print lat + nw }' $tmp/report-$name.txt)
	echo "# $name (pid $pid): $wakeups wakeups in the recording, $counted latencies + missed + no_wait"
	t_ok "$name: the latency figures count each of its wakeups once" \
		test "$wakeups" -gt 0 -a "$wakeups" = "$counted"
done

# --- live and report agree ----------------------------------------------
awk '/^# relaytop .* final/ { f = 1 } f && /^# latency since the start/ { s = 1; next }
	s && /^lat / { p = 1 } p && /^ *usecs/ { exit } p' $tmp/batch.txt > $tmp/live-lat.txt
awk '/^# latency per CPU/ { p = 1; next } p && /^$/ { exit } p' $tmp/report.txt > $tmp/report-lat.txt
t_ok "the final block has a latency table" test -s $tmp/live-lat.txt
t_ok "the final block's latency table is --report's" cmp $tmp/live-lat.txt $tmp/report-lat.txt
[ -s $tmp/live-lat.txt ] && sed 's/^/# /' $tmp/live-lat.txt

echo 1 > $dir/enabled
rm -rf $tmp
t_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 35-sched-views.t - pins relaytop's scheduler figures (issue 19) against
# the real channel, under a load whose shape is known: loadgen -c 0,1 -r
# 2000 runs, per CPU, one pair of named threads (lgd-C-0 and lge-C-0)
# switching 2000 times a second, while relaytop -b --tasks --latency runs
# live and records:
# - the tasks tables name those threads; on each CPU, --report's count
#   of their switches over the whole run is the kernel's (loadgen's
#   task_ctxt, which it reads in each thread) within 0.1 % + 20 (the
#   threads' start and end, outside loadgen's count); and the median of
#   their switches/s over the blocks where they ran the whole interval is
#   within 10 % of loadgen's task_ctxt/s (a single interval of a busy
#   guest can be off more);
# - the latency figures account for every wakeup in the recording: for
#   each loadgen thread, --report's latencies + missed + no_wait equal its
#   sched_waking and sched_wakeup_new records in --dump;
# - the final batch block (since the start, after everything was read)
#   has the same latency tables (wakeup and run-queue) as --report on the
#   recording: count, missed, p50, p90, p99, max and mean per CPU and all.
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
# rate CPU: the switches/s of lgd-CPU-0 and lge-CPU-0 together, the
# median over the blocks that have both, but the first and the last of
# them (the threads start and end within those; tasks table: comm is $16)
rate() {
	awk -v c=$1 '
		/^# relaytop / { b++; sec = 0 }
		/^# tasks the last interval/ { sec = 1; next }
		/^$/ { sec = 0 }
		sec && ($16 == "lgd-" c "-0" || $16 == "lge-" c "-0") {
			r[b] += $3; seen[b]++
		}
		END {
			for (i = 1; i <= b; i++) if (seen[i] == 2) k[++n] = i
			if (n < 3) exit 1
			m = 0
			for (i = 2; i < n; i++) v[++m] = r[k[i]]
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			print m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
		}' $tmp/batch.txt
}
# count CPU: --report's switches of lgd-CPU-0 and lge-CPU-0 (the whole
# recording, which spans loadgen's run)
count() {
	awk -v c=$1 '
		/^# tasks/ { sec = 1; next }
		/^$/ { sec = 0 }
		sec && ($16 == "lgd-" c "-0" || $16 == "lge-" c "-0") {
			n += $3; seen++
		}
		END { if (seen != 2) exit 1; print n }' $tmp/report.txt
}
within10() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d <= b / 10) }' || {
		echo "relaytop: $1/s, loadgen: $2/s"; return 1; }
}
close_count() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d <= b / 1000 + 20) }' || {
		echo "relaytop: $1, the kernel: $2"; return 1; }
}
relaytop --report $tmp/r.bin > $tmp/report.txt
t_eq "relaytop --report exits 0" 0 $?
for cpu in 0 1; do
	want=$(awk -v c=$cpu '$1 == c { print $5 }' $tmp/loadgen.txt)
	want_n=$(awk -v c=$cpu '$1 == c { print $4 }' $tmp/loadgen.txt)
	got=$(rate $cpu)
	got_n=$(count $cpu)
	echo "# CPU $cpu: loadgen's threads switch $want_n times, $want/s (the kernel), $got_n times (--report), a median $got/s (relaytop's blocks)"
	t_ok "CPU $cpu: the tasks view names lgd-$cpu-0 and lge-$cpu-0" test -n "$got"
	t_ok "CPU $cpu: their switches over the run are the kernel's count (0.1 % + 20)" close_count "$got_n" "$want_n"
	t_ok "CPU $cpu: their median switches/s within 10 % of loadgen's" within10 "$got" "$want"
done

# --- every wakeup accounted for -----------------------------------------
relaytop --dump $tmp/r.bin > $tmp/dump.txt
t_eq "relaytop --dump exits 0" 0 $?
for name in lgd-0-0 lge-0-0 lgd-1-0 lge-1-0; do
	pid=$(awk -v n=$name '$16 == n { print $1; exit }' $tmp/report.txt)
	wakeups=$(grep -c -E "sched_(waking|wakeup_new): comm=[^ ]* pid=$pid " $tmp/dump.txt)
	relaytop --report $tmp/r.bin -p "$pid" > $tmp/report-$name.txt
	counted=$(awk -v p=$pid '
		/^# wakeup latency per CPU/ { sec = 1; next }
		/^$/ { sec = 0 }
		sec && $1 == "all" { lat = $2 + $3 }
		/^# tasks/ { t = 1; next }
		t && $1 == p { nw = $12; t = 0 }
		END { print lat + nw }' $tmp/report-$name.txt)
	echo "# $name (pid $pid): $wakeups wakeups in the recording, $counted latencies + missed + no_wait"
	t_ok "$name: the latency figures count each of its wakeups once" \
		test "$wakeups" -gt 0 -a "$wakeups" = "$counted"
done

# --- live and report agree ----------------------------------------------
awk '/^# relaytop .* final/ { f = 1 } f && /^# wakeup latency since the start/ { s = 1; next }
	s && /^wake / { p = 1 } p && /^ *usecs/ { exit } p' $tmp/batch.txt > $tmp/live-lat.txt
awk '/^# wakeup latency per CPU/ { p = 1; next } p && /^$/ { exit } p' $tmp/report.txt > $tmp/report-lat.txt
t_ok "the final block has a latency table" test -s $tmp/live-lat.txt
t_ok "the final block's latency table is --report's" cmp $tmp/live-lat.txt $tmp/report-lat.txt
[ -s $tmp/live-lat.txt ] && sed 's/^/# /' $tmp/live-lat.txt
awk '/^# relaytop .* final/ { f = 1 } f && /^# run-queue latency since the start/ { s = 1; next }
	s && /^runq / { p = 1 } p && /^ *usecs/ { exit } p' $tmp/batch.txt > $tmp/live-rq.txt
awk '/^# run-queue latency per CPU/ { p = 1; next } p && /^$/ { exit } p' $tmp/report.txt > $tmp/report-rq.txt
t_ok "the final block has a run-queue latency table" test -s $tmp/live-rq.txt
t_ok "the final block's run-queue latency table is --report's" cmp $tmp/live-rq.txt $tmp/report-rq.txt

echo 1 > $dir/enabled
rm -rf $tmp
t_done

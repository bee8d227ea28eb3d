#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 30-relaytop.t - pins relaytop against the real sched_relay channel:
# - `relaytop -b -n 3` under load prints three blocks with one line per CPU
#   and a non-zero event rate on every CPU;
# - a recording made under load and ended after the producer was disabled
#   holds, per CPU, exactly the events the producer's stats file says it
#   produced since the reset before it (events in the file + events
#   relaytop lost == produced), its drop counts equal the producer's, and
#   --dump decodes every one of those events into a line;
# - with relaytop stopped (SIGSTOP) under load, the producer's drops
#   (no-overwrite) and relaytop's losses to overwriting (overwrite mode) are
#   counted exactly, per CPU, and shown where they happened;
# - a reset from another process shows in the first block after it, with
#   the new generation;
# - a new geometry (the buffer files are re-created) is followed: relaytop
#   says the channel went away and came back, and maps the new size;
# - SIGTERM ends a recording with a complete file; a missing channel is a
#   clear error;
# - --realtime PRIO runs relaytop at SCHED_FIFO PRIO and a command it runs
#   at the normal policy; a priority out of 1-99 is a bad command line;
# - every recording passes relaytop --check: per CPU and generation no
#   record twice or out of place, every gap exactly the drops and losses
#   the file counts there, time never going back.
. /tests/lib/tap.sh

dir=/sys/kernel/sched_relay
tmp=/tmp/30-relaytop
mkdir -p $tmp
ncpus=$(grep -c ^processor /proc/cpuinfo)
loaded_here=
if [ ! -d $dir ]; then
	insmod /lib/modules/sched_relay.ko && loaded_here=1
fi
t_ok "the sched_relay channel is there" test -d $dir
# a known configuration, whatever earlier tests left
echo 1 > $dir/enabled
echo all > $dir/events
echo 0 > $dir/overwrite
echo 65536 > $dir/subbuf_size
echo 8 > $dir/n_subbufs

t_ok "relaytop --version" relaytop --version
t_ok "relaytop --help names --record" sh -c 'relaytop --help | grep -q -- --record'

# --- batch mode under load -------------------------------------------------
loadgen -q -r 2000 -t 30 > /dev/null 2>&1 &
load=$!
sleep 1
relaytop -b -n 3 -d 1 > $tmp/batch.txt 2> $tmp/batch.err
t_eq "relaytop -b -n 3 exits 0" 0 $?
t_eq "three blocks" 3 "$(grep -c '^# relaytop ' $tmp/batch.txt)"
# the last block: lines whose first field is a CPU number
last=$(awk '/^# relaytop /{b++} b==3' $tmp/batch.txt)
t_eq "one line per CPU in a block" "$ncpus" \
	"$(printf '%s\n' "$last" | awk '$1 ~ /^[0-9]+$/' | wc -l)"
t_eq "every CPU has a non-zero event rate" "$ncpus" \
	"$(printf '%s\n' "$last" | awk '$1 ~ /^[0-9]+$/ && $2 > 0' | wc -l)"
t_ok "an 'all' line sums them" sh -c "printf '%s\n' \"\$1\" | awk '\$1 == \"all\" && \$2 > 0 { ok = 1 } END { exit !ok }'" _ "$last"
if [ "$(printf '%s\n' "$last" | awk '$1 ~ /^[0-9]+$/ && $2 > 0' | wc -l)" != "$ncpus" ]; then
	sed 's/^/# /' $tmp/batch.txt
fi

# --- a reset from another process, seen within one interval ----------------
relaytop -b -d 1 -n 6 > $tmp/reset.txt 2>&1 &
rt=$!
t_wait 120 t_lines_at_least 2 $tmp/reset.txt '^# relaytop '
before=$(grep -c '^# relaytop ' $tmp/reset.txt)
echo 1 > $dir/reset
after=$(grep -c '^# relaytop ' $tmp/reset.txt)
gen=$(cat $dir/generation)
wait $rt
# The first block that says so: the next one after the reset returned, or
# the one after it when a tick had already read the buffers as the reset
# came (it prints a moment later): within one interval either way.
seen=$(awk -v g="channel reset (generation $gen)" '/^# relaytop /{b++}
	index($0, g) { print b; exit }' $tmp/reset.txt)
t_ok "a reset from another shell shows within one interval (blocks before it: $before/$after, seen in: ${seen:-none})" \
	sh -c "[ -n '$seen' ] && [ '$seen' -gt '$before' ] && [ '$seen' -le $((after + 2)) ]"
next=$(awk -v n="${seen:-0}" '/^# relaytop /{b++} b==n' $tmp/reset.txt)
t_ok "and that block shows the new generation" \
	sh -c "printf '%s\n' \"\$1\" | head -n 1 | grep -q ' generation $gen '" _ "$next"
kill $load 2>/dev/null
wait $load 2>/dev/null

# --- record under load, compare with the producer's own counts -------------
echo 1 > $dir/reset
relaytop --record $tmp/r.bin --no-ui > $tmp/record.txt 2> $tmp/record.err &
rec=$!
t_wait 120 grep -q 'recording to' $tmp/record.err
loadgen -q -r 2000 -t 4 > /dev/null 2>&1
echo 0 > $dir/enabled	# the counters stand still once this returns
sr_stats_table $dir > $tmp/stats.txt
kill -TERM $rec		# it reads what was committed, then ends
wait $rec
t_eq "relaytop --record, ended by SIGTERM, exits 0" 0 $?
relaytop --dump $tmp/r.bin > $tmp/dump.txt 2> $tmp/dump.err
t_eq "relaytop --dump of it exits 0" 0 $?
echo 1 > $dir/enabled
cpu=0
while [ $cpu -lt $ncpus ]; do
	produced=$(awk -v c=$cpu '$1 == c { print $2 }' $tmp/stats.txt)
	dropped=$(awk -v c=$cpu '$1 == c { print $3 }' $tmp/stats.txt)
	# the dump's summary: "#  cpu events dropped lost"
	events=$(awk -v c=$cpu '$1 == "#" && $2 == c && NF == 5 { print $3 }' $tmp/dump.txt)
	fdropped=$(awk -v c=$cpu '$1 == "#" && $2 == c && NF == 5 { print $4 }' $tmp/dump.txt)
	lost=$(awk -v c=$cpu '$1 == "#" && $2 == c && NF == 5 { print $5 }' $tmp/dump.txt)
	lines=$(grep -c "\[$(printf %03d $cpu)\] " $tmp/dump.txt)
	t_eq "cpu$cpu: events in the file + lost = produced ($produced)" \
		"$produced" "$((events + lost))"
	t_eq "cpu$cpu: dropped in the file = the producer's ($dropped)" \
		"$dropped" "$fdropped"
	t_eq "cpu$cpu: --dump decodes every event into a line" "$events" "$lines"
	cpu=$((cpu + 1))
done
t_ok "the recording is not empty" \
	sh -c "awk '\$1 == \"#\" && \$2 == \"all\" && \$3 > 1000 { ok = 1 } END { exit !ok }' $tmp/dump.txt"
t_ok "sched_switch lines carry the kernel's field names" \
	grep -q 'sched_switch: prev_comm=.* prev_pid=[0-9]* prev_prio=[0-9]* prev_state=[A-Z+|]* ==> next_comm=.* next_pid=[0-9]* next_prio=[0-9]*$' $tmp/dump.txt
t_ok "relaytop printed a per-CPU summary" grep -q '^all ' $tmp/record.txt
t_relaytop_check "under load" $tmp/r.bin
t_ok "the dump shows each task's tgid: 'comm-pid (tgid) [cpu]'" \
	grep -q -- '-[0-9]* *( *[0-9]*) \[[0-9][0-9][0-9]\] ' $tmp/dump.txt

# --- drops and losses counted exactly: relaytop stopped while the load runs -
# compare_counts NAME: per CPU, file events + lost = produced and file
# dropped = the producer's dropped ($tmp/stats.txt vs the dump's summary);
compare_counts() {
	name=$1
	relaytop --dump $tmp/$name.bin > $tmp/$name.txt 2>&1
	t_eq "$name: relaytop --dump exits 0" 0 $?
	bad=
	for c in $(awk '$1 ~ /^[0-9]+$/ { print $1 }' $tmp/stats.txt); do
		p=$(awk -v c=$c '$1 == c { print $2 }' $tmp/stats.txt)
		d=$(awk -v c=$c '$1 == c { print $3 }' $tmp/stats.txt)
		set -- $(awk -v c=$c '$1 == "#" && $2 == c && NF == 5 { print $3, $4, $5 }' $tmp/$name.txt)
		[ "$(($1 + $3))" = "$p" ] && [ "$2" = "$d" ] ||
			bad="$bad cpu$c: file $1+$3 lost, $2 dropped; producer $p, $d dropped;"
	done
	t_eq "$name: every CPU's events + lost = produced, dropped = the producer's" "" "$bad"
	t_relaytop_check "$name" $tmp/$name.bin
	awk -v n=$name '$1 == "#" && $2 == "all" && NF == 5 {
		print "# " n ": " $3 " events, " $4 " dropped, " $5 " lost" }' $tmp/$name.txt
}

# record_stopped NAME: record under load into $tmp/NAME.bin with relaytop
# stopped (SIGSTOP) for 2 s in the middle; stop the producer, keep its
# stats in $tmp/stats.txt; the status is relaytop's.
record_stopped() {
	relaytop --record $tmp/$1.bin --no-ui > $tmp/$1.err 2>&1 &
	rec=$!
	t_wait 120 grep -q 'recording to' $tmp/$1.err
	loadgen -q -r 2000 -t 5 > /dev/null 2>&1 &
	load=$!
	sleep 1
	kill -STOP $rec
	sleep 2
	kill -CONT $rec
	wait $load
	echo 0 > $dir/enabled
	sr_stats_table $dir > $tmp/stats.txt
	kill -TERM $rec
	wait $rec
}

# no-overwrite, 2 x 4 KiB: while relaytop is stopped the buffers fill and
# the producer drops; the file must say how many, per CPU, exactly
echo 4096 > $dir/subbuf_size
echo 2 > $dir/n_subbufs
echo 1 > $dir/reset
record_stopped drops
t_eq "relaytop --record survives being stopped (exit 0)" 0 $?
echo 1 > $dir/enabled
compare_counts drops
t_ok "the producer did drop while relaytop was stopped" \
	sh -c "awk '\$1 == \"#\" && \$2 == \"all\" && \$4 > 0 { ok = 1 } END { exit !ok }' $tmp/drops.txt"
t_ok "the dump shows where: 'CPU:N [n EVENTS DROPPED]'" \
	grep -q '^CPU:[0-9]* \[[0-9]* EVENTS DROPPED\]$' $tmp/drops.txt

# overwrite: while relaytop is stopped the buffers are overwritten; what it
# lost must be counted exactly (the producer drops nothing)
echo 1 > $dir/overwrite
echo 1 > $dir/reset
record_stopped lost
t_eq "relaytop --record in overwrite mode exits 0" 0 $?
echo 1 > $dir/enabled
compare_counts lost
t_ok "relaytop did lose events while it was stopped" \
	sh -c "awk '\$1 == \"#\" && \$2 == \"all\" && \$5 > 0 { ok = 1 } END { exit !ok }' $tmp/lost.txt"
t_ok "the dump shows where: 'CPU:N [n EVENTS LOST: ...]'" \
	grep -q '^CPU:[0-9]* \[[0-9]* EVENTS LOST: ' $tmp/lost.txt
echo 0 > $dir/overwrite
echo 8 > $dir/n_subbufs
echo 65536 > $dir/subbuf_size

# --- a new geometry re-creates the buffers: followed -----------------------
relaytop -b -d 1 -n 5 > $tmp/geom.txt 2>&1 &
rt=$!
t_wait 120 t_lines_at_least 1 $tmp/geom.txt '^# relaytop '
echo 16384 > $dir/subbuf_size
wait $rt
t_eq "relaytop survives the re-creation (exit 0)" 0 $?
t_ok "it maps the new size" grep -q 'subbufs 8x16384' $tmp/geom.txt
t_ok "and says the channel came back" grep -q 'channel is back' $tmp/geom.txt
echo 65536 > $dir/subbuf_size

# --- SIGTERM ends a recording cleanly; a missing channel is an error -------
relaytop --record $tmp/term.bin --no-ui > $tmp/term.err 2>&1 &
rec=$!
t_wait 120 grep -q 'recording to' $tmp/term.err
kill -USR1 $rec
t_ok "SIGUSR1 makes relaytop print its status" \
	t_wait 60 t_lines_at_least 1 $tmp/term.err 'status end$'
t_eq "with a line per CPU" "$ncpus" \
	"$(grep -c '^relaytop: cpu [0-9]* generation [0-9]* events [0-9]* dropped [0-9]* lost [0-9]*$' $tmp/term.err)"
kill -TERM $rec
wait $rec
t_eq "SIGTERM stops a recording with status 0" 0 $?
t_ok "and the file is complete" relaytop --dump $tmp/term.bin
t_relaytop_check "SIGTERM" $tmp/term.bin

# --- --realtime: relaytop at SCHED_FIFO, the command it runs at normal -----
# /proc/PID/stat: field 40 the real-time priority, 41 the policy (1 FIFO)
relaytop --record $tmp/rt.bin --no-ui --realtime 10 > $tmp/rt.err 2>&1 &
rec=$!
t_wait 120 grep -q 'recording to' $tmp/rt.err
t_eq "--realtime 10: relaytop runs at SCHED_FIFO, priority 10" "1 10" \
	"$(awk '{ print $41, $40 }' /proc/$rec/stat)"
kill -TERM $rec
wait $rec
t_eq "and records as ever (exit 0)" 0 $?
t_relaytop_check "--realtime" $tmp/rt.bin
relaytop --record $tmp/rt2.bin --no-ui --realtime 10 -- \
	sh -c 'awk "{ print \$41, \$40 }" /proc/$$/stat > /tmp/30-relaytop/policy' \
	> $tmp/rt2.err 2>&1
t_eq "the command it runs exits 0" 0 $?
t_eq "and runs at the normal policy (0, priority 0)" "0 0" "$(cat $tmp/policy)"
relaytop --realtime 0 -b -n 1 > $tmp/rt3.err 2>&1
t_eq "--realtime 0 is a bad command line (exit 2)" 2 $?
t_ok "that says the range" grep -q "is not a priority (1 to 99)" $tmp/rt3.err
relaytop -b -n 1 -c /sys/kernel/no_such_channel > $tmp/missing.txt 2>&1
t_eq "a missing channel exits 1" 1 $?
t_ok "and says what is missing" grep -q 'no_such_channel: No such file or directory' $tmp/missing.txt

[ -n "$loaded_here" ] && rmmod sched_relay
rm -rf $tmp
t_done

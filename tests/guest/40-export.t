#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 40-export.t - pins the exporters on recordings made here, on the real
# sched_relay channel:
# - two recordings made under load, during which relaytop is stopped for a
#   second: in no-overwrite mode the producer's buffers fill and it drops
#   events; in overwrite mode it overwrites what relaytop has not read, so
#   relaytop loses events; each reads back with --dump, with events and
#   with those drops or losses;
# - --export-ctf writes metadata (CTF 1.8) and one stream file per CPU,
#   --export-perfetto a JSON file, --export-tracecmd a trace.dat (version
#   6, whole pages), all exiting 0; an export does not overwrite a
#   directory in use;
# - everything goes to /host/40-export/{drop,lose} when the host shares a
#   folder (as tests/run-guest does), the recording's --dump too, where
#   tests/guest/40-export.host reads it with babeltrace2, python3,
#   trace-cmd and KernelShark, which the guest does not have: every event
#   once, discarded-event warnings and "EVENTS DROPPED" lines that add up
#   to the drops and losses;
# - both recordings pass relaytop --check (every record once, in place,
#   every gap counted).
. /tests/lib/tap.sh

dir=/sys/kernel/sched_relay
tmp=/tmp/40-export
if grep -q ' /host ' /proc/mounts; then
	top=/host/40-export
else
	top=$tmp/out
fi
rm -rf $tmp $top
mkdir -p $tmp $top
ncpus=$(grep -c ^processor /proc/cpuinfo)
loaded_here=
if [ ! -d $dir ]; then
	insmod /lib/modules/sched_relay.ko && loaded_here=1
fi
t_ok "the sched_relay channel is there" test -d $dir

# record_and_export NAME OVERWRITE: small buffers, load, the reader stopped
# for a second, then both exports into $top/NAME
record_and_export() {
	name=$1
	out=$top/$name
	rec=$tmp/$name.bin
	mkdir -p $out
	echo 0 > $dir/enabled
	echo all > $dir/events
	echo "$2" > $dir/overwrite
	echo 16384 > $dir/subbuf_size
	echo 4 > $dir/n_subbufs
	echo 1 > $dir/reset
	echo 1 > $dir/enabled

	relaytop --record $rec --no-ui > $tmp/record.txt 2>&1 &
	pid=$!
	# ready: the buffers are mapped and the file is open
	t_wait 120 grep -q 'recording to' $tmp/record.txt
	loadgen -q -r 2000 -t 3 > /dev/null 2>&1 &
	load=$!
	sleep 1
	kill -STOP $pid
	sleep 1
	kill -CONT $pid
	wait $load
	# the producer stands still once this returns; relaytop drains on TERM
	echo 0 > $dir/enabled
	kill -TERM $pid
	wait $pid
	t_eq "$name: relaytop --record exits 0" 0 $?
	[ -s $tmp/record.txt ] && sed 's/^/# /' $tmp/record.txt
	cp $rec $out/rec.bin

	relaytop --dump $rec > $out/dump.txt 2> $tmp/dump.err
	t_eq "$name: relaytop --dump reads the recording" 0 $?
	t_relaytop_check "$name" $rec
	# the dump's summary: "#  cpu events dropped lost", then "#  all ..."
	awk '$1 == "#" && NF == 5 && ($2 ~ /^[0-9]+$/ || $2 == "all")' \
		$out/dump.txt > $out/summary.txt
	t_ok "$name: the recording has events" \
		awk '$2 == "all" && $3 > 1000 { ok = 1 } END { exit !ok }' \
		$out/summary.txt
	if [ "$2" = 0 ]; then
		t_ok "$name: the producer dropped while relaytop was stopped" \
			awk '$2 == "all" && $4 > 0 { ok = 1 } END { exit !ok }' \
			$out/summary.txt
	else
		t_ok "$name: relaytop lost events while it was stopped" \
			awk '$2 == "all" && $5 > 0 { ok = 1 } END { exit !ok }' \
			$out/summary.txt
	fi

	relaytop --export-ctf $out/ctf $rec > $tmp/ctf.txt 2>&1
	t_eq "$name: relaytop --export-ctf exits 0" 0 $?
	[ -s $tmp/ctf.txt ] && sed 's/^/# /' $tmp/ctf.txt
	t_eq "$name: a stream file per CPU" "$ncpus" \
		"$(ls $out/ctf | grep -c '^cpu[0-9]*$')"
	t_ok "$name: metadata in TSDL, CTF 1.8" \
		grep -q '^/\* CTF 1.8 \*/' $out/ctf/metadata
	relaytop --export-perfetto $out/trace.json $rec > $tmp/pf.txt 2>&1
	t_eq "$name: relaytop --export-perfetto exits 0" 0 $?
	[ -s $tmp/pf.txt ] && sed 's/^/# /' $tmp/pf.txt
	t_ok "$name: the JSON has the trace-event keys" \
		grep -q '"traceEvents":\[' $out/trace.json
	relaytop --export-tracecmd $out/trace.dat $rec > $tmp/tc.txt 2>&1
	t_eq "$name: relaytop --export-tracecmd exits 0" 0 $?
	[ -s $tmp/tc.txt ] && sed 's/^/# /' $tmp/tc.txt
	t_eq "$name: a trace.dat of version 6" "$(printf '\027\010Dtracing6')" \
		"$(head -c 11 $out/trace.dat)"
	t_eq "$name: the trace.dat is whole pages" 0 \
		$(( $(wc -c < $out/trace.dat) % 4096 ))
}

record_and_export drop 0
record_and_export lose 1
t_ok "an export does not overwrite a directory in use" \
	sh -c "! relaytop --export-ctf $top/drop/ctf $tmp/lose.bin 2>/dev/null"
for name in drop lose; do
	sed "s/^/# $name: /" $top/$name/summary.txt
done

# the defaults, for the tests after this one
echo 1 > $dir/enabled
echo 0 > $dir/overwrite
echo 65536 > $dir/subbuf_size
echo 8 > $dir/n_subbufs
[ -n "$loaded_here" ] && rmmod sched_relay
rm -rf $tmp
t_done

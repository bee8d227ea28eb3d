#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 40-export.t - pins the exporters on a recording made here, on the real
# sched_relay channel:
# - a recording made under load, during which relaytop is stopped for a
#   second so that the producer's buffers fill and it drops events, reads
#   back with --dump and has events and drops;
# - --export-ctf writes metadata (CTF 1.8) and one stream file per CPU,
#   --export-perfetto a JSON file, both exiting 0;
# - everything goes to /host/40-export when the host shares a folder (as
#   tests/run-guest does), where tests/guest/40-export.host reads it with
#   babeltrace2 and python3, which the guest does not have: every event
#   once, and discarded-event warnings that add up to the drops.
. /tests/lib/tap.sh

dir=/sys/kernel/sched_relay
tmp=/tmp/40-export
if grep -q ' /host ' /proc/mounts; then
	out=/host/40-export
else
	out=$tmp/out
fi
rm -rf $tmp $out
mkdir -p $tmp $out
ncpus=$(grep -c ^processor /proc/cpuinfo)
loaded_here=
if [ ! -d $dir ]; then
	insmod /lib/modules/sched_relay.ko && loaded_here=1
fi
t_ok "the sched_relay channel is there" test -d $dir
# small no-overwrite buffers, so a stopped reader makes the producer drop
echo 0 > $dir/enabled
echo all > $dir/events
echo 0 > $dir/overwrite
echo 16384 > $dir/subbuf_size
echo 4 > $dir/n_subbufs
echo 1 > $dir/reset
echo 1 > $dir/enabled

# --- record under load, with a pause of the reader ------------------------
relaytop --record $tmp/rec.bin --no-ui -t 6 > $tmp/record.txt 2>&1 &
rec=$!
sleep 1
loadgen -q -r 2000 -t 3 > /dev/null 2>&1 &
load=$!
sleep 1
kill -STOP $rec
sleep 1
kill -CONT $rec
wait $load
wait $rec
t_eq "relaytop --record exits 0" 0 $?
[ -s $tmp/record.txt ] && sed 's/^/# /' $tmp/record.txt
cp $tmp/rec.bin $out/rec.bin

relaytop --dump $tmp/rec.bin > $tmp/dump.txt 2> $tmp/dump.err
t_eq "relaytop --dump reads the recording" 0 $?
# the dump's summary: "#  cpu events dropped lost", then "#  all ..."
awk '$1 == "#" && NF == 5 && ($2 ~ /^[0-9]+$/ || $2 == "all")' \
	$tmp/dump.txt > $out/summary.txt
sed 's/^/# /' $out/summary.txt
t_ok "the recording has events" \
	awk '$2 == "all" && $3 > 1000 { ok = 1 } END { exit !ok }' $out/summary.txt
t_ok "and drops: the producer dropped while relaytop was stopped" \
	awk '$2 == "all" && $4 + $5 > 0 { ok = 1 } END { exit !ok }' $out/summary.txt

# --- export ----------------------------------------------------------------
relaytop --export-ctf $out/ctf $tmp/rec.bin > $tmp/ctf.txt 2>&1
t_eq "relaytop --export-ctf exits 0" 0 $?
[ -s $tmp/ctf.txt ] && sed 's/^/# /' $tmp/ctf.txt
t_eq "a stream file per CPU" "$ncpus" "$(ls $out/ctf | grep -c '^cpu[0-9]*$')"
t_ok "metadata in TSDL, CTF 1.8" grep -q '^/\* CTF 1.8 \*/' $out/ctf/metadata
relaytop --export-perfetto $out/trace.json $tmp/rec.bin > $tmp/pf.txt 2>&1
t_eq "relaytop --export-perfetto exits 0" 0 $?
[ -s $tmp/pf.txt ] && sed 's/^/# /' $tmp/pf.txt
t_ok "the JSON has the trace-event keys" \
	grep -q '"traceEvents":\[' $out/trace.json
t_ok "a file in use is not overwritten" \
	sh -c "! relaytop --export-ctf $out/ctf $tmp/rec.bin 2>/dev/null"
echo "$ncpus" > $out/ncpus

# the defaults, for the tests after this one
echo 65536 > $dir/subbuf_size
echo 8 > $dir/n_subbufs
[ -n "$loaded_here" ] && rmmod sched_relay
rm -rf $tmp
t_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 55-accounting.t - pins exact accounting per CPU and per generation across
# resets, in ONE recording: relaytop --record runs through three
# generations of the channel under load, without a change of geometry:
#   A  no-overwrite, 4096 x 2 bytes, relaytop stopped (SIGSTOP) for the
#      last ~2 s of the load: the producer drops, the last drops counted
#      only by its stats file;
#   B  `echo 1 > overwrite` (a reset: a new generation), relaytop stopped
#      again: it loses sub-buffers to overwriting;
#   C  `echo 1 > reset` (still in overwrite mode), relaytop not stopped.
# At the end of each generation the load stops, the producer is disabled,
# its stats file is kept, and the test waits until relaytop says (SIGUSR1)
# that it has read all of it.  The dump, split
# per CPU at its "CPU:N [CHANNEL RESET: generation G]" lines, must say for
# every CPU and generation: records in the file + events relaytop lost =
# produced, and drops in the file = the producer's drops; the dump's
# summary totals must equal the sums over the generations, and the
# recording must pass relaytop --check (event numbers: none twice, none
# out of place, every gap counted, numbering from 0 after each reset).
# Prints the table on "# " lines.
. /tests/lib/tap.sh

dir=/sys/kernel/sched_relay
tmp=/tmp/55-accounting
rm -rf $tmp
mkdir -p $tmp
loaded_here=
if [ ! -d $dir ]; then
	insmod /lib/modules/sched_relay.ko && loaded_here=1
fi
t_ok "the sched_relay channel is there" test -d $dir
t_eq "the guest has 4 CPUs online" 4 "$(grep -c ^processor /proc/cpuinfo)"

# A known configuration: small buffers so that a stopped reader matters.
echo 0 > $dir/enabled
echo all > $dir/events
echo 0 > $dir/overwrite
echo 4096 > $dir/subbuf_size
echo 2 > $dir/n_subbufs
echo 1 > $dir/reset

relaytop --record $tmp/r.bin --no-ui -d 0.5 > $tmp/record.txt 2>&1 &
rec=$!
# ready: it has mapped the buffers and created the file
t_wait 120 grep -q 'recording to' $tmp/record.txt

# generation NAME: run the load for 4 s with the producer enabled; then
# disable the producer, let relaytop drain (it reads every 0.5 s) and keep
# the producer's counts in $tmp/stats.NAME.  relaytop is stopped for the
# last 2 s of A's load, until the producer is disabled: the buffers are
# still full then, so the last drops are in no sub-buffer header, only in
# the stats file, and must still count in A, not vanish with the reset.
# It is stopped for 2 s in the middle of B.
generation() {
	echo 1 > $dir/enabled
	loadgen -q -r 1000 -t 4 > /dev/null 2>&1 &
	load=$!
	case $1 in
	A)	sleep 2; kill -STOP $rec ;;
	B)	sleep 1; kill -STOP $rec; sleep 2; kill -CONT $rec ;;
	esac
	wait $load
	echo 0 > $dir/enabled	# the counters stand still once this returns
	kill -CONT $rec
	sr_stats_table $dir > $tmp/stats.$1
	# before the reset that follows: relaytop has read all of it
	t_wait 120 t_relaytop_has $rec $tmp/record.txt $tmp/stats.$1 ||
		echo "# relaytop did not read all of generation $1 in 120 s"
}

generation A
echo 1 > $dir/overwrite		# empties the buffers: a new generation
generation B
echo 1 > $dir/reset
generation C

kill -TERM $rec
wait $rec
t_eq "relaytop --record through three generations exits 0" 0 $?
relaytop --dump $tmp/r.bin > $tmp/dump.txt 2> $tmp/dump.err
t_eq "relaytop --dump of it exits 0" 0 $?
t_eq "the channel never went away" 0 "$(grep -c 'CHANNEL WENT AWAY' $tmp/dump.txt)"
t_relaytop_check "three generations" $tmp/r.bin

# Per CPU and generation (0 = A, 1 = B, 2 = C), from the dump:
# "GEN CPU RECORDS DROPPED LOST"; a CPU's generation ends at its reset line.
awk '
	match($0, / \[[0-9][0-9][0-9]\] +[0-9]+\.[0-9]+: /) {
		c = substr($0, RSTART + 2, 3) + 0
		rec[g[c] + 0 "," c]++; cpus[c] = 1; next
	}
	/^CPU:[0-9]+ \[/ {
		c = substr($1, 5) + 0; cpus[c] = 1
		k = g[c] + 0 "," c
		if ($0 ~ /EVENTS DROPPED\]$/) drop[k] += substr($2, 2)
		else if ($0 ~ /EVENTS LOST: /) lost[k] += substr($2, 2)
		else if ($0 ~ /CHANNEL RESET: /) g[c]++
	}
	END {
		for (n = 0; n < 3; n++)
			for (c in cpus)
				print n, c, rec[n "," c] + 0, drop[n "," c] + 0,
				      lost[n "," c] + 0
	}' $tmp/dump.txt | sort -n -k1,1 -k2,2 > $tmp/pergen.txt

t_eq "every CPU's recording has exactly two resets (A -> B -> C)" \
	"" "$(awk '/CHANNEL RESET: / { n[$1]++ } END { for (c in n) if (n[c] != 2) print c, n[c] }' $tmp/dump.txt)"

echo "# gen cpu   produced   recorded    dropped  overwritten(lost)"
bad=
n=0
for name in A B C; do
	for c in $(awk '$1 ~ /^[0-9]+$/ { print $1 }' $tmp/stats.$name); do
		set -- $(awk -v c=$c '$1 == c { print $2, $3 }' $tmp/stats.$name)
		produced=$1 pdropped=$2
		set -- $(awk -v n=$n -v c=$c '$1 == n && $2 == c { print $3, $4, $5 }' $tmp/pergen.txt)
		recorded=${1:-0} dropped=${2:-0} lost=${3:-0}
		printf '#   %s %3s %10s %10s %10s %10s\n' $name $c $produced \
			$recorded $dropped $lost
		[ $((recorded + lost)) = "$produced" ] && [ "$dropped" = "$pdropped" ] ||
			bad="$bad gen $name cpu$c: recorded $recorded + lost $lost, dropped $dropped; producer $produced, dropped $pdropped;"
	done
	n=$((n + 1))
done
t_eq "per CPU per generation: recorded + lost = produced, dropped = the producer's" "" "$bad"

sum() {	# sum GEN FIELD: the dump's FIELD (3 records, 4 dropped, 5 lost)
	awk -v n=$1 -v f=$2 '$1 == n { s += $f } END { print s + 0 }' $tmp/pergen.txt
}
t_ok "gen A: the producer dropped while relaytop was stopped ($(sum 0 4))" \
	[ "$(sum 0 4)" -gt 0 ]
t_ok "gen B: relaytop lost events to overwriting while it was stopped ($(sum 1 5))" \
	[ "$(sum 1 5)" -gt 0 ]
t_eq "gen B: nothing dropped in overwrite mode" 0 "$(sum 1 4)"
t_eq "gen A: nothing lost in no-overwrite mode" 0 "$(sum 0 5)"

# The summary ("# cpu events dropped lost") is the sum of the generations.
bad=
for c in $(awk '{ print $2 }' $tmp/pergen.txt | sort -u); do
	want=$(awk -v c=$c '$2 == c { r += $3; d += $4; l += $5 } END { print r, d, l }' $tmp/pergen.txt)
	got=$(awk -v c=$c '$1 == "#" && $2 == c && NF == 5 { print $3, $4, $5 }' $tmp/dump.txt)
	[ "$want" = "$got" ] || bad="$bad cpu$c: summary '$got', generations '$want';"
done
t_eq "the summary's per-CPU totals equal the sums over the generations" "" "$bad"
t_eq "the summary's 'all' line equals the sums" \
	"$(awk '{ r += $3; d += $4; l += $5 } END { print r, d, l }' $tmp/pergen.txt)" \
	"$(awk '$1 == "#" && $2 == "all" && NF == 5 { print $3, $4, $5 }' $tmp/dump.txt)"

# leave the defaults behind
echo 0 > $dir/overwrite
echo 8 > $dir/n_subbufs
echo 65536 > $dir/subbuf_size
echo 1 > $dir/enabled
[ -n "$loaded_here" ] && rmmod sched_relay
rm -rf $tmp
t_done

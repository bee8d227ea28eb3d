#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-bench.sh - the measurements of `make bench`, run in the guest.
#
#   sh guest-bench.sh RAW_FILE
#
# Appends one line per measurement to RAW_FILE ("KEY k=v ..."; bench/report
# on the host turns them into the table and the JSON) and shows progress
# on "# " lines.  Sections:
#  1. write path: relay_bench.ko writes N records REPS times through memcpy
#     (the floor), a clock read plus that copy (the producer's floor),
#     relay_write(), ftrace's ring buffer, and the sched_wakeup
#     tracepoint with sched_relay's probe, with ftrace's sched_wakeup event,
#     and with nothing attached;
#  2. context-switch storm (loadgen flat out on every CPU): off, sched_relay
#     with relaytop --record (into tmpfs, checked; with --threads; into
#     /dev/null), ftrace's sched_switch+sched_wakeup with a trace_pipe_raw
#     reader per CPU (into /dev/null; writing a file each), and (Linux
#     6.10 on) the same with one reader of ftrace's mapped ring buffer, at
#     the same buffer memory per CPU; each reader's self-noise (its
#     context switches and wake-ups, from /proc/PID/status, which the
#     trace records as events);
#  2b. a harsher storm (BENCH_HARSH_PAIRS, default 3, thread pairs on
#     every CPU, so that a reader at normal priority gets a seventh of a
#     CPU): relaytop --record as it is by default and with --threads,
#     against ftrace's readers per CPU writing files;
#  3. reader cost: relaytop --record against read_reader (and ftrace's
#     mapped reader on ftrace's events) at one paced load, CPU time from
#     cputime; then relaytop's highest zero-loss rate;
#  4. small buffers (4 x 4 KiB and 4 x 16 KiB per CPU, both modes, flat out
#     and paced): sched_relay with relaytop --record against ftrace with the
#     same buffer memory per CPU and a trace_pipe_raw reader per CPU; events
#     captured and lost, each reader's CPU time; and flat out, relaytop
#     with --realtime 10 (SCHED_FIFO), and with --one-thread (relaytop's
#     default for buffers this small is a reader thread per CPU).
# Sections 2 and 3 also run relaytop --threads (a reader thread per CPU
# buffer), as sched_relay_mt and relaytop_mt.
# Exit status: 0, or 1 when a step failed (said on a "# FAILED" line).
set -u

raw=${1:?usage: guest-bench.sh RAW_FILE}
# BENCH_* settings from the host (bench/run), next to this script
[ -f "${0%/*}/settings" ] && . "${0%/*}/settings"
N=${BENCH_N:-20000}		# records per round (section 1)
REPS=${BENCH_REPS:-21}		# rounds per path
ROUNDS=${BENCH_ROUNDS:-3}	# repetitions of sections 2 and 3
STORM_SECS=${BENCH_STORM_SECS:-8}
READER_SECS=${BENCH_READER_SECS:-10}
READER_RATE=${BENCH_READER_RATE:-5000}	# switches/s per CPU in section 3
HARSH_PAIRS=${BENCH_HARSH_PAIRS:-3}	# thread pairs a CPU in section 2b
SWEEP_SECS=${BENCH_SWEEP_SECS:-5}
SWEEP_RATES=${BENCH_SWEEP_RATES:-2500 5000 10000 20000 40000 0}
BUF_KB=512			# sched_relay's default: 8 x 64 KiB per CPU
SMALL_GEOMS=${BENCH_SMALL_GEOMS:-4096x4 16384x4}	# sub-buffer bytes x count
SMALL_RATES=${BENCH_SMALL_RATES:-0 5000}	# switches/s per CPU, 0: flat out
SMALL_SECS=${BENCH_SMALL_SECS:-5}
RT_ARGS=			# relaytop's extra options (--realtime, --threads)
VARIANT=			# and the suffix of its rows' names then (_rt, _mt)

D=/sys/kernel/sched_relay
T=/sys/kernel/tracing
B=/sys/kernel/debug/relay_bench/run
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource
ncpus=$(grep -c ^processor /proc/cpuinfo)
cpus=$(i=0; while [ $i -lt "$ncpus" ]; do echo $i; i=$((i + 1)); done)

emit() { echo "$*" >> "$raw"; echo "# $*"; }
# wait_until SECS CMD...: until CMD succeeds (status 0), or SECS seconds
# of uptime passed (status 1): the readers are ready before a load starts.
wait_until() {
	_end=$(( $(cut -d. -f1 /proc/uptime) + $1 ))
	shift
	until "$@"; do
		[ "$(cut -d. -f1 /proc/uptime)" -ge $_end ] && return 1
		sleep 0.05
	done
}
# at_buffers PATTERN PID...: each PID has a file open or mapped whose path
# matches PATTERN.
at_buffers() {
	_pat=$1
	shift
	[ $# -gt 0 ] || return 1
	for _p in "$@"; do
		ls -l /proc/$_p/fd 2>/dev/null | grep -q "$_pat" ||
			grep -q "$_pat" /proc/$_p/maps 2>/dev/null || return 1
	done
}
# named_at_buffers PATTERN NAME...: the processes called NAME (a command
# under cputime, whose PID the shell does not have) are at their buffers.
named_at_buffers() {
	_pat=$1
	shift
	at_buffers "$_pat" $(pidof "$@")
}
fail() { echo "# FAILED: $*"; exit 1; }
# sum_stat NAME: the sum over the CPUs of the array in stats/NAME
sum_stat() { awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }' $D/stats/$1; }

# frozen "PIDS" CMD...: run CMD (attaching or detaching tracepoint probes)
# with the readers PIDS stopped.  The kernel patches the tracepoint call
# sites then, and QEMU before 8.1 can run a stale translation of such code
# on another vCPU under multi-threaded TCG (a stray int3 oops); with the
# load over and the readers stopped, no vCPU is in the scheduler's code
# but to go idle.  The bench keeps multi-threaded TCG for its numbers and
# attaches every probe before the load and the readers start.
frozen() {
	_pids=$1
	shift
	[ -n "$_pids" ] || fail "no reader to stop while $* runs"
	kill -STOP $_pids
	"$@"
	_rc=$?
	kill -CONT $_pids
	return $_rc
}
disable_relay() { echo 0 > $D/enabled; }

# sched_relay with a known configuration: EVENTS, overwrite OVW, reset;
# SUBBUF x NSUB per CPU (default 64 KiB x 8).
relay_setup() {
	grep -q '^sched_relay ' /proc/modules || insmod /lib/modules/sched_relay.ko ||
		fail "insmod sched_relay"
	echo 0 > $D/enabled
	echo "${SUBBUF:-65536}" > $D/subbuf_size && echo "${NSUB:-8}" > $D/n_subbufs &&
		echo "$2" > $D/overwrite && echo "$1" > $D/events ||
		fail "configuring sched_relay"
	echo 1 > $D/reset
	echo 1 > $D/enabled
}

# the sched events sched_relay's "all" records, as ftrace names them
FTRACE_ALL="sched_switch sched_wakeup sched_wakeup_new sched_waking sched_migrate_task sched_process_fork sched_process_exit"
# ftrace with EVENTS (sched_switch sched_wakeup ...) enabled or none.
ftrace_events() {
	for e in $FTRACE_ALL; do
		[ -d $T/events/sched/$e ] && echo 0 > $T/events/sched/$e/enable
	done
	for e in "$@"; do echo 1 > $T/events/sched/$e/enable || fail "enabling $e"; done
}

# ftrace per-CPU stats summed: "read=N overrun=N dropped=N left=N".
ftrace_counts() {
	for c in $cpus; do cat $T/per_cpu/cpu$c/stats; done | awk '
		/^entries:/ { left += $2 } /^overrun:/ { over += $2 }
		/^dropped events:/ { drop += $3 } /^read events:/ { rd += $3 }
		END { printf "read=%d overrun=%d dropped=%d left=%d\n", rd, over, drop, left }'
}

# self_noise PID...: the context switches of the readers PID, all their
# threads (voluntary: each also a wake-up) as "self_vol=V self_invol=I": a
# reader's switches and wake-ups are events in what is traced, 3 V + 2 I
# of them (a switch out and one back in each, a wake-up each voluntary
# one).  /proc/PID/status counts the main thread's alone.
self_noise() {
	for p in "$@"; do cat /proc/$p/task/*/status 2>/dev/null; done | awk '
		/^voluntary_ctxt_switches:/ { v += $2 }
		/^nonvoluntary_ctxt_switches:/ { n += $2 }
		END { printf "self_vol=%d self_invol=%d\n", v, n }'
}
cpu_files() { for c in $cpus; do echo $T/per_cpu/cpu$c/trace_pipe_raw; done; }
# cpu_ms PID...: user and system time of the processes PID, all their
# threads, in ms (USER_HZ ticks, 10 ms each)
cpu_ms() {
	for p in "$@"; do cat /proc/$p/stat 2>/dev/null; done |
		awk '{ s += $14 + $15 } END { print (s + 0) * 10 }'
}

[ -d $T/events/sched ] || fail "no tracefs at $T"
[ -d /sys/kernel/debug ] || fail "no debugfs"
echo 0 > $T/tracing_on
echo local > $T/trace_clock	# ftrace's default clock (the tests boot with global)
echo $BUF_KB > $T/buffer_size_kb
echo 1 > $T/tracing_on
emit "setup cpus=$ncpus mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
	"kernel=$(uname -r) clocksource=$(cat $CS) trace_clock=local" \
	"buffer_kb_per_cpu=$BUF_KB n=$N reps=$REPS rounds=$ROUNDS" \
	"cmdline=\"$(cat /proc/cmdline)\""

# --- 1. the write path -------------------------------------------------------
# Rounds of different paths are interleaved, so that whatever disturbs the
# guest (the host scheduling QEMU's threads, QEMU flushing its translated
# code) falls on all of them alike; the floor runs in every phase.
insmod /lib/modules/relay_bench.ko || fail "insmod relay_bench"
# write_paths NAME PATH...: REPS rounds of N records through each PATH in
# turn; one "write" line per NAME with the nanoseconds of its rounds.
write_paths() {
	names= rep=0
	for name in "$@"; do names="$names ${name%%:*}"; eval "ns_${name%%:*}="; done
	while [ $rep -lt "$REPS" ]; do
		for pair in "$@"; do
			echo "${pair#*:} $N 1" > $B || fail "relay_bench ${pair#*:}"
			t=$(cut -d' ' -f3 $B)
			eval "ns_${pair%%:*}=\"\${ns_${pair%%:*}}\${ns_${pair%%:*}:+,}$t\""
		done
		rep=$((rep + 1))
	done
	for name in $names; do eval "emit \"write name=$name n=$N ns=\$ns_$name\""; done
}
ftrace_events
write_paths memcpy:memcpy memcpy_call:memcpy_call clock:clock clock_copy:clock_copy \
	relay_write:relay_write ring_buffer:ring_buffer tracepoint_off:tracepoint
relay_setup wakeup 1
write_paths memcpy:memcpy sched_relay:tracepoint
# the producer's clock is the clocksource: say what it costs when that is
# not the TSC (as in a TCG guest booted without tsc=reliable)
if grep -qw hpet /sys/devices/system/clocksource/clocksource0/available_clocksource; then
	was=$(cat $CS)
	echo hpet > $CS && write_paths memcpy:memcpy sched_relay_hpet:tracepoint
	echo "$was" > $CS
fi
rmmod sched_relay
ftrace_events sched_wakeup
write_paths memcpy:memcpy ftrace_event:tracepoint
ftrace_events
echo > $T/trace
rmmod relay_bench

# --- 2. a context-switch storm ----------------------------------------------
# storm_off / storm_relay / storm_ftrace ROUND: one loadgen run flat out.
storm_off() {
	emit "storm mode=off round=$1 $(loadgen -q -t $STORM_SECS | tail -n 1)"
}
# recorded EVENTS LOADGEN_ARGS...: sched_relay recording EVENTS with
# relaytop --record consuming while loadgen runs; sets lg (loadgen's
# summary), produced, kdropped and wakeups (the producer's stats, taken once
# it is disabled; wakeups: the reader's wake-ups, 0 on a kernel without
# stats/wakeups) and rec ("captured dropped lost", relaytop's summary).  It
# records into $REC_FILE (default /dev/null); when that is a file,
# identity is set to relaytop --check's "duplicated out_of_place
# unaccounted" of it, and the file is removed.
recorded() {
	relay_setup "$1" "${OVW:-0}"
	shift
	relaytop --record "${REC_FILE:-/dev/null}" --no-ui $RT_ARGS > /tmp/rt.txt 2>&1 &
	rt=$!
	# not a second's grace: relaytop says "recording to" once every
	# buffer is open and mapped (its first run in a boot, under TCG and
	# a busy host, took longer than the load's first 130 ms to fill one)
	wait_until 120 grep -q 'recording to' /tmp/rt.txt ||
		fail "relaytop --record did not start: $(cat /tmp/rt.txt)"
	lg=$(loadgen -q "$@" | tail -n 1)
	frozen $rt disable_relay
	noise=$(self_noise $rt)
	rt_cpu_ms=$(cpu_ms $rt)
	produced=$(sum_stat produced) kdropped=$(sum_stat dropped)
	wakeups=$(sum_stat wakeups 2>/dev/null)
	# it reads what is left, then ends
	kill -TERM $rt; wait $rt || fail "relaytop --record: $(cat /tmp/rt.txt)"
	rec=$(awk '$1 == "all" && NF == 4 { print $2, $3, $4 }' /tmp/rt.txt)
	# "drains: T timed, W woken; V writev; S records skipped; timed drains
	# up to L ms late"
	drains=$(awk '$1 == "drains:" { print "drains_timed=" $2, "drains_woken=" $4,
		"writevs=" $6, "drain_late_ms=" $(NF - 2) }' /tmp/rt.txt)
	[ -n "$rec" ] || fail "no summary from relaytop: $(cat /tmp/rt.txt)"
	identity=
	if [ -f "${REC_FILE:-/dev/null}" ]; then
		# "check: N records, D duplicated, O out of place, U unaccounted, ..."
		identity=$(relaytop --check "$REC_FILE" 2>&1 | awk '/^check: [0-9]+ records/ {
			print $4, $6, $10 }')
		rm -f "$REC_FILE"
		[ -n "$identity" ] || fail "relaytop --check gave no verdict"
	fi
}
storm_relay() {
	REC_FILE=/tmp/storm.bin
	recorded "switch wakeup" -t $STORM_SECS
	REC_FILE=
	set -- "$1" $rec $identity
	emit "storm mode=sched_relay$VARIANT round=$1 $lg captured=$2 dropped=$3 lost=$4" \
		"produced=$produced kernel_dropped=$kdropped wakeups=$wakeups" \
		"duplicated=$5 out_of_place=$6 id_unaccounted=$7 $noise $drains"
}
# The same into /dev/null, as ftrace's readers below write: what the
# reader costs without a file to write.  No file to check: relaytop's own
# reader checks every record's event number as it reads (chunks out of
# place, events missing that no count says), and says so at the end.
storm_relay_null() {
	recorded "switch wakeup" -t $STORM_SECS
	set -- "$1" $rec
	live=$(awk '/chunks of records not where/ { m += $4; u += $(NF - 8) }
		END { printf "live_misplaced=%d live_unaccounted=%d", m, u }' /tmp/rt.txt)
	emit "storm mode=sched_relay_null round=$1 $lg captured=$2 dropped=$3 lost=$4" \
		"produced=$produced kernel_dropped=$kdropped wakeups=$wakeups" \
		"$live $noise $drains"
}
# ftrace_piped CMD...: ftrace's switch and wake-up events, with one
# read_reader per CPU on trace_pipe_raw while CMD (a load) runs; sets lg
# (CMD's last line), noise and cpu (the readers' self-noise and CPU time).
# A reader per CPU as trace-cmd has: it polls and reads until the file is
# empty, again and again.  Not cat: ftrace's trace_pipe_raw returns 0 (end
# of file) when a read races the writer on a buffer that is not empty, and
# cat then exits; in the storm that left ftrace with no reader in 2 of 3
# rounds, on 6.1 and on 6.12.
ftrace_piped() {
	echo > $T/trace
	ftrace_events sched_switch sched_wakeup
	readers=
	for c in $cpus; do
		out=/dev/null
		[ -n "${FT_FILES:-}" ] && out=/tmp/ftrace-cpu$c.raw	# as trace-cmd
		read_reader 100000 $T/per_cpu/cpu$c/trace_pipe_raw > $out 2> /tmp/rr$c.err &
		readers="$readers $!"
	done
	wait_until 120 at_buffers trace_pipe_raw $readers ||
		fail "the trace_pipe_raw readers did not start: $(cat /tmp/rr*.err)"
	lg=$("$@" | tail -n 1)
	frozen "$readers" ftrace_events
	sleep 2			# the readers read what is left
	noise=$(self_noise $readers)
	cpu=$(cpu_ms $readers)
	for p in $readers; do	# a reader that died would make ftrace look cheap
		kill -0 $p 2>/dev/null || fail "a trace_pipe_raw reader ended: $(cat /tmp/rr*.err)"
	done
	kill $readers; wait $readers 2>/dev/null
	rm -f /tmp/ftrace-cpu*.raw
}
storm_ftrace() {
	ftrace_piped loadgen -q -t $STORM_SECS
	set -- "$1" $(ftrace_counts)
	emit "storm mode=ftrace${FT_FILES:-} round=$1 $lg captured=${2#read=} $3 $4 $5 $noise"
}
# Can ftrace's ring buffer be mapped (Linux 6.10 on)?
mmap_ok=no
ftrace_mmap_reader 1 $T/per_cpu/cpu0/trace_pipe_raw > /dev/null 2> /tmp/fmr.err && mmap_ok=yes
[ $mmap_ok = yes ] || echo "# no mapped ftrace reader: $(cat /tmp/fmr.err)"
# ftrace_mmap_sums: the reader's "read=R overrun=O" of its meta pages.
storm_ftrace_mmap() {
	echo > $T/trace
	ftrace_events sched_switch sched_wakeup
	ftrace_mmap_reader 0 $(cpu_files) > /dev/null 2> /tmp/fmr.err &
	fmr=$!
	wait_until 120 at_buffers trace_pipe_raw $fmr ||
		fail "ftrace_mmap_reader did not start: $(cat /tmp/fmr.err)"
	lg=$(loadgen -q -t $STORM_SECS | tail -n 1)
	frozen $fmr ftrace_events
	noise=$(self_noise $fmr)
	kill -TERM $fmr; wait $fmr || fail "ftrace_mmap_reader: $(cat /tmp/fmr.err)"
	set -- "$1" $(ftrace_counts)
	m=$(grep -o 'read=[0-9]* overrun=[0-9]*' /tmp/fmr.err)
	set -- "$1" ${m%% *} ${m##* } "$4"
	emit "storm mode=ftrace_mmap round=$1 $lg captured=${2#read=} $3 $4 $noise"
}
r=1
while [ $r -le "$ROUNDS" ]; do
	storm_off $r
	storm_relay $r
	# with a reader thread per CPU buffer
	RT_ARGS=--threads VARIANT=_mt
	storm_relay $r
	RT_ARGS= VARIANT=
	storm_ftrace $r
	# each side's reader with and without a file to write: relaytop
	# into /dev/null, ftrace's readers into a file per CPU
	storm_relay_null $r
	FT_FILES=_files
	storm_ftrace $r
	FT_FILES=
	[ $mmap_ok = yes ] && storm_ftrace_mmap $r
	r=$((r + 1))
done
echo > $T/trace

# --- 2b. a harsher storm ------------------------------------------------------
# harsh ROUND: HARSH_PAIRS thread pairs on every CPU, flat out; relaytop
# --record as it is by default (one reader for these buffers) and with
# --threads (a reader thread per CPU), each recording checked; ftrace's
# readers per CPU writing a file each.
harsh() {
	for v in "" --threads; do
		REC_FILE=/tmp/storm.bin RT_ARGS=$v
		recorded "switch wakeup" -t $STORM_SECS -p $HARSH_PAIRS
		REC_FILE= RT_ARGS=
		set -- "$1" $rec $identity
		emit "harsh mode=sched_relay${v:+_mt} pairs=$HARSH_PAIRS round=$1 $lg" \
			"captured=$2 dropped=$3 lost=$4 produced=$produced" \
			"kernel_dropped=$kdropped duplicated=$5 out_of_place=$6" \
			"id_unaccounted=$7 $noise $drains"
	done
	FT_FILES=_files
	ftrace_piped loadgen -q -t $STORM_SECS -p $HARSH_PAIRS
	FT_FILES=
	set -- "$1" $(ftrace_counts)
	emit "harsh mode=ftrace_files pairs=$HARSH_PAIRS round=$1 $lg" \
		"captured=${2#read=} $3 $4 $5 $noise"
}
r=1
while [ $r -le "$ROUNDS" ]; do
	harsh $r
	r=$((r + 1))
done
echo > $T/trace

# --- 3. the reader ------------------------------------------------------------
# reader KIND ROUND: READER_SECS of paced load, the reader under cputime.
reader() {
	[ "$1" = ftrace_mmap ] && { reader_ftrace_mmap "$2"; return; }
	relay_setup all 0
	case $1 in
	relaytop) cputime relaytop --record /dev/null --no-ui -t $((READER_SECS + 2)) \
			> /tmp/reader.out 2> /tmp/reader.err & ;;
	relaytop_mt) cputime relaytop --record /dev/null --no-ui --threads \
			-t $((READER_SECS + 2)) > /tmp/reader.out 2> /tmp/reader.err & ;;
	read) cputime read_reader $((READER_SECS + 2)) \
			$(for c in $cpus; do echo $D/buffers/cpu$c; done) \
			> /dev/null 2> /tmp/reader.err & ;;
	esac
	pid=$!
	wait_until 120 named_at_buffers 'sched_relay/buffers/cpu' relaytop read_reader ||
		fail "$1 reader did not start: $(cat /tmp/reader.err)"
	loadgen -q -r "$READER_RATE" -t $READER_SECS > /dev/null
	frozen "$(pidof relaytop; pidof read_reader)" disable_relay
	wait $pid || fail "$1 reader: $(cat /tmp/reader.err)"
	emit "reader kind=$1 round=$2 produced=$(sum_stat produced) kernel_dropped=$(sum_stat dropped)" \
		"$(grep -o 'cpu_us=[0-9]*' /tmp/reader.err)" \
		"lost=$(awk '$1 == "all" && NF == 4 { print $4 }' /tmp/reader.out 2>/dev/null)"
}
# ftrace's mapped reader on ftrace's events of the same kinds (sched_relay
# unloaded meanwhile, so only one tracer runs)
reader_ftrace_mmap() {
	round=$1	# set -- below takes $1
	rmmod sched_relay 2>/dev/null
	echo > $T/trace
	ftrace_events $FTRACE_ALL
	cputime ftrace_mmap_reader $((READER_SECS + 2)) $(cpu_files) \
		> /dev/null 2> /tmp/reader.err &
	pid=$!
	wait_until 120 named_at_buffers trace_pipe_raw ftrace_mmap_reader ||
		fail "ftrace_mmap reader did not start: $(cat /tmp/reader.err)"
	loadgen -q -r "$READER_RATE" -t $READER_SECS > /dev/null
	frozen "$(pidof ftrace_mmap_reader)" ftrace_events
	wait $pid || fail "ftrace_mmap reader: $(cat /tmp/reader.err)"
	set -- $(ftrace_counts)
	m=$(grep -o 'read=[0-9]* overrun=[0-9]*' /tmp/reader.err)
	rd=${m%% *} over=${m##* }
	rd=${rd#read=} over=${over#overrun=} drop=${3#dropped=} left=${4#left=}
	emit "reader kind=ftrace_mmap round=$round produced=$((rd + over + drop + left))" \
		"kernel_dropped=$((over + drop))" \
		"$(grep -o 'cpu_us=[0-9]*' /tmp/reader.err) lost=0"
}
r=1
while [ $r -le "$ROUNDS" ]; do
	reader relaytop $r
	reader relaytop_mt $r
	reader read $r
	[ $mmap_ok = yes ] && reader ftrace_mmap $r
	r=$((r + 1))
done

# the highest rate relaytop keeps up with, at the default geometry
for rate in $SWEEP_RATES; do
	if [ "$rate" = 0 ]; then
		recorded all -t $SWEEP_SECS
	else
		recorded all -r "$rate" -t $SWEEP_SECS
	fi
	set -- $rec
	emit "sweep rate=$rate $lg captured=$1 dropped=$2 lost=$3"
	[ "$(($2 + $3))" -eq 0 ] || break
done

# --- 4. small buffers -----------------------------------------------------
# small_relay GEOM OVW RATE / small_ftrace GEOM OVW RATE: SMALL_SECS of
# load (flat out when RATE is 0) with GEOM (BYTESxCOUNT) per CPU.  ftrace
# gets the same memory per CPU (buffer_size_kb; its ring buffer keeps one
# reader page more) and its overwrite option; its reader is read_reader
# per CPU (ftrace_piped), as in section 2.
small_load() {
	if [ "$1" = 0 ]; then loadgen -q -t $SMALL_SECS; else loadgen -q -r "$1" -t $SMALL_SECS; fi
}
# (relaytop's default here: a reader thread per CPU, for buffers this
# small; small_relay with RT_ARGS="--realtime 10" VARIANT=_rt: at
# SCHED_FIFO, as reader relaytop_rt; --one-thread: one reader for every
# CPU, as relaytop_1t)
small_relay() {
	SUBBUF=${1%x*} NSUB=${1#*x} OVW=$2 REC_FILE=/tmp/small.bin
	if [ "$3" = 0 ]; then recorded "switch wakeup" -t $SMALL_SECS
	else recorded "switch wakeup" -r "$3" -t $SMALL_SECS; fi
	SUBBUF= NSUB= OVW= REC_FILE=
	set -- "$1" "$2" "$3" $rec $identity
	emit "small geom=$1 overwrite=$2 rate=$3 reader=relaytop$VARIANT $lg captured=$4" \
		"lost=$(($5 + $6)) produced=$produced kernel_dropped=$kdropped" \
		"cpu_ms=$rt_cpu_ms duplicated=$7 out_of_place=$8 id_unaccounted=$9"
}
small_ftrace() {
	echo 0 > $T/tracing_on
	echo $(( ${1%x*} * ${1#*x} / 1024 )) > $T/buffer_size_kb &&
		echo "$2" > $T/options/overwrite || fail "configuring ftrace for $1"
	echo 1 > $T/tracing_on
	ftrace_piped small_load "$3"
	set -- "$1" "$2" "$3" $(ftrace_counts)
	over=${5#overrun=} drop=${6#dropped=}
	emit "small geom=$1 overwrite=$2 rate=$3 reader=ftrace $lg captured=${4#read=}" \
		"lost=$((over + drop)) cpu_ms=$cpu"
}
for geom in $SMALL_GEOMS; do
	for ovw in 0 1; do
		for rate in $SMALL_RATES; do
			small_relay $geom $ovw $rate
			small_ftrace $geom $ovw $rate
		done
		RT_ARGS="--realtime 10" VARIANT=_rt
		small_relay $geom $ovw 0
		RT_ARGS=--one-thread VARIANT=_1t
		small_relay $geom $ovw 0
		RT_ARGS= VARIANT=
	done
done
echo 0 > $T/tracing_on
echo 1 > $T/options/overwrite
echo $BUF_KB > $T/buffer_size_kb
echo > $T/trace
rmmod sched_relay
emit "done"

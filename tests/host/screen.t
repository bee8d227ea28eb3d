#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# screen.t - pins the `make run` experience on a real terminal, in tmux
# panes of 80x24 and 100x30: qemu/run boots the guest and relaytop comes up
# full-screen, its header on the first line, one row per CPU (4) in place
# with moving rates; kernel messages printed while it runs (a background
# job writes them to /dev/kmsg) reach the kernel log file and dmesg but
# never the screen; text written over the screen on purpose garbles it,
# and ^L restores the (paused) screen exactly; `q` leaves relaytop for a
# guest shell where dmesg shows those messages; `poweroff` ends QEMU, and
# the kernel log, which holds the whole boot, shows no kernel splat.
# In between, t opens the tasks view (its heading, and loadgen's threads,
# lgd-C-N and lge-C-N, switching), l the latency view (its heading, a row
# for each of the 4 CPUs whose counts add up to the all row's, above 0,
# the late records' line, which leaves out no CPU, and the histogram),
# and l again the CPU table.  At 80x24 the screen is kept in
# build/test-logs/make-run-80x24.txt (for README.md's screenshot)
# and README's table header must be this screen's.
#
# KERNEL and INITRD, when set, go to qemu/run (tmux's server may not
# have them in its environment).
#
# The guest's background job (qemu/run -b) waits for files the test
# creates in the shared folder, so every step waits for a condition.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
session=
# A tmux server of our own (no other tmux user can end it), kept up by a
# session that does nothing: a server whose last session is killed
# exits, and a new-session right after can reach it while it does
# ("server exited unexpectedly").
export TMUX_TMPDIR=$work
unset TMUX
trap 'tmux kill-server 2>/dev/null; rm -rf "$work"' EXIT

screen() { tmux capture-pane -p -t "$session" 2>/dev/null; }
# cpu_rows SCREEN: the per-CPU rows of relaytop's table ("  N  EVENTS/s ...").
cpu_rows() { printf '%s\n' "$1" | grep -E '^ +[0-9]+ +[0-9.]+[KMG]? ' ; }
# wait_for SECS CMD...: poll until CMD succeeds on the current screen.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	while [ "$(date +%s)" -lt "$deadline" ]; do
		"$@" "$(screen)" && return 0
		sleep 0.5
	done
	return 1
}
# wait_file SECS FILE: poll until FILE exists.
wait_file() {
	local deadline=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		[ -e "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
has_four_moving_rows() {
	local rows
	rows=$(cpu_rows "$1")
	[ "$(printf '%s\n' "$rows" | grep -c .)" -eq 4 ] &&
		! printf '%s\n' "$rows" | awk '{ if ($2 + 0 == 0) bad = 1 } END { exit !bad }'
}
# in_place SCREEN: relaytop's header on line 1, the table's header on line
# 5, CPUs 0-3 on lines 6-9 in order, the total on line 10.
in_place() {
	printf '%s\n' "$1" | awk '
		NR == 1 && !/^relaytop  / { bad = "line 1 is not the header" }
		NR == 5 && !/^CPU / { bad = "line 5 is not the table header" }
		NR >= 6 && NR <= 9 && $1 != NR - 6 { bad = "line " NR " is not CPU " NR - 6 }
		NR == 10 && $1 != "all" { bad = "line 10 is not the total" }
		END { if (bad) { print bad; exit 1 } }'
}
# tasks_named SCREEN: the tasks view's heading and columns, and a row of
# a loadgen thread with switches per second above 0.
tasks_named() {
	printf '%s\n' "$1" | grep -q '^TASKS all CPUs, interval ' &&
	printf '%s\n' "$1" | grep -qE '^ +PID.* COMM +SW/s' &&
	printf '%s\n' "$1" | awk '$2 ~ /^lg[de]-[0-9]+-[0-9]+$/ && $3 + 0 > 0 { ok = 1 }
		END { exit !ok }'
}
# latency_counted SCREEN: the latency view's heading and columns, a row
# for each of CPUs 0-3, the all row counting what they count (above 0),
# the late records' line under it (every CPU has a row: it leaves out
# none) and the histogram's header.
latency_counted() {
	printf '%s\n' "$1" | grep -q '^LATENCY wakeup -> switch-in all CPUs' &&
	printf '%s\n' "$1" | grep -q '^CPU  *COUNT  *MISSED  *P50  *P90  *P99  *MAX  *AVG' &&
	printf '%s\n' "$1" | grep -q '^late [0-9][0-9]* (records out of time order)$' &&
	printf '%s\n' "$1" | grep -q 'usecs : count' &&
	printf '%s\n' "$1" | awk '
		$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { rows++; sum += $2; seen[$1] = 1 }
		$1 == "all" { all = $2 + 0 }
		END { exit !(rows == 4 && seen[0] && seen[1] && seen[2] && seen[3] &&
			     all > 0 && all == sum) }'
}
# readme_header SCREEN: README.md's screenshot has SCREEN's table header
# (line 5), to the character.
readme_header() {
	local want got
	want=$(sed -n 's/^    \(CPU EVENTS\/s.*\)$/\1/p' "$top/README.md" | head -n 1)
	got=$(printf '%s\n' "$1" | sed -n '5{s/ *$//;p}')
	[ -n "$want" ] && [ "$want" = "$got" ] || {
		echo "# README: '$want'"; echo "# screen: '$got'"; return 1; }
}
differs() { [ "$1" != "$2" ]; }
same() { [ "$1" = "$2" ]; }
has_garble() { printf '%s\n' "$1" | grep -q GARBLED; }
shows_kmsg5() { printf '%s\n' "$1" | grep -qx 'kmsg=5'; }
is_paused() { printf '%s\n' "$1" | head -n 1 | grep -q PAUSED; }
has_prompt() { printf '%s\n' "$1" | grep -q 'relay-guest:/# *$'; }
qemu_ended() { printf '%s\n' "$1" | grep -q QEMU-ENDED; }

# run_at COLS ROWS: the whole experience in a pane of that size.
run_at() {
	local cols=$1 rows=$2 name="${1}x$2" share=$work/share-$1x$2
	local log=$work/console-$1x$2.log first before garbled after
	mkdir -p "$share"
	# In the guest, once relaytop runs: on kmsg-go print five kernel
	# messages, on garble-go write over the screen; say when done.
	cat > "$work/bg" <<'BG'
until pidof relaytop > /dev/null; do sleep 0.2; done
until [ -e /host/kmsg-go ]; do sleep 0.2; done
for i in 1 2 3 4 5; do echo "<4>screen-test: kernel message $i" > /dev/kmsg; done
touch /host/kmsg-done
until [ -e /host/garble-go ]; do sleep 0.2; done
printf '\r\nGARBLED GARBLED GARBLED\r\n\n\n' > /dev/ttyS0
touch /host/garbled
BG
	printf '#!/bin/sh\nexec env KERNEL=%q INITRD=%q %q -t 400 -s %q -l %q -b "$(cat %q)"\n' \
		"${KERNEL:-}" "${INITRD:-}" "$top/qemu/run" "$share" "$log" "$work/bg" > "$work/run-$name"
	chmod +x "$work/run-$name"
	session=relaytop-screen-$$-$name
	tmux new-session -d -s "$session" -x "$cols" -y "$rows" \
		"TERM=tmux-256color $work/run-$name; echo QEMU-ENDED; sleep 60"
	local start=$(date +%s)
	wait_for 200 has_four_moving_rows
	t_ok "$name: relaytop shows 4 CPU rows with moving rates ($(( $(date +%s) - start ))s after boot began)" \
		has_four_moving_rows "$(screen)"
	first=$(screen)
	printf '%s\n' "$first" | sed "s/^/# $name: /"
	t_ok "$name: the header and every CPU row are in place" in_place "$first"
	t_ok "$name: the header names the channel and its geometry" \
		sh -c 'printf "%s\n" "$1" | grep -q "sched_relay" && printf "%s\n" "$1" | grep -qE "[0-9]+ x [0-9]+ KiB"' _ "$first"

	# kernel messages while relaytop runs
	touch "$share/kmsg-go"
	t_ok "$name: the guest printed five kernel messages" wait_file 60 "$share/kmsg-done"
	t_ok "$name: they reached the kernel log" \
		sh -c 'for i in $(seq 50); do grep -q "screen-test: kernel message 5" "$1" && exit 0; sleep 0.2; done; exit 1' _ "$log"
	before=$(screen)
	# a refresh after them: the rates moved
	t_ok "$name: relaytop refreshed after them" wait_for 30 differs "$before"
	t_ok "$name: no kernel message is on the screen" \
		sh -c '! printf "%s\n" "$1" | grep -q "screen-test"' _ "$(screen)"
	t_ok "$name: everything is still in place" in_place "$(screen)"
	if [ "$name" = 80x24 ]; then
		# the real screen for README.md's screenshot, and its header
		mkdir -p "$top/build/test-logs"
		screen > "$top/build/test-logs/make-run-80x24.txt"
		t_ok "$name: README's screenshot has this screen's table header" \
			readme_header "$(screen)"
	fi

	# the tasks and latency views
	tmux send-keys -t "$session" t
	t_ok "$name: t shows the tasks view with loadgen's threads switching" \
		wait_for 60 tasks_named
	screen | sed "s/^/# $name tasks: /"
	tmux send-keys -t "$session" l
	t_ok "$name: l shows the latency view, every CPU counted, the late line" \
		wait_for 60 latency_counted
	screen | sed "s/^/# $name latency: /"
	tmux send-keys -t "$session" l
	t_ok "$name: l again shows the CPU table, in place" wait_for 30 in_place

	# garbled on purpose; ^L restores the paused screen exactly
	tmux send-keys -t "$session" p
	t_ok "$name: p pauses the screen" wait_for 30 is_paused
	before=$(screen)
	sleep 1.5	# longer than the refresh interval: it must not move
	t_eq "$name: the paused screen stands still" "$before" "$(screen)"
	touch "$share/garble-go"
	t_ok "$name: the guest wrote over the screen" wait_file 60 "$share/garbled"
	wait_for 10 has_garble
	garbled=$(screen)
	t_ok "$name: the screen is garbled" differs "$before" "$garbled"
	tmux send-keys -t "$session" C-l
	wait_for 20 same "$before"
	after=$(screen)
	t_eq "$name: ^L restores it exactly" "$before" "$after"
	[ "$before" = "$after" ] || printf '%s\n' "$after" | sed "s/^/# after ^L: /"

	tmux send-keys -t "$session" q
	t_ok "$name: q leaves relaytop for a guest shell" wait_for 60 has_prompt
	tmux send-keys -t "$session" 'echo "kmsg=$(dmesg | grep -c "screen-test: kernel message")"' Enter
	t_ok "$name: dmesg in the guest shows the five messages" wait_for 30 shows_kmsg5
	tmux send-keys -t "$session" 'poweroff' Enter
	t_ok "$name: poweroff in the guest ends QEMU" wait_for 60 qemu_ended
	t_ok "$name: qemu/run says where the kernel log is" \
		sh -c 'printf "%s\n" "$1" | grep -q "kernel log is in"' _ "$(screen)"
	t_ok "$name: the kernel log holds the boot" grep -q 'Linux version' "$log"
	t_ok "$name: the kernel log shows no kernel splat" "$top/tests/find-splats" "$log"
	tmux kill-session -t "$session" 2>/dev/null
	session=
}

t_ok "tmux starts a server of our own" \
	tmux new-session -d -s keep-server-up "sleep 100000"
run_at 80 24
run_at 100 30
t_done

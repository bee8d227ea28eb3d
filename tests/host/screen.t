#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# screen.t - pins the `make run` experience on a real terminal: in an 80x24
# tmux pane, qemu/run boots the guest, relaytop comes up full-screen with
# one row per CPU (4) and the rates move (non-zero events/s on every CPU)
# within a bounded time, `q` leaves relaytop for a guest shell, `poweroff`
# ends QEMU, and the console shows no kernel splat.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
session=relaytop-screen-$$
log=$(mktemp)
trap 'tmux kill-session -t "$session" 2>/dev/null; rm -f "$log"' EXIT

screen() { tmux capture-pane -p -t "$session" 2>/dev/null; }
# cpu_rows SCREEN: the per-CPU rows of relaytop's table ("  N  EVENTS/s ...").
cpu_rows() { printf '%s\n' "$1" | grep -E '^ +[0-9]+ +[0-9.]+[KMG]? ' ; }
# wait_for SECS CMD...: poll until CMD succeeds on the current screen.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	while [ "$(date +%s)" -lt "$deadline" ]; do
		"$@" "$(screen)" && return 0
		sleep 1
	done
	return 1
}
has_four_moving_rows() {
	local rows
	rows=$(cpu_rows "$1")
	[ "$(printf '%s\n' "$rows" | grep -c .)" -eq 4 ] &&
		! printf '%s\n' "$rows" | awk '{ if ($2 + 0 == 0) bad = 1 } END { exit !bad }'
}
has_prompt() { printf '%s\n' "$1" | grep -q 'relay-guest:/# *$'; }
qemu_ended() { printf '%s\n' "$1" | grep -q QEMU-ENDED; }

tmux new-session -d -s "$session" -x 80 -y 24 \
	"TERM=tmux-256color $top/qemu/run -t 300 -l $log; echo QEMU-ENDED; sleep 60"
start=$(date +%s)
wait_for 150 has_four_moving_rows
t_ok "relaytop shows 4 CPU rows with moving rates ($(( $(date +%s) - start ))s after boot began)" \
	has_four_moving_rows "$(screen)"
first=$(screen)
t_ok "the header names the channel and its geometry" \
	sh -c 'printf "%s\n" "$1" | grep -q "relaytop" && printf "%s\n" "$1" | grep -qE "[0-9]+ x [0-9]+ KiB"' _ "$first"
printf '%s\n' "$first" | sed 's/^/# screen: /'

tmux send-keys -t "$session" q
t_ok "q leaves relaytop for a guest shell" wait_for 60 has_prompt
tmux send-keys -t "$session" 'poweroff' Enter
t_ok "poweroff in the guest ends QEMU" wait_for 60 qemu_ended
t_ok "the console shows no kernel splat" "$top/tests/find-splats" "$log"
t_done

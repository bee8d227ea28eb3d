#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# splat-detection.t - pins that the harness sees what the kernel reports:
# a console with a WARNING (injected through /dev/kmsg at warning level, as
# WARN() prints it) is judged dirty and the splat is shown, and a clean boot
# is judged clean.  Without this, "no splat" would be a test that cannot fail.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$top/qemu/run" -t 120 -l "$log" -- sh -c \
	'echo "<4>WARNING: CPU: 1 PID: 1 at injected/by/test.c:1 probe+0x0/0x1" > /dev/kmsg' >/dev/null 2>&1
report=$("$top/tests/find-splats" "$log")
t_eq "a WARNING on the console is a splat" 1 "$?"
t_ok "the report shows the splat" sh -c 'printf "%s\n" "$1" | grep -q "injected/by/test.c"' _ "$report"

"$top/qemu/run" -t 120 -l "$log" -- true >/dev/null 2>&1
"$top/tests/find-splats" "$log" >/dev/null
t_eq "a clean boot is not" 0 "$?"

# make bench's known warnings (bench/known-splats): the known one, as the
# kernel prints a WARN, is left out; anything else in the same log is not
known_warn() {
	printf '%s\n' "[ 1.0] ------------[ cut here ]------------" \
		"[ 1.0] WARNING: CPU: 2 PID: 984 at kernel/trace/ring_buffer.c:872 ring_buffer_nr_dirty_pages+0x43/0x49" \
		"[ 1.0] Call Trace:" "[ 1.0]  <TASK>" "[ 1.0]  </TASK>" \
		"[ 1.0] ---[ end trace 0000000000000000 ]---"
}
known_warn > "$log"
"$top/tests/find-splats" "$log" >/dev/null 2>&1
t_eq "the known warning is a splat to the test suites" 1 "$?"
"$top/tests/find-splats" "$log" "$top/bench/known-splats" >/dev/null 2>&1
t_eq "make bench leaves the known warning out" 0 "$?"
{ known_warn; echo "[ 2.0] BUG: kernel NULL pointer dereference"; } > "$log"
"$top/tests/find-splats" "$log" "$top/bench/known-splats" >/dev/null 2>&1
t_eq "and still fails on any other splat" 1 "$?"
known_warn | sed 's/ring_buffer_nr_dirty_pages/relay_switch_subbuf/' > "$log"
"$top/tests/find-splats" "$log" "$top/bench/known-splats" >/dev/null 2>&1
t_eq "and on a warning elsewhere" 1 "$?"
t_done

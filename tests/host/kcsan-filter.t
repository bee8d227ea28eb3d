#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kcsan-filter.t - pins how make test-kcsan judges a KCSAN kernel's
# console (tests/find-kcsan): a data race report with relay, the sysfs
# relay files or sched_relay in a stack fails the run and is shown whole;
# one about the rest of the kernel is listed and does not; --strip takes
# the reports out for tests/find-splats, which still catches any other
# splat.  Console logs made here, as a KCSAN kernel prints them.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# report FIRST SECOND: a KCSAN report of a race between two functions
report() {
	cat <<EOT
[   12.100000] ==================================================================
[   12.100001] BUG: KCSAN: data-race in $1 / $2
[   12.100002] 
[   12.100003] write to 0xffff888003a1c018 of 8 bytes by task 120 on cpu 1:
[   12.100004]  $1+0x3c/0x90
[   12.100005]  process_one_work+0x2a4/0x4d0
[   12.100006] 
[   12.100007] read to 0xffff888003a1c018 of 8 bytes by task 0 on cpu 0:
[   12.100008]  $2+0x21/0x40
[   12.100009]  __irq_work_run_list+0x6e/0xa0
[   12.100010] 
[   12.100011] value changed: 0x0000000000000011 -> 0x0000000000000012
[   12.100012] 
[   12.100013] Reported by Kernel Concurrency Sanitizer on:
[   12.100014] CPU: 0 PID: 0 Comm: swapper/0 Not tainted 6.1.192 #1
[   12.100015] ==================================================================
EOT
}

{ echo "[    1.0] booting"; report relay_flush_locked relay_buf_full; echo "ok 1 - x"; } > "$dir/ours.log"
{ echo "[    1.0] booting"; report tick_sched_do_timer ktime_get_update_offsets_now; echo "ok 1 - x"; } > "$dir/theirs.log"
{ cat "$dir/theirs.log"; echo "[   13.0] WARNING: CPU: 1 PID: 1 at x.c:1 y+0x0/0x1"; } > "$dir/warn.log"

out=$("$top/tests/find-kcsan" "$dir/ours.log")
t_eq "a race in relay fails the run" 1 "$?"
t_ok "and is shown whole" sh -c 'printf "%s\n" "$1" | grep -q "^#  *relay_flush_locked+0x3c"' _ "$out"
out=$("$top/tests/find-kcsan" "$dir/theirs.log")
t_eq "a race elsewhere in the kernel does not" 0 "$?"
t_ok "but is listed" sh -c 'printf "%s\n" "$1" | grep -q "not ours: BUG: KCSAN: data-race in tick_sched_do_timer"' _ "$out"
"$top/tests/find-kcsan" --strip "$dir/theirs.log" > "$dir/stripped.log"
t_eq "without its reports the console is clean" 0 "$("$top/tests/find-splats" "$dir/stripped.log" >/dev/null; echo $?)"
t_eq "find-splats alone would fail it (BUG: )" 1 "$("$top/tests/find-splats" "$dir/theirs.log" >/dev/null; echo $?)"
"$top/tests/find-kcsan" --strip "$dir/warn.log" > "$dir/stripped.log"
t_eq "another splat still fails the run" 1 "$("$top/tests/find-splats" "$dir/stripped.log" >/dev/null; echo $?)"
t_done

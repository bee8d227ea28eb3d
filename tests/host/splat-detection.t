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
t_done

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# qemu-run.t - pins what scripts and users rely on in qemu/run: a command's
# output comes back on stdout, its exit status is qemu/run's (0, non-zero,
# the exact value), arguments with spaces and quotes survive the trip, the
# host folder is shared both ways, and a hung guest is killed with a clear
# message and status 124.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
run="$top/qemu/run -t 120"

out=$($run -- sh -c 'grep -c ^processor /proc/cpuinfo' 2>&1)
rc=$?
t_eq "qemu/run -- CMD exits 0 when CMD does" 0 "$rc"
t_eq "the guest sees 4 CPUs" 4 "$(printf '%s\n' "$out" | grep -x '[0-9]*' | tail -n 1)"

$run -- false > /dev/null 2>&1
t_ok "qemu/run -- false exits non-zero" test $? -ne 0

$run -- sh -c 'exit 7' > /dev/null 2>&1
t_eq "the command's exact exit status comes back" 7 "$?"

out=$($run -- printf '<%s>\n' "two words" "it's \$HOME" 2>&1)
t_ok "arguments keep their spaces, quotes and dollars" \
	sh -c 'printf "%s\n" "$1" | grep -qF "<two words>" && printf "%s\n" "$1" | grep -qF "<it'"'"'s \$HOME>"' _ "$out"

share=$(mktemp -d)
echo from-host > "$share/in"
$run -s "$share" -- sh -c 'cat /host/in > /host/out; echo from-guest >> /host/out' > /dev/null 2>&1
t_eq "a shared folder carries files both ways" "from-host from-guest" "$(cat "$share/out" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
rm -rf "$share"

err=$($top/qemu/run -t 15 -- sleep 1000 2>&1 >/dev/null)
rc=$?
t_eq "a hung guest is killed: exit 124" 124 "$rc"
t_ok "and the message says so" sh -c 'printf "%s" "$1" | grep -q "did not finish within 15s"' _ "$err"
t_done

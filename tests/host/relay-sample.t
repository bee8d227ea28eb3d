#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# relay-sample.t - pins that the in-tree user each series adds,
# samples/relay/sched_relay.c and samples/relay/sched_relay.h, is the
# project's module and record format byte for byte
# (tracepoints-demo/sched_relay.c, include/uapi/sched_relay.h): the module
# has one source, and scripts/sync-relay-sample copies it into the trees.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

# the file @2 as the patches of series @1 leave it, into @3
series_file() {
	local kver=$1 path=$2 out=$3 dir p n=0
	dir=$(mktemp -d)
	while read -r p; do
		case $p in ''|\#*) continue ;; esac
		grep -q "^+++ b/$path\$" "$top/patches/$kver/$p" || continue
		awk -v f="a/$path" '/^diff --git /{ on = ($3 == f) }
		     /^-- $/{ on = 0 } on' "$top/patches/$kver/$p" > "$dir/part.diff"
		(cd "$dir" && patch -s -p1 -i part.diff >/dev/null 2>&1) || n=-1000
		n=$((n + 1))
	done < "$top/patches/$kver/series"
	[ -f "$dir/$path" ] && cp "$dir/$path" "$out"
	rm -rf "$dir"
	[ "$n" -gt 0 ]
}

for kver in 6.1 6.12; do
	tmp=$(mktemp)
	t_ok "patches/$kver creates samples/relay/sched_relay.c" \
		series_file "$kver" samples/relay/sched_relay.c "$tmp"
	t_ok "its samples/relay/sched_relay.c is tracepoints-demo/sched_relay.c" \
		cmp "$top/tracepoints-demo/sched_relay.c" "$tmp"
	rm -f "$tmp"; tmp=$(mktemp)
	t_ok "patches/$kver creates samples/relay/sched_relay.h" \
		series_file "$kver" samples/relay/sched_relay.h "$tmp"
	t_ok "its samples/relay/sched_relay.h is include/uapi/sched_relay.h" \
		cmp "$top/include/uapi/sched_relay.h" "$tmp"
	rm -f "$tmp"
	t_ok "patches/$kver lets the sample build as a module or built in" \
		grep -q '^+	tristate "Build the relay sample' "$top/patches/$kver/"*samples-relay*.patch
done
t_done

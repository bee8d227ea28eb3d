#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# exports.t - pins upstream's rule that no code is kept without an
# in-kernel user, for what the series exports: every EXPORT_SYMBOL*()
# that a patch adds names a function that a file of the series which can
# be built as a module calls (samples/, drivers/), so the export serves
# an in-tree caller; and the buffer operations and the kernfs helper,
# whose one caller is built in, are not exported.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

for kver in 6.1 6.12; do
	dir=$top/patches/$kver
	files=$(sed -e '/^#/d' -e '/^$/d' -e "s|^|$dir/|" "$dir/series")
	# added exports: "file symbol"
	exports=$(awk '/^diff --git /{ f = substr($3, 3) }
		/^\+EXPORT_SYMBOL/{ s = $0; sub(/.*\(/, "", s); sub(/\).*/, "", s); print f, s }' $files)
	t_ok "patches/$kver adds exports" [ -n "$exports" ]
	while read -r def sym; do
		[ -n "$sym" ] || continue
		# added lines that call it, in modular files other than the definer
		callers=$(awk -v sym="$sym" -v def="$def" '
			/^diff --git /{ f = substr($3, 3) }
			/^\+/ && f != def && f ~ /^(samples|drivers)\// &&
			  $0 ~ ("(^|[^A-Za-z0-9_])" sym "\\(") { print f }' $files | sort -u)
		t_ok "patches/$kver: $sym ($def) has a modular in-tree caller: ${callers:-none}" \
			[ -n "$callers" ]
	done <<< "$exports"
	for sym in relay_buf_mmap relay_buf_read relay_buf_poll_mask \
		   relay_buf_consume kernfs_wake_pollers relay_stats; do
		t_ok "patches/$kver does not export $sym (its callers are built in)" \
			sh -c "! grep -q '^+EXPORT_SYMBOL.*($sym)' $(echo $files)"
	done
done
t_done

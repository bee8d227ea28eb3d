#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# uapi-copy.t - pins that include/uapi/linux/relay.h, the copy of relay's
# meta area layout that relaytop and the guest tests build against (as
# the kernel's tools/include keeps copies of uapi headers), is exactly
# the header each series creates: the file after every patch of
# patches/KVER/series that touches it, applied in order with patch(1).
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
copy=$top/include/uapi/linux/relay.h

for kver in 6.1 6.12; do
	dir=$(mktemp -d)
	n=0
	while read -r p; do
		case $p in ''|\#*) continue ;; esac
		grep -q '^+++ b/include/uapi/linux/relay.h$' "$top/patches/$kver/$p" || continue
		# that file's part of the patch only
		awk '/^diff --git /{ on = ($3 == "a/include/uapi/linux/relay.h") }
		     /^-- $/{ on = 0 } on' "$top/patches/$kver/$p" > "$dir/part.diff"
		(cd "$dir" && patch -s -p1 -i part.diff >/dev/null 2>&1)
		n=$((n + 1))
	done < "$top/patches/$kver/series"
	t_ok "patches/$kver creates include/uapi/linux/relay.h ($n patches)" [ "$n" -gt 0 ]
	t_ok "include/uapi/linux/relay.h is the $kver series' header, byte for byte" \
		cmp "$copy" "$dir/include/uapi/linux/relay.h"
	rm -rf "$dir"
done
t_done

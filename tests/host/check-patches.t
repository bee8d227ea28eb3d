#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-patches.t - pins scripts/check-patches (make check-patches): the
# series is checkpatch --strict clean, an UNKNOWN_COMMIT_ID warning (the
# tree has no upstream history) passes only for an id that
# patches/upstream-commits lists, cited with the subject listed there,
# and a checkpatch that could not check a patch is a failure, not "0
# findings".  Runs on the tree make test prepared (build/kernel-KVER).
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${KVER:-6.1}
tree=$top/build/kernel-$kver/linux
dir=$top/patches/$kver
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$top/scripts/check-patches" "$tree" "$dir" > "$tmp/out" 2>&1
t_eq "the $kver series is checkpatch --strict clean" 0 $?
t_eq "every patch has a line of 0 findings" \
	"$(grep -c . "$dir/series")" "$(grep -c ': 0 findings' "$tmp/out")"
t_eq "nine patches cite ids checked off the list" 9 \
	"$(grep -c '1 commit ids not in this tree' "$tmp/out")"

# mutate P SED: a copy of the series with patch P edited by SED
mutate() {
	rm -rf "$tmp/s"; mkdir "$tmp/s"
	cp "$dir"/*.patch "$dir/series" "$tmp/s/"
	sed -i "$2" "$tmp/s/$1"
}
p7=$(cd "$dir" && ls 0007-*.patch)
mutate "$p7" 's/upstream commit 2489e958129f/upstream commit 2489e958129e/'
"$top/scripts/check-patches" "$tree" "$tmp/s" > "$tmp/out" 2>&1
t_eq "an id that is not on the list fails" 1 $?
t_ok "and is shown" grep -q "Unknown commit id '2489e958129e'" "$tmp/out"

p2=$(cd "$dir" && ls 0002-*.patch)
mutate "$p2" 's/("relay: check return of create_buf_file() properly")/("relay: check create_buf_file()")/'
"$top/scripts/check-patches" "$tree" "$tmp/s" > "$tmp/out" 2>&1
t_eq "a listed id cited with another subject fails" 1 $?

rm -rf "$tmp/s"; mkdir "$tmp/s"; echo missing.patch > "$tmp/s/series"
"$top/scripts/check-patches" "$tree" "$tmp/s" > "$tmp/out" 2>&1
t_eq "a patch checkpatch cannot open fails" 1 $?
t_ok "saying checkpatch failed" grep -q 'checkpatch.pl failed' "$tmp/out"
t_done

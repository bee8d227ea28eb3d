#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make-ccache.t - pins that the kernel is built with ccache when `make deps`
# (run first by every target that builds) installed it during the same
# make: on a fresh machine the first make used to settle on plain gcc
# before ccache was there, and the next make, finding ccache, changed the
# kernel's CC and rebuilt the whole tree.  Here ccache is hidden from the
# PATH when the Makefile is read and appears in a prerequisite's recipe,
# as the package would.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every command of the PATH but ccache, and a directory it appears in
mkdir -p "$tmp/sys" "$tmp/late"
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		n=${f##*/}
		[ "$n" = ccache ] && continue
		[ -e "$tmp/sys/$n" ] || ln -s "$f" "$tmp/sys/$n"
	done
done
real=$(command -v ccache)
t_ok "ccache is installed (make deps installs it)" [ -n "$real" ]

cat > "$tmp/probe.mk" <<MK
print-kcc: fake-deps
	@echo "KCC=\$(KCC)"
fake-deps:
	@ln -s $real $tmp/late/ccache
MK
out=$(cd "$top" && env -u KCC PATH="$tmp/late:$tmp/sys" \
	make -s --no-print-directory -f Makefile -f "$tmp/probe.mk" print-kcc 2>&1)
t_eq "ccache installed during the make is used for the kernel" \
	"KCC=ccache gcc" "$out"
rm -f "$tmp/late/ccache"
out=$(cd "$top" && env -u KCC PATH="$tmp/late:$tmp/sys" \
	make -s --no-print-directory -f Makefile KCC=gcc print-kcc -f "$tmp/probe.mk" 2>&1)
t_eq "KCC on the command line still wins" "KCC=gcc" "$out"
t_done

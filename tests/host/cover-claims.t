#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cover-claims.t - pins that each series' cover letter makes no claim the
# suite does not check: its table "Claims and the tests that pin them"
# has a row for every patch of the series, every row names at least one
# test, and every named test exists (the quoted words are in the named
# file of tests/guest/ or tests/host/).  A row may say "test: none (...)"
# with the reason in its place, for what the suite cannot observe.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

for kver in 6.1 6.12; do
	cover=$top/patches/$kver/0000-cover-letter.patch
	total=$(sed -n 's/^Subject: \[[^]]* 00\/\([0-9]*\)\].*/\1/p' "$cover")
	t_ok "patches/$kver's cover letter numbers its patches ($total)" [ -n "$total" ]
	table=$(awk '/^Claims and the tests that pin them$/{ on = 1; next }
		     on && /^What was tested$/{ exit } on' "$cover")
	t_ok "patches/$kver's cover letter has its claims table" [ -n "$table" ]
	missing=""
	for i in $(seq 1 "${total:-0}"); do
		n=$(printf '%02d' "$i")
		printf '%s\n' "$table" | grep -q "^ $n " || missing="$missing $n"
	done
	t_ok "every patch of $kver has a row${missing:+ (missing:$missing)}" [ -z "$missing" ]
	# rows: a row runs from " NN " to the next; each needs a test: line
	bare=$(printf '%s\n' "$table" | awk '
		/^ [0-9][0-9] /{ if (row != "" && !tests) print row; row = $1; tests = 0 }
		/^    test: /{ tests++ }
		END { if (row != "" && !tests) print row }')
	t_ok "every row of $kver names a test${bare:+ (not:$bare)}" [ -z "$bare" ]
	bad=""
	while IFS= read -r line; do
		case $line in
		*"test: none ("*) continue ;;
		esac
		file=$(printf '%s\n' "$line" | sed -n 's/^    test: \([^ ]*\) ".*$/\1/p')
		words=$(printf '%s\n' "$line" | sed -n 's/^    test: [^ ]* "\(.*\)"$/\1/p')
		path=""
		for d in tests/guest tests/host; do
			[ -f "$top/$d/$file" ] && path=$top/$d/$file
		done
		if [ -z "$file" ] || [ -z "$words" ] || [ -z "$path" ] ||
		   ! grep -qF -- "$words" "$path"; then
			bad="$bad
$line"
		fi
	done <<< "$(printf '%s\n' "$table" | grep '^    test: ')"
	t_ok "every test named in $kver's table exists${bad:+:$bad}" [ -z "$bad" ]
done
t_done

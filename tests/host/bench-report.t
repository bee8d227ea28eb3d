#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-report.t - pins bench/report's verdicts on a real boot's raw lines
# (tests/host/data/bench-raw-6.1-slow-host.txt: `make bench` on 6.1, 7
# December, on a host half as fast as the one the targets were set on):
# the zero-loss rate target is not judged MISSED when the load's flat out
# lost nothing and stayed under it (the host, not relaytop, was short),
# and is MISSED when the flat-out run lost events; every storm row and the
# identity line come out; the harsher storm's section (2b) shows its rows
# and losses by round, and its target is missed by any round that lost.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
raw=$top/tests/host/data/bench-raw-6.1-slow-host.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$top/bench/report" "$raw" "$tmp/a" > "$tmp/a.txt"
t_eq "bench/report reads the raw lines (exit 0)" 0 $?
t_ok "the zero-loss target: not reached, nothing lost flat out" \
	grep -q 'zero-loss rate .*not reached: nothing lost flat out$' "$tmp/a.txt"
t_ok "and results.json says neither met nor missed" \
	python3 -c 'import json, sys
t = [x for x in json.load(open(sys.argv[1]))["targets"] if x["name"].startswith("zero-loss")][0]
sys.exit(not (t["met"] is None and t["why"]))' "$tmp/a/results.json"
t_ok "the storm's recording row is there" \
	grep -q '^   sched_relay + relaytop --record ' "$tmp/a.txt"
t_ok "with its identity line" \
	grep -q '0 duplicated, 0 out of place' "$tmp/a.txt"

# the same boot, but the flat-out run dropped: a real miss
sed 's/^\(sweep rate=0 .*\) dropped=0 /\1 dropped=1656 /' "$raw" > "$tmp/dropped.txt"
t_eq "the edited copy differs" 1 "$(cmp -s "$raw" "$tmp/dropped.txt"; echo $?)"
"$top/bench/report" "$tmp/dropped.txt" "$tmp/b" > "$tmp/b.txt"
t_ok "events dropped flat out: the zero-loss target is MISSED" \
	grep -q 'zero-loss rate .*MISSED$' "$tmp/b.txt"

# section 2b (a storm of three pairs a CPU), as guest-bench.sh writes it:
# its rows, the losses by round, and the worst round judged against 0
harsh_lines() {	# LOST_BY_ROUND...: the default runs' drops
	r=1
	for d in "$@"; do
		echo "harsh mode=sched_relay pairs=3 round=$r total_switches=1400000" \
			"elapsed_ns=8000000000 captured=2200000 dropped=$d lost=0" \
			"produced=2200000 kernel_dropped=$d duplicated=0 out_of_place=0" \
			"id_unaccounted=0 self_vol=10 self_invol=5 "
		echo "harsh mode=sched_relay_mt pairs=3 round=$r total_switches=1400000" \
			"elapsed_ns=8000000000 captured=2000000 dropped=250000 lost=0" \
			"produced=2000000 kernel_dropped=250000 duplicated=0 out_of_place=0" \
			"id_unaccounted=0 self_vol=10 self_invol=5 "
		echo "harsh mode=ftrace_files pairs=3 round=$r total_switches=1300000" \
			"elapsed_ns=8000000000 captured=1900000 overrun=0 dropped=0 left=0"
		r=$((r + 1))
	done
}
{ grep -v '^done' "$raw"; harsh_lines 0 120 0; echo done; } > "$tmp/harsh.txt"
"$top/bench/report" "$tmp/harsh.txt" "$tmp/c" > "$tmp/c.txt"
t_ok "the harsher storm's rows, with the losses by round" \
	grep -q '^   relaytop --record (default) .* 120 .*  0, 120, 0$' "$tmp/c.txt"
t_ok "and the reader threads' row" \
	grep -q '^     the same, --threads .*  250000, 250000, 250000$' "$tmp/c.txt"
t_ok "a round that lost: the harsh storm target is MISSED" \
	grep -q 'storm of 3 pairs a CPU lost, worst round = 0 .*MISSED$' "$tmp/c.txt"
{ grep -v '^done' "$raw"; harsh_lines 0 0 0; echo done; } > "$tmp/harsh0.txt"
"$top/bench/report" "$tmp/harsh0.txt" "$tmp/d" > "$tmp/d.txt"
t_ok "none lost in any round: met" \
	grep -q 'storm of 3 pairs a CPU lost, worst round = 0 .*met$' "$tmp/d.txt"
t_ok "a bench without the section has no such target" \
	sh -c '! grep -q "pairs a CPU" "$1"' - "$tmp/a.txt"
t_done

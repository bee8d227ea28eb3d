#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-report.t - pins bench/report's verdicts on a real boot's raw lines
# (tests/host/data/bench-raw-6.1-slow-host.txt: `make bench` on 6.1, 7
# December, on a host half as fast as the one the targets were set on):
# the zero-loss rate target is not judged MISSED when the load's flat out
# lost nothing and stayed under it (the host, not relaytop, was short),
# and is MISSED when the flat-out run lost events; every storm row and the
# identity line come out.
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
t_done

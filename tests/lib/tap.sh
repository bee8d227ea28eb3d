# SPDX-License-Identifier: GPL-2.0
# tap.sh - TAP helpers for guest test scripts (busybox sh).
#
#   . /tests/lib/tap.sh
#   t_ok "the guest sees 4 CPUs" [ "$(nproc)" -eq 4 ]
#   t_done
#
# t_ok runs a command; it passes when the command exits 0.  A failing
# command's output is printed as "# " lines under the "not ok" line.

T_COUNT=0
T_PASSED=0
T_FAILED=0

# t_ok DESCRIPTION CMD [ARGS...]
t_ok() {
	_t_desc=$1
	shift
	T_COUNT=$((T_COUNT + 1))
	_t_out=$("$@" 2>&1)
	_t_rc=$?
	if [ $_t_rc -eq 0 ]; then
		T_PASSED=$((T_PASSED + 1))
		echo "ok $T_COUNT - $_t_desc"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_COUNT - $_t_desc"
		echo "# command: $* (exit $_t_rc)"
		[ -n "$_t_out" ] && printf '%s\n' "$_t_out" | sed 's/^/#   /'
	fi
	return 0
}

# t_eq DESCRIPTION EXPECTED ACTUAL
t_eq() {
	t_ok "$1" _t_eq "$2" "$3"
}

_t_eq() {
	[ "$1" = "$2" ] && return 0
	echo "expected: '$1'"
	echo "     got: '$2'"
	return 1
}

# t_wait SECS CMD [ARGS...]: wait until CMD exits 0, looking every 0.1 s,
# at most SECS seconds (a cap for a broken run, not a pace: a slow machine
# only waits longer).  Exits with CMD's last status.
t_wait() {
	_w_end=$(( $(cut -d. -f1 /proc/uptime) + $1 ))
	shift
	until "$@"; do
		[ "$(cut -d. -f1 /proc/uptime)" -ge $_w_end ] && { "$@"; return; }
		sleep 0.1
	done
}

# sr_stats_table DIR: sched_relay's stats/ files (one array over the CPUs
# each, value N is CPU N's) as one table, a header, then a line per CPU:
#   cpu produced dropped subbufs_produced subbufs_consumed fill_bytes
# Fails if a file is missing or the arrays differ in length.
sr_stats_table() {
	_s=$1/stats
	echo "cpu produced dropped subbufs_produced subbufs_consumed fill_bytes"
	awk 'FNR == 1 { f++; if (f > 1 && NF != n) bad = 1; n = NF }
		{ for (i = 1; i <= NF; i++) v[f, i] = $i }
		END {
			if (bad || f != 5) exit 1
			for (i = 1; i <= n; i++) {
				line = i - 1
				for (j = 1; j <= f; j++) line = line " " v[j, i]
				print line
			}
		}' $_s/produced $_s/dropped $_s/subbufs_produced \
		$_s/subbufs_consumed $_s/fill_bytes
}

# t_lines_at_least N FILE PATTERN: FILE has at least N lines matching PATTERN.
t_lines_at_least() {
	[ "$(grep -c -e "$3" "$2" 2>/dev/null)" -ge "$1" ]
}

# t_relaytop_has PID ERRFILE STATS: ask relaytop PID (its standard error in
# ERRFILE) for its status with SIGUSR1, and exit 0 when, for every CPU of
# the stats file STATS (a copy taken with the producer stopped), the events
# it read plus those it lost equal the producer's produced: relaytop has
# everything of this generation.  Use as t_wait 60 t_relaytop_has ...
t_relaytop_has() {
	_r_n=$(grep -c 'status end$' "$2" 2>/dev/null)
	kill -USR1 "$1" || return 1
	t_wait 30 t_lines_at_least $((_r_n + 1)) "$2" 'status end$' || return 1
	# the newest status block, then the stats copy: every CPU must match
	awk -v n=$((_r_n + 1)) '
		FNR == NR {
			if ($0 ~ /status end$/) b++
			else if (b == n - 1 && $2 == "cpu") have[$3] = $7 + $11
			next
		}
		FNR > 1 { if (!($1 in have) || have[$1] != $2) bad = 1 }
		END { exit bad }' "$2" "$3"
}

# t_relaytop_check NAME FILE: one TAP line for `relaytop --check FILE`
# (per CPU and generation: no record twice, none out of place, every gap
# exactly what the file counts, time never going back), its verdict as a
# "# " line, and on failure the first problems it names.
t_relaytop_check() {
	_c_out=$(relaytop --check "$2" 2>&1)
	_c_rc=$?
	echo "# $1: $(printf '%s\n' "$_c_out" | grep '^check: [0-9]* records' || printf '%s\n' "$_c_out" | tail -n 1)"
	t_eq "$1: relaytop --check: none duplicated, none out of place, every gap counted" 0 $_c_rc
	[ $_c_rc -eq 0 ] || printf '%s\n' "$_c_out" | head -n 12 | sed 's/^/#   /'
}

# What a kernel splat looks like in dmesg (the guest side of
# tests/splat-patterns, which the host harness applies to the console).
T_SPLAT='Oops|BUG:|WARNING:|Call Trace:|scheduling while atomic|sleeping function called|soft lockup|detected stalls|blocked for more than|suspicious RCU usage|circular locking|inconsistent lock state|KASAN|KFENCE'

# t_no_splat DESCRIPTION: a TAP line, passing when dmesg shows no splat.
t_no_splat() {
	t_ok "$1" sh -c "! dmesg | grep -E '$T_SPLAT'"
}

# t_run_c NAME: run the test program /tests/bin/NAME, whose own TAP lines
# count; a program that dies before reporting (a crash) gets a "not ok"
# line of its own.  Any failure sets T_C_FAILED=1, for the script's exit
# status (t_done && [ $T_C_FAILED -eq 0 ]).
T_C_FAILED=0
t_run_c() {
	echo "# /tests/bin/$1"
	"/tests/bin/$1"
	_rc=$?
	case $_rc in
	0) ;;
	1) T_C_FAILED=1 ;;
	*) T_C_FAILED=1
	   t_ok "$1 ran to the end" sh -c "echo 'exit status $_rc'; false" ;;
	esac
}

# t_done: the plan and the closing line; exit status 1 on any failure.
t_done() {
	echo "1..$T_COUNT"
	echo "$T_PASSED passed, $T_FAILED failed"
	[ $T_FAILED -eq 0 ]
}

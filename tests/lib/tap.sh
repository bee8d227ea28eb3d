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

# t_done: the plan and the closing line; exit status 1 on any failure.
t_done() {
	echo "1..$T_COUNT"
	echo "$T_PASSED passed, $T_FAILED failed"
	[ $T_FAILED -eq 0 ]
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest-side runner of one VM suite, in the manner of the kselftest runner
# (tools/testing/selftests/kselftest/runner.sh): prints TAP 13, runs every
# test script of the suite directory under a timeout, and maps exit codes:
# 0 ok, 4 skip, 124 timeout, anything else a failure.  The test's own output
# is prefixed "# " so the stream stays valid TAP.  A per-suite "settings"
# file may set timeout=SECONDS (default 120).
#
# After the tests, one more result: the kernel log holds no report of a
# debug checker (lockdep, RCU, KASAN, UBSAN, object debugging, list
# corruption: scripts/check-debug's kernel prints them without
# panicking for some), and, where kmemleak exists, after our modules are
# unloaded, two scans find no leak that appeared during the suite.
#
#   selftests/vm/runner.sh [--scale N] [--long] selftests/vm/SUITE [TEST...]
#
# --scale N multiplies the timeout by N (a debug kernel runs slower), and
# every bounded wait of the tests (lib.sh's busywait) through WAIT_SCALE.
# --long runs the long versions (make soak): the tests see LONG=1, and the
# suite's long_timeout= applies.
set -uo pipefail

scale=1
export LONG=0
while [[ ${1:-} == --* ]]; do
	case $1 in
	--scale) scale=${2:?--scale needs a number}; shift 2 ;;
	--long) LONG=1; shift ;;
	*) echo "runner.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
dir=${1:?usage: runner.sh [--scale N] [--long] SUITE_DIR [TEST...]}
shift
key=timeout
((LONG)) && grep -q '^long_timeout=' "$dir/settings" 2>/dev/null && key=long_timeout
timeout=$(sed -n "s/^$key=\\([0-9]\\+\\)\$/\\1/p" "$dir/settings" 2>/dev/null)
timeout=$((${timeout:-120} * scale))
export WAIT_SCALE=$scale

tests=()
if [[ $# -gt 0 ]]; then
	for t in "$@"; do tests+=("$dir/$t"); done
else
	for t in "$dir"/*.sh; do tests+=("$t"); done
fi

KMEMLEAK=/sys/kernel/debug/kmemleak
# (a namespace whose loopback device never goes, and a task stuck on it,
# are reports too: a leaked device reference)
REPORT_RE='BUG: |WARNING: |UBSAN: |KASAN: |KCSAN: |ODEBUG: |possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|list_(add|del) corruption|unreferenced object|unregister_netdevice: waiting for|blocked for more than'
[[ -w $KMEMLEAK ]] && echo clear >"$KMEMLEAK"
dmesg_start=$(dmesg | wc -l)
dmesg_first=$(dmesg | head -n 1)

echo "TAP version 13"
echo "1..$((${#tests[@]} + 1))"
n=0 failed=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	start=$(date +%s)
	timeout --foreground "$timeout" bash "$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - start))
	case $rc in
	0) echo "ok $n $name # ${secs}s" ;;
	4) echo "ok $n $name # SKIP" ;;
	124)
		echo "not ok $n $name # TIMEOUT $timeout seconds"
		failed=$((failed + 1))
		;;
	*)
		echo "not ok $n $name # exit=$rc"
		failed=$((failed + 1))
		;;
	esac
done
n=$((n + 1))
log=$(dmesg | tail -n +"$((dmesg_start + 1))")
# The log wrapped (its first line is not the one it began with): what it
# holds now is all new, what went before is lost, and that is a failure
# (check-debug boots with log_buf_len=16M so that it does not happen).
wrapped=
if [[ $(dmesg | head -n 1) != "$dmesg_first" ]]; then
	log=$(dmesg)
	wrapped="the kernel log wrapped during the suite: reports may be lost"
fi
# A KCSAN kernel (check-debug --kcsan) reports data races anywhere in the
# kernel; one counts when a frame of either access is in our modules.  The
# rest are printed as a count: the base kernel's own races are not ours.
# A report cut short (the log read mid-report, or a second one before the
# first's closing line) is closed where it stops and judged the same way.
kcsan=$(awk -v ours='\\[(mrt|sch_fabric|tcp_nscc|tcp_dcqcn|tcp_swift|fabric)\\]' '
	function close_blk() {
		if (inblk) { if (mine) print blk; else foreign++ }
		inblk = 0
	}
	/BUG: KCSAN:/ { close_blk(); inblk = 1; blk = $0; mine = 0; next }
	inblk && /====================/ { close_blk(); next }
	inblk { blk = blk "\n" $0; if ($0 ~ ours) mine = 1 }
	END { close_blk(); if (foreign) print "kcsan-foreign " foreign }' <<<"$log")
foreign=$(sed -n 's/^kcsan-foreign //p' <<<"$kcsan")
kcsan=$(grep -v '^kcsan-foreign ' <<<"$kcsan")
[[ -z $foreign ]] ||
	echo "# kcsan: $foreign data-race reports outside our modules (not counted)"
plain=$(grep -v 'KCSAN' <<<"$log")	# the log but KCSAN's report headers
reports=$(grep -E "$REPORT_RE" <<<"$plain")
[[ -z $kcsan ]] || reports=$(printf '%s\n%s' "$reports" "$kcsan")
[[ -z $wrapped ]] || reports=$(printf '%s\n%s' "$reports" "$wrapped")
reports=$(sed '/^$/d' <<<"$reports")
leaks= scanned=
if [[ -w $KMEMLEAK ]]; then
	scanned=" # kmemleak: none"
	modprobe -r mrt sch_fabric tcp_nscc tcp_dcqcn tcp_swift fabric 2>/dev/null
	# kmemleak reports an object only when it has been unreferenced
	# for 5 s and seen so by a scan
	echo scan >"$KMEMLEAK"
	sleep 6
	echo scan >"$KMEMLEAK"
	leaks=$(cat "$KMEMLEAK")
fi
if [[ -z $reports && -z $leaks ]]; then
	echo "ok $n kernel-reports$scanned"
else
	printf '%s\n%s\n' "$reports" "$leaks" | head -n 60 | sed 's/^/# /'
	# each report with the 40 lines after it (the call trace), so that a
	# report seen once can be read without a second run
	if grep -qE "$REPORT_RE" <<<"$plain"; then
		echo "# the reports with what follows them in the kernel log:"
		grep -E -A 40 "$REPORT_RE" <<<"$plain" | head -n 400 | sed 's/^/# | /'
	fi
	echo "not ok $n kernel-reports"
	failed=$((failed + 1))
fi
[[ $failed -eq 0 ]]

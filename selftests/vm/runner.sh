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
#   selftests/vm/runner.sh selftests/vm/SUITE [TEST...]
set -uo pipefail

dir=${1:?usage: runner.sh SUITE_DIR [TEST...]}
shift
timeout=120
if [[ -f $dir/settings ]]; then
	# shellcheck disable=SC1091
	timeout=$(sed -n 's/^timeout=\([0-9]\+\)$/\1/p' "$dir/settings")
	timeout=${timeout:-120}
fi

tests=()
if [[ $# -gt 0 ]]; then
	for t in "$@"; do tests+=("$dir/$t"); done
else
	for t in "$dir"/*.sh; do tests+=("$t"); done
fi

echo "TAP version 13"
echo "1..${#tests[@]}"
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
[[ $failed -eq 0 ]]

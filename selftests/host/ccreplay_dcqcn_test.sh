#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ccreplay --algo dcqcn: the columns, the catch-up on each event, and the
# unit tests' vectors "one CNP after 100 packets" and "recovery without
# CNPs" through the command line: 100 packets and one CNP at t = 0 cut
# 400 Gbit/s to 299.002 Gbit/s with alpha 0.505; fast recovery halves the
# gap every 45 us; the episode ends at 427.5 us back at line rate.  TAP
# output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
CCR=$top/tools/ccreplay/ccreplay
source "$top/selftests/lib/tap.sh"
row() { awk -v t="$1" '$1 == t' "$out"; }

echo "TAP version 13"
echo "1..6"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf '0 tx pkts=100\n0 cnp\n22500 tick\n67500 tick\n427499 tick\n427500 tick\n' |
	"$CCR" --algo dcqcn >"$out"
tap_ok $? "replays, exit 0"
[[ $(head -n1 "$out") == "t_ns event rate_mbps target_mbps alpha rcount congested" ]]
tap_ok $? "header names the columns"
[[ $(row 0 | tail -n1) == "0 cnp 299002.076 400000.000 0.504990 0 1" ]]
tap_ok $? "one CNP after 100 packets: cut to 299002.076 Mbit/s, alpha 0.505"
[[ $(row 22500 | cut -d' ' -f3) == 349501.038 && $(row 67500 | cut -d' ' -f3) == 374750.519 ]]
tap_ok $? "recovery: fast recovery halves the gap (349.5, then 374.75 Gbit/s)"
[[ $(row 427499 | cut -d' ' -f7) == 1 && $(row 427500 | cut -d' ' -f3,7) == "400000.000 0" ]]
tap_ok $? "recovery: the episode ends at 427.5 us, back at line rate"
printf '0 cnp n=x\n' | "$CCR" --algo dcqcn >/dev/null 2>&1
[[ $? -ne 0 ]]
tap_ok $? "a bad value is refused"
exit $tap_rc

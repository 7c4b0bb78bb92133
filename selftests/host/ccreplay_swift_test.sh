#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ccreplay --algo swift: the columns and the unit tests' vectors through
# the command line (Isekai defaults, three hops): at 20 packets the
# target is 33.197 us; a 60 us delay cuts to 12.853 packets; within an
# srtt (40 us) nothing more happens; at 0.25 packets the gap is srtt / cwnd
# = 160 us; three timeouts end at the minimum window.  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
CCR=$top/tools/ccreplay/ccreplay
source "$top/selftests/lib/tap.sh"

echo "TAP version 13"
echo "1..5"
out=$(printf '100000 ack rtt=60000 srtt=40000\n120000 ack rtt=60000 srtt=40000\n' |
	"$CCR" --algo swift --set hops=3 --init-cwnd 20000)
tap_ok $? "replays, exit 0"
[[ $(head -n1 <<<"$out") == "t_ns event cwnd_milli target_ns pacing_gap_ns" ]]
tap_ok $? "header names the columns"
[[ $(sed -n 2p <<<"$out" | cut -d' ' -f3) == 12853 && $(sed -n 3p <<<"$out" | cut -d' ' -f3) == 12853 ]]
tap_ok $? "S3/S6: 60 us at 20 packets cuts to 12.853, and not again within srtt"
out=$(printf '0 ack rtt=200000 srtt=40000\n' | "$CCR" --algo swift --init-cwnd 500)
[[ $(sed -n 2p <<<"$out" | cut -d' ' -f3,5) == "250 160000" ]]
tap_ok $? "S4: 0.5 packets cut to 0.25 paces one packet every 160 us"
out=$(printf '0 rto srtt=1\n10 rto srtt=1\n20 rto srtt=1\n' | "$CCR" --algo swift --init-cwnd 8000)
[[ $(cut -d' ' -f3 <<<"$out" | tr '\n' ' ') == "cwnd_milli 4000 2000 10 " ]]
tap_ok $? "S5: timeouts halve 8 to 4 and 2, the third sets min_cwnd"
exit $tap_rc

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/ccreplay: the command-line contract (header, one row per event,
# --set by sysctl name, errors naming the line) and a few numbers worked
# by hand from the MRC page's defaults (nominal packet 4156, max window
# 450000, target 4500, fair increase 20780 B per window).  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
CCR=$top/tools/ccreplay/ccreplay
source "$top/selftests/lib/tap.sh"
# col ROW COLUMN: a field of the output (row 0 is the header).
col() { awk -v r="$1" -v c="$2" 'NR == r + 1 { print $c }' "$t/out"; }

echo "TAP version 13"
echo "1..14"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# Two presumed losses take the window to 450000 - 2 x 4156 = 441688.  Nine
# SACKs 5000 ns above the base RTT (>= target) are fair increases of
# 20780 x 4156 each; the ninth passes 8 x 4156 received bytes and applies
# 9 x 86361680 / 441688 = 1759.7 -> 443447 (no eta: t < 6000 ns).  A trim
# then takes one packet off (inflight 100000 - 12 x 4156 = 50128) and a
# cumulative ACK releases 1000 bytes more.
cat >"$t/trace" <<'TRACE'
# t_ns event ...
0 send bytes=100000
0 loss bytes=4156
0 loss bytes=4156
100 ack bytes=4156 rtt=11000
200 ack bytes=4156 rtt=11000
300 ack bytes=4156 rtt=11000
400 ack bytes=4156 rtt=11000
500 ack bytes=4156 rtt=11000
600 ack bytes=4156 rtt=11000
700 ack bytes=4156 rtt=11000
800 ack bytes=4156 rtt=11000
900 ack bytes=4156 rtt=11000
1000 trim bytes=4156
1100 cack bytes=1000
TRACE
"$CCR" --algo nscc --flavour mrc <"$t/trace" >"$t/out"
tap_ok $? "replays a trace, exit 0"
[[ $(head -n1 "$t/out") == "t_ns event cwnd max_wnd inflight base_rtt_ns avg_delay_ns qa_count fi_count" ]]
tap_ok $? "header line names the columns"
[[ $(($(wc -l <"$t/out") - 1)) -eq 14 ]]
tap_ok $? "one row per event, comments skipped"
[[ $(col 2 3) == 445844 && $(col 3 3) == 441688 ]]
tap_ok $? "presumed losses take one nominal packet each (445844, 441688)"
[[ $(col 11 3) == 441688 && $(col 12 3) == 443447 ]]
tap_ok $? "fair increase applies past 8 packets: 443447"
[[ $(col 13 3) == 439291 && $(col 13 5) == 50128 ]]
tap_ok $? "a trim NACK shrinks the window by a packet (439291) and releases it"
[[ $(col 14 5) == 49128 && $(col 14 3) == 439291 ]]
tap_ok $? "a cumulative ACK releases bytes only"
[[ $(col 12 6) == 6000 && $(col 12 8) == 0 ]]
tap_ok $? "base RTT stays at 6000 ns, no Quick Adapt"

"$CCR" --algo nscc --flavour mrc --set config_base_rtt_ns=12000 --set data_rate_mbps=100000 \
	<<<"0 send bytes=1" >"$t/out"
[[ $(col 1 3) == 225000 && $(col 1 4) == 225000 ]]
tap_ok $? "--set by sysctl name: 100 Gbit/s x 12 us gives max window 225000"

printf '0 ack bytes=4156\n5 bogus bytes=1\n' | "$CCR" --algo nscc >/dev/null 2>"$t/err"
[[ $? -ne 0 ]] && grep -q 'line 2: unknown event' "$t/err"
tap_ok $? "an unknown event fails, naming line 2"
printf '10 ack bytes=4156\n5 ack bytes=4156\n' | "$CCR" --algo nscc >/dev/null 2>"$t/err"
[[ $? -ne 0 ]] && grep -q 'line 2: time goes backwards' "$t/err"
tap_ok $? "time going backwards fails, naming the line"
printf '0 ack rtt=5\n' | "$CCR" --algo nscc >/dev/null 2>"$t/err"
[[ $? -ne 0 ]] && grep -q 'line 1: missing bytes=' "$t/err"
tap_ok $? "a missing bytes= fails, naming the line"
"$CCR" --algo nscc --set gamma=1001 </dev/null >/dev/null 2>"$t/err"
[[ $? -ne 0 ]] && grep -q 'out of range' "$t/err"
tap_ok $? "--set out of range fails (gamma=1001)"
"$CCR" --algo nscc --set no_such=1 </dev/null >/dev/null 2>"$t/err"
[[ $? -ne 0 ]] && grep -q 'no attribute no_such' "$t/err"
tap_ok $? "--set of an unknown attribute fails"
exit $tap_rc

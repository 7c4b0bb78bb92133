#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/ccreplay: the command-line contract (header, one row per event,
# --set by sysctl name, errors naming the line) and a few numbers worked
# by hand from the MRC page's defaults (nominal packet 4156, max window
# 450000, target 4500, fair increase 20780 B per window); then the fixes
# of the cores seen through it (Swift's zero delay, DCQCN's end gap,
# fast_recovery_attempt 0 and bounded catch-up) and the input limits
# (--help "Limits": values beyond what a core takes are refused with the
# line number).  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
CCR=$top/tools/ccreplay/ccreplay
source "$top/selftests/lib/tap.sh"
# col ROW COLUMN: a field of the output (row 0 is the header).
col() { awk -v r="$1" -v c="$2" 'NR == r + 1 { print $c }' "$t/out"; }

echo "TAP version 13"
echo "1..36"
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

# Swift: a 0 ns sample at a 0 target (no base, no flow scaling, no hops) is
# no excess, so no decrease; it once divided by the delay (SIGFPE).
printf '0 ack rtt=0 acked=1\n' |
	"$CCR" --algo swift --set base_target_ns=0 --set fs_range_ns=0 --set hops=0 >"$t/out"
[[ $? -eq 0 && $(col 1 0) == "0 ack 10000 0 0" ]]
tap_ok $? "swift: a zero delay at a zero target leaves the window (10000), no SIGFPE"

# DCQCN: fast_recovery_attempt 0 still begins the episode with a cut, as
# in the vector "one CNP after 100 packets": alpha 0.505, and
# 400 x (1 - 0.505 / 2).
printf '0 tx pkts=100\n0 cnp\n' | "$CCR" --algo dcqcn --set fast_recovery_attempt=0 >"$t/out"
[[ $(col 2 0) == "0 cnp 299002.076 400000.000 0.504990 0 1" ]]
tap_ok $? "dcqcn: fast_recovery_attempt=0, the first CNP cuts to 299002.076 (not 398000)"

# DCQCN: the episode ends when an increase brings the rate within the
# page's 0.1 Gbit/s of line rate, at every line rate (episode_end_gap_mbps
# 100; episode_end_gap_ppm 0 is off).  At 25 Gbit/s the first CNP cuts to
# 18687.630 Mbit/s and the gap halves each 45 us: 197 Mbit/s after the
# fifth increase (202.5 us), within 0.1 Gbit/s after the sixth (247.5 us),
# which ends it.  At 400 Mbit/s the first increase (22.5 us, 299.003 to
# 349.5 Mbit/s) already ends it.  With episode_end_gap_ppm 250 the gap is
# 100 kb/s at 400 Mbit/s: additive increase comes (rcount 4 at 157.5 us)
# and the episode ends at 427.5 us, as at 400 Gbit/s.
"$CCR" --algo dcqcn --list | grep -q '^episode_end_gap_mbps  *100  *Mbit/s  *\[1\.\.3200000\]'
tap_ok $? "dcqcn: --list has episode_end_gap_mbps 100 Mbit/s [1..3200000]"
"$CCR" --algo dcqcn --list | grep -q '^episode_end_gap_ppm  *0  *ppm  *\[0\.\.1000000\]'
tap_ok $? "dcqcn: --list has episode_end_gap_ppm 0 ppm [0..1000000]"
printf '0 tx pkts=100\n0 cnp\n202500 tick\n247500 tick\n' |
	"$CCR" --algo dcqcn --set data_rate_mbps=25000 >"$t/out"
[[ $(col 3 0) == "202500 tick 24802.738 25000.000 0.000977 5 1" &&
   $(col 4 0) == "247500 tick 25000.000 25000.000 0.000244 6 0" ]]
tap_ok $? "dcqcn: at 25 Gbit/s the sixth increase, the first within 0.1 Gbit/s, ends the episode"
printf '0 tx pkts=100\n0 cnp\n22499 tick\n22500 tick\n' |
	"$CCR" --algo dcqcn --set data_rate_mbps=400 >"$t/out"
[[ $(col 3 0) == "22499 tick 299.003 400.000 0.504990 0 1" &&
   $(col 4 0) == "22500 tick 400.000 400.000 0.252487 1 0" ]]
tap_ok $? "dcqcn: at 400 Mbit/s the first increase comes within 0.1 Gbit/s and ends it"
printf '0 tx pkts=100\n0 cnp\n157500 tick\n427500 tick\n' |
	"$CCR" --algo dcqcn --set data_rate_mbps=400 --set episode_end_gap_ppm=250 >"$t/out"
[[ $(col 3 0) == "157500 tick 393.687 400.000 0.003937 4 1" &&
   $(col 4 0) == "427500 tick 400.000 400.000 0.000000 10 0" ]]
tap_ok $? "dcqcn: episode_end_gap_ppm=250 at 400 Mbit/s: additive increase (rcount 4), the end at 427.5 us"

# DCQCN: ccreplay catches up through the core's dcqcn_catch_up(), bounded
# as in the module.  fast_recovery_attempt 1, num_of_control_loops_per_
# increase 0 and 1000 steps (40 Mbit/s): every interval's CNP makes an
# increase and then an additive-phase reduction, one step down; after
# 2100 of them, at 94.465 ms, climbing back to line rate takes more than
# 4096 boundaries.  After 4095 silent ones the episode goes on; after
# 4096 the bound closes it at line rate (unbounded, it went on).
awk 'BEGIN { print "0 tx pkts=100"; print "0 cnp";
	     for (k = 0; k < 2100; k++) print 45000 * k + 10000, "cnp" }' >"$t/cnps"
dcqcn_long() {
	{ cat "$t/cnps"; echo "$1 tick"; } |
		"$CCR" --algo dcqcn --set fast_recovery_attempt=1 \
			--set num_of_control_loops_per_increase=0 \
			--set number_active_increase_steps=1000 | tail -n1 | cut -d' ' -f3,7
}
[[ $(dcqcn_long $((94465000 + 4095 * 22500))) == "397800.000 1" ]]
tap_ok $? "dcqcn: 4095 silent boundaries replayed, the episode goes on (397800)"
[[ $(dcqcn_long $((94465000 + 4096 * 22500))) == "400000.000 0" ]]
tap_ok $? "dcqcn: 4096 silent boundaries, the catch-up limit ends it at line rate"
printf '0 tx pkts=100\n0 cnp\n1000000000000 tick\n' | "$CCR" --algo dcqcn >"$t/out"
[[ $(col 3 0 | cut -d' ' -f3,7) == "400000.000 0" ]]
tap_ok $? "dcqcn: one CNP, then a tick 1000 s later: line rate, not congested"

# Input limits: beyond them ccreplay stops with the line number, exit 1.
# refused TRACE ARGS... : exit 1 and "line 2: PATTERN" on stderr ($want).
refused() {
	local trace=$1
	shift
	printf "$trace" | "$CCR" "$@" >/dev/null 2>"$t/err"
	[[ $? -eq 1 ]] && grep -q "^ccreplay: line 2: $want" "$t/err"
}
want='bytes=18446744073709551615 is above the limit 1099511627776'
refused '0 send bytes=1\n0 send bytes=18446744073709551615\n' --algo nscc
tap_ok $? "nscc: bytes=2^64-1 is refused, naming line 2 and the limit 2^40"
printf '0 send bytes=1099511627776\n0 send bytes=1099511627776\n0 ack bytes=1099511627776 rtt=1000000000000 service=1000000000000 pen=127 ecn=1 restore=1\n' |
	"$CCR" --algo nscc >"$t/out" 2>"$t/err"
[[ $? -eq 0 && ! -s $t/err && $(col 2 5) == 2199023255552 && $(col 3 5) == 1099511627776 ]]
tap_ok $? "nscc: every key at its limit is accepted"
want='rtt=1000000000001 is above the limit 1000000000000'
refused '0 send bytes=1\n0 trim bytes=1 rtt=1000000000001\n' --algo nscc
tap_ok $? "nscc: rtt= above 10^12 ns is refused"
want='service=18446744073709551615 is above'
refused '0 send bytes=1\n0 ack bytes=1 rtt=1 service=18446744073709551615\n' --algo nscc
tap_ok $? "nscc: service= above 10^12 ns is refused"
want='ecn=2 is above the limit 1'
refused '0 send bytes=1\n0 ack bytes=1 ecn=2\n' --algo nscc
tap_ok $? "nscc: ecn= is 0 or 1"
want='pen=128 is above the limit 127'
refused '0 send bytes=1\n0 ack bytes=1 pen=128\n' --algo nscc
tap_ok $? "nscc: pen= above 127 is refused"
want='n=4294967296 is above the limit 4294967295'
refused '0 tick\n0 cnp n=4294967296\n' --algo dcqcn
tap_ok $? "dcqcn: n= above 2^32-1 is refused"
want='rtt=1000000000001 is above the limit 1000000000000'
refused '0 ack rtt=1\n0 ack rtt=1000000000001\n' --algo swift
tap_ok $? "swift: rtt= above 10^12 ns is refused"
want='srtt=18446744073709551615 is above'
refused '0 ack rtt=1\n0 rto srtt=18446744073709551615\n' --algo swift
tap_ok $? "swift: srtt= above 10^12 ns is refused"
want='the time is above the limit 10^18 ns'
refused '1000000000000000000 tick\n1000000000000000001 tick\n' --algo dcqcn
tap_ok $? "the time is at most 10^18 ns (10^18 accepted, 10^18 + 1 refused)"
want='the time is above'
refused '0 ack rtt=1\n18446744073709551615 ack rtt=1\n' --algo swift
tap_ok $? "a time of 2^64-1 is refused"
"$CCR" --help | grep -q '^Limits:' && "$CCR" --help | grep -q 'bytes=  *<= 1099511627776'
tap_ok $? "--help lists the limits"
exit $tap_rc

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nscc owns pacing and follows the MSS (TCP_INFO samples, tcpxfer.py --info):
#   - a new nscc socket is paced at its window over srtt times
#     net.ipv4.tcp_pacing_ca_ratio (120 %), not left unpaced;
#   - after setsockopt(TCP_CONGESTION) from dcqcn (pacing at its 10 Mbit/s
#     line rate) or bbr, the socket paces at nscc's rate, not the last one;
#   - nscc set during a non-blocking connect (init in SYN_SENT) follows
#     the MSS the handshake brings (the peer advertises 1200), not the one
#     it started with: the nominal packet moves from 1500 to 1240 bytes.
# Each check is of values the kernel holds at one instant (TCP_INFO reads
# cwnd, srtt and the pacing rate under the socket lock), not of speed.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc nscc || exit 1
allow_cc dcqcn || exit 1
modprobe tcp_bbr || exit 1
allow_cc bbr || exit 1
setup_ns A B
link_ns "$A" a0 1 "$B" b0 2
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=nscc
	ip netns exec "$ns" sysctl -qw net.nscc.data_rate_mbps=10000
	ip netns exec "$ns" sysctl -qw net.nscc.config_base_rtt_ns=100000
	# The 24 us default is for 6 us fabrics: the VM's RTT alone would
	# fire Quick Adapt on every ACK (04_ecn sets the same).
	ip netns exec "$ns" sysctl -qw net.nscc.quick_adapt_threshold_ns=800000
done
ip netns exec "$A" sysctl -qw net.dcqcn.data_rate_mbps=10
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

port=5700
xfer() { # client arguments...
	port=$((port + 1))
	ip netns exec "$B" timeout "$(scaled 120)" python3 "$XFER" server 198.18.0.2 $port >"$INFO.srv" &
	ip netns exec "$A" python3 "$XFER" client 198.18.0.2 $port --info "$INFO" "$@" >"$INFO.cli"
	wait
	[[ $(grep bytes= "$INFO.srv") == "$(sed 's/ cc=.*//' "$INFO.cli")" ]]
}

# paced_as_nscc FILTER: every stable sample jq selects (one instant: see
# tcpconnect.tcp_info()) runs nscc, is paced (not 2^64 - 1) and at mss x
# 1.2 x max(cwnd, packets out) / srtt within 5 % (srtt is read in whole us;
# the 10 Gbit/s link rate caps it).  The rate is set on each ACK, so the
# packets out are those of the last ACK: a tail loss probe since then can
# have sent one beyond the window (seen on a KCSAN kernel: cwnd 2,
# unacked 3, paced for 2), and either count passes.
paced_as_nscc() {
	local bad
	bad=$(jq -c "def want(n): n * .mss * 1.2 * 1e6 / .rtt_us | if . > 1.25e9 then 1.25e9 else . end;
		def near(w): .pacing_rate > w * 0.95 and .pacing_rate < w * 1.05;
		select(($1) and .stable) | select((.cc == \"nscc\" and
		.pacing_rate < 18446744073709551615 and .rtt_us > 0 and
		(near(want([.cwnd, .unacked] | max)) or near(want(.cwnd)))) | not)" "$INFO")
	[[ -n $bad ]] && log "not paced as nscc: $bad"
	[[ -z $bad && $(jq -c "select(($1) and .stable)" "$INFO" | wc -l) -gt 0 ]]
}

xfer --bytes $((4 << 20))
check $? "nscc: the transfer arrives intact"
jq -c 'del(.sport)' "$INFO" | sed -n '1p;$p'
paced_as_nscc 'true'
check $? "a new nscc socket paces at its window over srtt (x 1.2), from the start"

xfer --cc dcqcn --switch-cc nscc --bytes $((3 << 20))
check $? "dcqcn then nscc: the transfer arrives intact"
grep _switch "$INFO"
jq -s -e '[.[] | select(.before_switch)][0] | .cc == "dcqcn" and .pacing_rate == 1250000' "$INFO" >/dev/null
check $? "before the switch dcqcn paces at its 10 Mbit/s line rate"
paced_as_nscc '.after_switch or .cc == "nscc"'
check $? "after setsockopt(TCP_CONGESTION nscc) from dcqcn nscc's rate paces the socket"

xfer --cc bbr --switch-cc nscc --bytes $((3 << 20))
check $? "bbr then nscc: the transfer arrives intact"
grep _switch "$INFO"
paced_as_nscc '.after_switch or .cc == "nscc"'
check $? "after setsockopt(TCP_CONGESTION nscc) from bbr nscc's rate paces the socket"

# nscc set while the SYN is out: the SYN-ACK is held 300 ms (netem, lifted
# once the connection is up), and B's route advertises MSS 1200, so the MSS
# nscc started with (from the local MTU) is not the one the handshake
# brings (1188 with timestamps): the nominal packet becomes 1240 bytes.
# A's default is cubic here (setting the algorithm a socket already has
# does not run init again), with tcp_ecn 1 so that the handshake, which
# cubic's ops make, asks for ECN and the uet flavour finds it (ecn_on).
# A client stalled past the 300 ms (the setsockopt found the socket
# established) tries again, at most three times.
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=cubic
ip netns exec "$A" sysctl -qw net.ipv4.tcp_ecn=1
ip -n "$B" route replace 198.18.0.0/24 dev b0 src 198.18.0.2 advmss 1200
trace_on nscc
for try in 1 2 3; do
	tc -n "$B" qdisc add dev b0 root netem delay 300ms
	port=$((port + 1))
	rm -f "$INFO"
	ip netns exec "$B" timeout "$(scaled 120)" python3 "$XFER" server 198.18.0.2 $port >"$INFO.srv" &
	ip netns exec "$A" python3 "$XFER" client 198.18.0.2 $port --info "$INFO" \
		--cc-in-connect nscc --bytes $((2 << 20)) >"$INFO.cli" &
	busywait 30000 test -s "$INFO"
	tc -n "$B" qdisc del dev b0 root
	wait
	jq -s -e '.[0].state_at_cc == 2' "$INFO" >/dev/null && break
done
[[ $(grep bytes= "$INFO.srv") == "$(sed 's/ cc=.*//' "$INFO.cli")" ]]
check $? "nscc set in SYN_SENT: the transfer arrives intact"
trace_off nscc
jq -s -e '.[0].state_at_cc == 2' "$INFO" >/dev/null
check $? "nscc was set while the socket was in SYN_SENT (attempt $try)"
sport=$(jq -s '.[0].sport' "$INFO")
first=$(grep -m1 "nscc_update: sport=$sport " $TRACEFS/trace | grep -o ' mtu=[0-9]*')
last=$(grep "nscc_update: sport=$sport " $TRACEFS/trace | tail -n1 | grep -o ' mtu=[0-9]*')
log "nominal packet: first update$first, last$last; mss $(jq -s '.[-1].mss' "$INFO");" \
	"nominal_changes $(nscc_stat "$A" nominal_changes)"
[[ $last == " mtu=1240" ]] && stat_ge "$A" nscc_stat nominal_changes 1
check $? "the nominal packet followed the handshake's MSS (1188 + 32 + 20 = 1240 bytes)"
# (Not the sample taken at connect: tcp_init_transfer() has just put TCP's
# initial window back, and nscc takes its own again with the first data.)
paced_as_nscc '.cc == "nscc" and .state == 1 and (.state_at_cc | not)'
check $? "and the socket is paced at nscc's rate"
jq -s -e 'all(.ecn)' "$INFO" >/dev/null && stat_ge "$A" nscc_stat ecn_on 1
check $? "the classic ECN handshake gave the uet connection ECN (ecn_on)"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The uet flavour through an ECN-marking bottleneck.
#
#   A (sender) --- R (switch: 20 Mbit/s egress, CE above 1 ms) --- B
#   198.18.1.1     198.18.1.2 | 198.18.2.2                 198.18.2.1
#
# The sender's max window (10 Gbit/s NIC rate x base RTT) is far above the
# bottleneck's BDP, so a standing queue builds, R marks CE, B echoes it
# (DCTCP style, both ends on nscc) and A must take multiplicative
# decreases: the md_cuts counter and routine=md in the tracepoint.  Every
# window the tracepoint shows stays within [one packet, max window].  The
# port is slow enough for any machine to fill, and the flow lasts until
# the sender has decreased (bounded), so no check depends on speed.
# Quick Adapt is off (disable_quick_adapt): it fires when the delay passes
# quick_adapt_threshold_ns, and its ignore phase swallows the marked ACKs
# that follow; on a slow kernel (the debug kernel's RTTs are tens of ms)
# it fired on 35,035 of 35,189 ACKs and no mark reached the decrease.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"

allow_cc nscc || exit 1
setup_ns A R B
SUBNET=1 link_ns "$A" a0 1 "$R" r0 2
SUBNET=2 link_ns "$B" b0 1 "$R" r1 2
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
ip -n "$A" route add 198.18.2.0/24 via 198.18.1.2
ip -n "$B" route add 198.18.1.0/24 via 198.18.2.2

tc -n "$R" qdisc add dev r1 root handle 1: htb default 1
tc -n "$R" class add dev r1 parent 1: classid 1:1 htb rate 20mbit ceil 20mbit
tc -n "$R" qdisc add dev r1 parent 1:1 fq_codel ce_threshold 1ms ecn
check $? "bottleneck: htb 20 Mbit/s with fq_codel marking CE above 1 ms"

for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=nscc
	ip netns exec "$ns" sysctl -qw net.nscc.flavour=uet
	ip netns exec "$ns" sysctl -qw net.nscc.data_rate_mbps=10000
	ip netns exec "$ns" sysctl -qw net.nscc.config_base_rtt_ns=200000
	ip netns exec "$ns" sysctl -qw net.nscc.disable_quick_adapt=1
done
trace_on nscc

hold_new HOLD
ip netns exec "$B" python3 "$XFER" server 198.18.2.1 5300 >"$HOLD.srv" &
ip netns exec "$A" python3 "$XFER" client 198.18.2.1 5300 --while-exists "$HOLD" >"$HOLD.cli" &
busywait 60000 stat_ge "$A" nscc_stat md_cuts 1
rm -f "$HOLD"
wait
got=$(grep bytes= "$HOLD.srv")
log "client: $(cat "$HOLD.cli"); server: $got"
[[ -n $got && "$(sed 's/ cc=.*//' "$HOLD.cli")" == "$got" ]]
check $? "the data arrived intact"
rm -f "$HOLD.cli" "$HOLD.srv"
trace_off nscc

tc -n "$R" -s qdisc show dev r1 | sed -n '/fq_codel/,/backlog/p'
ce=$(tc -n "$R" -s qdisc show dev r1 | sed -n 's/.*ce_mark \([0-9]*\).*/\1/p' | head -1)
log "CE marks at the bottleneck: ${ce:-none}"
[[ ${ce:-0} -gt 0 ]]
check $? "the bottleneck marked packets CE"

ecn=$(nscc_stat "$A" ecn_acks)
md=$(nscc_stat "$A" md_cuts)
ce_rx=$(nscc_stat "$B" ce_received)
log "sender: ecn_acks=$ecn md_cuts=$md; receiver: ce_received=$ce_rx"
[[ $ce_rx -gt 0 ]]
check $? "the receiver saw CE and echoed it"
[[ $ecn -gt 0 ]]
check $? "the sender got ECN-echo ACKs"
[[ $md -gt 0 ]]
check $? "the uet sender took multiplicative decreases"
grep -q 'nscc_update:.*routine=md' $TRACEFS/trace
check $? "the tracepoint shows routine=md"

# Window bounds over every traced update of the sender.
awk '/nscc_update:/ {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	n++
	if (v["cwnd"] + 0 > v["max_wnd"] + 0 || v["cwnd"] + 0 < v["mtu"] + 0) { bad++; if (bad < 4) print "out of bounds: " $0 }
	if (min == "" || v["cwnd"] + 0 < min) min = v["cwnd"] + 0
	if (v["cwnd"] + 0 > max) max = v["cwnd"] + 0
     }
     END { printf "%d updates, cwnd %d..%d bytes\n", n, min, max; exit (n == 0 || bad > 0) }' \
	$TRACEFS/trace
check $? "the window stays within [one packet, max window]"
exit $RET

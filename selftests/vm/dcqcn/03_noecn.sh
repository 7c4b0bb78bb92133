#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# enable_ecn=0: the sender's packets leave Not-ECT, so a marking port never
# marks them however deep its queue, and the rate never moves from line
# rate (no episode, pacing at the line rate).  The port (20 Mbit/s) is one
# any machine fills; the flow lasts until the queue stood above ecn_max.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc dcqcn || exit 1
star_topo 1
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 200kb ecn_min 20kb ecn_max 60kb
for ns in "$S1" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
	ip netns exec "$ns" sysctl -qw net.dcqcn.data_rate_mbps=1000
done
ip netns exec "$S1" sysctl -qw net.dcqcn.enable_ecn=0

hold_new HOLD
ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5403 >/dev/null &
ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 5403 --while-exists "$HOLD" >/dev/null &
busywait 60000 fabric_ge "$R" rb max_backlog 61441
check $? "the queue stood above ecn_max"
pr=$(ip netns exec "$S1" ss -tinH dst 198.18.100.1 | grep -o 'pacing_rate [^ ]*' | head -1)
rm -f "$HOLD"
wait
log "sender: $pr; port: max_backlog $(fabric_stat "$R" rb max_backlog) B, ecn_marked $(fabric_stat "$R" rb ecn_marked)"
[[ $(fabric_stat "$R" rb ecn_marked) -eq 0 ]]
check $? "a queue above ecn_max marked nothing: the packets were Not-ECT"
[[ $(proc_stat "$S1" dcqcn_stat episodes_started) -eq 0 ]]
check $? "no episode started"
[[ $pr == "pacing_rate 1Gbps" || $pr == "pacing_rate 1000000000bps" ]]
check $? "the sender paces at line rate ($pr)"
exit $RET

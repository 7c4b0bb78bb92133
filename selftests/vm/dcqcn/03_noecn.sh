#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# enable_ecn=0: dcqcn takes no part in ECN.  Bulk data through a 20 Mbit/s
# sch_fabric port with an 8 kB buffer that marks above 2 kB (a first window
# at a 1 Gbit/s line rate overflows it at once); every flow lasts until the
# port has dropped for it (bounded), so nothing depends on speed:
#   - netns enable_ecn 0 (module 1): the handshake has negotiated ECN (the
#     registered ops asked for it) and the sender turns it off at init
#     (ecn_turned_off): Not-ECT data, nothing marked, no episode, pacing at
#     the line rate;
#   - module parameter enable_ecn 0: the ops do not negotiate ECN at all,
#     so neither a dctcp client of a dcqcn listener nor a dcqcn client of a
#     dctcp listener has ECN on its connection, and the port marks nothing
#     (dctcp falls back to Reno, Not-ECT) where it would otherwise mark the
#     peer's packets and dcqcn would not echo them.
source "$(dirname "$0")/../lib.sh"

allow_cc dcqcn || exit 1
modprobe tcp_dctcp || exit 1
allow_cc dctcp || exit 1
P=/sys/module/tcp_dcqcn/parameters
defer "echo 1 > $P/enable_ecn"
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

topo() {
	star_topo 1
	tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 8kb ecn_min 2kb ecn_max 4kb
	for ns in "$S1" "$B"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
		ip netns exec "$ns" sysctl -qw net.dcqcn.data_rate_mbps=1000
	done
}
port=5410
flow() { port=$((port + 1)); port_flow "$INFO" $port "$@"; }

topo
ip netns exec "$S1" sysctl -qw net.dcqcn.enable_ecn=0
flow
check $? "netns enable_ecn 0: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 ]] && jq -s -e 'all(.ecn | not)' "$INFO" >/dev/null
check $? "the sender's packets were Not-ECT: nothing marked"
stat_ge "$S1" dcqcn_stat ecn_turned_off 1
check $? "the sender turned the negotiated ECN off (ecn_turned_off)"
[[ $(proc_stat "$S1" dcqcn_stat episodes_started) -eq 0 ]]
check $? "no episode started"
jq -s -e 'all(.pacing_rate == 125000000)' "$INFO" >/dev/null
check $? "the sender paced at its 1 Gbit/s line rate throughout"

echo 0 > $P/enable_ecn
topo
flow --cc dctcp
check $? "module enable_ecn 0, dctcp client: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 && $B_ECN -eq 0 ]] && jq -s -e 'all(.ecn | not)' "$INFO" >/dev/null
check $? "the dcqcn listener did not grant dctcp's ECN: nothing marked"
ip netns exec "$B" sysctl -qw net.ipv4.tcp_congestion_control=dctcp
flow
check $? "module enable_ecn 0, dcqcn client of a dctcp listener: the flow arrived intact"
[[ $MARKS -eq 0 && $B_ECN -eq 0 ]] && jq -s -e 'all(.cc == "dcqcn" and (.ecn | not))' "$INFO" >/dev/null
check $? "dcqcn did not ask for ECN: no ECN at either end, nothing marked"
[[ $(proc_stat "$S1" dcqcn_stat ecn_on) -eq 0 && $(proc_stat "$S1" dcqcn_stat ecn_turned_off) -eq 0 ]]
check $? "the dcqcn sender counts no ECN connection"
exit $RET

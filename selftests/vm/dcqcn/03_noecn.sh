#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# enable_ecn=0: dcqcn does not ask for ECN.  Bulk data through a 20 Mbit/s
# sch_fabric port with an 8 kB buffer that marks above 2 kB (a first window
# at a 1 Gbit/s line rate overflows it at once); every flow lasts until the
# port has dropped for it (bounded), so nothing depends on speed:
#   - module parameter enable_ecn 0: the ops do not negotiate ECN, so a
#     dcqcn client of a dctcp listener and a dctcp client of a dcqcn
#     listener have no ECN, the port marks nothing (dctcp falls back to
#     Reno, Not-ECT), and the dcqcn sender stays at line rate, no episode;
#   - a classic ECN client (cubic, net.ipv4.tcp_ecn 1), which the host's
#     own tcp_ecn (2) grants whatever the congestion control: the dcqcn
#     listener keeps ECN (ecn_kept) and echoes the marks, so the client
#     answers them (its TcpExtTCPDeliveredCE grows);
#   - netns enable_ecn 0 under module 1: the handshake negotiates ECN (the
#     registered ops ask for it); the sender keeps it (ecn_kept) and its
#     loop answers the marks (episodes), as an ECN endpoint must.
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

echo 0 > $P/enable_ecn
topo
ip netns exec "$B" sysctl -qw net.ipv4.tcp_congestion_control=dctcp
flow
check $? "module enable_ecn 0, dcqcn client of a dctcp listener: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 && $B_ECN -eq 0 ]] && jq -s -e 'all(.cc == "dcqcn" and (.ecn | not))' "$INFO" >/dev/null
check $? "dcqcn did not ask for ECN: no ECN at either end, nothing marked"
[[ $(proc_stat "$S1" dcqcn_stat ecn_on) -eq 0 && $(proc_stat "$S1" dcqcn_stat ecn_kept) -eq 0 &&
   $(proc_stat "$S1" dcqcn_stat episodes_started) -eq 0 ]]
check $? "the dcqcn sender counts no ECN connection and no episode"
jq -s -e 'all(.pacing_rate == 125000000)' "$INFO" >/dev/null
check $? "the sender paced at its 1 Gbit/s line rate throughout"

ip netns exec "$B" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
flow --cc dctcp
check $? "module enable_ecn 0, dctcp client: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 && $B_ECN -eq 0 ]] && jq -s -e 'all(.ecn | not)' "$INFO" >/dev/null
check $? "the dcqcn listener did not grant dctcp's ECN: nothing marked"

port=$((port + 1))
port_flow_classic "$INFO" $port
check $? "a classic ECN client (cubic, tcp_ecn 1) of the dcqcn listener: the flow arrived intact"
[[ $B_ECN -eq 1 && $MARKS -gt 0 && $ECHOED -gt 0 ]] && stat_ge "$B" dcqcn_stat ecn_kept 1
check $? "the host granted ECN; the dcqcn end kept it (ecn_kept) and echoed the port's marks"

echo 1 > $P/enable_ecn
topo
ip netns exec "$S1" sysctl -qw net.dcqcn.enable_ecn=0
flow
check $? "netns enable_ecn 0 under module 1: the flow filled the port and arrived intact"
log "sender: ecn_kept $(proc_stat "$S1" dcqcn_stat ecn_kept), episodes $(proc_stat "$S1" dcqcn_stat episodes_started)"
stat_ge "$S1" dcqcn_stat ecn_kept 1
check $? "the sender kept the negotiated ECN (ecn_kept)"
(( MARKS > 0 )) && stat_ge "$S1" dcqcn_stat episodes_started 1
check $? "and its loop answered the port's marks (episodes)"
exit $RET

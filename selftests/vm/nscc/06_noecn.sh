#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mrc flavour does not ask for ECN: its NIC has none, and a path that
# marked its packets would not drop them, while mrc reacts to losses.  Bulk
# data through a 20 Mbit/s sch_fabric port with an 8 kB buffer that marks
# above 2 kB (nscc's first window, and dctcp's, overflow it at once):
#   - module parameter flavour=mrc, both ends nscc: no ECN on the
#     connection, so the port marks nothing, drops at its limit, and the
#     mrc sender sees those losses;
#   - the same module against a dctcp client: the nscc listener does not
#     grant dctcp's ECN either (dctcp falls back to Reno, Not-ECT): the
#     port marks nothing;
#   - against a classic ECN client (cubic, net.ipv4.tcp_ecn 1), which the
#     host's own tcp_ecn (2) grants whatever the congestion control: the
#     mrc end keeps ECN (ecn_kept) and echoes the marks, so the client
#     answers them (its TcpExtTCPDeliveredCE grows);
#   - module uet, netns flavour mrc at both ends: the handshake negotiates
#     ECN (the registered ops ask for it); each end keeps it, and the mrc
#     sender takes an echoed mark as the loss it stood for, once per window
#     (ce_losses), not once per ACK that echoes it (ecn_acks): the receiver
#     echoes RFC 3168 style, every ACK until the sender's CWR arrives.
# Every flow lasts until the port has dropped for it (bounded), so nothing
# depends on speed.
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
modprobe tcp_dctcp || exit 1
allow_cc dctcp || exit 1
P=/sys/module/tcp_nscc/parameters
defer "echo uet > $P/flavour"
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

# topo: S1 -> R (port rb, marking) -> B, both ends nscc with VM-sized paths.
topo() {
	star_topo 1
	tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 8kb ecn_min 2kb ecn_max 4kb
	for ns in "$S1" "$B"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=nscc
		ip netns exec "$ns" sysctl -qw net.nscc.data_rate_mbps=10000
		ip netns exec "$ns" sysctl -qw net.nscc.config_base_rtt_ns=100000
	done
}

port=5900
flow() { port=$((port + 1)); port_flow "$INFO" $port "$@"; }

echo mrc > $P/flavour
topo
flow
check $? "mrc (module parameter) to mrc: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 ]] && jq -s -e 'all(.ecn | not)' "$INFO" >/dev/null && [[ $B_ECN -eq 0 ]]
check $? "no ECN was negotiated: the port marked nothing"
[[ $(nscc_stat "$S1" ecn_on) -eq 0 && $(nscc_stat "$S1" ecn_kept) -eq 0 &&
   $(nscc_stat "$B" ecn_on) -eq 0 ]]
check $? "neither end counts an ECN connection"
stat_ge "$S1" nscc_stat lost_packets 1
check $? "the mrc sender saw the port's drops as losses ($(nscc_stat "$S1" lost_packets) packets)"

flow --cc dctcp
check $? "dctcp to the mrc listener: the flow filled the port and arrived intact"
[[ $MARKS -eq 0 && $B_ECN -eq 0 ]] && jq -s -e 'all(.ecn | not)' "$INFO" >/dev/null
check $? "the mrc listener did not grant dctcp's ECN: the port marked nothing"

port=$((port + 1))
port_flow_classic "$INFO" $port
check $? "a classic ECN client (cubic, tcp_ecn 1) of the mrc listener: the flow arrived intact"
[[ $B_ECN -eq 1 && $MARKS -gt 0 && $ECHOED -gt 0 ]] && stat_ge "$B" nscc_stat ecn_kept 1
check $? "the host granted ECN; the mrc end kept it (ecn_kept) and echoed the port's marks"

echo uet > $P/flavour
topo
for ns in "$S1" "$B"; do
	ip netns exec "$ns" sysctl -qw net.nscc.flavour=mrc
done
flow
check $? "module uet, netns mrc: the flow filled the port and arrived intact"
CE_LOSSES=$(nscc_stat "$S1" ce_losses) ECN_ACKS=$(nscc_stat "$S1" ecn_acks)
log "sender: ecn_kept $(nscc_stat "$S1" ecn_kept), ce_losses $CE_LOSSES, ecn_acks $ECN_ACKS"
stat_ge "$S1" nscc_stat ecn_kept 1 && stat_ge "$B" nscc_stat ecn_kept 1
check $? "ECN negotiated by the handshake is kept at both ends (ecn_kept)"
(( MARKS > 0 )) && stat_ge "$S1" nscc_stat ce_losses 1
check $? "the mrc sender took the port's marks as losses (ce_losses)"
(( CE_LOSSES < ECN_ACKS ))
check $? "once per window: fewer reactions ($CE_LOSSES) than ACKs echoing CE ($ECN_ACKS)"
exit $RET

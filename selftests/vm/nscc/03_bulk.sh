#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bulk transfers between two netns over veth, both ends on nscc, IPv4 and
# IPv6, in both flavours: the data arrives intact (same SHA-256 at both
# ends), the sockets ran nscc, ss -ti shows its state, the per-netns
# counters moved and the tracepoint fired.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
BYTES=$((32 << 20))

allow_cc nscc || exit 1
setup_ns A B
link_ns "$A" a0 1 "$B" b0 2
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=nscc
	# A VM-sized path: 10 Gbit/s and 100 us, not the 400G/6us NIC defaults.
	ip netns exec "$ns" sysctl -qw net.nscc.data_rate_mbps=10000
	ip netns exec "$ns" sysctl -qw net.nscc.config_base_rtt_ns=100000
done
trace_on nscc

port=5100
xfer() {
	local addr=$1 flavour=$2 out srv
	port=$((port + 1))
	ip netns exec "$A" sysctl -qw net.nscc.flavour="$flavour"
	out=$(mktemp)
	ip netns exec "$B" python3 "$XFER" server "$addr" $port >"$out" &
	srv=$!
	cli=$(ip netns exec "$A" python3 "$XFER" client "$addr" $port --bytes $BYTES)
	wait $srv
	got=$(grep bytes= "$out")
	log "client: $cli"
	log "server: $got"
	[[ -n $got && "${cli% cc=*}" == "$got" ]]
	check $? "$flavour over $addr: $BYTES bytes arrive intact"
	[[ $cli == *"cc=nscc" ]]
	check $? "$flavour over $addr: the sender's socket ran nscc"
	rm -f "$out"
}

xfer 198.18.0.2 uet
xfer 2001:db8:0::2 uet
xfer 198.18.0.2 mrc

# ss shows nscc's state through get_info while a connection is open.
hold_new HOLD
ip netns exec "$B" python3 "$XFER" server 198.18.0.2 5200 >/dev/null &
ip netns exec "$A" python3 "$XFER" client 198.18.0.2 5200 --while-exists "$HOLD" >/dev/null &
busywait 30000 sh -c "ip netns exec $A ss -tinH dst 198.18.0.2 | grep -q 'bbr:(.*mrtt'"
check $? "ss -ti shows nscc's base RTT and window (bbr:(... mrtt ...))"
ip netns exec "$A" ss -tinH dst 198.18.0.2 | sed -n '1,2p'
rm -f "$HOLD"
wait

acks=$(nscc_stat "$A" acks)
samples=$(nscc_stat "$A" rtt_samples)
socks=$(nscc_stat "$A" sockets)
log "sender counters: sockets=$socks acks=$acks rtt_samples=$samples"
[[ $socks -ge 4 && $acks -gt 1000 && $samples -gt 0 ]]
check $? "per-netns counters count sockets, ACKs and RTT samples"
[[ $(nscc_stat "$B" acks) -lt $acks ]]
check $? "counters are per netns (the receiver's ACK count is its own)"

trace_off nscc
events=$(grep -c 'nscc_update:' $TRACEFS/trace)
log "nscc_update events in the trace buffer: $events"
[[ $events -gt 0 ]]
check $? "the nscc_update tracepoint fires"
grep -m1 'nscc_update:' $TRACEFS/trace
grep -q 'nscc_update:.*routine=\(proportional\|fair\|fast\)' $TRACEFS/trace
check $? "the tracepoint names the routine taken"
exit $RET

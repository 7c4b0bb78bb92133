#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Line rate: a UDP flood offered at several times the port's rate leaves a
# "rate 100mbit" port at 100 Mbit/s within 5%, measured from the qdisc's
# own byte counter over 3 s while the generator overloads it (drops).
source "$(dirname "$0")/../lib.sh"

require_cmd iperf3 jq
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 100mbit limit 1mb
check $? "port: rate 100mbit limit 1mb (80 ms of line: bursts of the generator are absorbed)"

ip netns exec "$B" iperf3 -s -1 -D -B 198.18.2.1 >/dev/null
busywait 5000 sh -c "ip netns exec $B ss -lntH | grep -q 5201"
ip netns exec "$A" iperf3 -c 198.18.2.1 -u -b ${OFFER:-150M} -l 1400 -t 6 >/dev/null &
client=$!
# stamp VAR_BYTES VAR_NS: the byte counter, timed at the midpoint of the read.
stamp() {
	local a b z
	a=$(date +%s%N); b=$(fabric_stat "$R" r1 bytes); z=$(date +%s%N)
	printf -v "$1" '%s' "$b"
	printf -v "$2" '%s' $(((a + z) / 2))
}
sleep 1
stamp b0 t0
sleep 3
stamp b1 t1
backlog=$(fabric_stat "$R" r1 data_backlog)
wait $client
mbps=$(( (b1 - b0) * 8 * 1000 / (t1 - t0) ))
drops=$(fabric_stat "$R" r1 drop_limit)
log "left at $mbps Mbit/s (bytes $b0 -> $b1); backlog at the end $backlog B, drops $drops"
[[ $drops -gt 0 ]] ||
	skip "the generator did not overload the port (no drops): cannot measure its rate"
(( mbps >= 95 && mbps <= 105 ))
check $? "the port sends at 100 Mbit/s within 5% ($mbps)"
exit $RET

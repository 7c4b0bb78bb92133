#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Line rate: a UDP flood (udpburst.py, as fast as the sender goes) into a
# "rate 10mbit" port.  The qdisc's own byte counter, read twice while the
# generator overloads it (drops), says:
#   - it never sent faster than its rate: bytes <= rate x the longest the
#     interval can have been (each read's start to the other's end) plus a
#     packet on each side plus the 10 ms a late port may catch up
#     (FAB_MAX_LAG_NS in sch_fabric.c: a port that fell behind its clock
#     sends the lag, at most 10 ms of line, back to back); this holds at
#     any machine speed, a late timer only delays departures;
#   - it is not far below its rate either (at least half of it over the
#     shortest the interval can have been): 10 Mbit/s is well inside what
#     any machine sustains.  How close to the rate it gets is a figure for
#     make bench, not a check.
source "$(dirname "$0")/../lib.sh"

require_cmd jq
U="$(dirname "$0")/../udpburst.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 10mbit limit 100kb
check $? "port: rate 10mbit limit 100kb (80 ms of line: bursts of the generator are absorbed)"

# the generator: datagrams of 1400 bytes as fast as A sends them, until
# the file $go is gone (any machine sends more than 10 Mbit/s of them;
# the check that the port drops at its limit says so), into a receiver
out=$(mktemp)
go=$(mktemp)
defer "rm -f $out $out.err $go"
udp_recv "$B" "$out" 198.18.2.1 7201 --while-exists "$go"
check $? "the receiver is up"
ip netns exec "$A" python3 "$U" send 198.18.2.1 7201 --size 1400 --while-exists "$go" \
	>"$out.send" 2>&1 &
client=$!
defer "rm -f $out.send"
# stamp VAR: the byte counter and the times just before and after reading it.
stamp() {
	local a b z
	a=$(date +%s%N); b=$(fabric_stat "$R" r1 bytes); z=$(date +%s%N)
	printf -v "$1" '%s %s %s' "$a" "$b" "$z"
}
busywait 30000 fabric_ge "$R" r1 drop_limit 1
check $? "the generator overloads the port (drops at the limit)"
stamp s0
sleep 2
stamp s1
rm -f "$go"
wait $client
log "generator: $(cat "$out.send")"
wait
read -r a0 b0 z0 <<<"$s0"
read -r a1 b1 z1 <<<"$s1"
bytes=$((b1 - b0))
# bytes at 10 Mbit/s over the longest interval, two packets, 10 ms of catch-up
max=$(( (z1 - a0) * 10 / 8 / 1000 + 2 * 1442 + 10000000 * 10 / 8 / 1000 ))
min=$(( (a1 - z0) * 10 / 8 / 1000 / 2 ))         # half of it over the shortest
log "sent $bytes B between the reads; the rate allows at most $max, half the rate is $min"
(( bytes <= max ))
check $? "the port never sent faster than its rate"
(( bytes >= min ))
check $? "the port kept sending at no less than half its rate"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Statistics snapshots under load are one instant: while a UDP flood keeps
# a 50 Mbit/s port busy, 3000 dumps (fabnl.py, through rtnetlink) each show
# a delay histogram that adds up to its delay_count.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
NL="$(dirname "$0")/fabnl.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 50mbit limit 100kb
ip netns exec "$A" python3 "$U" send 198.18.2.1 7600 --count 200000 --size 1000 --seconds 60 >/dev/null &
gen=$!
busywait 30000 fabric_ge "$R" r1 delay_count 100
ip netns exec "$R" python3 "$NL" snapshots r1 3000
check $? "every snapshot's histogram adds up to its delay_count, under load"
kill $gen 2>/dev/null
wait $gen 2>/dev/null
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A new rate applies from the moment it is set.  A queue of 189 datagrams
# stands at 1 kbit/s; the rate is raised to 100 Mbit/s through rtnetlink
# and snapshots taken tens of microseconds apart (fabnl.py) check that the
# port never sent more than the new rate allows since just before the
# change (one 1042-byte packet per 83 us, the head at once).  A port that
# restarted its clock at 0 would first catch up its 10 ms lag allowance:
# 120 packets back to back.  The bound holds at any speed (a late timer
# only sends later), and the elapsed time it allows is measured from
# before the change to after each snapshot.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
NL="$(dirname "$0")/fabnl.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 1kbit limit 250kb
ip netns exec "$A" python3 "$U" send 198.18.2.1 7500 --count 190 --size 1000 >/dev/null
log "queued: $(fabric_stat "$R" r1 qlen) packets"
ip netns exec "$R" python3 "$NL" ratecheck r1 100000000 1042
check $? "after 1kbit -> 100mbit the port sends at the new rate from the change on"

# The same from 1 kbit/s to 10 Mbit/s, where the lag allowance would be 12
# packets at once.
tcf -n "$R" qdisc change dev r1 root fabric rate 1kbit
ip netns exec "$A" python3 "$U" send 198.18.2.1 7500 --count 190 --size 1000 >/dev/null
ip netns exec "$R" python3 "$NL" ratecheck r1 10000000 1042 --watch-ms 100
check $? "after 1kbit -> 10mbit the port sends at the new rate from the change on"
exit $RET

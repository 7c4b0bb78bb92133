#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Failover over four paths: a transfer paced at one message per 25 ms
# (so that it outlasts what follows), path 2 blackholed (netem loss 100 %)
# once ten messages are confirmed.  RTOs of packets on path 2's EVs make
# those EVs ASSUMED_BAD and the other paths carry the traffic; the path
# restored, probes of the bad EVs are answered and make them GOOD again,
# and path 2 carries data again.  Every message arrives once, intact,
# confirmed.  Each step waits for the state it needs, bounded.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
multipath_topo 4 || exit 1
for i in 1 2 3 4; do
	mp_port "$i" limit 4mb || exit 1
done
mrt_tune "$S" "$D" ev_count=64 || exit 1

XFER_TIMEOUT=120 mrt_xfer "$S" "$D" 198.18.30.1 fo --count 400 --max-size 65536 \
	--interval 0.025 --seed 77 &
xfer=$!
confirmed() { (( $(mrt_stat "$S" msgs_confirmed) >= 10 )); }
busywait 30000 confirmed
check $? "the transfer runs: ten messages confirmed"
tc -n "$W2" qdisc replace dev wd root netem loss 100% || exit 1
bad() { (( $(mrt_stat "$S" ev_to_assumed_bad) > 0 )); }
busywait 30000 bad
check $? "path 2 blackholed: its EVs become ASSUMED_BAD ($(mrt_stat "$S" ev_to_assumed_bad))"
mp_port 2 limit 4mb || exit 1
good() { (( $(mrt_stat "$S" ev_probed_good) > 0 )); }
busywait 30000 good
check $? "path 2 restored: probes answered, EVs GOOD again ($(mrt_stat "$S" probes_out) probes, $(mrt_stat "$S" ev_probed_good) back)"
p2() { (( $(fabric_stat "$W2" wd packets) > 0 )); }
busywait 30000 p2
check $? "path 2 carries data again ($(fabric_stat "$W2" wd packets) packets)"
wait $xfer
mrt_xfer_ok fo 400 && mrt_confirmed fo 400
check $? "400 messages across the failure and the repair: once each, intact, confirmed"
mrt_snmp "$S"
mrt_snmp "$D"
exit $RET

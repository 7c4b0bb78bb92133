#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Failover over four paths, in three phases of one transfer (the client
# pauses, its messages so far confirmed, until the test says go):
#   1. 100 messages on four healthy paths;
#   2. path 2 blackholed (netem loss 100 %): 100 more arrive, RTOs of
#      packets on path 2's EVs make those EVs ASSUMED_BAD, the other paths
#      carry the traffic;
#   3. path 2 repaired: probes of the bad EVs are answered and make every
#      one GOOD again; the last 100 messages put data on path 2 again (its
#      port's packets beyond the probes sent meanwhile).
# Every message arrives once, intact, confirmed; IPv4, then IPv6.  Each
# step waits for the state it needs (bounded), so the test holds at any
# speed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_paths ev_count=64 pdc_idle_ms=60000 || exit 1

# IPv4 with 100 messages a phase, IPv6 with 50 (the same code, cheaper)
for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.30.1 n=100; else dst=2001:db8:30::1 n=50; fi
	tag=fo$fam
	rm -f "$MRT_J"/paused.* "$MRT_J"/go.*
	XFER_TIMEOUT=120 mrt_xfer "$S" "$D" $dst $tag --count $((3 * n)) --max-size 65536 \
		--pause-at $n,$((2 * n)) --pause-dir "$MRT_J" --seed $((77 + fam)) &
	xfer=$!
	busywait 60000 test -e "$MRT_J/paused.$n"
	check $? "IPv$fam phase 1: $n messages confirmed over four paths"
	bad0=$(mrt_stat "$S" ev_to_assumed_bad)
	good0=$(mrt_stat "$S" ev_probed_good)
	tc -n "$W2" qdisc replace dev wd root netem loss 100% || exit 1
	touch "$MRT_J/go.$n"
	busywait 60000 test -e "$MRT_J/paused.$((2 * n))"
	bad=$(( $(mrt_stat "$S" ev_to_assumed_bad) - bad0 ))
	(( bad > 0 ))
	check $? "IPv$fam phase 2, path 2 blackholed: $n more confirmed; $bad EVs became ASSUMED_BAD"
	mp_port 2 limit 4mb || exit 1
	good() { (( $(mrt_stat "$S" ev_probed_good) - good0 >= bad )); }
	busywait 30000 good
	check $? "IPv$fam path 2 repaired: probes answered, all $bad EVs GOOD again ($(mrt_stat "$S" probes_out) probes sent)"
	probes0=$(mrt_stat "$S" probes_out)
	p0=$(fabric_stat "$W2" wd packets)
	touch "$MRT_J/go.$((2 * n))"
	wait $xfer
	data=$(( $(fabric_stat "$W2" wd packets) - p0 - ($(mrt_stat "$S" probes_out) - probes0) ))
	(( data > 0 ))
	check $? "IPv$fam phase 3: path 2 carries data again ($data packets beyond the probes)"
	mrt_xfer_ok $tag $((3 * n)) && mrt_confirmed $tag $((3 * n))
	check $? "IPv$fam: $((3 * n)) messages across the failure and the repair: once each, intact, confirmed"
done
mrt_snmp "$S"
exit $RET

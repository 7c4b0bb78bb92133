#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trims end to end, IPv4 and IPv6: data marked trimmable (DSCP 10) into a
# 20 Mbit/s sch_fabric port that trims above 12 KB and writes DSCP 11.
# The receiver NACKs each trimmed packet, TRIMMED when DSCP 11 is its
# trim_dscp and TRIMMED_LASTHOP when it is its trim_lasthop_dscp, and the
# sender retransmits at once: with a 2 s retransmission floor, far above
# the test's RTTs, no timer fires, and every message arrives intact.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
switch_topo || exit 1
tcf -n "$R" qdisc add dev r1 root fabric rate 20mbit limit 400kb trim_at 12kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1
mrt_tune "$A" "$B" rto_max_us=4000000 rto_min_us=2000000 trimmable_dscp=10 || exit 1

pass() { # TAG ADDR SEED
	mrt_xfer "$A" "$B" "$2" "$1" --count 100 --max-size 262144 --seed "$3"
	mrt_xfer_ok "$1" 100 && mrt_confirmed "$1" 100
}

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.2.1; else dst=2001:db8:2::1; fi
	for kind in trimmed lasthop; do
		if [[ $kind == trimmed ]]; then
			mrt_tune "$B" trim_dscp=11 trim_lasthop_dscp=0
			nack=total_nack_trimmed_rx
		else
			mrt_tune "$B" trim_dscp=0 trim_lasthop_dscp=11
			nack=total_nack_trimmed_lasthop_rx
		fi
		q0=$(fabric_stat "$R" r1 trimmed)
		{ read -r n0; read -r t0; read -r r0; } < <(proc_stats "$A" mrt/snmp \
			$nack rtx_trim total_rto_events)
		pass "$kind$fam" "$dst" "$((fam * 10))"
		check $? "IPv$fam $kind: 100 messages arrive once each, intact, confirmed"
		q=$(( $(fabric_stat "$R" r1 trimmed) - q0 ))
		{ read -r n; read -r t; read -r r; } < <(proc_stats "$A" mrt/snmp \
			$nack rtx_trim total_rto_events)
		all_set "$q" "$n0" "$t0" "$r0" "$n" "$t" "$r" ||
			{ check 1 "IPv$fam $kind: the counters could be read"; continue; }
		n=$((n - n0)) t=$((t - t0)) r=$((r - r0))
		log "# IPv$fam $kind: port trimmed $q, $nack $n, rtx_trim $t, RTOs $r"
		(( q > 0 && n > 0 && t == n ))
		check $? "IPv$fam $kind: the port trimmed, the receiver NACKed $nack, each was sent again"
		(( r == 0 ))
		check $? "IPv$fam $kind: no retransmission timer fired"
	done
done
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

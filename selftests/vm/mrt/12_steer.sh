#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Congestion steering, IPv4 and IPv6: over multipath_topo's four paths,
# path 2 runs at an eighth of the others' rate (5 against 40 Mbit/s, far
# below what mrt moves in the VM, so that path 2 is offered more than it
# carries at any machine speed: at 10 Mbit/s a debug kernel's sender
# barely filled it), every port marking ECN from 10 KB of
# backlog; the retransmission floor is 1 s, so that no timer fires on a
# queue's delay and only the ECN echoes steer.  The
# ECN echoes charged to path 2's EVs put them in SKIP, so that path carries
# less than its fair share: the share its EVs take when the paths are
# equal, measured first on the same EV set (the round robin gives each EV
# the same packets, so that share is the path's count of EVs; 0.9 of it
# leaves room for the spread of message sizes).  Every message arrives
# once, intact, confirmed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_paths ev_count=64 trimmable_dscp=0 rto_max_us=4000000 rto_min_us=1000000 || exit 1

# bytes: each path's port bytes now
bytes() { local i v; for i in 1 2 3 4; do v="W$i"; b[i]=$(fabric_stat "${!v}" wd bytes); done; }
# share TAG: path 2's per mille of the bytes since the last bytes call
share() {
	local i t=0 n=() e=() v
	for i in 1 2 3 4; do
		v="W$i"
		{ read -r "n[i]"; read -r "e[i]"; } < <(fabric_stats "${!v}" wd bytes ecn_marked)
		n[i]=$((n[i] - b[i]))
		t=$((t + n[i]))
	done
	log "# $1: bytes per path ${n[*]}; ECN marks per port ${e[*]}" >&2
	echo $(( t ? n[2] * 1000 / t : 0 ))
}
skip_ecn() { ip netns exec "$S" "$FABCTL" -j mrt ev show "$1" | jq '[.[].ecn] | add'; }

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.30.1; else dst=2001:db8:30::1; fi
	for i in 1 2 3 4; do mp_port "$i" rate 0 limit 4mb ecn_max 0 || exit 1; done
	bytes
	mrt_xfer "$S" "$D" "$dst" "eq$fam" --count 32 --max-size 4194304 --seed $((fam == 4 ? 53 : 55))
	fair=$(share "IPv$fam equal paths")
	mrt_xfer_ok "eq$fam" 32 && mrt_confirmed "eq$fam" 32 && ((fair > 0))
	check $? "IPv$fam: equal paths: path 2's EVs take $fair per mille of the bytes"

	for i in 1 3 4; do
		mp_port "$i" rate 40mbit limit 128kb ecn_min 10kb ecn_max 30kb || exit 1
	done
	mp_port 2 rate 5mbit limit 128kb ecn_min 10kb ecn_max 30kb || exit 1
	skip0=$(mrt_stat "$S" ev_to_skip)
	bytes
	XFER_TIMEOUT=120 mrt_xfer "$S" "$D" "$dst" "st$fam" --count 32 --max-size 4194304 \
		--seed $((fam == 4 ? 53 : 55))
	got=$(share "IPv$fam path 2 at an eighth")
	mrt_xfer_ok "st$fam" 32 && mrt_confirmed "st$fam" 32
	check $? "IPv$fam: 32 messages over a slow path, once each, intact, confirmed"
	skips=$(( $(mrt_stat "$S" ev_to_skip) - skip0 ))
	((skips > 0))
	check $? "IPv$fam: ECN echoes put EVs in SKIP ($skips times)"
	((got * 10 < fair * 9))
	check $? "IPv$fam: the slow path carried $got per mille of the bytes, less than its fair $fair"
done
mrt_snmp "$S"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EV spraying over four equal paths (multipath_topo: an L4-hashed multipath
# route, a sch_fabric port on each path), IPv4 and IPv6: each packet takes
# the next EV of a permuted round robin over ev_count 256 EVs, so each path
# carries the share of the EVs its hash gives it, 25 % +- 10 % (with 256
# EVs a path's share strays that far about once in a thousand boots, and
# the test then draws again on other ports; with one EV, or a PDC's fixed
# source port, all of it would take one path).
# Every message arrives once, intact, confirmed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_paths ev_count=256 || exit 1

pkts() { local w="W$1"; fabric_stat "${!w}" wd packets; }

# spray TAG FAM EXTRA...: a transfer to D; sets n[1..4], each path's
# packets, and total; succeeds if every message arrived once, intact.
spray() {
	local tag=$1 fam=$2 dst i
	shift 2
	if [[ $fam == 4 ]]; then dst=198.18.30.1; else dst=2001:db8:30::1; fi
	for i in 1 2 3 4; do p0[i]=$(pkts "$i"); done
	mrt_xfer "$S" "$D" "$dst" "$tag" --count 200 --max-size 262144 --seed $((fam + 40)) "$@"
	total=0
	for i in 1 2 3 4; do
		n[i]=$(( $(pkts "$i") - p0[i] ))
		total=$((total + n[i]))
	done
	mrt_xfer_ok "$tag" 200 && mrt_confirmed "$tag" 200
}
balanced() {
	local i
	for i in 1 2 3 4; do
		(( n[i] * 100 >= total * 15 && n[i] * 100 <= total * 35 )) || return 1
	done
	((total > 0))
}

# The router's hash of the 256 ports is random per boot: a path's share of
# them strays beyond 10 points about once in a thousand boots (3.6 standard
# deviations).  Then the same transfer runs once more on another 256 ports
# (a socket's own EV set, MRT_EVS), a fresh draw of the hash.
for fam in 4 6; do
	spray "spray$fam" $fam
	check $? "IPv$fam: 200 messages over four paths, once each, intact, confirmed"
	if ! balanced; then
		log "# IPv$fam: the hash gave ${n[*]} of $total packets; again on ports 40000-40255"
		spray "spray${fam}b" $fam --evs 40000,256
	fi
	balanced
	check $? "IPv$fam: each path carried 25 % +- 10 % of the $total packets (${n[1]} ${n[2]} ${n[3]} ${n[4]})"
done
# A socket's own EV set (MRT_EVS): its PDCs get a destination of their own
# at the same address, with exactly those EVs.
mrt_xfer "$S" "$D" 198.18.30.1 own --count 40 --max-size 65536 --seed 47 --evs 50000,4 \
	--pause-at 20 --pause-dir "$MRT_J" &
xfer=$!
busywait 60000 test -e "$MRT_J/paused.20"
ip netns exec "$S" "$FABCTL" -j mrt dest show | jq -e \
	'[.[] | select(.own_evs == 1)] | length == 1 and .[0].ev_base == 50000 and
	 .[0].ev_count == 4' >/dev/null &&
ip netns exec "$S" "$FABCTL" -j mrt ev show 198.18.30.1 | jq -e \
	'[.[] | .port] == [50000, 50001, 50002, 50003] and ([.[] | .pkts] | add) > 0' >/dev/null
check $? "MRT_EVS 50000,4: the socket's destination has its own four EVs, which carry its data"
touch "$MRT_J/go.20"
wait $xfer
mrt_xfer_ok own 40 && mrt_confirmed own 40 && jq -e '.evs == [50000, 4]' "$MRT_J/own.cli" >/dev/null
check $? "MRT_EVS: 40 messages once each, intact, confirmed; getsockopt gives the set back"
# A set below ip_unprivileged_port_start is a privileged bind's.
evs53='import socket, struct
s = socket.socket(socket.AF_INET, 4, 253)
try:
    s.setsockopt(253, 5, struct.pack("=HH", 53, 4)); print(0)
except OSError as e:
    print(e.errno)'
[[ $(ip netns exec "$S" setpriv --reuid=65534 --regid=65534 --clear-groups python3 -c "$evs53") == 13 &&
   $(ip netns exec "$S" python3 -c "$evs53") == 0 ]]
check $? "MRT_EVS from port 53: EACCES without CAP_NET_BIND_SERVICE, accepted with it"
mrt_snmp "$S"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# data_rate_mbps 0: the line rate is the egress device's link speed, or
# FABRIC_LINK_MBPS_FALLBACK (100000) where the device reports none.  No
# queue marks on these paths, so the sender stays at its line rate, which
# its pacing rate shows (payload bytes per second).  Checks, on TCP_INFO
# samples of the sender and the netns counter:
#   - over a veth (which reports 10000 Mbit/s): pacing at 1.25e9 B/s and
#     no fallback counted;
#   - to A's own address (the route leaves by lo, which reports no speed):
#     pacing at 1.25e10 B/s and one fallback counted (link_speed_fallbacks).
source "$(dirname "$0")/../lib.sh"

allow_cc dcqcn || exit 1
setup_ns A B
link_ns "$A" a0 1 "$B" b0 2
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic
done
ip netns exec "$A" sysctl -qw net.dcqcn.data_rate_mbps=0 || exit 1
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

port=5430
# flow SERVER_NS ADDR: 4 MB from A under dcqcn, TCP_INFO every 1 MB.
flow() {
	local rc
	port=$((port + 1))
	xfer "$INFO" "$A" "$1" "$2" $port dcqcn 4194304 --info "$INFO"
	rc=$?
	log "pacing_rate $(jq -s -c 'map(.pacing_rate) | unique' "$INFO")," \
		"link_speed_fallbacks $(fallbacks)"
	return $rc
}
fallbacks() { proc_stat "$A" dcqcn_stat link_speed_fallbacks; }
paced_at() { jq -s -e --argjson r "$1" 'length > 0 and all(.pacing_rate == $r)' "$INFO" >/dev/null; }

f0=$(fallbacks)
flow "$B" 198.18.0.2
check $? "over the veth: the flow arrived intact"
paced_at 1250000000
check $? "the line rate is the veth's 10000 Mbit/s (pacing 1.25e9 B/s)"
(( $(fallbacks) == f0 ))
check $? "no fallback counted"

flow "$A" 198.18.0.1
check $? "over lo: the flow arrived intact"
paced_at 12500000000
check $? "lo reports no speed: the line rate is the 100000 Mbit/s fallback"
(( $(fallbacks) == f0 + 1 ))
check $? "the fallback is counted once"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt on a clean link, IPv4 and IPv6: 1000 messages of 0 B to 4 MiB
# (skewed to the small, see mrtmsg.py) each arrive exactly once and intact,
# each with MSG_EOR, and the sender gets a delivery confirmation carrying
# the cookie of every one.  The link has a 9000-byte MTU and mss is 8900,
# so that the ~200 MB of each family take seconds under TCG.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_jumbo_pair || exit 1

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.0.2; else dst=2001:db8:0::2; fi
	mrt_xfer "$A" "$B" "$dst" "clean$fam" --count 1000 --max-size 4194304 --seed $fam
	mrt_xfer_ok "clean$fam" 1000
	check $? "IPv$fam: 1000 messages arrive once each, whole and intact"
	mrt_confirmed "clean$fam" 1000
	check $? "IPv$fam: the sender has a confirmation with each message's cookie"
done
# tools/mrtperf, as users and the bench run it
P=$TOP/tools/mrtperf/mrtperf
ip netns exec "$B" "$P" -s -w 16777216 >"$MRT_J/perf" &
perf=$!
defer "kill $perf 2>/dev/null"
busywait 10000 grep -q 'listening on' "$MRT_J/perf"
r=$(ip netns exec "$A" "$P" -c 198.18.0.2 -n 200 -l 65536 -w 16777216 -j)
log "# mrtperf stream: $r"
jq -e '.sent == 200 and .received == 200 and .bytes == 200 * 65536' <<<"$r" >/dev/null
check $? "mrtperf: the server counted all 200 messages of 64 KiB"
r=$(ip netns exec "$A" "$P" -c 198.18.0.2 -n 200 -l 4096 --pingpong -j)
log "# mrtperf pingpong: $r"
jq -e '.msgs == 200 and .p50_us > 0 and .p99_us >= .p50_us' <<<"$r" >/dev/null
check $? "mrtperf --pingpong: 200 round trips timed"
# -b: sendmmsg() and recvmmsg() (a server of its own); --tcp: TCP's
# request-response, the ping-pong's yardstick
ip netns exec "$B" "$P" -s -p 5202 -b 32 -w 16777216 >"$MRT_J/perfb" &
perfb=$!
defer "kill $perfb 2>/dev/null"
ip netns exec "$B" "$P" -s -p 5203 --tcp >"$MRT_J/perft" &
perft=$!
defer "kill $perft 2>/dev/null"
busywait 10000 grep -q 'listening on' "$MRT_J/perfb" &&
	busywait 10000 grep -q 'listening on' "$MRT_J/perft"
r=$(ip netns exec "$A" "$P" -c 198.18.0.2 -p 5202 -n 500 -l 64 -b 32 -w 16777216 -j)
log "# mrtperf -b 32: $r"
jq -e '.sent == 500 and .received == 500 and .bytes == 500 * 64' <<<"$r" >/dev/null
check $? "mrtperf -b 32: 500 messages by sendmmsg(), all counted by recvmmsg()"
r=$(ip netns exec "$A" "$P" -c 198.18.0.2 -p 5203 --tcp -n 200 -l 4096 --pingpong -j)
log "# mrtperf --tcp pingpong: $r"
jq -e '.msgs == 200 and .p50_us > 0 and .p99_us >= .p50_us' <<<"$r" >/dev/null
check $? "mrtperf --tcp --pingpong: 200 TCP round trips timed"
mrt_snmp "$A"
exit $RET

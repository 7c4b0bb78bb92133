#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The queueing-delay histogram.  A burst of 50 datagrams of 1042 bytes on
# the wire into an idle 1 Mbit/s port: the port sends one every 8.336 ms,
# so the k-th waits about k x 8.336 ms (less the time the burst took to
# arrive), from 0 to 408 ms, a median near 204 ms.  The delays are long
# next to any stall of the machine (the port's clock catches up 10 ms of
# lateness, and a late timer only adds delay).  A sender that takes T to
# send the burst shortens every wait: the k-th by about k/49 x T, the median
# by T/2.  So, with T measured:
#   - the median read from the histogram is in a bucket that meets
#     [0.9 x (204 ms - T/2), 1.1 x 204 ms] (with T near 0: [131, 262) ms);
#   - the mean agrees (204 ms - T/2 - 54 ms to 204 ms + 56 ms);
#   - the maximum is at least 49 x 8.336 ms less the burst's duration, and
#     at most twice 49 x 8.336 ms;
#   - the fine histogram (8 buckets per power of two) holds every packet in
#     its bucket: the counts add up, the sum of the delays lies between the
#     sums of the buckets' lower and upper bounds, the maximum lies in the
#     last bucket, each bucket is at most 12.5 % wide, and its median lies
#     in the power-of-two median's bucket (give or take one fine bucket).
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 1mbit limit 100kb
out=$(mktemp)
defer "rm -f $out $out.err"
udp_recv "$B" "$out" 198.18.2.1 7200 --idle 2
sent=$(ip netns exec "$A" python3 "$U" send 198.18.2.1 7200 --count 50 --size 1000)
wait
burst_us=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' <<<"$sent" | awk '{ printf "%d", $1 * 1e6 + 1 }')
p50=$(fabric_stat "$R" r1 delay_p50_us)
n=$(fabric_stat "$R" r1 delay_count)
mean=$(( $(fabric_stat "$R" r1 delay_sum_ns) / (n > 0 ? n : 1) / 1000 ))
max=$(( $(fabric_stat "$R" r1 delay_max_ns) / 1000 ))
last=$(( 49 * 8336 ))
log "packets $n (burst took $burst_us us), p50 < $p50 us, mean $mean us, max $max us (last one's serialisation wait $last us)"
tcf -n "$R" -s qdisc show dev r1 | sed -n '/delay/,$p'
[[ $(jq .packets "$out") -eq 50 && $n -ge 50 && $(fabric_stat "$R" r1 drop_limit) -eq 0 ]]
check $? "all 50 datagrams went through the port"
med_lo=$(( (last - burst_us) / 2 * 9 / 10 )) med_hi=$(( last / 2 * 11 / 10 ))
(( p50 > med_lo && p50 / 2 <= med_hi ))
check $? "the median delay's bucket [$((p50 / 2)), $p50) us meets [$med_lo, $med_hi] us"
(( mean >= (last - burst_us) / 2 - 54000 && mean <= last / 2 + 56000 ))
check $? "the mean ($mean us) agrees"
(( max >= last - burst_us && max <= 2 * last ))
check $? "the maximum ($max us) is the last datagram's wait"

J=$(tcf -n "$R" -s -j qdisc show dev r1 | jq '.[0]')
log "fine: p50 < $(jq .delay_fine_p50_us <<<"$J") us, p99 < $(jq .delay_fine_p99_us <<<"$J") us," \
	"p99.9 < $(jq .delay_fine_p999_us <<<"$J") us; $(jq '.delay_fine_hist | length' <<<"$J") buckets"
jq -e '(.delay_fine_hist | map(.packets) | add) == .delay_count' <<<"$J" >/dev/null
check $? "the fine histogram holds every packet"
jq -e '(.delay_fine_hist | map(.lo_ns * .packets) | add) <= .delay_sum_ns and
       (.delay_fine_hist | map(.hi_ns * .packets) | add) > .delay_sum_ns' <<<"$J" >/dev/null
check $? "the delays' sum lies between the sums of their fine buckets' bounds"
jq -e '.delay_max_ns as $m | .delay_fine_hist[-1] | .lo_ns <= $m and .hi_ns > $m' <<<"$J" >/dev/null
check $? "the maximum lies in the last fine bucket"
jq -e 'all(.delay_fine_hist[] | select(.clipped | not); (.hi_ns - .lo_ns) * 8 <= .lo_ns)' \
	<<<"$J" >/dev/null
check $? "every fine bucket is at most 12.5 % of its lower bound wide"
jq -e '.delay_fine_p50_ns > .delay_p50_us * 500 and .delay_fine_p50_ns <= .delay_p50_us * 1125' \
	<<<"$J" >/dev/null
check $? "the fine median lies in the power-of-two median's bucket"
exit $RET

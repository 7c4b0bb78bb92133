#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The queueing-delay histogram: a 10 Mbit/s port whose 50 kB queue is kept
# full holds each packet about 50 kB x 8 / 10 Mbit/s = 40 ms, which is the
# bucket [32768, 65536) us: the median read from the histogram must be
# there, and the mean and maximum must agree.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 10mbit limit 50kb
ip netns exec "$B" python3 "$U" recv 198.18.2.1 7200 --idle 2 >/dev/null 2>&1 &
sleep 0.5
# 2400 x 1200 B over 1.5 s: about 15 Mbit/s offered.
ip netns exec "$A" python3 "$U" send 198.18.2.1 7200 --count 2400 --size 1200 --seconds 1.5 >/dev/null
wait
p50=$(fabric_stat "$R" r1 delay_p50_us)
n=$(fabric_stat "$R" r1 delay_count)
mean=$(( $(fabric_stat "$R" r1 delay_sum_ns) / (n > 0 ? n : 1) / 1000 ))
max=$(( $(fabric_stat "$R" r1 delay_max_ns) / 1000 ))
log "packets $n, p50 < $p50 us, mean $mean us, max $max us, drops $(fabric_stat "$R" r1 drop_limit)"
tcf -n "$R" -s qdisc show dev r1 | sed -n '/delay/,$p'
[[ $p50 -eq 65536 ]]
check $? "the median delay is in the 32.8-65.5 ms bucket"
(( mean > 25000 && mean < 45000 && max < 65536 ))
check $? "mean ($mean us) and max ($max us) agree with a 40 ms queue"
exit $RET

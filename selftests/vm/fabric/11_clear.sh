#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "tc qdisc change ... clear_stats" zeroes sch_fabric's counters and delay
# histograms at one instant and leaves the queues alone.  A standing queue
# at 8 bit/s (a 1000-byte packet holds the line for over 17 minutes, so
# nothing leaves while the test looks, however slow the machine: at
# 1 kbit/s, 8 s, a packet once left between two snapshots), with drops at
# a 10 kB limit; then:
#   - clear_stats: every counter and histogram is 0, the largest backlog is
#     the current one, the backlog and tc's own sent/dropped totals are
#     unchanged, and the options are what they were;
#   - once the rate is raised, the histogram counts exactly the packets
#     that were queued at the clear;
#   - clear_stats cannot be dumped back (it is no option).
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 8bit limit 10kb
check $? "a port at 8 bit/s with a 10 kB queue"

js() { tcf -n "$R" -s -j qdisc show dev r1 | jq -c '.[] | select(.kind == "fabric")'; }
empty() { [[ $(js | jq '.backlog') == 0 ]]; }

ip netns exec "$A" python3 "$U" send 198.18.2.1 7400 --count 20 --size 1000 >/dev/null
before=$(js)
log "before: $(jq -c '{backlog, qlen, packets, drops, drop_limit, delay_count, max_backlog}' <<<"$before")"
jq -e '.drop_limit > 0 and .delay_count > 0 and .backlog > 5000' <<<"$before" >/dev/null
check $? "a standing queue with drops and packets in the histogram"

opts() { tcf -n "$R" qdisc show dev r1 | sed 's/^.*fabric //'; }
o0=$(opts)
tcf -n "$R" qdisc change dev r1 root fabric clear_stats
check $? "change: clear_stats"
after=$(js)
log "after: $(jq -c '{backlog, qlen, packets, drops, drop_limit, delay_count, max_backlog}' <<<"$after")"
jq -e '.drop_limit == 0 and .delay_count == 0 and .delay_sum_ns == 0 and
       .delay_max_ns == 0 and .ecn_marked == 0 and .trimmed == 0 and
       .drop_change == 0 and ([.delay_hist[].packets] | add) == 0 and
       ((.delay_fine_hist // []) | length) == 0 and
       .max_backlog == .data_backlog + .hdr_backlog' <<<"$after" >/dev/null
check $? "every counter and histogram is 0; max_backlog is the current backlog"
jq -e --argjson b "$before" '.backlog == $b.backlog and .qlen == $b.qlen and
       .packets == $b.packets and .drops == $b.drops' <<<"$after" >/dev/null
check $? "the queue and tc's own totals (sent, dropped) are unchanged"
[[ $(opts) == "$o0" ]]
check $? "the options are unchanged, and clear_stats is not among them ($(opts))"

queued=$(jq '.qlen' <<<"$after")
tcf -n "$R" qdisc change dev r1 root fabric rate 100mbit
busywait 30000 empty
check $? "the queue drains at 100 Mbit/s"
drained=$(js)
log "drained: $(jq -c '{delay_count, delay_p50_us, delay_max_ns}' <<<"$drained"), $queued were queued"
jq -e --argjson n "$queued" '.delay_count == $n' <<<"$drained" >/dev/null
check $? "the histogram counts exactly the $queued packets queued at the clear"
exit $RET

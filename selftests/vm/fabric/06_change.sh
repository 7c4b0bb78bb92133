#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live changes under a parent qdisc: sch_fabric below prio, a standing
# queue with trimmed and full packets (at 1 kbit/s, so it stands while the
# test looks), then "tc qdisc change" shrinks the limits.  The excess is
# dropped (drop_change), and the parent's backlog follows the child's at
# every step, down to 0 once the port drains at a raised rate.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
tc -n "$R" qdisc add dev r1 root handle 1: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
tcf -n "$R" qdisc add dev r1 parent 1:1 handle 10: fabric rate 1kbit limit 150kb \
	trim_at 100kb trim_dscp_in 10 trim_limit 8kb
check $? "prio root with sch_fabric as the child of band 1"

backlogs() { # parent child
	tcf -n "$R" -s -j qdisc show dev r1 |
		jq -r '[(.[] | select(.kind == "prio") | .backlog), (.[] | select(.kind == "fabric") | .backlog)] | @tsv'
}
fabric_backlog() {
	tcf -n "$R" -s -j qdisc show dev r1 | jq '.[] | select(.kind == "fabric") | .backlog'
}
fabric_empty() { [[ $(fabric_backlog) == 0 ]]; }
prio_empty() {
	[[ $(tcf -n "$R" -s -j qdisc show dev r1 | jq '.[] | select(.kind == "prio") | .backlog') == 0 ]]
}

ip netns exec "$A" python3 "$U" send 198.18.2.1 7300 --count 200 --size 1000 --tos 0x28 >/dev/null
read -r p c < <(backlogs)
log "after the burst: parent $p B, child $c B, trimmed $(fabric_stat "$R" r1 trimmed)"
(( c > 80000 && p - c <= 1100 && c - p <= 1100 ))
check $? "the parent's backlog matches the child's with trimmed packets queued"

tcf -n "$R" qdisc change dev r1 parent 1:1 handle 10: fabric limit 20kb trim_at 10kb trim_limit 2kb
check $? "change: limit 20kb trim_at 10kb trim_limit 2kb"
read -r p c < <(backlogs)
dc=$(fabric_stat "$R" r1 drop_change)
log "after the change: parent $p B, child $c B, drop_change $dc"
(( c <= 22000 && c > 0 && dc > 0 && p - c <= 1100 && c - p <= 1100 ))
check $? "the excess was dropped and the parent followed"
tcf -n "$R" qdisc change dev r1 parent 1:1 handle 10: fabric rate 100mbit
busywait 30000 prio_empty
check $? "the parent's backlog returns to 0 once the port drains"
read -r p c < <(backlogs)
[[ $p == 0 && $c == 0 ]]
check $? "both backlogs are 0 ($p, $c)"

# A new rate applies at once: at 1 kbit/s a 1000-byte packet holds the line
# for 8 s; raised to 100 Mbit/s, the queue drains without waiting for that.
tcf -n "$R" qdisc change dev r1 parent 1:1 handle 10: fabric rate 1kbit limit 100kb trim_at 0
ip netns exec "$A" python3 "$U" send 198.18.2.1 7300 --count 20 --size 1000 >/dev/null
[[ $(fabric_backlog) -gt 10000 ]]
check $? "a queue stands at 1 kbit/s"
tcf -n "$R" qdisc change dev r1 parent 1:1 handle 10: fabric rate 100mbit
# 20 packets at 1 kbit/s would take 160 s; at the new rate 1.6 ms.
busywait 30000 fabric_empty
check $? "raising the rate from 1kbit to 100mbit drains the queue at once"
exit $RET

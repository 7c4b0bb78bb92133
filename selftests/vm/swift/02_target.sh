#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One swift flow through a 20 Mbit/s sch_fabric port with a 1 MB buffer
# holds the delay near its target, where a loss-based flow would fill the
# buffer (400 ms).  The target is set for this port (base_target_ns 3 ms:
# about five packets of queue, above the VM's idle RTT); the receiver ACKs
# at once (quickack).  Any machine fills a 20 Mbit/s port, and the flow
# runs until swift has decided both ways many times (bounded), so the
# checks are of its decisions and of the queue they leave, not of speed:
#   - it increased below its target and decreased above it (decision
#     counters and the tracepoint: every md had delay >= target);
#   - the median delay sample it saw is at most twice its target;
#   - the port never dropped and its median queueing delay stays in the
#     histogram bucket of a few targets (< 8.2 ms), far from 400 ms.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc swift || exit 1
star_topo 1
ip -n "$B" route change default via 198.18.100.2 quickack 1
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb
for ns in "$S1" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=swift
	ip netns exec "$ns" sysctl -qw net.swift.base_target_ns=3000000
done
trace_on swift

hold_new HOLD
ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5501 >/dev/null &
ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 5501 --while-exists "$HOLD" >/dev/null &
busywait 90000 stat_ge "$S1" swift_stat decision_md 50 &&
	busywait 90000 stat_ge "$S1" swift_stat decision_ai 500
check $? "swift decreased (md) and increased (ai) many times"
rm -f "$HOLD"
wait
trace_off swift

field() { # NAME: that field of every ai/md/hold update, sorted
	awk -v k="$1" '/swift_update:.*decision=(ai|md|hold) / {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' \
		$TRACEFS/trace | sort -n
}
median() { awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
dmed=$(field delay_ns | median)
tmed=$(field target_ns | median)
p50=$(fabric_stat "$R" rb delay_p50_us)
log "md $(proc_stat "$S1" swift_stat decision_md), ai $(proc_stat "$S1" swift_stat decision_ai);" \
	"sender median delay $dmed ns vs target $tmed ns; port p50 < $p50 us," \
	"max_backlog $(fabric_stat "$R" rb max_backlog) B, drops $(fabric_stat "$R" rb drop_limit)"
awk '/swift_update:.*decision=md / { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	n++; if (v["delay_ns"] + 0 < v["target_ns"] + 0) bad++ }
     END { exit !(n > 0 && bad == 0) }' $TRACEFS/trace
check $? "every traced decrease came from a delay at or above the target"
(( dmed > 0 && dmed <= 2 * tmed ))
check $? "the sender's median delay ($dmed ns) is within twice its target ($tmed ns)"
[[ $(fabric_stat "$R" rb drop_limit) -eq 0 && $p50 -le 8192 ]]
check $? "the port never filled: no drops, median queueing delay < 8.2 ms"
exit $RET

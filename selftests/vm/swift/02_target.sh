#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One swift flow through a 20 Mbit/s sch_fabric port with a 1 MB buffer
# holds the delay near its target, where a loss-based flow would fill the
# buffer (400 ms).  The target is set for this port and this machine:
# base_target_ns 3 ms (about five packets of queue), or three times the
# hosts' own delay where that is more (a debug kernel's idle RTT is several
# ms), measured first by a flow with a 1 ns target and a floor of two
# packets (min_cwnd), which holds swift at that floor, at most two packets
# queued.  The port is made again before the flow under test, so its
# histogram is that flow's alone.  The receiver ACKs at once
# (quickack).  Any machine fills a 20 Mbit/s port, and the flow runs until
# swift has decided both ways many times (bounded), so the checks are of
# its decisions and of the queue they leave, not of speed:
#   - it increased below its target and decreased above it (decision
#     counters and the tracepoint: every md had delay >= target);
#   - the median delay sample it saw is at most twice its target;
#   - the port never dropped and its median queueing delay stays in the
#     histogram bucket of twice the target (< 8.2 ms at 3 ms), far from
#     400 ms.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc swift || exit 1
star_topo 1
ip -n "$B" route change default via 198.18.100.2 quickack 1
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb
base_target() {
	local ns
	for ns in "$S1" "$B"; do
		ip netns exec "$ns" sysctl -qw net.swift.base_target_ns="$1"
	done
}
for ns in "$S1" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=swift
done
field() { # NAME: that field of every ai/md/hold update, sorted
	awk -v k="$1" '/swift_update:.*decision=(ai|md|hold) / {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' \
		$TRACEFS/trace | sort -n
}
median() { awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }

# flow PORT MD AI: a held flow until swift has made MD more decreases and
# AI more increases than so far (bounded), traced.
flow() {
	local md ai rc hold
	read -r md ai < <(proc_stats "$S1" swift_stat decision_md decision_ai | xargs)
	trace_on swift
	hold_new hold
	ip netns exec "$B" python3 "$XFER" server 198.18.100.1 "$1" >/dev/null &
	ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 "$1" --while-exists "$hold" \
		>/dev/null &
	busywait 90000 stat_ge "$S1" swift_stat decision_md $((md + $2)) &&
		busywait 90000 stat_ge "$S1" swift_stat decision_ai $((ai + $3))
	rc=$?
	rm -f "$hold"
	wait
	trace_off swift
	return $rc
}

# The hosts' own delay: swift at a floor of two packets (a 1 ns target:
# every sample is above it), 20 decreases.
min0=$(ip netns exec "$S1" sysctl -n net.swift.min_cwnd)
ip netns exec "$S1" sysctl -qw net.swift.min_cwnd=2000
base_target 1
flow 5500 20 0
check $? "at a 1 ns target swift decreased (md)"
idle=$(field delay_ns | median)
target=$((3 * idle > 3000000 ? 3 * idle : 3000000))
log "hosts' delay at a two-packet window: median $idle ns; base_target_ns $target"
ip netns exec "$S1" sysctl -qw net.swift.min_cwnd="$min0"
base_target $target
tcf -n "$R" qdisc del dev rb root
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb

flow 5501 50 500
check $? "swift decreased (md) and increased (ai) many times"

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
# the histogram's bucket that holds twice the target: 8192 us at 3 ms
bar=1024
while ((bar * 1000 < 2 * tmed)); do bar=$((bar * 2)); done
[[ $(fabric_stat "$R" rb drop_limit) -eq 0 && $p50 -le $bar ]]
check $? "the port never filled: no drops, median queueing delay < $bar us"
exit $RET

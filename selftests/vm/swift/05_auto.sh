#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# base_target_ns 0 follows the path: the base of the target is the lowest
# value of a smoothed RTT over the samples fit for a decrease (the
# handshake's first), plus hops x per_hop and flow scaling.  The path A -> B has a netem delay of 2 ms, so
# every RTT is at least 2 ms on any machine.  Checks, from the
# swift_update tracepoint and the netns counters:
#   - at the default base (25 us) every target is at most 25 us + 1 hop +
#     the 100 us flow-scaling range: below the path's RTT;
#   - at base_target_ns 0 every target is at least 2 ms + 1 hop (1 us),
#     and the samples that set the base are counted (base_rtt_learnt).
source "$(dirname "$0")/../lib.sh"

allow_cc swift || exit 1
delay_path 2ms || exit 1
OUT=$(mktemp)
defer "rm -f $OUT $OUT.*"

port=5660
# flow BYTES: from A under swift to B, intact.
flow() { port=$((port + 1)); xfer "$OUT" "$A" "$B" 198.18.0.2 $port swift "$1"; }
# targets FILE AWK_CONDITION: FILE has swift_update lines and the target of
# each (t, ns) satisfies the condition.
targets() {
	awk "/swift_update:/ { match(\$0, /target_ns=[0-9]+/); t = substr(\$0, RSTART + 10, RLENGTH - 10) + 0
		n++; if (!($2)) bad++; if (n == 1 || t < lo) lo = t; if (t > hi) hi = t }
		END { print \"targets \" n \" in [\" lo \", \" hi \"] ns\"; exit !(n > 0 && !bad) }" "$1"
}
learnt() { proc_stat "$A" swift_stat base_rtt_learnt; }

trace_on swift
# Small: at this base the window sits at its floor on a 2 ms path.
flow 32768
check $? "at the default base: the flow arrived intact"
trace_save "$OUT.t1"
targets "$OUT.t1" 't <= 25000 + 1000 + 100000'
check $? "at the default base every target is at most 126 us"

ip netns exec "$A" sysctl -qw net.swift.base_target_ns=0 || exit 1
l0=$(learnt)
flow 262144
check $? "at base_target_ns 0: the flow arrived intact"
trace_save "$OUT.t2"
targets "$OUT.t2" 't >= 2000000 + 1000'
check $? "at base_target_ns 0 every target is the path's RTT (>= 2 ms) + 1 hop or more"
log "base_rtt_learnt $l0 -> $(learnt)"
(( $(learnt) > l0 ))
check $? "the samples that set the base are counted"
exit $RET

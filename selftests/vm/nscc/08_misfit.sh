#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Attributes that do not fit the path show: a socket whose minimum RTT is
# ten times config_base_rtt_ns or more is counted once in the netns
# (base_rtt_misfits), and the tracepoint carries TCP's min RTT and the
# same test (min_rtt_ns, base_misfit).  The path has a netem delay of
# 2 ms (A -> B), so its min RTT is at least 2 ms on any machine:
#   - at the default base (6 us) the socket is counted, and each of its
#     updates that has a min RTT traces base_misfit=1, min_rtt_ns >= 2 ms;
#   - with config_base_rtt_ns 100 ms (a 1 s threshold, far above any first
#     sample: the min RTT starts at the first one) it is not, and its
#     updates trace base_misfit=0.
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
delay_path 2ms || exit 1
OUT=$(mktemp)
defer "rm -f $OUT $OUT.*"

port=5980
flow() { port=$((port + 1)); xfer "$OUT" "$A" "$B" 198.18.0.2 $port nscc 262144; }
misfits() { nscc_stat "$A" base_rtt_misfits; }
# traced FILE AWK_CONDITION: an nscc_update line in FILE satisfies the
# condition (fields as v["name"]), and every one that has an RTT does.
traced() {
	awk "/nscc_update:/ { for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
		if (v[\"min_rtt_ns\"] + 0 == 0) next; n++; if (!($2)) bad++ }
		END { exit !(n > 0 && !bad) }" "$1"
}

trace_on nscc
m0=$(misfits)
flow
check $? "at the default base: the flow arrived intact"
trace_save "$OUT.t1"
log "base_rtt_misfits $m0 -> $(misfits); $(grep -m1 -o 'min_rtt_ns=[0-9]* base_misfit=[0-9]' "$OUT.t1")"
(( $(misfits) == m0 + 1 ))
check $? "the socket was counted once in base_rtt_misfits"
traced "$OUT.t1" 'v["base_misfit"] == 1 && v["min_rtt_ns"] >= 2000000'
check $? "its updates trace base_misfit=1 and a min RTT of 2 ms or more"

for a in data_rate_mbps=100 config_base_rtt_ns=100000000; do
	ip netns exec "$A" sysctl -qw "net.nscc.$a" || exit 1
done
m1=$(misfits)
flow
check $? "at a 100 ms base: the flow arrived intact"
trace_save "$OUT.t2"
log "base_rtt_misfits $m1 -> $(misfits); $(grep -m1 -o 'min_rtt_ns=[0-9]* base_misfit=[0-9]' "$OUT.t2")"
(( $(misfits) == m1 ))
check $? "a base that fits (a 1 s threshold) is not counted"
traced "$OUT.t2" 'v["base_misfit"] == 0 && v["min_rtt_ns"] >= 2000000'
check $? "its updates trace base_misfit=0"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The attribute values that follow the path, beside the spec's:
# config_base_rtt_ns 0 (the lowest value of a smoothed RTT, gain 1/8 over
# the samples, is the config base RTT, and the target follows it) and data_rate_mbps 0 (the egress
# device's link speed; FABRIC_LINK_MBPS_FALLBACK, 100000, for a device that
# reports none).  The path A -> B has a netem delay of 2 ms, so every RTT
# sample is at least 2 ms on any machine.  Checks, from the nscc_update
# tracepoint and the netns counters:
#   - over the veth (which reports 10000 Mbit/s): every update has
#     rate_mbps 10000, a config base of 2 ms or more that never rises,
#     the target equal to it (uet without trimming), no misfit; the last
#     config base is at least TCP's own min RTT (a smoothing of samples is
#     never below their minimum); samples were counted in base_rtt_learnt
#     and no fallback in link_speed_fallbacks;
#   - to A's own address (the route leaves by lo, which reports no speed):
#     rate_mbps 100000, one fallback counted, the config base again at
#     least TCP's min RTT.
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
delay_path 2ms || exit 1
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=cubic
for a in config_base_rtt_ns=0 data_rate_mbps=0; do
	ip netns exec "$A" sysctl -qw "net.nscc.$a" || exit 1
done
OUT=$(mktemp)
defer "rm -f $OUT $OUT.*"

port=5990
# flow SERVER_NS ADDR: 256 kB from A under nscc to ADDR, intact.
flow() { port=$((port + 1)); xfer "$OUT" "$A" "$1" "$2" $port nscc 262144; }
st() { nscc_stat "$A" "$1"; }
# updates FILE AWK_CONDITION: FILE has nscc_update lines and each satisfies
# the condition (fields as v["name"], the previous line's as p["name"]).
updates() {
	awk "/nscc_update:/ { delete v; for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
		n++; if (!($2)) { bad++; if (bad == 1) print \"first failing: \" \$0 }
		for (k in v) p[k] = v[k] }
		END { exit !(n > 0 && !bad) }" "$1"
}
# last_fits FILE: the last update's config base is at least TCP's min RTT.
last_fits() {
	awk '/nscc_update:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { exit !(v["min_rtt_ns"] > 0 && v["cfg_base_rtt_ns"] >= v["min_rtt_ns"]) }' "$1"
}
summary() {
	grep nscc_update: "$1" | tail -n1 | grep -o 'min_rtt_ns=.*'
}

trace_on nscc
l0=$(st base_rtt_learnt) f0=$(st link_speed_fallbacks) m0=$(st base_rtt_misfits)
flow "$B" 198.18.0.2
check $? "over the veth: the flow arrived intact"
trace_save "$OUT.t1"
log "last update: $(summary "$OUT.t1"); base_rtt_learnt $l0 -> $(st base_rtt_learnt)," \
	"link_speed_fallbacks $f0 -> $(st link_speed_fallbacks)"
updates "$OUT.t1" 'v["rate_mbps"] == 10000'
check $? "data_rate_mbps 0: every update uses the veth's 10000 Mbit/s"
updates "$OUT.t1" 'v["cfg_base_rtt_ns"] >= 2000000 && v["target_ns"] == v["cfg_base_rtt_ns"] &&
	v["base_misfit"] == 0 && (!("cfg_base_rtt_ns" in p) || v["cfg_base_rtt_ns"] <= p["cfg_base_rtt_ns"])'
check $? "config_base_rtt_ns 0: the base is the path's (>= 2 ms), never rises, sets the target"
last_fits "$OUT.t1"
check $? "the learnt base is at least TCP's min RTT of the path"
(( $(st base_rtt_learnt) > l0 && $(st link_speed_fallbacks) == f0 &&
   $(st base_rtt_misfits) == m0 ))
check $? "samples counted in base_rtt_learnt; no fallback, no misfit"

flow "$A" 198.18.0.1
check $? "over lo: the flow arrived intact"
trace_save "$OUT.t2"
log "last update: $(summary "$OUT.t2"); link_speed_fallbacks $(st link_speed_fallbacks)"
updates "$OUT.t2" 'v["rate_mbps"] == 100000'
check $? "lo reports no speed: every update uses the fallback, 100000 Mbit/s"
(( $(st link_speed_fallbacks) == f0 + 1 ))
check $? "the fallback is counted once, in link_speed_fallbacks"
last_fits "$OUT.t2"
check $? "the learnt base is again at least TCP's min RTT"
exit $RET

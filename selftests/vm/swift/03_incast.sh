#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast: 16 swift flows (4 senders x 4) into one 20 Mbit/s port.  One
# packet takes 600 us on that port, twice the target delay, so windows go
# below one packet and paced sending takes over (tracepoint: cwnd_milli <
# 1000 with a pacing gap), with no storm of retransmission timeouts.  The
# flows run until the tracepoint shows it for half of them (bounded).
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc swift || exit 1
star_topo 4
ip -n "$B" route change default via 198.18.100.2 quickack 1
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb
for ns in "$S1" "$S2" "$S3" "$S4" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=swift \
		net.swift.base_target_ns=300000
done
trace_on swift

# paced_flows: flows the tracepoint showed below one packet with a gap.
paced_flows() {
	awk '/swift_update:/ { for (i = 1; i <= NF; i++) { split($i, kv, "=")
		if (kv[1] == "cwnd_milli") c = kv[2]; if (kv[1] == "pacing_gap_ns") g = kv[2]; if (kv[1] == "sport") s = kv[2] }
		if (c < 1000 && g > 0) f[s] = 1 }
	END { n = 0; for (k in f) n++; print n }' $TRACEFS/trace
}
paced_ge() { [[ $(paced_flows) -ge $1 ]]; }

hold_new HOLD
for p in 1 2 3 4; do
	for i in 1 2 3 4; do
		ip netns exec "$B" python3 "$XFER" server 198.18.100.1 $((5600 + 10 * p + i)) >/dev/null &
	done
done
for p in 1 2 3 4; do
	var="S$p"
	for i in 1 2 3 4; do
		ip netns exec "${!var}" python3 "$XFER" client 198.18.100.1 $((5600 + 10 * p + i)) \
			--while-exists "$HOLD" >/dev/null &
	done
done
busywait 90000 paced_ge 8
rm -f "$HOLD"
wait
trace_off swift

timeouts=0 entries=0
for p in 1 2 3 4; do
	var="S$p"
	timeouts=$((timeouts + $(proc_stat "${!var}" swift_stat timeouts)))
	entries=$((entries + $(proc_stat "${!var}" swift_stat paced_entries)))
done
flows=$(paced_flows)
log "flows paced below one packet: $flows; paced_entries $entries; timeouts $timeouts"
log "port: p50 < $(fabric_stat "$R" rb delay_p50_us) us, drops $(fabric_stat "$R" rb drop_limit)"
(( flows >= 8 && entries > 0 ))
check $? "windows went below one packet and pacing took over (in $flows flows)"
(( timeouts <= 16 ))
check $? "no storm of retransmission timeouts ($timeouts for 16 flows)"
exit $RET

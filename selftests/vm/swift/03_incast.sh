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

# one server process for the 16 flows (ports 5611-5626), one client
# process of 4 flows per sender: a python process costs a second to start
hold_new HOLD
defer "rm -f $HOLD.*"
ip netns exec "$B" timeout "$(scaled 150)" python3 "$XFER" server 198.18.100.1 5611 --flows 16 \
	>"$HOLD.srv" &
for p in 1 2 3 4; do
	var="S$p"
	ip netns exec "${!var}" python3 "$XFER" client 198.18.100.1 $((5611 + 4 * (p - 1))) \
		--flows 4 --while-exists "$HOLD" >"$HOLD.cli$p" &
done
busywait 90000 paced_ge 8
rm -f "$HOLD"
wait
trace_off swift

timeouts=0 entries=0
for p in 1 2 3 4; do
	var="S$p"
	{ read -r t; read -r e; } < <(proc_stats "${!var}" swift_stat timeouts paced_entries)
	all_set "$t" "$e" || t=999
	timeouts=$((timeouts + t)) entries=$((entries + e))
done
flows=$(paced_flows)
log "flows paced below one packet: $flows; paced_entries $entries; timeouts $timeouts"
{ read -r p50; read -r drops; } < <(fabric_stats "$R" rb delay_p50_us drop_limit)
log "port: p50 < $p50 us, drops $drops"
(( flows >= 8 && entries > 0 ))
check $? "windows went below one packet and pacing took over (in $flows flows)"
(( timeouts <= 16 ))
check $? "no storm of retransmission timeouts ($timeouts for 16 flows)"
[[ $(grep -c sha256= "$HOLD.srv") -eq 16 &&
   $(cat "$HOLD".cli[1-4] | sed 's/ cc=.*//') == "$(grep sha256= "$HOLD.srv")" ]]
check $? "all 16 flows arrived intact"
exit $RET

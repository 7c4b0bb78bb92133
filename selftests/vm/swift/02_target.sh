#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One swift flow through a 200 Mbit/s sch_fabric port with a 1 MB buffer
# holds the port's queueing delay near its target, where a loss-based
# flow would fill the buffer (40 ms).  base_target_ns is set for the VM
# (300 us, above its idle RTT); the receiver ACKs at once (quickack).
# Generous bounds, up to three attempts against a noisy VM:
#   - the median delay sample the sender saw is at most twice its target;
#   - the port's median queueing delay is below 1 ms (its histogram), 
#     while the flow used most of the port.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc swift || exit 1

attempt() {
	star_topo 1
	ip -n "$B" route change default via 198.18.100.2 quickack 1
	tcf -n "$R" qdisc add dev rb root fabric rate 200mbit limit 1mb
	for ns in "$S1" "$B"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=swift
		ip netns exec "$ns" sysctl -qw net.swift.base_target_ns=300000
	done
	trace_on swift
	ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5501 >/dev/null &
	out=$(ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 5501 --seconds 4)
	wait
	trace_off swift
	bytes=$(sed -n 's/^bytes=\([0-9]*\) .*/\1/p' <<<"$out")
	mbps=$((bytes * 8 / 4 / 1000000))
	p50=$(fabric_stat "$R" rb delay_p50_us)
	field() { # NAME: that field of every ai/md/hold update, sorted
		awk -v k="$1" '/swift_update:.*decision=(ai|md|hold) / {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' \
			$TRACEFS/trace | sort -n
	}
	median() { awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
	dmed=$(field delay_ns | median)
	tmed=$(field target_ns | median)
	log "goodput $mbps Mbit/s, port p50 < $p50 us, sender median delay $dmed ns vs target $tmed ns"
	(( mbps > 100 && p50 <= 1024 && dmed > 0 && dmed <= 2 * tmed ))
}

for try in 1 2 3; do
	if attempt; then
		check 0 "the flow holds the queueing delay near its target (attempt $try)"
		exit $RET
	fi
	cleanup_all
	NS_LIST=() CLEANUP=()
done
check 1 "the flow holds the queueing delay near its target (3 attempts)"
exit $RET

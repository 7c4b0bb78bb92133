#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's mrt demo, run inside the VM by "make demo" (before the NSCC
# one): the transport sprays one stream over four paths, a path fails and
# comes back, and an incast trims and recovers.
#
#   Part 1: S sprays messages to D over four paths (multipath_topo: a
#   router hashing on the UDP source port, the EV; each path a sch_fabric
#   switch port at PATH_RATE).  A third of the way through path 2 fails
#   (netem loss 100 %), at two thirds it is repaired.  The retransmission
#   floor is 50 ms, above the queueing delay the ECN thresholds allow at
#   PATH_RATE (about 20 ms), so that only the dead path's timers fire.  A
#   text chart shows each path's Mbit/s every half second; then the EV
#   states as fabctl shows them after the failure, the EV events fabctl
#   monitor saw, and the counters.
#
#   Part 2: four senders send to one receiver at once through a
#   PORT2_RATE port that trims trimmable data above 16 KB: trims, trim
#   NACKs, retransmissions, timer expiries (none) and Quick Adapt, and
#   every message checked.
#
# Knobs (environment): PATH_RATE (default 20mbit: the VM forwards some
# 100 Mbit/s of mrt over three hops, so the ports are the bottleneck),
# PORT2_RATE (50mbit),
# SECS (10: path 2 fails at a third of it and is repaired at two thirds).
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH_RATE=${PATH_RATE:-20mbit}
PORT2_RATE=${PORT2_RATE:-50mbit}
SECS=${SECS:-10}
source "$top/selftests/vm/lib.sh"
MRTPERF=$top/tools/mrtperf/mrtperf
MRTMSG=$top/selftests/vm/mrt/mrtmsg.py
J=$(mktemp -d /tmp/demo.XXXXXX)
defer "rm -rf $J"

modprobe mrt || exit 1
sysctl -qw net.core.rmem_max=67108864 net.core.wmem_max=67108864
tune() { # NS... -- NAME=VALUE...
	local nss=() ns kv
	while [[ $1 != -- ]]; do nss+=("$1"); shift; done
	shift
	for ns in "${nss[@]}"; do
		for kv in "$@"; do ip netns exec "$ns" sysctl -qw "net.mrt.$kv" || return 1; done
	done
}
w() { local v="W$1"; echo "${!v}"; }
bytes() { fabric_stat "$(w "$1")" wd bytes; }
bar() { # VALUE SCALE: a bar of VALUE / SCALE blocks, at most 20
	local n=$(($1 / $2)) s=
	((n > 20)) && n=20
	while ((n-- > 0)); do s+='#'; done
	printf '%-22s' "$s"
}

echo "== mrt multipath demo, part 1: one stream sprayed over four paths"
multipath_topo 4 || exit 1
for i in 1 2 3 4; do
	mp_port "$i" rate "$PATH_RATE" limit 256kb ecn_min 16kb ecn_max 48kb || exit 1
done
tune "$S" "$D" -- data_rate_mbps=1000 config_base_rtt_ns=0 rto_min_us=50000 \
	ev_count=32 pdc_idle_ms=60000 || exit 1
cat <<EOF
           +-- W1 --+
   S --- R +-- W2 --+--- D     S 198.18.10.1 -> D 198.18.30.1, mrt ev_count 32
           +-- W3 --+          R hashes on L4: each EV (UDP source port) one path
           +-- W4 --+          each Wi: a sch_fabric port, $PATH_RATE, ECN from 16 KB
                               path 2 fails after a third of ${SECS} s, is repaired after two
EOF
ip netns exec "$D" "$MRTPERF" -s -B 198.18.30.1 -p 7100 >"$J/srv" 2>&1 &
busywait 10000 grep -q listening "$J/srv" || { echo "mrtperf server did not start"; exit 1; }
ip netns exec "$S" "$FABCTL" monitor >"$J/monitor" 2>&1 &
mon=$!
defer "kill $mon"
# Each path's bytes every 0.25 s, read by a shell in its switch (bash
# builtins only: no process per sample to slow the VM)
for i in 1 2 3 4; do
	ip netns exec "$(w "$i")" bash -c 'exec {z}<> <(:)
		while :; do
			read -r b </sys/class/net/wd/statistics/tx_bytes
			echo "${EPOCHREALTIME/./} $b"
			read -t 0.25 -u $z
		done' >"$J/path.$i" &
	readers+=($!)
done
defer "kill ${readers[*]}"
sleep 1
t0=${EPOCHREALTIME/./}
ip netns exec "$S" "$MRTPERF" -c 198.18.30.1 -p 7100 -l 65536 -n 100000000 -t "$SECS" \
	>"$J/cli" 2>&1 &
cli=$!
until_us() { # T: sleeps until EPOCHREALTIME (in us) reaches T
	local d=$(($1 - ${EPOCHREALTIME/./}))
	((d > 0)) && sleep "$((d / 1000000)).$(printf '%06d' $((d % 1000000)))"
}
until_us $((t0 + SECS * 1000000 / 3))
tc -n "$W2" qdisc replace dev wd root netem loss 100%
tfail=${EPOCHREALTIME/./}
until_us $((tfail + 1500000))
ip netns exec "$S" "$FABCTL" -j mrt ev show 198.18.30.1 >"$J/evs"
until_us $((t0 + 2 * SECS * 1000000 / 3))
mp_port 2 rate "$PATH_RATE" limit 256kb ecn_min 16kb ecn_max 48kb
trepair=${EPOCHREALTIME/./}
wait $cli
sleep 0.5
kill "${readers[@]}" 2>/dev/null
# the chart: each path's Mbit/s per half second, from the samples
printf '\n  time   %-22s %-22s %-22s %-22s\n' "path 1 (Mbit/s)" "path 2" "path 3" "path 4"
end=${EPOCHREALTIME/./}
for ((t = t0; t + 500000 <= end; t += 500000)); do
	el=$(((t + 500000 - t0) / 1000))
	line=$(printf '%4d.%d s ' $((el / 1000)) $((el % 1000 / 100)))
	cells=()
	for i in 1 2 3 4; do
		# the last sample at or before t, and before t + 0.5 s
		read -r a b < <(awk -v t0="$t" -v t1=$((t + 500000)) \
			'$1 <= t0 { a = $2 } $1 <= t1 { b = $2 } END { print a + 0, b + 0 }' "$J/path.$i")
		mbit=$(((b - a) * 8 * 2 / 1000000))
		cells+=("$mbit")
		line+=" $(bar "$mbit" 2)"
	done
	mark=
	((tfail > t && tfail <= t + 500000)) && mark="  <- path 2 fails (netem loss 100 %)"
	((trepair > t && trepair <= t + 500000)) && mark="  <- path 2 repaired"
	printf '%s (%s)%s\n' "$line" "${cells[*]}" "$mark"
done
echo
echo "  mrtperf: $(cat "$J/cli")"
if [[ -s $J/evs ]]; then
	echo "  EV states 1.5 s after the failure (fabctl -j mrt ev show):" \
		"$(jq -r 'group_by(.state) | map("\(length) \(.[0].state)") | join(", ")' "$J/evs")"
	echo "    assumed_bad: $(jq -r '[.[] | select(.state == "assumed_bad") | .port] |
		map(tostring) | join(" ")' "$J/evs")"
fi
sleep 0.5
echo "  fabctl monitor saw $(grep -c '^mrt ev' "$J/monitor") EV events, among them:"
grep -m 2 'assumed_bad (rto)' "$J/monitor" | sed 's/^/    /'
grep -m 2 'good (probe)' "$J/monitor" | sed 's/^/    /'
echo "  counters: $(ip netns exec "$S" awk '$1 ~ /^(msgs_sent|msgs_failed|ev_to_skip|ev_to_assumed_bad|ev_probed_good|probes_out|total_rto_events|rtx_rto|rtx_sack)$/ { printf "%s=%s ", $1, $2 }' /proc/net/mrt/snmp)"

echo
echo "== part 2: incast, four senders to one receiver through a trimming port"
star_topo 4 || exit 1
tcf -n "$R" qdisc add dev rb root fabric rate "$PORT2_RATE" limit 1mb trim_at 16kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1
SS=("$S1" "$S2" "$S3" "$S4")
tune "${SS[@]}" "$B" -- rto_max_us=4000000 rto_min_us=2000000 trimmable_dscp=10 \
	trim_dscp=11 data_rate_mbps=1000 config_base_rtt_ns=0 || exit 1
echo "   S1..S4 -> R -> B 198.18.100.1: a $PORT2_RATE port trimming DSCP 10 data above" \
	"16 KB to 128 B; 4 x 24 messages, each checked"
t0=$(date +%s%N)
pids=()
for i in 1 2 3 4; do
	ip netns exec "$B" python3 "$MRTMSG" server 198.18.100.1 $((7000 + i)) --rcvbuf 33554432 \
		--timeout 60 --ready "$J/ready.$i" --count 24 --max-size 131072 --seed $((40 + i)) \
		>"$J/in.$i.srv" &
	pids+=($!)
done
for i in 1 2 3 4; do busywait 10000 test -e "$J/ready.$i"; done
for i in 1 2 3 4; do
	ip netns exec "${SS[i - 1]}" python3 "$MRTMSG" client 198.18.100.1 $((7000 + i)) \
		--sndbuf 33554432 --confirm --wait 60 --count 24 --max-size 131072 \
		--seed $((40 + i)) >"$J/in.$i.cli" &
	pids+=($!)
done
wait "${pids[@]}"
ok=0 total=0
for i in 1 2 3 4; do
	jq -e '.received == 24 and .bad == 0 and .dups == 0' "$J/in.$i.srv" >/dev/null && ok=$((ok + 1))
	total=$((total + $(jq .bytes "$J/in.$i.srv")))
done
sum() { local ns t=0; for ns in "${SS[@]}"; do
	t=$((t + $(proc_stat "$ns" mrt/snmp "$1"))); done; echo $t; }
echo "  $ok of 4 senders' 24 messages arrived intact, once each ($total bytes)"
echo "  port: trimmed $(fabric_stat "$R" rb trimmed), dropped $(fabric_stat "$R" rb drop_limit)"
echo "  senders: trim NACKs $(sum total_nack_trimmed_rx), sent again $(sum rtx_trim)," \
	"timer expiries $(sum total_rto_events), Quick Adapt $(sum total_qa_count)"
echo "  (every trimmed packet was recovered by its NACK, without a timer)"

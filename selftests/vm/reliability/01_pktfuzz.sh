#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packet fuzzer (pktfuzz.c) at a live mrt receiver B, beside a
# digest-checked transfer from A, in IPv4 and IPv6: random bytes, bit
# flips, truncations, extensions and field mutations of the transfer's
# captured packets, crafted packets for PDCs no one has, all from a third
# host C; and replays of the transfer's own packets from A's and B's
# addresses.  Then:
# - the transfer lost, duplicated and corrupted nothing (every message
#   once, intact, confirmed);
# - every packet reached mrt: B's pkts_in grew by exactly A's pkts_out
#   plus what the fuzzer sent B (the veths drop nothing), and each of B's
#   malformed_* counters by exactly the number of packets the transport's
#   own parser (net/mrt/wire.c, in pktfuzz) gives that reason;
# - A counted none of the replayed answers malformed.
# 2 x 20,000 packets here; make soak (LONG=1) sends 2 x 500,000.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

FUZZ=$TOP/selftests/vm/reliability/pktfuzz
[[ -x $FUZZ ]] || { log "no $FUZZ: make tests"; exit 1; }
N=20000
((LONG)) && N=500000

mrt_setup || exit 1
setup_ns A B C || exit 1
link_ns "$A" a0 1 "$B" b0 2
SUBNET=1 link_ns "$C" c0 1 "$B" b1 2
# C reaches B's transfer address too (B takes it on b1: no rp_filter in a
# new netns), so its packets meet the transfer's endpoint
ip -n "$C" route add 198.18.0.0/24 via 198.18.1.2
ip -n "$C" -6 route add 2001:db8::/64 via 2001:db8:1::2
neigh_pin "$A" a0 "$B" b0 198.18.0.2 2001:db8::2
neigh_pin "$B" b0 "$A" a0 198.18.0.1 2001:db8::1
neigh_pin "$C" c0 "$B" b1 198.18.1.2 2001:db8:1::2
neigh_pin "$B" b1 "$C" c0 198.18.1.1 2001:db8:1::1
# nothing queued in a backlog may be dropped for want of room
sysctl -qw net.core.netdev_max_backlog=100000
# the transfer's PDCs live through the whole run
mrt_tune "$A" "$B" pdc_idle_ms=600000 || exit 1

# snap NS: "name value" of every mrt counter of NS
snap() { ip netns exec "$1" cat /proc/net/mrt/snmp; }
# deltas BEFORE AFTER: every counter's growth, as one JSON object
deltas() {
	awk 'NR == FNR { a[$1] = $2; next } { print $1, $2 - a[$1] }' <(echo "$1") <(echo "$2") |
		jq -R -n '[inputs | split(" ") | {(.[0]): (.[1] | tonumber)}] | add'
}

fuzz_family() {
	local fam=$1 src=$2 dst=$3 tag=fuzz$1 hold a0 b0 a1 b1 da db d n rep sent
	hold_new hold
	a0=$(snap "$A")
	b0=$(snap "$B")
	ip netns exec "$B" python3 "$MRTMSG" server "$dst" 7000 --rcvbuf 33554432 \
		--timeout 1800 --count 100000000 --count-file "$MRT_J/$tag.count" \
		--peer "$src" --ready "$MRT_J/$tag.ready" >"$MRT_J/$tag.srv" &
	busywait 10000 test -e "$MRT_J/$tag.ready" || { check 1 "IPv$fam: server up"; return; }
	ip netns exec "$A" python3 "$MRTMSG" client "$dst" 7000 --sndbuf 33554432 \
		--count 100000000 --max-size 65536 --seed "$fam" --confirm --wait 300 \
		--while-exists "$hold" --count-file "$MRT_J/$tag.count" >"$MRT_J/$tag.cli" &
	"$FUZZ" --dst "$dst" --src "$src" --count "$N" --seed "$fam" --foreign "$C" \
		--sender "$A" --receiver "$B" --dev a0 >"$MRT_J/$tag.fuzz"
	check $? "IPv$fam: pktfuzz sent $N packets"
	rm -f "$hold"
	wait
	rep=$MRT_J/$tag.fuzz
	log "# IPv$fam fuzz: $(jq -c '{packets, seconds, pps, captured, trains, send_errors, kinds}' "$rep")"
	log "# IPv$fam to B: $(jq -c .receiver "$rep")"
	log "# IPv$fam to A: $(jq -c .sender "$rep")"
	log "# IPv$fam server: $(cat "$MRT_J/$tag.srv")"
	log "# IPv$fam client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/$tag.cli")"
	sent=$(jq .sent "$MRT_J/$tag.cli")
	mrt_xfer_ok "$tag" "$sent" && mrt_confirmed "$tag" "$sent" && ((sent > 0))
	check $? "IPv$fam: the transfer beside it: $sent messages once each, intact, confirmed"

	# every packet reached mrt: B's intake is A's output plus the fuzzer's
	n=$(jq .receiver.sent "$rep")
	acct() {
		a1=$(snap "$A")
		b1=$(snap "$B")
		da=$(deltas "$a0" "$a1")
		db=$(deltas "$b0" "$b1")
		[[ $(jq .pkts_in <<<"$db") == $(($(jq .pkts_out <<<"$da") + n)) ]]
	}
	busywait 20000 acct
	check $? "IPv$fam: B took in A's $(jq .pkts_out <<<"$da") packets and the fuzzer's $n, no more, no fewer ($(jq .pkts_in <<<"$db"))"
	# each reason: B's count against the parser's
	d=$(jq -c --argjson d "$db" '.receiver.malformed | to_entries |
		map(select($d["malformed_" + .key] != .value) |
		"malformed_\(.key): counted \($d["malformed_" + .key]), parser says \(.value)")' "$rep")
	[[ $d == "[]" ]]
	check $? "IPv$fam: each of B's malformed_* counters grew by the parser's count of that reason ($d)"
	jq -e --argjson d "$da" '(.sender.malformed | add) == 0 and
		([$d | to_entries[] | select(.key | startswith("malformed_")) | .value] | add) == 0' \
		"$rep" >/dev/null
	check $? "IPv$fam: the replayed answers are well formed, and A counted none malformed"
	log "# IPv$fam B: $(jq -c '{unknown_pdc, no_endpoint, dup_pkts_in, oor_pkts_in, pdc_limit,
		trimmed_pkts_in, nacks_out}' <<<"$db")"
}

fuzz_family 4 198.18.0.1 198.18.0.2
fuzz_family 6 2001:db8::1 2001:db8::2
drops=0
while read -r _ d _; do drops=$((drops + 16#$d)); done </proc/net/softnet_stat
log "# backlog drops (softnet_stat): $drops"
exit $RET

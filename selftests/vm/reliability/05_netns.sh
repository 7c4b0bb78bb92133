#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Network namespaces torn down under traffic, in rounds: two namespaces
# with sch_fabric ports on both ends, a TCP flow on each of nscc, dcqcn
# and swift and an mrt transfer between them; once every flow is under
# way, each process is killed (SIGKILL: sockets close with data in flight,
# PDCs with messages outstanding and timers armed) and the namespaces are
# deleted.  Afterwards:
# - the slab caches of what the rounds made (net_namespace, TCP, TCPv6,
#   MRT, MRTv6) come back to what they held after the first round (each
#   shrunk first, so that objects freed to a CPU's slab count as free);
# - every module unloads (no socket, qdisc or namespace holds one).
# 2 rounds here; make soak (LONG=1) 100.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

XFER=$TOP/selftests/vm/tcpxfer.py
MODS=(mrt sch_fabric tcp_nscc tcp_dcqcn tcp_swift)
CACHES=(net_namespace TCP TCPv6 MRT MRTv6)
rounds=2
((LONG)) && rounds=100

for m in "${MODS[@]}"; do
	modprobe "$m" || exit 1
done
for cc in nscc dcqcn swift; do
	allow_cc "$cc" || exit 1
done

# slab_objs CACHE: its objects in use, after a shrink (so that objects
# freed to a CPU's slab count as free)
slab_objs() {
	echo 1 >"/sys/kernel/slab/$1/shrink"
	cut -d' ' -f1 "/sys/kernel/slab/$1/objects"
}
# slabs: "cache objects ..." for each cache
slabs() {
	local c
	for c in "${CACHES[@]}"; do
		printf '%s %s ' "$c" "$(slab_objs "$c")"
	done
}
# at_most BASE: every cache holds at most what BASE says
at_most() {
	local now c n
	now=$(slabs)
	set -- $1
	while (($#)); do
		c=$1 n=$2
		shift 2
		[[ $(awk -v c="$c" '{ for (i = 1; i < NF; i += 2) if ($i == c) print $(i + 1) }' \
			<<<"$now") -le $n ]] || return 1
	done
}
# forget NS: the namespace is gone; cleanup_all need not delete it
forget() {
	local i
	for i in "${!NS_LIST[@]}"; do
		[[ ${NS_LIST[i]} != "$1" ]] || unset 'NS_LIST[i]'
	done
}

round() {
	local hold port cc ns
	setup_ns A B || return 1
	link_ns "$A" a0 1 "$B" b0 2 || return 1
	tcf -n "$A" qdisc add dev a0 root fabric rate 200mbit limit 1mb ecn_min 60kb ecn_max 120kb &&
		tcf -n "$B" qdisc add dev b0 root fabric rate 200mbit limit 1mb || return 1
	mrt_tune "$A" "$B" || return 1
	ip netns exec "$A" sysctl -qw net.swift.base_target_ns=5000000
	# A killed sender's socket lives on as an orphan with data unsent and
	# retransmits for tcp_orphan_retries (8: minutes of backoff) when its
	# peer's namespace, and the veth with it, went first; it holds its CC
	# module all that time (a debug kernel's run saw swift held past the
	# unload's wait).  One retry, in both namespaces.
	for ns in "$A" "$B"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_orphan_retries=1 || return 1
	done
	hold_new hold
	port=5000
	for cc in nscc dcqcn swift; do
		port=$((port + 1))
		ip netns exec "$B" python3 "$XFER" server 198.18.0.2 $port >/dev/null &
		ip netns exec "$A" python3 "$XFER" client 198.18.0.2 $port --cc "$cc" \
			--while-exists "$hold" >/dev/null 2>&1 &
	done
	rm -f "$MRT_J/ready"
	ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --timeout 120 \
		--count 100000000 --ready "$MRT_J/ready" >/dev/null &
	busywait 10000 test -e "$MRT_J/ready"
	ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 100000000 \
		--max-size 262144 --confirm --while-exists "$hold" >/dev/null 2>&1 &
	busywait 30000 sh -c "[ \$(ip netns exec $A ss -tnH state established | wc -l) -ge 3 ] &&
		ip netns exec $A grep -q tx /proc/net/mrt/pdcs && ip netns exec $B grep -q rx /proc/net/mrt/pdcs"
	local rc=$?
	for ns in "$A" "$B"; do
		# shellcheck disable=SC2046 # one pid per word
		kill -9 $(ip netns pids "$ns") 2>/dev/null
	done
	wait 2>/dev/null
	for ns in "$A" "$B"; do
		ip netns del "$ns"
		forget "$ns"
	done
	return $rc
}

# netns_back N: no more namespaces than N in use (cleanup_net has run)
netns_back() { (($(slab_objs net_namespace) <= $1)); }

ok=0
netns0=$(slab_objs net_namespace)
round || { log "# round 1: the flows did not all start"; ok=1; }
# what the caches hold once the first round's namespaces are freed: the
# kernel's cleanup_net work has run, and with it the sockets inside
busywait 30000 sh -c '[ "$(ip netns list | wc -l)" -eq 0 ]'
busywait 60000 netns_back "$netns0" ||
	log "# round 1's namespaces not yet freed after 60 s ($(slab_objs net_namespace) > $netns0 in use)"
base=$(slabs)
log "# after round 1: $base"
for ((i = 2; i <= rounds; i++)); do
	round || { log "# round $i: the flows did not all start"; ok=1; }
done
check $ok "$rounds rounds: namespaces with every kind of flow under way, killed and deleted"
busywait 60000 at_most "$base"
check $? "the slab caches came back to what they held after round 1 (now: $(slabs))"
ok=0
for m in "${MODS[@]}" fabric; do
	busywait 30000 modprobe -r "$m" 2>/dev/null || { log "# $m stays: $(grep "^$m " /proc/modules)"; ok=1; }
done
check $ok "every module unloads: no socket, qdisc or namespace holds one"
exit $RET

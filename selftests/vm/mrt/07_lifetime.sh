#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lifetimes: `modprobe -r mrt` is refused while an mrt socket exists and
# works once none does; 6 rounds of a pair of namespaces with a transfer
# in flight, its processes killed and the namespaces deleted, leave no
# socket behind (the module's reference count returns to 0, which
# sockets and, through them, PDCs hold) and the kernel's slab memory where
# it was, within a few MB.  (reliability/05_netns does the same with the
# TCP congestion controls and fabric ports beside, and counts the slab
# caches one by one.)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }
refcnt() { cat /sys/module/mrt/refcnt; }

mrt_setup || exit 1
setup_ns H || exit 1
ip netns exec "$H" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_RDM, 253)
open("'"$MRT_J"'/held", "w").close()
time.sleep(60)' &
holder=$!
busywait 20000 test -e "$MRT_J/held"
check_fail "modprobe -r is refused while a socket exists" -- modprobe -r mrt
kill $holder
wait $holder 2>/dev/null
busywait 10000 sh -c '[ "$(cat /sys/module/mrt/refcnt)" = 0 ]'
check_cmd "modprobe -r works once none does" -- modprobe -r mrt
mrt_setup || exit 1

# A warm-up round, so that caches the rounds fill once are in the baseline.
round() {
	local a b
	printf -v a "lifeA-%06x" $((SRANDOM & 0xffffff))
	printf -v b "lifeB-%06x" $((SRANDOM & 0xffffff))
	ip netns add "$a" && ip netns add "$b" || return 1
	ip link add v0 netns "$a" type veth peer name v1 netns "$b"
	ip -n "$a" addr add 198.18.9.1/24 dev v0
	ip -n "$b" addr add 198.18.9.2/24 dev v1
	ip -n "$a" link set v0 up
	ip -n "$b" link set v1 up
	for ns in "$a" "$b"; do
		ip netns exec "$ns" sysctl -qw net.mrt.rto_max_us=100000 net.mrt.retry_budget=3
	done
	rm -f "$MRT_J/life.ready"
	ip netns exec "$b" python3 "$MRTMSG" server 198.18.9.2 7000 --count 100000 \
		--timeout 30 --rcvbuf 4194304 --ready "$MRT_J/life.ready" >/dev/null &
	local srv=$!
	busywait 20000 test -e "$MRT_J/life.ready"
	ip netns exec "$a" python3 "$MRTMSG" client 198.18.9.2 7000 --count 100000 \
		--max-size 1048576 --sndbuf 4194304 >/dev/null 2>&1 &
	local cli=$!
	# in flight: data arriving (so a PDC at each end)
	busywait 20000 stat_ge "$b" mrt/snmp data_pkts_in 50
	kill -9 $cli $srv 2>/dev/null
	wait $cli $srv 2>/dev/null
	ip netns del "$a"
	ip netns del "$b"
}
round
busywait 30000 sh -c '[ "$(cat /sys/module/mrt/refcnt)" = 0 ]'
slab0=$(slab_kb)
for i in $(seq 6); do
	round || { check 1 "round $i"; break; }
done
busywait 60000 sh -c '[ "$(cat /sys/module/mrt/refcnt)" = 0 ]'
check $? "after 6 rounds no mrt socket is left (module refcnt $(refcnt))"
# freed memory reaches /proc/meminfo's Slab when RCU and the namespaces'
# cleanup work have run: wait for it, bounded
slab_back() { (($(slab_kb) - slab0 < 8192)); }
busywait 60000 slab_back
rc=$?
grow=$(( $(slab_kb) - slab0 ))
log "# slab: $slab0 kB before the rounds, $((slab0 + grow)) kB after"
check $rc "slab memory where it was after the rounds (+$grow kB)"
check_cmd "and the module unloads" -- modprobe -r mrt
exit $RET

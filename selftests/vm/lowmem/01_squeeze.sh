#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt under memory pressure: this suite's VM has 128 MB (settings: mem=;
# about 40 MB of it available once the guest is up, beside the four
# Python processes), and two senders send messages of up to 256 KiB at
# once, each sender's and the receivers' socket buffers tight (256 KiB,
# a message at most: a larger one is refused with EMSGSIZE).  Every
# message still arrives once, intact,
# confirmed (slower: the time is printed, never bounded).  Allocations
# that failed meanwhile were handled: the transfers survived them, mrt
# counted its own (alloc_failures, printed with the kernel's "page
# allocation failure" reports), nothing was killed, and the kernel
# reported nothing else (the suite's kernel-reports result).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

N=2 COUNT=100 MAX=262144
mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" pdc_idle_ms=600000 || exit 1
log "# $(awk '$1 ~ /^(MemTotal|MemAvailable):$/ { printf "%s %d MB  ", $1, $2 / 1024 }' /proc/meminfo)"

a0=$(mrt_stat "$A" alloc_failures) b0=$(mrt_stat "$B" alloc_failures)
f0=$(dmesg | grep -c 'page allocation failure')
k0=$(dmesg | grep -c 'Killed process')
low=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
start=$(date +%s%N)
pids=()
for ((i = 1; i <= N; i++)); do
	ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 $((7000 + i)) --count $COUNT \
		--rcvbuf 262144 --timeout 250 --ready "$MRT_J/ready$i" >"$MRT_J/sq$i.srv" &
	pids+=($!)
	busywait 20000 test -e "$MRT_J/ready$i"
	ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 $((7000 + i)) --count $COUNT \
		--max-size $MAX --seed $i --sndbuf 262144 --confirm --wait 250 >"$MRT_J/sq$i.cli" &
	pids+=($!)
done
# the lowest MemAvailable seen while they run
while kill -0 "${pids[@]}" 2>/dev/null; do
	m=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
	((m < low)) && low=$m
	sleep 0.2
done
wait "${pids[@]}"
secs=$((($(date +%s%N) - start) / 1000000))
ok=0 bytes=0
for ((i = 1; i <= N; i++)); do
	mrt_xfer_ok "sq$i" $COUNT && mrt_confirmed "sq$i" $COUNT ||
		{ ok=1; log "# pair $i: $(cat "$MRT_J/sq$i.srv") $(jq -c 'del(.confirmed_cookies)' "$MRT_J/sq$i.cli")"; }
	bytes=$((bytes + $(jq .bytes "$MRT_J/sq$i.srv")))
done
check $ok "$N x $COUNT messages of up to 256 KiB, 256 KiB buffers: once each, intact, confirmed ($bytes bytes in $secs ms; MemAvailable at least $((low / 1024)) MB)"
log "# mrt alloc_failures: A +$(($(mrt_stat "$A" alloc_failures) - a0)), B +$(($(mrt_stat "$B" alloc_failures) - b0));" \
	"page allocation failure reports: +$(($(dmesg | grep -c 'page allocation failure') - f0))"
(($(dmesg | grep -c 'Killed process') == k0))
check $? "the OOM killer killed nothing"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

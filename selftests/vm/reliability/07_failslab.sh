#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# First, one failure placed: the PDC table is an XArray, and inserting a
# PDC may need a node, which the XArray first allocates without sleeping
# under its lock and, if that fails, again with the caller's GFP_KERNEL
# with the lock dropped.  The client's first sendmsg() runs with its
# thread's fail-nth at 1, so that the first allocation failslab may fail
# there fails: the node's first try (nothing before it in sendmsg()
# allocates without sleeping; the XArray asks with __GFP_NOWARN, so
# failslab prints no trace of it, but fail-nth says it fired).
# The PDC is made all the same, the message arrives and is confirmed,
# and the retry dropped the lock as it was taken (with BHs): no "sleeping
# function called from invalid context" in the log.  (The table was
# initialised without XA_FLAGS_LOCK_BH, and the retry slept with BHs
# off; a KCSAN run met it once at random, 2026-12-06.)
#
# Then mrt while slab allocations that cannot sleep fail at random: the debug
# kernel of make check-debug has failslab (CONFIG_FAILSLAB; Debian's has
# not: SKIP there).  5 % of GFP_ATOMIC slab allocations fail during a
# digest-checked transfer (failslab's ignore-gfp-wait keeps the sleeping
# ones, so the rest of the VM goes on): the skbs of mrt's packets, ACKs
# and NACKs, its messages and PDCs in softirq.  Every message still
# arrives once, intact, confirmed; failures were injected; mrt counted
# those it saw (alloc_failures); nothing crashed or leaked (the suite's
# kernel-reports result: lockdep, KASAN, kmemleak).  200 messages here;
# make soak (LONG=1) 2,000.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

FS=/sys/kernel/debug/failslab
[[ -w $FS/probability ]] || skip "no failslab in this kernel (make check-debug has it)"
n=200
((LONG)) && n=2000

mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" pdc_idle_ms=600000 || exit 1
# off again whatever happens
defer "echo 0 > $FS/probability"
echo 0 >"$FS/probability"
echo Y >"$FS/ignore-gfp-wait"
echo N >"$FS/task-filter"
echo 0 >"$FS/verbose"
echo 0 >"$FS/space"
echo 1 >"$FS/interval"
echo 1000000 >"$FS/times"

# the placed failure
echo "07_failslab: placed failure" >/dev/kmsg
ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7001 --count 1 --timeout 60 \
	--ready "$MRT_J/ready1" >"$MRT_J/nth.srv" &
srv=$!
busywait 20000 test -e "$MRT_J/ready1"
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7001 --count 1 --max-size 1000 \
	--fail-nth 1 --confirm --wait 60 >"$MRT_J/nth.cli"
wait $srv
klog=$(dmesg | sed -n '/07_failslab: placed failure/,$p')
log "# placed: client $(jq -c 'del(.confirmed_cookies)' "$MRT_J/nth.cli")"
jq -se '.[0].fail_nth_left == 0' "$MRT_J/nth.cli" >/dev/null
check $? "the first sendmsg() met its injected allocation failure (fail-nth fired)"
mrt_xfer_ok nth 1 && mrt_confirmed nth 1
check $? "the PDC was made all the same: the message arrived once, intact, and was confirmed"
! grep -E 'sleeping function called from invalid context|BUG: |WARNING: ' <<<"$klog"
check $? "the XArray's retry slept with the lock (and BHs) released: no report in the log"

a0=$(mrt_stat "$A" alloc_failures) b0=$(mrt_stat "$B" alloc_failures)

ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --count "$n" --rcvbuf 4194304 \
	--timeout 600 --ready "$MRT_J/ready" >"$MRT_J/fs.srv" &
srv=$!
busywait 20000 test -e "$MRT_J/ready"
echo 5 >"$FS/probability"
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count "$n" --max-size 262144 \
	--sndbuf 4194304 --confirm --wait 600 >"$MRT_J/fs.cli"
echo 0 >"$FS/probability"
wait $srv
injected=$((1000000 - $(cat "$FS/times")))
log "# server: $(cat "$MRT_J/fs.srv")"
log "# client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/fs.cli")"
mrt_xfer_ok fs "$n" && mrt_confirmed fs "$n"
check $? "$n messages while 5 % of atomic slab allocations failed: once each, intact, confirmed"
a=$(($(mrt_stat "$A" alloc_failures) - a0)) b=$(($(mrt_stat "$B" alloc_failures) - b0))
((injected > 0))
check $? "failslab failed $injected allocations meanwhile; mrt saw and counted A $a, B $b"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

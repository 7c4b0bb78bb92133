#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload every module, in rounds:
# - idle: load all, unload all (fabric last), nothing left behind;
# - busy: with a TCP flow on each of nscc, dcqcn and swift through a
#   sch_fabric port and an mrt transfer running, every unload is refused
#   and the module stays (so does fabric, which they all use); once the
#   traffic ends (its digests intact) every module unloads.
# The kernel log gains no report (the suite's kernel-reports result, and
# kmemleak after the suite on the debug kernel).  3 idle rounds and 1 busy
# here; make soak (LONG=1) 100 of each.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

XFER=$TOP/selftests/vm/tcpxfer.py
MODS=(mrt sch_fabric tcp_nscc tcp_dcqcn tcp_swift)
idle=3 busy=1
((LONG)) && idle=100 busy=100

loaded() { grep -q "^$1 " /proc/modules; }
none_loaded() {
	local m
	for m in "${MODS[@]}" fabric; do
		! loaded "$m" || return 1
	done
}
load_all() {
	local m
	for m in "${MODS[@]}"; do
		modprobe "$m" || return 1
	done
}
# unload_all: every module, fabric last; each may still be held for a
# moment by sockets being torn down
unload_all() {
	local m
	for m in "${MODS[@]}" fabric; do
		busywait 30000 modprobe -r "$m" 2>/dev/null || return 1
	done
}

none_loaded || unload_all
ok=0
for ((i = 1; i <= idle; i++)); do
	load_all && unload_all && none_loaded || { ok=1; log "# idle round $i failed"; break; }
done
check $ok "$idle idle rounds: every module loads and unloads, nothing left behind"

setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
refused=0 intact=0 unloaded=0
for ((i = 1; i <= busy; i++)); do
	load_all || break
	mrt_tune "$A" "$B"
	for cc in nscc dcqcn swift; do
		allow_cc "$cc"
	done
	# a target that the VM's RTTs (jitter of milliseconds) leave room
	# under, or swift's window sits at its floor and its flow ends late
	ip netns exec "$A" sysctl -qw net.swift.base_target_ns=5000000
	# a port without a rate limit: in use, and no flow starved behind it
	# (a rate-limited one leaves swift, delay-based, megabytes to drain)
	tcf -n "$A" qdisc add dev a0 root fabric limit 1mb || break
	hold_new hold
	port=5000
	pids=()
	for cc in nscc dcqcn swift; do
		port=$((port + 1))
		ip netns exec "$B" timeout "$(scaled 120)" python3 "$XFER" server 198.18.0.2 $port \
			>"$MRT_J/$cc.srv" &
		pids+=($!)
		ip netns exec "$A" python3 "$XFER" client 198.18.0.2 $port --cc "$cc" \
			--sndbuf 131072 --while-exists "$hold" >"$MRT_J/$cc.cli" &
		pids+=($!)
	done
	ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --timeout 120 \
		--count 100000000 --count-file "$MRT_J/busy.count" --ready "$MRT_J/busy.ready" \
		>"$MRT_J/busy.srv" &
	pids+=($!)
	busywait 10000 test -e "$MRT_J/busy.ready"
	ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 100000000 \
		--max-size 65536 --confirm --wait 60 --while-exists "$hold" \
		--count-file "$MRT_J/busy.count" >"$MRT_J/busy.cli" &
	pids+=($!)
	# every flow under way: three established connections, a PDC
	busywait 30000 sh -c "[ \$(ip netns exec $A ss -tnH state established | wc -l) -ge 3 ] &&
		ip netns exec $A grep -q tx /proc/net/mrt/pdcs"
	r=0
	for m in "${MODS[@]}" fabric; do
		if modprobe -r "$m" 2>/dev/null || ! loaded "$m"; then
			log "# busy round $i: $m unloaded while in use"
			r=1
		fi
	done
	((r == 0)) && refused=$((refused + 1))
	rm -f "$hold"
	wait "${pids[@]}"
	rm -f "$MRT_J/busy.count" "$MRT_J/busy.ready"
	r=0
	for cc in nscc dcqcn swift; do
		[[ $(grep bytes= "$MRT_J/$cc.srv") == "$(sed 's/ cc=.*//' "$MRT_J/$cc.cli")" ]] &&
			grep -q "cc=$cc" "$MRT_J/$cc.cli" || r=1
	done
	sent=$(jq .sent "$MRT_J/busy.cli")
	mrt_xfer_ok busy "$sent" && mrt_confirmed busy "$sent" || r=1
	((r == 0)) && intact=$((intact + 1))
	((r == 0)) || log "# busy round $i: a flow did not arrive intact"
	tcf -n "$A" qdisc del dev a0 root
	if unload_all && none_loaded; then
		unloaded=$((unloaded + 1))
	else
		log "# busy round $i: $(grep -E '^(mrt|sch_fabric|tcp_(nscc|dcqcn|swift)|fabric) ' /proc/modules)"
	fi
done
log "# last round: $(cat "$MRT_J/nscc.cli"), mrt $(jq -c '{sent, confirmed}' "$MRT_J/busy.cli")"
((refused == busy))
check $? "$refused of $busy busy rounds: every unload refused while its module was in use"
((intact == busy))
check $? "$intact of $busy busy rounds: every flow arrived intact"
((unloaded == busy))
check $? "$unloaded of $busy busy rounds: every module unloaded once the traffic ended"
exit $RET

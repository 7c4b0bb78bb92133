#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults on chosen EVs of one shared path, which netem cannot express
# (tools/bpf/mrt_fault: a tc-BPF program on A's egress, loaded and read
# with bpftool): of A's 16 EVs, 49152-49155 are dropped, 49156-49159 are
# marked CE and 49160-49161 have their mrt header's version flipped (the
# UDP checksum kept right).  After 100 messages (the client pauses): the
# dropped and the corrupted EVs (B refuses those packets) are ASSUMED_BAD
# and the others are not; ECN is charged to the marked EVs only.  The
# faults lifted, probes bring the bad EVs back to GOOD, and B counted
# every corrupted packet malformed_version, as many as the program
# corrupted.  Every message arrives once, intact.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

require_cmd bpftool jq
FAULT=$TOP/tools/bpf/mrt_fault.sh
[[ -e $TOP/tools/bpf/mrt_fault.bpf.o ]] || { log "no tools/bpf/mrt_fault.bpf.o: make tools"; exit 1; }
mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" ev_count=16 pdc_idle_ms=60000 || exit 1
# B counts every corrupted packet: none may be dropped in a backlog first
defer "sysctl -qw net.core.netdev_max_backlog=$(sysctl -n net.core.netdev_max_backlog)"
sysctl -qw net.core.netdev_max_backlog=100000
# a path without dots: libbpf turns them into underscores in pin paths
export FS=/tmp/mrtfault$$
"$FAULT" attach "$A" a0
rc=$?
check $rc "mrt_fault attached to A's egress (bpftool prog load, tc clsact)"
((rc == 0)) || exit 1
defer "FS=$FS $FAULT detach $A a0; umount $FS; rmdir $FS"
"$FAULT" set 49152-49155 drop && "$FAULT" set 49156-49159 ce &&
	"$FAULT" set 49160-49161 corrupt:0:0xf0
rc=$?
check $rc "faults set: drop 49152-49155, CE 49156-49159, corrupt 49160-49161"
((rc == 0)) || exit 1

evs() { ip netns exec "$A" "$FABCTL" -j mrt ev show 198.18.0.2; }
mrt_xfer "$A" "$B" 198.18.0.2 bpf --count 101 --max-size 65536 --seed 33 \
	--pause-at 100 --pause-dir "$MRT_J" &
xfer=$!
busywait 90000 test -e "$MRT_J/paused.100"
check $? "100 messages confirmed through the faults"
evs >"$MRT_J/evs"
stats=$("$FAULT" stats)
log "# mrt_fault: $stats"
log "# EVs: $(jq -c '[.[] | [.port, .state, .pkts, .ecn, .rtos]]' "$MRT_J/evs")"
# a corrupted packet is refused, so lost: those EVs go bad as well.  (jq
# -s: an empty list, or no input at all, is never a pass.)
jq -se '.[0] | length == 16 and
	([.[] | select(.port <= 49155 or .port == 49160 or .port == 49161) |
	  .state == "assumed_bad"] | all) and
	([.[] | select(.port > 49155 and .port != 49160 and .port != 49161) |
	  .state != "assumed_bad"] | all)' "$MRT_J/evs" >/dev/null
check $? "the dropped and the corrupted EVs are ASSUMED_BAD, no other is"
jq -se '.[0] | length == 16 and
	([.[] | select(.port >= 49156 and .port <= 49159) | .ecn] | all(. > 0)) and
	([.[] | select(.port < 49156 or .port > 49159) | .ecn] | add) == 0' "$MRT_J/evs" \
	>/dev/null
check $? "ECN echoes charged to each marked EV and to no other"
(($(jq .dropped <<<"$stats") > 0 && $(jq .marked <<<"$stats") > 0))
check $? "the program dropped and marked packets ($(jq -c '{dropped, marked}' <<<"$stats"))"

"$FAULT" set 49152-49161 none
good() { evs | jq -se '.[0] | length == 16 and ([.[] | .state != "assumed_bad"] | all)' \
	>/dev/null; }
busywait 30000 good
check $? "faults lifted: probes bring the dropped and corrupted EVs back"
# every corrupted packet (data and probes) has arrived by now
corrupted=$("$FAULT" stats | jq .corrupted)
bad=$(mrt_stat "$B" malformed_version)
((corrupted > 0 && bad == corrupted))
check $? "B counted each of the $corrupted corrupted packets malformed_version ($bad)"
touch "$MRT_J/go.100"
wait $xfer
mrt_xfer_ok bpf 101 && mrt_confirmed bpf 101
check $? "101 messages once each, intact, confirmed"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

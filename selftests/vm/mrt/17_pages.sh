#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt at its defaults, as the MRC page defines the NIC around NSCC (issue
# 35): no mrt attribute is changed, only the switch port's.  The port
# (10 Mbit/s, below what even a debug kernel sends, trimming above 20 KB
# the DSCP mrt marks trimmable, 10) trims the data, since trimming_enabled
# (auto: the mrc flavour's 1) marks it trimmable; the receiver NACKs each
# trim and the sender sends each again at once (its NACK, not a timer,
# recovers it: port trims = NACKs = those retransmissions) and Quick
# Adapt fires on the trims.  The page's
# validation warning stays silent: trims came.  Then with trimming_enabled
# 0 and a port that never fills: nothing is marked trimmable, nothing is
# trimmed, and Quick Adapt fires on its delay trigger alone.  The records
# are read through fabctl stats mrt.  Then the QP group: a window shared by
# two sockets to one peer, not shared with qp_groups_enabled 0, and living
# while a PDC to or from the peer is open.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
switch_topo || exit 1
tcf -n "$R" qdisc add dev r1 root fabric rate 10mbit limit 200kb trim_at 20kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1

# rec NS NAME...: the records, through fabctl stats mrt, one line each
rec() {
	local ns=$1 k
	shift
	"$FABCTL" -n "$ns" -j stats mrt >"$MRT_J/rec.json" || return 1
	for k; do jq -r ".[0].stats.$k // empty" "$MRT_J/rec.json"; done
}

b0=$(rec "$A" base_rtt_ns)
keys=(total_nack_trimmed_rx rtx_trim total_rto_events total_qa_count trimming_no_trims
	data_pkts_out)
{ read -r n0; read -r t0; read -r r0; read -r qa0; read -r w0; read -r d0; } < <(rec "$A" "${keys[@]}")
q0=$(fabric_stat "$R" r1 trimmed)
mrt_xfer "$A" "$B" 198.18.2.1 dflt --count 40 --max-size 262144 --seed 17
mrt_xfer_ok dflt 40 && mrt_confirmed dflt 40
check $? "defaults: 40 messages through a trimming port arrive once each, intact, confirmed"
{ read -r n; read -r t; read -r r; read -r qa; read -r w; read -r d; } < <(rec "$A" "${keys[@]}")
q=$(fabric_stat "$R" r1 trimmed)
if all_set "$q0" "$n0" "$t0" "$r0" "$qa0" "$w0" "$q" "$n" "$t" "$r" "$qa" "$w"; then
	q=$((q - q0)) n=$((n - n0)) t=$((t - t0)) r=$((r - r0)) qa=$((qa - qa0)) w=$((w - w0))
	log "# defaults: $((d - d0)) data packets, port trimmed $q, trim NACKs $n, rtx_trim $t," \
		"timer expiries $r, Quick Adapt $qa, trimming_no_trims $w"
	(( q > 0 && n > 0 && n <= q && t == n ))
	check $? "defaults (MRC: TrimmingEnabled marks data trimmable): the port trimmed, each trim NACKed and sent again at once (recovered without a timer)"
	(( qa > 0 ))
	check $? "defaults: Quick Adapt fired on the trims (total_qa_count through fabctl)"
	# a timer that expires before the first trim NACK (the VM's RTTs can
	# pass the RTO's 10 ms floor on a slow kernel) rightly gives the
	# warning; on a path that trims and a machine that keeps up, never
	(( w == 0 || r > 0 ))
	check $? "defaults: the validation warning stays silent where the path trims (timer expiries: $r)"
else
	check 1 "defaults: the records could be read through fabctl and tc"
fi
# the pages' records: base_rtt_ns 0 before the first sample, then the
# lowest base RTT a window reached (config_base_rtt_ns, 6000, is below any
# RTT of the VM); the samples' minimum, mean and maximum; num_quick_adapt
# the UET page's name of total_qa_count
{ read -r b; read -r mn; read -r me; read -r mx; read -r nq; read -r tq; } < <(rec "$A" \
	base_rtt_ns calc__rtt_ns_min calc__rtt_ns_mean calc__rtt_ns_max num_quick_adapt total_qa_count)
log "# records: base_rtt_ns $b0 then $b, calc__rtt_ns min $mn mean $me max $mx, num_quick_adapt $nq"
all_set "$b0" "$b" "$mn" "$me" "$mx" "$nq" "$tq" &&
	(( b0 == 0 && b == 6000 && mn > 0 && mn <= me && me <= mx && nq == tq ))
check $? "records through fabctl: base_rtt_ns 0 before a sample, then the lowest base RTT; RTT min <= mean <= max"

# trimming_enabled 0: data not trimmable, and a port deeper than the max
# window (450 KB at the defaults), so that nothing is lost and nothing
# retransmitted; the queueing delay above 24 us triggers Quick Adapt.
ip netns exec "$A" sysctl -qw net.mrt.trimming_enabled=0 || exit 1
tcf -n "$R" qdisc change dev r1 root fabric limit 4mb || exit 1
{ read -r n0; read -r qa0; } < <(rec "$A" total_nack_trimmed_rx total_qa_count)
q0=$(fabric_stat "$R" r1 trimmed)
mrt_xfer "$A" "$B" 198.18.2.1 notrim --count 40 --max-size 262144 --seed 18
mrt_xfer_ok notrim 40 && mrt_confirmed notrim 40
check $? "trimming_enabled 0: 40 messages arrive once each, intact, confirmed"
{ read -r n; read -r qa; } < <(rec "$A" total_nack_trimmed_rx total_qa_count)
q=$(fabric_stat "$R" r1 trimmed)
if all_set "$q0" "$n0" "$qa0" "$q" "$n" "$qa"; then
	log "# trimming_enabled 0: port trimmed $((q - q0)), trim NACKs $((n - n0))," \
		"Quick Adapt $((qa - qa0))"
	(( q == q0 && n == n0 && qa > qa0 ))
	check $? "trimming_enabled 0: nothing trimmable, nothing trimmed; Quick Adapt fired on its delay trigger"
else
	check 1 "trimming_enabled 0: the records could be read"
fi

# The group (QPGroupsEnabled, the page's default true): two sockets of A
# sending to B share one window, one destination with both PDCs; with
# qp_groups_enabled 0 each PDC has its own.  B's sockets only receive.
ip netns exec "$A" sysctl -qw net.mrt.trimming_enabled=auto || exit 1
ip netns exec "$B" python3 -c '
import socket, time
ss = [socket.socket(socket.AF_INET, socket.SOCK_RDM, 253) for _ in range(2)]
for i, s in enumerate(ss):
    s.bind(("198.18.2.1", 7100 + i))
open("'"$MRT_J"'/grp.ready", "w").close()
time.sleep(60)' &
rcv=$!
busywait 10000 test -e "$MRT_J/grp.ready" || exit 1
# dests2: with two sockets of A sending a message each and still open,
# A's lines of /proc/net/mrt/dests for B
dests2() {
	ip netns exec "$A" python3 -c '
import socket, time
ss = [socket.socket(socket.AF_INET, socket.SOCK_RDM, 253) for _ in range(2)]
for i, s in enumerate(ss):
    s.sendto(b"x" * 3000, ("198.18.2.1", 7100 + i))
time.sleep(0.5)
print(open("/proc/net/mrt/dests").read(), end="")' | awk '$1 ~ /198\.18\.2\.1$/'
}
g=$(dests2)
log "# qp_groups_enabled 1: $g"
[[ $(wc -l <<<"$g") == 1 ]] && awk '{ exit !($2 >= 2 && $12 == 1) }' <<<"$g"
check $? "QPGroupsEnabled true (default): two sockets' PDCs to one address share one window"
ip netns exec "$A" sysctl -qw net.mrt.qp_groups_enabled=0 || exit 1
g=$(dests2)
log "# qp_groups_enabled 0: $g"
[[ $(wc -l <<<"$g") == 2 ]] && awk '$12 != 0 { exit 1 }' <<<"$g"
check $? "qp_groups_enabled 0: each PDC has a window of its own, both listed (ungrouped)"
ip netns exec "$A" sysctl -qw net.mrt.qp_groups_enabled=1 || exit 1
kill $rcv 2>/dev/null
wait $rcv 2>/dev/null

# The group lives while a PDC to or from the address is open: A sends to
# B, B answers on a PDC of its own; once A's sending PDC has gone idle
# (pdc_idle_ms 1000), B's to A (twice as long) still holds A's window for
# B; once it goes too, so does the window.
mrt_tune_idle() { ip netns exec "$1" sysctl -qw net.mrt.pdc_idle_ms=1000; }
mrt_tune_idle "$A" && mrt_tune_idle "$B" || exit 1
rm -f "$MRT_J/grp.ready"
ip netns exec "$B" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_RDM, 253)
s.bind(("198.18.2.1", 7100))
open("'"$MRT_J"'/grp.ready", "w").close()
data, peer = s.recvfrom(65536)
time.sleep(0.2)
s.sendto(b"y" * 100, peer)
time.sleep(30)' &
rcv=$!
busywait 10000 test -e "$MRT_J/grp.ready" || exit 1
ip netns exec "$A" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_RDM, 253)
s.bind(("198.18.1.1", 7101))
s.sendto(b"x" * 100, ("198.18.2.1", 7100))
s.recvfrom(65536)
time.sleep(30)' &
snd=$!
role_n() { ip netns exec "$A" awk -v r="$1" '$3 == r { n++ } END { print n + 0 }' /proc/net/mrt/pdcs; }
b_dest() { ip netns exec "$A" awk '$1 ~ /198\.18\.2\.1$/ { n++ } END { print n + 0 }' /proc/net/mrt/dests; }
# A's destinations, then its PDCs, read together (one process, in that
# order): B's receiving PDC, open in the second read, was open in the
# first, so that the window is judged while it was (a slow VM's polls
# are a second apart, as far apart as the two idle timeouts).
grp=""
no_tx_yes_rx() {
	grp=$(ip netns exec "$A" awk '
		FILENAME ~ /dests/ && $1 ~ /198\.18\.2\.1$/ { d++ }
		FILENAME ~ /pdcs/ && $3 == "tx" { tx++ }
		FILENAME ~ /pdcs/ && $3 == "rx" { rx++ }
		END { print d + 0, tx + 0, rx + 0 }' /proc/net/mrt/dests /proc/net/mrt/pdcs)
	[[ $grp == *" 0 "[1-9]* ]]
}
busywait 20000 no_tx_yes_rx
check $? "A's sending PDC to B went idle while B's to A is open"
[[ $grp == "1 "* ]]
check $? "the pages' group lives while any PDC to or from the destination is open: A's window for B stays ($grp: dests, tx, rx)"
rx_gone() { [[ $(role_n rx) == 0 ]]; }
dest_gone() { [[ $(b_dest) == 0 ]]; }
busywait 20000 rx_gone && busywait 5000 dest_gone
check $? "once none is open, the window goes (the next message starts a new one at the max window)"
kill $snd $rcv 2>/dev/null
wait $snd $rcv 2>/dev/null
mrt_snmp "$A"
exit $RET

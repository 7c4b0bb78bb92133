#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's demo, run inside the VM by "make demo": two NSCC (uet)
# senders share a 100 Mbit/s sch_fabric switch port that marks ECN from
# 20 kB of queue; the second joins 3 s after the first.
#
#   A1 (198.18.1.1) --\
#                      R (switch) --- sch_fabric 100 Mbit/s --- B (198.18.3.1)
#   A2 (198.18.2.1) --/
#
# It prints each flow's goodput, the port's marks, drops and queueing delay
# (its histogram), and a summary of the nscc_update tracepoint: window
# range, routines taken, and the window over time.
#
# Knobs (environment): PORT_RATE (default 100mbit), ECN_MIN (20kb),
# ECN_MAX (60kb), NIC_RATE_MBPS (10000), BASE_RTT_NS (200000).
top=$(cd "$(dirname "$0")/../.." && pwd)
PORT_RATE=${PORT_RATE:-100mbit}
ECN_MIN=${ECN_MIN:-20kb}
ECN_MAX=${ECN_MAX:-60kb}
NIC_RATE_MBPS=${NIC_RATE_MBPS:-10000}
BASE_RTT_NS=${BASE_RTT_NS:-200000}
source "$top/selftests/vm/lib.sh"
XFER=$top/selftests/vm/tcpxfer.py

allow_cc nscc || exit 1
setup_ns A1 A2 R B
SUBNET=1 link_ns "$A1" a0 1 "$R" r1 2
SUBNET=2 link_ns "$A2" a0 1 "$R" r2 2
SUBNET=3 link_ns "$B" b0 1 "$R" r3 2
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
ip -n "$A1" route add default via 198.18.1.2
ip -n "$A2" route add default via 198.18.2.2
ip -n "$B" route add default via 198.18.3.2
tcf -n "$R" qdisc add dev r3 root fabric rate "$PORT_RATE" limit 1mb \
	ecn_min "$ECN_MIN" ecn_max "$ECN_MAX" ecn_prob 20

for ns in "$A1" "$A2" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=nscc
	ip netns exec "$ns" sysctl -qw net.nscc.flavour=uet
	ip netns exec "$ns" sysctl -qw net.nscc.data_rate_mbps="$NIC_RATE_MBPS"
	ip netns exec "$ns" sysctl -qw net.nscc.config_base_rtt_ns="$BASE_RTT_NS"
	# 4 x the target, as UET 1.0 recommends; the 24 us default is for 6 us fabrics.
	ip netns exec "$ns" sysctl -qw net.nscc.quick_adapt_threshold_ns=$((4 * BASE_RTT_NS))
done
echo "== NSCC (uet) demo: two flows into one $PORT_RATE sch_fabric port marking ECN from $ECN_MIN"
echo "   senders' attributes:$(for a in flavour data_rate_mbps config_base_rtt_ns \
	quick_adapt_threshold_ns; do printf ' %s=%s' $a "$(ip netns exec "$A1" sysctl -n net.nscc.$a)"; done)"

trace_on nscc
ip netns exec "$B" python3 "$XFER" server 198.18.3.1 6001 >/dev/null &
ip netns exec "$B" python3 "$XFER" server 198.18.3.1 6002 >/dev/null &
ip netns exec "$A1" python3 "$XFER" client 198.18.3.1 6001 --seconds 8 >/tmp/demo1 &
sleep 3
ip netns exec "$A2" python3 "$XFER" client 198.18.3.1 6002 --seconds 5 >/tmp/demo2 &
wait
trace_off nscc

for i in 1 2; do
	b=$(sed -n 's/^bytes=\([0-9]*\) .*/\1/p' /tmp/demo$i)
	secs=$((i == 1 ? 8 : 5))
	echo "flow $i: ${b:-0} bytes in $secs s = $((${b:-0} * 8 / secs / 1000000)) Mbit/s"
done
echo "== switch port (tc -s qdisc show dev r3)"
tcf -n "$R" -s qdisc show dev r3 | sed 's/^/   /'
echo "== sender counters (/proc/net/nscc_stat in A1)"
ip netns exec "$A1" grep -E '^(sockets|acks|ecn_acks|md_cuts|qa_fired|lost_packets|rto) ' \
	/proc/net/nscc_stat | tr '\n' ' '
echo
echo "== window trace (nscc:nscc_update)"
python3 "$top/tools/demo/trace_summary.py" $TRACEFS/trace

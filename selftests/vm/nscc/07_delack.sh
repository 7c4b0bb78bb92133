#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Out of the box on an ordinary path: nscc at every default (the spec's
# 400 Gbit/s and 6 us, so the VM's 50-300 us RTT reads as queueing and
# the window falls to its floor) over a plain veth to receivers that
# delay the ACK of a lone segment by 40 ms or more.  The spec's floor is
# one packet; TCP's is two segments, and one would stall the flow at a
# packet per delayed ACK.  Two receivers: cubic (no ECN: its listener
# refuses an ECT SYN), and dctcp, whose listener grants ECN, so nscc runs
# its ECN twin, where it used to allow one segment.  Checks, on TCP_INFO
# samples taken every 64 kB:
#   - each flow carried its data intact (dctcp's with ECN);
#   - the window reached the floor and never went below two segments;
#   - the receiver ACKed at once, not on its delayed-ACK timer (fewer
#     timer firings than 5 % of the segments it received).
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
modprobe tcp_dctcp || exit 1
allow_cc dctcp || exit 1
P=/sys/module/tcp_nscc/parameters
defer "echo $(cat $P/flavour) > $P/flavour"
echo uet > $P/flavour
setup_ns A B
link_ns "$A" a0 1 "$B" b0 2
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

floor_held() {
	jq -s -e 'length > 0 and all(.cwnd >= 2) and any(.cwnd == 2)' "$1" >/dev/null
}

delack_flow "$INFO" 5950 nscc cubic
check $? "nscc to a cubic receiver: the flow arrived intact"
floor_held "$INFO"
check $? "the window reached its floor, two segments, and never went below"
few_delacks
check $? "the receiver ACKed at once ($DELACKS delayed-ACK timeouts, $SEGS segments)"

delack_flow "$INFO.d" 5951 nscc dctcp
check $? "nscc to a dctcp receiver: the flow arrived intact"
jq -s -e '.[-1].cc == "nscc" and .[-1].ecn' "$INFO.d" >/dev/null
check $? "the connection ran nscc with ECN"
floor_held "$INFO.d"
check $? "with ECN too, the window reached its floor and never went below two segments"
few_delacks
check $? "the receiver ACKed at once ($DELACKS delayed-ACK timeouts, $SEGS segments)"
exit $RET

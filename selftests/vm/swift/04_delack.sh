#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Out of the box on an ordinary path: swift's window below two packets,
# which its defaults reach on any VM path (a 25 us base target against a
# 50-300 us RTT), over a plain veth to a receiver running cubic, which
# delays the ACK of a lone segment by 40 ms or more.  Swift's own window
# goes down to min_cwnd; TCP keeps two segments out, sends them as one
# burst and paces the bursts at the rate the window asks for, since one
# segment would wait for each delayed ACK.  So that the floor is reached
# on any machine, the target is 1 ns (base_target_ns 1, hops and
# fs_range_ns 0: every delay is above it); min_cwnd is one packet rather than the
# default 0.01, at which the flow would be paced at 1 % of a packet per
# RTT and the test would wait on the machine's speed for its samples.
# Checks, on TCP_INFO samples taken every 64 kB:
#   - the flow carried its data intact;
#   - the window reached the floor and never went below two segments,
#     and at the floor the flow was paced;
#   - the receiver ACKed at once, not on its delayed-ACK timer (fewer
#     timer firings than 5 % of the segments it received).
source "$(dirname "$0")/../lib.sh"

allow_cc swift || exit 1
setup_ns A B
link_ns "$A" a0 1 "$B" b0 2
for a in min_cwnd=1000 base_target_ns=1 hops=0 fs_range_ns=0; do
	ip netns exec "$A" sysctl -qw "net.swift.$a" || exit 1
done
INFO=$(mktemp)
defer "rm -f $INFO $INFO.*"

delack_flow "$INFO" 5960 swift cubic
check $? "swift to a cubic receiver: the flow arrived intact"
jq -s -e 'length > 0 and all(.cwnd >= 2) and any(.cwnd == 2)' "$INFO" >/dev/null
check $? "the window reached its floor, two segments, and never went below"
jq -s -e 'map(select(.stable and .cwnd == 2)) | length > 0 and
	  any(.pacing_rate < 18446744073709551615)' "$INFO" >/dev/null
check $? "at the floor the flow is paced"
few_delacks
check $? "the receiver ACKed at once ($DELACKS delayed-ACK timeouts, $SEGS segments)"
exit $RET

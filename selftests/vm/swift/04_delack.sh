#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Out of the box on an ordinary path: swift's window below two packets,
# which its defaults reach on any VM path (a 25 us base target against a
# 50-300 us RTT), over a plain veth to a receiver running cubic, which
# delays the ACK of a lone segment by 40 ms or more.  Swift's own window
# goes down to min_cwnd; below two packets TCP sends two segments as one
# burst (snd_cwnd 4: tcp_cwnd_test() gives one skb at most half the
# window) and paces the bursts at the rate the window asks for, since one
# segment would wait for each delayed ACK.  With snd_cwnd 2 the pair left
# as two skbs a pacing gap (srtt / window) apart, and on a slow kernel
# (srtt 40 ms) the receiver's timer met the first of every other pair.
# So that the floor is reached on any machine, the target is 1 ns
# (base_target_ns 1, hops and fs_range_ns 0: every delay is above it);
# min_cwnd is one packet rather than the default 0.01, at which the flow
# would be paced at 1 % of a packet per RTT and the test would wait on
# the machine's speed for its samples.
# Checks, on TCP_INFO samples taken every 64 kB:
#   - the flow carried its data intact;
#   - the window went below two packets: snd_cwnd 4 and paced; snd_cwnd
#     never went below two;
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
jq -s -e 'length > 0 and all(.cwnd >= 2)' "$INFO" >/dev/null
check $? "snd_cwnd never went below two segments"
jq -s -e 'map(select(.stable and .cwnd == 4)) | length > 0 and
	  any(.pacing_rate < 18446744073709551615)' "$INFO" >/dev/null
check $? "below two packets the flow is paced in bursts of two (snd_cwnd 4)"
few_delacks
check $? "the receiver ACKed at once ($DELACKS delayed-ACK timeouts, $SEGS segments)"
exit $RET

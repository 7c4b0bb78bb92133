#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fabctl sock show: a live nscc socket, found through sock_diag, decoded
# under nscc's own field names: its window and the base RTT it runs on.
# The path has a 2 ms netem delay, a floor no RTT can go below, so a base
# RTT read in the wrong unit cannot pass; ss, which reads the same field
# through BBR's layout, is read first, and a base RTT only ever falls.
source "$(dirname "$0")/../lib.sh"

XFER=$TOP/selftests/vm/tcpxfer.py
require_cmd jq || exit $ksft_skip
allow_cc nscc || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
ip netns exec "$A" tc qdisc add dev a0 root netem delay 2ms limit 10000 || exit 1
ip netns exec "$A" sysctl -qw net.nscc.config_base_rtt_ns=2000000 net.nscc.data_rate_mbps=1000

ip netns exec "$B" python3 "$XFER" server 198.18.0.2 5001 --cc nscc >/dev/null &
srv=$!
hold_new HOLD
ip netns exec "$A" python3 "$XFER" client 198.18.0.2 5001 --while-exists "$HOLD" --cc nscc \
	>/dev/null &
cli=$!
defer "rm -f $HOLD; kill $cli $srv 2>/dev/null"
J=$(mktemp /tmp/sock.XXXXXX)
defer "rm -f $J"
sel='[.[] | select(.cc == "nscc" and .remote == "198.18.0.2:5001")][0]'
busywait 30000 sh -c "ip netns exec $A $FABCTL -j sock show >$J &&
	jq -e '$sel | .window_bytes > 0' $J >/dev/null"
check $? "sock show lists the sender's nscc socket with a window"

mrtt=$(ip netns exec "$A" ss -tinH dst 198.18.0.2 | grep -o 'mrtt:[0-9.]*' | head -1)
mrtt_us=$(awk -v m="${mrtt#mrtt:}" 'BEGIN { printf "%d", m * 1000 + 0.5 }')
ip netns exec "$A" "$FABCTL" -j sock show >"$J"
base=$(jq "$sel | .base_rtt_us" "$J")
[[ $base =~ ^[0-9]+$ ]] && ((base >= 2000 && base <= mrtt_us))
check $? "its base RTT is at least the 2 ms delay and at most what ss showed before ($base us, ss $mrtt)"
jq -e "$sel | .window_ratio > 0 and .window_ratio <= 1 and .rate_bps > 0 and .snd_cwnd >= 2" \
	"$J" >/dev/null
check $? "window over max window in (0, 1], a rate, and TCP's cwnd of at least 2 ($(jq -c "$sel" "$J"))"
ip netns exec "$A" "$FABCTL" sock show | grep -Eq 'cc nscc .*base_rtt_us [0-9]+'
check $? "the text output names the fields"
ip netns exec "$A" "$FABCTL" -j -p sock show | jq -e 'length >= 1' >/dev/null
check $? "-j -p prints valid JSON"
rm -f "$HOLD"
wait $cli $srv
exit $RET

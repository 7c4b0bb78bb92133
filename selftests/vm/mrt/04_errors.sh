#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Messages that cannot be delivered are reported on the sender's error
# queue with their cookie, and the socket goes on serving other peers:
#   - no socket bound to the peer's endpoint: ECONNREFUSED (a NO_ENDPOINT
#     NACK from the peer);
#   - no route to the peer: EHOSTUNREACH once the retry budget is spent;
#   - the peer's namespace deleted mid-conversation: ETIMEDOUT once the
#     retry budget (3 timer expiries) is spent;
# and the send-side limits: a message above SO_SNDBUF is EMSGSIZE with
# MSG_DONTWAIT, and streamed through the buffer without (to a peer with no
# socket, the PDC's ECONNREFUSED is the call's error while the message is
# still being queued); a full send buffer with MSG_DONTWAIT is EAGAIN.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

E=$TOP/selftests/vm/mrt/errq.py
ECONNREFUSED=111
EHOSTUNREACH=113
ETIMEDOUT=110
mrt_setup || exit 1
switch_topo || exit 1
setup_ns C || exit 1
SUBNET=3 link_ns "$C" c0 1 "$R" r3 2
ip -n "$C" route add 198.18.1.0/24 via 198.18.3.2
ip -n "$A" route add 198.18.3.0/24 via 198.18.1.2
mrt_tune "$A" "$B" "$C" retry_budget=3 rto_max_us=200000 || exit 1

# syn_som TRACE: a data packet went with SYN and SOM, not RETX (AR and
# TRIMMABLE as the defaults have them)
syn_som() {
	local f
	for f in $(grep -o 'mrt_tx: .* flags=0x[0-9a-f]*' "$1" | sed 's/.*flags=//'); do
		(( (f & 0x09) == 0x09 && !(f & 0x04) )) && return 0
	done
	return 1
}

errno_is() { jq -e --argjson e "$2" --argjson c "$3" \
	'.errno == $e and .cookie == $c and .type == 1 and .origin == 1 and .errqueue_flag' <<<"$1" >/dev/null; }

# B listens on 7000 (its tunnel is open); nothing is bound to 7001.
ip netns exec "$B" python3 "$E" serve 198.18.2.1 7000 1 "$MRT_J/b.ready" >"$MRT_J/b.out" &
srvb=$!
defer "kill $srvb 2>/dev/null"
busywait 10000 test -e "$MRT_J/b.ready"
trace_on mrt || { check 1 "the mrt tracepoints exist"; exit 1; }
r=$(ip netns exec "$A" python3 "$E" fail 198.18.2.1 7001 4242 30)
trace_save "$MRT_J/trace"
trace_off mrt
log "# no endpoint: $r"
errno_is "$r" $ECONNREFUSED 4242
check $? "no socket on the peer's endpoint: ECONNREFUSED with the message's cookie"
grep -q 'mrt_nack: .* code=no_endpoint' "$MRT_J/trace" &&
	grep -q 'mrt_pdc_state: .* role=tx state=closed peer=::ffff:198.18.2.1 peer_ep=7001 err=111' \
		"$MRT_J/trace" &&
	syn_som "$MRT_J/trace" &&
	grep -q 'mrt_nscc_update: .* routine=send' "$MRT_J/trace"
check $? "tracepoints: the first packet (SYN SOM), NSCC's send, the NACK, the PDC closed with ECONNREFUSED"
[[ $(mrt_stat "$B" no_endpoint) -ge 1 && $(mrt_stat "$A" nack_no_endpoint_rx) -ge 1 ]]
check $? "the peer counted it (no_endpoint) and NACKed it (nack_no_endpoint_rx)"

r=$(ip netns exec "$A" python3 "$E" fail 198.19.99.1 7000 4343 30 | head -1)
log "# no route: $r"
errno_is "$r" $EHOSTUNREACH 4343
check $? "no route to the peer: EHOSTUNREACH with the cookie"

# C serves the message sent after B is gone.
ip netns exec "$C" python3 "$E" serve 198.18.3.1 7000 1 "$MRT_J/c.ready" >"$MRT_J/c.out" &
srvc=$!
busywait 10000 test -e "$MRT_J/c.ready"
kill $srvb 2>/dev/null
wait $srvb 2>/dev/null
ip netns del "$B"
# the namespace itself goes later (cleanup_net's work), and with it R's r1:
# until then B would refuse the message (no endpoint), not lose it
r1_gone() { ! ip -n "$R" link show r1 >/dev/null 2>&1; }
busywait 60000 r1_gone
check $? "B's namespace is gone (R's r1 with it)"
r=$(ip netns exec "$A" python3 "$E" fail 198.18.2.1 7000 4444 30 198.18.3.1)
log "# peer gone: $r"
errno_is "$(head -1 <<<"$r")" $ETIMEDOUT 4444
check $? "the peer's namespace gone: ETIMEDOUT with the cookie after the retry budget"
wait $srvc
jq -e '.received == 1' "$MRT_J/c.out" >/dev/null
check $? "the same socket then delivers to another peer"
[[ $(mrt_stat "$A" retry_budget_exhausted) -ge 2 ]]
check $? "retry_budget_exhausted counted both"

r=$(ip netns exec "$A" python3 "$E" limits 198.18.3.1 7000)
log "# limits: $r"
jq -e '.above_sndbuf == 90' <<<"$r" >/dev/null
check $? "a message above SO_SNDBUF with MSG_DONTWAIT: EMSGSIZE"
jq -e '.streamed == 111' <<<"$r" >/dev/null
check $? "one streamed through the buffer fails with its PDC: ECONNREFUSED from the call"
jq -e '.dontwait_sent >= 1 and .dontwait_errno == 11' <<<"$r" >/dev/null
check $? "a full send buffer with MSG_DONTWAIT: EAGAIN"
mrt_snmp "$A"
exit $RET

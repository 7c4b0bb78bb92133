#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A receiver that closes its socket as soon as it has every message, while
# its ACKs are lost: its PDC lingers (state "linger"), acknowledges the
# sender's retransmissions of what it received, so the sender confirms
# every message as delivered (not ECONNRESET or ETIMEDOUT for messages
# that arrived); a new message to the closed endpoint fails at once; and
# the lingering PDC goes once the sender has been quiet for twice B's
# rto_max_us.  IPv4.
#   0. A's host takes B's cookie with one message from another socket,
#      which stays open (the destination keeps the cookie), so that the
#      PDC of step 1 opens without an answer from B;
#   1. B's egress drops everything (netem loss 100 %): 6 small messages
#      reach the server, which exits; A has no ACK;
#   2. B's egress repaired: A's next retransmissions are answered by the
#      lingering PDC, and A confirms all 6;
#   3. one more message: refused (the endpoint is gone), reported failed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
# no neighbour resolution behind B's blackout
neigh_pin "$A" a0 "$B" b0 198.18.0.2 2001:db8::2
neigh_pin "$B" b0 "$A" a0 198.18.0.1 2001:db8::1
# A: time to spare for step 2 on a slow machine (30 timer expiries of at
# most 1 s); B: a linger of 2 x 5 s without a packet
mrt_tune "$A" retry_budget=30 || exit 1
mrt_tune "$B" rto_max_us=5000000 || exit 1
ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --count 7 --timeout 60 \
	--ready "$MRT_J/ready" >"$MRT_J/srv" &
srv=$!
busywait 10000 test -e "$MRT_J/ready"
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 2 --max-size 100 \
	--confirm --wait 60 --cookie-base 9000 --pause-at 1 --pause-dir "$MRT_J" >/dev/null &
warm=$!
defer "kill $warm 2>/dev/null"
busywait 30000 test -e "$MRT_J/paused.1"
check $? "step 0: A's host has B's cookie (one message confirmed)"
ip netns exec "$B" tc qdisc add dev b0 root netem loss 100% || exit 1
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 6 --max-size 200 \
	--confirm --wait 60 >"$MRT_J/lg.cli" &
cli=$!
wait $srv
log "# server: $(cat "$MRT_J/srv")"
jq -e '.received == 7 and .bad == 0 and .dups == 0' "$MRT_J/srv" >/dev/null
check $? "step 1: with B's ACKs dropped, the server got its 6 messages (and step 0's) and closed"
state=$(ip netns exec "$B" awk '$3 == "rx" { print $4 }' /proc/net/mrt/pdcs | sort -u)
[[ $state == linger ]]
check $? "the receiving PDC lingers after its socket closed ($state)"
"$FABCTL" -n "$B" -j mrt pdc show | jq -e '[.[] | select(.role == "rx")][0].state == "linger"' \
	>/dev/null
check $? "fabctl mrt pdc show says so"
ip netns exec "$B" tc qdisc del dev b0 root
wait $cli
log "# client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/lg.cli")"
mrt_confirmed lg 6
check $? "step 2: B's ACKs back, the lingering PDC answered A's retransmissions: 6 confirmed, none failed"
dup=$(mrt_stat "$B" dup_pkts_in)
((dup > 0))
check $? "B acknowledged retransmissions of what it had ($dup duplicates)"

ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 1 --max-size 100 \
	--confirm --wait 30 --cookie-base 5000 >"$MRT_J/cli2"
log "# after: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/cli2")"
jq -e '.confirmed == 0 and (.errors | length) == 1' "$MRT_J/cli2" >/dev/null
check $? "step 3: a message to the closed endpoint fails, reported ($(jq -c '[.errors[].errno]' "$MRT_J/cli2"))"
gone() { ! ip netns exec "$B" awk '$3 == "rx"' /proc/net/mrt/pdcs | grep -q .; }
busywait 60000 gone
check $? "the lingering PDC went once A was quiet"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

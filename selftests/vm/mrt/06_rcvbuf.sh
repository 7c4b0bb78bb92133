#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A receiver that stops reading, with the uet flavour (which has the
# receiver penalty): the sender's MSG_DONTWAIT sends get EAGAIN, the
# receive buffer holds at most SO_RCVBUF plus the one message allowed past
# it, the kernel's slab memory stays within a few MB of where it was, and
# the ACKs carry a receiver penalty that the sender's destination shows.
# Reading again drains everything: every message arrives once, intact.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }

mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" flavour=uet || exit 1
slab0=$(slab_kb)

rm -f "$MRT_J/stall"
ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --count 600 --rcvbuf 1048576 \
	--stall 15 --stall-report "$MRT_J/stall" --timeout 200 --ready "$MRT_J/ready" \
	>"$MRT_J/srv" &
srv=$!
busywait 10000 test -e "$MRT_J/ready"
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 600 --max-size 65536 \
	--sndbuf 1048576 --dontwait --confirm --wait 200 >"$MRT_J/cli" &
cli=$!

pen() { ip netns exec "$A" awk '$1 != "addr" && $9 > 0 { f = 1 } END { exit !f }' /proc/net/mrt/dests; }
busywait 14000 pen
check $? "while the receiver does not read, the sender's destination shows a receiver penalty"
grow=$(( $(slab_kb) - slab0 ))
log "# slab grew by $grow kB while the receiver stalled"
(( grow < 16384 ))
check $? "kernel slab memory stays bounded while the receiver stalls (+$grow kB)"
wait $cli $srv
log "# server: $(cat "$MRT_J/srv")"
log "# client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/cli")"
log "# stall: $(cat "$MRT_J/stall")"
jq -e '.eagain > 0' "$MRT_J/cli" >/dev/null
check $? "the sender met a full send buffer: EAGAIN"
jq -e '.peak_rmem <= .rcvbuf + 262144 and .peak_rmem > 0' "$MRT_J/stall" >/dev/null
check $? "the receive buffer held at most SO_RCVBUF and one message"
jq -e '.received == 600 and .bad == 0 and .dups == 0 and .distinct + .small == 600' \
	"$MRT_J/srv" >/dev/null
check $? "reading again drains it: 600 messages once each, intact"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The RTT of a PDC's opening (SYN) packets feeds the RTO estimator but not
# NSCC's base RTT: it holds the peer's PDC setup and, often, neighbour
# resolution.  A 300 ms netem delay on the sender's egress holds the first
# message (its SYN packet, and the ARP request before it: about 600 ms in
# all): the PDC's smoothed RTT shows that sample; with the delay gone, five
# more messages, one at a time, and the base RTT NSCC learnt
# (config_base_rtt_ns 0) is of those alone, far below 300 ms.  Had the SYN
# sample counted, five smoothed samples would still leave it above 300 ms.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
# a 2 s retransmission floor: the SYN goes once and gives a sample (Karn)
mrt_tune "$A" "$B" rto_max_us=5000000 rto_min_us=2000000 || exit 1
ip netns exec "$A" tc qdisc add dev a0 root netem delay 300ms || exit 1

ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --count 6 --timeout 60 \
	--ready "$MRT_J/ready" >"$MRT_J/srv" &
srv=$!
busywait 10000 test -e "$MRT_J/ready" || { check 1 "the server starts"; exit 1; }
ip netns exec "$A" python3 - "$MRT_J" <<'PY' &
import os, select, socket, sys, time
d = sys.argv[1]
s = socket.socket(socket.AF_INET, 4, 253)
s.setsockopt(253, 3, 1)                 # MRT_CONFIRM
p = select.poll()
p.register(s, select.POLLERR)
for i in range(6):
    if i == 1:                          # the SYN answered: wait for the path to clear
        open(os.path.join(d, "first"), "w").close()
        t = time.monotonic() + 30
        while not os.path.exists(os.path.join(d, "go")) and time.monotonic() < t:
            time.sleep(0.05)
    s.sendto(b"m%d" % i, ("198.18.0.2", 7000))
    if not p.poll(30000):
        sys.exit(f"no confirmation of message {i}")
    s.recvmsg(64, 512, socket.MSG_ERRQUEUE)
open(os.path.join(d, "sent"), "w").close()     # the socket stays until "end"
t = time.monotonic() + 30
while not os.path.exists(os.path.join(d, "end")) and time.monotonic() < t:
    time.sleep(0.05)
PY
cli=$!
busywait 20000 test -e "$MRT_J/first" || { check 1 "the first message is confirmed"; exit 1; }
"$FABCTL" -n "$A" -j mrt pdc show >"$MRT_J/pdc"
log "# after the first message: $(jq -c '.[] | {role, state, srtt_us, rto_us}' "$MRT_J/pdc")"
jq -e '.[] | select(.role == "tx") | .srtt_us >= 300000' "$MRT_J/pdc" >/dev/null
check $? "the SYN packet's 300 ms RTT is the PDC's first RTT sample"
ip netns exec "$A" tc qdisc del dev a0 root
touch "$MRT_J/go"
busywait 20000 test -e "$MRT_J/sent"
check $? "five more messages, each confirmed"
"$FABCTL" -n "$A" -j mrt dest show >"$MRT_J/dest"
touch "$MRT_J/end"
wait $cli $srv
log "# destination: $(jq -c '.[0] | {base_rtt_ns, srtt_us, cwnd_bytes, max_cwnd_bytes}' "$MRT_J/dest")"
jq -e '.[0].base_rtt_ns > 6000 and .[0].base_rtt_ns < 100000000' "$MRT_J/dest" >/dev/null
check $? "NSCC's learnt base RTT is of the later samples only (under 100 ms, not 300)"
exit $RET

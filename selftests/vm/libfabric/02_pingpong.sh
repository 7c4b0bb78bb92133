#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fi_pingpong (Debian's libfabric-bin: a client no one here wrote) over
# the mrt provider between two namespaces, its data checked (-c): message
# sizes 1 B, 4 KiB and 1 MiB, untagged and tagged, IPv4 and IPv6 (1 MiB),
# and through netem loss, reordering and duplication.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/fi_lib.bash"
require_cmd fi_pingpong

fi_pair || exit 1
PP_DST=198.18.0.2
for s in 1 4096 1048576; do
	iters=50
	((s >= 65536)) && iters=10
	pingpong "v4-$s" -c -S "$s" -I $iters
	check $? "IPv4: $iters round trips of $s bytes, data checked"
done
log "$(sed 's/^/# /' "$FI_J/v4-4096.cli")"
pingpong v4-tagged -c -m tagged -S 4096 -I 50
check $? "IPv4, tagged: 50 round trips of 4096 bytes"

PP_DST=2001:db8::2
before=$(udp6_in "$B")
# (a libfabric process costs a second under TCG: one size here, 1 MiB,
# which the provider sends as many packets)
FI_MRT_ADDR_FORMAT=inet6 pingpong v6-1048576 -6 -c -S 1048576 -I 10
check $? "IPv6: 10 round trips of 1048576 bytes"
after=$(udp6_in "$B")
log "# B's UDP over IPv6: $((after - before)) datagrams in"
check $((after - before < 20)) "the IPv6 runs went over IPv6: B took in their packets over UDP/IPv6"

# 5 % loss, reordering and duplication both ways: the kernel retransmits,
# fi_pingpong sees every message once, intact
PP_DST=198.18.0.2
tc -n "$A" qdisc add dev a0 root netem loss 5% delay 1ms reorder 25% 50% duplicate 2%
tc -n "$B" qdisc add dev b0 root netem loss 5% delay 1ms reorder 25% 50% duplicate 2%
for s in 1 1048576; do
	pingpong "lossy-$s" -c -S "$s" -I 10
	check $? "netem loss/reorder/duplicate: 10 round trips of $s bytes, data checked"
done
for ns in "$A" "$B"; do
	log "# $ns: $(ip netns exec "$ns" awk '$2 != 0 { printf "%s=%s ", $1, $2 }' /proc/net/mrt/snmp)"
done
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A size table ("tc qdisc add ... stab overhead 100 fabric ...") counts
# once per packet the port holds, whether the packet arrived whole, was cut
# from a GSO buffer here, or was trimmed here.  At 1 kbit/s nothing drains
# while the test looks, and every queued packet of a kind has one size, so
# one snapshot must show, exactly:
#   data_backlog = data packets x (1042 + 100)   (1000-byte UDP payload)
#   hdr_backlog  = hdr_packets x (142 + 100)     (trimmed to 128 + Ethernet)
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
# Only the test's datagrams in the port: no IPv6 link-local chatter on r1.
ip netns exec "$R" sysctl -qw net.ipv6.conf.r1.disable_ipv6=1

# snapshot: "qlen data_backlog hdr_backlog hdr_packets" of one dump.
snapshot() {
	tcf -n "$R" -s -j qdisc show dev r1 |
		jq -r '.[] | select(.kind == "fabric") | [.qlen, .data_backlog, .hdr_backlog, .hdr_packets] | @tsv'
}

# Whole datagrams above trim_at are trimmed; those below stay data.
tcf -n "$R" qdisc add dev r1 root stab overhead 100 fabric rate 1kbit limit 200kb \
	trim_at 20kb trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 64kb
check $? "port with a size table: stab overhead 100"
ip netns exec "$A" python3 "$U" send 198.18.2.1 7400 --count 60 --size 1000 --tos 0x28 >/dev/null
read -r qlen data hdr hdrp < <(snapshot)
log "trimming: qlen $qlen, data $data B, hdr $hdr B in $hdrp packets"
(( hdrp > 0 && hdr == hdrp * 242 ))
check $? "each trimmed packet counts 128 + 14 + 100 bytes"
(( qlen > hdrp && data == (qlen - hdrp) * 1142 ))
check $? "each whole datagram counts 1042 + 100 bytes"
tcf -n "$R" qdisc del dev r1 root

# UDP GSO: each send is cut into 10 datagrams at this qdisc.
tcf -n "$R" qdisc add dev r1 root stab overhead 100 fabric rate 1kbit limit 200kb
ip netns exec "$A" python3 "$U" send 198.18.2.1 7400 --count 5 --size 10000 --gso 1000 >/dev/null
read -r qlen data hdr hdrp < <(snapshot)
log "GSO: qlen $qlen, data $data B"
(( qlen >= 40 && data == qlen * 1142 ))
check $? "each GSO segment counts 1042 + 100 bytes"
exit $RET

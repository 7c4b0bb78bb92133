#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fi_info -p mrt: libfabric loads the provider from FI_PROVIDER_PATH and
# lists, per address of the namespace, an FI_EP_RDM endpoint with the
# capabilities and limits the transport has: FI_MSG, FI_TAGGED,
# FI_SOURCE, FI_SEND/FI_RECV, FI_SOCKADDR_IN and FI_SOCKADDR_IN6,
# FI_PROGRESS_AUTO, FI_THREAD_SAFE, and max_msg_size from
# net.mrt.max_msg_bytes less the 24-byte header.  Hints it cannot meet,
# and a namespace with no address it may use, list nothing (and return).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/fi_lib.bash"
require_cmd fi_info

fi_pair || exit 1
FI_MRT_IFACE=nosuch ip netns exec "$A" fi_info -p mrt >/dev/null 2>&1
check $(($? == 0)) "FI_MRT_IFACE naming no interface: fi_info -p mrt lists nothing"
# has TEXT LINE...: TEXT has each LINE, a whole line (fi_info prints YAML,
# with indentation); hasin TEXT STRING...: each STRING somewhere.  Bash's
# own matching: a grep per check costs under TCG.
has() {
	local t=$1 l
	shift
	for l in "$@"; do
		[[ $t =~ (^|$'\n')[[:space:]]*"$l"($|$'\n') ]] || return 1
	done
}
hasin() {
	local t=$1 l
	shift
	for l in "$@"; do
		[[ $t == *"$l"* ]] || return 1
	done
}
# count TEXT LINE: how many whole lines of TEXT are LINE
count() { grep -cx "[[:space:]]*$2" <<<"$1"; }

plain=$(ip netns exec "$A" fi_info -p mrt)
! hasin "$plain" 'domain: lo'
check $? "no loopback entry beside a0's (an endpoint there reaches no other host)"
out=$(ip netns exec "$A" fi_info -p mrt -d lo)
hasin "$out" 'domain: lo' && ! hasin "$out" 'domain: a0'
check $? "fi_info -d lo: loopback's entries, and only those"
out=$(ip netns exec "$A" fi_info -p mrt -v)
log "$(sed 's/^/# /' <<<"$plain")"
hasin "$out" 'prov_name: mrt'
check $? "fi_info -p mrt lists the provider"
n4=$(count "$out" 'addr_format: FI_SOCKADDR_IN')
n6=$(count "$out" 'addr_format: FI_SOCKADDR_IN6')
check $((n4 < 1 || n6 < 1)) "an entry for IPv4 and one for IPv6 ($n4, $n6)"
hasin "$out" 'type: FI_EP_RDM' && ! hasin "$out" 'type: FI_EP_MSG' && ! hasin "$out" 'type: FI_EP_DGRAM'
check $? "endpoint type FI_EP_RDM only"
caps=$(grep -m1 'caps:' <<<"$out")
log "# $caps"
ok=0
for c in FI_MSG FI_TAGGED FI_SOURCE FI_SEND FI_RECV; do
	[[ " ${caps//[^A-Z_0-9]/ } " == *" $c "* ]] || ok=1
done
check $ok "capabilities FI_MSG FI_TAGGED FI_SOURCE FI_SEND FI_RECV"
hasin "$out" 'data_progress: FI_PROGRESS_AUTO' 'threading: FI_THREAD_SAFE'
check $? "FI_PROGRESS_AUTO, FI_THREAD_SAFE"
hasin "$out" 'name: a0' 'fi_sockaddr_in://198.18.0.1:0'
check $? "the domain is the interface (a0), the source its address"
max=$(ip netns exec "$A" sysctl -n net.mrt.max_msg_bytes)
has "$out" "max_msg_size: $((max - 24))"
check $? "max_msg_size is max_msg_bytes ($max) less the header"
ip netns exec "$A" sysctl -qw net.mrt.max_msg_bytes=65536
out=$(ip netns exec "$A" fi_info -p mrt -v)
has "$out" "max_msg_size: $((65536 - 24))"
check $? "and follows it: 65536 gives $((65536 - 24))"
hasin "$out" 'mem_tag_format: 0xaaaaaaaaaaaaaaaa' 'inject_size: 8192'
check $? "64 tag bits; inject_size 8192"
out=$(FI_MRT_INJECT_SIZE=1024 ip netns exec "$A" fi_info -p mrt -v)
hasin "$out" 'inject_size: 1024'
check $? "FI_MRT_INJECT_SIZE=1024 sets inject_size"
out=$(FI_MRT_ADDR_FORMAT=inet6 ip netns exec "$A" fi_info -p mrt -v)
! has "$out" 'addr_format: FI_SOCKADDR_IN' && has "$out" 'addr_format: FI_SOCKADDR_IN6'
check $? "FI_MRT_ADDR_FORMAT=inet6 lists IPv6 only"
ip netns exec "$A" fi_info -p mrt -t FI_EP_MSG >/dev/null 2>&1
check $(($? == 0)) "hints it cannot meet (FI_EP_MSG) list nothing"
ip netns exec "$A" fi_info -p mrt -c FI_RMA >/dev/null 2>&1
check $(($? == 0)) "nor do FI_RMA hints"
out=$(ip netns exec "$A" fi_info -e)
n=0
for v in INJECT_SIZE SNDBUF RCVBUF IFACE ADDR_FORMAT; do
	grep -aq "FI_MRT_$v" <<<"$out" && n=$((n + 1))
done
check $((n != 5)) "fi_info -e lists the provider's five parameters ($n)"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the mrt tests, after ../lib.sh.

MRTMSG=$TOP/selftests/vm/mrt/mrtmsg.py
MRT_J=$(mktemp -d /tmp/mrt.XXXXXX)
defer "rm -rf $MRT_J"

# mrt_setup: the module, and socket buffers up to 64 MiB.
mrt_setup() {
	modprobe mrt || return 1
	sysctl -qw net.core.rmem_max=67108864 net.core.wmem_max=67108864
}

# mrt_jumbo_pair: namespaces A and B on a veth with a 9000-byte MTU and
# mss 8900 (a transfer's bytes in few packets), tuned for the VM.
mrt_jumbo_pair() {
	mrt_setup || return 1
	setup_ns A B || return 1
	link_ns "$A" a0 1 "$B" b0 2
	ip -n "$A" link set a0 mtu 9000
	ip -n "$B" link set b0 mtu 9000
	mrt_tune "$A" "$B" mss=8900
}

# mrt_paths [name=value...]: multipath_topo's four paths, each switch port
# a sch_fabric with a 4 MB buffer and no rate limit, S and D tuned for the
# VM (mrt_tune) with the arguments on top.
mrt_paths() {
	local i
	mrt_setup || return 1
	multipath_topo 4 || return 1
	for i in 1 2 3 4; do
		mp_port "$i" limit 4mb || return 1
	done
	mrt_tune "$S" "$D" "$@"
}

# mrt_tune NS... [name=value...]: net.mrt.* in each NS.  The VM's paths
# have no ECN and no known speed: a 1 Gbit/s rate, a base RTT learnt from
# the samples, and a retransmission floor of 20 ms, well above the VM's
# RTTs, unless the arguments say otherwise.
mrt_tune() {
	local nss=() sets=(data_rate_mbps=1000 config_base_rtt_ns=0 rto_min_us=20000) a ns
	for a in "$@"; do
		if [[ $a == *=* ]]; then sets+=("$a"); else nss+=("$a"); fi
	done
	for ns in "${nss[@]}"; do
		ip netns exec "$ns" sysctl -qw "${sets[@]/#/net.mrt.}" || return 1
	done
}

# mrt_xfer SRC DST ADDR TAG ARGS...: a digest-checked transfer of mrtmsg.py
# from SRC to a server in DST on ADDR:7000; the JSON of each side goes to
# $MRT_J/TAG.srv and TAG.cli (printed too).  ARGS go to both sides
# (--count, --max-size, --seed and the rest).
mrt_xfer() {
	local src=$1 dst=$2 addr=$3 tag=$4 srv
	shift 4
	rm -f "$MRT_J/$tag.ready"
	ip netns exec "$dst" python3 "$MRTMSG" server "$addr" 7000 --rcvbuf 33554432 \
		--timeout "${XFER_TIMEOUT:-200}" --ready "$MRT_J/$tag.ready" "$@" \
		>"$MRT_J/$tag.srv" &
	srv=$!
	busywait 10000 test -e "$MRT_J/$tag.ready" || { kill $srv; return 1; }
	ip netns exec "$src" python3 "$MRTMSG" client "$addr" 7000 --sndbuf 33554432 \
		--confirm --wait "${XFER_TIMEOUT:-200}" "$@" >"$MRT_J/$tag.cli"
	wait $srv
	log "# $tag server: $(cat "$MRT_J/$tag.srv")"
	log "# $tag client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/$tag.cli")"
}

# mrt_xfer_ok TAG N: N messages arrived, each once, whole and intact.
# (jq -s: jq -e passes on no input at all, a server that died.)
mrt_xfer_ok() {
	jq -se --argjson n "$2" '.[0] | .received == $n and .bad == 0 and .dups == 0 and
		.distinct + .small == $n' "$MRT_J/$1.srv" >/dev/null
}

# mrt_confirmed TAG N: the sender had N confirmations, N distinct cookies.
mrt_confirmed() {
	jq -se --argjson n "$2" '.[0] | .sent == $n and .confirmed == $n and
		.confirmed_cookies == $n and (.errors | length) == 0' "$MRT_J/$1.cli" >/dev/null
}

# mrt_stat NS NAME: a counter of /proc/net/mrt/snmp.
mrt_stat() { proc_stat "$1" mrt/snmp "$2"; }

# mrt_snmp NS: the counters that are not zero, on one line.
mrt_snmp() {
	log "# $1: $(ip netns exec "$1" awk '$2 != 0 { printf "%s=%s ", $1, $2 }' /proc/net/mrt/snmp)"
}

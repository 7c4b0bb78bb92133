#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the libfabric provider's tests, after ../lib.sh: libfabric
# finds libmrt-fi.so through FI_PROVIDER_PATH, as an application would
# after make install put it in Debian's provider directory.

export FI_PROVIDER_PATH=$TOP/tools/libfabric
FI_J=$(mktemp -d /tmp/fi.XXXXXX)
defer "rm -rf $FI_J"

# fi_pair: namespaces A (198.18.0.1, 2001:db8::1) and B (.2, ::2) on a
# veth, mrt loaded and tuned for the VM.
fi_pair() {
	modprobe mrt || return 1
	setup_ns A B || return 1
	link_ns "$A" a0 1 "$B" b0 2 || return 1
	local ns
	for ns in "$A" "$B"; do
		ip netns exec "$ns" sysctl -qw net.mrt.data_rate_mbps=1000 \
			net.mrt.config_base_rtt_ns=0 net.mrt.rto_min_us=20000 || return 1
	done
}

# pingpong NAME ARGS...: fi_pingpong -p mrt -e rdm with ARGS, its server
# in B and its client in A (against $PP_DST), both ending 0; each side's
# output in $FI_J/NAME.srv and NAME.cli.
pingpong() {
	local name=$1 srv rc
	shift
	ip netns exec "$B" timeout $((60 * ${WAIT_SCALE:-1})) \
		fi_pingpong -p mrt -e rdm "$@" >"$FI_J/$name.srv" 2>&1 &
	srv=$!
	# the server listens on its control port (TCP 47592) once its
	# endpoint is up
	busywait 10000 sh -c "ip netns exec $B ss -Hltn 'sport = :47592' | grep -q ." ||
		{ kill $srv; return 1; }
	ip netns exec "$A" timeout $((60 * ${WAIT_SCALE:-1})) \
		fi_pingpong -p mrt -e rdm "$@" "$PP_DST" >"$FI_J/$name.cli" 2>&1
	rc=$?
	wait $srv || rc=1
	return $rc
}

# udp6_in NS: UDP datagrams NS has received over IPv6.
udp6_in() { ip netns exec "$1" awk '$1 == "Udp6InDatagrams" { print $2 }' /proc/net/snmp6; }

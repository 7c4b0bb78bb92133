#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt on a clean link, IPv4 and IPv6: messages of 0 B to 256 KiB arrive
# exactly once and intact (a digest each), each with MSG_EOR, and the
# sender gets a delivery confirmation with the cookie of every one.
source "$(dirname "$0")/../lib.sh"

MSG=$TOP/selftests/vm/mrt/mrtmsg.py
sysctl -qw net.core.rmem_max=67108864 net.core.wmem_max=67108864
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
J=$(mktemp -d /tmp/mrt.XXXXXX)
defer "rm -rf $J"

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.0.2; else dst=2001:db8:0::2; fi
	ip netns exec "$B" python3 "$MSG" server "$dst" 7000 --count 300 --timeout 100 \
		--rcvbuf 16777216 --ready "$J/ready$fam" >"$J/srv$fam" &
	srv=$!
	busywait 10000 test -e "$J/ready$fam"
	ip netns exec "$A" python3 "$MSG" client "$dst" 7000 --count 300 --max-size 262144 \
		--sndbuf 8388608 --confirm --wait 60 >"$J/cli$fam"
	wait $srv
	cat "$J/srv$fam" "$J/cli$fam"
	jq -e '.received == 300 and .bad == 0 and .dups == 0 and .distinct + .small == 300' \
		"$J/srv$fam" >/dev/null
	check $? "IPv$fam: 300 messages arrive once each, whole and intact"
	jq -e '.sent == 300 and .confirmed == 300 and .confirmed_cookies == 300 and
		(.errors | length) == 0' "$J/cli$fam" >/dev/null
	check $? "IPv$fam: the sender has a confirmation with each message's cookie"
done
ip netns exec "$A" cat /proc/net/mrt/snmp | grep -v ' 0$'
exit $RET

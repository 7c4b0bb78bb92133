#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fabctl monitor: every change to an attribute of its netns, made by
# netlink or by sysctl, is an event with the module, the name, the old and
# the new value and the netns; changes in another netns are not.
source "$(dirname "$0")/../lib.sh"

require_cmd jq || exit $ksft_skip
modprobe tcp_nscc || exit 1
modprobe tcp_swift || exit 1
setup_ns A B || exit 1
MA=$(mktemp /tmp/mon.XXXXXX)
MB=$(mktemp /tmp/mon.XXXXXX)
defer "rm -f $MA $MB"

# Appending, so that truncating the file between phases leaves no hole.
ip netns exec "$A" "$FABCTL" monitor >>"$MA" &
pa=$!
ip netns exec "$B" "$FABCTL" -j monitor >>"$MB" &
pb=$!
defer "kill $pa $pb 2>/dev/null"

# Subscribed once a change shows; toggle gamma until one does.
v=600
busywait 20000 bash -c "ip netns exec $A sysctl -qw net.nscc.gamma=\$((600 + RANDOM % 100)); grep -q 'nscc gamma' $MA"
check $? "monitor in A is subscribed (a sysctl write shows)"
: >"$MA"
ip netns exec "$A" sysctl -qw net.nscc.gamma=$v
ip netns exec "$A" sysctl -qw net.nscc.gamma=555
busywait 10000 grep -q "^nscc gamma $v -> 555 (netns $(stat -L -c %i /var/run/netns/$A))" "$MA"
check $? "a sysctl write is an event: module, name, old -> new, netns ($(tail -1 "$MA"))"
"$FABCTL" -n "$A" attr set swift hops=3 ai=2000
busywait 10000 sh -c "grep -q '^swift hops 1 -> 3' $MA && grep -q '^swift ai 1000 -> 2000' $MA"
check $? "a netlink set of two attributes is two events"
ip netns exec "$A" sysctl -qw net.nscc.gamma=555
"$FABCTL" -n "$A" attr set nscc gamma=554
busywait 10000 grep -q "^nscc gamma 555 -> 554" "$MA"
check $? "a write of the same value is no event, the next change is"
[[ $(grep -c "gamma 555 -> 555" "$MA") == 0 ]]
check $? "(no 555 -> 555 event)"

# B hears only B: its own change arrives, none of A's did.
busywait 20000 bash -c "ip netns exec $B sysctl -qw net.swift.hops=\$((5 + RANDOM % 50)); grep -q '\"hops\"' $MB"
check $? "monitor in B sees B's change"
jq -e -s 'all(.[]; .module == "swift" and .name == "hops")' "$MB" >/dev/null
check $? "and nothing of A's (JSON events: $(head -1 "$MB"))"
kill $pa $pb
wait $pa $pb 2>/dev/null
exit $RET

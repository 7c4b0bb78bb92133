#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DENIED EVs, set and lifted through the control plane (fabctl mrt ev
# deny|allow, MRT_NL_CMD_EV_SET), over multipath_topo's four healthy paths,
# in phases of one transfer (the client pauses, its messages so far
# confirmed, until the test says go):
#   0. a deny of 49152-49155 before any traffic (a rule: the destination
#      made later has them DENIED); malformed and unprivileged requests
#      refused with the kernel's message, and the 256-rule cap;
#   1. 40 messages: the denied EVs carry no packet, the others do;
#   2. 49156 denied while the destination lives: DENIED at once (an event
#      on fabctl monitor); 40 more messages, none on any denied EV, and
#      they stay DENIED through healthy traffic;
#   3. allow 49152-49156: GOOD again (events), no rule left; 40 more, and
#      the allowed EVs carry packets again;
#   4. every EV denied: the data waits (the destination has no usable EV:
#      ev_none_usable, an event with usable 0, a PDC on the waiting list);
#      allow brings the last 40 messages through.
# Every message arrives once, intact, confirmed.  Each step waits for the
# state it needs (bounded): it holds at any speed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

require_cmd jq setpriv
mrt_paths ev_count=16 pdc_idle_ms=60000 || exit 1
MRTNL=$TOP/selftests/vm/mrt/mrtnl.py
DST=198.18.30.1
fab() { ip netns exec "$S" "$FABCTL" "$@"; }
# evs: the destination's EVs as "port state pkts" lines
evs() { fab -j mrt ev show $DST | jq -r '.[] | "\(.port) \(.state) \(.pkts)"'; }
# states FIRST LAST STATE: each of those EVs is in STATE
states() {
	fab -j mrt ev show $DST | jq -e --argjson a "$1" --argjson b "$2" --arg s "$3" \
		'[.[] | select(.port >= $a and .port <= $b) | .state == $s] |
		 length == ($b - $a + 1) and all' >/dev/null
}
# pkts FIRST LAST: the packets those EVs carried
pkts() { fab -j mrt ev show $DST | jq --argjson a "$1" --argjson b "$2" \
	'[.[] | select(.port >= $a and .port <= $b) | .pkts] | add'; }

# 0. refusals, then the first rule
out=$(ip netns exec "$S" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$FABCTL" mrt ev deny $DST 49152 2>&1)
rc=$?
((rc == 1)) && [[ $out == *"not permitted"* ]]
check $? "an unprivileged deny is refused (EPERM): $out"
"$FABCTL" mrt ev deny $DST 9-8 >/dev/null 2>&1
(($? == 2))
check $? "fabctl refuses a range whose last port is below its first (usage error)"
ok=0 cases=("set-no-ev:22:no EV given" "set-no-addr:22:no destination address"
	"set-no-port:22:no EV given (MRT_NL_EV_A_PORT)" "set-no-state:22:no state given"
	"set-skip:22:only denied (deny) or good (allow)" "set-state-4:34:"
	"set-range:22:last port is below" "set-short-addr:34:" "set-counter:22:"
	"get-no-addr:22:a filter names a destination" "get-no-dest:2:no destination with that"
	"deny-get-attr:22:")
# one process for every case, a line each in order
mapfile -t answers < <(ip netns exec "$S" python3 "$MRTNL" err "${cases[@]%%:*}")
((${#answers[@]} == ${#cases[@]})) || ok=1
for i in "${!cases[@]}"; do
	IFS=: read -r name want msg <<<"${cases[i]}"
	got=${answers[i]:-}
	log "# $name: $got"
	[[ $got == "errno=$want "* && $got == *"$msg"* ]] || ok=1
done
((ok == 0))
check $? "malformed EV_SET, EV_GET and DENY_GET requests refused, each with its reason"
got=$(ip netns exec "$S" python3 "$MRTNL" cap 198.18.99.7)
log "# cap: $got"
[[ $got == "rules=256 refused=28 "*"too many deny rules"*"after=0" ]]
check $? "256 deny rules per namespace, one more refused (ENOSPC), an allow lifts them all"
[[ -z $(fab mrt ev rules) ]]
check $? "no rule left"
fab mrt ev deny 2001:db8:30::1 49160-49161 &&
	[[ $(fab -j mrt ev rules | jq -c '[.[] | [.addr, .port, .port_last]]') == \
	   '[["2001:db8:30::1",49160,49161]]' ]] &&
	fab mrt ev allow 2001:db8:30::1 49160-49161 && [[ -z $(fab mrt ev rules) ]]
check $? "an IPv6 destination's rule: denied, listed, allowed"

fab -j monitor >"$MRT_J/monitor" &
mon=$!
defer "kill $mon"
fab mrt ev deny $DST 49152-49155
check $? "deny $DST 49152-49155 before any traffic"
[[ $(fab -j mrt ev rules | jq -c '[.[] | [.addr, .port, .port_last]]') == \
	'[["198.18.30.1",49152,49155]]' ]]
check $? "fabctl mrt ev rules lists the rule"

XFER_TIMEOUT=120 mrt_xfer "$S" "$D" $DST dn --count 160 --max-size 65536 \
	--pause-at 40,80,120 --pause-dir "$MRT_J" --seed 91 &
xfer=$!
busywait 60000 test -e "$MRT_J/paused.40"
check $? "phase 1: 40 messages confirmed"
log "# $(evs | tr '\n' ' ')"
states 49152 49155 denied && (($(pkts 49152 49155) == 0 && $(pkts 49156 49167) > 0))
check $? "the EVs denied before the destination existed are DENIED and carried nothing"

fab mrt ev deny $DST 49156 && states 49156 49156 denied
check $? "phase 2: 49156 denied while the destination lives: DENIED at once"
p56=$(pkts 49156 49156)
touch "$MRT_J/go.40"
busywait 60000 test -e "$MRT_J/paused.80"
check $? "phase 2: 40 more messages confirmed"
states 49152 49156 denied && (($(pkts 49152 49155) == 0 && $(pkts 49156 49156) == p56))
check $? "no packet on a denied EV; they stay DENIED through healthy traffic"
busywait 5000 grep -q '"port":49156,"old":"good","state":"denied","why":"deny"' \
	"$MRT_J/monitor"
check $? "fabctl monitor showed the deny"

fab mrt ev allow $DST 49152-49156 && states 49152 49156 good && [[ -z $(fab mrt ev rules) ]]
check $? "phase 3: allow 49152-49156: GOOD again, no rule left"
p0=$(pkts 49152 49156)
touch "$MRT_J/go.80"
busywait 60000 test -e "$MRT_J/paused.120"
check $? "phase 3: 40 more messages confirmed"
(($(pkts 49152 49156) > p0))
check $? "the allowed EVs carry packets again ($(($(pkts 49152 49156) - p0)))"
fab mrt ev show $DST | head -6
busywait 5000 grep -q '"port":49152,"old":"denied","state":"good","why":"allow"' \
	"$MRT_J/monitor"
check $? "fabctl monitor showed the allows"

none0=$(mrt_stat "$S" ev_none_usable)
fab mrt ev deny $DST 49152-49167 && states 49152 49167 denied
check $? "phase 4: every EV denied"
(($(mrt_stat "$S" ev_none_usable) == none0 + 1))
check $? "the destination reports no usable EV (ev_none_usable)"
busywait 5000 grep -q '"usable":0,' "$MRT_J/monitor"
check $? "fabctl monitor showed the destination with no usable EV"
p0=$(pkts 49152 49167)
touch "$MRT_J/go.120"
waiting() { (($(fab -j mrt dest show $DST | jq '.[0].waiting') >= 1)); }
busywait 30000 waiting
check $? "its data waits: a PDC on the destination's waiting list"
(($(pkts 49152 49167) == p0))
check $? "no data packet went out meanwhile"
fab mrt ev allow $DST 49152-49167
wait $xfer
mrt_xfer_ok dn 160 && mrt_confirmed dn 160
check $? "after the allow: 160 messages through every phase, once each, intact, confirmed"
mrt_snmp "$S"
exit $RET

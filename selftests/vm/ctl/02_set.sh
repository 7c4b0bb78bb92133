#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sets through netlink: they show in sysctl and sysctl's show in netlink;
# they stay in their network namespace; several attributes of one module
# go in one message, checked together and applied all or nothing; every
# refusal says why (the extended ACK) with EINVAL or ENOENT, and changes
# nothing.
source "$(dirname "$0")/../lib.sh"

GENL="python3 $TOP/selftests/vm/ctl/genl.py"
require_cmd jq || exit $ksft_skip
for m in nscc dcqcn swift; do
	modprobe "tcp_$m" || exit 1
done
setup_ns A B || exit 1

val() { ip netns exec "$1" sysctl -n "net.$2.$3"; }

# netlink -> sysctl, and back.
"$FABCTL" -n "$A" attr set nscc gamma=600
check $? "fabctl attr set nscc gamma=600 in netns A"
[[ $(val "$A" nscc gamma) == 600 ]]
check $? "the sysctl in A shows 600"
ip netns exec "$A" sysctl -qw net.swift.hops=4
[[ $("$FABCTL" -n "$A" -j attr show swift hops | jq '.[0].value') == 4 ]]
check $? "a sysctl write (swift hops=4) shows in fabctl"
"$FABCTL" -n "$A" attr set nscc flavour=mrc && [[ $(val "$A" nscc flavour) == mrc ]]
check $? "an enum is set by name (flavour=mrc) and reads back by name"

# A sysctl write longer than any value is refused, not cut (40 digits of
# leading zeros would otherwise read as another number).
check_fail "a 41-character sysctl write is refused" -- \
	ip netns exec "$A" sh -c 'printf "%040d" 5 >/proc/sys/net/nscc/gamma'
[[ $(val "$A" nscc gamma) == 600 ]]
check $? "and gamma keeps 600"

# Isolation: B and the initial namespace keep their values.
[[ $(val "$B" nscc gamma) == 800 && $(sysctl -n net.nscc.gamma) == 800 &&
   $(val "$B" swift hops) == 1 ]]
check $? "netns B and the initial netns keep gamma 800 and hops 1"
[[ $("$FABCTL" -n "$B" -j attr show nscc gamma | jq '.[0].value') == 800 ]]
check $? "fabctl -n B reads B's value"
inum=$(stat -L -c %i "/var/run/netns/$A")
[[ $("$FABCTL" -n "$A" -j attr show nscc gamma | jq '.[0].netns_inum') == "$inum" ]]
check $? "replies name their netns (inode $inum)"

# Several attributes at once, in any order, all or nothing.
"$FABCTL" -n "$A" attr set nscc receiver_congestion_low_threshold=800 \
	receiver_congestion_high_threshold=900
check $? "low 800 and high 900 in one message, the low one first"
[[ $(val "$A" nscc receiver_congestion_low_threshold) == 800 &&
   $(val "$A" nscc receiver_congestion_high_threshold) == 900 ]]
check $? "both applied"
out=$("$FABCTL" -n "$A" attr set nscc gamma=700 receiver_congestion_low_threshold=950 2>&1)
rc=$?
[[ $rc -ne 0 && $out == *receiver_congestion_low_threshold* && $out == *"Invalid argument"* ]]
check $? "a set that breaks the low <= high rule is refused with EINVAL and why: $out"
[[ $(val "$A" nscc gamma) == 600 && $(val "$A" nscc receiver_congestion_low_threshold) == 800 ]]
check $? "nothing of the refused set was applied (gamma still 600)"
out=$("$FABCTL" -n "$A" attr set nscc gamma=500 delay_alpha=1001 2>&1)
[[ $? -ne 0 && $out == *delay_alpha* && $out == *0..1000* && $(val "$A" nscc gamma) == 600 ]]
check $? "one value out of range refuses the whole set, naming it and its range: $out"

# Refusals, each with its errno and message.
out=$("$FABCTL" -n "$A" attr set nscc gamma=1001 2>&1)
[[ $? -ne 0 && $out == *gamma* && $out == *"range 0..1000"* && $out == *"Invalid argument"* ]]
check $? "out of range: EINVAL, the name and the range: $out"
out=$("$FABCTL" -n "$A" attr set nscc gamma=fast 2>&1)
[[ $? -ne 0 && $out == *"not a decimal number"* ]]
check $? "not a number: EINVAL: $out"
out=$("$FABCTL" -n "$A" attr set nope gamma=1 2>&1)
[[ $? -ne 0 && $out == *"no such module"* && $out == *"No such file or directory"* ]]
check $? "unknown module: ENOENT: $out"
out=$("$FABCTL" -n "$A" attr set nscc gamma2=1 2>&1)
[[ $? -ne 0 && $out == *"no such attribute"* && $out == *"No such file or directory"* ]]
check $? "unknown attribute: ENOENT: $out"
out=$("$FABCTL" -n "$A" attr show nscc gamma2 2>&1)
[[ $? -ne 0 && $out == *"no such attribute"* ]]
check $? "attr show of an unknown attribute: ENOENT: $out"
out=$("$FABCTL" -n "$A" stats nope 2>&1)
[[ $? -ne 0 && $out == *"no such module"* ]]
check $? "stats of an unknown module: ENOENT: $out"
out=$("$FABCTL" -n "$A" attr show nope 2>&1)
[[ $? -ne 0 && $out == *"no such module"* ]]
check $? "a dump filtered by an unknown module: ENOENT: $out"

# What fabctl cannot send: wrong types, missing attributes, strays.
# want CASE ERRNO PATTERN queues a case; wanted sends the queue's requests
# (one python process: each costs a second under TCG) and checks each answer.
WANT=()
want() { WANT+=("$1|$2|$3"); }
wanted() {
	local got name errno pat i
	mapfile -t got < <(ip netns exec "$A" $GENL err "${WANT[@]%%|*}")
	for i in "${!WANT[@]}"; do
		IFS='|' read -r name errno pat <<<"${WANT[i]}"
		[[ ${got[i]:-} == "errno=$errno "* && ${got[i]} == *$pat* ]]
		check $? "$name: errno $errno, message matching '$pat' (${got[i]:-no answer})"
	done
	WANT=()
}
want set-no-module 22 "no module"
want set-no-attr 22 "no attribute to set"
want set-no-name 22 "without a name"
want set-short-value 22 ""
want set-string-value 22 ""
want set-u32-name 22 ""
want set-unknown-nested 22 ""
want set-unknown-top 22 ""
want set-both 22 "not both"
want set-range 22 "range 0..1000"
want set-twice 22 "given twice"
want set-nest-twice 22 "given twice in one attribute nest"
want set-long-module 22 ""
want get-no-attr 22 "no attribute given"
want get-no-name 22 "no attribute name"
want get-unknown-module 2 "no such module"
want unknown-cmd 95 ""
want ntf-as-request 95 ""
wanted
[[ $(val "$A" nscc gamma) == 600 ]]
check $? "none of them changed gamma (600)"
want set-ok 0 ""
wanted
[[ $(val "$A" nscc gamma) == 700 ]]
check $? "the control case (a well-formed raw set) applies (700)"

# Module parameters: the defaults new namespaces start from, checked by
# the same rule across attributes.
echo 650 >/sys/module/tcp_nscc/parameters/gamma
setup_ns C || exit 1
[[ $(val "$C" nscc gamma) == 650 && $(val "$A" nscc gamma) == 700 ]]
check $? "a new netns starts from the module parameter (650); A keeps 700"
[[ $("$FABCTL" -n "$C" -j attr show nscc gamma | jq '.[0].global') == 650 ]]
check $? "fabctl shows the module parameter as the global default"
check_fail "a module parameter that breaks low <= high is refused" -- \
	sh -c 'echo 900 >/sys/module/tcp_nscc/parameters/receiver_congestion_low_threshold'
echo 800 >/sys/module/tcp_nscc/parameters/gamma

exit $RET

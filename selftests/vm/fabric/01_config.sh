#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_fabric configuration, tdc style (command, expected exit, output
# match): autoload on "tc qdisc add", round trips of every option through
# the tc plugin, "change" of some options keeping the rest, every refusal
# with the kernel's extack message, delete, and a change that shrinks the
# limit under a parent qdisc keeping the parent's backlog right.
source "$(dirname "$0")/../lib.sh"

require_cmd tc jq
[[ -f $TOP/tools/tc/q_fabric.so ]] || skip "tools/tc/q_fabric.so not built"
modprobe -r sch_fabric 2>/dev/null
setup_ns N
ip -n "$N" link add d0 type dummy
ip -n "$N" link set d0 up
T=(tcf -n "$N")

FULL="rate 10gbit limit 1mb ecn_min 30kb ecn_max 120kb ecn_prob 20 trim_at 100kb trim_size 128 trim_dscp 11 trim_dscp_in 46 trim_limit 256kb"
tdc "add with every option (autoloads sch_fabric)" 0 "" -- \
	"${T[@]}" qdisc add dev d0 root handle 1: fabric $FULL
grep -q '^sch_fabric ' /proc/modules
check $? "sch_fabric was autoloaded"
tdc "show prints every option back in tc syntax" 0 \
	"fabric 1: root .*rate 10gbit limit 1mb ecn_min 30kb ecn_max 120kb ecn_prob 20 trim_at 100kb trim_size 128b? trim_dscp 11 trim_dscp_in 46 trim_limit 256kb" -- \
	"${T[@]}" qdisc show dev d0
line=$("${T[@]}" qdisc show dev d0 | sed -n 's/.*fabric 1: root refcnt [0-9]* //p')
"${T[@]}" qdisc del dev d0 root
tdc "the printed options parse back (round trip)" 0 "" -- \
	"${T[@]}" qdisc add dev d0 root handle 1: fabric $line
[[ $("${T[@]}" qdisc show dev d0 | sed -n 's/.*fabric 1: root refcnt [0-9]* //p') == "$line" ]]
check $? "the round trip prints the same line"
tdc "JSON options carry raw numbers" 0 "" -- bash -c \
	"TC_LIB_DIR=$TOP/tools/tc tc -n $N -j qdisc show dev d0 | jq -e '.[0].options | .rate == 10000000000 and .limit == 1048576 and .ecn_min == 30720 and .trim_dscp == 11'"

tdc "change ecn_prob alone" 0 "" -- "${T[@]}" qdisc change dev d0 root fabric ecn_prob 50
tdc "the other options are kept" 0 "rate 10gbit limit 1mb ecn_min 30kb ecn_max 120kb ecn_prob 50 trim_at 100kb" -- \
	"${T[@]}" qdisc show dev d0
tdc "trim_dscp_in takes lists and ranges" 0 "trim_dscp_in 8-15,46" -- bash -c \
	"TC_LIB_DIR=$TOP/tools/tc tc -n $N qdisc change dev d0 root fabric trim_dscp_in 8-15,46 && TC_LIB_DIR=$TOP/tools/tc tc -n $N qdisc show dev d0"

# Refusals: the kernel's extack message reaches tc, the old values stay.
tdc "ecn_min above ecn_max is refused" fail "ecn_min is above ecn_max" -- \
	"${T[@]}" qdisc change dev d0 root fabric ecn_min 200kb
tdc "trim_at above limit is refused" fail "trim_at is above limit" -- \
	"${T[@]}" qdisc change dev d0 root fabric trim_at 2mb
tdc "shrinking limit below trim_at is refused" fail "trim_at is above limit" -- \
	"${T[@]}" qdisc change dev d0 root fabric limit 50kb
tdc "trim_size below the IPv4+UDP headers is refused" fail "" -- \
	"${T[@]}" qdisc change dev d0 root fabric trim_size 20
tdc "ecn_prob above 100 is refused" fail "" -- \
	"${T[@]}" qdisc change dev d0 root fabric ecn_prob 101
tdc "trim_dscp above 63 is refused" fail "" -- \
	"${T[@]}" qdisc change dev d0 root fabric trim_dscp 64
tdc "an unknown option is refused by the plugin" fail "What is \"bogus\"" -- \
	"${T[@]}" qdisc change dev d0 root fabric bogus 1
tdc "nothing changed after the refusals" 0 "ecn_min 30kb ecn_max 120kb ecn_prob 50 trim_at 100kb trim_size 128b? trim_dscp 11" -- \
	"${T[@]}" qdisc show dev d0
tdc "help prints the usage" fail "Usage: .*fabric" -- "${T[@]}" qdisc add dev d0 root fabric help

"${T[@]}" qdisc del dev d0 root
check $? "delete"
P="$(dirname "$0")/nlraw.py"
tdc "an unknown attribute is refused (strict parsing)" 0 "errno=22 msg=.*[Uu]nknown attribute" -- \
	ip netns exec "$N" python3 "$P" d0 unknown-attr
tdc "options without NLA_F_NESTED are refused" 0 "errno=22 msg=.*NLA_F_NESTED" -- \
	ip netns exec "$N" python3 "$P" d0 no-nested-flag
tdc "a malformed u32 is refused" 0 "errno=(22|34) " -- \
	ip netns exec "$N" python3 "$P" d0 short-u32
tdc "no qdisc was left behind by the refusals" 0 "noqueue|noop" -- "${T[@]}" qdisc show dev d0

exit $RET

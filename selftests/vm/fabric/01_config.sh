#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_fabric configuration, tdc style (command, expected exit, output
# match): autoload on "tc qdisc add", round trips of every option through
# the tc plugin, "change" of some options keeping the rest, every refusal
# with the kernel's extack message, exact rates and sizes (and the plugin's
# refusals of what is not a whole number of bits per second or bytes),
# JSON "rate" in bytes per second, delete, and a change that shrinks the
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
tdc "JSON options carry raw numbers, rate in bytes/s as tbf and htb" 0 "" -- bash -c \
	"TC_LIB_DIR=$TOP/tools/tc tc -n $N -j qdisc show dev d0 | jq -e '.[0].options | .rate == 1250000000 and .rate_bits == 10000000000 and .limit == 1048576 and .ecn_min == 30720 and .trim_dscp == 11'"

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

# Exact numbers: the plugin reads rates and sizes in integers (tc's
# get_rate64() made "1001bit" 1000 bit/s and "0.5b" 0 bytes) and refuses,
# before anything is sent, what is not a whole number of bits per second
# or of bytes, or does not fit.  JSON "rate" is bytes/s, "rate_bits" exact.
CHG="TC_LIB_DIR=$TOP/tools/tc tc -n $N qdisc change dev d0 root fabric"
SHOW="TC_LIB_DIR=$TOP/tools/tc tc -n $N qdisc show dev d0"
JSON="TC_LIB_DIR=$TOP/tools/tc tc -n $N -j qdisc show dev d0"
tdc "rate 1001bit is kept exactly" 0 "rate 1001bit limit 1mb " -- bash -c \
	"$CHG rate 1001bit && $SHOW"
tdc "JSON of 1001bit: rate 125 (bytes/s, truncated), rate_bits 1001" 0 "" -- bash -c \
	"$JSON | jq -e '.[0].options | .rate == 125 and .rate_bits == 1001'"
tdc "rate 12.5kbit is 12500 bit/s" 0 "rate 12500bit limit 1mb " -- bash -c \
	"$CHG rate 12.5kbit && $SHOW"
tdc "JSON of 12.5kbit: rate 1562, rate_bits 12500" 0 "" -- bash -c \
	"$JSON | jq -e '.[0].options | .rate == 1562 and .rate_bits == 12500'"
tdc "units in any case: rate 1Gbit is 1gbit" 0 "rate 1gbit limit 1mb " -- bash -c \
	"$CHG rate 1Gbit && $SHOW"
tdc "byte units: rate 1KBps is 8kbit" 0 "rate 8kbit limit 1mb " -- bash -c \
	"$CHG rate 1KBps && $SHOW"
tdc "trim_limit 1.5kb is 1536 bytes" 0 "trim_limit 1536b" -- bash -c \
	"$CHG trim_limit 1.5kb && $SHOW"
tdc "rate 0 (no rate limit) is taken" 0 "rate 0 limit 1mb " -- bash -c \
	"$CHG rate 0 && $SHOW"
tdc "JSON of rate 0: rate 0, rate_bits 0" 0 "" -- bash -c \
	"$JSON | jq -e '.[0].options | .rate == 0 and .rate_bits == 0'"
tdc "rate 0.5bit is refused by the plugin" fail \
	'Illegal "rate" value "0.5bit": not a whole number of bits per second; want ' -- \
	"${T[@]}" qdisc change dev d0 root fabric rate 0.5bit
tdc "rate 1.0001kbit is refused" fail \
	'Illegal "rate" value "1.0001kbit": not a whole number of bits per second' -- \
	"${T[@]}" qdisc change dev d0 root fabric rate 1.0001kbit
tdc "a rate above 2^64 - 1 bit/s is refused" fail \
	'Illegal "rate" value "18446744073709551616bit": above 18446744073709551615 bits per second' -- \
	"${T[@]}" qdisc change dev d0 root fabric rate 18446744073709551616bit
tdc "rate 1e3 is refused (no exponent)" fail 'Illegal "rate" value "1e3": unknown unit "e3"' -- \
	"${T[@]}" qdisc change dev d0 root fabric rate 1e3
tdc "rate -1 is refused" fail 'Illegal "rate" value "-1": not a number' -- \
	"${T[@]}" qdisc change dev d0 root fabric rate -1
tdc "trim_at 0.5b is refused, not taken as 0 (no trimming)" fail \
	'Illegal "trim_at" value "0.5b": not a whole number of bytes; want ' -- \
	"${T[@]}" qdisc change dev d0 root fabric trim_at 0.5b
tdc "limit 1.1kb is refused" fail 'Illegal "limit" value "1.1kb": not a whole number of bytes' -- \
	"${T[@]}" qdisc change dev d0 root fabric limit 1.1kb
tdc "limit 4gb is refused (above u32)" fail 'Illegal "limit" value "4gb": above 4294967295 bytes' -- \
	"${T[@]}" qdisc change dev d0 root fabric limit 4gb
tdc "nothing changed after the plugin's refusals" 0 \
	"rate 0 limit 1mb ecn_min 30kb ecn_max 120kb ecn_prob 50 trim_at 100kb .*trim_limit 1536b" -- \
	"${T[@]}" qdisc show dev d0

# Queue limits are capped at 1gb, so backlog + packet never wraps a u32.
tdc "limit above 1gb is refused by the kernel" fail "limit and trim_limit are at most 1gb" -- \
	"${T[@]}" qdisc change dev d0 root fabric limit 2gb
tdc "trim_limit above 1gb is refused by the kernel" fail "limit and trim_limit are at most 1gb" -- \
	"${T[@]}" qdisc change dev d0 root fabric trim_limit 1073741825b
tdc "limit 1gb is taken" 0 "limit 1024mb " -- bash -c "$CHG limit 1gb && $SHOW"
"${T[@]}" qdisc change dev d0 root fabric limit 1mb

# ecn_max 0 turns marking off from any setting, as documented, and clears
# ecn_min so that the shown line reads back; ecn_min alone is refused.
tdc "ecn_max 0 turns marking off after ecn_min 30kb ecn_max 120kb" 0 "ecn_min 0 ecn_max 0 " -- \
	bash -c "$CHG ecn_max 0 && $SHOW"
line=$("${T[@]}" qdisc show dev d0 | sed -n 's/.*fabric 1: root refcnt [0-9]* //p')
tdc "the line with marking off reads back" 0 "" -- "${T[@]}" qdisc change dev d0 root fabric $line
tdc "ecn_min without an ecn_max above 0 is refused" fail "ecn_min needs ecn_max" -- \
	"${T[@]}" qdisc change dev d0 root fabric ecn_min 30kb
tdc "ecn_min with ecn_max 0 is refused" fail "ecn_min needs ecn_max" -- \
	"${T[@]}" qdisc change dev d0 root fabric ecn_min 30kb ecn_max 0
tdc "marking on again with both" 0 "ecn_min 30kb ecn_max 120kb " -- \
	bash -c "$CHG ecn_min 30kb ecn_max 120kb && $SHOW"

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

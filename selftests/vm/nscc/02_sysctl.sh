#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# net.nscc.* sysctls: every attribute exists, a netns starts from the
# module parameters, writes stay in their netns, out-of-range and
# inconsistent writes fail with the old value kept, and the module
# parameters range-check the same way.
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
P=/sys/module/tcp_nscc/parameters

# The attribute table is the same for parameters and sysctls.
params=$(ls $P | sort | tr '\n' ' ')
sysctls=$(ls /proc/sys/net/nscc | sort | tr '\n' ' ')
[[ $params == "$sysctls" ]]
check $? "module parameters and sysctls name the same attributes"
for a in flavour data_rate_mbps config_base_rtt_ns alpha_multiplier \
	 fair_increase_multiplier fast_increase_multiplier eta_multiplier \
	 gamma max_multiplicative_decrease_jump delay_alpha quick_adapt_gate \
	 quick_adapt_threshold_ns target_queue_delay_margin_ns \
	 reference_network_rtt_ns reference_network_link_speed_mbps; do
	[[ -e /proc/sys/net/nscc/$a ]] || { check 1 "sysctl net.nscc.$a exists"; }
done
check 0 "the spec pages' attributes are sysctls"

[[ $(sysctl -n net.nscc.config_base_rtt_ns) == 6000 &&
   $(sysctl -n net.nscc.alpha_multiplier) == 4000 &&
   $(sysctl -n net.nscc.gamma) == 800 &&
   $(sysctl -n net.nscc.flavour) == uet ]]
check $? "defaults are the spec pages' (6000 ns, alpha 4000, gamma 800, uet)"

setup_ns A B
ip netns exec "$A" sysctl -qw net.nscc.gamma=500
check $? "netns A sets gamma=500"
[[ $(ip netns exec "$A" sysctl -n net.nscc.gamma) == 500 &&
   $(ip netns exec "$B" sysctl -n net.nscc.gamma) == 800 &&
   $(sysctl -n net.nscc.gamma) == 800 ]]
check $? "the write stays in netns A (B and init_net keep 800)"

err=$(ip netns exec "$A" sysctl -w net.nscc.gamma=1001 2>&1)
[[ $? -ne 0 && $err == *"Invalid argument"* ]]
check $? "gamma=1001 is refused with EINVAL ($err)"
[[ $(ip netns exec "$A" sysctl -n net.nscc.gamma) == 500 ]]
check $? "the refused write kept gamma=500"
check_fail "config_base_rtt_ns=1000000001 (above 1 s) is refused" -- \
	ip netns exec "$A" sysctl -qw net.nscc.config_base_rtt_ns=1000000001
ip netns exec "$A" sysctl -qw net.nscc.config_base_rtt_ns=0 &&
	ip netns exec "$A" sysctl -qw net.nscc.data_rate_mbps=0 &&
	[[ $(ip netns exec "$A" sysctl -n net.nscc.config_base_rtt_ns) == 0 ]]
check $? "0 (follow the path) is accepted for config_base_rtt_ns and data_rate_mbps"
check_fail "a non-number is refused" -- \
	ip netns exec "$A" sysctl -qw net.nscc.data_rate_mbps=fast
check_fail "flavour=tcp is refused" -- ip netns exec "$A" sysctl -qw net.nscc.flavour=tcp
ip netns exec "$A" sysctl -qw net.nscc.flavour=mrc
[[ $(ip netns exec "$A" sysctl -n net.nscc.flavour) == mrc ]]
check $? "flavour is written and read by name (mrc)"
# The rule across attributes (nscc_params_check(): the low threshold not
# above the high one) holds for each sysctl write too: a write that would
# break it is refused and changes nothing; the other order works.
check_fail "low threshold 800 above the high one (750) is refused" -- \
	ip netns exec "$A" sysctl -qw net.nscc.receiver_congestion_low_threshold=800
[[ $(ip netns exec "$A" sysctl -n net.nscc.receiver_congestion_low_threshold) == 250 ]]
check $? "the refused write left the low threshold at 250"
ip netns exec "$A" sysctl -qw net.nscc.receiver_congestion_high_threshold=900 &&
	ip netns exec "$A" sysctl -qw net.nscc.receiver_congestion_low_threshold=800
check $? "raising the high threshold first, then the low one, works (900, 800)"
[[ $(ip netns exec "$A" cat /proc/sys/net/nscc/gamma | wc -l) == 1 ]]
check $? "a sysctl reads back as one line with no blank line"

# Module parameters are the defaults of namespaces created afterwards.
echo 650 > $P/gamma
check $? "module parameter gamma=650 accepted"
setup_ns C
[[ $(ip netns exec "$C" sysctl -n net.nscc.gamma) == 650 ]]
check $? "a new netns starts from the module parameter (650)"
[[ $(ip netns exec "$B" sysctl -n net.nscc.gamma) == 800 ]]
check $? "an existing netns keeps its value (800)"
(echo 2000 > $P/gamma) 2>/dev/null
check $(( $? == 0 )) "module parameter gamma=2000 is refused"
[[ $(cat $P/gamma) == 650 ]]
check $? "the refused parameter write kept 650"
echo mrc > $P/flavour && [[ $(cat $P/flavour) == mrc ]]
check $? "module parameter flavour accepts a name"
echo 800 > $P/gamma
echo uet > $P/flavour
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_dcqcn loading and attributes: autoload by name, module parameters and
# net.dcqcn.* sysctls from one table with the spec page's defaults, per-netns
# isolation, range errors that keep the old value, module parameters as the
# defaults of new namespaces, unload refused while in use.
source "$(dirname "$0")/../lib.sh"

modprobe -r tcp_dcqcn 2>/dev/null
sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
check $? "sysctl net.ipv4.tcp_congestion_control=dcqcn autoloads tcp_dcqcn"
check_fail "modprobe -r is refused while it is the default" -- modprobe -r tcp_dcqcn
sysctl -qw net.ipv4.tcp_congestion_control=cubic
allow_cc dcqcn

P=/sys/module/tcp_dcqcn/parameters
[[ $(ls $P | sort | tr '\n' ' ') == "$(ls /proc/sys/net/dcqcn | sort | tr '\n' ' ')" ]]
check $? "module parameters and sysctls name the same attributes"
for a in enable_ecn control_interval_ns congestion_probability_weight \
	 fast_recovery_attempt initial_target_rate_percentage \
	 number_active_increase_steps num_of_control_loops_per_increase \
	 minimum_rate_percentage data_rate_mbps initial_alpha episode_end_gap_mbps \
	 episode_end_gap_ppm; do
	[[ -e /proc/sys/net/dcqcn/$a ]] || check 1 "net.dcqcn.$a exists"
done
[[ $(sysctl -n net.dcqcn.control_interval_ns) == 45000 &&
   $(sysctl -n net.dcqcn.congestion_probability_weight) == 500 &&
   $(sysctl -n net.dcqcn.fast_recovery_attempt) == 3 &&
   $(sysctl -n net.dcqcn.initial_target_rate_percentage) == 900 &&
   $(sysctl -n net.dcqcn.number_active_increase_steps) == 10 &&
   $(sysctl -n net.dcqcn.num_of_control_loops_per_increase) == 5 &&
   $(sysctl -n net.dcqcn.minimum_rate_percentage) == 100 &&
   $(sysctl -n net.dcqcn.data_rate_mbps) == 400000 &&
   $(sysctl -n net.dcqcn.initial_alpha) == 1000 &&
   $(sysctl -n net.dcqcn.episode_end_gap_mbps) == 100 &&
   $(sysctl -n net.dcqcn.episode_end_gap_ppm) == 0 &&
   $(sysctl -n net.dcqcn.enable_ecn) == 1 ]]
check $? "every attribute has the spec page's default"

setup_ns A B
ip netns exec "$A" sysctl -qw net.dcqcn.control_interval_ns=90000
[[ $(ip netns exec "$A" sysctl -n net.dcqcn.control_interval_ns) == 90000 &&
   $(ip netns exec "$B" sysctl -n net.dcqcn.control_interval_ns) == 45000 ]]
check $? "a write stays in its netns"
check_fail "congestion_probability_weight=1001 is refused" -- \
	ip netns exec "$A" sysctl -qw net.dcqcn.congestion_probability_weight=1001
check_fail "number_active_increase_steps=0 is refused" -- \
	ip netns exec "$A" sysctl -qw net.dcqcn.number_active_increase_steps=0
[[ $(ip netns exec "$A" sysctl -n net.dcqcn.number_active_increase_steps) == 10 ]]
check $? "a refused write keeps the old value"
check_fail "episode_end_gap_mbps=0 is refused (0.1 Gbit/s is 100)" -- \
	ip netns exec "$A" sysctl -qw net.dcqcn.episode_end_gap_mbps=0
ip netns exec "$A" sysctl -qw net.dcqcn.episode_end_gap_ppm=0 &&
	ip netns exec "$A" sysctl -qw net.dcqcn.episode_end_gap_ppm=250
check $? "episode_end_gap_ppm takes 0 (off, the default) and 250"
echo 2000 > $P/data_rate_mbps
setup_ns C
[[ $(ip netns exec "$C" sysctl -n net.dcqcn.data_rate_mbps) == 2000 ]]
check $? "a new netns starts from the module parameter"
echo 400000 > $P/data_rate_mbps
check_fail "modprobe tcp_dcqcn-style range check on the parameter" -- \
	sh -c "echo 0 > $P/control_interval_ns"

ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
check_fail "modprobe -r is refused while a netns default uses it" -- modprobe -r tcp_dcqcn
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=cubic
modprobe -r tcp_dcqcn
check $? "modprobe -r works once nothing uses it"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_swift loading and attributes: autoload by name, module parameters and
# net.swift.* sysctls from one table with Isekai's Falcon RUE defaults,
# per-netns isolation, range errors that keep the old value, module
# parameters as the defaults of new namespaces, unload refused while used.
source "$(dirname "$0")/../lib.sh"

modprobe -r tcp_swift 2>/dev/null
sysctl -qw net.ipv4.tcp_congestion_control=swift
check $? "sysctl net.ipv4.tcp_congestion_control=swift autoloads tcp_swift"
check_fail "modprobe -r is refused while it is the default" -- modprobe -r tcp_swift
sysctl -qw net.ipv4.tcp_congestion_control=cubic
allow_cc swift

P=/sys/module/tcp_swift/parameters
[[ $(ls $P | sort | tr '\n' ' ') == "$(ls /proc/sys/net/swift | sort | tr '\n' ' ')" ]]
check $? "module parameters and sysctls name the same attributes"
[[ $(sysctl -n net.swift.base_target_ns) == 25000 &&
   $(sysctl -n net.swift.per_hop_ns) == 1000 &&
   $(sysctl -n net.swift.fs_range_ns) == 100000 &&
   $(sysctl -n net.swift.fs_min_cwnd) == 100 &&
   $(sysctl -n net.swift.fs_max_cwnd) == 256000 &&
   $(sysctl -n net.swift.ai) == 1000 &&
   $(sysctl -n net.swift.beta) == 800 &&
   $(sysctl -n net.swift.max_mdf) == 500 &&
   $(sysctl -n net.swift.min_cwnd) == 10 &&
   $(sysctl -n net.swift.max_cwnd) == 256000 &&
   $(sysctl -n net.swift.retx_reset_threshold) == 3 ]]
check $? "every attribute has its table default (Isekai's)"

setup_ns A B
ip netns exec "$A" sysctl -qw net.swift.base_target_ns=300000
[[ $(ip netns exec "$A" sysctl -n net.swift.base_target_ns) == 300000 &&
   $(ip netns exec "$B" sysctl -n net.swift.base_target_ns) == 25000 ]]
check $? "a write stays in its netns"
check_fail "beta=1001 is refused" -- ip netns exec "$A" sysctl -qw net.swift.beta=1001
check_fail "min_cwnd=0 is refused" -- ip netns exec "$A" sysctl -qw net.swift.min_cwnd=0
check_fail "hops=256 is refused" -- ip netns exec "$A" sysctl -qw net.swift.hops=256
[[ $(ip netns exec "$A" sysctl -n net.swift.beta) == 800 ]]
check $? "a refused write keeps the old value"
echo 4 > $P/hops
setup_ns C
[[ $(ip netns exec "$C" sysctl -n net.swift.hops) == 4 ]]
check $? "a new netns starts from the module parameter"
echo 1 > $P/hops

ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=swift
check_fail "modprobe -r is refused while a netns default uses it" -- modprobe -r tcp_swift
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=cubic
modprobe -r tcp_swift
check $? "modprobe -r works once nothing uses it"
exit $RET

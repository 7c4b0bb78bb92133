#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_nscc loading: a bad module parameter fails the load; setting the
# default congestion control autoloads the module; unloading is refused
# while a namespace default or a socket uses it, and works afterwards.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"

modprobe -r tcp_nscc 2>/dev/null
check_fail "modprobe tcp_nscc gamma=1001 (above 1000) is refused" -- \
	modprobe tcp_nscc gamma=1001
! grep -q '^tcp_nscc ' /proc/modules
check $? "the refused load left no module behind"

sysctl -qw net.ipv4.tcp_congestion_control=nscc
check $? "sysctl net.ipv4.tcp_congestion_control=nscc autoloads tcp_nscc"
grep -qw nscc /proc/sys/net/ipv4/tcp_available_congestion_control
check $? "nscc is listed in tcp_available_congestion_control"
[[ -r /sys/module/tcp_nscc/parameters/config_base_rtt_ns ]]
check $? "module parameters are under /sys/module/tcp_nscc/parameters"
sysctl -qw net.ipv4.tcp_congestion_control=cubic
allow_cc nscc
check $? "nscc added to tcp_allowed_congestion_control (needed by other netns)"

setup_ns A B
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=nscc
check $? "netns A makes nscc its default"
check_fail "modprobe -r is refused while a netns default is nscc" -- \
	modprobe -r tcp_nscc
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=cubic

# An established connection whose sockets use nscc.
link_ns "$A" a0 1 "$B" b0 2
ip netns exec "$B" python3 "$XFER" server 198.18.0.2 5001 --cc nscc >/dev/null &
srv=$!
hold_new HOLD
ip netns exec "$A" python3 "$XFER" client 198.18.0.2 5001 --while-exists "$HOLD" --cc nscc \
	>"/tmp/load-client.$$" &
cli=$!
busywait 30000 sh -c "ip netns exec $A ss -tnH state established | grep -q 5001"
check $? "a connection with nscc is established"
check_fail "modprobe -r is refused while a socket uses nscc" -- \
	modprobe -r tcp_nscc
rm -f "$HOLD"
wait $cli $srv
grep -q 'cc=nscc' "/tmp/load-client.$$"
check $? "the client's socket ran nscc ($(cat "/tmp/load-client.$$"))"
rm -f "/tmp/load-client.$$"

# Sockets in TIME_WAIT do not hold the module; closed ones release it.
busywait 30000 modprobe -r tcp_nscc 2>/dev/null
check $? "modprobe -r works once no socket or default uses nscc"
! grep -q '^tcp_nscc ' /proc/modules
check $? "the module is gone"
modprobe tcp_nscc
check $? "modprobe tcp_nscc loads it again"
exit $RET

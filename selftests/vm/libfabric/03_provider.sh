#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The provider's own test program (fi_mrt_test.c) over libfabric's API,
# with endpoints in two namespaces, IPv4 and IPv6: completions, flags and
# FI_SOURCE; tagged matching under ignore masks; unexpected messages
# matched out of order; FI_ORDER_SAS; truncation (FI_ETRUNC, olen); 3000
# sends against tx_size 1024; fi_cancel; the CQ's fd waking poll(),
# fi_trywait and fi_cq_signal; FI_DIRECTED_RECV; remote CQ data, inject
# and iovecs; a peer with no endpoint (FI_ECONNREFUSED) and a host that
# does not answer (FI_ETIMEDOUT or FI_EHOSTUNREACH, with A's retry budget
# cut to 2 so that it comes in a second or so).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/fi_lib.bash"
T=$TOP/selftests/vm/libfabric/fi_mrt_test
[[ -x $T ]] || { check 1 "fi_mrt_test is built"; exit 1; }

fi_pair || exit 1
ip netns exec "$A" sysctl -qw net.mrt.retry_budget=2 net.mrt.rto_max_us=200000
"$T" "$A" "$B" 4 198.18.0.99
check $? "IPv4: fi_mrt_test"
"$T" "$A" "$B" 6 2001:db8::99
check $? "IPv6: fi_mrt_test"
exit $RET

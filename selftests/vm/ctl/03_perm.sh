#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The permission model: anyone may read (as sysctls are readable); a set
# needs CAP_NET_ADMIN in the user namespace that owns the network
# namespace (GENL_UNS_ADMIN_PERM).  So root without CAP_NET_ADMIN is
# refused with EPERM, and so is the root of a new user namespace in the
# initial network namespace, while the root of a user namespace may tune
# a network namespace it owns, as it may write that namespace's sysctls.
source "$(dirname "$0")/../lib.sh"

require_cmd setpriv || exit $ksft_skip
require_cmd unshare || exit $ksft_skip
modprobe tcp_nscc || exit 1
NOADMIN=(setpriv --bounding-set=-net_admin --inh-caps=-net_admin)

out=$("${NOADMIN[@]}" "$FABCTL" attr set nscc gamma=600 2>&1)
[[ $? -ne 0 && $out == *"Operation not permitted"* ]]
check $? "without CAP_NET_ADMIN a set is refused with EPERM: $out"
[[ $(sysctl -n net.nscc.gamma) == 800 ]]
check $? "the refused set changed nothing"
"${NOADMIN[@]}" "$FABCTL" attr show nscc gamma | grep -q ' 800 '
check $? "without CAP_NET_ADMIN the attributes can still be read"
"${NOADMIN[@]}" "$FABCTL" stats nscc >/dev/null
check $? "and the counters"

out=$(unshare -U -r "$FABCTL" attr set nscc gamma=600 2>&1)
[[ $? -ne 0 && $out == *"Operation not permitted"* ]]
check $? "the root of a new user namespace cannot set the initial netns: $out"

out=$(unshare -U -r -n sh -c "ip link set lo up; $FABCTL attr set nscc gamma=610 &&
	sysctl -n net.nscc.gamma && $FABCTL attr show nscc gamma" 2>&1)
[[ $? -eq 0 && $out == 610$'\n'* ]]
check $? "the root of a user namespace tunes a netns it owns: $(head -1 <<<"$out")"
[[ $(sysctl -n net.nscc.gamma) == 800 ]]
check $? "the initial netns kept 800"

exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The permission model: anyone may read (as sysctls are readable); a set
# needs CAP_NET_ADMIN in the user namespace that owns the network
# namespace (GENL_UNS_ADMIN_PERM).  So root without CAP_NET_ADMIN is
# refused with EPERM, and so is the root of a new user namespace in the
# initial network namespace, while the root of a user namespace may tune
# a network namespace it owns, as it may write that namespace's sysctls.
#
# But not its limits above the initial namespace's: in a netns its user
# namespace owns, the root may lower mrt's max_pdcs (a limit, as
# max_msg_bytes, max_psn_range and pdc_idle_ms are) or set it up to the
# initial netns's value, never above (EPERM and the reason, by sysctl and
# by netlink, all or nothing), and a new such netns starts at most at the
# initial netns's value; the module parameter stays as it was.
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

modprobe mrt || exit 1
P=/proc/sys/net/mrt/max_pdcs
top=$(<$P) low=$((top / 4)) t=$(scaled 30)
defer "echo $top >$P"
why="a namespace owned by a non-initial user namespace cannot raise it above the initial namespace's"

# One shell in a new user namespace and netns for several steps (a process
# start costs under TCG): in_u CMDS runs CMDS there, REPLY is all they
# printed (errors included), on one line.
in_u() {
	local line
	REPLY=
	printf '%s; echo @@\n' "$1" >&"${U[1]}" || return 1
	while read -r -t "$t" line <&"${U[0]}"; do
		[[ $line == @@ ]] && return 0
		REPLY+="$line "
	done
	return 1
}
coproc U { exec unshare -U -r -n bash 2>&1; }

in_u "echo v=\$(<$P); $FABCTL attr show mrt max_pdcs"
[[ $REPLY == "v=$top mrt "*" (limit) "* ]]
check $? "a user namespace's netns starts max_pdcs, a limit, at the initial netns's $top: $REPLY"
in_u "echo $((top + 1)) >$P; echo rc=\$? v=\$(<$P)"
[[ $REPLY == *"Operation not permitted"*" rc=1 v=$top " ]]
check $? "its root cannot raise it above $top by sysctl (EPERM): $REPLY"
in_u "$FABCTL attr set mrt gamma=600 max_pdcs=$((top + 1)); echo rc=\$? \$(</proc/sys/net/mrt/gamma) v=\$(<$P)"
[[ $REPLY == "fabctl: mrt: max_pdcs: $why ($top): Operation not permitted rc=1 800 v=$top " ]]
check $? "nor by netlink, with the reason, and nothing of that set applies: $REPLY"
in_u "echo $((top / 2)) >$P; echo rc=\$? v=\$(<$P); $FABCTL attr set mrt max_pdcs=$top; echo rc=\$? v=\$(<$P)"
[[ $REPLY == "rc=0 v=$((top / 2)) rc=0 v=$top " ]]
check $? "it lowers it by sysctl and sets it back up to $top by netlink: $REPLY"

# The initial netns lowers its own: the user namespace's netns, above it
# now, may still lower its value, not raise it.
echo $low >$P
in_u "echo $((top / 2)) >$P; echo rc=\$? v=\$(<$P); echo $((top / 2 + 1)) >$P; echo rc=\$? v=\$(<$P)"
[[ $REPLY == "rc=0 v=$((top / 2)) "*"Operation not permitted"*" rc=1 v=$((top / 2)) " ]]
check $? "after the initial netns went down to $low, one above it lowers but does not raise: $REPLY"
printf 'exit\n' >&"${U[1]}"
wait "$U_PID"

coproc U { exec unshare -U -r -n bash 2>&1; }
in_u "echo v=\$(<$P) param=\$(</sys/module/mrt/parameters/max_pdcs); echo $((low + 1)) >$P; echo rc=\$? v=\$(<$P); echo $low >$P; echo rc=\$?"
[[ $REPLY == "v=$low param=$top "*"Operation not permitted"*" rc=1 v=$low rc=0 " ]]
check $? "a new one starts at $low (the module parameter stays $top), not above: $REPLY"
printf 'exit\n' >&"${U[1]}"
wait "$U_PID"

[[ $(dmesg | grep -cF -e "net/mrt: max_pdcs: $why ($top)" -e "net/mrt: max_pdcs: $why ($low)") -ge 3 ]]
check $? "each refused sysctl write left its reason in the kernel log"

exit $RET

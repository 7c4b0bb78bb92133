#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sysctl fuzzer (sysfuzz.py): random strings to every attribute's
# sysctl in a new netns, and to every module parameter (the global
# defaults, restored afterwards), each write held to a model of the text
# path: what it refuses is refused with EINVAL and changes nothing, what it
# accepts is the model's value or refused by a rule across attributes.
# 20 writes per file here; make soak (LONG=1) 400.
source "$(dirname "$0")/../lib.sh"

n=20
((LONG)) && n=400
seed=${FUZZ_SEED:-$RANDOM}
log "# seed $seed"
for m in tcp_nscc tcp_dcqcn tcp_swift mrt; do
	modprobe "$m" || exit 1
done
setup_ns A || exit 1
out=$(ip netns exec "$A" python3 "$TOP/selftests/vm/reliability/sysfuzz.py" "$n" "$seed" --params)
rc=$?
log "$out" | sed 's/^/# /'
check $rc "every write refused or taken as the model says, nothing else changed"
# a new netns starts from the (restored) module parameters
setup_ns B || exit 1
[[ $(ip netns exec "$B" sysctl -n net.nscc.gamma) == $(cat /sys/module/tcp_nscc/parameters/gamma) ]]
check $? "a new netns starts from the module parameters, restored"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 10^4 malformed requests to the fabric family (genl.py fuzz): random
# commands and attributes, truncated nests, unterminated and oversized
# strings, wrong types, and sets that each carry a defect.  No crash (the
# VM harness fails on any oops or WARN), no request unanswered, no
# defective set accepted, and no value of any module changed.
source "$(dirname "$0")/../lib.sh"

for m in nscc dcqcn swift; do
	modprobe "tcp_$m" || exit 1
done
setup_ns A || exit 1
snap() {
	for m in nscc dcqcn swift; do
		ip netns exec "$A" sysctl "net.$m"
	done
	ip netns exec "$A" "$FABCTL" -j attr show
}
before=$(snap)
seed=${FUZZ_SEED:-fabric-$RANDOM}
log "# seed $seed"
ip netns exec "$A" python3 "$TOP/selftests/vm/ctl/genl.py" fuzz 10000 "$seed"
check $? "every malformed request was answered and no defective set accepted"
[[ $(snap) == "$before" ]]
check $? "no attribute of any module changed"
"$FABCTL" -n "$A" attr set nscc gamma=700 && [[ $(ip netns exec "$A" sysctl -n net.nscc.gamma) == 700 ]]
check $? "the family still works afterwards"
exit $RET

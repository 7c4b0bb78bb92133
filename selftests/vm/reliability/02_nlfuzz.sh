#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink fuzzer (nlfuzz.py) at the control plane, in a namespace where
# every module is loaded and mrt has destinations and PDCs: the "fabric"
# and "mrt" generic netlink families, driven by their YNL specs, and
# sch_fabric's options through rtnetlink.  Every request is answered (the
# VM harness fails on any oops or WARN), and no refused request changes
# anything: the fuzzer compares what sets can change before and after
# each refused set.  3 x 2,000 messages here; make soak (LONG=1) sends
# 40,000 + 30,000 + 30,000.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../mrt/mrt_lib.bash"

F=$TOP/selftests/vm/reliability/nlfuzz.py
SPECS=$TOP/Documentation/netlink/specs
n_fabric=2000 n_mrt=2000 n_qdisc=2000
((LONG)) && n_fabric=40000 n_mrt=30000 n_qdisc=30000
seed=${FUZZ_SEED:-$RANDOM}
log "# seed $seed"

for m in nscc dcqcn swift; do
	modprobe "tcp_$m" || exit 1
done
modprobe sch_fabric || exit 1
mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" pdc_idle_ms=600000 || exit 1
tcf -n "$A" qdisc add dev a0 root fabric rate 100mbit limit 100kb ecn_min 20kb ecn_max 40kb ||
	exit 1
# destinations and PDCs for the mrt family's requests to find
mrt_xfer "$A" "$B" 198.18.0.2 warm --count 20 --max-size 8192
mrt_xfer_ok warm 20
check $? "a transfer leaves mrt destinations and PDCs in A"
"$FABCTL" -n "$A" mrt ev deny 198.18.0.2 49160-49161 >/dev/null
check $? "a deny rule to keep"
opts0=$(tcf -n "$A" -j qdisc show dev a0)

run() {
	local what=$1 out
	shift
	out=$(ip netns exec "$A" python3 "$F" "$@")
	rc=$?
	log "# $out"
	check $rc "$what: every request answered, no refused one changed anything"
}
run "fabric family, $n_fabric messages" genl "$SPECS/fabric.yaml" "$n_fabric" "$seed"
run "mrt family, $n_mrt messages" genl "$SPECS/mrt.yaml" "$n_mrt" "$seed"
run "sch_fabric options, $n_qdisc messages" qdisc a0 "$n_qdisc" "$seed"

# afterwards: every family still works
"$FABCTL" -n "$A" attr set nscc gamma=700 && [[ $(ip netns exec "$A" sysctl -n net.nscc.gamma) == 700 ]]
check $? "the fabric family still sets attributes"
"$FABCTL" -n "$A" -j mrt ev rules | jq -e 'length >= 0' >/dev/null
check $? "the mrt family still answers"
# the fuzzer's accepted changes left the port as they chose (a rate of a
# few bits, every packet trimmed...): a fresh one for the last transfer
log "# the port after the fuzzer: $(tcf -n "$A" -j qdisc show dev a0 | jq -c '.[0]')"
tcf -n "$A" qdisc del dev a0 root && tcf -n "$A" qdisc add dev a0 root fabric rate 100mbit &&
	tcf -n "$A" qdisc change dev a0 root fabric limit 50kb &&
	[[ $(tcf -n "$A" -j qdisc show dev a0 | jq -c '.[0] | [.kind, .options.limit]') == "$(jq -c '.[0] | [.kind, 51200]' <<<"$opts0")" ]]
check $? "sch_fabric still takes a new port and a change"
mrt_xfer "$A" "$B" 198.18.0.2 after --count 20 --max-size 8192
mrt_xfer_ok after 20
check $? "mrt still carries messages"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fabsim (sim/): a small scenario (sim/scenarios/check.conf) through every
# endpoint kind, holding each run to the invariants a simulation must keep
# at any speed: every flow completes, each delivers exactly its bytes
# (none twice), every switch port accounts for each arrival (sent,
# dropped or still queued), and one flow's core trace replays through
# ccreplay to the very rows the core went through in the simulator.  mrt
# with trimming must trim (the incast passes trim_at) and retransmit what
# was trimmed; mrt through a spine link that fails mid-transfer, never
# rerouted, must still deliver every flow.  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/selftests/lib/tap.sh"
SIM=$top/sim/fabsim
CCR=$top/tools/ccreplay/ccreplay
CONF=$top/sim/scenarios/check.conf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

endpoints=(mrt-nscc mrt-nscc-trim mrt-nscc-mrc tcp-nscc tcp-nscc-mrc tcp-dcqcn tcp-swift tcp-dctcp
	tcp-cubic)
echo "TAP version 13"
echo "1..$((${#endpoints[@]} * 2 + 18))"

# run NAME ENDPOINT [fabsim args]: the run's summary in $out/NAME
run() {
	local name=$1 ep=$2
	shift 2
	timeout 120 "$SIM" "${CONF_RUN:-$CONF}" --endpoint "$ep" --out "$out/$name" "$@" \
		>"$out/$name.log" 2>&1
}

# invariants NAME: the summary's and flows.csv's conservation checks
invariants() {
	local s=$out/$1/summary.json
	[[ -f $s ]] || return 1
	[[ $(jq '.incomplete + .over_delivered_flows + .duplicate_bytes + .port_imbalance' "$s") == 0 ]] ||
		return 1
	[[ $(jq '.flows' "$s") -gt 0 ]] || return 1
	# every flow's rcvd is its bytes
	awk -F, 'NR > 1 && $9 != $4 { bad = 1 } END { exit bad }' "$out/$1/flows.csv"
}

# replay NAME: the flow's trace through ccreplay gives its rows
replay() {
	local d=$out/$1 cmd
	[[ -s $d/core.trace && $(wc -l <"$d/core.rows") -gt 10 ]] || return 1
	cmd=$(head -n1 "$d/core.trace" | sed -n 's/^# replay: ccreplay //p')
	[[ -n $cmd ]] || return 1
	# shellcheck disable=SC2086
	"$CCR" $cmd <"$d/core.trace" >"$d/replay.rows" && cmp -s "$d/core.rows" "$d/replay.rows"
}

for ep in "${endpoints[@]}"; do
	run "$ep" "$ep" --trace-flow 1
	tap_ok $? "$ep: the incast runs"
	invariants "$ep"
	tap_ok $? "$ep: all flows complete, bytes conserved, ports balanced"
done

for run in tcp-nscc tcp-dcqcn tcp-swift mrt-nscc mrt-nscc-trim; do
	replay "$run"
	tap_ok $? "$run: flow 1's core trace replays through ccreplay to the same rows"
done

s=$out/mrt-nscc-trim/summary.json
jq -e '.trims > 0 and .trim_nacks > 0 and .retransmits >= .trim_nacks' "$s" >/dev/null
tap_ok $? "mrt-nscc-trim: the switch trims, the sender gets trim NACKs and sends each again"
jq -e '.trims == 0' "$out/mrt-nscc/summary.json" >/dev/null
tap_ok $? "mrt-nscc: data not sent trimmable is never trimmed"

# Batches (tx_batch_max_pkts, default 8): each batch on the next EV, so a
# flow of 64 packets reaches at least 8 of its 32 EVs; the bytes add up
awk -F, 'NR > 1 { if ($3 > 0) used[$1]++; f[$1] = 1 }
	END { for (i in f) if (used[i] < 8) bad = 1; exit bad }' "$out/mrt-nscc/ev.csv" &&
	awk -F, 'NR == FNR { if (FNR > 1) sent[$1] += $3; next }
		FNR > 1 && sent[$1] < $4 { bad = 1 } END { exit bad }' \
		"$out/mrt-nscc/ev.csv" "$out/mrt-nscc/flows.csv"
tap_ok $? "mrt-nscc: every flow sprays its batches over its EVs, at least its bytes in all"
# one packet per batch: every EV of every flow carries data (spraying)
run mrt-nscc-b1 mrt-nscc --set mrt.tx_batch_max_pkts=1 &&
	awk -F, 'NR > 1 && $3 == 0 { zero = 1 } END { exit zero }' "$out/mrt-nscc-b1/ev.csv" &&
	jq -e --slurpfile b "$out/mrt-nscc/summary.json" \
		'$b[0].fct_max_us <= 1.01 * .fct_max_us' "$out/mrt-nscc-b1/summary.json" >/dev/null
tap_ok $? "mrt-nscc, tx_batch_max_pkts 1: every flow sprays over all its EVs; batches end the incast no later (1%)"

# a receiving application slower than the incast: its buffer fills, the
# ACKs carry a receiver penalty (uet), packets that do not fit are NACKed
# NO_RESOURCE and sent again after a wait
run slowrx mrt-nscc --set receiver.app_gbps=100 --set receiver.rcvbuf_bytes=262144 \
	--set mrt.rto_min_us=100
invariants slowrx &&
	jq -e '.penalty_acks > 0 and .no_resource_nacks > 0' "$out/slowrx/summary.json" >/dev/null
tap_ok $? "mrt-nscc: a slow receiver: penalties in the ACKs, NO_RESOURCE NACKs, every flow delivered"

run fail mrt-nscc-trim --set fail.leaf=1 --set fail.spine=0 --set fail.at_ns=20000 \
	--set mrt.rto_min_us=100
invariants fail && jq -e '.link_failure_drops > 0 and .failed == 0' "$out/fail/summary.json" >/dev/null
tap_ok $? "mrt-nscc-trim: a spine link fails mid-transfer (never rerouted): every flow delivered"

# scenario 1's 8->1 incast with one BDP of buffer (300 kB at 400 Gbit/s
# x 6 us), trimming at the limit: headers trimmed at a spine (its ECMP
# share overflows in the first round trip) join the bottleneck's header
# queue, so every loss is a trim its NACK recovers, and no timer expires
# (with this topology seed, 21 such headers were dropped as data there
# and each waited for its timer)
CONF_RUN=$top/sim/scenarios/1-incast8.conf run bdp mrt-nscc-trim --set switch.limit=300000 \
	--set switch.trim_at=300000 --set topology.seed=4
invariants bdp &&
	jq -e '.drops == 0 and .rtos == 0 and .trims > 0 and .trim_nacks == .trims and
		.retransmits == .trims' "$out/bdp/summary.json" >/dev/null &&
	awk -F, '$1 ~ /^spine/ && $7 > 0 { up = 1 } END { exit !up }' "$out/bdp/ports.csv"
tap_ok $? "mrt-nscc-trim: one BDP of buffer, trims upstream too: every loss a trim NACK, no timer"

# a trace: flows starting late, two on one pair (one NSCC between them);
# flow 3 shares flow 0's destination, flow 4's is born at 40 us: both
# cores' traces replay (each destination's own clock)
CONF_RUN=$top/sim/scenarios/check-trace.conf run trace mrt-nscc-trim --trace-flow 3
CONF_RUN=$top/sim/scenarios/check-trace.conf run trace4 mrt-nscc-trim --trace-flow 4
invariants trace && [[ $(jq .flows "$out/trace/summary.json") == 6 ]] && replay trace &&
	replay trace4
tap_ok $? "mrt-nscc-trim: a trace's six flows complete, conserved; late flows' traces replay"
CONF_RUN=$top/sim/scenarios/check-trace.conf run trace-tcp tcp-nscc --trace-flow 4
invariants trace-tcp && replay trace-tcp
tap_ok $? "tcp-nscc: the same trace; the flow starting at 40 us replays"
# three PDCs to one destination at once: they share its window, and those
# it blocks wait on it and are woken by the others' ACKs
CONF_RUN=$top/sim/scenarios/check-trace.conf run pair mrt-nscc --set workload.file=check-pair.txt
invariants pair && [[ $(jq .flows "$out/pair/summary.json") == 3 ]]
tap_ok $? "mrt-nscc: three flows to one destination share its window, all complete"
CONF_RUN=$top/sim/scenarios/check-a2a.conf run a2a mrt-nscc
invariants a2a && [[ $(jq .flows "$out/a2a/summary.json") == 12 ]]
tap_ok $? "mrt-nscc: all-to-all among 4 hosts, 12 flows, conserved"

CONF_RUN=$top/sim/scenarios/check-perm.conf run perm tcp-nscc
invariants perm
tap_ok $? "tcp-nscc: a permutation over both leaves completes, conserved"

# The switch model: marks happen (the incast's queue passes ecn_max),
# and a port that marks counts no more marks than packets it sent.
jq -e '.ecn_marks > 0' "$out/tcp-dctcp/summary.json" >/dev/null &&
	awk -F, 'NR > 1 && $6 > $2 + 0 { bad = 1 } END { exit bad }' "$out/tcp-dctcp/ports.csv"
tap_ok $? "tcp-dctcp: the bottleneck marks CE, never more than it sent"
exit $tap_rc

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fabsim (sim/): a small scenario (sim/scenarios/check.conf) through every
# endpoint kind, holding each run to the invariants a simulation must keep
# at any speed: every flow completes, each delivers exactly its bytes
# (none twice), every switch port accounts for each arrival (sent,
# dropped or still queued), and one flow's core trace replays through
# ccreplay to the very rows the core went through in the simulator.
# TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/selftests/lib/tap.sh"
SIM=$top/sim/fabsim
CCR=$top/tools/ccreplay/ccreplay
CONF=$top/sim/scenarios/check.conf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

endpoints=(tcp-nscc tcp-nscc-mrc tcp-dcqcn tcp-swift tcp-dctcp tcp-cubic)
echo "TAP version 13"
echo "1..$((${#endpoints[@]} * 2 + 5))"

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

for algo in nscc dcqcn swift; do
	replay "tcp-$algo"
	tap_ok $? "tcp-$algo: flow 1's core trace replays through ccreplay to the same rows"
done

CONF_RUN=$top/sim/scenarios/check-perm.conf run perm tcp-nscc
invariants perm
tap_ok $? "tcp-nscc: a permutation over both leaves completes, conserved"

# The switch model: marks happen (the incast's queue passes ecn_max),
# and a port that marks counts no more marks than packets it sent.
jq -e '.ecn_marks > 0' "$out/tcp-dctcp/summary.json" >/dev/null &&
	awk -F, 'NR > 1 && $6 > $2 + 0 { bad = 1 } END { exit bad }' "$out/tcp-dctcp/ports.csv"
tap_ok $? "tcp-dctcp: the bottleneck marks CE, never more than it sent"
exit $tap_rc

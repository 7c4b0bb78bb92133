#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ECN marking on the data queue's backlog.  A Not-ECT prefill builds a
# standing queue at a port that cannot drain it meanwhile (1 kbit/s; the
# rate is raised afterwards to deliver the lot); the datagrams that follow
# are ECT(0):
#   - with the whole queue below ecn_min, none is marked;
#   - with the queue above ecn_max, at least 95% arrive CE;
#   - Not-ECT datagrams above ecn_max are never marked.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo

# run_case TOS: prefill 120 Not-ECT datagrams, then 60 with TOS; print the
# receiver's JSON for the 60.  The port holds all 180 (188 kB of 200): the
# receiver ends once it has them, or after 30 s (scaled) without one.
run_case() {
	local out
	out=$(mktemp)
	udp_recv "$B" "$out" 198.18.2.1 7000 --idle "$(scaled 30)" --expect 180
	ip netns exec "$A" python3 "$U" send 198.18.2.1 7000 --count 60 --size 1000 \
		--tos "$1" --prefill 120 --prefill-tos 0 >/dev/null
	tcf -n "$R" qdisc change dev r1 root fabric rate 100mbit
	wait
	jq -c '{n: ([.seqs[] | select(.[0] != 4294967295)] | length),
		ce: ([.seqs[] | select(.[0] != 4294967295 and (.[2] % 4) == 3)] | length)}' "$out"
	rm -f "$out" "$out.err"
}

tcf -n "$R" qdisc add dev r1 root fabric rate 1kbit limit 200kb ecn_min 300kb ecn_max 400kb
r=$(run_case 0x02)
log "below ecn_min: $r, ecn_marked $(fabric_stat "$R" r1 ecn_marked), max_backlog $(fabric_stat "$R" r1 max_backlog)"
[[ $(jq .ce <<<"$r") -eq 0 && $(jq .n <<<"$r") -gt 0 && $(fabric_stat "$R" r1 ecn_marked) -eq 0 ]]
check $? "a standing queue below ecn_min marks nothing"
[[ $(fabric_stat "$R" r1 max_backlog) -gt 100000 ]]
check $? "the queue did stand (max_backlog above 100 kB)"

tcf -n "$R" qdisc del dev r1 root
tcf -n "$R" qdisc add dev r1 root fabric rate 1kbit limit 200kb ecn_min 10kb ecn_max 20kb ecn_prob 20
r=$(run_case 0x02)
n=$(jq .n <<<"$r"); ce=$(jq .ce <<<"$r")
log "above ecn_max: $r"
(( n > 0 && ce * 100 >= n * 95 ))
check $? "above ecn_max at least 95% of ECT datagrams arrive CE ($ce of $n)"

tcf -n "$R" qdisc del dev r1 root
tcf -n "$R" qdisc add dev r1 root fabric rate 1kbit limit 200kb ecn_min 10kb ecn_max 20kb
r=$(run_case 0x00)
log "Not-ECT above ecn_max: $r, ecn_marked $(fabric_stat "$R" r1 ecn_marked)"
[[ $(jq .ce <<<"$r") -eq 0 && $(jq .n <<<"$r") -gt 0 && $(fabric_stat "$R" r1 ecn_marked) -eq 0 ]]
check $? "Not-ECT datagrams are never marked"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast 4 to 1 through a trimming port, IPv4 and IPv6: four senders
# (star_topo) send to one receiver at once through R's port toward it, a
# 50 Mbit/s sch_fabric that trims data marked trimmable (DSCP 10) above
# 16 KB to 128 bytes.  Every trimmed packet is NACKed (TRIMMED) and sent
# again at once; the retransmission floor is 2 s, far above any RTT here,
# so a timer fires only if a packet is lost, and none is: every recovery is
# by NACK.  NSCC's Quick Adapt fires on the senders (total_qa_count).
# Every message arrives once, intact, confirmed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
star_topo 4 || exit 1
tcf -n "$R" qdisc add dev rb root fabric rate 50mbit limit 1mb trim_at 16kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1
SS=("$S1" "$S2" "$S3" "$S4")
mrt_tune "${SS[@]}" "$B" rto_max_us=4000000 rto_min_us=2000000 trimmable_dscp=10 \
	trim_dscp=11 data_rate_mbps=1000 || exit 1

sum() { local ns t=0; for ns in "${SS[@]}"; do t=$((t + $(mrt_stat "$ns" "$1"))); done; echo $t; }

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.100.1; else dst=2001:db8:100::1; fi
	q0=$(fabric_stat "$R" rb trimmed)
	d0=$(fabric_stat "$R" rb drop_limit)
	n0=$(sum total_nack_trimmed_rx)
	t0=$(sum rtx_trim)
	r0=$(sum total_rto_events)
	qa0=$(sum total_qa_count)
	rm -f "$MRT_J"/ready.*
	pids=()
	for i in 1 2 3 4; do
		ip netns exec "$B" python3 "$MRTMSG" server "$dst" $((7000 + i)) --rcvbuf 33554432 \
			--timeout 120 --ready "$MRT_J/ready.$i" --count 24 --max-size 131072 \
			--seed $((fam * 10 + i)) >"$MRT_J/in$fam.$i.srv" &
		pids+=($!)
	done
	for i in 1 2 3 4; do busywait 10000 test -e "$MRT_J/ready.$i" || exit 1; done
	for i in 1 2 3 4; do
		ip netns exec "${SS[i - 1]}" python3 "$MRTMSG" client "$dst" $((7000 + i)) \
			--sndbuf 33554432 --confirm --wait 120 --count 24 --max-size 131072 \
			--seed $((fam * 10 + i)) >"$MRT_J/in$fam.$i.cli" &
		pids+=($!)
	done
	wait "${pids[@]}"
	ok=0
	for i in 1 2 3 4; do
		log "# IPv$fam sender $i: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/in$fam.$i.cli")"
		mrt_xfer_ok "in$fam.$i" 24 && mrt_confirmed "in$fam.$i" 24 || ok=1
	done
	((ok == 0))
	check $? "IPv$fam: 4 x 24 messages into one port, once each, intact, confirmed"
	q=$(( $(fabric_stat "$R" rb trimmed) - q0 ))
	d=$(( $(fabric_stat "$R" rb drop_limit) - d0 ))
	n=$(( $(sum total_nack_trimmed_rx) - n0 ))
	t=$(( $(sum rtx_trim) - t0 ))
	r=$(( $(sum total_rto_events) - r0 ))
	qa=$(( $(sum total_qa_count) - qa0 ))
	log "# IPv$fam: port trimmed $q, dropped $d; senders: trim NACKs $n, rtx_trim $t, RTOs $r, Quick Adapt $qa"
	((q > 0 && n > 0 && t == n))
	check $? "IPv$fam: the port trimmed, the senders got trim NACKs and sent each again"
	((r == 0))
	check $? "IPv$fam: no retransmission timer fired: every trimmed packet came back by NACK"
	((qa > 0))
	check $? "IPv$fam: Quick Adapt fired"
done
for ns in "${SS[@]}"; do mrt_snmp "$ns"; done
exit $RET

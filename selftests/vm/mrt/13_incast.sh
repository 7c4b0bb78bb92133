#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast 4 to 1 through a trimming port, IPv4 and IPv6: four senders
# (star_topo) send to one receiver at once through R's port toward it, a
# 20 Mbit/s sch_fabric that trims data marked trimmable (DSCP 10) above
# 16 KB to 128 bytes.  "At once": each sender waits before its first
# message until all four are up (mrtmsg.py --pause-at 0), since python
# starts seconds apart on a slow kernel and one sender's window alone
# (a BDP at 1 Gbit/s) stays below 16 KB: on a KCSAN kernel the staggered
# senders never filled a 50 Mbit/s port.  Every trimmed packet is NACKed
# (TRIMMED) and sent again at once; the retransmission floor is 2 s, far
# above any RTT here, so a timer fires only if a packet is lost, and none
# is: every recovery is by NACK.  NSCC's Quick Adapt fires on the senders
# (total_qa_count).
# Every message arrives once, intact, confirmed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
star_topo 4 || exit 1
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb trim_at 16kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1
SS=("$S1" "$S2" "$S3" "$S4")
mrt_tune "${SS[@]}" "$B" rto_max_us=4000000 rto_min_us=2000000 trimmable_dscp=10 \
	trim_dscp=11 data_rate_mbps=1000 || exit 1

# sums: the senders' totals of the counters the test reads, in this order
# (one process per sender); a counter missing anywhere sums to "none"
KEYS=(total_nack_trimmed_rx rtx_trim total_rto_events total_qa_count)
sums() {
	local ns i v t=(0 0 0 0)
	for ns in "${SS[@]}"; do
		i=0
		while read -r v; do
			if [[ $v =~ ^[0-9]+$ && ${t[i]} != none ]]; then
				t[i]=$((t[i] + v))
			else
				t[i]=none
			fi
			i=$((i + 1))
		done < <(proc_stats "$ns" mrt/snmp "${KEYS[@]}")
	done
	echo "${t[@]}"
}

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.100.1; else dst=2001:db8:100::1; fi
	{ read -r q0; read -r d0; } < <(fabric_stats "$R" rb trimmed drop_limit)
	read -r n0 t0 r0 qa0 < <(sums)
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
		rm -rf "$MRT_J/p$i"
		mkdir "$MRT_J/p$i"
		ip netns exec "${SS[i - 1]}" python3 "$MRTMSG" client "$dst" $((7000 + i)) \
			--sndbuf 33554432 --confirm --wait 120 --count 24 --max-size 131072 \
			--seed $((fam * 10 + i)) --pause-at 0 --pause-dir "$MRT_J/p$i" \
			>"$MRT_J/in$fam.$i.cli" &
		pids+=($!)
	done
	for i in 1 2 3 4; do busywait 20000 test -e "$MRT_J/p$i/paused.0" || exit 1; done
	touch "$MRT_J"/p{1,2,3,4}/go.0
	wait "${pids[@]}"
	ok=0
	for i in 1 2 3 4; do
		log "# IPv$fam sender $i: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/in$fam.$i.cli")"
		mrt_xfer_ok "in$fam.$i" 24 && mrt_confirmed "in$fam.$i" 24 || ok=1
	done
	((ok == 0))
	check $? "IPv$fam: 4 x 24 messages into one port, once each, intact, confirmed"
	{ read -r q; read -r d; } < <(fabric_stats "$R" rb trimmed drop_limit)
	read -r n t r qa < <(sums)
	all_set "$q0" "$d0" "$n0" "$t0" "$r0" "$qa0" "$q" "$d" "$n" "$t" "$r" "$qa" || {
		check 1 "IPv$fam: the port's and the senders' counters could be read"
		continue
	}
	q=$((q - q0)) d=$((d - d0)) n=$((n - n0)) t=$((t - t0)) r=$((r - r0)) qa=$((qa - qa0))
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

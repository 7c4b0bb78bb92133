#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Malformed and hostile packets from a plain UDP sender, while a
# digest-checked transfer runs beside them, IPv4: each kind of malformed
# packet is counted under its reason (malformed_*), packets for a live PDC
# with PSNs far beyond its window are NACKed and counted (oor_pkts_in),
# ACKs whose SACK bits claim PSNs never sent are counted (ack_unsent_psns)
# and ACKs whose cumulative PSN lies beyond every PSN sent are refused
# (malformed_window), and the transfer loses, duplicates and corrupts
# nothing.  The sender paces its packets, so none is lost on the way and a
# count is at least one and at most what was sent.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

F=$TOP/selftests/vm/mrt/mrtfuzz.py
PORT=4794
mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" || exit 1

REASONS=(short old_version version type flags reserved pdcid key length offset boundary penalty
	window code)
# B's malformed_<reason> counters, in REASONS' order
mapfile -t before < <(proc_stats "$B" mrt/snmp "${REASONS[@]/#/malformed_}")

# Messages 25 ms apart until the hostile packets have gone and the PDCs
# been seen alive after them (the hold file: on a machine of any speed);
# the server reads as many as the client reports it sent.
hold_new hold
rm -f "$MRT_J/fuzz.ready" "$MRT_J/fuzz.count"
ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --rcvbuf 33554432 \
	--timeout 600 --count 100000000 --count-file "$MRT_J/fuzz.count" \
	--ready "$MRT_J/fuzz.ready" >"$MRT_J/fuzz.srv" &
srv=$!
busywait 10000 test -e "$MRT_J/fuzz.ready" || { check 1 "the server started"; exit 1; }
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --sndbuf 33554432 \
	--count 100000000 --max-size 262144 --seed 5 --interval 0.025 --confirm --wait 300 \
	--while-exists "$hold" --count-file "$MRT_J/fuzz.count" >"$MRT_J/fuzz.cli" &
xfer=$!
# the transfer's PDCs, from both ends
busywait 60000 sh -c "ip netns exec $B awk '\$3 == \"rx\"' /proc/net/mrt/pdcs | grep -q ." ||
	{ check 1 "the transfer opened a PDC"; exit 1; }
# (root sees the PDCs' ids, PSNs and keys: the last two columns)
rx=($(ip netns exec "$B" awk '$3 == "rx" { print $1, $2, $7, $5, $11, $19, $20; exit }' \
	/proc/net/mrt/pdcs))
busywait 60000 sh -c "ip netns exec $A awk '\$3 == \"tx\" && \$2 != 0' /proc/net/mrt/pdcs | grep -q ."
tx=($(ip netns exec "$A" awk '$3 == "tx" { print $1, $2, $9, $10, $19, $20; exit }' \
	/proc/net/mrt/pdcs))
log "# rx PDC at B: lid rid peer_ep local_ep cack key rkey = ${rx[*]}; tx PDC at A: lid rid una nxt key rkey = ${tx[*]}"

o0=$(mrt_stat "$B" oor_pkts_in)
u0=$(mrt_stat "$A" ack_unsent_psns)
w0=$(mrt_stat "$A" malformed_window)
ip netns exec "$A" python3 "$F" malformed 198.18.0.2 $PORT 20 >"$MRT_J/m" &
f1=$!
ip netns exec "$A" python3 "$F" oor 198.18.0.2 $PORT "${rx[@]}" 50 >"$MRT_J/o" &
f2=$!
ip netns exec "$B" python3 "$F" sack 198.18.0.1 $PORT "${tx[@]}" 50 >"$MRT_J/s" &
f3=$!
wait $f1 $f2 $f3
m=$(cat "$MRT_J/m")
log "# sent: $m $(cat "$MRT_J/o") $(cat "$MRT_J/s")"
# the PDCs were still there when the last packet went
ip netns exec "$A" awk -v l="${tx[0]}" '$1 == l' /proc/net/mrt/pdcs | grep -q .
check $? "the transfer's sending PDC outlived the hostile packets"
rm -f "$hold"
wait $xfer $srv
log "# fuzz server: $(cat "$MRT_J/fuzz.srv")"
log "# fuzz client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/fuzz.cli")"
sent=$(jq .sent "$MRT_J/fuzz.cli")
mrt_xfer_ok fuzz "$sent" && mrt_confirmed fuzz "$sent" && ((sent > 0))
check $? "the transfer beside them: $sent messages once each, intact, confirmed"
ok=0
mapfile -t after < <(proc_stats "$B" mrt/snmp "${REASONS[@]/#/malformed_}")
mapfile -t sent_by < <(jq -r --args '. as $m | $ARGS.positional[] | $m[.] // 0' "${REASONS[@]}" <<<"$m")
for i in "${!REASONS[@]}"; do
	r=${REASONS[i]}
	d=$((after[i] - before[i]))
	n=${sent_by[i]:-0}
	log "# malformed_$r: sent $n, counted $d"
	(( d >= 1 && d <= n )) || ok=1
done
check $ok "each reason counted its malformed packets (at least one, at most those sent)"
d=$(( $(mrt_stat "$B" oor_pkts_in) - o0 ))
(( d >= 1 && d <= 50 ))
check $? "PSNs beyond the window: counted ($d of 50) and dropped"
d=$(( $(mrt_stat "$A" ack_unsent_psns) - u0 ))
(( d >= 1 && d <= 50 ))
check $? "SACKs of PSNs never sent: counted ($d of 50), those bits dropped"
d=$(( $(mrt_stat "$A" malformed_window) - w0 ))
(( d >= 1 && d <= 50 ))
check $? "a cumulative ACK beyond every PSN sent: refused ($d of 50)"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

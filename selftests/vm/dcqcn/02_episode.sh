#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two dcqcn senders and one receiver through a sch_fabric port that marks
# ECN.  Line rate 1 Gbit/s (floor 100 Mbit/s) into a 200 Mbit/s port:
#   - both flows start episodes (CNPs from the echoed CE marks);
#   - their pacing rates fall and recover (the tracepoint's rates);
#   - no rate ever goes below the floor;
#   - once the bottleneck clears (the senders stop), the episodes end
#     back at line rate.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc dcqcn || exit 1
star_topo 2
tcf -n "$R" qdisc add dev rb root fabric rate 200mbit limit 1mb ecn_min 20kb ecn_max 60kb ecn_prob 20
check $? "port rb: 200mbit, marking from 20 kB (20% at 60 kB)"
for ns in "$S1" "$S2" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
	ip netns exec "$ns" sysctl -qw net.dcqcn.data_rate_mbps=1000
done
trace_on dcqcn

ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5401 >/dev/null &
ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5402 >/dev/null &
ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 5401 --seconds 3 >/dev/null &
ip netns exec "$S2" python3 "$XFER" client 198.18.100.1 5402 --seconds 3 >/dev/null &
sleep 1.5
ip netns exec "$S1" ss -tinH dst 198.18.100.1 | grep -o 'pacing_rate [^ ]*\|dctcp:([^)]*)' | head -2
wait
trace_off dcqcn

T=$TRACEFS/trace
log "port: ecn_marked $(fabric_stat "$R" rb ecn_marked), drops $(fabric_stat "$R" rb drop_limit)"
for i in 1 2; do
	var="S$i"
	log "S$i: $(ip netns exec "${!var}" grep -E '^(cnps|episodes_started|episodes_ended|phase_cut|phase_ai_up) ' \
		/proc/net/dcqcn_stat | tr '\n' ' ')"
	[[ $(ip netns exec "${!var}" awk '$1 == "episodes_started" { print $2 }' /proc/net/dcqcn_stat) -gt 0 ]]
	check $? "flow $i started episodes"
done
awk '/dcqcn_run:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["phase"] == "start") s[v["sport"]] = 1
	r = v["rate_kbps"] + 0; if (min == "" || r < min) min = r
	if (v["phase"] == "end") ends++ }
     END { n = 0; for (k in s) n++
	   printf "flows with episodes %d, lowest rate %d kb/s, episode ends %d\n", n, min, ends
	   exit !(n >= 2) }' $T
check $? "the tracepoint shows both flows starting episodes"
min=$(awk '/dcqcn_run:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "rate_kbps") print kv[2] } }' $T | sort -n | head -1)
(( min >= 100000 && min < 1000000 ))
check $? "rates fell below line rate but never below the 100 Mbit/s floor (lowest $min kb/s)"
grep -q 'dcqcn_run:.*phase=\(fr_up\|ai_up\)' $T
check $? "rates recovered (fast-recovery and additive increases)"
grep -q 'dcqcn_run:.*phase=end .*rate_kbps=1000000 ' $T
check $? "episodes ended back at line rate (1000000 kb/s)"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two dcqcn senders and one receiver through a sch_fabric port that marks
# ECN.  Line rate 1 Gbit/s (floor 100 Mbit/s) into a 20 Mbit/s port, which
# any machine fills:
#   - both flows start episodes (CNPs from the echoed CE marks);
#   - their pacing rates fall and recover (the tracepoint's rates);
#   - no rate ever goes below the floor;
#   - once the bottleneck clears (the port's rate limit is lifted while the
#     flows go on), the episodes end back at line rate.
# Each phase lasts until the counters show what it is for (bounded), so
# nothing depends on the machine's speed.
source "$(dirname "$0")/../lib.sh"

XFER="$(dirname "$0")/../tcpxfer.py"
allow_cc dcqcn || exit 1
star_topo 2
tcf -n "$R" qdisc add dev rb root fabric rate 20mbit limit 1mb ecn_min 20kb ecn_max 60kb ecn_prob 20
check $? "port rb: 20mbit, marking from 20 kB (20% at 60 kB)"
for ns in "$S1" "$S2" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
	ip netns exec "$ns" sysctl -qw net.dcqcn.data_rate_mbps=1000
done
trace_on dcqcn

hold_new HOLD
ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5401 >/dev/null &
ip netns exec "$B" python3 "$XFER" server 198.18.100.1 5402 >/dev/null &
ip netns exec "$S1" python3 "$XFER" client 198.18.100.1 5401 --while-exists "$HOLD" >/dev/null &
ip netns exec "$S2" python3 "$XFER" client 198.18.100.1 5402 --while-exists "$HOLD" >/dev/null &
busywait 60000 stat_ge "$S1" dcqcn_stat episodes_started 1 &&
	busywait 60000 stat_ge "$S2" dcqcn_stat episodes_started 1
check $? "both flows started episodes at the congested port"
ip netns exec "$S1" ss -tinH dst 198.18.100.1 | grep -o 'pacing_rate [^ ]*\|dctcp:([^)]*)' | head -2

# Lift the port's rate limit: no queue, no marks; the loops recover.  The
# congested phase's trace is saved (and the buffer cleared) just before:
# while congested the loops trace at their timers' pace, which can fill the
# buffer in seconds, and the buffer keeps its first events, so the second
# trace must start at the lift to hold the recovery and the episodes' ends.
T1=$(mktemp) T2=$(mktemp)
defer "rm -f $T1 $T2"
ended1=$(proc_stat "$S1" dcqcn_stat episodes_ended)
ended2=$(proc_stat "$S2" dcqcn_stat episodes_ended)
trace_save "$T1"
tcf -n "$R" qdisc change dev rb root fabric rate 0
busywait 60000 stat_ge "$S1" dcqcn_stat episodes_ended $((ended1 + 1)) &&
	busywait 60000 stat_ge "$S2" dcqcn_stat episodes_ended $((ended2 + 1))
check $? "both flows ended an episode once the port was clear"
rm -f "$HOLD"
wait
trace_off dcqcn
trace_save "$T2"
log "trace: $(grep -c dcqcn_run: "$T1") runs while congested, $(grep -c dcqcn_run: "$T2") after"

log "port: ecn_marked $(fabric_stat "$R" rb ecn_marked), drops $(fabric_stat "$R" rb drop_limit)"
for i in 1 2; do
	var="S$i"
	log "S$i: $(ip netns exec "${!var}" grep -E '^(cnps|episodes_started|episodes_ended|phase_cut|phase_ai_up) ' \
		/proc/net/dcqcn_stat | tr '\n' ' ')"
done
awk '/dcqcn_run:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["phase"] == "start") s[v["sport"]] = 1
	r = v["rate_kbps"] + 0; if (min == "" || r < min) min = r
	if (v["phase"] == "end") ends++ }
     END { n = 0; for (k in s) n++
	   printf "flows with episodes %d, lowest rate %d kb/s, episode ends %d\n", n, min, ends
	   exit !(n >= 1) }' "$T1"
check $? "the tracepoint shows the episodes starting"
min=$(awk '/dcqcn_run:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "rate_kbps") print kv[2] } }' \
	"$T1" "$T2" | sort -n | head -1)
(( min >= 100000 && min < 1000000 ))
check $? "rates fell below line rate but never below the 100 Mbit/s floor (lowest $min kb/s)"
grep -q 'dcqcn_run:.*phase=\(fr_up\|ai_up\)' "$T2"
check $? "rates recovered (fast-recovery and additive increases)"
grep -q 'dcqcn_run:.*phase=end .*rate_kbps=1000000 ' "$T2"
check $? "episodes ended back at line rate (1000000 kb/s)"
exit $RET

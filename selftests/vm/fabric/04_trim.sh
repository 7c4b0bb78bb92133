#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trimming, IPv4 and IPv6.  A burst of 1000-byte UDP datagrams into a port
# with trim_at 20kb that cannot drain meanwhile (1 kbit/s, raised after the
# burst to deliver it): those with the trimmable DSCP (10) that
# arrive above trim_at reach the receiver's socket cut to trim_size (128
# bytes of IP datagram: 100 bytes of UDP payload over IPv4, 80 over IPv6),
# with DSCP 11, a valid checksum (the kernel checked it) and the right
# length, and ahead of data queued before them (the header queue is served
# first).  Datagrams without the DSCP are dropped at the limit instead.
# A header trimmed upstream (DSCP 11, trim_size long) joins the header
# queue here too, even behind a full data queue.
source "$(dirname "$0")/../lib.sh"

U="$(dirname "$0")/../udpburst.py"
switch_topo
tcf -n "$R" qdisc add dev r1 root fabric rate 1kbit limit 60kb trim_at 20kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 64kb
check $? "port: rate 1kbit limit 60kb trim_at 20kb trim_size 128 trim_dscp 11 trim_dscp_in 10"

# The receiver ends 3 s after the port has delivered the whole burst (its
# queue empty at 100 Mbit/s), not 3 s after a datagram: at 1 kbit/s the
# burst's first datagram leaves at once and the next 8 s later, and a slow
# machine may still be sending the rest 3 s after the first.
qlen0() { [[ $(fabric_stat "$R" r1 qlen) == 0 ]]; }
burst() { # ADDR TOS -> receiver JSON
	local out hold
	out=$(mktemp)
	hold_new hold
	udp_recv "$B" "$out" "$1" 7100 --idle 3 --while-exists "$hold"
	ip netns exec "$A" python3 "$U" send "$1" 7100 --count 150 --size 1000 --tos "$2" >/dev/null
	tcf -n "$R" qdisc change dev r1 root fabric rate 100mbit
	busywait 30000 qlen0
	rm -f "$hold"
	wait
	tcf -n "$R" qdisc change dev r1 root fabric rate 1kbit
	cat "$out"
	rm -f "$out" "$out.err"
}

csum_errors() {
	ip netns exec "$B" nstat -az | awk '/^(Udp|Udp6)InCsumErrors/ { s += $2 } END { print s + 0 }'
}

for fam in 4 6; do
	if [[ $fam == 4 ]]; then addr=198.18.2.1 small=100; else addr=2001:db8:2::1 small=80; fi
	read -r before tdrop0 < <(fabric_stats "$R" r1 trimmed trim_dropped | xargs)
	r=$(burst $addr 0x28)
	read -r trimmed tdrop < <(fabric_stats "$R" r1 trimmed trim_dropped | xargs)
	trimmed=$((trimmed - before)) tdrop=$((tdrop - tdrop0))
	full=$(jq '[.seqs[] | select(.[1] == 1000)] | length' <<<"$r")
	cut=$(jq --argjson s $small '[.seqs[] | select(.[1] == $s)] | length' <<<"$r")
	other=$(jq --argjson s $small '[.seqs[] | select(.[1] != 1000 and .[1] != $s)] | length' <<<"$r")
	log "IPv$fam: $full full, $cut trimmed, $other other sizes; qdisc trimmed $trimmed"
	(( cut > 0 && full > 0 && other == 0 ))
	check $? "IPv$fam: datagrams above trim_at arrive trimmed to $small bytes of payload"
	[[ $(jq --argjson s $small '[.seqs[] | select(.[1] == $s and .[2] != 44)] | length' <<<"$r") -eq 0 &&
	   $(jq '[.seqs[] | select(.[1] == 1000 and .[2] != 40)] | length' <<<"$r") -eq 0 ]]
	check $? "IPv$fam: trimmed ones carry DSCP 11 (tos 0x2c), full ones keep DSCP 10"
	(( cut == trimmed - tdrop ))
	check $? "IPv$fam: every trimmed datagram the qdisc kept reached the socket"
	# Served first: some trimmed datagram overtook a full one sent before it.
	jq -e --argjson s $small '.seqs as $q | [range(0; $q | length) as $i | range($i + 1; $q | length) as $j
		| select($q[$i][1] == $s and $q[$j][1] == 1000 and $q[$j][0] < $q[$i][0])] | length > 0' \
		<<<"$r" >/dev/null
	check $? "IPv$fam: the header queue is served before queued data"
done
[[ $(csum_errors) -eq 0 ]]
check $? "the receiver counted no UDP checksum errors"

before_drop=$(fabric_stat "$R" r1 drop_limit)
before=$(fabric_stat "$R" r1 trimmed)
r=$(burst 198.18.2.1 0x00)
log "not trimmable: sizes $(jq -c .sizes <<<"$r"), drops +$(( $(fabric_stat "$R" r1 drop_limit) - before_drop ))"
[[ $(jq '[.seqs[] | select(.[1] != 1000)] | length' <<<"$r") -eq 0 &&
   $(fabric_stat "$R" r1 trimmed) -eq $before &&
   $(fabric_stat "$R" r1 drop_limit) -gt $before_drop ]]
check $? "datagrams without the trimmable DSCP are dropped at the limit, never trimmed"

# A header a port upstream trimmed (DSCP 11, the port's trim_dscp, and
# trim_size long: 100 bytes of UDP payload over IPv4) joins the header
# queue at any backlog: behind a data queue full to its limit, 20 of them
# are neither dropped nor counted as trims here, and they overtake the
# queued data.
out=$(mktemp)
hold_new hold
udp_recv "$B" "$out" 198.18.2.1 7100 --idle 3 --while-exists "$hold"
ip netns exec "$A" python3 "$U" send 198.18.2.1 7100 --count 100 --size 1000 --tos 0x00 >/dev/null
read -r d0 t0 h0 < <(fabric_stats "$R" r1 drop_limit trimmed trim_dropped | xargs)
ip netns exec "$A" python3 "$U" send 198.18.2.1 7100 --count 20 --size 100 --tos 0x2c >/dev/null
read -r d1 t1 h1 < <(fabric_stats "$R" r1 drop_limit trimmed trim_dropped | xargs)
tcf -n "$R" qdisc change dev r1 root fabric rate 100mbit
busywait 30000 qlen0
rm -f "$hold"
wait
tcf -n "$R" qdisc change dev r1 root fabric rate 1kbit
r=$(cat "$out")
rm -f "$out" "$out.err"
hdrs=$(jq '[.seqs[] | select(.[1] == 100)] | length' <<<"$r")
log "upstream-trimmed headers: $hdrs of 20 arrived; drop_limit +$((d1 - d0)) (the data: $d0 so far)," \
	"trimmed +$((t1 - t0)), trim_dropped +$((h1 - h0))"
(( hdrs == 20 && d1 == d0 && t1 == t0 && h1 == h0 ))
check $? "a header trimmed upstream joins the header queue behind a full data queue: none dropped, none counted as a trim here"
jq -e '.seqs as $q | [range(0; $q | length) as $i | range($i + 1; $q | length) as $j
	| select($q[$i][1] == 100 and $q[$j][1] == 1000)] | length > 0' <<<"$r" >/dev/null
check $? "and it is served before the data queued ahead of it"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A receiver that stops reading, with the uet flavour (which has the
# receiver penalty): the sender's MSG_DONTWAIT sends get EAGAIN, the
# receive buffer holds at most SO_RCVBUF plus the one message allowed past
# it, the kernel's slab memory stays within a few MB of where it was, and
# the ACKs carry a receiver penalty that the sender's destination shows.
# Reading again drains everything: every message arrives once, intact.
# While it stalls, fabctl mrt dest/pdc show (the mrt netlink family) show
# the destination's penalty, and the two ends' PDCs naming each other with
# PSNs that agree; a user without CAP_NET_ADMIN (uid 65534) sees the same
# PDCs in /proc and in the dump, but none of their ids, PSNs or keys, and
# is refused a PDC by id.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

require_cmd setpriv

slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }

# nobody NS CMD...: CMD in NS as uid and gid 65534, no groups, and so no
# capabilities.
nobody() { ip netns exec "$1" setpriv --reuid=65534 --regid=65534 --clear-groups "${@:2}"; }

# flat FILE: its lines as one, for the log.
flat() {
	local t
	t=$(<"$1")
	printf '%s' "${t//$'\n'/ | }"
}

# same_rows ROOT NOBODY: two reads of /proc/net/mrt/pdcs, root's and
# nobody's, have the same header (20 columns, key and rkey last) and the
# same PDCs row by row (role, state, local_ep, peer, peer_ep); ROOT has
# the ids and 8 hex digits of keys, NOBODY "-" for the ids, the PSNs
# (una, nxt, cack) and the keys.
same_rows() {
	awk 'FNR == 1 { h[++f] = $0; if (f == 1 && (NF != 20 || $19 != "key" || $20 != "rkey")) bad++; next }
	     { id = $3 " " $4 " " $5 " " $6 " " $7 }
	     f == 1 { k[++n1] = id
		if (NF != 20 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || length($19) != 8 ||
		    length($20) != 8 || $19 $20 !~ /^[0-9a-f]+$/) bad++
		next }
	     { if (NF != 20 || k[++n2] != id || $1 $2 $9 $10 $11 $19 $20 != "-------") bad++ }
	     END { exit !(n1 > 0 && n1 == n2 && h[1] == h[2] && !bad) }' "$1" "$2"
}

mrt_setup || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
mrt_tune "$A" "$B" flavour=uet || exit 1
slab0=$(slab_kb)

# The server stalls until the checks below have seen the stall (the hold
# file), on a machine of any speed; 300 s bounds it.
rm -f "$MRT_J/stall"
hold_new stalling
ip netns exec "$B" python3 "$MRTMSG" server 198.18.0.2 7000 --count 600 --rcvbuf 1048576 \
	--stall 300 --stall-while "$stalling" --stall-report "$MRT_J/stall" --timeout 600 \
	--ready "$MRT_J/ready" >"$MRT_J/srv" &
srv=$!
busywait 10000 test -e "$MRT_J/ready"
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --count 600 --max-size 65536 \
	--sndbuf 1048576 --dontwait --confirm --wait 200 >"$MRT_J/cli" &
cli=$!

pen() { ip netns exec "$A" awk '$1 != "addr" && $9 > 0 { f = 1 } END { exit !f }' /proc/net/mrt/dests; }
busywait 120000 pen
check $? "while the receiver does not read, the sender's destination shows a receiver penalty"

# The control plane's view of the PDCs, both ends.  The sender may still
# be sending (the receive buffer need not be full yet), so the receiver's
# view is taken between two of the sender's: what the receiver has is at
# least what the sender had acknowledged before (una_psn) and at most what
# it had sent after (nxt_psn, pkts).
"$FABCTL" -n "$A" -j mrt dest show >"$MRT_J/nl_dest"
"$FABCTL" -n "$A" -j mrt dest show 198.18.0.2 >"$MRT_J/nl_dest1"
"$FABCTL" -n "$A" -j mrt pdc show >"$MRT_J/nl_pdc_a"
"$FABCTL" -n "$B" -j mrt pdc show >"$MRT_J/nl_pdc_b"
"$FABCTL" -n "$A" -j mrt pdc show >"$MRT_J/nl_pdc_a2"
log "# fabctl mrt dest show: $(cat "$MRT_J/nl_dest1")"
log "# fabctl mrt pdc show: $(jq -c . "$MRT_J/nl_pdc_a") $(jq -c . "$MRT_J/nl_pdc_b")"
log "# fabctl mrt pdc show, the sender again: $(jq -c . "$MRT_J/nl_pdc_a2")"
jq -e 'length == 1 and .[0].addr == "198.18.0.2" and .[0].rcv_cwnd_pen > 0 and
	.[0].refs >= 1 and .[0].cwnd_bytes > 0 and .[0].base_rtt_ns > 0' \
	"$MRT_J/nl_dest" >/dev/null &&
	jq -e 'length == 1 and .[0].addr == "198.18.0.2"' "$MRT_J/nl_dest1" >/dev/null
check $? "fabctl mrt dest show: the destination, its window and the penalty, by dump and by address"
# PSNs are 32-bit serial numbers: a <= b when b - a mod 2^32 is under 2^31.
jq -e --slurpfile b "$MRT_J/nl_pdc_b" --slurpfile a2 "$MRT_J/nl_pdc_a2" '
	def le($x; $y): (($y - $x) % 4294967296 + 4294967296) % 4294967296 < 2147483648;
	(map(select(.role == "tx")) | length == 1) as $one |
	($a2[0] | map(select(.role == "tx")) | .[0]) as $u |
	.[] | select(.role == "tx") as $t | $b[0][] | select(.role == "rx") |
	$one and .lid == $t.rid and .rid == $t.lid and .peer_ep == $t.local_ep and
	$u.lid == $t.lid and $u.rid == $t.rid and
	$t.peer_ep == 7000 and $t.peer_addr == "198.18.0.2" and .peer_addr == "198.18.0.1" and
	$t.state == "open" and $u.pkts >= .pkts and .pkts > 0 and .rcvd_bytes > 0 and
	le($t.una_psn; .cack_psn) and le(.cack_psn; $u.nxt_psn) and
	.msgs > 0 and $t.family == "inet" and
	($t | has("cack_psn") | not) and (has("una_psn") | not) and
	([$t.key, $t.rkey, .key, .rkey] | all(test("^[0-9a-f]{8}$")))' \
	"$MRT_J/nl_pdc_a" >/dev/null
check $? "fabctl mrt pdc show: the sender's PDC and the receiver's name each other, PSNs agree, keys shown"
ip netns exec "$A" cat /proc/net/mrt/pdcs >"$MRT_J/proc_a"
ip netns exec "$B" cat /proc/net/mrt/pdcs >"$MRT_J/proc_b"
lids_nl=$(jq -r '[.[].lid] | sort | join(" ")' "$MRT_J/nl_pdc_a")
lids_proc=$(awk 'NR > 1 { print $1 }' "$MRT_J/proc_a" | sort -n | xargs)
[[ -n $lids_nl && $lids_nl == "$lids_proc" ]]
check $? "the dump and /proc/net/mrt/pdcs list the same PDCs ($lids_nl; $lids_proc)"
lid=$(jq -r '.[0].lid' "$MRT_J/nl_pdc_a")
"$FABCTL" -n "$A" mrt pdc show "$lid" | grep -q "^lid $lid rid "
check $? "fabctl mrt pdc show $lid: that PDC, as text"

# The same PDCs as uid 65534 sees them.  The checkout may be in a home no
# other user can enter: fabctl runs from a copy in $MRT_J, which others
# may traverse (not list).
chmod 711 "$MRT_J" && cp "$FABCTL" "$MRT_J/fabctl"
nobody "$A" cat /proc/net/mrt/pdcs >"$MRT_J/nb_proc_a"
nobody "$B" cat /proc/net/mrt/pdcs >"$MRT_J/nb_proc_b"
log "# /proc/net/mrt/pdcs in A, root: $(flat "$MRT_J/proc_a")"
log "# uid 65534: $(flat "$MRT_J/nb_proc_a")"
log "# in B, root: $(flat "$MRT_J/proc_b")"
log "# uid 65534: $(flat "$MRT_J/nb_proc_b")"
same_rows "$MRT_J/proc_a" "$MRT_J/nb_proc_a" && same_rows "$MRT_J/proc_b" "$MRT_J/nb_proc_b"
check $? "/proc/net/mrt/pdcs: root sees ids, PSNs and keys; uid 65534 the same rows and header, \"-\" for those"
nobody "$A" "$MRT_J/fabctl" -j mrt pdc show >"$MRT_J/nb_nl_a"
nobody "$B" "$MRT_J/fabctl" -j mrt pdc show >"$MRT_J/nb_nl_b"
log "# fabctl -j mrt pdc show as uid 65534: $(<"$MRT_J/nb_nl_a") $(<"$MRT_J/nb_nl_b")"
# the same PDCs as root's dumps (role and endpoints, in order), each with
# its counters but none of the hidden attributes
jq -se '
	def rows: [.[] | [.role, .state, .local_ep, .peer_addr, .peer_ep]];
	def bare: all(.[]; . as $o | has("pkts") and has("role") and
		all(("lid", "rid", "una_psn", "nxt_psn", "cack_psn", "key", "rkey");
		    . as $k | $o | has($k) | not));
	length == 4 and (.[2] | length) > 0 and (.[2] | rows) == (.[0] | rows) and
	(.[3] | length) > 0 and (.[3] | rows) == (.[1] | rows) and
	(.[2] | bare) and (.[3] | bare)' \
	"$MRT_J/nl_pdc_a" "$MRT_J/nl_pdc_b" "$MRT_J/nb_nl_a" "$MRT_J/nb_nl_b" >/dev/null
check $? "fabctl -j mrt pdc show as uid 65534: every PDC, no id, PSN or key"
nobody "$A" "$MRT_J/fabctl" mrt pdc show >"$MRT_J/nb_txt_a"
mapfile -t rows <"$MRT_J/nb_txt_a"
re=' (lid|rid|una_psn|nxt_psn|cack_psn|key|rkey) '
bad=$(( ${#rows[@]} == 0 ))
for r in "${rows[@]}"; do
	[[ $r == "role "* && ! " $r " =~ $re ]] || bad=1
done
((!bad))
check $? "fabctl mrt pdc show as uid 65534, as text: ${#rows[@]} PDC(s), from role on (${rows[0]:0:60}...)"
nobody "$A" "$MRT_J/fabctl" mrt pdc show "$lid" >"$MRT_J/nb_do" 2>"$MRT_J/nb_do_err"
rc=$?
grep -q "needs CAP_NET_ADMIN.*: Operation not permitted" "$MRT_J/nb_do_err" && ((rc == 1)) &&
	[[ ! -s $MRT_J/nb_do ]]
check $? "fabctl mrt pdc show $lid as uid 65534: exit 1 and the kernel's reason ($(<"$MRT_J/nb_do_err"))"
"$FABCTL" -n "$A" mrt dest show 198.18.0.9 2>"$MRT_J/nl_err"
rc=$?
grep -q "no destination with that address" "$MRT_J/nl_err" && ((rc == 1))
check $? "fabctl mrt dest show of an address never sent to: exit 1 and the kernel's reason ($(cat "$MRT_J/nl_err"))"
grow=$(( $(slab_kb) - slab0 ))
log "# slab grew by $grow kB while the receiver stalled"
(( grow < 16384 ))
check $? "kernel slab memory stays bounded while the receiver stalls (+$grow kB)"
rm -f "$stalling"
wait $cli $srv
log "# server: $(cat "$MRT_J/srv")"
log "# client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/cli")"
log "# stall: $(cat "$MRT_J/stall")"
jq -e '.eagain > 0' "$MRT_J/cli" >/dev/null
check $? "the sender met a full send buffer: EAGAIN"
jq -e '.peak_rmem <= .rcvbuf + 262144 and .peak_rmem > 0' "$MRT_J/stall" >/dev/null
check $? "the receive buffer held at most SO_RCVBUF and one message"
jq -e '.received == 600 and .bad == 0 and .dups == 0 and .distinct + .small == 600' \
	"$MRT_J/srv" >/dev/null
check $? "reading again drains it: 600 messages once each, intact"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt on a shared network (Documentation/networking/mrt.rst, "Threat
# model"): a victim B receives a legitimate peer A's digest-checked
# messages while an attacker X, in its own namespace with plain UDP and raw
# sockets (mrtattack.py), and unprivileged local users try what the old
# receive path let them:
#
#  1. A SYN flood from spoofed sources (IPv4, raw): no PDC is made for
#     any (each is answered with a cookie, nothing kept); A opens a PDC
#     to B for the first time during it and delivers, and B's own sends to
#     a new peer (A) succeed.
#  2. A hostile peer that answers (it takes the cookie and opens PDCs):
#     message ids that an unkeyed hash would put in one bucket, each
#     message left partial while the PSN window moves on; a 16 MiB message
#     in 1-byte packets; a message of half the receive buffer in 1-byte
#     packets, in order, while B reads A's messages.  B's socket holds at
#     most twice its receive buffer and the 64 KiB reserve (the in-order
#     message's exception), the kernel's slab stays within a few MB, what
#     X held is let go once X stops (its PDCs reset), and A's messages
#     keep arriving intact.
#  3. A PDC id reused for a new PDC (another first PSN and key) is a new
#     PDC: both of X's messages arrive, two receiving PDCs.
#  4. Local users who know a PDC's ids and PSNs (here told them) but not
#     its keys: forged DATA from A's host, forged ACKs and NACKs from B's
#     host, and a forged first answer for a PDC in SYN: each refused
#     (bad_key_in), nothing delivered, confirmed or reset by them.
#  5. Broadcast and multicast (IPv4 and IPv6) to B are dropped and
#     counted; B's sends and connects to them fail with EACCES (broadcast)
#     and EOPNOTSUPP (multicast).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

ATT=$TOP/selftests/vm/mrt/mrtattack.py
slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }
# the receiving PDCs of NS from address ADDR (root sees them all)
rx_pdcs() { ip netns exec "$1" awk -v a="$2" '$3 == "rx" && $6 ~ a"$"' /proc/net/mrt/pdcs | wc -l; }
rmem() { jq -r "${2:-.rmem}" "$MRT_J/$1.rmem" 2>/dev/null; }

mrt_setup || exit 1
setup_ns A B X || exit 1
link_ns "$A" a0 1 "$B" b0 2
SUBNET=1 link_ns "$X" x0 1 "$B" b1 2
# the spoofed sources' answers go back to X, which drops them
ip -n "$B" route add 198.18.128.0/17 via 198.18.1.1
ip netns exec "$X" sysctl -qw net.ipv4.conf.all.rp_filter=0
# X's own mrt (loaded, as on every namespace) moves off the mrt port, so
# that its attacker can take it: udp_port applies with its first socket
ip netns exec "$X" sysctl -qw net.mrt.udp_port=4795 &&
	ip netns exec "$X" python3 -c 'import socket; socket.socket(2, 4, 253).close()' ||
	exit 1
mrt_tune "$A" "$B" || exit 1
slab0=$(slab_kb)

# B's server, on both of B's addresses: A's messages (checked), and
# anything else counted foreign; a receive buffer of 256 KiB (SO_RCVBUF
# 128 KiB, doubled)
ip netns exec "$B" python3 "$MRTMSG" server 0.0.0.0 7000 --rcvbuf 131072 \
	--peer 198.18.0.1 --count 100000000 --count-file "$MRT_J/a.count" --timeout 600 \
	--ready "$MRT_J/b.ready" --rmem-log "$MRT_J/b.rmem" >"$MRT_J/b.srv" &
bsrv=$!
ip netns exec "$A" python3 "$MRTMSG" server 198.18.0.1 7001 --count 20 --timeout 300 \
	--ready "$MRT_J/a.ready" >"$MRT_J/a.srv" &
asrv=$!
busywait 10000 test -e "$MRT_J/b.ready" && busywait 10000 test -e "$MRT_J/a.ready" ||
	{ check 1 "the servers started"; exit 1; }

# 1. The SYN flood, then A's first messages to B and B's to A during it.
hold_new flood
c0=$(mrt_stat "$B" syn_no_cookie)
ip netns exec "$X" python3 "$ATT" synflood 198.18.1.2 7000 --count 200000 \
	--while-exists "$flood" >"$MRT_J/flood" &
fl=$!
busywait 60000 stat_ge "$B" mrt/snmp syn_no_cookie $((c0 + 2000)) ||
	{ check 1 "the flood reached B"; exit 1; }
hold_new legit
ip netns exec "$A" python3 "$MRTMSG" client 198.18.0.2 7000 --sndbuf 33554432 \
	--count 100000000 --max-size 16384 --interval 0.02 --confirm --wait 300 \
	--while-exists "$legit" --count-file "$MRT_J/a.count" >"$MRT_J/a.cli" &
acli=$!
ip netns exec "$B" python3 "$MRTMSG" client 198.18.0.1 7001 --count 20 --max-size 4096 \
	--confirm --wait 120 >"$MRT_J/b.cli"
b_got() { local v; v=$(rmem b "$1"); [[ $v =~ ^[0-9]+$ ]] && ((v >= $2)); }
busywait 120000 b_got .received 20
check $? "during the flood, A opened a PDC to B and delivered ($(rmem b .received) messages)"
n=$(rx_pdcs "$B" .)
d=$(( $(mrt_stat "$B" syn_no_cookie) - c0 ))
rm -f "$flood"
wait $fl
log "# flood: $(cat "$MRT_J/flood"); B: $d SYNs without a cookie, $n receiving PDCs"
(( n == 1 && d >= 2000 ))
check $? "no PDC for any spoofed SYN: B's only receiving PDC is A's ($n)"
mrt_confirmed b 20
check $? "B's own sends to a new peer during the flood: 20 confirmed"
(( $(mrt_stat "$B" cookies_out) > 0 && $(mrt_stat "$A" cookie_nacks_in) > 0 ))
check $? "spoofed SYNs were answered with cookies; A took one"

# 2. The hostile peer's floods, one after another, while A keeps sending.
for mode in fresh huge dribble; do
	ip netns exec "$X" python3 "$ATT" peer 198.18.1.1 198.18.1.2 7000 "$mode" \
		--count 3000 --rcvbuf "$(rmem b .rcvbuf)" >"$MRT_J/x.$mode"
	log "# $mode: $(cat "$MRT_J/x.$mode") B's socket: $(cat "$MRT_J/b.rmem")"
done
rcvbuf=$(rmem b .rcvbuf)
bound=$((2 * rcvbuf + 65536 + 65536))
peak=$(rmem b .peak)
(( peak > 0 && peak <= bound ))
check $? "B's socket held at most twice its receive buffer and the reserve: $peak of 2 x $rcvbuf + 64 KiB (+ a packet)"
jq -e '.opened and .rx.no_resource > 0' "$MRT_J/x.fresh" >/dev/null
check $? "partial messages beyond the buffer: refused (NO_RESOURCE)"
jq -e '.opened and .rx.msg_too_big > 0' "$MRT_J/x.huge" >/dev/null
check $? "a 16 MiB message, more than the buffer could ever hold: refused (MSG_TOO_BIG)"
jq -e '.opened and .rx.no_resource + .rx.msg_too_big > 0' "$MRT_J/x.dribble" >/dev/null
check $? "1-byte packets count what they pin (truesize): refused once the buffer is full"
grow=$(( $(slab_kb) - slab0 ))
(( grow < 16384 ))
check $? "kernel slab memory during the floods: +$grow kB"
# X stopped: what it held goes, its PDCs reset (partial_msg_timeout_ms)
x_gone() { (( $(rx_pdcs "$B" 198.18.1.1) == 0 )); }
busywait 60000 x_gone
check $? "once X stopped, its receiving PDCs went (reset, then gone)"
b_rmem_lt() { local v; v=$(rmem b); [[ $v =~ ^[0-9]+$ ]] && ((v < $1)); }
busywait 30000 b_rmem_lt 65536
check $? "and B's socket let go of what X had sent ($(rmem b) bytes held now)"
(( $(mrt_stat "$B" rx_pdcs_reset) > 0 && $(mrt_stat "$B" rcvbuf_drops) > 0 ))
check $? "counted: rx_pdcs_reset $(mrt_stat "$B" rx_pdcs_reset), rcvbuf_drops $(mrt_stat "$B" rcvbuf_drops), partial_msgs_expired $(mrt_stat "$B" partial_msgs_expired), msg_too_big $(mrt_stat "$B" msg_too_big)"

# 3. A PDC id used again for a new PDC.
ip netns exec "$X" python3 "$ATT" peer 198.18.1.1 198.18.1.2 7000 stale >"$MRT_J/x.stale"
log "# stale: $(cat "$MRT_J/x.stale")"
lid=$(jq -r .lid "$MRT_J/x.stale")
n=$(ip netns exec "$B" awk -v r="$lid" '$3 == "rx" && $2 == r' /proc/net/mrt/pdcs | wc -l)
jq -e '.opened and .reopened' "$MRT_J/x.stale" >/dev/null && ((n == 2))
check $? "a PDC id reused with a new first PSN and key: a second PDC ($n with id $lid)"
# X's whole messages: one per handshake (3 floods, 2 here) and the two
busywait 30000 b_got .foreign 7
check $? "X's whole messages arrived once each ($(rmem b .foreign) of 7), nothing else of X's"

# 4. Local users with the ids and PSNs but not the keys.
read -r rlid rrid rcack < <(ip netns exec "$B" awk '$3 == "rx" && $6 ~ /198.18.0.1$/ { print $1, $2, $11; exit }' /proc/net/mrt/pdcs)
read -r tlid trid tnxt < <(ip netns exec "$A" awk '$3 == "tx" { print $1, $2, $10; exit }' /proc/net/mrt/pdcs)
aep=$(ip netns exec "$B" awk '$3 == "rx" && $6 ~ /198.18.0.1$/ { print $7; exit }' /proc/net/mrt/pdcs)
kb0=$(mrt_stat "$B" bad_key_in)
ka0=$(mrt_stat "$A" bad_key_in)
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
ip netns exec "$A" "${NOBODY[@]}" python3 "$ATT" forge 198.18.0.1 198.18.0.2 \
	--data "$rlid" "$rrid" "$rcack" --src-ep "$aep" >"$MRT_J/f.data"
ip netns exec "$B" "${NOBODY[@]}" python3 "$ATT" forge 198.18.0.2 198.18.0.1 \
	--ack "$tlid" "$trid" "$tnxt" >"$MRT_J/f.ack"
ip netns exec "$B" "${NOBODY[@]}" python3 "$ATT" forge 198.18.0.2 198.18.0.1 \
	--nack "$tlid" >"$MRT_J/f.nack"
kb=$(( $(mrt_stat "$B" bad_key_in) - kb0 ))
ka=$(( $(mrt_stat "$A" bad_key_in) - ka0 ))
log "# forged at B's PDC $rlid: $(cat "$MRT_J/f.data"); at A's PDC $tlid: $(cat "$MRT_J/f.ack") $(cat "$MRT_J/f.nack")"
(( kb >= 1 && kb <= 50 && ka >= 1 && ka <= 100 ))
check $? "forged DATA, ACKs and NACKs without the keys: refused and counted (bad_key_in +$kb at B, +$ka at A)"

# a PDC in SYN (its peer, X, has no mrt on the port and never answers),
# with a retry budget that outlasts the checks on a machine of any speed
ip netns exec "$B" sysctl -qw net.mrt.retry_budget=100
ip netns exec "$B" python3 "$MRTMSG" client 198.18.1.1 7000 --count 1 --max-size 100 \
	--wait 0 >/dev/null
slid=$(ip netns exec "$B" awk '$3 == "tx" && $4 == "syn" && $6 ~ /198.18.1.1$/ { print $1; exit }' /proc/net/mrt/pdcs)
kb0=$(mrt_stat "$B" bad_key_in)
ip netns exec "$X" python3 "$ATT" forge 198.18.1.1 198.18.1.2 --syn-ack "${slid:-1}" \
	>"$MRT_J/f.syn"
kb=$(( $(mrt_stat "$B" bad_key_in) - kb0 ))
row=$(ip netns exec "$B" awk -v l="$slid" '$1 == l { print $2, $4 }' /proc/net/mrt/pdcs)
[[ -n $slid && $row == "0 syn" ]] && (( kb >= 1 ))
check $? "a forged first answer to a PDC in SYN: refused ($kb), the PDC still in SYN without a peer id ($row)"
# the budget back, so that the PDC gives up soon (and the namespace goes)
ip netns exec "$B" sysctl -qw net.mrt.retry_budget=8

# 5. Broadcast and multicast.
ip -n "$X" route add 224.0.0.0/4 dev x0
n0=$(mrt_stat "$B" nonunicast_in)
ip netns exec "$X" python3 "$ATT" nonunicast 7000 198.18.1.255 224.0.0.1 ff02::1%x0 \
	>"$MRT_J/nonuni"
busywait 10000 stat_ge "$B" mrt/snmp nonunicast_in $((n0 + 3))
check $? "broadcast and multicast to B (IPv4, IPv6) dropped and counted ($(cat "$MRT_J/nonuni"))"
ip netns exec "$B" python3 "$ATT" send 7000 198.18.1.255 224.1.2.3 >"$MRT_J/send4"
ip netns exec "$B" python3 "$ATT" send 7000 ff02::1%b1 ff0e::1 >"$MRT_J/send6"
log "# B's sends: $(cat "$MRT_J/send4") $(cat "$MRT_J/send6")"
jq -se '.[0]["198.18.1.255"] == {"sendmsg": "Permission denied", "connect": "Permission denied"} and
	.[0]["224.1.2.3"] == {"sendmsg": "Operation not supported", "connect": "Operation not supported"} and
	([.[1][]] | all(. == {"sendmsg": "Operation not supported", "connect": "Operation not supported"}))' \
	"$MRT_J/send4" "$MRT_J/send6" >/dev/null
check $? "sends and connects to broadcast (EACCES) and multicast (EOPNOTSUPP) refused"

# A's transfer through all of it.
rm -f "$legit"
wait $acli $bsrv $asrv
log "# A's client: $(jq -c 'del(.confirmed_cookies)' "$MRT_J/a.cli")"
log "# B's server: $(cat "$MRT_J/b.srv")"
sent=$(jq .sent "$MRT_J/a.cli")
jq -se --argjson n "$sent" '.[0] | .received == $n and .bad == 0 and .dups == 0 and
	.distinct + .small == $n and .foreign >= 7' "$MRT_J/b.srv" >/dev/null &&
	mrt_confirmed a "$sent" && ((sent > 0))
check $? "A's $sent messages to B through it all: once each, intact, confirmed, none failed"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

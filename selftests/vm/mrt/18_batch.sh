#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Batches (issue 36), through a router R between A and B:
#   1. A's new packets leave in UDP GSO batches (gso_batches_out), B takes
#      them as trains (gso_trains_in) and answers a train's ACKs as one GSO
#      skb (A's gso_trains_in): every message intact;
#   2. a peer with batches off (tx_batch_max_pkts 1) interoperates either
#      way round, and sends nothing batched itself;
#   3. a batch through a sch_fabric port is queued and trimmed per packet:
#      the trims are NACKed and sent again, every message intact;
#   4. batches segmented by a port on A's side, then dropped, duplicated
#      and reordered packet by packet by netem on R: every message intact;
#   5. a message larger than the send buffer at Linux's default buffers
#      streams through it (the buffer never holds more than SO_SNDBUF);
#      a send that may not wait refuses it (EMSGSIZE);
#   6. sendmmsg(): short messages to one peer leave in batches; entries
#      that change peer, and a call cut short by a fault in a later entry,
#      still deliver every message the call took.
# The window is made large (a 1 ms base RTT) and the EVs few (ev_count 2:
# a batch is at most its EV's share of the window), so that batches form
# at any speed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_setup || exit 1
switch_topo || exit 1
batchy=(config_base_rtt_ns=1000000 ev_count=2 tx_batch_max_pkts=8)
mrt_tune "$A" "$B" "${batchy[@]}" || exit 1
ADDR=198.18.2.1

# delta NS NAME CMD...: NAME's growth in NS over CMD (its status kept)
delta() {
	local ns=$1 name=$2 v0 v1 rc
	shift 2
	v0=$(mrt_stat "$ns" "$name")
	"$@"
	rc=$?
	v1=$(mrt_stat "$ns" "$name")
	DELTA=$((v1 - v0))
	return $rc
}

# 1. batches and trains, IPv4 and IPv6
for fam in 4 6; do
	dst=$ADDR
	[[ $fam == 6 ]] && dst=2001:db8:2::1
	{ read -r b0; read -r t0; } < <(proc_stats "$A" mrt/snmp gso_batches_out gso_trains_in)
	{ read -r bt0; read -r bb0; } < <(proc_stats "$B" mrt/snmp gso_trains_in gso_batches_out)
	mrt_xfer "$A" "$B" "$dst" "batch$fam" --count 60 --max-size 262144 --seed "$fam"
	mrt_xfer_ok "batch$fam" 60 && mrt_confirmed "batch$fam" 60
	check $? "IPv$fam: 60 messages in batches arrive once each, intact, confirmed"
	{ read -r b1; read -r t1; } < <(proc_stats "$A" mrt/snmp gso_batches_out gso_trains_in)
	{ read -r bt1; read -r bb1; } < <(proc_stats "$B" mrt/snmp gso_trains_in gso_batches_out)
	log "# IPv$fam: A batches out $((b1 - b0)), trains in $((t1 - t0));" \
	    "B trains in $((bt1 - bt0)), batches out $((bb1 - bb0))"
	(( b1 > b0 && bt1 > bt0 ))
	check $? "IPv$fam: A sent GSO batches, B took them as trains"
	(( bb1 > bb0 && t1 > t0 ))
	check $? "IPv$fam: B answered trains with GSO batches of ACKs, which A took as trains"
done

# 2. a peer without batches, each way round: OFF (A or B) has
# tx_batch_max_pkts 1 and sends nothing batched, not even ACKs
nobatch() { # OFF TAG SEED WHAT
	mrt_tune "$1" tx_batch_max_pkts=1
	delta "$1" gso_batches_out mrt_xfer "$A" "$B" "$ADDR" "$2" --count 40 --max-size 131072 \
		--seed "$3"
	mrt_xfer_ok "$2" 40 && mrt_confirmed "$2" 40
	check $? "$4: 40 messages arrive intact, confirmed"
	(( DELTA == 0 ))
	check $? "$4: the side with tx_batch_max_pkts 1 sent no batch ($DELTA)"
	mrt_tune "$1" tx_batch_max_pkts=8
}
nobatch "$B" mixed1 7 "A batching, B not"
nobatch "$A" mixed2 8 "A not batching, B batching"

# 3. a trimming port on R: batches are queued and trimmed per packet
tcf -n "$R" qdisc add dev r1 root fabric rate 20mbit limit 400kb trim_at 12kb \
	trim_size 128 trim_dscp 11 trim_dscp_in 10 trim_limit 512kb || exit 1
mrt_tune "$A" "$B" rto_max_us=4000000 rto_min_us=2000000 trimmable_dscp=10 trim_dscp=11 ||
	exit 1
q0=$(fabric_stat "$R" r1 trimmed)
{ read -r b0; read -r n0; read -r t0; } < <(proc_stats "$A" mrt/snmp gso_batches_out \
	total_nack_trimmed_rx rtx_trim)
mrt_xfer "$A" "$B" "$ADDR" trim --count 60 --max-size 262144 --seed 9
mrt_xfer_ok trim 60 && mrt_confirmed trim 60
check $? "through a trimming port: 60 messages arrive intact, confirmed"
q=$(( $(fabric_stat "$R" r1 trimmed) - q0 ))
{ read -r b1; read -r n1; read -r t1; } < <(proc_stats "$A" mrt/snmp gso_batches_out \
	total_nack_trimmed_rx rtx_trim)
log "# trim: batches $((b1 - b0)), port trimmed $q, NACKs $((n1 - n0)), rtx_trim $((t1 - t0))"
(( b1 > b0 && q > 0 && n1 - n0 > 0 && n1 - n0 <= q && t1 - t0 == n1 - n0 ))
check $? "batches were trimmed packet by packet: the receiver NACKed trims, each sent again"
tcf -n "$R" qdisc del dev r1 root

# 4. per-packet loss, duplication and reordering of batches' packets: a
# port on A segments them; netem on R acts on each packet
tcf -n "$A" qdisc add dev a0 root fabric limit 4mb || exit 1
tc -n "$R" qdisc add dev r1 root netem delay 1ms 500us loss 2% duplicate 2% reorder 10% \
	limit 10000 || exit 1
mrt_tune "$A" "$B" rto_min_us=20000 rto_max_us=1000000
{ read -r b0; read -r r0; } < <(proc_stats "$A" mrt/snmp gso_batches_out total_rtx_sack)
XFER_TIMEOUT=300 mrt_xfer "$A" "$B" "$ADDR" netem --count 60 --max-size 262144 --seed 10
mrt_xfer_ok netem 60 && mrt_confirmed netem 60
check $? "batches lost, duplicated, reordered packet by packet: 60 messages intact, confirmed"
{ read -r b1; read -r r1; } < <(proc_stats "$A" mrt/snmp gso_batches_out total_rtx_sack)
segs=$(tc -n "$A" -s qdisc show dev a0 | sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p')
out=$(mrt_stat "$A" pkts_out)
log "# netem: batches $((b1 - b0)), A's port sent $segs packets, mrt pkts_out $out," \
    "sent again after a SACK gap $((r1 - r0))"
(( b1 > b0 && segs > 0 ))
check $? "A's batches left its port as packets"
tc -n "$R" qdisc del dev r1 root
tc -n "$A" qdisc del dev a0 root

# 5. messages larger than the send buffer, at the default buffers
ip netns exec "$B" python3 "$MRTMSG" server "$ADDR" 7000 --rcvbuf 33554432 --count 3 \
	--timeout 120 --ready "$MRT_J/big.ready" >"$MRT_J/big.srv" &
srv=$!
busywait 10000 test -e "$MRT_J/big.ready" || { kill $srv; exit 1; }
ip netns exec "$A" python3 - "$TOP/selftests/vm/mrt" "$ADDR" >"$MRT_J/big.cli" <<'EOF'
import errno, json, socket, sys, threading, time
sys.path.insert(0, sys.argv[1])
import mrtmsg
addr = sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_RDM, mrtmsg.IPPROTO_MRT)
sndbuf = s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
r = {'sndbuf': sndbuf, 'sent': 0, 'max_wmem': 0}
done = False
def watch():
    while not done:
        r['max_wmem'] = max(r['max_wmem'], mrtmsg.mrt_info(s)['wmem'])
        time.sleep(0.001)
try:
    t = threading.Thread(target=watch)
    t.start()
    for seq, size in ((0, 1 << 20), (1, 4 << 20)):
        s.sendmsg([mrtmsg.message(seq, size)], [], 0, (addr, 7000))
        r['sent'] += 1
    try:
        s.sendmsg([mrtmsg.message(2, 1 << 20)], [], socket.MSG_DONTWAIT, (addr, 7000))
        r['dontwait'] = 'sent'
    except OSError as e:
        r['dontwait'] = errno.errorcode.get(e.errno, str(e.errno))
    s.sendmsg([mrtmsg.message(2, 200000)], [], 0, (addr, 7000))
    r['sent'] += 1
finally:
    done = True
print(json.dumps(r))
EOF
wait $srv
log "# big client: $(cat "$MRT_J/big.cli")"
log "# big server: $(cat "$MRT_J/big.srv")"
jq -se '.[0] | .sent == 3 and .sndbuf < 1048576' "$MRT_J/big.cli" >/dev/null &&
	jq -se '.[0] | .received == 3 and .bad == 0 and .dups == 0' "$MRT_J/big.srv" >/dev/null
check $? "1 MiB and 4 MiB messages sent at the default send buffer arrive intact"
jq -se '.[0] | .max_wmem > 0 and .max_wmem <= .sndbuf' "$MRT_J/big.cli" >/dev/null
check $? "the send buffer never held more than SO_SNDBUF meanwhile"
jq -se '.[0] | .dontwait == "EMSGSIZE"' "$MRT_J/big.cli" >/dev/null
check $? "a send that may not wait refuses a message larger than the buffer (EMSGSIZE)"
# 6. sendmmsg(): MSG_BATCH holds a PDC's packets for the call's next
# entries (sock.c): 40 short messages to 7000 in calls of 20, then one
# call of 20 to 7000 and 20 to 7001, one of 20 alternating, and one of
# two whose second entry faults (the first still goes, by the PDC's timer)
for ep in 7000 7001; do
	cnt=71
	[[ $ep == 7001 ]] && cnt=30
	rm -f "$MRT_J/mm$ep.ready"
	ip netns exec "$B" python3 "$MRTMSG" server "$ADDR" $ep --rcvbuf 33554432 --count $cnt \
		--timeout 60 --ready "$MRT_J/mm$ep.ready" >"$MRT_J/mm$ep.srv" &
	srvs+=($!)
	busywait 10000 test -e "$MRT_J/mm$ep.ready" || exit 1
done
b0=$(mrt_stat "$A" gso_batches_out)
ip netns exec "$A" python3 - "$TOP/selftests/vm/mrt" "$ADDR" >"$MRT_J/mm.cli" <<'EOF'
import ctypes, json, socket, struct, sys
sys.path.insert(0, sys.argv[1])
import mrtmsg
addr = sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
class iovec(ctypes.Structure):
    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]
class msghdr(ctypes.Structure):
    _fields_ = [('name', ctypes.c_void_p), ('namelen', ctypes.c_uint32),
                ('iov', ctypes.POINTER(iovec)), ('iovlen', ctypes.c_size_t),
                ('control', ctypes.c_void_p), ('controllen', ctypes.c_size_t),
                ('flags', ctypes.c_int)]
class mmsghdr(ctypes.Structure):
    _fields_ = [('hdr', msghdr), ('len', ctypes.c_uint)]
s = socket.socket(socket.AF_INET, socket.SOCK_RDM, mrtmsg.IPPROTO_MRT)
keep = []
def sendmmsg(entries):
    # entries: (endpoint, seq, size); size None: an iov that faults
    v = (mmsghdr * len(entries))()
    for i, (ep, seq, size) in enumerate(entries):
        sa = ctypes.create_string_buffer(struct.pack('=HH4s8x', socket.AF_INET,
                                                     socket.htons(ep), socket.inet_aton(addr)))
        io = iovec()
        if size is None:
            io.base, io.len = 1, 100
        else:
            b = ctypes.create_string_buffer(mrtmsg.message(seq, size))
            keep.append(b)
            io.base, io.len = ctypes.addressof(b), size
        iv = (iovec * 1)(io)
        keep.extend((sa, iv))
        v[i].hdr.name, v[i].hdr.namelen = ctypes.addressof(sa), 16
        v[i].hdr.iov, v[i].hdr.iovlen = ctypes.cast(iv, ctypes.POINTER(iovec)), 1
    n = libc.sendmmsg(s.fileno(), v, len(entries), 0)
    return n if n >= 0 else -ctypes.get_errno()
r = {}
r['batched'] = [sendmmsg([(7000, q, 100) for q in range(k, k + 20)]) for k in (0, 20)]
r['switch'] = sendmmsg([(7000, q, 100) for q in range(40, 60)] +
                       [(7001, q, 100) for q in range(1000, 1020)])
r['alternate'] = sendmmsg([(7000 + (q & 1), q, 100) for q in range(2000, 2020)])
r['fault'] = sendmmsg([(7000, 3000, 100), (7000, 0, None)])
print(json.dumps(r))
EOF
wait "${srvs[@]}"
b1=$(mrt_stat "$A" gso_batches_out)
log "# sendmmsg client: $(cat "$MRT_J/mm.cli"); A's batches $((b1 - b0))"
log "# sendmmsg servers: $(cat "$MRT_J/mm7000.srv") $(cat "$MRT_J/mm7001.srv")"
jq -se '.[0] | .batched == [20, 20] and .switch == 40 and .alternate == 20 and
	.fault == 1' "$MRT_J/mm.cli" >/dev/null
check $? "sendmmsg() takes every entry (MSG_BATCH) and stops at one that faults"
jq -se '.[0] | .received == 71 and .distinct == 71 and .bad == 0' "$MRT_J/mm7000.srv" \
	>/dev/null && jq -se '.[0] | .received == 30 and .distinct == 30 and .bad == 0' \
	"$MRT_J/mm7001.srv" >/dev/null
check $? "every message sendmmsg() took arrives once, intact, at its endpoint"
(( b1 > b0 ))
check $? "short messages of one sendmmsg() left in GSO batches ($((b1 - b0)))"

mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

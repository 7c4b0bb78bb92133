#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the VM selftests: test hosts in network namespaces, checks
# that print "# " diagnostics and remember failure, bounded polling instead
# of blind sleeps, and cleanup on exit.  The ideas (unique netns names,
# trap-based cleanup, busywait, status merging) follow the upstream
# selftests' net/lib.sh; this is an independent, smaller version.
#
# Test hosts are addressed only from 198.18.0.0/15 and 2001:db8::/32.

ksft_skip=4
RET=0
NS_LIST=()
CLEANUP=()

log() { echo "$*"; }

# check COND_RC MESSAGE: record a failure if COND_RC is non-zero.
check() {
	local rc=$1
	shift
	if [[ $rc -eq 0 ]]; then
		log "PASS: $*"
	else
		log "FAIL: $*"
		RET=1
	fi
}

# check_cmd MESSAGE -- CMD...: run CMD, record its success.
check_cmd() {
	local msg=$1
	shift 2
	"$@"
	check $? "$msg"
}

# check_fail MESSAGE -- CMD...: CMD must fail.
check_fail() {
	local msg=$1
	shift 2
	if "$@" 2>/dev/null; then
		check 1 "$msg"
	else
		check 0 "$msg"
	fi
}

skip() {
	log "SKIP: $*"
	exit $ksft_skip
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "$c not installed"
	done
}

# nap SECONDS: sleep without a process: a read that times out on a pipe
# nobody writes (opened once, read-write, so that it never sees an EOF).
exec {NAP_FD}<> <(:)
nap() { read -rt "$1" -u "$NAP_FD" _ || true; }

# scaled SECONDS: a bound in seconds times WAIT_SCALE, for timeout(1) and
# the tools' own --timeout options (which are bounds, not durations).
scaled() { echo $(($1 * ${WAIT_SCALE:-1})); }

# busywait TIMEOUT_MS CMD...: poll CMD until it succeeds, every 0.1 s.
busywait() {
	local timeout_us=$(($1 * ${WAIT_SCALE:-1} * 1000)) start
	shift
	start=${EPOCHREALTIME//[!0-9]/}
	until "$@"; do
		((${EPOCHREALTIME//[!0-9]/} - start > timeout_us)) && return 1
		nap 0.1
	done
}

cleanup_all() {
	local i ns pids
	for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do
		eval "${CLEANUP[i]}" >/dev/null 2>&1 || true
	done
	for ns in "${NS_LIST[@]}"; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		[[ -n $pids ]] && kill $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
}
trap cleanup_all EXIT

# defer CMD: run CMD (a string) at exit, in reverse order of deferral.
defer() { CLEANUP+=("$*"); }

# setup_ns VAR...: create uniquely named netns with lo up; set VAR to it.
# Its interfaces send no IPv6 packet of their own after they come up but
# at once: no router solicitations, no DAD (whose probe waits up to a
# second), MLD reports all at once (no random delay), so that no such
# packet lands in a switch queue a test counts after its setup.
setup_ns() {
	local var name c
	for var in "$@"; do
		printf -v name '%s-%08x' "$var" "$SRANDOM"
		ip netns add "$name" || return 1
		ip -n "$name" link set lo up
		for c in all default; do
			echo "net.ipv6.conf.$c.router_solicitations=0"
			echo "net.ipv6.conf.$c.accept_dad=0"
			echo "net.ipv6.conf.$c.mldv1_unsolicited_report_interval=0"
			echo "net.ipv6.conf.$c.mldv2_unsolicited_report_interval=0"
		done | ip netns exec "$name" sysctl -q -p - >/dev/null || return 1
		NS_LIST+=("$name")
		printf -v "$var" '%s' "$name"
	done
}

# link_ns NS1 IF1 ADDR1 NS2 IF2 ADDR2: a veth pair with v4 /24 and v6 /64.
# ADDRn is the host byte: 198.18.X.ADDR and 2001:db8:X::ADDR with X = $SUBNET.
# The ends get locally administered MACs of a counter, kept in LINK_MAC
# for neigh_pin (one ip process per namespace: under TCG each costs).
declare -A LINK_MAC
LINK_N=0
link_ns() {
	local ns1=$1 if1=$2 a1=$3 ns2=$4 if2=$5 a2=$6 sub=${SUBNET:-0} m1 m2
	LINK_N=$((LINK_N + 1))
	printf -v m1 '02:66:%02x:%02x:00:01' $((LINK_N >> 8 & 255)) $((LINK_N & 255))
	printf -v m2 '02:66:%02x:%02x:00:02' $((LINK_N >> 8 & 255)) $((LINK_N & 255))
	ip link add "$if1" netns "$ns1" address "$m1" type veth peer name "$if2" \
		netns "$ns2" address "$m2" || return 1
	LINK_MAC[$ns1/$if1]=$m1
	LINK_MAC[$ns2/$if2]=$m2
	ip -n "$ns1" -batch - <<-EOF || return 1
		addr add 198.18.$sub.$a1/24 dev $if1
		addr add 2001:db8:$sub::$a1/64 dev $if1 nodad
		link set $if1 up
	EOF
	ip -n "$ns2" -batch - <<-EOF || return 1
		addr add 198.18.$sub.$a2/24 dev $if2
		addr add 2001:db8:$sub::$a2/64 dev $if2 nodad
		link set $if2 up
	EOF
}

# neigh_pin NS DEV PEER_NS PEER_DEV ADDR4 ADDR6: a permanent neighbour entry
# in NS for the peer's addresses, so that no ARP or neighbour discovery
# ever crosses a switch port under test: a request queued behind a standing
# queue at 1 kbit/s would stall and drop the traffic it resolves, and an
# answer would be a stray packet in a queue a test counts.
neigh_pin() {
	local mac=${LINK_MAC[$3/$4]}
	[[ -n $mac ]] || mac=$(ip -n "$3" -j link show dev "$4" | jq -r '.[0].address')
	ip -n "$1" -batch - <<-EOF
		neigh replace $5 lladdr $mac dev $2 nud permanent
		neigh replace $6 lladdr $mac dev $2 nud permanent
	EOF
}

# proc_stat NS FILE NAME: counter NAME of /proc/net/FILE in NS ("name value"
# lines, as nscc_stat, dcqcn_stat and swift_stat print them).
proc_stat() { proc_stats "$1" "$2" "$3"; }

# proc_stats NS FILE NAME...: counters NAME... of /proc/net/FILE in NS, in
# that order, one line each (empty for a name not there): one process.
proc_stats() {
	local ns=$1 f=$2
	shift 2
	ip netns exec "$ns" awk -v keys="$*" '{ v[$1] = $2 }
		END { n = split(keys, k, " "); for (i = 1; i <= n; i++) print v[k[i]] }' \
		"/proc/net/$f"
}

# all_set VALUE...: every VALUE is a number (a counter that was read), so
# that a check of "no retransmission" cannot pass on a counter not there.
all_set() {
	local v
	for v in "$@"; do
		[[ $v =~ ^-?[0-9]+$ ]] || return 1
	done
}

# stat_ge NS FILE NAME N: counter NAME of /proc/net/FILE is at least N (for
# busywait: "busywait 60000 stat_ge $A nscc_stat md_cuts 1").
stat_ge() {
	local v
	v=$(proc_stat "$1" "$2" "$3")
	[[ -n $v && $v -ge $4 ]]
}

# nscc_stat NS NAME: a counter from /proc/net/nscc_stat in NS.
nscc_stat() { proc_stat "$1" nscc_stat "$2"; }

# hold_new VAR: a file for tcpxfer.py --while-exists: its clients send until
# "rm -f $VAR" (or the test's exit), so a flow lasts as long as the checks
# that need it, on a machine of any speed.
hold_new() {
	local f
	f=$(mktemp /tmp/hold.XXXXXX) || return 1
	defer "rm -f $f"
	printf -v "$1" '%s' "$f"
}

TRACEFS=/sys/kernel/tracing

# trace_on SYSTEM: record SYSTEM's events from now.  The buffer (8 MB a
# CPU) keeps the first events when it fills rather than the last, so a
# phase's beginning is never overwritten; trace_save ends a phase.
trace_on() {
	[[ -d $TRACEFS/events/$1 ]] || return 1
	echo 8192 > "$TRACEFS/buffer_size_kb"
	echo 0 > "$TRACEFS/options/overwrite"
	# Without comm recording enabling an event patches only its own
	# tracepoint, not the scheduler's (see scripts/vm-init: QEMU/TCG).
	echo 0 > "$TRACEFS/options/record-cmd"
	echo > "$TRACEFS/trace"
	echo 1 > "$TRACEFS/events/$1/enable"
	defer "echo 0 > $TRACEFS/events/$1/enable"
}

# trace_save FILE: move what the buffer holds to FILE and go on recording.
trace_save() {
	cat "$TRACEFS/trace" > "$1"
	echo > "$TRACEFS/trace"
}

trace_off() {
	echo 0 > "$TRACEFS/events/$1/enable"
}

# allow_cc NAME: load tcp_NAME and let non-init namespaces make it their
# default.  Linux lets a netns other than init_net choose only algorithms in
# net.ipv4.tcp_allowed_congestion_control; 6.1 also leaks a module reference
# when it refuses one (tcp_set_default_congestion_control's EPERM path), so
# the module could then never be unloaded: allow first, then set.
allow_cc() {
	local cc=$1 allowed
	modprobe "tcp_$cc" || return 1
	allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
	[[ " $allowed " == *" $cc "* ]] && return 0
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed $cc"
}

# The repository's top directory, fabctl, and tc with the project's plugins.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FABCTL=$TOP/tools/fabctl/fabctl
tcf() { TC_LIB_DIR="$TOP/tools/tc" tc "$@"; }

# fabric_stat NS DEV KEY: one field of sch_fabric's stats (tc -s -j), e.g.
# ecn_marked, trimmed, drop_limit, packets, bytes, delay_p50_us.
fabric_stat() { fabric_stats "$1" "$2" "$3"; }

# fabric_stats NS DEV KEY...: several fields at once, one line each (empty
# for a key not there), of the first fabric qdisc on DEV.  The keys are
# top-level members of its object in tc's JSON, which the shell finds
# without a jq (a process costs 0.2 s in the VM): the object runs from its
# "kind" to the next qdisc's, its options come before the statistics and
# share no name with them, and the histograms' "packets" come after the
# statistics' own.
fabric_stats() {
	local ns=$1 dev=$2 js q k re
	shift 2
	js=$(tcf -n "$ns" -s -j qdisc show dev "$dev")
	q=${js#*\{\"kind\":\"fabric\"}
	[[ $q != "$js" ]] || q=
	q=${q%%\{\"kind\":*}
	for k; do
		re="\"$k\":(-?[0-9][0-9.eE+-]*|true|false)[,}]"
		if [[ $q =~ $re ]]; then
			printf '%s\n' "${BASH_REMATCH[1]}"
		else
			echo
		fi
	done
}

# port_flow INFO PORT [CLIENT_ARGS...]: in a star_topo, a tcpxfer.py flow
# from S1 to B (198.18.100.1:PORT) through R's port rb, held until rb has
# dropped for it (bounded); TCP_INFO samples of the client in INFO, of the
# server's socket in INFO.srvinfo.  Sets MARKS (what rb marked meanwhile)
# and B_ECN (1 if B's socket had ECN).
# Succeeds if the port dropped and the data arrived intact.
port_flow() {
	local info=$1 port=$2 hold d0 m0 rc
	shift 2
	hold_new hold
	d0=$(fabric_stat "$R" rb drop_limit)
	m0=$(fabric_stat "$R" rb ecn_marked)
	ip netns exec "$B" timeout "$(scaled 120)" python3 "$TOP/selftests/vm/tcpxfer.py" server \
		198.18.100.1 "$port" --info "$info.srvinfo" >"$info.srv" &
	ip netns exec "$S1" python3 "$TOP/selftests/vm/tcpxfer.py" client 198.18.100.1 "$port" \
		--info "$info" --while-exists "$hold" "$@" >"$info.cli" &
	busywait 60000 fabric_ge "$R" rb drop_limit $((d0 + 1))
	rc=$?
	rm -f "$hold"
	wait
	B_ECN=$(jq 'if .ecn then 1 else 0 end' "$info.srvinfo")
	MARKS=$(($(fabric_stat "$R" rb ecn_marked) - m0))
	log "port: ecn_marked +$MARKS, drops +$(($(fabric_stat "$R" rb drop_limit) - d0));" \
		"client: $(jq -s -c '.[-1] | {cc, ecn}' "$info"); server side ECN $B_ECN"
	[[ $rc -eq 0 && $(grep bytes= "$info.srv") == "$(sed 's/ cc=.*//' "$info.cli")" ]]
}

# delay_path DELAY: setup_ns A B and a veth pair between them
# (198.18.0.1 -> 198.18.0.2) whose A side has a netem delay of DELAY, so
# that every RTT is at least DELAY on any machine; B's default congestion
# control is cubic, an ordinary receiver that delays its ACKs.
delay_path() {
	setup_ns A B || return 1
	link_ns "$A" a0 1 "$B" b0 2 || return 1
	ip netns exec "$A" tc qdisc add dev a0 root netem delay "$1" limit 10000 || return 1
	ip netns exec "$B" sysctl -qw net.ipv4.tcp_congestion_control=cubic
}

# xfer OUT CLIENT_NS SERVER_NS ADDR PORT CC BYTES [CLIENT_ARGS...]: one
# tcpxfer.py flow of BYTES from CLIENT_NS under CC to ADDR:PORT in
# SERVER_NS (both bounded to 120 s, scaled); the server's line in OUT.srv, the
# client's in OUT.cli.  Succeeds if the data arrived intact.
xfer() {
	local out=$1 cns=$2 sns=$3 addr=$4 port=$5 cc=$6 bytes=$7
	shift 7
	ip netns exec "$sns" timeout "$(scaled 120)" python3 "$TOP/selftests/vm/tcpxfer.py" server \
		"$addr" "$port" >"$out.srv" &
	ip netns exec "$cns" timeout "$(scaled 120)" python3 "$TOP/selftests/vm/tcpxfer.py" client \
		"$addr" "$port" --cc "$cc" --bytes "$bytes" "$@" >"$out.cli"
	wait
	[[ $(grep bytes= "$out.srv") == "$(sed 's/ cc=.*//' "$out.cli")" ]]
}

# lines_ge FILE N: FILE exists and has N lines or more.
lines_ge() { [[ -f $1 && $(wc -l <"$1") -ge $2 ]]; }

# delack_flow INFO PORT CC RCV_CC: over a plain veth pair (setup_ns A B,
# link_ns 198.18.0.1 -> 198.18.0.2), a tcpxfer.py flow from A under CC to
# a receiver running RCV_CC (cubic, dctcp: both delay the ACK of a lone
# segment by 40 ms or more; a dctcp listener grants ECN).  Held until the
# client has taken 16 TCP_INFO samples, one per 64 kB sent (at most 60 s),
# into INFO (the server's socket in INFO.srvinfo).  Sets DELACKS, the
# receiver's delayed-ACK timer firings (TcpExtDelayedACKs) during the
# flow, and SEGS, the segments it received (TcpInSegs).  Succeeds if the
# data arrived intact under RCV_CC.
delack_flow() {
	local info=$1 port=$2 cc=$3 rcv=$4 hold rc d0 s0
	hold_new hold
	ip netns exec "$B" sysctl -qw net.ipv4.tcp_congestion_control="$rcv" || return 1
	d0=$(ip netns exec "$B" nstat -az TcpExtDelayedACKs | awk '/DelayedACKs/ { print $2 }')
	s0=$(ip netns exec "$B" nstat -az TcpInSegs | awk '/InSegs/ { print $2 }')
	ip netns exec "$B" timeout "$(scaled 150)" python3 "$TOP/selftests/vm/tcpxfer.py" server \
		198.18.0.2 "$port" --info "$info.srvinfo" >"$info.srv" &
	ip netns exec "$A" python3 "$TOP/selftests/vm/tcpxfer.py" client 198.18.0.2 "$port" \
		--cc "$cc" --info "$info" --info-every 65536 --while-exists "$hold" >"$info.cli" &
	busywait 60000 lines_ge "$info" 16
	rc=$?
	rm -f "$hold"
	wait
	DELACKS=$(($(ip netns exec "$B" nstat -az TcpExtDelayedACKs | awk '/DelayedACKs/ { print $2 }') - d0))
	SEGS=$(($(ip netns exec "$B" nstat -az TcpInSegs | awk '/InSegs/ { print $2 }') - s0))
	# the samples in one jq: their count, cwnd [min, max], srtt_us [min,
	# median, max] and the last one's ECN
	log "$cc to $rcv: $(jq -s -r '[length, (map(.cwnd) | [min, max]),
		(map(.rtt_us) | [min, (sort | .[length / 2 | floor]), max]), .[-1].ecn] |
		"\(.[0]) samples, cwnd \(.[1] | tojson), srtt_us \(.[2] | tojson), ecn \(.[3])"' \
		"$info"), $(grep -o 'bytes=[0-9]*' "$info.srv");" \
		"receiver: $SEGS segments, $DELACKS delayed-ACK timeouts"
	[[ $rc -eq 0 && $(grep bytes= "$info.srv") == "$(sed 's/ cc=.*//' "$info.cli")" ]] &&
		jq -e --arg c "$rcv" '.cc == $c' "$info.srvinfo" >/dev/null
}

# few_delacks: the receiver of the last delack_flow ACKed at once, not on
# its delayed-ACK timer, for all but a few per cent of what it received.
few_delacks() { (( SEGS > 0 && DELACKS * 20 < SEGS )); }

# port_flow_classic INFO PORT: port_flow from a classic ECN client (cubic
# with net.ipv4.tcp_ecn 1 on S1).  Sets ECHOED too: the client's packets
# delivered with an ECN echo (TcpExtTCPDeliveredCE) during the flow.
port_flow_classic() {
	local ce0 ce1 rc
	ip netns exec "$S1" sysctl -qw net.ipv4.tcp_ecn=1
	ce0=$(ip netns exec "$S1" nstat -az TcpExtTCPDeliveredCE | awk '/TCPDeliveredCE/ { print $2 }')
	port_flow "$1" "$2" --cc cubic
	rc=$?
	ce1=$(ip netns exec "$S1" nstat -az TcpExtTCPDeliveredCE | awk '/TCPDeliveredCE/ { print $2 }')
	ip netns exec "$S1" sysctl -qw net.ipv4.tcp_ecn=2
	ECHOED=$((ce1 - ce0))
	log "client: packets delivered with an ECN echo $ECHOED"
	return $rc
}

# fabric_ge NS DEV KEY N: fabric_stat NS DEV KEY is at least N (for busywait).
fabric_ge() {
	local v
	v=$(fabric_stat "$1" "$2" "$3")
	[[ -n $v && $v != null && $v -ge $4 ]]
}

# udp_recv NS OUT ADDR PORT [ARGS...]: start udpburst.py's receiver in NS in
# the background (its JSON to OUT) and return once its socket is bound.
udp_recv() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" python3 "$TOP/selftests/vm/udpburst.py" recv "$@" \
		>"$out" 2>"$out.err" &
	busywait 30000 grep -q ready "$out.err"
}

# tdc-style case: tdc NAME EXPECTED_RC PATTERN -- COMMAND...
# Runs COMMAND, checks its exit status (0, or non-zero as "fail") and that
# its output (stdout and stderr) matches the extended regex PATTERN.
tdc() {
	local name=$1 want=$2 pat=$3 out rc line
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [[ $want == fail ]]; then
		[[ $rc -ne 0 ]]
	else
		[[ $rc -eq $want ]]
	fi
	local ok=$?
	if [[ $ok -eq 0 && -n $pat ]]; then
		# line by line, as grep -E would (in bash's =~ over the whole
		# output, . would match a newline)
		ok=1
		while IFS= read -r line; do
			[[ $line =~ $pat ]] && { ok=0; break; }
		done <<<"$out"
	fi
	[[ $ok -ne 0 ]] && log "  rc=$rc output: $out"
	check $ok "$name"
}

# switch_topo: the topology of Documentation/networking/sch_fabric.rst,
#   A (198.18.1.1, 2001:db8:1::1) --a0/r0-- R --r1/b0-- B (198.18.2.1, 2001:db8:2::1)
# with R forwarding; the switch port under test is R's r1, toward B.
# Sets A, R, B.
switch_topo() {
	setup_ns A R B || return 1
	SUBNET=1 link_ns "$A" a0 1 "$R" r0 2
	SUBNET=2 link_ns "$B" b0 1 "$R" r1 2
	ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	ip -n "$A" -batch - <<-EOF
		route add 198.18.2.0/24 via 198.18.1.2
		route add 2001:db8:2::/64 via 2001:db8:1::2
	EOF
	ip -n "$B" -batch - <<-EOF
		route add 198.18.1.0/24 via 198.18.2.2
		route add 2001:db8:1::/64 via 2001:db8:2::2
	EOF
	neigh_pin "$R" r1 "$B" b0 198.18.2.1 2001:db8:2::1
	neigh_pin "$B" b0 "$R" r1 198.18.2.2 2001:db8:2::2
	neigh_pin "$R" r0 "$A" a0 198.18.1.1 2001:db8:1::1
	neigh_pin "$A" a0 "$R" r0 198.18.1.2 2001:db8:1::2
}

# multipath_topo [N]: a sender S and a receiver D joined by N (default 4)
# parallel paths, for mrt's EV spraying (issue 13; reusable by users):
#
#   S 198.18.10.1 -- R --+-- W1 --+-- D 198.18.30.1 (lo), 2001:db8:30::1
#                        +-- W2 --+
#                        +-- ...  +
#                        +-- WN --+
#
# R routes D's address over all N paths with an L4 hash
# (fib_multipath_hash_policy 1), so that distinct UDP source ports (EVs)
# take distinct paths; D answers over all N the same way.  Each switch Wi
# reaches D on its device "wd" (198.18.(20+i).1 -> D's d<i> 198.18.(20+i).2;
# R's r<i> 198.18.(10+i).1 -> Wi's wr 198.18.(10+i).2): put the path's
# sch_fabric port or netem on Wi's "wd" (mp_port i ...).  IPv6 alike under
# 2001:db8:<subnet>::.  Neighbours are pinned, rp_filter is off (replies
# come back on any path).  Sets S, R, D and W1..WN.
multipath_topo() {
	local n=${1:-4} i w nh4=() nh6=() dh4=() dh6=()
	setup_ns S R D || return 1
	for ((i = 1; i <= n; i++)); do
		setup_ns "W$i" || return 1
	done
	SUBNET=10 link_ns "$S" s0 1 "$R" rs 2
	ip -n "$S" -batch - <<-EOF
		route add default via 198.18.10.2
		route add default via 2001:db8:10::2
	EOF
	neigh_pin "$S" s0 "$R" rs 198.18.10.2 2001:db8:10::2
	neigh_pin "$R" rs "$S" s0 198.18.10.1 2001:db8:10::1
	ip -n "$D" -batch - <<-EOF
		addr add 198.18.30.1/32 dev lo
		addr add 2001:db8:30::1/128 dev lo nodad
	EOF
	for ((i = 1; i <= n; i++)); do
		w="W$i"
		SUBNET=$((10 + i)) link_ns "$R" "r$i" 1 "${!w}" wr 2
		SUBNET=$((20 + i)) link_ns "${!w}" wd 1 "$D" "d$i" 2
		neigh_pin "$R" "r$i" "${!w}" wr "198.18.$((10 + i)).2" "2001:db8:$((10 + i))::2"
		neigh_pin "${!w}" wr "$R" "r$i" "198.18.$((10 + i)).1" "2001:db8:$((10 + i))::1"
		neigh_pin "${!w}" wd "$D" "d$i" "198.18.$((20 + i)).2" "2001:db8:$((20 + i))::2"
		neigh_pin "$D" "d$i" "${!w}" wd "198.18.$((20 + i)).1" "2001:db8:$((20 + i))::1"
		ip -n "${!w}" -batch - <<-EOF || return 1
			route add 198.18.30.1/32 via 198.18.$((20 + i)).2
			route add 2001:db8:30::1/128 via 2001:db8:$((20 + i))::2
			route add 198.18.10.0/24 via 198.18.$((10 + i)).1
			route add 2001:db8:10::/64 via 2001:db8:$((10 + i))::1
		EOF
		ip netns exec "${!w}" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv6.conf.all.forwarding=1 net.ipv4.conf.all.rp_filter=0 \
			net.ipv4.conf.default.rp_filter=0
		nh4+=(nexthop via "198.18.$((10 + i)).2" dev "r$i")
		nh6+=(nexthop via "2001:db8:$((10 + i))::2" dev "r$i")
		dh4+=(nexthop via "198.18.$((20 + i)).1" dev "d$i")
		dh6+=(nexthop via "2001:db8:$((20 + i))::1" dev "d$i")
	done
	ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
		net.ipv4.fib_multipath_hash_policy=1 net.ipv6.fib_multipath_hash_policy=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	ip netns exec "$D" sysctl -qw net.ipv4.fib_multipath_hash_policy=1 \
		net.ipv6.fib_multipath_hash_policy=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0
	ip -n "$R" -batch - <<-EOF || return 1
		route add 198.18.30.1/32 ${nh4[*]}
		route add 2001:db8:30::1/128 ${nh6[*]}
	EOF
	ip -n "$D" -batch - <<-EOF || return 1
		route add 198.18.10.0/24 ${dh4[*]}
		route add 2001:db8:10::/64 ${dh6[*]}
	EOF
}

# mp_port I ARGS...: a sch_fabric qdisc on path I's switch port toward D
# (tc's "qdisc replace dev wd root fabric ARGS").
mp_port() {
	local w="W$1"
	shift
	tcf -n "${!w}" qdisc replace dev wd root fabric "$@"
}

# star_topo N: N senders S1..SN, each on its own link to the switch R, and
# one receiver B (198.18.100.1, 2001:db8:100::1) behind R's port "rb".
# Sender i is 198.18.i.1 / 2001:db8:i::1.  Sets S1..SN, R, B.
star_topo() {
	local n=$1 i var
	for ((i = 1; i <= n; i++)); do
		setup_ns "S$i" || return 1
	done
	setup_ns R B || return 1
	SUBNET=100 link_ns "$B" b0 1 "$R" rb 2
	ip -n "$B" -batch - <<-EOF
		route add default via 198.18.100.2
		route add default via 2001:db8:100::2
	EOF
	neigh_pin "$R" rb "$B" b0 198.18.100.1 2001:db8:100::1
	neigh_pin "$B" b0 "$R" rb 198.18.100.2 2001:db8:100::2
	for ((i = 1; i <= n; i++)); do
		var="S$i"
		SUBNET=$i link_ns "${!var}" s0 1 "$R" "r$i" 2
		ip -n "${!var}" -batch - <<-EOF
			route add default via 198.18.$i.2
			route add default via 2001:db8:$i::2
		EOF
	done
	ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
}

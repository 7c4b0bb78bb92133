#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt_fault.sh: per-EV faults on one device with tools/bpf/mrt_fault.bpf.o
# (a tc-BPF program), loaded, configured and read with bpftool.
#
#   mrt_fault.sh attach NS DEV      load the program (pinned under $FS),
#                                   attach it to DEV's egress in netns NS;
#                                   it matches UDP to NS's net.mrt.udp_port
#                                   (any port if mrt is not loaded)
#   mrt_fault.sh set EV|A-B ACTION  ACTION: drop, ce, corrupt:OFFSET:MASK
#                                   (flip MASK's bits of the UDP payload's
#                                   byte OFFSET: the mrt header), or none
#   mrt_fault.sh stats              the program's counters, as JSON: seen,
#                                   dropped, marked, corrupted, not_ect,
#                                   skipped (the byte beyond the datagram)
#   mrt_fault.sh detach NS DEV      detach, unpin
#
# FS (default /tmp/mrt_fault) is a bpffs mount of its own, outside /sys,
# which "ip netns exec" remounts; no dots in it (libbpf turns them into
# underscores in pin paths).  One program at a time per FS.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
OBJ=${OBJ:-$top/tools/bpf/mrt_fault.bpf.o}
FS=${FS:-/tmp/mrt_fault}
die() { echo "mrt_fault.sh: $*" >&2; exit 1; }

# le32 V: V's 4 bytes, little-endian, as bpftool's decimal byte list
le32() { echo "$(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255))"; }

case ${1:-} in
attach)
	[[ $# -eq 3 ]] || die "attach NS DEV"
	[[ $FS != *.* ]] || die "FS ($FS) has a dot, which libbpf's pin paths do not keep"
	mkdir -p "$FS"
	mountpoint -q "$FS" || mount -t bpf bpf "$FS"
	[[ -e $FS/prog ]] && die "a program is pinned already ($FS/prog): detach it first"
	mkdir -p "$FS/maps"
	bpftool prog load "$OBJ" "$FS/prog" type classifier pinmaps "$FS/maps"
	port=$(ip netns exec "$2" sysctl -n net.mrt.udp_port 2>/dev/null || echo 0)
	if ! bpftool map update pinned "$FS/maps/mrt_fault_conf" key 0 0 0 0 value $(le32 "$port") ||
	   ! tc -n "$2" qdisc replace dev "$3" clsact ||
	   ! tc -n "$2" filter replace dev "$3" egress pref 1 handle 1 bpf direct-action \
		object-pinned "$FS/prog"; then
		rm -rf "${FS:?}/prog" "${FS:?}/maps"
		die "could not attach to $3 in $2"
	fi
	;;
set)
	[[ $# -eq 3 ]] || die "set EV|A-B ACTION"
	[[ $2 =~ ^([0-9]+)(-([0-9]+))?$ ]] || die "\"$2\" is not an EV or a range A-B"
	lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
	((lo <= hi && hi <= 65535)) || die "\"$2\": ports 0 to 65535, first to last"
	((hi - lo < 1024)) || die "\"$2\": at most 1024 EVs (the map's size)"
	off=0 mask=0
	case $3 in
	drop) flags=1 ;;
	ce) flags=2 ;;
	corrupt:*:*)
		IFS=: read -r _ off mask <<<"$3"
		[[ $off =~ ^[0-9]+$ && $mask =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] ||
			die "corrupt:OFFSET:MASK: numbers (MASK may be 0x..)"
		((off <= 1024 && mask >= 1 && mask <= 255)) ||
			die "corrupt: OFFSET at most 1024, MASK 1 to 255"
		flags=4 ;;
	none) flags=0 ;;
	*) die "ACTION is drop, ce, corrupt:OFFSET:MASK or none" ;;
	esac
	for ((p = lo; p <= hi; p++)); do
		if ((flags)); then
			bpftool map update pinned "$FS/maps/mrt_fault_evs" key $((p & 255)) $((p >> 8)) \
				value $(le32 $flags) $(le32 $((off))) $(le32 $((mask))) 0 0 0 0
		else
			bpftool map delete pinned "$FS/maps/mrt_fault_evs" key $((p & 255)) $((p >> 8)) \
				2>/dev/null || true
		fi
	done
	;;
stats)
	bpftool -j map dump pinned "$FS/maps/mrt_fault_stats" |
		jq -c '[.[] | (.formatted.value // .value)] as $v |
			{seen: $v[0], dropped: $v[1], marked: $v[2], corrupted: $v[3], not_ect: $v[4],
			 skipped: $v[5]}'
	;;
detach)
	[[ $# -eq 3 ]] || die "detach NS DEV"
	tc -n "$2" filter del dev "$3" egress pref 1 2>/dev/null || true
	rm -rf "${FS:?}/prog" "${FS:?}/maps"
	;;
*)
	sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac

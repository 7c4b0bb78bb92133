#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One table per module, four views of it: for every attribute of every
# module, fabctl (the fabric netlink family), the sysctl, the module
# parameter and ccreplay --list agree on the names, the values, the
# defaults, the ranges and the units.
source "$(dirname "$0")/../lib.sh"

CCR=$TOP/tools/ccreplay/ccreplay
require_cmd jq || exit $ksft_skip
for m in nscc dcqcn swift; do
	modprobe "tcp_$m" || exit 1
done
modprobe mrt || exit 1
grep -q '^fabric ' /proc/modules
check $? "modprobe tcp_nscc brought the base module fabric.ko"

J=$(mktemp /tmp/agree.XXXXXX)
defer "rm -f $J"
"$FABCTL" -j attr show >"$J"
check $? "fabctl -j attr show dumps every attribute"
[[ $(jq -r '[.[].module] | unique | join(" ")' "$J") == "dcqcn mrt nscc swift" ]]
check $? "the dump has the four modules (dcqcn mrt nscc swift)"

for m in nscc dcqcn swift; do
	names=$(jq -r --arg m "$m" '[.[] | select(.module == $m) | .name] | sort | join(" ")' "$J")
	sysctls=$(ls /proc/sys/net/$m | sort | tr '\n' ' ' | sed 's/ $//')
	params=$(ls /sys/module/tcp_$m/parameters | sort | tr '\n' ' ' | sed 's/ $//')
	ccr=$("$CCR" --algo "$m" --list | awk '{print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
	[[ -n $names && $names == "$sysctls" && $names == "$params" && $names == "$ccr" ]]
	check $? "$m: fabctl, sysctl, module parameters and ccreplay name the same $(wc -w <<<"$names") attributes"

	# (the files are read by the shell: a process per attribute costs
	# seconds under TCG)
	bad=0
	declare -A rows=()
	while read -r a b c d _; do
		rows[$a]="$a $b $c $d"
	done < <("$CCR" --algo "$m" --list)
	while IFS='|' read -r name shown global def min max unit; do
		v=$(<"/proc/sys/net/$m/$name")
		[[ $v == "$shown" ]] ||
			{ log "# $m.$name: sysctl $v, fabctl $shown"; bad=1; }
		p=$(<"/sys/module/tcp_$m/parameters/$name")
		[[ $p == "$global" ]] ||
			{ log "# $m.$name: module parameter $p, fabctl global $global"; bad=1; }
		row=${rows[$name]}
		want="$name $def ${unit:--} [$min..$max]"
		[[ $row == "$want" ]] ||
			{ log "# $m.$name: ccreplay '$row', fabctl '$want'"; bad=1; }
	done < <(jq -r --arg m "$m" '.[] | select(.module == $m) |
		def txt(v): if .kind == "enum" and .enum_names[v] != null then .enum_names[v] else v end;
		[.name, txt(.value), txt(.global), txt(.default), .min, .max, .unit] |
		map(tostring) | join("|")' "$J")
	check $bad "$m: every value, module parameter, default, range and unit agree"
done

# mrt: the transport's attributes and NSCC's, under one name each (no
# ccreplay: it replays congestion controls, not the transport).
names=$(jq -r '[.[] | select(.module == "mrt") | .name] | sort | join(" ")' "$J")
sysctls=$(ls /proc/sys/net/mrt | sort | tr '\n' ' ' | sed 's/ $//')
params=$(ls /sys/module/mrt/parameters | sort | tr '\n' ' ' | sed 's/ $//')
[[ -n $names && $names == "$sysctls" && $names == "$params" ]] &&
	grep -qw udp_port <<<"$names" && grep -qw gamma <<<"$names"
check $? "mrt: fabctl, sysctl and module parameters name the same $(wc -w <<<"$names") attributes"
bad=0
declare -A sys par
while read -r k _ v; do sys[${k#net.mrt.}]=$v; done < <(sysctl net.mrt)
while IFS=: read -r f v; do par[${f##*/}]=$v; done < <(grep -H . /sys/module/mrt/parameters/*)
while IFS='|' read -r name shown global; do
	[[ ${sys[$name]} == "$shown" ]] ||
		{ log "# mrt.$name: sysctl ${sys[$name]}, fabctl $shown"; bad=1; }
	[[ ${par[$name]} == "$global" ]] ||
		{ log "# mrt.$name: module parameter ${par[$name]}, fabctl $global"; bad=1; }
done < <(jq -r '.[] | select(.module == "mrt") |
	def txt(v): if .kind == "enum" and .enum_names[v] != null then .enum_names[v] else v end;
	[.name, txt(.value), txt(.global)] | map(tostring) | join("|")' "$J")
check $bad "mrt: every value and module parameter agree"
"$FABCTL" attr show mrt flavour | grep -q '^mrt  *flavour  *mrc '
check $? "mrt's NSCC flavour defaults to mrc (this transport is trimmed)"

# Values as text: the sysctl form, the same in fabctl's plain output.
"$FABCTL" attr show nscc flavour | grep -q '^nscc  *flavour  *uet '
check $? "fabctl attr show nscc flavour prints the enum by name (uet)"
"$FABCTL" attr show nscc gamma | grep -q 'gamma  *800  *thousandths  *default 800  *range 0\.\.1000'
check $? "fabctl attr show nscc gamma: value, unit, default, range"

exit $RET

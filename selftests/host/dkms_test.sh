#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms: "dkms add, build, install" of this tree works the way Debian users
# install out-of-tree modules.  Runs on the host against private dkms,
# source and install trees, so the system's /var/lib/dkms and
# /lib/modules are left alone.  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$("$top/scripts/kver") || { echo "1..0 # SKIP no 6.1 kernel"; exit 0; }
source "$top/selftests/lib/tap.sh"

echo "TAP version 13"
if ! command -v dkms >/dev/null; then
	echo "1..0 # SKIP dkms not installed"
	exit 0
fi
echo "1..5"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$top/dkms.conf")
mkdir -p "$t/src/$name-$ver" "$t/dkms" "$t/inst/$kver"
# The files git tracks or would track: what a release tarball holds.
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$t/src/$name-$ver")
trees=(--sourcetree "$t/src" --dkmstree "$t/dkms" --installtree "$t/inst")

dkms add "$name/$ver" "${trees[@]}" >"$t/log" 2>&1
tap_ok $? "dkms add $name/$ver"
dkms build "$name/$ver" -k "$kver" "${trees[@]}" >>"$t/log" 2>&1
tap_ok $? "dkms build for $kver"
dkms install "$name/$ver" -k "$kver" "${trees[@]}" >>"$t/log" 2>&1
tap_ok $? "dkms install for $kver"
ko=$t/inst/$kver/updates/dkms/tcp_nscc.ko
all=1
for m in fabric tcp_nscc tcp_dcqcn tcp_swift sch_fabric mrt; do
	f=$t/inst/$kver/updates/dkms/$m.ko
	[[ -f $f && $(modinfo -F vermagic "$f") == "$kver "* ]] || all=0
done
[[ $all == 1 ]]
tap_ok $? "every module installed under updates/dkms with vermagic $kver"
dkms remove "$name/$ver" --all "${trees[@]}" >>"$t/log" 2>&1 && [[ ! -f $ko ]]
tap_ok $? "dkms remove takes it out again"
[[ $tap_rc -eq 0 ]] || sed 's/^/# /' "$t/log"
exit $tap_rc

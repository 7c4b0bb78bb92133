#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module lifetime: "modprobe -r sch_fabric" is refused while a qdisc uses
# it; after the qdisc is deleted the module unloads cleanly and loads again.
source "$(dirname "$0")/../lib.sh"

setup_ns N
ip -n "$N" link add d0 type dummy
tc -n "$N" qdisc add dev d0 root fabric
check $? "a fabric qdisc without options (the defaults)"
check_fail "modprobe -r sch_fabric is refused while it is in use" -- modprobe -r sch_fabric
tc -n "$N" qdisc del dev d0 root
check $? "delete"
modprobe -r sch_fabric
check $? "modprobe -r works once no qdisc uses it"
! grep -q '^sch_fabric ' /proc/modules
check $? "the module is gone"
modprobe sch_fabric
check $? "and loads again"
exit $RET

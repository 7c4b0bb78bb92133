#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open MPI (Debian's openmpi-bin, built with libfabric) runs two ranks, one
# in each namespace, over the mrt provider: the cm PML with the ofi MTL,
# which sends every MPI message as a tagged libfabric message.  mpirun
# runs in A; the rank in B is started by nsrsh (ip netns exec) in place
# of ssh; --bind-to none, since each "node" would bind its rank to its
# first core, the same one of the VM's two.  mpi_pingpong checks every byte of 200 round trips of 4 KiB and
# 20 of 1 MiB.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/fi_lib.bash"
require_cmd mpirun
P=$TOP/selftests/vm/libfabric/mpi_pingpong
[[ -x $P ]] || { check 1 "mpi_pingpong is built"; exit 1; }

fi_pair || exit 1
export NSRSH_HOSTS=$FI_J/hosts
printf '198.18.0.1 %s\n198.18.0.2 %s\n' "$A" "$B" >"$NSRSH_HOSTS"
mpi() {
	# a host name Open MPI can parse (the VM's is "(none)")
	ip netns exec "$A" unshare --uts sh -c 'hostname 198.18.0.1 && exec "$@"' mpi \
		timeout $((120 * ${WAIT_SCALE:-1})) mpirun --allow-run-as-root \
		-np 2 --host 198.18.0.1,198.18.0.2 --bind-to none \
		--mca plm_rsh_agent "$TOP/selftests/vm/libfabric/nsrsh" \
		--mca oob_tcp_if_include a0,b0 --mca btl self \
		--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include mrt \
		-x FI_PROVIDER_PATH -x NSRSH_HOSTS \
		"$P" "$@"
}
out=$(mpi 200 4096 2>&1)
rc=$?
log "$(sed 's/^/# /' <<<"$out")"
[[ $rc == 0 ]] && grep -q '200 x 4096 B, .* 0 bad, rank sum 1' <<<"$out"
check $? "Open MPI over the mrt provider: 200 round trips of 4 KiB between the namespaces, every byte right"
out=$(mpi 20 1048576 2>&1)
rc=$?
log "$(sed 's/^/# /' <<<"$out")"
[[ $rc == 0 ]] && grep -q '20 x 1048576 B, .* 0 bad' <<<"$out"
check $? "and 20 of 1 MiB"
exit $RET

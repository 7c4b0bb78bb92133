#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TAP for the host tests in shell: "ok N - name" / "not ok N - name".
# tap_ok RC NAME records one test point; tap_rc is the exit status.

tap_n=0
tap_rc=0

tap_ok() {
	tap_n=$((tap_n + 1))
	if [[ $1 -eq 0 ]]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_rc=1
	fi
}

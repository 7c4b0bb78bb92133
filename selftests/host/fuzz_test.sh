#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's short run of every libFuzzer target (selftests/fuzz/):
# FUZZ_BRIEF seconds each (default 5) from the seed corpora, so that a
# parser or window change that crashes, leaks or breaks an invariant on a
# seed or a near mutation of one fails CI.  make fuzz runs them longer.
top=$(cd "$(dirname "$0")/../.." && pwd)
exec "$top/scripts/fuzz" -t "${FUZZ_BRIEF:-5}"

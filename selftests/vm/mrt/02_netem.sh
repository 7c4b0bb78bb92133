#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrt through netem in both directions, IPv4 and IPv6: 5 % loss, 25 %
# reordering (behind a 1 ms delay), 2 % duplication and 1 % corruption.
# 1000 messages of 0 B to 4 MiB (mrtmsg.py's sizes) each arrive exactly once
# and intact, with a confirmation each; the counters show that packets
# were lost and retransmitted, so the test cannot pass on a clean path.
# With trimming on (mrt's default) and no trim, the MRC page's validation
# warning is given once per destination.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/mrt_lib.bash"

mrt_jumbo_pair || exit 1
imp="delay 1ms reorder 25% 50% loss 5% duplicate 2% corrupt 1% limit 100000"
ip netns exec "$A" tc qdisc add dev a0 root netem $imp || exit 1
ip netns exec "$B" tc qdisc add dev b0 root netem $imp || exit 1

for fam in 4 6; do
	if [[ $fam == 4 ]]; then dst=198.18.0.2; else dst=2001:db8:0::2; fi
	rtx0=$(( $(mrt_stat "$A" total_rtx_sack) + $(mrt_stat "$A" rtx_rto) ))
	mrt_xfer "$A" "$B" "$dst" "netem$fam" --count 1000 --max-size 4194304 --seed $((fam + 10))
	mrt_xfer_ok "netem$fam" 1000
	check $? "IPv$fam: through loss, reordering, duplication, corruption: 1000 messages once each, intact"
	mrt_confirmed "netem$fam" 1000
	check $? "IPv$fam: a confirmation with each message's cookie"
	rtx=$(( $(mrt_stat "$A" total_rtx_sack) + $(mrt_stat "$A" rtx_rto) - rtx0 ))
	(( rtx > 0 ))
	check $? "IPv$fam: packets were lost and sent again ($rtx retransmissions)"
done
dup=$(mrt_stat "$B" dup_pkts_in)
(( dup > 0 ))
check $? "the receiver saw duplicates ($dup) and delivered none twice"
# trimming_enabled is on (auto, mrc) and no trim ever comes: the MRC
# page's validation warning, once per destination (one for each family's)
warn=$(mrt_stat "$A" trimming_no_trims)
(( warn >= 2 )) && dmesg | grep -q "mrt: trimming_enabled is on, but packets to 198.18.0.2 are lost untrimmed"
check $? "trimming on, losses, no trim NACK: the validation warning once per destination ($warn) and its log line"
mrt_snmp "$A"
mrt_snmp "$B"
exit $RET

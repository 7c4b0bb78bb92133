/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attributes of NSCC: one row each, NSCC_ATTR(name, kind, default,
 * min, max, unit, help).  This is the single table behind the module
 * parameters, the net.nscc.* sysctls, the "nscc" netlink attribute set and
 * ccreplay --set; it is an X-macro list, so it has no include guard: define
 * NSCC_ATTR, include this file, undefine NSCC_ATTR.
 *
 * kind is U32 (a number in the unit the name ends with; fractions are
 * thousandths), BOOL, or FLAVOUR (an enum written by name); unit is what
 * fabctl and ccreplay --list print after a value (empty for a bool or an
 * enum).  Defaults are the spec pages'.  The one exception is
 * trimming_enabled, whose page default differs by flavour (mrc true, uet
 * false): the table holds false because TCP is never trimmed, and
 * nscc_params_init() applies the page default of the flavour asked for.
 */
NSCC_ATTR(flavour, FLAVOUR, NSCC_FLAVOUR_UET, 0, 1, "",
	  "NSCC flavour: mrc (SACK-driven, no ECN) or uet (ECN, decrease, receiver penalty)")
NSCC_ATTR(data_rate_mbps, U32, 400000, 0, 3200000, "Mbit/s",
	  "Link rate in Mbit/s: BDP and max window; 0: the egress device's speed")
NSCC_ATTR(config_base_rtt_ns, U32, 6000, 0, 1000000000, "ns",
	  "Base RTT (ns): BDP, max window, target, gains, period; 0: the path's, measured")
NSCC_ATTR(reference_network_rtt_ns, U32, 6000, 1, 1000000000, "ns",
	  "RTT (ns) of the reference BDP that normalises the increase gains")
NSCC_ATTR(reference_network_link_speed_mbps, U32, 400000, 1, 3200000, "Mbit/s",
	  "Link speed (Mbit/s) of the reference BDP that normalises the increase gains")
NSCC_ATTR(alpha_multiplier, U32, 4000, 0, 1000000, "thousandths",
	  "Scale of proportional increase, thousandths (4000 = 4.0)")
NSCC_ATTR(fair_increase_multiplier, U32, 5000, 0, 1000000, "thousandths",
	  "Scale of fair increase, thousandths (5000 = 5.0)")
NSCC_ATTR(fast_increase_multiplier, U32, 1000, 0, 1000000, "thousandths",
	  "Scale of fast increase, thousandths; 1000 gives the spec's 0.25 bytes per byte acked")
NSCC_ATTR(eta_multiplier, U32, 150, 0, 1000000, "thousandths",
	  "Scale of the additive term added once per config_base_rtt_ns, thousandths (150 = 0.15)")
NSCC_ATTR(gamma, U32, 800, 0, 1000, "thousandths",
	  "Depth of a multiplicative decrease per excess of average delay over target, thousandths")
NSCC_ATTR(max_multiplicative_decrease_jump, U32, 500, 0, 1000, "thousandths",
	  "Smallest fraction of the window one multiplicative decrease keeps, thousandths")
NSCC_ATTR(delay_alpha, U32, 250, 0, 1000, "thousandths",
	  "Weight of the newest sample in the average queueing delay, thousandths")
NSCC_ATTR(quick_adapt_gate, U32, 3, 0, 31, "shift",
	  "Quick Adapt fires only if the bytes acked in a window are below max window >> gate")
NSCC_ATTR(disable_quick_adapt, BOOL, 0, 0, 1, "",
	  "1: Quick Adapt never runs")
NSCC_ATTR(quick_adapt_threshold_ns, U32, 24000, 0, 1000000000, "ns",
	  "Queueing delay (ns) that triggers Quick Adapt when trimming_enabled is 0")
NSCC_ATTR(trimming_enabled, BOOL, 0, 0, 1, "",
	  "1: target is 0.75 x config_base_rtt_ns and only trims trigger Quick Adapt")
NSCC_ATTR(override_spec_max_congestion_window, BOOL, 0, 0, 1, "",
	  "1: max window is max_congestion_window_pkts nominal packets")
NSCC_ATTR(max_congestion_window_pkts, U32, 107, 1, 1000000, "packets",
	  "Max window in nominal packets, used with override_spec_max_congestion_window")
NSCC_ATTR(override_spec_target_queue_delay, BOOL, 0, 0, 1, "",
	  "1: target is target_queue_delay_ns")
NSCC_ATTR(target_queue_delay_ns, U32, 4500, 1, 1000000000, "ns",
	  "Target queueing delay (ns), used with override_spec_target_queue_delay")
NSCC_ATTR(target_queue_delay_margin_ns, U32, 1000, 0, 1000000000, "ns",
	  "Delay (ns) below which acks count toward entering fast increase")
NSCC_ATTR(pass_through, BOOL, 0, 0, 1, "",
	  "1: the window is computed but does not limit sending")
NSCC_ATTR(nscc_enable, BOOL, 1, 0, 1, "",
	  "0: routines, Quick Adapt and loss reactions are off; the window stays at the max window")
NSCC_ATTR(receiver_congestion_low_threshold, U32, 250, 0, 1000, "thousandths",
	  "Receiver: pool occupancy (thousandths) where the receiver penalty starts")
NSCC_ATTR(receiver_congestion_high_threshold, U32, 750, 0, 1000, "thousandths",
	  "Receiver: pool occupancy (thousandths) where the receiver penalty is full (127)")
NSCC_ATTR(restore_cwind_enable, BOOL, 0, 0, 1, "",
	  "Receiver: 1 tells senders to restore their saved window when the penalty ends")

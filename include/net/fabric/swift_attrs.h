/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attributes of Swift: SWIFT_ATTR(name, kind, default, min, max, unit,
 * help), with the defaults of Google's Isekai Falcon RUE (Swift's
 * DefaultConfiguration(), "from Swift in Pony"), since the paper gives
 * few values.  Windows are in thousandths of a packet ("milli-packets"),
 * fractions in thousandths.  The single table behind the module
 * parameters, the net.swift.* sysctls, the "swift" netlink attribute set
 * and ccreplay --set; an X-macro list without include guard (define
 * SWIFT_ATTR, include, undefine).  unit is what fabctl and ccreplay
 * --list print after a value.
 */
SWIFT_ATTR(base_target_ns, U32, 25000, 0, 1000000000, "ns",
	   "Base of the target delay (ns): propagation, serialisation, host; 0: measured")
SWIFT_ATTR(per_hop_ns, U32, 1000, 0, 100000000, "ns",
	   "Target delay added per hop (ns)")
SWIFT_ATTR(hops, U32, 1, 0, 255, "count",
	   "Hops on the path (TCP cannot measure them)")
SWIFT_ATTR(fs_range_ns, U32, 100000, 0, 1000000000, "ns",
	   "Flow-scaling range (ns): the extra target at fs_min_cwnd")
SWIFT_ATTR(fs_min_cwnd, U32, 100, 1, 65535000, "milli-packets",
	   "Window (thousandths of a packet) where flow scaling is full")
SWIFT_ATTR(fs_max_cwnd, U32, 256000, 1, 65535000, "milli-packets",
	   "Window (thousandths of a packet) where flow scaling reaches 0")
SWIFT_ATTR(ai, U32, 1000, 0, 1000000, "milli-packets",
	   "Additive increase per RTT below target, thousandths of a packet")
SWIFT_ATTR(beta, U32, 800, 0, 1000, "thousandths",
	   "Multiplicative decrease per excess delay over delay, thousandths")
SWIFT_ATTR(max_mdf, U32, 500, 0, 1000, "thousandths",
	   "Largest fraction one decrease takes off, thousandths")
SWIFT_ATTR(min_cwnd, U32, 10, 1, 65535000, "milli-packets",
	   "Smallest window, thousandths of a packet (below 2000: paced)")
SWIFT_ATTR(max_cwnd, U32, 256000, 1, 65535000, "milli-packets",
	   "Largest window, thousandths of a packet")
SWIFT_ATTR(retx_reset_threshold, U32, 3, 1, 1000, "count",
	   "Consecutive timeouts that drop the window to min_cwnd")

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attributes of DCQCN: DCQCN_ATTR(name, kind, default, min, max, unit,
 * help), the spec page's ECNHandler attributes in snake_case plus the line
 * rate and the initial congestion estimate.  The single table behind the
 * module parameters, the net.dcqcn.* sysctls, the "dcqcn" netlink attribute
 * set and ccreplay --set; an X-macro list without include guard (define
 * DCQCN_ATTR, include, undefine).  unit is what fabctl and ccreplay --list
 * print after a value (empty for a bool).
 * Fractions are thousandths: initial_target_rate_percentage 900 is 0.90;
 * the one exception is episode_end_gap_ppm, in parts per million because
 * the page's 0.1 Gbit/s at 400 Gbit/s is 0.25 thousandths.
 *
 * The episode's end gap is one rule: episode_end_gap_ppm 0 (the default)
 * takes episode_end_gap_mbps, the page's 0.1 Gbit/s at every line rate;
 * any other value is that many ppm of line rate instead, and
 * episode_end_gap_mbps is not used.
 */
DCQCN_ATTR(enable_ecn, BOOL, 1, 0, 1, "",
	   "1: send ECT and let CNPs (echoed CE marks) drive the rate; 0: Not-ECT, line rate")
DCQCN_ATTR(data_rate_mbps, U32, 400000, 0, 3200000, "Mbit/s",
	   "Line rate in Mbit/s: outside episodes, and the floor's base; 0: the device's speed")
DCQCN_ATTR(control_interval_ns, U32, 45000, 1000, 1000000000, "ns",
	   "Control interval (ns): one reduction half and one increase half")
DCQCN_ATTR(congestion_probability_weight, U32, 500, 0, 1000, "thousandths",
	   "Weight of each interval's CNP/packet ratio in the estimate, thousandths")
DCQCN_ATTR(fast_recovery_attempt, U32, 3, 0, 65535, "count",
	   "Increases in fast recovery before additive increase")
DCQCN_ATTR(initial_target_rate_percentage, U32, 900, 0, 1000, "thousandths",
	   "Additive step = (1 - this) x episode's first target / steps, thousandths")
DCQCN_ATTR(number_active_increase_steps, U32, 10, 1, 65535, "count",
	   "Divisor of the additive step")
DCQCN_ATTR(num_of_control_loops_per_increase, U32, 5, 0, 65535, "count",
	   "While CNPs continue, increase on every (this + 1)-th increase half")
DCQCN_ATTR(minimum_rate_percentage, U32, 100, 0, 1000, "thousandths",
	   "Floor of the rate while congested, thousandths of data_rate_mbps")
DCQCN_ATTR(initial_alpha, U32, 1000, 0, 1000, "thousandths",
	   "Congestion estimate at the first episode, thousandths")
DCQCN_ATTR(episode_end_gap_mbps, U32, 100, 1, 3200000, "Mbit/s",
	   "Episode ends when an increase brings the rate within this of line rate, Mbit/s")
DCQCN_ATTR(episode_end_gap_ppm, U32, 0, 0, 1000000, "ppm",
	   "0: the gap is episode_end_gap_mbps; else ppm of line rate (250: 0.1 Gb/s at 400)")

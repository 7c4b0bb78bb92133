/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport's own attributes: one row each, MRT_ATTR(name, kind,
 * default, min, max, unit, help), an X-macro list as nscc_attrs.h is (no
 * include guard).  mrt.ko's attribute table is these rows followed by the
 * NSCC rows of include/net/fabric/nscc_attrs.h, so one name each reaches
 * the module parameter, the net.mrt.* sysctl and the "mrt" attribute set
 * of the fabric netlink family.  Defaults are the spec pages' where they
 * give one (sack_loss_min_retx_pkts, qp_groups_enabled,
 * use_distinct_dscp_for_retransmits); the rest are this transport's and
 * Documentation/networking/mrt.rst says why.
 *
 * kind LIMIT is a U32 that bounds what a namespace makes the kernel hold
 * (FABRIC_ATTR_F_LIMIT, include/net/fabric/attr.h): a namespace owned by
 * a user namespace other than the initial one cannot raise it above
 * init_net's value.  Mark every such row LIMIT, with larger values
 * meaning more memory.
 */
MRT_ATTR(udp_port, U32, 4794, 1, 65535, "",
	 "UDP destination port of every mrt packet; takes effect when the netns has no mrt socket")
MRT_ATTR(mss, U32, 1400, 64, 8900, "bytes",
	 "Payload bytes per data packet (the packet adds 32 + 8 + 20 or 40 header bytes)")
MRT_ATTR(max_msg_bytes, LIMIT, 16777216, 0, 1073741824, "bytes",
	 "Largest message sendmsg() takes (also bounded by SO_SNDBUF); EMSGSIZE above")
MRT_ATTR(max_psn_range, LIMIT, 1024, 64, 16384, "packets",
	 "PSN window of a PDC (the spec's MaxPSNRange): a power of two from 64 to 16384")
MRT_ATTR(sack_loss_min_retx_pkts, U32, 512, 1, 16384, "packets",
	 "A packet is presumed lost once a SACK reports a PSN more than this above it")
MRT_ATTR(rack_enabled, BOOL, 1, 0, 1, "",
	 "1: SACK losses need a later packet on its EV or the gap, and time (RACK); 0: gap alone")
MRT_ATTR(rack_reo_wnd, U32, 250, 0, 100000, "thousandths",
	 "RACK's reordering window step, thousandths of the least RTT; grows on false presumptions")
MRT_ATTR(rto_min_us, U32, 10000, 10, 10000000, "us",
	 "Smallest retransmission timeout (us)")
MRT_ATTR(rto_max_us, U32, 1000000, 10, 60000000, "us",
	 "Largest retransmission timeout (us), after the per-packet backoff too")
MRT_ATTR(retry_budget, U32, 8, 1, 100, "timeouts",
	 "Timer expiries of one packet before its message fails with ETIMEDOUT")
MRT_ATTR(tx_batch_max_pkts, U32, 8, 1, 16, "packets",
	 "Most new packets per batch on one EV (one UDP GSO skb); 1: every packet alone")
MRT_ATTR(ack_every_pkts, U32, 1, 1, 64, "packets",
	 "Receiver: ACK every this many data packets; at once on CE, RETX, AR, duplicates, EOM")
MRT_ATTR(qp_groups_enabled, BOOL, 1, 0, 1, "",
	 "1: one NSCC window per destination address, shared by its PDCs; 0: one per PDC")
MRT_ATTR(data_dscp, U32, 0, 0, 63, "",
	 "DSCP of data without trimming, and of ACKs, NACKs and probes")
MRT_ATTR(trimmable_dscp, U32, 10, 0, 63, "",
	 "DSCP of data marked trimmable (trimming_enabled 1), which a switch may trim")
MRT_ATTR(trim_dscp, U32, 0, 0, 63, "",
	 "DSCP a switch writes into a packet it trims (NACKed TRIMMED); 0: short payloads only")
MRT_ATTR(trim_lasthop_dscp, U32, 0, 0, 63, "",
	 "DSCP a last-hop switch writes into a packet it trims (NACKed TRIMMED_LASTHOP); 0: none")
MRT_ATTR(use_distinct_dscp_for_retransmits, BOOL, 1, 0, 1, "",
	 "1: retransmissions carry retransmit_dscp and are marked trimmable, trimming or not")
MRT_ATTR(retransmit_dscp, U32, 10, 0, 63, "",
	 "DSCP of retransmissions when use_distinct_dscp_for_retransmits is 1")
MRT_ATTR(max_pdcs, LIMIT, 4096, 1, 1048576, "PDCs",
	 "Most sending PDCs in the netns; sendmsg() to a new peer beyond it fails with ENOBUFS")
MRT_ATTR(max_rx_pdcs, LIMIT, 4096, 1, 1048576, "PDCs",
	 "Most receiving PDCs in the netns; a SYN beyond it is NACKed NO_RESOURCE")
MRT_ATTR(max_rx_pdcs_per_addr, LIMIT, 1024, 1, 1048576, "PDCs",
	 "Most receiving PDCs from one source address; a SYN beyond it is NACKed NO_RESOURCE")
MRT_ATTR(max_pdcs_per_sock, LIMIT, 4096, 1, 1048576, "PDCs",
	 "Most sending, and most receiving, PDCs of one socket; ENOBUFS, NO_RESOURCE beyond")
MRT_ATTR(max_partial_msgs, LIMIT, 256, 1, 16384, "messages",
	 "Most messages a receiving PDC reassembles at once; one more is NACKed NO_RESOURCE")
MRT_ATTR(partial_msg_timeout_ms, LIMIT, 4000, 100, 3600000, "ms",
	 "A message being received that gets no packet for this long resets its PDC")
MRT_ATTR(cookie_answers_per_s, LIMIT, 1000, 1, 1000000, "answers/s",
	 "Most SYN cookies (answers to SYNs without one) sent a second to one /24 or /64")
MRT_ATTR(pdc_idle_ms, LIMIT, 5000, 10, 3600000, "ms",
	 "An idle sending PDC is freed after this (ms); a receiving one after twice it")
MRT_ATTR(ev_base, U32, 49152, 1, 65535, "",
	 "First UDP source port (EV) of a destination's EV set; with ev_count at most 65536")
MRT_ATTR(ev_count, U32, 32, 1, 256, "",
	 "EVs of a destination: ev_base .. ev_base + ev_count - 1, one picked for each packet")
MRT_ATTR(ev_policy, EV_POLICY, 0, 0, 1, "",
	 "How each packet's EV is picked: rr (permuted round robin), reps (clean EVs first)")
MRT_ATTR(ev_bad_losses, U32, 4, 0, 255, "losses",
	 "Losses in a row that make an EV ASSUMED_BAD (so does an RTO showing loss); 0: never")
MRT_ATTR(trigger_logging_on_rtt_enable, BOOL, 0, 0, 1, "",
	 "1: a PDC's packets are logged (mrt:mrt_rtt_log) once an RTT on it reaches the threshold")
MRT_ATTR(trigger_logging_on_rtt_threshold_ns, U32, 100000, 0, 1000000000, "ns",
	 "RTT (ns) at which trigger_logging_on_rtt_enable starts logging a PDC's packets")
MRT_ATTR(trigger_logging_on_cwind_pen_enable, BOOL, 0, 0, 1, "",
	 "1: a PDC's packets are logged (mrt:mrt_rtt_log) once a receiver penalty reaches it")
MRT_ATTR(trigger_logging_on_cwind_pen_threshold, U32, 1, 0, 127, "penalty",
	 "Receiver penalty (0..127) at which trigger_logging_on_cwind_pen_enable starts logging")

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_nscc private interfaces: its per-netns counters (in
 * /proc/net/nscc_stat and the fabric netlink family).
 */
#ifndef _TCP_NSCC_H
#define _TCP_NSCC_H

#include <net/fabric/module.h>
#include <net/fabric/nscc.h>

/* A path whose min RTT is this many times config_base_rtt_ns or more
 * does not fit the attributes (base_rtt_misfits, the tracepoint).
 */
#define TCP_NSCC_MISFIT_RATIO	10

/* Per-netns counters, shown in /proc/net/nscc_stat. */
enum tcp_nscc_stat {
	TCP_NSCC_STAT_SOCKETS,		/* sockets that started nscc */
	TCP_NSCC_STAT_ALLOC_FAIL,	/* ran as Reno: no memory for state */
	TCP_NSCC_STAT_ACKS,
	TCP_NSCC_STAT_RTT_SAMPLES,
	TCP_NSCC_STAT_ECN_ACKS,		/* ACKs whose delivered_ce grew */
	TCP_NSCC_STAT_LOST_PKTS,	/* packets presumed lost on ACKs */
	TCP_NSCC_STAT_RTO,		/* retransmission timeouts */
	TCP_NSCC_STAT_CE_RECEIVED,	/* receiver: CE-marked runs echoed */
	TCP_NSCC_STAT_MD_CUTS,
	TCP_NSCC_STAT_QA_FIRED,
	TCP_NSCC_STAT_NOMINAL_CHANGES,	/* the nominal packet followed the MSS */
	TCP_NSCC_STAT_ECN_ON,		/* connections running with ECN (uet) */
	TCP_NSCC_STAT_ECN_NOT_NEGOTIATED, /* uet, but the handshake had no ECN */
	TCP_NSCC_STAT_ECN_KEPT,		/* mrc, but negotiated: marks are losses */
	TCP_NSCC_STAT_CE_LOSSES,	/* mrc: marks taken as losses (per window) */
	TCP_NSCC_STAT_BASE_RTT_MISFITS,	/* sockets: min RTT >= 10 x config base */
	TCP_NSCC_STAT_LINK_FALLBACKS,	/* data_rate_mbps 0, no device speed */
	TCP_NSCC_STAT_BASE_LEARNT,	/* config_base_rtt_ns 0: samples taken */
	TCP_NSCC_STAT_ROUTINE,		/* + enum nscc_routine */
	TCP_NSCC_STAT_COUNT = TCP_NSCC_STAT_ROUTINE + NSCC_R_COUNT
};

#endif /* _TCP_NSCC_H */

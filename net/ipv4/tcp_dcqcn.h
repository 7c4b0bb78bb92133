/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_dcqcn private interfaces: its per-netns counters (in
 * /proc/net/dcqcn_stat and the fabric netlink family).
 */
#ifndef _TCP_DCQCN_H
#define _TCP_DCQCN_H

#include <net/fabric/dcqcn.h>
#include <net/fabric/module.h>

/* Per-netns counters, shown in /proc/net/dcqcn_stat. */
enum tcp_dcqcn_stat {
	TCP_DCQCN_STAT_SOCKETS,
	TCP_DCQCN_STAT_CNPS,		/* sender: CE-marked packets echoed back */
	TCP_DCQCN_STAT_CE_ECHOED,	/* receiver: CE-marked packets received */
	TCP_DCQCN_STAT_EPISODES_STARTED,
	TCP_DCQCN_STAT_EPISODES_ENDED,
	TCP_DCQCN_STAT_CATCHUP_LIMIT,	/* episodes ended by a long silence */
	TCP_DCQCN_STAT_ECN_ON,		/* connections running with ECN */
	TCP_DCQCN_STAT_ECN_NOT_NEGOTIATED, /* enable_ecn, the handshake had none */
	TCP_DCQCN_STAT_ECN_KEPT,	/* enable_ecn 0, but negotiated: honoured */
	TCP_DCQCN_STAT_LINK_FALLBACKS,	/* data_rate_mbps 0, no device speed */
	TCP_DCQCN_STAT_PHASE,		/* + enum dcqcn_phase: runs by phase */
	TCP_DCQCN_STAT_COUNT = TCP_DCQCN_STAT_PHASE + DCQCN_RUN_COUNT
};

#endif /* _TCP_DCQCN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_dcqcn private interfaces: the per-netns state of tcp_dcqcn_net.c
 * (attributes, sysctls, counters), used by the congestion ops in
 * tcp_dcqcn.c.
 */
#ifndef _TCP_DCQCN_H
#define _TCP_DCQCN_H

#include <net/fabric/dcqcn.h>
#include <net/fabric/pernet.h>

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

struct fabric_net *tcp_dcqcn_pernet(const struct net *net);
/* A module parameter: the global default of attribute id. */
u32 tcp_dcqcn_default(unsigned int id);
/* tcp_dcqcn.c: a module parameter was written (or given at load). */
void tcp_dcqcn_default_changed(unsigned int id);

int tcp_dcqcn_net_init_module(void);
void tcp_dcqcn_net_exit_module(void);

#endif /* _TCP_DCQCN_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_nscc per network namespace: attribute values (net.nscc.* sysctls),
 * module parameters as the defaults a new namespace starts from, and the
 * counters in /proc/net/nscc_stat (net/core/fabric_net.c does the work).
 *
 * The attributes are those of include/net/fabric/nscc_attrs.h, the single table
 * that also gives ccreplay its --set keys.  A socket copies its namespace's
 * values when nscc starts on it, so a sysctl write affects sockets started
 * afterwards.
 */
#include <linux/module.h>
#include <net/netns/generic.h>

#include "tcp_nscc.h"

static unsigned int tcp_nscc_net_id __read_mostly;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_nscc_defaults[NSCC_ATTR_COUNT] = {
#define NSCC_ATTR(name, kind, def, lo, hi, help) \
	[NSCC_ATTR_##name] = (def),
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
};

static const struct fabric_attr_set tcp_nscc_attrs = {
	.sysctl_path = "net/nscc",
	.desc = nscc_attr_descs,
	.count = NSCC_ATTR_COUNT,
	.defaults = tcp_nscc_defaults,
	.default_changed = tcp_nscc_default_changed,
};

u32 tcp_nscc_default(unsigned int id)
{
	return READ_ONCE(tcp_nscc_defaults[id]);
}

/* One module parameter per attribute, same name as the sysctl. */
#define NSCC_ATTR(name, kind, def, lo, hi, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_nscc_attrs, name, NSCC_ATTR_##name, help)
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR

static const char * const tcp_nscc_stat_names[TCP_NSCC_STAT_ROUTINE] = {
	[TCP_NSCC_STAT_SOCKETS]		= "sockets",
	[TCP_NSCC_STAT_ALLOC_FAIL]	= "alloc_failures",
	[TCP_NSCC_STAT_ACKS]		= "acks",
	[TCP_NSCC_STAT_RTT_SAMPLES]	= "rtt_samples",
	[TCP_NSCC_STAT_ECN_ACKS]	= "ecn_acks",
	[TCP_NSCC_STAT_LOST_PKTS]	= "lost_packets",
	[TCP_NSCC_STAT_RTO]		= "rto",
	[TCP_NSCC_STAT_CE_RECEIVED]	= "ce_received",
	[TCP_NSCC_STAT_MD_CUTS]		= "md_cuts",
	[TCP_NSCC_STAT_QA_FIRED]	= "qa_fired",
	[TCP_NSCC_STAT_NOMINAL_CHANGES]	= "nominal_changes",
	[TCP_NSCC_STAT_ECN_ON]		= "ecn_on",
	[TCP_NSCC_STAT_ECN_NOT_NEGOTIATED] = "ecn_not_negotiated",
	[TCP_NSCC_STAT_ECN_KEPT]	= "ecn_kept",
	[TCP_NSCC_STAT_CE_LOSSES]	= "ce_losses",
	[TCP_NSCC_STAT_BASE_RTT_MISFITS] = "base_rtt_misfits",
	[TCP_NSCC_STAT_LINK_FALLBACKS]	= "link_speed_fallbacks",
	[TCP_NSCC_STAT_BASE_LEARNT]	= "base_rtt_learnt",
};

struct fabric_net *tcp_nscc_pernet(const struct net *net)
{
	return net_generic(net, tcp_nscc_net_id);
}

/* One "name value" line per counter, then one per routine. */
static int tcp_nscc_stat_show(struct seq_file *seq, void *v)
{
	struct fabric_net *fn = tcp_nscc_pernet(seq_file_single_net(seq));
	unsigned int i;

	for (i = 0; i < TCP_NSCC_STAT_ROUTINE; i++)
		seq_printf(seq, "%s %llu\n", tcp_nscc_stat_names[i],
			   fabric_net_stat_sum(fn, i));
	for (i = 0; i < NSCC_R_COUNT; i++)
		seq_printf(seq, "routine_%s %llu\n", nscc_routine_names[i],
			   fabric_net_stat_sum(fn, TCP_NSCC_STAT_ROUTINE + i));
	return 0;
}

static const struct fabric_net_desc tcp_nscc_net_desc = {
	.attrs = &tcp_nscc_attrs,
	.proc_name = "nscc_stat",
	.nstats = TCP_NSCC_STAT_COUNT,
	.show = tcp_nscc_stat_show,
};

static int __net_init tcp_nscc_net_init(struct net *net)
{
	return fabric_net_init(net, tcp_nscc_pernet(net), &tcp_nscc_net_desc);
}

static void __net_exit tcp_nscc_net_exit(struct net *net)
{
	fabric_net_exit(net, tcp_nscc_pernet(net));
}

static struct pernet_operations tcp_nscc_net_ops = {
	.init = tcp_nscc_net_init,
	.exit = tcp_nscc_net_exit,
	.id = &tcp_nscc_net_id,
	.size = FABRIC_NET_SIZE(NSCC_ATTR_COUNT),
};

int tcp_nscc_net_init_module(void)
{
	return register_pernet_subsys(&tcp_nscc_net_ops);
}

void tcp_nscc_net_exit_module(void)
{
	unregister_pernet_subsys(&tcp_nscc_net_ops);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_dcqcn per network namespace: attribute values (net.dcqcn.* sysctls),
 * module parameters as the defaults a new namespace starts from, and the
 * counters in /proc/net/dcqcn_stat (net/core/fabric_net.c does the work).
 *
 * The attributes are those of include/net/fabric/dcqcn_attrs.h, the single table
 * that also gives ccreplay its --set keys.  A socket copies its namespace's
 * values when dcqcn starts on it, so a sysctl write affects sockets started
 * afterwards.  The same layout as tcp_nscc_net.c.
 */
#include <linux/module.h>
#include <net/netns/generic.h>

#include "tcp_dcqcn.h"

static unsigned int tcp_dcqcn_net_id __read_mostly;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_dcqcn_defaults[DCQCN_ATTR_COUNT] = {
#define DCQCN_ATTR(name, kind, def, lo, hi, help) \
	[DCQCN_ATTR_##name] = (def),
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR
};

static const struct fabric_attr_set tcp_dcqcn_attrs = {
	.sysctl_path = "net/dcqcn",
	.desc = dcqcn_attr_descs,
	.count = DCQCN_ATTR_COUNT,
	.defaults = tcp_dcqcn_defaults,
	.default_changed = tcp_dcqcn_default_changed,
};

u32 tcp_dcqcn_default(unsigned int id)
{
	return READ_ONCE(tcp_dcqcn_defaults[id]);
}

/* One module parameter per attribute, same name as the sysctl. */
#define DCQCN_ATTR(name, kind, def, lo, hi, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_dcqcn_attrs, name, DCQCN_ATTR_##name, help)
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR

static const char * const tcp_dcqcn_stat_names[TCP_DCQCN_STAT_PHASE] = {
	[TCP_DCQCN_STAT_SOCKETS]		= "sockets",
	[TCP_DCQCN_STAT_CNPS]			= "cnps",
	[TCP_DCQCN_STAT_CE_ECHOED]		= "ce_echoed",
	[TCP_DCQCN_STAT_EPISODES_STARTED]	= "episodes_started",
	[TCP_DCQCN_STAT_EPISODES_ENDED]		= "episodes_ended",
	[TCP_DCQCN_STAT_CATCHUP_LIMIT]		= "catchup_limit",
	[TCP_DCQCN_STAT_ECN_ON]			= "ecn_on",
	[TCP_DCQCN_STAT_ECN_NOT_NEGOTIATED]	= "ecn_not_negotiated",
	[TCP_DCQCN_STAT_ECN_KEPT]		= "ecn_kept",
	[TCP_DCQCN_STAT_LINK_FALLBACKS]	= "link_speed_fallbacks",
};

struct fabric_net *tcp_dcqcn_pernet(const struct net *net)
{
	return net_generic(net, tcp_dcqcn_net_id);
}

/* One "name value" line per counter, then one per phase of the loop. */
static int tcp_dcqcn_stat_show(struct seq_file *seq, void *v)
{
	struct fabric_net *fn = tcp_dcqcn_pernet(seq_file_single_net(seq));
	unsigned int i;

	for (i = 0; i < TCP_DCQCN_STAT_PHASE; i++)
		seq_printf(seq, "%s %llu\n", tcp_dcqcn_stat_names[i],
			   fabric_net_stat_sum(fn, i));
	for (i = 0; i < DCQCN_RUN_COUNT; i++)
		seq_printf(seq, "phase_%s %llu\n", dcqcn_phase_names[i],
			   fabric_net_stat_sum(fn, TCP_DCQCN_STAT_PHASE + i));
	return 0;
}

static const struct fabric_net_desc tcp_dcqcn_net_desc = {
	.attrs = &tcp_dcqcn_attrs,
	.proc_name = "dcqcn_stat",
	.nstats = TCP_DCQCN_STAT_COUNT,
	.show = tcp_dcqcn_stat_show,
};

static int __net_init tcp_dcqcn_net_init(struct net *net)
{
	return fabric_net_init(net, tcp_dcqcn_pernet(net), &tcp_dcqcn_net_desc);
}

static void __net_exit tcp_dcqcn_net_exit(struct net *net)
{
	fabric_net_exit(net, tcp_dcqcn_pernet(net));
}

static struct pernet_operations tcp_dcqcn_net_ops = {
	.init = tcp_dcqcn_net_init,
	.exit = tcp_dcqcn_net_exit,
	.id = &tcp_dcqcn_net_id,
	.size = FABRIC_NET_SIZE(DCQCN_ATTR_COUNT),
};

int tcp_dcqcn_net_init_module(void)
{
	return register_pernet_subsys(&tcp_dcqcn_net_ops);
}

void tcp_dcqcn_net_exit_module(void)
{
	unregister_pernet_subsys(&tcp_dcqcn_net_ops);
}

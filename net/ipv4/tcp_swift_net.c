// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_swift per network namespace: attribute values (net.swift.* sysctls),
 * module parameters as the defaults a new namespace starts from, and the
 * counters in /proc/net/swift_stat (net/core/fabric_net.c does the work).
 *
 * The attributes are those of include/net/fabric/swift_attrs.h, the single table
 * that also gives ccreplay its --set keys.  A socket copies its namespace's
 * values when swift starts on it, so a sysctl write affects sockets started
 * afterwards.  The same layout as tcp_nscc_net.c and tcp_dcqcn_net.c.
 */
#include <linux/module.h>
#include <net/netns/generic.h>

#include "tcp_swift.h"

static unsigned int tcp_swift_net_id __read_mostly;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_swift_defaults[SWIFT_ATTR_COUNT] = {
#define SWIFT_ATTR(name, kind, def, lo, hi, help) \
	[SWIFT_ATTR_##name] = (def),
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR
};

static const struct fabric_attr_set tcp_swift_attrs = {
	.sysctl_path = "net/swift",
	.desc = swift_attr_descs,
	.count = SWIFT_ATTR_COUNT,
	.defaults = tcp_swift_defaults,
};

/* One module parameter per attribute, same name as the sysctl. */
#define SWIFT_ATTR(name, kind, def, lo, hi, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_swift_attrs, name, SWIFT_ATTR_##name, help)
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR

static const char * const tcp_swift_stat_names[TCP_SWIFT_STAT_DECISION] = {
	[TCP_SWIFT_STAT_SOCKETS]	= "sockets",
	[TCP_SWIFT_STAT_DECREASES]	= "decreases",
	[TCP_SWIFT_STAT_TIMEOUTS]	= "timeouts",
	[TCP_SWIFT_STAT_PACED_ENTRIES]	= "paced_entries",
	[TCP_SWIFT_STAT_PACED_ACKS]	= "paced_acks",
	[TCP_SWIFT_STAT_BASE_LEARNT]	= "base_rtt_learnt",
};

struct fabric_net *tcp_swift_pernet(const struct net *net)
{
	return net_generic(net, tcp_swift_net_id);
}

/* One "name value" line per counter, then one per decision. */
static int tcp_swift_stat_show(struct seq_file *seq, void *v)
{
	struct fabric_net *fn = tcp_swift_pernet(seq_file_single_net(seq));
	unsigned int i;

	for (i = 0; i < TCP_SWIFT_STAT_DECISION; i++)
		seq_printf(seq, "%s %llu\n", tcp_swift_stat_names[i],
			   fabric_net_stat_sum(fn, i));
	for (i = 0; i < SWIFT_DECISION_COUNT; i++)
		seq_printf(seq, "decision_%s %llu\n", swift_decision_names[i],
			   fabric_net_stat_sum(fn, TCP_SWIFT_STAT_DECISION + i));
	return 0;
}

static const struct fabric_net_desc tcp_swift_net_desc = {
	.attrs = &tcp_swift_attrs,
	.proc_name = "swift_stat",
	.nstats = TCP_SWIFT_STAT_COUNT,
	.show = tcp_swift_stat_show,
};

static int __net_init tcp_swift_net_init(struct net *net)
{
	return fabric_net_init(net, tcp_swift_pernet(net), &tcp_swift_net_desc);
}

static void __net_exit tcp_swift_net_exit(struct net *net)
{
	fabric_net_exit(net, tcp_swift_pernet(net));
}

static struct pernet_operations tcp_swift_net_ops = {
	.init = tcp_swift_net_init,
	.exit = tcp_swift_net_exit,
	.id = &tcp_swift_net_id,
	.size = FABRIC_NET_SIZE(SWIFT_ATTR_COUNT),
};

int tcp_swift_net_init_module(void)
{
	return register_pernet_subsys(&tcp_swift_net_ops);
}

void tcp_swift_net_exit_module(void)
{
	unregister_pernet_subsys(&tcp_swift_net_ops);
}

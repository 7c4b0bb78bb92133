// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_nscc per network namespace: attribute values (net.nscc.* sysctls),
 * module parameters as the defaults a new namespace starts from, and the
 * counters in /proc/net/nscc_stat.
 *
 * The attributes are those of include/net/nscc_attrs.h, the single table
 * that also gives ccreplay its --set keys.  A socket copies its namespace's
 * values when nscc starts on it (tcp_nscc_params()), so a sysctl write
 * affects sockets started afterwards.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/netns/generic.h>

#include "tcp_nscc.h"

static unsigned int tcp_nscc_net_id __read_mostly;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_nscc_defaults[NSCC_ATTR_COUNT] = {
#define NSCC_ATTR(name, kind, def, lo, hi, help) \
	[NSCC_ATTR_##name] = (def),
#include <net/nscc_attrs.h>
#undef NSCC_ATTR
};

static const struct fabric_attr_set tcp_nscc_attrs = {
	.sysctl_path = "net/nscc",
	.desc = nscc_attr_descs,
	.count = NSCC_ATTR_COUNT,
	.defaults = tcp_nscc_defaults,
};

/* One module parameter per attribute, same name as the sysctl. */
#define NSCC_ATTR(name, kind, def, lo, hi, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_nscc_attrs, name, NSCC_ATTR_##name, help)
#include <net/nscc_attrs.h>
#undef NSCC_ATTR

static const char * const tcp_nscc_stat_names[TCP_NSCC_STAT_COUNT] = {
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
};

struct tcp_nscc_net *tcp_nscc_pernet(const struct net *net)
{
	return net_generic(net, tcp_nscc_net_id);
}

void tcp_nscc_params(const struct net *net, struct nscc_params *p)
{
	fabric_attr_snapshot(&tcp_nscc_attrs, tcp_nscc_pernet(net)->attr, p->v);
}

static int tcp_nscc_stat_show(struct seq_file *seq, void *v)
{
	struct tcp_nscc_net *tn = tcp_nscc_pernet(seq_file_single_net(seq));
	unsigned int i;
	int cpu;

	for (i = 0; i < TCP_NSCC_STAT_COUNT; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(tn->stats, cpu)->v[i];
		if (i >= TCP_NSCC_STAT_ROUTINE &&
		    i < TCP_NSCC_STAT_ROUTINE + NSCC_R_COUNT)
			seq_printf(seq, "routine_%s %llu\n",
				   nscc_routine_names[i - TCP_NSCC_STAT_ROUTINE],
				   sum);
		else
			seq_printf(seq, "%s %llu\n", tcp_nscc_stat_names[i], sum);
	}
	return 0;
}

static int __net_init tcp_nscc_net_init(struct net *net)
{
	struct tcp_nscc_net *tn = tcp_nscc_pernet(net);

	fabric_attr_snapshot(&tcp_nscc_attrs, tcp_nscc_defaults, tn->attr);

	tn->stats = alloc_percpu(struct tcp_nscc_stats);
	if (!tn->stats)
		goto err_stats;

	tn->sysctl = fabric_attr_sysctl_register(net, &tcp_nscc_attrs, tn->attr);
	if (!tn->sysctl)
		goto err_sysctl;

	if (!proc_create_net_single("nscc_stat", 0444, net->proc_net,
				    tcp_nscc_stat_show, NULL))
		goto err_proc;
	return 0;

err_proc:
	fabric_attr_sysctl_unregister(tn->sysctl);
err_sysctl:
	free_percpu(tn->stats);
err_stats:
	return -ENOMEM;
}

static void __net_exit tcp_nscc_net_exit(struct net *net)
{
	struct tcp_nscc_net *tn = tcp_nscc_pernet(net);

	remove_proc_entry("nscc_stat", net->proc_net);
	fabric_attr_sysctl_unregister(tn->sysctl);
	free_percpu(tn->stats);
}

static struct pernet_operations tcp_nscc_net_ops = {
	.init = tcp_nscc_net_init,
	.exit = tcp_nscc_net_exit,
	.id = &tcp_nscc_net_id,
	.size = sizeof(struct tcp_nscc_net),
};

int tcp_nscc_net_init_module(void)
{
	return register_pernet_subsys(&tcp_nscc_net_ops);
}

void tcp_nscc_net_exit_module(void)
{
	unregister_pernet_subsys(&tcp_nscc_net_ops);
}

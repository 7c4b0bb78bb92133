// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns lifecycle of a fabric congestion-control module
 * (include/net/fabric/pernet.h): a new namespace copies the module
 * parameters, registers its sysctls and its /proc/net counters file; exit
 * unwinds in reverse.  Like fabric_attr.c, each module links its own copy.
 */
#include <linux/proc_fs.h>

#include <net/fabric/pernet.h>

int fabric_net_init(struct net *net, struct fabric_net *fn,
		    const struct fabric_net_desc *desc)
{
	const struct fabric_attr_set *attrs = desc->attrs;

	fn->desc = desc;
	fabric_attr_snapshot(attrs, attrs->defaults, fn->attr);

	fn->stats = __alloc_percpu(desc->nstats * sizeof(u64), sizeof(u64));
	if (!fn->stats)
		goto err_stats;

	fn->sysctl = fabric_attr_sysctl_register(net, attrs, fn->attr);
	if (!fn->sysctl)
		goto err_sysctl;

	if (!proc_create_net_single(desc->proc_name, 0444, net->proc_net,
				    desc->show, NULL))
		goto err_proc;
	return 0;

err_proc:
	fabric_attr_sysctl_unregister(fn->sysctl);
err_sysctl:
	free_percpu(fn->stats);
err_stats:
	return -ENOMEM;
}

void fabric_net_exit(struct net *net, struct fabric_net *fn)
{
	remove_proc_entry(fn->desc->proc_name, net->proc_net);
	fabric_attr_sysctl_unregister(fn->sysctl);
	free_percpu(fn->stats);
}

u64 fabric_net_stat_sum(const struct fabric_net *fn, unsigned int i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(fn->stats, cpu)[i];
	return sum;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns state of each registered module (struct fabric_net): a new
 * namespace copies the module parameters (its limits at most init_net's
 * if a user namespace other than the initial one owns it), then gets its
 * counters, its sysctls and its /proc/net/<name>_stat file; exit unwinds
 * in reverse.
 * One pernet_operations per module, in its descriptor, so that the
 * state's size follows the module's attribute count and the state goes
 * with the module.  Its two callbacks are the module's own, made by
 * FABRIC_MODULE_PERNET(): pernet callbacks get the netns only, and these
 * pass the module on.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "fabric.h"

u64 fabric_net_stat_sum(const struct fabric_net *fn, unsigned int i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(fn->stats, cpu)[i];
	return sum;
}
EXPORT_SYMBOL_GPL(fabric_net_stat_sum);

u64 fabric_net_stat_value(const struct fabric_net *fn,
			  const struct fabric_stat_group *sg, unsigned int i,
			  unsigned int k)
{
	return sg->read ? sg->read(fn, i) : fabric_net_stat_sum(fn, k);
}
EXPORT_SYMBOL_GPL(fabric_net_stat_value);

/* One "name value" line per counter of fn. */
void fabric_net_stat_show(struct seq_file *seq, const struct fabric_net *fn)
{
	const struct fabric_module *mod = fn->mod;
	unsigned int g, i, k = 0;

	for (g = 0; g < mod->nstat_groups; g++) {
		const struct fabric_stat_group *sg = &mod->stats[g];

		for (i = 0; i < sg->count; i++, k++)
			seq_printf(seq, "%s%s %llu\n", sg->prefix, sg->names[i],
				   fabric_net_stat_value(fn, sg, i, k));
	}
}
EXPORT_SYMBOL_GPL(fabric_net_stat_show);

/* /proc/net/<name>_stat.  The proc entry's data is the module
 * (seq->private is the netns).
 */
static int fabric_stat_show(struct seq_file *seq, void *v)
{
	const struct fabric_module *mod = pde_data(file_inode(seq->file));

	fabric_net_stat_show(seq, fabric_net(mod, seq_file_single_net(seq)));
	return 0;
}

int fabric_net_init(struct net *net, struct fabric_module *mod)
{
	struct fabric_net *fn = fabric_net(mod, net);
	int err = -ENOMEM;
	unsigned int i;

	fn->mod = mod;
	fn->net = net;
	mutex_init(&fn->lock);
	seqlock_init(&fn->seq);
	/* One whole set of module parameters, none half written. */
	kernel_param_lock(mod->owner);
	for (i = 0; i < mod->nattrs; i++)
		fn->attr[i] = fabric_module_default(mod, i);
	kernel_param_unlock(mod->owner);
	fabric_net_limit_start(fn);

	fn->stats = __alloc_percpu(mod->nstats * sizeof(u64), sizeof(u64));
	if (!fn->stats)
		goto err_stats;
	err = fabric_sysctl_register(fn);
	if (err)
		goto err_sysctl;
	err = -ENOMEM;
	if (!proc_create_net_single(mod->proc_name, 0444, net->proc_net,
				    fabric_stat_show, mod))
		goto err_proc;
	return 0;

err_proc:
	fabric_sysctl_unregister(fn);
err_sysctl:
	free_percpu(fn->stats);
err_stats:
	return err;
}
EXPORT_SYMBOL_GPL(fabric_net_init);

void fabric_net_exit(struct net *net, struct fabric_module *mod)
{
	struct fabric_net *fn = fabric_net(mod, net);

	remove_proc_entry(mod->proc_name, net->proc_net);
	fabric_sysctl_unregister(fn);
	free_percpu(fn->stats);
	mutex_destroy(&fn->lock);
}
EXPORT_SYMBOL_GPL(fabric_net_exit);

int fabric_pernet_register(struct fabric_module *mod)
{
	mod->pernet.id = &mod->net_id;
	mod->pernet.size = struct_size((struct fabric_net *)NULL, attr,
				       mod->nattrs);
	return register_pernet_subsys(&mod->pernet);
}

void fabric_pernet_unregister(struct fabric_module *mod)
{
	unregister_pernet_subsys(&mod->pernet);
}

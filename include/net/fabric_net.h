/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-network-namespace state of a fabric congestion-control module: its
 * attribute values (the sysctls under desc->attrs->sysctl_path, starting
 * from the module parameters), and per-cpu counters shown in
 * /proc/net/<desc->proc_name> by the module's own show function.
 *
 * A module embeds struct fabric_net in its pernet_operations data (size
 * FABRIC_NET_SIZE(number of attributes)) and calls fabric_net_init() and
 * fabric_net_exit() from its pernet init and exit.
 */
#ifndef _NET_FABRIC_NET_H
#define _NET_FABRIC_NET_H

#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <net/fabric_attr.h>
#include <net/net_namespace.h>

struct fabric_net_desc {
	const struct fabric_attr_set *attrs;
	const char *proc_name;			/* under /proc/net */
	unsigned int nstats;
	int (*show)(struct seq_file *seq, void *v);	/* the counters */
};

struct fabric_net {
	const struct fabric_net_desc *desc;
	struct ctl_table_header *sysctl;
	u64 __percpu *stats;			/* [desc->nstats] */
	u32 attr[];				/* [desc->attrs->count] */
};

#define FABRIC_NET_SIZE(nattrs)	\
	(sizeof(struct fabric_net) + (nattrs) * sizeof(u32))

int fabric_net_init(struct net *net, struct fabric_net *fn,
		    const struct fabric_net_desc *desc);
void fabric_net_exit(struct net *net, struct fabric_net *fn);
u64 fabric_net_stat_sum(const struct fabric_net *fn, unsigned int i);

static inline void fabric_net_stat_add(struct fabric_net *fn, unsigned int i,
				       u64 v)
{
	this_cpu_add(fn->stats[i], v);
}

/* The attributes a socket starts with: this netns's values, each read once. */
static inline void fabric_net_params(const struct fabric_net *fn, u32 *out)
{
	fabric_attr_snapshot(fn->desc->attrs, fn->attr, out);
}

#endif /* _NET_FABRIC_NET_H */

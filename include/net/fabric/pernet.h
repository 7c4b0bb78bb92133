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
#ifndef _NET_FABRIC_PERNET_H
#define _NET_FABRIC_PERNET_H

#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <net/fabric/attr.h>
#include <net/net_namespace.h>

struct net;
struct ctl_table;
struct ctl_table_header;

/*
 * One module's attributes on the kernel side: the descriptors and the
 * module parameter values (global defaults for new network namespaces).
 */
struct fabric_attr_set {
	const char *sysctl_path;		/* "net/nscc" */
	const struct fabric_attr_desc *desc;
	unsigned int count;
	u32 *defaults;				/* module parameters */
	/* Optional: a module parameter (a default) was written.  Called
	 * also while the module loads, before its init runs.
	 */
	void (*default_changed)(unsigned int id);
};

/* kernel_param.arg of one attribute's module parameter. */
struct fabric_attr_param {
	const struct fabric_attr_set *set;
	unsigned int id;
};

extern const struct kernel_param_ops fabric_attr_param_ops;

/*
 * Declares attribute _id of set _set as module parameter _name, with the
 * descriptor's help text (MODULE_PARM_DESC spelled out, so that _name is
 * pasted or stringified rather than repeated).  It ends in a function
 * definition, which takes no semicolon, so each row of an X-macro list
 * expands to a complete group of declarations.
 */
#define FABRIC_ATTR_MODULE_PARAM(_set, _name, _id, _help)		\
	static const struct fabric_attr_param __fabric_param_##_name = {	\
		.set = &(_set), .id = (_id),				\
	};								\
	module_param_cb(_name, &fabric_attr_param_ops,			\
			(void *)&__fabric_param_##_name, 0644);		\
	__MODULE_INFO(parm, __fabric_parm_##_name, #_name ":" _help);	\
	static inline void __fabric_param_end_##_name(void) { }

/* Per-netns sysctls under set->sysctl_path, backed by values[]. */
struct ctl_table_header *fabric_attr_sysctl_register(struct net *net,
						     const struct fabric_attr_set *set,
						     u32 *values);
void fabric_attr_sysctl_unregister(struct ctl_table_header *hdr);

/* A copy of values[], each read once (as sockets take them at start). */
void fabric_attr_snapshot(const struct fabric_attr_set *set,
			  const u32 *values, u32 *out);

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

#endif /* _NET_FABRIC_PERNET_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric base module, fabric.ko (net/fabric/), as the modules that use
 * it see it.  A module (tcp_nscc, tcp_dcqcn, tcp_swift) describes itself
 * once in a struct fabric_module, a descriptor: its name, its attribute
 * table, its counters' names, the rules across its attributes.  From that
 * descriptor fabric.ko makes, for the module:
 *
 *   - module parameters, one per attribute (FABRIC_ATTR_MODULE_PARAM), the
 *     global defaults a new network namespace starts from;
 *   - per network namespace: the attribute values, as sysctls under
 *     net.<name>.*, and per-cpu counters, in /proc/net/<name>_stat;
 *   - the module's part of the "fabric" generic netlink family
 *     (include/uapi/linux/fabric.h): attribute dump, get and set, counter
 *     dump, and change notifications.
 *
 * sysctl and netlink read and write the same per-netns values through one
 * path (fabric_net_commit() in net/fabric/attr.c): a range check on each
 * value, the limits (FABRIC_ATTR_F_LIMIT) of a namespace that a
 * non-initial user namespace owns against init_net's, the module's check
 * across all of them, then every value at once, then a notification per
 * change.  Devlink holds many drivers' parameters the same way;
 * Documentation/networking/control.rst has the model.
 */
#ifndef _NET_FABRIC_MODULE_H
#define _NET_FABRIC_MODULE_H

#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <net/fabric/attr.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <uapi/linux/fabric.h>

struct ctl_table_header;
struct fabric_net;

/* A run of counters named prefix + names[i]: "routine_" + "md".  With
 * read set, the run's values are not per-cpu counters but what read()
 * says of each (a gauge, a minimum, a mean over an interval), shown in
 * the same places (/proc/net/<name>_stat, FABRIC_CMD_STATS_GET).
 */
struct fabric_stat_group {
	const char *prefix;
	const char * const *names;
	unsigned int count;
	u64 (*read)(const struct fabric_net *fn, unsigned int i);
};

struct fabric_module {
	/* Set by the module. */
	struct module *owner;		/* THIS_MODULE: its parameters' lock */
	const char *name;		/* "nscc": net.nscc.*, nscc_stat */
	const struct fabric_attr_desc *desc;
	unsigned int nattrs;
	u32 *defaults;			/* the module parameters' values */
	/* Optional: a module parameter (a default) was written; called also
	 * while the module loads, before its init runs.
	 */
	void (*default_changed)(unsigned int id);
	/* Optional: the rules across attributes.  0, or -EINVAL with *why
	 * set to a message naming the attributes.
	 */
	int (*check)(const u32 *values, const char **why);
	const struct fabric_stat_group *stats;
	unsigned int nstat_groups;
	struct pernet_operations pernet;	/* FABRIC_MODULE_PERNET_OPS */

	/* Private to fabric.ko. */
	unsigned int nstats;
	unsigned int net_id;
	bool registered;		/* module parameter writes are checked */
	char sysctl_path[FABRIC_MODULE_NAME_MAX + 4];
	char proc_name[FABRIC_MODULE_NAME_MAX + 5];
	struct list_head node;		/* fabric_modules, under fabric_lock */
};

/* A module's state in one network namespace. */
struct fabric_net {
	struct fabric_module *mod;
	struct net *net;
	struct ctl_table_header *sysctl;
	u64 __percpu *stats;		/* [mod->nstats] */
	/* Writers of attr[] (sysctl, netlink) take the mutex for the whole
	 * check and write, and the seqlock (with BH off) for the write;
	 * readers take the sequence only, so a socket starting in softirq
	 * context sees one whole set, never half of a multi-attribute set.
	 */
	struct mutex lock;
	seqlock_t seq;
	u32 attr[];			/* [mod->nattrs] */
};

int fabric_module_register(struct fabric_module *mod);
void fabric_module_unregister(struct fabric_module *mod);

/* The pernet callbacks of module _mod, a struct fabric_module variable
 * declared before: FABRIC_MODULE_PERNET(_mod) defines them,
 * FABRIC_MODULE_PERNET_OPS(_mod) initialises the descriptor's .pernet.
 */
int fabric_net_init(struct net *net, struct fabric_module *mod);
void fabric_net_exit(struct net *net, struct fabric_module *mod);

#define FABRIC_MODULE_PERNET(_mod)					\
	static struct fabric_module *const _mod##_self = &(_mod);	\
	static int __net_init _mod##_net_init(struct net *net)		\
	{								\
		return fabric_net_init(net, _mod##_self);		\
	}								\
	static void __net_exit _mod##_net_exit(struct net *net)	\
	{								\
		fabric_net_exit(net, _mod##_self);			\
	}

#define FABRIC_MODULE_PERNET_OPS(_mod)					\
	{ .init = _mod##_net_init, .exit = _mod##_net_exit }

static inline struct fabric_net *fabric_net(const struct fabric_module *mod,
					    const struct net *net)
{
	return net_generic(net, mod->net_id);
}

static inline void fabric_net_stat_add(struct fabric_net *fn, unsigned int i,
				       u64 v)
{
	this_cpu_add(fn->stats[i], v);
}

u64 fabric_net_stat_sum(const struct fabric_net *fn, unsigned int i);
/* Counter i (of all groups) of fn, the sg's i-th (sg its group). */
u64 fabric_net_stat_value(const struct fabric_net *fn,
			  const struct fabric_stat_group *sg, unsigned int i,
			  unsigned int k);

struct seq_file;
/* One "name value" line per counter, as /proc/net/<name>_stat shows them. */
void fabric_net_stat_show(struct seq_file *seq, const struct fabric_net *fn);

/* The attributes a socket starts with: this netns's values, one whole set. */
void fabric_net_params(const struct fabric_net *fn, u32 *out);

/* One attribute of this netns, read once (no consistency with others). */
static inline u32 fabric_net_attr(const struct fabric_net *fn, unsigned int id)
{
	return READ_ONCE(fn->attr[id]);
}

/* The module parameter (global default) of attribute id. */
static inline u32 fabric_module_default(const struct fabric_module *mod,
					unsigned int id)
{
	return READ_ONCE(mod->defaults[id]);
}

/* kernel_param.arg of one attribute's module parameter. */
struct fabric_attr_param {
	struct fabric_module *mod;
	unsigned int id;
};

extern const struct kernel_param_ops fabric_attr_param_ops;

/*
 * Declares attribute _id of module _mod as module parameter _name, with the
 * descriptor's help text (MODULE_PARM_DESC spelled out, so that _name is
 * pasted or stringified rather than repeated).  It ends in a function
 * definition, which takes no semicolon, so each row of an X-macro list
 * expands to a complete group of declarations.
 */
#define FABRIC_ATTR_MODULE_PARAM(_mod, _name, _id, _help)		\
	static const struct fabric_attr_param __fabric_param_##_name = {	\
		.mod = &(_mod), .id = (_id),				\
	};								\
	module_param_cb(_name, &fabric_attr_param_ops,			\
			(void *)&__fabric_param_##_name, 0644);		\
	__MODULE_INFO(parm, __fabric_parm_##_name, #_name ":" _help);	\
	static inline void __fabric_param_end_##_name(void) { }

/* Link speeds (net/fabric/link.c): the speed in Mbit/s the device's driver
 * reports through ethtool, or 0 if none (lo, dummy, SPEED_UNKNOWN).  Under
 * rcu_read_lock(); the device pointer is only a key.
 */
u32 fabric_link_mbps(const struct net_device *dev);

#endif /* _NET_FABRIC_MODULE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * mrt, the multipath reliable message transport: module init and exit, the
 * attribute table, the per-netns state and /proc/net/mrt/snmp (the other
 * files: sock.c the socket API, pdc.c the protocol, udp.c the tunnels,
 * proc.c /proc/net/mrt/{pdcs,dests}, netlink.c the "mrt" genl family).
 *
 * The attributes are the transport's (net/mrt/mrt_attrs.h) followed by
 * NSCC's (include/net/fabric/nscc_attrs.h), one table that fabric.ko turns
 * into module parameters, net.mrt.* sysctls and the "mrt" attribute set of
 * the fabric netlink family, under one name each.  Two NSCC rows
 * differ from the TCP module's: the flavour is mrc, as the MRC page has
 * it, since this transport is the one that gets trimmed and SACKs every
 * packet; and trimming_enabled takes a third value, auto, its default:
 * the flavour's page default (mrc 1, uet 0), which also marks data
 * trimmable (engine.h's mrt_data_tos()).
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "attr_desc.h"
#include "mrt.h"

/* The transport's two NSCC rows that differ (id NSCC_ATTR_*): the
 * flavour's default, and trimming_enabled, an enum with auto.
 */
#define MRT_DEF_FLAVOUR(id, v)	((id) == NSCC_ATTR_flavour ? NSCC_FLAVOUR_MRC : (v))
#define MRT_IS_TRIM(id)		((id) == NSCC_ATTR_trimming_enabled)
#define MRT_TRIM_HELP \
	"1: data trimmable, target 0.75 x config_base_rtt_ns, only trims trigger Quick Adapt; auto: mrc 1, uet 0"

static const struct fabric_attr_desc mrt_attr_descs[MRT_ATTR_COUNT] = {
#define MRT_ATTR(name, kind, def, lo, hi, unit, help) \
	[MRT_A_##name] = MRT_ATTR_DESC(name, kind, def, lo, hi, unit, help),
#include "mrt_attrs.h"
#undef MRT_ATTR
#define NSCC_ATTR(_name, _kind, _def, _lo, _hi, _unit, _help)		\
	[MRT_A_NSCC + NSCC_ATTR_##_name] = {				\
		.name = #_name,						\
		.help = MRT_IS_TRIM(NSCC_ATTR_##_name) ? MRT_TRIM_HELP : (_help), \
		.names = MRT_IS_TRIM(NSCC_ATTR_##_name) ? mrt_trim_names : \
			 MRT_NAMES_##_kind,				\
		.unit = (_unit),					\
		.def = MRT_IS_TRIM(NSCC_ATTR_##_name) ? MRT_TRIM_AUTO :	\
		       MRT_DEF_FLAVOUR(NSCC_ATTR_##_name, _def),	\
		.min = (_lo),						\
		.max = MRT_IS_TRIM(NSCC_ATTR_##_name) ? MRT_TRIM_AUTO : (_hi), \
		.kind = MRT_IS_TRIM(NSCC_ATTR_##_name) ? FABRIC_ATTR_ENUM : \
			FABRIC_ATTR_KIND_##_kind,			\
		.flags = FABRIC_ATTR_FLAGS_##_kind,			\
	},
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
};

static u32 mrt_defaults[MRT_ATTR_COUNT] = {
#define MRT_ATTR(name, kind, def, lo, hi, unit, help) \
	[MRT_A_##name] = (def),
#include "mrt_attrs.h"
#undef MRT_ATTR
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) \
	[MRT_A_NSCC + NSCC_ATTR_##name] = MRT_IS_TRIM(NSCC_ATTR_##name) ? \
		MRT_TRIM_AUTO : MRT_DEF_FLAVOUR(NSCC_ATTR_##name, def),
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
};

#define MRT_ATTR(name, kind, def, lo, hi, unit, help) \
	FABRIC_ATTR_MODULE_PARAM(mrt_fabric, name, MRT_A_##name, help)
#include "mrt_attrs.h"
#undef MRT_ATTR
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) \
	FABRIC_ATTR_MODULE_PARAM(mrt_fabric, name, MRT_A_NSCC + NSCC_ATTR_##name, help)
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
static const char * const mrt_stat_names[MRT_S_COUNT] = { MRT_STATS };
#undef EM
#undef EMe

static const struct fabric_stat_group mrt_stat_groups[] = {
	{ .prefix = "", .names = mrt_stat_names, .count = MRT_S_COUNT },
	{ .prefix = "malformed_", .names = mrt_malformed_names,
	  .count = MRT_BAD_COUNT },
	{ .prefix = "routine_", .names = nscc_routine_names,
	  .count = NSCC_R_COUNT },
};

/* The rules across attributes: NSCC's, then the transport's. */
static int mrt_check(const u32 *v, const char **why)
{
	struct nscc_params p;
	int err;

	mrt_nscc_params(v, &p);
	err = nscc_params_check(&p, why);
	if (err)
		return err;
	if (!mrt_range_valid(v[MRT_A_max_psn_range])) {
		*why = "max_psn_range is not a power of two from 64 to 16384";
		return -EINVAL;
	}
	if (v[MRT_A_rto_min_us] > v[MRT_A_rto_max_us]) {
		*why = "rto_min_us is above rto_max_us";
		return -EINVAL;
	}
	if (v[MRT_A_ev_base] + v[MRT_A_ev_count] > 65536) {
		*why = "ev_base + ev_count is above 65536 (the EVs are UDP ports)";
		return -EINVAL;
	}
	return 0;
}

FABRIC_MODULE_PERNET(mrt_fabric)

struct fabric_module mrt_fabric = {
	.owner		= THIS_MODULE,
	.name		= "mrt",
	.desc		= mrt_attr_descs,
	.nattrs		= MRT_ATTR_COUNT,
	.defaults	= mrt_defaults,
	.check		= mrt_check,
	.stats		= mrt_stat_groups,
	.nstat_groups	= ARRAY_SIZE(mrt_stat_groups),
	.pernet		= FABRIC_MODULE_PERNET_OPS(mrt_fabric),
};

static unsigned int mrt_net_id __read_mostly;

static hsiphash_key_t mrt_hash_key __read_mostly;

void mrt_hash_init(void)
{
	get_random_bytes(&mrt_hash_key, sizeof(mrt_hash_key));
}

u32 mrt_hash(const void *data, size_t len)
{
	return hsiphash(data, len, &mrt_hash_key);
}

struct mrt_net *mrt_net(const struct net *net)
{
	return net_generic(net, mrt_net_id);
}

static int mrt_snmp_show(struct seq_file *seq, void *v)
{
	fabric_net_stat_show(seq, mrt_net(seq_file_single_net(seq))->fn);
	return 0;
}

static int __net_init mrt_net_init(struct net *net)
{
	struct mrt_net *mn = mrt_net(net);
	struct proc_dir_entry *dir;

	mn->net = net;
	mn->fn = fabric_net(&mrt_fabric, net);
	mutex_init(&mn->tun_lock);
	spin_lock_init(&mn->lock);
	mutex_init(&mn->ev_set_lock);
	INIT_HLIST_HEAD(&mn->solo);
	INIT_LIST_HEAD(&mn->deny);
	/* inserted and erased with BHs off (xa_insert_bh(), xa_erase_bh(),
	 * some in softirq): an insert's sleeping retry for a node must drop
	 * the lock with BHs, as the flag tells the XArray
	 */
	xa_init_flags(&mn->pdcs, XA_FLAGS_LOCK_BH);
	spin_lock_init(&mn->linger_lock);
	INIT_DELAYED_WORK(&mn->gc, mrt_gc_work);
	INIT_WORK(&mn->tun_work, mrt_tunnel_put_work);
	get_random_bytes(&mn->cookie_key, sizeof(mn->cookie_key));
	spin_lock_init(&mn->src_lock);

	dir = proc_net_mkdir(net, "mrt", net->proc_net);
	if (!dir)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, dir, mrt_snmp_show, NULL) ||
	    mrt_proc_init(net, dir)) {
		remove_proc_subtree("mrt", net->proc_net);
		return -ENOMEM;
	}
	mrt_tunnel_init(mn);
	return 0;
}

/* Before any netns's exit: the tunnels go now, not in mrt_net_exit(),
 * which runs after the devices are unregistered: a broadcast or multicast
 * datagram's input route (on the loopback device) is cached in the UDP
 * socket that received it (early demux's sk_rx_dst), and would keep lo
 * from ever being freed.  User sockets hold the netns, so none is left.
 */
static void __net_exit mrt_net_pre_exit(struct net *net)
{
	struct mrt_net *mn = mrt_net(net);

	flush_work(&mn->tun_work);
	WARN_ON_ONCE(mn->tun_users);
	mrt_tunnel_exit(mn);
}

static void __net_exit mrt_net_exit(struct net *net)
{
	struct mrt_net *mn = mrt_net(net);

	cancel_delayed_work_sync(&mn->gc);
	WARN_ON_ONCE(!xa_empty(&mn->pdcs));
	WARN_ON_ONCE(atomic_read(&mn->nrx));
	xa_destroy(&mn->pdcs);
	mrt_deny_flush(mn);
	remove_proc_subtree("mrt", net->proc_net);
}

static struct pernet_operations mrt_net_ops = {
	.init	= mrt_net_init,
	.pre_exit = mrt_net_pre_exit,
	.exit	= mrt_net_exit,
	.id	= &mrt_net_id,
	.size	= sizeof(struct mrt_net),
};

struct workqueue_struct *mrt_wq;

static int __init mrt_init(void)
{
	int err;

	mrt_hash_init();
	mrt_wq = alloc_workqueue("mrt", 0, 0);
	if (!mrt_wq)
		return -ENOMEM;
	err = fabric_module_register(&mrt_fabric);
	if (err)
		goto out_wq;
	err = register_pernet_subsys(&mrt_net_ops);
	if (err)
		goto out_fabric;
	err = mrt_genl_init();
	if (err)
		goto out_pernet;
	err = mrt_sock_register();
	if (err)
		goto out_genl;
	return 0;

out_genl:
	mrt_genl_exit();
out_pernet:
	unregister_pernet_subsys(&mrt_net_ops);
out_fabric:
	fabric_module_unregister(&mrt_fabric);
out_wq:
	destroy_workqueue(mrt_wq);
	return err;
}

static void __exit mrt_exit(void)
{
	mrt_genl_exit();
	mrt_sock_unregister();
	/* PDCs and destinations are freed after a grace period. */
	rcu_barrier();
	unregister_pernet_subsys(&mrt_net_ops);
	fabric_module_unregister(&mrt_fabric);
	/* a report work's last sock_put() may be behind it still */
	destroy_workqueue(mrt_wq);
}

module_init(mrt_init);
module_exit(mrt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mrt: multipath reliable message transport over UDP, with NSCC");
/* socket(AF_INET or AF_INET6, SOCK_RDM, 253) loads this module; the
 * aliases are literals, since __stringify() does not expand the enums.
 */
MODULE_ALIAS("net-pf-2-proto-253-type-4");
MODULE_ALIAS("net-pf-10-proto-253-type-4");

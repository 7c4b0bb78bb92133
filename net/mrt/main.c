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

/* The records the pages name that are not counters (struct mrt_rec_cpu):
 * base_rtt_ns, the RTT samples' minimum, maximum and mean since the netns
 * began and in the last whole period, and the period's Quick Adapt
 * firings and fast-increase steps; num_quick_adapt is the UET page's name
 * of total_qa_count.
 */
#define MRT_RECORDS						\
	EM(MRT_R_BASE_RTT, base_rtt_ns)				\
	EM(MRT_R_RTT_MIN, calc__rtt_ns_min)			\
	EM(MRT_R_RTT_MAX, calc__rtt_ns_max)			\
	EM(MRT_R_RTT_MEAN, calc__rtt_ns_mean)			\
	EM(MRT_R_IVL_RTT_MIN, ivl_calc__rtt_ns_min)		\
	EM(MRT_R_IVL_RTT_MAX, ivl_calc__rtt_ns_max)		\
	EM(MRT_R_IVL_RTT_MEAN, ivl_calc__rtt_ns_mean)		\
	EM(MRT_R_IVL_QA, ivl_total_qa_count)			\
	EM(MRT_R_IVL_FI, ivl_total_fi_count)			\
	EM(MRT_R_NUM_QA, num_quick_adapt)			\
	EMe(MRT_R_IVL_NUM_QA, ivl_num_quick_adapt)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_record { MRT_RECORDS MRT_R_COUNT };
#undef EM
#undef EMe
#define EM(a, b)	#b,
#define EMe(a, b)	#b,
static const char * const mrt_record_names[MRT_R_COUNT] = { MRT_RECORDS };
#undef EM
#undef EMe

/* This cpu's records, rolled over to now's period. */
static struct mrt_rec_cpu *mrt_rec_this(struct mrt_net *mn, u64 now)
{
	struct mrt_rec_cpu *r = this_cpu_ptr(mn->rec);
	u64 p = div_u64(now, MRT_REC_PERIOD_NS);

	if (r->period != p) {
		if (r->period + 1 == p) {
			WRITE_ONCE(r->last.n, r->cur.n);
			WRITE_ONCE(r->last.sum, r->cur.sum);
			WRITE_ONCE(r->last.min, r->cur.min);
			WRITE_ONCE(r->last.max, r->cur.max);
			WRITE_ONCE(r->qa_last, r->qa_cur);
			WRITE_ONCE(r->fi_last, r->fi_cur);
		} else {
			WRITE_ONCE(r->last.n, 0);
			WRITE_ONCE(r->qa_last, 0);
			WRITE_ONCE(r->fi_last, 0);
		}
		WRITE_ONCE(r->cur.n, 0);
		WRITE_ONCE(r->cur.sum, 0);
		WRITE_ONCE(r->qa_cur, 0);
		WRITE_ONCE(r->fi_cur, 0);
		WRITE_ONCE(r->period, p);
	}
	return r;
}

static void mrt_rec_add(struct mrt_rec_acc *a, u64 v)
{
	if (!a->n || v < a->min)
		WRITE_ONCE(a->min, v);
	if (!a->n || v > a->max)
		WRITE_ONCE(a->max, v);
	WRITE_ONCE(a->sum, a->sum + v);
	WRITE_ONCE(a->n, a->n + 1);
}

void mrt_rec_rtt(struct mrt_net *mn, u64 now, u64 rtt_ns, u64 base_rtt_ns)
{
	struct mrt_rec_cpu *r;
	s64 b;

	if (!mn->rec)
		return;
	local_bh_disable();
	r = mrt_rec_this(mn, now);
	mrt_rec_add(&r->cur, rtt_ns);
	mrt_rec_add(&r->total, rtt_ns);
	local_bh_enable();
	/* the lowest base RTT any window has reached (-1: none yet) */
	b = atomic64_read(&mn->rec_base_rtt);
	while ((b == -1 || base_rtt_ns < (u64)b) &&
	       !atomic64_try_cmpxchg(&mn->rec_base_rtt, &b, base_rtt_ns))
		;
}

void mrt_rec_steps(struct mrt_net *mn, u64 now, u64 qa, u64 fi)
{
	struct mrt_rec_cpu *r;

	if (!mn->rec)
		return;
	local_bh_disable();
	r = mrt_rec_this(mn, now);
	WRITE_ONCE(r->qa_cur, r->qa_cur + qa);
	WRITE_ONCE(r->fi_cur, r->fi_cur + fi);
	local_bh_enable();
}

/* Adds one cpu's accumulator, read as the writer may be changing it. */
static void mrt_rec_fold(struct mrt_rec_acc *to, const struct mrt_rec_acc *a)
{
	u64 n = READ_ONCE(a->n), min = READ_ONCE(a->min), max = READ_ONCE(a->max);

	if (!n)
		return;
	if (!to->n || min < to->min)
		to->min = min;
	if (!to->n || max > to->max)
		to->max = max;
	to->sum += READ_ONCE(a->sum);
	to->n += n;
}

static u64 mrt_rec_value(struct mrt_net *mn, unsigned int i)
{
	struct mrt_rec_acc total = {}, last = {};
	u64 p = div_u64(ktime_get_ns(), MRT_REC_PERIOD_NS), qa = 0, fi = 0;
	int cpu;

	if (i == MRT_R_BASE_RTT) {
		s64 b = atomic64_read(&mn->rec_base_rtt);

		return b == -1 ? 0 : b;
	}
	if (!mn->rec)
		return 0;
	for_each_possible_cpu(cpu) {
		const struct mrt_rec_cpu *r = per_cpu_ptr(mn->rec, cpu);
		u64 rp = READ_ONCE(r->period);

		mrt_rec_fold(&total, &r->total);
		/* the last whole period: the cpu's last, or its current if
		 * that has ended since
		 */
		if (rp == p) {
			mrt_rec_fold(&last, &r->last);
			qa += READ_ONCE(r->qa_last);
			fi += READ_ONCE(r->fi_last);
		} else if (rp + 1 == p) {
			mrt_rec_fold(&last, &r->cur);
			qa += READ_ONCE(r->qa_cur);
			fi += READ_ONCE(r->fi_cur);
		}
	}
	switch (i) {
	case MRT_R_RTT_MIN:
		return total.min;
	case MRT_R_RTT_MAX:
		return total.max;
	case MRT_R_RTT_MEAN:
		return total.n ? div64_u64(total.sum, total.n) : 0;
	case MRT_R_IVL_RTT_MIN:
		return last.min;
	case MRT_R_IVL_RTT_MAX:
		return last.max;
	case MRT_R_IVL_RTT_MEAN:
		return last.n ? div64_u64(last.sum, last.n) : 0;
	case MRT_R_IVL_QA:
	case MRT_R_IVL_NUM_QA:
		return qa;
	case MRT_R_IVL_FI:
		return fi;
	}
	return 0;
}

/* fabric.ko reads the records from the moment mrt registers with it,
 * before the per-netns state exists and until after it is gone: only
 * while this is set, under RCU (mrt_exit() clears it and waits).
 */
static bool mrt_rec_ready;

static u64 mrt_rec_read(const struct fabric_net *fn, unsigned int i)
{
	u64 v;

	if (i == MRT_R_NUM_QA)
		return fabric_net_stat_sum(fn, MRT_S_QA);
	rcu_read_lock();
	v = READ_ONCE(mrt_rec_ready) ? mrt_rec_value(mrt_net(fn->net), i) : 0;
	rcu_read_unlock();
	return v;
}

static const struct fabric_stat_group mrt_stat_groups[] = {
	{ .prefix = "", .names = mrt_stat_names, .count = MRT_S_COUNT },
	{ .prefix = "malformed_", .names = mrt_malformed_names,
	  .count = MRT_BAD_COUNT },
	{ .prefix = "routine_", .names = nscc_routine_names,
	  .count = NSCC_R_COUNT },
	/* last: the counters' indices above are fixed (MRT_S_ROUTINE()) */
	{ .prefix = "", .names = mrt_record_names, .count = MRT_R_COUNT,
	  .read = mrt_rec_read },
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
	mn->rec = alloc_percpu(struct mrt_rec_cpu);
	if (!mn->rec)
		return -ENOMEM;
	atomic64_set(&mn->rec_base_rtt, -1);
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
		goto nomem;
	if (!proc_create_net_single("snmp", 0444, dir, mrt_snmp_show, NULL) ||
	    mrt_proc_init(net, dir)) {
		remove_proc_subtree("mrt", net->proc_net);
		goto nomem;
	}
	mrt_tunnel_init(mn);
	return 0;
nomem:
	free_percpu(mn->rec);
	mn->rec = NULL;
	return -ENOMEM;
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
	free_percpu(mn->rec);
	mn->rec = NULL;
}

/* After the netns's exits, before their state is freed: the receiving
 * PDCs' sources and their destinations' references go in RCU callbacks
 * that take mn->lock (mrt_src_free_rcu()); one barrier for the batch.
 */
static void __net_exit mrt_net_exit_batch(struct list_head *net_list)
{
	rcu_barrier();
}

static struct pernet_operations mrt_net_ops = {
	.init	= mrt_net_init,
	.pre_exit = mrt_net_pre_exit,
	.exit	= mrt_net_exit,
	.exit_batch = mrt_net_exit_batch,
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
	WRITE_ONCE(mrt_rec_ready, true);
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
	WRITE_ONCE(mrt_rec_ready, false);
	synchronize_rcu();
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
	/* PDCs and destinations are freed after a grace period; the
	 * records' readers are done after one.
	 */
	WRITE_ONCE(mrt_rec_ready, false);
	rcu_barrier();
	synchronize_rcu();
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

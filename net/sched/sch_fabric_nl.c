// SPDX-License-Identifier: GPL-2.0
/*
 * sch_fabric configuration: the netlink policy, change(), dump() and the
 * xstats of "tc -s".
 *
 * Options are parsed strictly (an unknown attribute, a nest without
 * NLA_F_NESTED or a value outside its policy range is refused with an
 * extack message), then checked as a whole against the values they would
 * change, all before the tree lock is taken; only then are they applied.
 * A change that shrinks a queue's limit drops that queue's excess from
 * its head and tells the ancestors (qdisc_tree_reduce_backlog()).
 */
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "sch_fabric.h"

/* A policy's inline min/max are s16: wider ranges go through a pointer. */
static struct netlink_range_validation fab_trim_size_range = {
	.min = FAB_MIN_TRIM_SIZE,
	.max = 65535,
};

const struct nla_policy fab_policy[TCA_FABRIC_MAX + 1] = {
	[TCA_FABRIC_RATE]		= { .type = NLA_U64 },
	[TCA_FABRIC_LIMIT]		= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_FABRIC_ECN_MIN]		= { .type = NLA_U32 },
	[TCA_FABRIC_ECN_MAX]		= { .type = NLA_U32 },
	[TCA_FABRIC_ECN_PROB]		= NLA_POLICY_MAX(NLA_U32, 100),
	[TCA_FABRIC_TRIM_AT]		= { .type = NLA_U32 },
	[TCA_FABRIC_TRIM_SIZE]		= NLA_POLICY_FULL_RANGE(NLA_U32,
								&fab_trim_size_range),
	[TCA_FABRIC_TRIM_DSCP]		= NLA_POLICY_MAX(NLA_U32, 63),
	[TCA_FABRIC_TRIM_DSCP_MASK]	= { .type = NLA_U64 },
	[TCA_FABRIC_TRIM_LIMIT]		= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_FABRIC_CLEAR_STATS]	= { .type = NLA_FLAG },
};

void fab_config_default(struct fab_config *cfg)
{
	*cfg = (struct fab_config){
		.limit = FAB_DEF_LIMIT,
		.ecn_prob = FAB_DEF_ECN_PROB,
		.trim_size = FAB_DEF_TRIM_SIZE,
		.trim_limit = FAB_DEF_TRIM_LIMIT,
	};
}

static void fab_get_u32(struct nlattr **tb, int type, u32 *val)
{
	if (tb[type])
		*val = nla_get_u32(tb[type]);
}

static int fab_check(const struct fab_config *c, struct nlattr **tb,
		     struct netlink_ext_ack *extack)
{
	if (c->limit > FAB_MAX_LIMIT || c->trim_limit > FAB_MAX_LIMIT) {
		NL_SET_ERR_MSG_ATTR(extack, c->limit > FAB_MAX_LIMIT ?
				    tb[TCA_FABRIC_LIMIT] : tb[TCA_FABRIC_TRIM_LIMIT],
				    "sch_fabric: limit and trim_limit are at most 1gb (1073741824 bytes)");
		return -EINVAL;
	}
	if (c->ecn_max && c->ecn_min > c->ecn_max) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FABRIC_ECN_MIN] ?:
				    tb[TCA_FABRIC_ECN_MAX],
				    "sch_fabric: ecn_min is above ecn_max");
		return -EINVAL;
	}
	/* ecn_max 0 turns marking off (and clears ecn_min, so that what dump
	 * shows reads back); an ecn_min given without an ecn_max above it is
	 * a mistake worth saying.
	 */
	if (tb[TCA_FABRIC_ECN_MIN] && c->ecn_min && !c->ecn_max) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FABRIC_ECN_MIN],
				    "sch_fabric: ecn_min needs ecn_max (ecn_max 0 alone turns marking off)");
		return -EINVAL;
	}
	if (c->trim_at > c->limit) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FABRIC_TRIM_AT] ?:
				    tb[TCA_FABRIC_LIMIT],
				    "sch_fabric: trim_at is above limit");
		return -EINVAL;
	}
	return 0;
}

/* Drops from the head of qh until its bytes fit limit, or nothing is left
 * (so a byte count that disagreed with the queue could never spin here).
 * Must hold the qdisc tree lock.
 */
static void fab_shrink(struct Qdisc *sch, struct qdisc_skb_head *qh,
		       u32 *qbytes, u32 limit, unsigned int *pkts,
		       unsigned int *bytes)
{
	unsigned int len;

	while (*qbytes > limit && fab_drop_head(sch, qh, qbytes, &len)) {
		(*pkts)++;
		*bytes += len;
	}
}

/* Every counter and histogram of the xstats from zero, as a switch's
 * "clear counters" does; the largest backlog starts at the current one.
 * The generic qdisc counters (bytes, packets, drops) belong to tc's core
 * and its rate estimators: they stay.  Under the qdisc lock.
 */
static void fab_clear_stats(struct fab_sched_data *q)
{
	memset(&q->st, 0, sizeof(q->st));
	memset(q->delay_fine, 0, sizeof(q->delay_fine));
	q->st.max_backlog = q->data_bytes + q->hdr_bytes;
}

int fab_change(struct Qdisc *sch, struct nlattr *opt,
	       struct netlink_ext_ack *extack)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_FABRIC_MAX + 1];
	unsigned int pkts = 0, bytes = 0;
	struct fab_config c;
	int err;

	if (!opt) {
		NL_SET_ERR_MSG_MOD(extack, "options missing");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, TCA_FABRIC_MAX, opt, fab_policy, extack);
	if (err < 0)
		return err;

	/* The new configuration: the current one with what was given. */
	c = q->cfg;
	if (tb[TCA_FABRIC_RATE])
		c.rate = nla_get_u64(tb[TCA_FABRIC_RATE]);
	if (tb[TCA_FABRIC_TRIM_DSCP_MASK])
		c.trim_dscp_mask = nla_get_u64(tb[TCA_FABRIC_TRIM_DSCP_MASK]);
	fab_get_u32(tb, TCA_FABRIC_LIMIT, &c.limit);
	fab_get_u32(tb, TCA_FABRIC_ECN_MIN, &c.ecn_min);
	fab_get_u32(tb, TCA_FABRIC_ECN_MAX, &c.ecn_max);
	fab_get_u32(tb, TCA_FABRIC_ECN_PROB, &c.ecn_prob);
	fab_get_u32(tb, TCA_FABRIC_TRIM_AT, &c.trim_at);
	fab_get_u32(tb, TCA_FABRIC_TRIM_SIZE, &c.trim_size);
	fab_get_u32(tb, TCA_FABRIC_TRIM_DSCP, &c.trim_dscp);
	fab_get_u32(tb, TCA_FABRIC_TRIM_LIMIT, &c.trim_limit);
	err = fab_check(&c, tb, extack);
	if (err)
		return err;
	if (!c.ecn_max)
		c.ecn_min = 0;

	sch_tree_lock(sch);
	if (c.rate != q->cfg.rate) {
		/* A new line rate applies from now: the head may leave at once
		 * and the next one a serialisation time at the new rate later.
		 * Neither the old rate's clock (possibly far ahead) nor a clock
		 * reset to 0 (which the dequeue would catch up FAB_MAX_LAG_NS of
		 * line time back to back) may stand.
		 */
		q->t_next = ktime_get_ns();
		qdisc_watchdog_cancel(&q->watchdog);
		if (sch->q.qlen)
			__netif_schedule(qdisc_root(sch));
	}
	q->cfg = c;
	fab_shrink(sch, &q->data, &q->data_bytes, c.limit, &pkts, &bytes);
	fab_shrink(sch, &q->hdr, &q->hdr_bytes, c.trim_limit, &pkts, &bytes);
	if (pkts)
		qdisc_tree_reduce_backlog(sch, pkts, bytes);
	/* After the shrink, so that its drops (drop_change) are cleared too:
	 * the counters start from this instant, the queues as they are.
	 */
	if (tb[TCA_FABRIC_CLEAR_STATS])
		fab_clear_stats(q);
	sch_tree_unlock(sch);
	return 0;
}

int fab_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	struct nlattr *opts = nla_nest_start(skb, TCA_OPTIONS);
	const struct fab_config *c = &q->cfg;

	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_FABRIC_RATE, c->rate, TCA_FABRIC_PAD) ||
	    nla_put_u32(skb, TCA_FABRIC_LIMIT, c->limit) ||
	    nla_put_u32(skb, TCA_FABRIC_ECN_MIN, c->ecn_min) ||
	    nla_put_u32(skb, TCA_FABRIC_ECN_MAX, c->ecn_max) ||
	    nla_put_u32(skb, TCA_FABRIC_ECN_PROB, c->ecn_prob) ||
	    nla_put_u32(skb, TCA_FABRIC_TRIM_AT, c->trim_at) ||
	    nla_put_u32(skb, TCA_FABRIC_TRIM_SIZE, c->trim_size) ||
	    nla_put_u32(skb, TCA_FABRIC_TRIM_DSCP, c->trim_dscp) ||
	    nla_put_u64_64bit(skb, TCA_FABRIC_TRIM_DSCP_MASK,
			      c->trim_dscp_mask, TCA_FABRIC_PAD) ||
	    nla_put_u32(skb, TCA_FABRIC_TRIM_LIMIT, c->trim_limit)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

/* The bucket where the cumulative count reaches permille of total. */
static u32 fab_fine_rank(const u64 *h, u64 total, u32 permille)
{
	u64 need = total, cum = 0;
	u32 rem = do_div(need, 1000), b;

	need = need * permille + (rem * permille + 999) / 1000;

	for (b = 0; b < TC_FABRIC_FINE_BUCKETS - 1; b++) {
		cum += h[b];
		if (cum >= need)
			break;
	}
	return b;
}

/* The window of the fine histogram that a dump carries (uapi
 * fabric_sched.h), into st and its counts.
 */
static void fab_fine_window(const struct fab_sched_data *q,
			    struct tc_fabric_xstats *st, u64 *counts)
{
	const u64 *h = q->delay_fine;
	u32 lo = 0, hi = TC_FABRIC_FINE_BUCKETS - 1, top, first, last, b;
	u64 total = 0;

	st->delay_fine_below = 0;
	st->delay_fine_above = 0;
	st->delay_fine_first = 0;
	st->delay_fine_len = 0;
	st->delay_fine_offset = sizeof(*st);
	for (b = 0; b < TC_FABRIC_FINE_BUCKETS; b++)
		total += h[b];
	if (!total)
		return;
	while (!h[hi])
		hi--;
	while (!h[lo])
		lo++;
	top = fab_fine_rank(h, total, 999);
	first = top + 1 >= lo + TC_FABRIC_FINE_WINDOW ?
		top + 1 - TC_FABRIC_FINE_WINDOW : lo;
	last = min(hi, first + TC_FABRIC_FINE_WINDOW - 1);
	for (b = lo; b < first; b++)
		st->delay_fine_below += h[b];
	for (b = last + 1; b <= hi; b++)
		st->delay_fine_above += h[b];
	for (b = first; b <= last; b++)
		counts[b - first] = h[b];
	st->delay_fine_first = first;
	st->delay_fine_len = last - first + 1;
}

int fab_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	const size_t len = sizeof(struct tc_fabric_xstats) +
			   TC_FABRIC_FINE_WINDOW * sizeof(u64);
	struct tc_fabric_xstats *st;
	int err;

	/* 6.1's tc_fill_qdisc() calls this under RTNL, where it may sleep */
	st = kmalloc(len, GFP_KERNEL);
	if (!st)
		return -ENOMEM;

	/* tc_fill_qdisc() calls this without the qdisc lock: copy under it,
	 * as fq and fq_codel do, so that a snapshot taken under load is one
	 * instant (each histogram adds up to delay_count).
	 */
	sch_tree_lock(sch);
	*st = q->st;
	st->data_backlog = q->data_bytes;
	st->hdr_backlog = q->hdr_bytes;
	st->hdr_packets = q->hdr.qlen;
	fab_fine_window(q, st, (u64 *)(st + 1));
	sch_tree_unlock(sch);
	err = gnet_stats_copy_app(d, st, sizeof(*st) + st->delay_fine_len * sizeof(u64));
	kfree(st);
	return err;
}

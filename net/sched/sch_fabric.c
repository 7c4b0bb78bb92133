// SPDX-License-Identifier: GPL-2.0
/*
 * sch_fabric: a switch egress port as a classless qdisc.
 *
 * What an AI-fabric switch port does to the traffic of one egress queue,
 * installable on any device (a veth in a netns topology, typically):
 *
 *   - Line rate.  Packets leave no faster than "rate" bits/s: each has a
 *     departure time, one serialisation time after the previous one, and
 *     the qdisc watchdog wakes the device at the next.  A queue therefore
 *     builds on a fast veth as it would at a slower port.  Departures that
 *     a late timer delayed are caught up (up to FAB_MAX_LAG_NS).
 *   - A data queue of "limit" bytes.  Arrivals that do not fit are dropped.
 *   - ECN marking at enqueue on the data queue's instantaneous backlog:
 *     none below ecn_min, probability rising linearly to ecn_prob percent
 *     at ecn_max, every ECT packet above ecn_max; ecn_min == ecn_max is a
 *     step.  Not-ECT packets are never marked (INET_ECN_set_ce()).
 *   - Trimming: an arrival that would take the data backlog above trim_at
 *     and carries a trimmable DSCP is cut to trim_size bytes
 *     (sch_fabric_trim.c), given trim_dscp, and queued in a header queue of
 *     trim_limit bytes that is served first, as NDP and Ultra Ethernet
 *     switches do.  A full header queue drops it.  A header a port
 *     upstream trimmed (trim_dscp, not 0 and not trimmable here,
 *     trim_size long) joins the header queue too above trim_at, where a
 *     trimmable packet would: headers go first at every hop, so one that
 *     outran a congested port is not dropped as data at the next.
 *   - Stats: every dequeued packet's queueing delay goes into a log2
 *     histogram in microseconds (struct tc_fabric_xstats), with marks,
 *     trims and drops by reason.
 *
 * GSO packets are segmented at enqueue, so limits, marks and trims apply
 * to wire-sized packets.
 *
 * References: Handley et al., "Re-architecting datacenter networks and
 * stacks for low latency and high performance" (NDP), SIGCOMM 2017; the
 * SAI packet-trimming proposal (OCP SAI PR 2077) and SONiC's HLD; DCQCN's
 * RED-style marking (Zhu et al., SIGCOMM 2015); the structure of
 * net/sched/sch_fq_pie.c and sch_tbf.c.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include <net/fabric/core.h>

#include "sch_fabric.h"

/* While the port is busy, departures follow a virtual clock: each packet
 * leaves one serialisation time after the previous one, even if the device
 * was serviced late (a busy VM), so the rate holds; after an idle period
 * the clock restarts at the first arrival.  A stall longer than this is
 * not caught up (it would leave as one long burst).
 */
#define FAB_MAX_LAG_NS	(10 * NSEC_PER_MSEC)

/* The watchdog may fire this late, so the timer subsystem can coalesce
 * wake-ups (a per-packet timer at 1 Gbit/s is 83,000 a second); the
 * virtual clock sends what came due in the meantime back to back.
 */
#define FAB_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)

/* Serialisation time of len bytes at the configured rate. */
static u64 fab_tx_ns(const struct fab_sched_data *q, unsigned int len)
{
	return div64_u64((u64)len * 8 * NSEC_PER_SEC, q->cfg.rate);
}

static bool fab_should_mark(const struct fab_config *cfg, u32 backlog)
{
	u64 p32;

	if (!cfg->ecn_max || backlog < cfg->ecn_min)
		return false;
	if (backlog > cfg->ecn_max || cfg->ecn_min == cfg->ecn_max)
		return true;
	/* ecn_prob% x (backlog - min) / (max - min), scaled to 2^32 */
	p32 = fabric_muldiv((u64)cfg->ecn_prob * (backlog - cfg->ecn_min),
			    1ULL << 32, 100ULL * (cfg->ecn_max - cfg->ecn_min),
			    false);
	return get_random_u32() < min_t(u64, p32, U32_MAX);
}

static void fab_account_in(struct Qdisc *sch, struct sk_buff *skb)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();

	/* The first arrival of a busy period restarts the line's clock. */
	if (!sch->q.qlen)
		q->t_next = max(q->t_next, now);
	fab_skb_cb(skb)->enqueue_ns = now;
	sch->q.qlen++;
	qdisc_qstats_backlog_inc(sch, skb);
	q->st.max_backlog = max_t(u64, q->st.max_backlog,
				  sch->qstats.backlog);
}

/* A header (now qdisc_pkt_len(skb) long, orig_len before: trimmed here,
 * or as it arrived if a port upstream trimmed it) joins the header queue,
 * or is dropped if that is full.
 */
static int fab_enqueue_hdr(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free, unsigned int orig_len)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);

	if (q->hdr_bytes + len > q->cfg.trim_limit) {
		q->st.trim_dropped++;
		return qdisc_drop(skb, sch, to_free);
	}
	q->hdr_bytes += len;
	__qdisc_enqueue_tail(skb, &q->hdr);
	fab_account_in(sch, skb);
	/* Ancestors add orig_len when this returns; take the cut off now
	 * (with our qlen non-zero, so no parent class is told we emptied).
	 */
	if (orig_len != len)
		qdisc_tree_reduce_backlog(sch, 0, orig_len - len);
	return NET_XMIT_SUCCESS;
}

/* One wire-sized packet. */
static int fab_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	const struct fab_config *cfg = &q->cfg;
	unsigned int len = qdisc_pkt_len(skb);

	/* Above trim_at, where this port would trim it were it data, a
	 * header trimmed upstream joins the header queue: no more priority
	 * than a trimmable packet already gets here by being cut.
	 */
	if (cfg->trim_at && q->data_bytes + len > cfg->trim_at &&
	    fab_trimmed_header(cfg, skb))
		return fab_enqueue_hdr(skb, sch, to_free, len);
	if (cfg->trim_at && q->data_bytes + len > cfg->trim_at &&
	    fab_trimmable(cfg, skb)) {
		int err = fab_trim(cfg, skb);

		if (!err) {
			q->st.trimmed++;
			fab_set_pkt_len(sch, skb);
			return fab_enqueue_hdr(skb, sch, to_free, len);
		}
		if (err == -EOPNOTSUPP)
			q->st.untrimmable++;
	}
	if (q->data_bytes + len > cfg->limit) {
		q->st.drop_limit++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (fab_should_mark(cfg, q->data_bytes) && INET_ECN_set_ce(skb))
		q->st.ecn_marked++;
	q->data_bytes += len;
	__qdisc_enqueue_tail(skb, &q->data);
	fab_account_in(sch, skb);
	return NET_XMIT_SUCCESS;
}

/* Segments a GSO packet and enqueues the segments (as sch_tbf does). */
static int fab_enqueue_segs(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int prev_len = qdisc_pkt_len(skb), len = 0, seg_len;
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		fab_set_pkt_len(sch, segs);
		seg_len = qdisc_pkt_len(segs);
		if (fab_enqueue_one(segs, sch, to_free) == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	if (!nb) {
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	/* Ancestors count one packet of prev_len; they hold nb of len (less
	 * what trimming already took off).
	 */
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	consume_skb(skb);
	return NET_XMIT_SUCCESS;
}

static int fab_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	if (skb_is_gso(skb))
		return fab_enqueue_segs(skb, sch, to_free);
	return fab_enqueue_one(skb, sch, to_free);
}

static void fab_delay_sample(struct fab_sched_data *q, u64 delay_ns)
{
	u64 us = div_u64(delay_ns, NSEC_PER_USEC);
	unsigned int b = us ? fls64(us) : 0;

	b = min_t(unsigned int, b, TC_FABRIC_DELAY_BUCKETS - 1);
	q->st.delay_hist[b]++;
	q->delay_fine[tc_fabric_fine_bucket(delay_ns)]++;
	q->st.delay_count++;
	q->st.delay_sum_ns += delay_ns;
	q->st.delay_max_ns = max(q->st.delay_max_ns, delay_ns);
}

static struct sk_buff *fab_dequeue(struct Qdisc *sch)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	struct qdisc_skb_head *qh = q->hdr.head ? &q->hdr : &q->data;
	struct sk_buff *skb = qh->head;
	unsigned int len;
	u64 now;

	if (!skb)
		return NULL;
	now = ktime_get_ns();
	if (q->cfg.rate && now < q->t_next) {
		qdisc_watchdog_schedule_range_ns(&q->watchdog, q->t_next,
						 FAB_TIMER_SLACK_NS);
		return NULL;
	}
	skb = __qdisc_dequeue_head(qh);
	len = qdisc_pkt_len(skb);
	if (qh == &q->hdr)
		q->hdr_bytes -= len;
	else
		q->data_bytes -= len;
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);
	if (q->cfg.rate)
		q->t_next = max(q->t_next, now - min(now, FAB_MAX_LAG_NS)) +
			    fab_tx_ns(q, len);
	fab_delay_sample(q, now - fab_skb_cb(skb)->enqueue_ns);
	return skb;
}

/* Drops the packet at the head of qh (whose byte count is *bytes) and
 * returns true with its length in *len, or false if qh is empty.
 * Must hold the qdisc tree lock (change() shrinking a limit).
 */
bool fab_drop_head(struct Qdisc *sch, struct qdisc_skb_head *qh, u32 *bytes,
		   unsigned int *len)
{
	struct fab_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb = __qdisc_dequeue_head(qh);

	lockdep_assert_held(qdisc_lock(qdisc_root_sleeping(sch)));
	if (!skb)
		return false;
	*len = qdisc_pkt_len(skb);
	*bytes -= min(*bytes, *len);
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	q->st.drop_change++;
	rtnl_qdisc_drop(skb, sch);
	return true;
}

/* The length of a packet this qdisc has cut (a GSO segment, a trimmed
 * datagram): its own bytes, adjusted by this qdisc's size table, which
 * qdisc_enqueue() applies to every packet this qdisc receives, so "stab
 * overhead" counts once per packet on the wire.  A size table on a parent
 * sized what the parent received, not these cuts: such a packet carries
 * only this qdisc's (none: its own bytes), as in sch_tbf.  The kernel's
 * size-table lookup,
 * __qdisc_calculate_pkt_len(), is not exported: this is the same
 * arithmetic (tc-stab(8): overhead, then cells of 2^cell_log bytes mapped
 * through the table, scaled by 2^size_log), with the same bounds.
 */
void fab_set_pkt_len(struct Qdisc *sch, struct sk_buff *skb)
{
	/* Enqueue runs under rcu_read_lock_bh() (__dev_queue_xmit()). */
	const struct qdisc_size_table *stab = rcu_dereference_bh(sch->stab);
	int len = skb->len, slot;

	if (stab) {
		const struct tc_sizespec *so = &stab->szopts;

		len += so->overhead;
		if (so->tsize) {
			slot = max(len + so->cell_align, 0) >> so->cell_log;
			if (slot < so->tsize)
				len = stab->data[slot];
			else
				len = stab->data[so->tsize - 1] * (slot / so->tsize) +
				      stab->data[slot % so->tsize];
			len <<= so->size_log;
		}
	}
	qdisc_skb_cb(skb)->pkt_len = clamp_t(int, len, 1, QDISC_PKT_LEN_MAX);
}

static int fab_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct fab_sched_data *q = qdisc_priv(sch);

	fab_config_default(&q->cfg);
	qdisc_watchdog_init(&q->watchdog, sch);
	if (!opt)
		return 0;
	return fab_change(sch, opt, extack);
}

static void fab_reset(struct Qdisc *sch)
{
	struct fab_sched_data *q = qdisc_priv(sch);

	__qdisc_reset_queue(&q->hdr);
	__qdisc_reset_queue(&q->data);
	q->hdr_bytes = 0;
	q->data_bytes = 0;
	q->t_next = 0;
	qdisc_watchdog_cancel(&q->watchdog);
}

static void fab_destroy(struct Qdisc *sch)
{
	struct fab_sched_data *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
}

static struct Qdisc_ops fab_qdisc_ops __read_mostly = {
	.id		= "fabric",
	.priv_size	= sizeof(struct fab_sched_data),
	.enqueue	= fab_enqueue,
	.dequeue	= fab_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= fab_init,
	.reset		= fab_reset,
	.destroy	= fab_destroy,
	.change		= fab_change,
	.dump		= fab_dump,
	.dump_stats	= fab_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init fab_module_init(void)
{
	return register_qdisc(&fab_qdisc_ops);
}

static void __exit fab_module_exit(void)
{
	unregister_qdisc(&fab_qdisc_ops);
}

module_init(fab_module_init);
module_exit(fab_module_exit);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Switch egress port: line rate, ECN marking, packet trimming");
MODULE_VERSION("0.1");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_fabric private interfaces: the qdisc's state, shared by the data
 * path (sch_fabric.c), trimming (sch_fabric_trim.c) and configuration
 * (sch_fabric_nl.c).
 */
#ifndef _SCH_FABRIC_H
#define _SCH_FABRIC_H

#include <linux/fabric_sched.h>
#include <linux/sizes.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

/* Defaults (Documentation/networking/sch_fabric.rst). */
#define FAB_DEF_LIMIT		SZ_1M		/* bytes */
#define FAB_DEF_ECN_PROB	100		/* percent */
#define FAB_DEF_TRIM_SIZE	128		/* bytes, as SAI and SONiC */
#define FAB_DEF_TRIM_LIMIT	SZ_256K		/* bytes */
#define FAB_MIN_TRIM_SIZE	28		/* IPv4 + UDP headers */
/* Largest limit and trim_limit: a backlog plus one packet stays far from
 * U32_MAX, so "bytes + len > limit" cannot wrap.
 */
#define FAB_MAX_LIMIT		SZ_1G		/* bytes */

/* Configuration; written by fab_change() under sch_tree_lock(). */
struct fab_config {
	u64 rate;		/* bits per second; 0: unlimited */
	u64 trim_dscp_mask;	/* bit d: DSCP d is trimmable */
	u32 limit;		/* bytes, data queue */
	u32 ecn_min;		/* bytes of data backlog */
	u32 ecn_max;		/* bytes; 0: no marking */
	u32 ecn_prob;		/* percent at ecn_max */
	u32 trim_at;		/* bytes of data backlog; 0: no trimming */
	u32 trim_size;		/* bytes of IP datagram kept */
	u32 trim_dscp;		/* DSCP of trimmed packets */
	u32 trim_limit;		/* bytes, header queue */
};

struct fab_sched_data {
	struct fab_config cfg;

	/* Queues: trimmed headers are served first (strict priority). */
	struct qdisc_skb_head hdr;
	struct qdisc_skb_head data;
	u32 hdr_bytes;
	u32 data_bytes;

	/* Line rate: earliest departure of the next packet, ns. */
	u64 t_next;
	struct qdisc_watchdog watchdog;

	/* Counters; backlog fields are filled in at dump time. */
	struct tc_fabric_xstats st;
	u64 delay_fine[TC_FABRIC_FINE_BUCKETS];	/* the whole fine histogram */
};

/* Per-packet state in qdisc_skb_cb(skb)->data. */
struct fab_skb_cb {
	u64 enqueue_ns;
};

static inline struct fab_skb_cb *fab_skb_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct fab_skb_cb));
	return (struct fab_skb_cb *)qdisc_skb_cb(skb)->data;
}

/* sch_fabric_trim.c */
bool fab_trimmable(const struct fab_config *cfg, struct sk_buff *skb);
bool fab_trimmed_header(const struct fab_config *cfg, struct sk_buff *skb);
int fab_trim(const struct fab_config *cfg, struct sk_buff *skb);

/* sch_fabric_nl.c */
extern const struct nla_policy fab_policy[TCA_FABRIC_MAX + 1];
int fab_change(struct Qdisc *sch, struct nlattr *opt,
	       struct netlink_ext_ack *extack);
int fab_dump(struct Qdisc *sch, struct sk_buff *skb);
int fab_dump_stats(struct Qdisc *sch, struct gnet_dump *d);
void fab_config_default(struct fab_config *cfg);

/* sch_fabric.c */
bool fab_drop_head(struct Qdisc *sch, struct qdisc_skb_head *qh, u32 *bytes,
		   unsigned int *len);
void fab_set_pkt_len(struct Qdisc *sch, struct sk_buff *skb);

#endif /* _SCH_FABRIC_H */

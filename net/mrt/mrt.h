/* SPDX-License-Identifier: GPL-2.0 */
/* mrt.ko's objects, shared by its files (main.c, sock.c, pdc.c, udp.c).
 * Documentation/networking/mrt.rst has the model; in short:
 *
 *   struct mrt_net   per netns: the UDP tunnel sockets, the bound
 *                    endpoints, the destinations, the PDCs by local id;
 *   struct mrt_sock  an mrt socket: its endpoint, its PDCs, the messages
 *                    complete and waiting for recvmsg();
 *   struct mrt_dest  a destination address with its NSCC window, shared by
 *                    the PDCs to it (qp_groups_enabled) or one per PDC;
 *   struct mrt_pdc   a packet delivery context: one direction of messages
 *                    between a socket and a peer endpoint, with the PSN
 *                    state of net/mrt/psn.c.  The sending side (TX) opens
 *                    it with SYN packets, the receiving side (RX) is made
 *                    by the first one that arrives.
 *
 * Locking: a socket's spinlock (BH) guards its PDCs and messages, taken by
 * sendmsg, recvmsg, the receive path and the PDC timers; a destination's
 * spinlock guards its NSCC state and is taken inside a socket's; the
 * netns's lock guards its hash tables.  Lookups from the receive path run
 * under RCU, and PDCs, sockets and destinations are freed after a grace
 * period.  Packets are built under the socket lock and sent after it is
 * dropped.
 */
#ifndef _NET_MRT_MRT_H
#define _NET_MRT_MRT_H

#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/siphash.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <linux/skbuff.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/fabric/module.h>
#include <net/fabric/nscc.h>
#include <uapi/linux/mrt.h>

#include "engine.h"
#include "ev.h"
#include "psn.h"
#include "wire.h"

/* Attributes: the transport's rows, then NSCC's. */
enum mrt_attr_id {
#define MRT_ATTR(name, kind, def, lo, hi, unit, help) MRT_A_##name,
#include "mrt_attrs.h"
#undef MRT_ATTR
	MRT_A_NSCC,
	MRT_ATTR_COUNT = MRT_A_NSCC + NSCC_ATTR_COUNT
};

#define MRT_A_NSCC_(name)	(MRT_A_NSCC + NSCC_ATTR_##name)

/* NSCC's parameters from mrt's attributes v: trimming_enabled auto is the
 * flavour's page default (engine.h's mrt_trimming()).
 */
static inline void mrt_nscc_params(const u32 *v, struct nscc_params *p)
{
	memcpy(p->v, v + MRT_A_NSCC, sizeof(p->v));
	NSCC_P(p, trimming_enabled) = mrt_trimming(NSCC_P(p, flavour),
						   NSCC_P(p, trimming_enabled));
}

/* Counters of the netns, in /proc/net/mrt/snmp: one EM(id, name) row each.
 * The total_* names are the spec pages' records.
 */
#define MRT_STATS							\
	EM(MRT_S_PKTS_IN, pkts_in)					\
	EM(MRT_S_PKTS_OUT, pkts_out)					\
	EM(MRT_S_TRAINS_IN, gso_trains_in)				\
	EM(MRT_S_TRAINS_REFUSED, gso_trains_refused)			\
	EM(MRT_S_BATCHES_OUT, gso_batches_out)				\
	EM(MRT_S_BATCH_PKTS_OUT, gso_batch_pkts_out)			\
	EM(MRT_S_BYTES_IN, bytes_in)					\
	EM(MRT_S_BYTES_OUT, bytes_out)					\
	EM(MRT_S_DATA_IN, data_pkts_in)					\
	EM(MRT_S_DATA_OUT, data_pkts_out)				\
	EM(MRT_S_ACKS_IN, acks_in)					\
	EM(MRT_S_ACKS_OUT, acks_out)					\
	EM(MRT_S_NACKS_IN, nacks_in)					\
	EM(MRT_S_NACKS_OUT, nacks_out)					\
	EM(MRT_S_MSGS_OUT, msgs_sent)					\
	EM(MRT_S_MSGS_IN, msgs_delivered)				\
	EM(MRT_S_MSGS_CONFIRMED, msgs_confirmed)			\
	EM(MRT_S_MSGS_FAILED, msgs_failed)				\
	EM(MRT_S_TRIMMED_IN, trimmed_pkts_in)				\
	EM(MRT_S_NACK_TRIMMED, total_nack_trimmed_rx)			\
	EM(MRT_S_NACK_TRIMMED_LASTHOP, total_nack_trimmed_lasthop_rx)	\
	EM(MRT_S_NACK_OOR, nack_psn_oor_window_rx)			\
	EM(MRT_S_NACK_NO_ENDPOINT, nack_no_endpoint_rx)			\
	EM(MRT_S_NACK_INV_DPDCID, nack_inv_dpdcid_rx)			\
	EM(MRT_S_NACK_NO_RESOURCE, nack_no_resource_rx)			\
	EM(MRT_S_NACK_STALE, nack_stale_rx)				\
	EM(MRT_S_RTX_SACK, total_rtx_sack)				\
	EM(MRT_S_SACK_LOSSES, sack_losses)				\
	EM(MRT_S_SACK_FALSE, sack_losses_false)				\
	EM(MRT_S_RTX_TRIM, rtx_trim)					\
	EM(MRT_S_RTX_RTO, rtx_rto)					\
	EM(MRT_S_RTO_EVENTS, total_rto_events)				\
	EM(MRT_S_RTO_SLOW, rto_ev_slow)					\
	EM(MRT_S_QA, total_qa_count)					\
	EM(MRT_S_FI, total_fi_count)					\
	EM(MRT_S_RETRY_EXHAUSTED, retry_budget_exhausted)		\
	EM(MRT_S_DUP_IN, dup_pkts_in)					\
	EM(MRT_S_OOR_IN, oor_pkts_in)					\
	EM(MRT_S_STRAY_IN, stray_pkts_in)				\
	EM(MRT_S_RCVBUF_DROPS, rcvbuf_drops)				\
	EM(MRT_S_NO_ENDPOINT, no_endpoint)				\
	EM(MRT_S_UNKNOWN_PDC, unknown_pdc)				\
	EM(MRT_S_BAD_KEY, bad_key_in)					\
	EM(MRT_S_NONUNICAST, nonunicast_in)				\
	EM(MRT_S_COOKIES_OUT, cookies_out)				\
	EM(MRT_S_COOKIES_IN, cookie_nacks_in)				\
	EM(MRT_S_SYN_NO_COOKIE, syn_no_cookie)				\
	EM(MRT_S_ANSWERS_LIMITED, answers_ratelimited)			\
	EM(MRT_S_PDC_LIMIT, pdc_limit)					\
	EM(MRT_S_RX_PDC_LIMIT, rx_pdc_limit)				\
	EM(MRT_S_RX_PDC_ADDR_LIMIT, rx_pdc_addr_limit)			\
	EM(MRT_S_SOCK_PDC_LIMIT, sock_pdc_limit)			\
	EM(MRT_S_PARTIAL_EXPIRED, partial_msgs_expired)			\
	EM(MRT_S_PARTIAL_LIMIT, partial_msg_limit)			\
	EM(MRT_S_MSG_TOO_BIG, msg_too_big)				\
	EM(MRT_S_NACK_TOO_BIG, nack_msg_too_big_rx)			\
	EM(MRT_S_ACK_CLOSING, ack_closing_rx)				\
	EM(MRT_S_PDCS_RESET, rx_pdcs_reset)				\
	EM(MRT_S_PDCS_OPENED, pdcs_opened)				\
	EM(MRT_S_PDCS_CLOSED, pdcs_closed)				\
	EM(MRT_S_ROUTE_ERRORS, route_errors)				\
	EM(MRT_S_TRIM_UNSEEN, trimming_no_trims)			\
	EM(MRT_S_LINK_FALLBACK, link_speed_fallbacks)			\
	EM(MRT_S_MARKED_SENT, m_marked_pkts_sent)			\
	EM(MRT_S_MARKED_RCVD, m_marked_pkts_rcvd)			\
	EM(MRT_S_ALLOC_FAIL, alloc_failures)				\
	EM(MRT_S_ACK_UNSENT, ack_unsent_psns)				\
	EM(MRT_S_BAD_REASSEMBLY, bad_reassembly)			\
	EM(MRT_S_OVERSIZE, oversize_msgs)				\
	EM(MRT_S_ERRQ_DROPS, errq_drops)				\
	EM(MRT_S_CTRL_IN, ctrl_in)					\
	EM(MRT_S_EV_SKIP, ev_to_skip)					\
	EM(MRT_S_EV_BAD, ev_to_assumed_bad)				\
	EM(MRT_S_EV_PROBED_GOOD, ev_probed_good)			\
	EM(MRT_S_EV_DENIED, ev_to_denied)				\
	EM(MRT_S_EV_NONE, ev_none_usable)				\
	EM(MRT_S_PROBES_OUT, probes_out)				\
	EM(MRT_S_PROBES_IN, probes_in)					\
	EM(MRT_S_PROBE_ACKS_IN, probe_acks_in)				\
	EMe(MRT_S_CLOSING_IN, closing_pkts_in)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_stat { MRT_STATS MRT_S_COUNT };
#undef EM
#undef EMe

/* The counter index of malformed reason r (enum mrt_malformed). */
#define MRT_S_MALFORMED(r)	(MRT_S_COUNT + (r))
/* ... and of NSCC routine r (enum nscc_routine). */
#define MRT_S_ROUTINE(r)	(MRT_S_COUNT + MRT_BAD_COUNT + (r))

extern struct fabric_module mrt_fabric;

/* An address of either family: v4 as a v4-mapped IPv6 address. */
struct mrt_addr {
	struct in6_addr a;
};

static inline bool mrt_addr_eq(const struct mrt_addr *x, const struct mrt_addr *y)
{
	return ipv6_addr_equal(&x->a, &y->a);
}

static inline bool mrt_addr_any(const struct mrt_addr *x)
{
	return ipv6_addr_any(&x->a) ||
	       (ipv6_addr_v4mapped(&x->a) && !x->a.s6_addr32[3]);
}

static inline __be32 mrt_addr_v4(const struct mrt_addr *x)
{
	return x->a.s6_addr32[3];
}

static inline void mrt_addr_set_v4(struct mrt_addr *x, __be32 v4)
{
	ipv6_addr_set_v4mapped(v4, &x->a);
}

#define MRT_EP_HASH_BITS	8
#define MRT_DEST_HASH_BITS	8
#define MRT_SOCK_PDC_BITS	6
#define MRT_RMSG_BITS		6
#define MRT_LINGER_BITS		6
#define MRT_SRC_BITS		8
#define MRT_ANSWER_BITS		8

/* The keyed hash of the tables that packets index (PDCs, messages being
 * reassembled, lingering PDCs): a per-boot random key (mrt_hash_init()),
 * so that no one can choose ids that share a bucket.
 */
u32 mrt_hash(const void *data, size_t len);
void mrt_hash_init(void);

/* The pages' transport-stats records of the netns (main.c's "records"
 * counters): RTT samples since the netns began and in the last whole
 * period (MRT_REC_PERIOD_NS, the "ivl_" forms), Quick Adapt firings and
 * fast-increase steps per period.  Per cpu, written with BHs off; a
 * period's accumulators roll over lazily, at the cpu's first sample of
 * a new period, and a reader takes each cpu's last whole period as the
 * cpu's period number says.
 */
#define MRT_REC_PERIOD_NS	NSEC_PER_SEC

struct mrt_rec_acc {
	u64 n, sum, min, max;		/* RTT samples, ns */
};

struct mrt_rec_cpu {
	u64 period;			/* the current period: ns / period */
	struct mrt_rec_acc total, cur, last;
	u64 qa_cur, qa_last, fi_cur, fi_last;
};

struct mrt_net {
	struct net *net;
	struct fabric_net *fn;
	struct mrt_rec_cpu __percpu *rec;
	/* the lowest base RTT any window has reached, once a sample came
	 * (the MRC page's base_rtt_ns); 0 before
	 */
	atomic64_t rec_base_rtt;
	/* The UDP tunnel sockets, open for the netns's life (udp.c's
	 * mrt_tunnel_init()); a change of udp_port takes effect with the
	 * first mrt socket after the netns had none.
	 */
	struct mutex tun_lock;
	unsigned int tun_users;
	struct socket *tun4;
	struct socket *tun6;
	__be16 port;			/* the tunnels' port */
	atomic_t tun_puts;		/* closed sockets' puts, for tun_work */
	struct work_struct tun_work;
	spinlock_t lock;		/* eps, dests, solo, deny */
	struct mutex ev_set_lock;	/* EV_SETs one at a time: their own
					 * events in the order of their changes
					 */
	struct hlist_head eps[1 << MRT_EP_HASH_BITS];
	struct hlist_head dests[1 << MRT_DEST_HASH_BITS];
	struct hlist_head solo;		/* destinations not grouped */
	struct list_head deny;		/* struct mrt_deny, the admin's rules */
	unsigned int ndeny;
	struct xarray pdcs;		/* local PDC id -> struct mrt_pdc */
	atomic_t npdcs;
	struct delayed_work gc;		/* idle PDCs */
	/* Answers for no PDC here, per source prefix (mrt_answer_ok()): [0]
	 * NACKs (no PDC, no socket, no room), [1] cookies.
	 */
	u64 answers[2][1 << MRT_ANSWER_BITS];
	/* Lingering receiving PDCs (their sockets closed) by peer, peer's
	 * endpoint and PDC id: a SYN retransmission finds its PDC here
	 * before any socket that took the endpoint since.  Writers hold
	 * linger_lock; readers RCU.
	 */
	spinlock_t linger_lock;
	struct hlist_head linger[1 << MRT_LINGER_BITS];
	/* Receiving PDCs: their number, and per source address (struct
	 * mrt_src, under src_lock).
	 */
	atomic_t nrx;
	spinlock_t src_lock;		/* srcs */
	struct hlist_head srcs[1 << MRT_SRC_BITS];
	siphash_key_t cookie_key;	/* the secret of SYN cookies */
};

/* A source address with receiving PDCs: how many (max_rx_pdcs_per_addr),
 * and the grouped destination of that address if there is one: the
 * pages' group "lives while any QP to or from the destination is open",
 * so these PDCs hold its window as sending PDCs do.
 */
struct mrt_src {
	struct hlist_node node;		/* mrt_net.srcs */
	struct mrt_addr addr;
	u32 n;
	struct mrt_dest *dest;		/* a reference, or NULL */
	struct rcu_head rcu;
};

struct mrt_net *mrt_net(const struct net *net);

/* An administrator's deny rule: EVs lo..hi of destination addr are DENIED
 * (MRT_NL_CMD_EV_SET), in every destination at addr, now or later.
 */
struct mrt_deny {
	struct list_head node;		/* mrt_net.deny */
	struct mrt_addr addr;
	u16 lo;
	u16 hi;
};

#define MRT_DENY_MAX	256U

/* The mrt_net.dests bucket of address a. */
static inline u32 mrt_dest_hash(const struct mrt_addr *a)
{
	return mrt_hash(&a->a, sizeof(a->a)) >> (32 - MRT_DEST_HASH_BITS);
}

static inline void mrt_stat(struct mrt_net *mn, unsigned int i, u64 v)
{
	fabric_net_stat_add(mn->fn, i, v);
}

static inline u32 mrt_attr(const struct mrt_net *mn, unsigned int id)
{
	return fabric_net_attr(mn->fn, id);
}

/* Per-socket counters (MRT_INFO). */
struct mrt_sock_stats {
	u64 msgs_sent;
	u64 msgs_rcvd;
	u64 msgs_failed;
	u64 rtx_sack;
	u64 rtx_trim;
	u64 rtx_rto;
	u64 rto_events;
	u64 trims;
	u64 rcvbuf_drops;
};

struct mrt_sock {
	struct inet_sock inet;		/* first: an inet socket */
	spinlock_t lock;		/* PDCs, messages, the fields below */
	struct mrt_net *mn;
	u16 ep;				/* bound endpoint, 0: none */
	bool bound_addr;		/* bound to an address, not any */
	bool hashed;
	bool tunnel;			/* holds mrt_tunnel_get() */
	void (*inet_destruct)(struct sock *sk);
	bool dead;			/* released: no new PDCs */
	bool connected;
	bool ordered;			/* MRT_ORDERED */
	/* the PDC whose packets wait for the rest of a sendmmsg() (MSG_BATCH)
	 * before they are pushed, if any
	 */
	struct mrt_pdc *batch_pdc;
	bool confirm;			/* MRT_CONFIRM */
	u32 evs;			/* MRT_EVS: base << 16 | count, one
					 * word so that a reader never sees
					 * half of a change; 0: the netns's
					 */
	u8 family;
	struct mrt_addr addr;		/* bound address, or any */
	struct mrt_addr peer;		/* connect()'s */
	u16 peer_ep;
	struct hlist_node ep_node;	/* mrt_net.eps */
	struct hlist_head pdcs[1 << MRT_SOCK_PDC_BITS];
	struct list_head pdc_list;
	struct list_head rxq;		/* complete messages, struct mrt_rmsg */
	unsigned int rxq_len;
	unsigned int nheld;		/* ordered: complete, not yet due */
	struct list_head partial;	/* messages being reassembled, oldest first */
	atomic_t npdcs[2];		/* its PDCs by role (max_pdcs_per_sock) */
	/* MRT_INFO: the peer last sent to, whose window it reports while a
	 * PDC to it is open
	 */
	struct mrt_addr info_peer;
	u16 info_ep;
	bool info_set;
	/* Reports (struct mrt_tmsg) for which softirq found no memory:
	 * report_work queues them, in order, with GFP_KERNEL.  Each stays
	 * on the list until it is queued, so that a newer report never
	 * overtakes it.
	 */
	struct list_head reports;
	struct work_struct report_work;
	struct mrt_sock_stats st;
};

static inline struct mrt_sock *mrt_sk(const struct sock *sk)
{
	return (struct mrt_sock *)sk;
}

/* The IPv6 socket: ipv6_pinfo last, where inet6_sk_generic() finds it. */
struct mrt6_sock {
	struct mrt_sock ms;
	struct ipv6_pinfo inet6;
};

struct mrt_dest {
	struct hlist_node node;		/* mrt_net.dests if grouped, else .solo */
	refcount_t ref;
	struct mrt_net *mn;
	struct mrt_addr addr;
	bool grouped;
	bool own_evs;			/* its EV set is a socket's (MRT_EVS) */
	u32 gen;			/* the attributes it was made with,
					 * hashed (pdc.c's mrt_dest_digest()):
					 * a new PDC takes a destination made
					 * with the current ones only
					 */
	u32 cookie;			/* the peer host's last cookie, 0: none */
	spinlock_t lock;		/* cc, evs, waiters */
	struct nscc cc;
	struct mrt_evset evs;		/* its EVs, memory after the struct */
	u32 nominal;			/* a full packet's nominal bytes */
	u32 srtt_us;			/* the last PDC's smoothed RTT */
	u8 pen;				/* the last receiver penalty seen */
	unsigned long flags;		/* MRT_DEST_* bits */
	u64 qa_seen;			/* cc.st.qa_count, fi_count counted */
	u64 fi_seen;
	struct list_head waiters;	/* PDCs waiting for the window, or for
					 * an allow (every EV DENIED)
					 */
	/* Under lock: an EV_SET's walk collects its events here, sent once
	 * it lets go of mn->lock; NULL: each is sent at once.
	 */
	struct sk_buff_head *ntf_defer;
	bool ntf_lost;			/* some did not fit in it */
	struct rcu_head rcu;
};

/* mrt_dest.flags: a trim NACK came from it; the MRC page's validation
 * warning (trimming on, packets to it lost, no trim NACK) was given.
 */
#define MRT_DEST_TRIM_SEEN	0
#define MRT_DEST_TRIM_WARNED	1

/* What follows an error-queue skb's data (the cookie): its peer. */
struct mrt_errq_tail {
	struct mrt_addr peer;
	u16 peer_ep;
	u8 family;
};

struct mrt_tmsg {
	struct list_head node;		/* mrt_pdc.tmsgs, then, as a report
					 * that waits for memory,
					 * mrt_sock.reports
					 */
	u64 cookie;
	u32 len;
	u32 pkts_left;
	u16 msg_id;
	int err;			/* the report's: 0 delivered */
	bool streaming;			/* its sendmsg() is queueing it still */
	bool unlinked;			/* ... and its PDC failed (err) */
	struct mrt_errq_tail who;	/* the report's peer */
};

/* What a payload skb on the send queue carries (skb->cb). */
struct mrt_tx_cb {
	struct mrt_tmsg *msg;
	u32 off;
	u8 flags;			/* SOM, EOM */
};

#define MRT_TX_CB(skb)	((struct mrt_tx_cb *)(skb)->cb)

/* A payload of at most this many bytes is the skb's own data, copied
 * into each transmission; a longer one is in page fragments, shared.
 */
#define MRT_TX_LINEAR_MAX	256

/* A message being received. */
struct mrt_rmsg {
	struct hlist_node hnode;	/* mrt_pdc.rmsgs */
	struct list_head node;		/* mrt_sock.partial, then .rxq */
	struct sk_buff_head frags;
	struct mrt_pdc *pdc;		/* whose, while being reassembled */
	struct mrt_addr peer;
	u16 peer_ep;
	u16 msg_id;
	u32 len;
	u32 got;
	u32 held;			/* the truesize of its fragments */
	u64 last_ns;			/* its last packet (partial_msg_timeout_ms) */
	u8 family;
	bool sorted;			/* recvmsg() sorted and checked its frags */
};

/* A received payload's place in its message, and in its skb (skb->cb):
 * the len bytes at start.
 */
struct mrt_rx_cb {
	u32 off;
	u32 start;
	u32 len;
};

#define MRT_RX_CB(skb)	((struct mrt_rx_cb *)(skb)->cb)

enum mrt_pdc_role { MRT_PDC_TX, MRT_PDC_RX };

/* Per-PDC counters (the mrt netlink family's PDC dump); each counts for
 * the role that has it, under the socket's lock.
 */
struct mrt_pdc_stats {
	u64 pkts;			/* data sent; RX: new data received */
	u64 msgs;			/* acknowledged whole; RX: received whole */
	u64 trims;			/* trim NACKs in; RX: trimmed packets in */
	u64 ecn;			/* ECN echoes in; RX: CE packets in */
	u64 rtx_sack;
	u64 rtx_trim;
	u64 rtx_rto;
	u64 rto_events;
};

#define MRT_PDC_STATES				\
	EM(MRT_PDC_SYN, syn)			\
	EM(MRT_PDC_OPEN, open)			\
	EM(MRT_PDC_CLOSED, closed)		\
	EMe(MRT_PDC_LINGER, linger)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_pdc_state { MRT_PDC_STATES };
#undef EM
#undef EMe

struct mrt_pdc {
	struct mrt_sock *ms;		/* holds a reference */
	struct mrt_net *mn;
	struct mrt_dest *dest;		/* TX: holds a reference */
	struct hlist_node hnode;	/* mrt_sock.pdcs */
	struct hlist_node lnode;	/* mrt_net.linger, while lingering */
	struct list_head snode;		/* mrt_sock.pdc_list */
	struct list_head wait_node;	/* mrt_dest.waiters */
	struct rcu_head rcu;
	/* lid to rkey, and the PSNs, are what a packet forged into the PDC
	 * needs: /proc and netlink show them to CAP_NET_ADMIN only
	 */
	u16 lid;			/* ours */
	u16 rid;			/* the peer's; TX: 0 until its first answer */
	u32 key;			/* ours, random, never 0: every packet to
					 * this half carries it (dkey)
					 */
	u32 rkey;			/* the peer half's; TX: 0 until its first
					 * answer
					 */
	u8 role;
	u8 state;
	u8 family;
	bool dead;
	bool linked;			/* on its socket: others may use it */
	struct mrt_addr peer;
	struct mrt_addr local;		/* any: the route's */
	u16 peer_ep;
	u16 ev;				/* TX: the EV (UDP source port) of its
					 * last packet
					 */
	u32 range;
	u64 last_ns;			/* last packet in or out; RX
					 * lingering: since it lingers, the
					 * last duplicate it acknowledged
					 */
	u64 progress_ns;		/* TX: last ACK of something new; RX
					 * lingering: when it began
					 */
	u32 syn_psn;			/* RX: the start_psn of its SYNs */
	struct mrt_src *src;		/* RX: its source address's count */
	int xmit_err;			/* the last send's route error, or 0 */
	struct mrt_pdc_stats st;

	/* TX: the engine's state (engine.h), and each PSN's payload */
	struct mrt_snd snd;
	struct sk_buff **skbs;		/* [range], by PSN as snd.slots */
	u32 start_psn;
	struct sk_buff_head sendq;	/* payloads without a PSN yet */
	struct list_head tmsgs;
	u16 next_msg_id;
	u32 ntmsgs;
	u64 timer_at;			/* the timer's expiry, 0: not armed */
	bool waiting;			/* on dest->waiters */
	bool monitor;			/* the UET monitor logs its packets */
	struct hrtimer timer;
	struct dst_cache dst;

	/* RX */
	struct mrt_rx rx;
	struct hlist_head rmsgs[1 << MRT_RMSG_BITS];
	struct list_head held;		/* ordered: complete, not yet due */
	u32 npartial;			/* messages being reassembled (rmsgs) */
	u64 held_bytes;			/* the truesize of those on held */
	u16 next_deliver;
	u32 since_ack;
	u8 last_pen;			/* the penalty of the last ACK */

	u64 bits[];			/* the PSN bitmaps */
};

/* Messages in flight per PDC: half the msg_id space. */
#define MRT_MAX_TMSGS		32768

/* Room for the link, IP (v6), UDP and mrt headers. */
#define MRT_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr) + MRT_DATA_HDR_LEN)

/* udp.c */
int mrt_tunnel_get(struct mrt_net *mn);
void mrt_tunnel_init(struct mrt_net *mn);
void mrt_tunnel_exit(struct mrt_net *mn);
void mrt_tunnel_put_work(struct work_struct *w);

/* What an skb to be sent carries (skb->cb): where it goes. */
struct mrt_xmit_cb {
	struct mrt_pdc *pdc;		/* or NULL: no route cache */
	struct in6_addr saddr;
	struct in6_addr daddr;
	__be16 sport;
	u8 tos;
	u8 family:6,
	   data:1,			/* a data packet of pdc's, PSN psn */
	   ack:1;			/* ACKs of pdc's (mrt_send_ack()) */
	u32 psn;
};

#define MRT_XMIT_CB(skb)	((struct mrt_xmit_cb *)(skb)->cb)

/* Sends every skb of q; BH off, under RCU.  Each data packet's departure
 * time goes back to its PDC (mrt_snd_departed()) once it has left.
 */
void mrt_xmit_queue(struct mrt_net *mn, struct sk_buff_head *q);
/* main.c: the records (struct mrt_rec_cpu), BHs off. */
void mrt_rec_rtt(struct mrt_net *mn, u64 now, u64 rtt_ns, u64 base_rtt_ns);
void mrt_rec_steps(struct mrt_net *mn, u64 now, u64 qa, u64 fi);

/* Process context: the speed (Mbit/s) of the device the route to "to"
 * leaves by, as its driver reports it; 0 if unknown (no route, a device
 * that reports none).
 */
u32 mrt_route_mbps(struct mrt_net *mn, u8 family, const struct mrt_addr *to);
struct sk_buff *mrt_alloc_ctl(unsigned int hlen);

/* pdc.c */
/* A train: the datagrams one receive hands mrt (one, or the segments of
 * a GSO skb), taken one after another, a socket's lock held from one of
 * its packets to the next.  Their answers wait in out, and a sending PDC
 * that ACKs opened sends (push) once the ACKs of the train for it are
 * in, so that it sends in batches; both at mrt_train_end(), which lets
 * the lock go first.  Under RCU, BHs off.
 */
struct mrt_train {
	struct sk_buff_head out;
	struct mrt_pdc *push;
	struct mrt_sock *ms;		/* whose lock the train holds, if any */
	/* a GSO skb's segments are read where they lie, never cut into
	 * skbs of their own: gso is that skb (the caller's, freed at the
	 * end), a payload kept gets an skb of its bytes' fragments, which
	 * holds at least share (pdc.c's mrt_rx_keep()); NULL: the one
	 * datagram is the skb, handed over whole
	 */
	struct sk_buff *gso;
	unsigned int share;
	/* the skb kept for the train's last payload, and its message: the
	 * next bytes of that message join it (pdc.c's mrt_rx_ext())
	 */
	struct sk_buff *ext;
	struct mrt_rmsg *ext_m;
	u64 now;			/* the train's arrival, one clock read */
};

/* A received mrt packet of train t: the len bytes at offset off of skb
 * (skb->data at the mrt header for a datagram of its own, off 0).
 */
void mrt_rcv(struct mrt_net *mn, struct sk_buff *skb, unsigned int off,
	     unsigned int len, const struct mrt_addr *src,
	     const struct mrt_addr *dst, u8 family, u8 dsfield,
	     struct mrt_train *t);
void mrt_train_end(struct mrt_net *mn, struct mrt_train *t);
/* Under ms->lock: the sending PDC to peer, if any. */
struct mrt_pdc *mrt_pdc_tx_find(struct mrt_sock *ms, const struct mrt_addr *peer,
				u16 peer_ep);
/* Process context, no lock: a new sending PDC, not yet linked; then
 * under ms->lock, mrt_pdc_tx_link() or mrt_pdc_close().
 */
struct mrt_pdc *mrt_pdc_tx_new(struct mrt_sock *ms, const struct mrt_addr *peer,
			       u16 peer_ep, int *err);
void mrt_pdc_tx_link(struct mrt_sock *ms, struct mrt_pdc *pdc);
void mrt_pdc_push(struct mrt_pdc *pdc, struct sk_buff_head *out);
/* Under ms->lock: packets queued on pdc wait for more of a sendmmsg(). */
void mrt_pdc_batch_wait(struct mrt_pdc *pdc);
void mrt_pdc_close(struct mrt_pdc *pdc, int err, struct sk_buff_head *out);
void mrt_dest_kick(struct mrt_dest *d, const struct mrt_pdc *pushed);
void mrt_dest_put(struct mrt_dest *d);
void mrt_sock_close_pdcs(struct mrt_sock *ms);
void mrt_gc_work(struct work_struct *w);
/* mrt's own workqueue (socket work), drained when the module goes. */
extern struct workqueue_struct *mrt_wq;
u32 mrt_nominal(u8 family, u32 payload);
/* The RTO pdc's timers run on now, in microseconds. */
u32 mrt_rto_now_us(const struct mrt_pdc *pdc);
void mrt_report_work(struct work_struct *w);
/* Process context: sorts a complete message's fragments; false if they
 * do not make its bytes once each.
 */
bool mrt_rmsg_whole(struct mrt_rmsg *m);

/* proc.c */
int mrt_proc_init(struct net *net, struct proc_dir_entry *dir);

/* netlink.c */
int mrt_genl_init(void);
void mrt_genl_exit(void);
/* Under mn->lock: the deny rules on a new destination, before it is
 * published (no notes).
 */
void mrt_deny_apply(struct mrt_net *mn, struct mrt_dest *d);
void mrt_deny_flush(struct mrt_net *mn);
/* An EV state change of d (under d->lock): the "events" group hears it. */
void mrt_nl_ev_notify(struct mrt_dest *d, unsigned int i, u8 from, u8 to,
		      u8 why);

/* sock.c */
int mrt_sock_register(void);
void mrt_sock_unregister(void);
struct mrt_sock *mrt_ep_lookup(struct mrt_net *mn, u8 family, u16 ep,
			       const struct mrt_addr *daddr);
void mrt_sock_deliver(struct mrt_sock *ms, struct mrt_rmsg *m);
int mrt_unicast_check(struct net *net, u8 family, const struct mrt_addr *addr);
void mrt_sock_wake_tx(struct mrt_sock *ms);

#endif /* _NET_MRT_MRT_H */

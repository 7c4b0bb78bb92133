// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's packet delivery contexts: the sender (PSNs, retransmission on trim
 * NACKs, SACK gaps and timers, NSCC per destination), the receiver (PSN
 * window, SACKs with the received-bytes clock, NACKs, reassembly), and the
 * receive path's dispatch.  The PSN arithmetic is net/mrt/psn.c's and the
 * window NSCC's (net/nscc/nscc_core.c), and what the sender and the
 * receiver decide with them is net/mrt/engine.c's (pure, shared with
 * fabsim); this file holds them together with skbs, sockets, locks and
 * timers.
 */
#include <linux/errqueue.h>
#include <linux/list_sort.h>
#include <linux/ratelimit.h>
#include <net/inet_ecn.h>
#include <net/sock.h>

#include "mrt.h"

#define CREATE_TRACE_POINTS
#include "mrt_trace.h"

/* Error-queue entries a full receive buffer still takes. */
#define MRT_ERRQ_MIN	1024

/* The nominal bytes of a packet with this payload: its IP datagram. */
u32 mrt_nominal(u8 family, u32 payload)
{
	return (family == AF_INET ? sizeof(struct iphdr) : sizeof(struct ipv6hdr)) +
	       sizeof(struct udphdr) + MRT_DATA_HDR_LEN + payload +
	       mrt_data_pad(payload);
}

static u64 mrt_now(void)
{
	return ktime_get_ns();
}

/* Destinations */

/* An EV of d changed state (under d->lock): the netns's counters. */
static void mrt_ev_note(void *ctx, unsigned int i, u8 from, u8 to, u8 why)
{
	struct mrt_dest *d = ctx;

	switch (to) {
	case MRT_EV_SKIP:
		mrt_stat(d->mn, MRT_S_EV_SKIP, 1);
		break;
	case MRT_EV_ASSUMED_BAD:
		mrt_stat(d->mn, MRT_S_EV_BAD, 1);
		break;
	case MRT_EV_DENIED:
		mrt_stat(d->mn, MRT_S_EV_DENIED, 1);
		break;
	case MRT_EV_GOOD:
		if (why == MRT_EV_WHY_PROBE)
			mrt_stat(d->mn, MRT_S_EV_PROBED_GOOD, 1);
		break;
	}
	/* the destination has nothing left to send data on */
	if (!d->evs.usable && (from == MRT_EV_GOOD || from == MRT_EV_SKIP))
		mrt_stat(d->mn, MRT_S_EV_NONE, 1);
	trace_mrt_ev_state(d, i, from, to, why);
	mrt_nl_ev_notify(d, i, from, to, why);
}

/* The destination at a in bucket h with a reference, or NULL; under
 * mn->lock.  own: the EV set base, count of a socket's MRT_EVS, which only
 * a destination of that same set matches; else one of the netns's sets.
 */
/* The attributes a destination is made with (its EV set, its NSCC, the
 * nominal packet), hashed: a destination is shared only by PDCs that
 * would make the same one.
 */
static u32 mrt_dest_digest(const u32 *v)
{
	u32 k[7 + NSCC_ATTR_COUNT];

	k[0] = v[MRT_A_mss];
	k[1] = v[MRT_A_ev_base];
	k[2] = v[MRT_A_ev_count];
	k[3] = v[MRT_A_ev_policy];
	k[4] = v[MRT_A_ev_bad_losses];
	k[5] = v[MRT_A_rto_min_us];
	k[6] = v[MRT_A_rto_max_us];
	memcpy(k + 7, v + MRT_A_NSCC, NSCC_ATTR_COUNT * sizeof(u32));
	return mrt_hash(k, sizeof(k));
}

/* The digest of mn's attributes now. */
static u32 mrt_dest_digest_now(struct mrt_net *mn)
{
	u32 v[MRT_ATTR_COUNT];

	fabric_net_params(mn->fn, v);
	return mrt_dest_digest(v);
}

static struct mrt_dest *mrt_dest_hold(struct hlist_head *h,
				      const struct mrt_addr *a, bool own,
				      u16 base, u16 count, unsigned int gen)
{
	struct mrt_dest *d;

	hlist_for_each_entry(d, h, node)
		if (mrt_addr_eq(&d->addr, a) && d->own_evs == own && d->gen == gen &&
		    (!own || (d->evs.p.base == base && d->evs.p.count == count)) &&
		    refcount_inc_not_zero(&d->ref))
			return d;
	return NULL;
}

static u32 mrt_src_hash(const struct mrt_addr *a)
{
	return mrt_hash(&a->a, sizeof(a->a)) >> (32 - MRT_SRC_BITS);
}

/* A new grouped destination d (the netns's EV set): receiving PDCs open
 * from its address hold it too, from now on.
 */
static void mrt_src_attach(struct mrt_net *mn, struct mrt_dest *d)
{
	struct mrt_dest *old = NULL;
	struct mrt_src *src;

	spin_lock_bh(&mn->src_lock);
	hlist_for_each_entry(src, &mn->srcs[mrt_src_hash(&d->addr)], node) {
		if (!mrt_addr_eq(&src->addr, &d->addr))
			continue;
		/* one made with attributes since changed gives way */
		if (!src->dest || src->dest->gen != d->gen) {
			old = src->dest;
			refcount_inc(&d->ref);
			WRITE_ONCE(src->dest, d);
		}
		break;
	}
	spin_unlock_bh(&mn->src_lock);
	if (old)
		mrt_dest_put(old);
}

/* The destination for ms's PDCs to a: the netns's EV set, or with ms's
 * MRT_EVS its own.
 */
static struct mrt_dest *mrt_dest_get(struct mrt_net *mn, struct mrt_sock *ms,
				     const struct mrt_addr *a, gfp_t gfp)
{
	u32 evs = READ_ONCE(ms->evs);
	u16 own_base = evs >> 16, own_count = evs & 0xffff;
	bool own = own_count;
	u8 family = ms->family;
	bool grouped = mrt_attr(mn, MRT_A_qp_groups_enabled);
	struct hlist_head *h = &mn->dests[mrt_dest_hash(a)];
	struct mrt_ev_params ep = {
		.skip_ecn = 1, .skip_trim = 4, .skip_max = 64,
	};
	u32 v[MRT_ATTR_COUNT];
	u32 gen;
	struct nscc_params p;
	struct mrt_dest *d, *o;

	fabric_net_params(mn->fn, v);
	gen = mrt_dest_digest(v);
	if (grouped) {
		spin_lock_bh(&mn->lock);
		d = mrt_dest_hold(h, a, own, own_base, own_count, gen);
		spin_unlock_bh(&mn->lock);
		if (d)
			return d;
	}
	ep.base = own ? own_base : v[MRT_A_ev_base];
	ep.count = own ? own_count : v[MRT_A_ev_count];
	ep.policy = v[MRT_A_ev_policy];
	ep.bad_losses = v[MRT_A_ev_bad_losses];
	/* probes from one RTO floor on, doubling up to the RTO ceiling */
	ep.probe_ns = (u64)v[MRT_A_rto_min_us] * NSEC_PER_USEC;
	ep.probe_max_ns = (u64)v[MRT_A_rto_max_us] * NSEC_PER_USEC;
	d = kzalloc(sizeof(*d) + mrt_evset_bytes(ep.count), gfp);
	if (!d)
		return NULL;
	/* the attributes' check keeps the set valid */
	if (WARN_ON_ONCE(mrt_evset_init(&d->evs, &ep, d + 1, get_random_u32()))) {
		kfree(d);
		return NULL;
	}
	d->evs.ctx = d;
	refcount_set(&d->ref, 1);
	d->mn = mn;
	d->addr = *a;
	d->grouped = grouped;
	d->own_evs = own;
	d->gen = gen;
	spin_lock_init(&d->lock);
	INIT_LIST_HEAD(&d->waiters);
	mrt_nscc_params(v, &p);
	/* data_rate_mbps 0: the egress device's speed, as for TCP */
	if (!NSCC_P(&p, data_rate_mbps)) {
		u32 mbps = mrt_route_mbps(mn, family, a);

		if (mbps) {
			NSCC_P(&p, data_rate_mbps) =
				min(mbps, nscc_attr_descs[NSCC_ATTR_data_rate_mbps].max);
		} else {
			NSCC_P(&p, data_rate_mbps) = FABRIC_LINK_MBPS_FALLBACK;
			mrt_stat(mn, MRT_S_LINK_FALLBACK, 1);
		}
	}
	d->nominal = mrt_nominal(family, v[MRT_A_mss]);
	nscc_init(&d->cc, &p, d->nominal, mrt_now());
	spin_lock_bh(&mn->lock);
	/* another sender may have made it meanwhile */
	o = grouped ? mrt_dest_hold(h, a, own, own_base, own_count, gen) : NULL;
	if (o) {
		spin_unlock_bh(&mn->lock);
		kfree(d);
		return o;
	}
	/* The rules, as the set is born (no transitions to note); under the
	 * lock an EV_SET holds, so that no rule is missed.
	 */
	mrt_deny_apply(mn, d);
	d->evs.note = mrt_ev_note;
	hlist_add_head_rcu(&d->node, grouped ? h : &mn->solo);
	spin_unlock_bh(&mn->lock);
	if (grouped && !own)
		mrt_src_attach(mn, d);
	return d;
}

/* The last put unlinks it under mn->lock, so that a walk under that lock
 * (EV_SET) never meets a destination whose count reached zero.
 */
void mrt_dest_put(struct mrt_dest *d)
{
	struct mrt_net *mn = d->mn;

	spin_lock_bh(&mn->lock);
	if (refcount_dec_and_test(&d->ref)) {
		hlist_del_rcu(&d->node);
		kfree_rcu(d, rcu);
	}
	spin_unlock_bh(&mn->lock);
}

/* Counts what an NSCC call for pdc's destination did (its routine r, and
 * the Quick Adapt and fast-increase steps since the last call), and
 * traces it; under the destination's lock.
 */
static void mrt_cc(struct mrt_pdc *pdc, enum nscc_routine r)
{
	struct mrt_dest *d = pdc->dest;
	struct mrt_net *mn = pdc->mn;

	u64 qa = d->cc.st.qa_count - d->qa_seen, fi = d->cc.st.fi_count - d->fi_seen;

	mrt_stat(mn, MRT_S_ROUTINE(r), 1);
	if (qa || fi) {
		mrt_stat(mn, MRT_S_QA, qa);
		mrt_stat(mn, MRT_S_FI, fi);
		d->qa_seen = d->cc.st.qa_count;
		d->fi_seen = d->cc.st.fi_count;
		mrt_rec_steps(mn, mrt_now(), qa, fi);
	}
	trace_mrt_nscc_update(pdc, &d->cc, r);
}

/* PDCs waiting for d's window to open may send now.  Each is taken off the
 * list and pushed under its own socket's lock, never two socket locks at
 * once; a PDC still blocked puts itself back.  pushed: a PDC its caller
 * has just pushed, which if it waits alone has nothing to gain from a
 * second push (it blocked again on the window its own ACKs opened).
 */
void mrt_dest_kick(struct mrt_dest *d, const struct mrt_pdc *pushed)
{
	struct sk_buff_head out;
	unsigned int n = 64;
	struct mrt_pdc *pdc;
	bool again;

	__skb_queue_head_init(&out);
	rcu_read_lock();
	while (n--) {
		spin_lock_bh(&d->lock);
		pdc = list_first_entry_or_null(&d->waiters, struct mrt_pdc,
					       wait_node);
		if (pdc == pushed && list_is_singular(&d->waiters))
			pdc = NULL;
		if (pdc) {
			list_del_init(&pdc->wait_node);
			pdc->waiting = false;
		}
		spin_unlock_bh(&d->lock);
		if (!pdc)
			break;
		spin_lock_bh(&pdc->ms->lock);
		if (!pdc->dead)
			mrt_pdc_push(pdc, &out);
		again = pdc->waiting;	/* blocked again: so are those behind */
		spin_unlock_bh(&pdc->ms->lock);
		local_bh_disable();
		mrt_xmit_queue(d->mn, &out);
		local_bh_enable();
		if (again)
			break;
	}
	rcu_read_unlock();
}

/* PDCs */

/* The keyed hash of a peer's PDC: its address, endpoint and id. */
static u32 mrt_peer_hash(const struct mrt_addr *a, u16 ep, u16 rid)
{
	u32 k[5];

	memcpy(k, &a->a, sizeof(a->a));
	k[4] = ep | (u32)rid << 16;
	return mrt_hash(k, sizeof(k));
}

static u32 mrt_pdc_hash(const struct mrt_addr *a, u16 ep, u16 rid)
{
	return mrt_peer_hash(a, ep, rid) >> (32 - MRT_SOCK_PDC_BITS);
}

static enum hrtimer_restart mrt_pdc_timer(struct hrtimer *t);

static void mrt_pdc_free_rcu(struct rcu_head *head)
{
	struct mrt_pdc *pdc = container_of(head, struct mrt_pdc, rcu);

	hrtimer_cancel(&pdc->timer);
	if (pdc->dest) {
		mrt_dest_kick(pdc->dest, NULL);
		mrt_dest_put(pdc->dest);
	}
	dst_cache_destroy(&pdc->dst);
	kvfree(pdc->snd.slots);
	kvfree(pdc->skbs);
	kvfree(pdc->snd.rtxq);
	kvfree(pdc->snd.tx.ref);
	kvfree(pdc->snd.rack);
	sock_put(&pdc->ms->inet.sk);
	kvfree(pdc);
}

/* Admission of receiving PDCs */

/* Takes one of the receiving PDCs a source address may have
 * (max_rx_pdcs_per_addr): its count, or NULL if it has them all or no
 * memory.  Softirq.
 */
static struct mrt_src *mrt_src_get(struct mrt_net *mn, const struct mrt_addr *a,
				   gfp_t gfp)
{
	struct hlist_head *h = &mn->srcs[mrt_src_hash(a)];
	u32 max = mrt_attr(mn, MRT_A_max_rx_pdcs_per_addr);
	struct mrt_src *src, *fresh;

	fresh = kzalloc(sizeof(*fresh), gfp);
	spin_lock_bh(&mn->src_lock);
	hlist_for_each_entry(src, h, node)
		if (mrt_addr_eq(&src->addr, a))
			goto found;
	src = fresh;
	fresh = NULL;
	if (!src) {
		spin_unlock_bh(&mn->src_lock);
		mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
		return NULL;
	}
	src->addr = *a;
	hlist_add_head(&src->node, h);
found:
	if (src->n >= max) {
		mrt_stat(mn, MRT_S_RX_PDC_ADDR_LIMIT, 1);
		src = NULL;
	} else {
		src->n++;
	}
	spin_unlock_bh(&mn->src_lock);
	kfree(fresh);
	return src;
}

/* A receiving PDC from src's address opened: it holds the address's
 * grouped destination (the netns's EV set) if there is one.  Softirq,
 * under the socket's lock: the lookup is RCU's, not mn->lock's.
 */
static void mrt_src_hold_dest(struct mrt_net *mn, struct mrt_src *src)
{
	struct mrt_dest *d;
	u32 gen;

	if (READ_ONCE(src->dest))
		return;
	gen = mrt_dest_digest_now(mn);
	spin_lock_bh(&mn->src_lock);
	rcu_read_lock();
	hlist_for_each_entry_rcu(d, &mn->dests[mrt_dest_hash(&src->addr)], node)
		if (!src->dest && mrt_addr_eq(&d->addr, &src->addr) &&
		    !d->own_evs && d->gen == gen &&
		    refcount_inc_not_zero(&d->ref)) {
			WRITE_ONCE(src->dest, d);
			break;
		}
	rcu_read_unlock();
	spin_unlock_bh(&mn->src_lock);
}

static void mrt_src_free_rcu(struct rcu_head *head)
{
	struct mrt_src *src = container_of(head, struct mrt_src, rcu);

	if (src->dest)
		mrt_dest_put(src->dest);
	kfree(src);
}

static void mrt_src_put(struct mrt_net *mn, struct mrt_src *src)
{
	if (!src)
		return;
	spin_lock_bh(&mn->src_lock);
	if (!--src->n) {
		hlist_del(&src->node);
		/* its destination's reference goes after the lock (and the
		 * socket's, which the caller may hold)
		 */
		call_rcu(&src->rcu, mrt_src_free_rcu);
	}
	spin_unlock_bh(&mn->src_lock);
}

/* The cookie of peer (as the receiver local sees it) in period t: 32 bits
 * of SipHash under the netns's secret, never 0.  A SYN carries the one
 * its host was last given (dkey); a receiver takes the current period's
 * and the last one's, so a cookie lasts 64 to 128 s.  The cookie binds
 * the two addresses only: it shows that the peer receives at its address,
 * which is all a stateless check can show, and lets the host open PDCs to
 * any endpoint here without another round trip while it lasts.
 */
#define MRT_COOKIE_SHIFT	6	/* 64 s periods */

static u32 mrt_cookie(const struct mrt_net *mn, const struct mrt_addr *peer,
		      const struct mrt_addr *local, u64 t)
{
	struct {
		struct in6_addr peer;
		struct in6_addr local;
		u64 t;
	} in = { peer->a, local->a, t };
	u32 c = (u32)siphash(&in, sizeof(in), &mn->cookie_key);

	return c ?: 1;
}

static u64 mrt_cookie_period(void)
{
	return (u64)ktime_get_seconds() >> MRT_COOKIE_SHIFT;
}

static bool mrt_cookie_ok(const struct mrt_net *mn, const struct mrt_addr *peer,
			  const struct mrt_addr *local, u32 cookie)
{
	u64 t = mrt_cookie_period();

	return cookie && (cookie == mrt_cookie(mn, peer, local, t) ||
			  cookie == mrt_cookie(mn, peer, local, t - 1));
}

/* An answer for no PDC of ours to src may go: INV_DPDCID, NO_ENDPOINT and
 * NO_RESOURCE MRT_NACKS_PER_S a second, cookies cookie_answers_per_s, to
 * each source prefix (a /24 or a /64, in one of 256 keyed buckets), so
 * that no address receives more than that of them whoever spoofs it, and
 * a spoofer's flood from many sources drains only its buckets' share;
 * counted if not.  A bucket is the second and the count in one u64.
 */
#define MRT_NACKS_PER_S		100

static bool mrt_answer_ok(struct mrt_net *mn, const struct mrt_addr *src,
			  bool cookie)
{
	u32 rate = cookie ? mrt_attr(mn, MRT_A_cookie_answers_per_s) : MRT_NACKS_PER_S;
	u32 sec = (u32)(jiffies / HZ);
	struct in6_addr pfx = src->a;
	u64 *b, old, new;

	if (ipv6_addr_v4mapped(&pfx)) {
		pfx.s6_addr32[3] &= htonl(0xffffff00);
	} else {
		pfx.s6_addr32[2] = 0;
		pfx.s6_addr32[3] = 0;
	}
	b = &mn->answers[cookie][mrt_hash(&pfx, sizeof(pfx)) >> (32 - MRT_ANSWER_BITS)];
	old = READ_ONCE(*b);
	do {
		if ((u32)(old >> 32) != sec) {
			new = (u64)sec << 32 | 1;
		} else if ((u32)old < rate) {
			new = old + 1;
		} else {
			mrt_stat(mn, MRT_S_ANSWERS_LIMITED, 1);
			return false;
		}
	} while (!try_cmpxchg64(b, &old, new));
	return true;
}

/* The counter of ms's PDCs of this role in the netns, and its limit. */
static atomic_t *mrt_pdc_count(struct mrt_net *mn, u8 role)
{
	return role == MRT_PDC_TX ? &mn->npdcs : &mn->nrx;
}

/* A new PDC of ms with a random non-zero local id and key.  Counts against
 * max_pdcs (sending) or max_rx_pdcs (receiving), and max_pdcs_per_sock of
 * its role (so that a peer's PDCs never keep the socket from sending);
 * NULL with *err set if over one of them or out of memory.  gfp charges
 * the memory cgroup (__GFP_ACCOUNT); the PDC table's own nodes are the
 * netns's.
 */
static struct mrt_pdc *mrt_pdc_new(struct mrt_sock *ms, u8 role, u32 range,
				   gfp_t gfp, int *err)
{
	struct mrt_net *mn = ms->mn;
	unsigned int i, nbits = role == MRT_PDC_TX ? 2 : 1;
	atomic_t *count = mrt_pdc_count(mn, role);
	struct mrt_pdc *pdc;
	int e = -EBUSY;

	*err = -ENOBUFS;
	if (atomic_inc_return(count) >
	    mrt_attr(mn, role == MRT_PDC_TX ? MRT_A_max_pdcs : MRT_A_max_rx_pdcs)) {
		mrt_stat(mn, role == MRT_PDC_TX ? MRT_S_PDC_LIMIT : MRT_S_RX_PDC_LIMIT, 1);
		goto out_dec;
	}
	if (atomic_inc_return(&ms->npdcs[role]) > mrt_attr(mn, MRT_A_max_pdcs_per_sock)) {
		mrt_stat(mn, MRT_S_SOCK_PDC_LIMIT, 1);
		goto out_dec_sock;
	}
	*err = -ENOMEM;
	pdc = kvzalloc(struct_size(pdc, bits, nbits * range / 64), gfp);
	if (!pdc)
		goto out_dec_sock;
	if (dst_cache_init(&pdc->dst, gfp))
		goto out_free;
	pdc->ms = ms;
	pdc->mn = mn;
	pdc->role = role;
	pdc->range = range;
	pdc->family = ms->family;
	pdc->state = role == MRT_PDC_TX ? MRT_PDC_SYN : MRT_PDC_OPEN;
	do {
		pdc->key = get_random_u32();
	} while (!pdc->key);
	INIT_LIST_HEAD(&pdc->wait_node);
	INIT_LIST_HEAD(&pdc->tmsgs);
	INIT_LIST_HEAD(&pdc->held);
	__skb_queue_head_init(&pdc->sendq);
	hrtimer_init(&pdc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	pdc->timer.function = mrt_pdc_timer;
	if (role == MRT_PDC_TX) {
		pdc->snd.slots = kvcalloc(range, sizeof(*pdc->snd.slots), gfp);
		pdc->skbs = kvcalloc(range, sizeof(*pdc->skbs), gfp);
		pdc->snd.rtxq = kvcalloc(range, sizeof(u32), gfp);
		pdc->snd.tx.ref = kvcalloc(range, sizeof(u32), gfp);
		if (!pdc->snd.slots || !pdc->skbs || !pdc->snd.rtxq ||
		    !pdc->snd.tx.ref)
			goto out_arrays;
	}
	for (i = 0; i < 16; i++) {
		pdc->lid = get_random_u16();
		if (!pdc->lid)
			continue;
		e = xa_insert_bh(&mn->pdcs, pdc->lid, pdc, gfp & ~__GFP_ACCOUNT);
		if (e != -EBUSY)
			break;
	}
	if (e) {
		*err = e == -EBUSY ? -ENOBUFS : e;
		goto out_arrays;
	}
	sock_hold(&ms->inet.sk);
	pdc->last_ns = mrt_now();
	pdc->progress_ns = pdc->last_ns;
	mrt_stat(mn, MRT_S_PDCS_OPENED, 1);
	if (!delayed_work_pending(&mn->gc))
		mod_delayed_work(system_wq, &mn->gc, HZ);
	return pdc;

out_arrays:
	kvfree(pdc->snd.slots);
	kvfree(pdc->skbs);
	kvfree(pdc->snd.rtxq);
	kvfree(pdc->snd.tx.ref);
	dst_cache_destroy(&pdc->dst);
out_free:
	kvfree(pdc);
out_dec_sock:
	atomic_dec(&ms->npdcs[role]);
out_dec:
	atomic_dec(count);
	return NULL;
}

static void mrt_pdc_link(struct mrt_sock *ms, struct mrt_pdc *pdc)
{
	pdc->linked = true;
	trace_mrt_pdc_state(pdc, 0);
	hlist_add_head(&pdc->hnode,
		       &ms->pdcs[mrt_pdc_hash(&pdc->peer, pdc->peer_ep,
					      pdc->role == MRT_PDC_RX ? pdc->rid : 0)]);
	list_add_tail(&pdc->snode, &ms->pdc_list);
}

struct mrt_pdc *mrt_pdc_tx_find(struct mrt_sock *ms, const struct mrt_addr *peer,
				u16 peer_ep)
{
	struct mrt_pdc *pdc;

	hlist_for_each_entry(pdc, &ms->pdcs[mrt_pdc_hash(peer, peer_ep, 0)], hnode)
		if (pdc->role == MRT_PDC_TX && pdc->peer_ep == peer_ep &&
		    mrt_addr_eq(&pdc->peer, peer))
			return pdc;
	return NULL;
}

/* A new PDC is in mn->pdcs before it is complete, but the receive path,
 * the collector and /proc leave it alone until it is linked, under
 * ms->lock.
 */
struct mrt_pdc *mrt_pdc_tx_new(struct mrt_sock *ms, const struct mrt_addr *peer,
			       u16 peer_ep, int *err)
{
	struct mrt_net *mn = ms->mn;
	struct mrt_pdc *pdc;
	u32 range;

	*err = mrt_unicast_check(mn->net, ms->family, peer);
	if (*err)
		return NULL;
	range = mrt_attr(mn, MRT_A_max_psn_range);
	if (!mrt_range_valid(range))
		range = 1024;
	pdc = mrt_pdc_new(ms, MRT_PDC_TX, range, GFP_KERNEL_ACCOUNT, err);
	if (!pdc)
		return NULL;
	pdc->peer = *peer;
	pdc->peer_ep = peer_ep;
	pdc->local = ms->addr;
	pdc->start_psn = get_random_u32();
	/* the range is valid (above) */
	if (WARN_ON_ONCE(mrt_snd_init(&pdc->snd, pdc->start_psn, range,
				      pdc->snd.slots, pdc->snd.rtxq, pdc->bits,
				      pdc->bits + range / 64, pdc->snd.tx.ref))) {
		*err = -EINVAL;
		mrt_pdc_close(pdc, 0, NULL);
		return NULL;
	}
	pdc->dest = mrt_dest_get(mn, ms, peer, GFP_KERNEL_ACCOUNT);
	if (pdc->dest)
		mrt_snd_set_rack(&pdc->snd,
				 kvcalloc(pdc->dest->evs.p.count,
					  sizeof(*pdc->snd.rack),
					  GFP_KERNEL_ACCOUNT),
				 pdc->dest->evs.p.count);
	if (!pdc->dest || !pdc->snd.rack) {
		*err = -ENOMEM;
		mrt_pdc_close(pdc, 0, NULL);
		return NULL;
	}
	return pdc;
}

void mrt_pdc_tx_link(struct mrt_sock *ms, struct mrt_pdc *pdc)
{
	mrt_pdc_link(ms, pdc);
}

/* Queues the report of m (err 0: a delivery confirmation, MRT_CONFIRM)
 * on the socket's error queue: the skb's data is the cookie, the peer
 * follows it for msg_name.  False if no skb could be had.  A full queue
 * drops it, counted: the error queue may always hold MRT_ERRQ_MIN entries
 * beyond the receive buffer, which received data shares.
 */
static bool mrt_report_queue(struct mrt_sock *ms, const struct mrt_tmsg *m,
			     gfp_t gfp)
{
	struct sock *sk = &ms->inet.sk;
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;

	skb = alloc_skb(sizeof(m->cookie) + sizeof(m->who), gfp);
	if (!skb)
		return false;
	put_unaligned(m->cookie, (u64 *)skb_put(skb, sizeof(m->cookie)));
	memcpy(skb_put(skb, sizeof(m->who)), &m->who, sizeof(m->who));
	skb_trim(skb, sizeof(m->cookie));

	serr = SKB_EXT_ERR(skb);
	memset(serr, 0, sizeof(*serr));
	serr->ee.ee_errno = m->err;
	serr->ee.ee_origin = SO_EE_ORIGIN_LOCAL;
	serr->ee.ee_type = m->err ? MRT_EE_FAILED : MRT_EE_DELIVERED;
	serr->ee.ee_info = m->len;
	if (atomic_read(&sk->sk_rmem_alloc) >= READ_ONCE(sk->sk_rcvbuf) &&
	    skb_queue_len(&sk->sk_error_queue) >= MRT_ERRQ_MIN) {
		mrt_stat(ms->mn, MRT_S_ERRQ_DROPS, 1);
		kfree_skb(skb);
		return true;
	}
	skb_set_owner_r(skb, sk);
	skb_queue_tail(&sk->sk_error_queue, skb);
	if (!sock_flag(sk, SOCK_DEAD))
		sk_error_report(sk);
	return true;
}

/* The reports softirq had no memory for, in the order they came: a
 * message's outcome is never lost to an allocation failure (a sender
 * would wait for it forever).  Each stays first on the list while it is
 * queued, so that mrt_tmsg_free() puts a newer one behind it, never
 * ahead.  Holds a socket reference, taken when it was queued.
 */
void mrt_report_work(struct work_struct *w)
{
	struct mrt_sock *ms = container_of(w, struct mrt_sock, report_work);
	struct mrt_tmsg *m;
	bool dead;

	for (;;) {
		spin_lock_bh(&ms->lock);
		m = list_first_entry_or_null(&ms->reports, struct mrt_tmsg, node);
		dead = ms->dead;
		spin_unlock_bh(&ms->lock);
		if (!m)
			break;
		if (!dead && !mrt_report_queue(ms, m, GFP_KERNEL))
			mrt_stat(ms->mn, MRT_S_ERRQ_DROPS, 1);
		spin_lock_bh(&ms->lock);
		list_del(&m->node);
		spin_unlock_bh(&ms->lock);
		kfree(m);
	}
	sock_put(&ms->inet.sk);
}

/* Under ms->lock: m is done (err 0: delivered; > 0: failed with that
 * errno; < 0: the socket is closing, nothing to report).
 */
static void mrt_tmsg_free(struct mrt_pdc *pdc, struct mrt_tmsg *m, int err)
{
	struct mrt_sock *ms = pdc->ms;
	bool report = false;

	list_del(&m->node);
	pdc->ntmsgs--;
	if (m->streaming) {
		/* its sendmsg() learns (woken, if it waits for room),
		 * returns the error and frees it
		 */
		m->err = err > 0 ? err : ECONNRESET;
		WRITE_ONCE(m->unlinked, true);
		if (err > 0) {
			ms->st.msgs_failed++;
			mrt_stat(pdc->mn, MRT_S_MSGS_FAILED, 1);
		}
		wake_up_interruptible_all(sk_sleep(&ms->inet.sk));
		return;
	}
	if (err > 0) {
		ms->st.msgs_failed++;
		mrt_stat(pdc->mn, MRT_S_MSGS_FAILED, 1);
		report = !ms->dead;
	} else if (!err) {
		pdc->st.msgs++;
		if (ms->confirm && !ms->dead) {
			mrt_stat(pdc->mn, MRT_S_MSGS_CONFIRMED, 1);
			report = true;
		}
	}
	if (report) {
		m->err = err;
		m->who.peer = pdc->peer;
		m->who.peer_ep = pdc->peer_ep;
		m->who.family = pdc->family;
		/* at once, or behind the ones waiting for memory */
		if (list_empty(&ms->reports)) {
			if (mrt_report_queue(ms, m, GFP_ATOMIC))
				goto out;
			mrt_stat(pdc->mn, MRT_S_ALLOC_FAIL, 1);
			/* the work's reference; none if it is pending already
			 * (the list emptied while it ran: it sees this one
			 * too), the PDC's keeping this put from being the last
			 */
			sock_hold(&ms->inet.sk);
			if (!queue_work(mrt_wq, &ms->report_work))
				sock_put(&ms->inet.sk);
		}
		list_add_tail(&m->node, &ms->reports);
		return;
	}
out:
	kfree(m);
}

/* A message being reassembled is no longer: complete, or dropped. */
static void mrt_rmsg_unlink(struct mrt_pdc *pdc, struct mrt_rmsg *m)
{
	hlist_del_init(&m->hnode);
	list_del(&m->node);
	pdc->npartial--;
}

static void mrt_rmsg_free(struct mrt_rmsg *m)
{
	__skb_queue_purge(&m->frags);
	kfree(m);
}

/* A receiving PDC's messages under reassembly and held for order go. */
static void mrt_pdc_rx_drop_msgs(struct mrt_pdc *pdc)
{
	struct mrt_rmsg *rm, *rn;
	struct hlist_node *tmp;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pdc->rmsgs); i++) {
		hlist_for_each_entry_safe(rm, tmp, &pdc->rmsgs[i], hnode) {
			mrt_rmsg_unlink(pdc, rm);
			mrt_rmsg_free(rm);
		}
	}
	list_for_each_entry_safe(rm, rn, &pdc->held, node) {
		list_del(&rm->node);
		pdc->ms->nheld--;
		mrt_rmsg_free(rm);
	}
	pdc->held_bytes = 0;
}

/* Ends pdc: its messages not yet acknowledged fail with err (none are
 * reported if err is 0: the socket is closing).  Under ms->lock if the
 * PDC was linked.  Frees it after a grace period.
 */
void mrt_pdc_close(struct mrt_pdc *pdc, int err, struct sk_buff_head *out)
{
	struct mrt_net *mn = pdc->mn;
	struct mrt_tmsg *tm, *tn;
	u64 released = 0;
	unsigned int i;

	if (pdc->dead)
		return;
	pdc->dead = true;
	if (pdc->linked && pdc->ms->batch_pdc == pdc)
		WRITE_ONCE(pdc->ms->batch_pdc, NULL);
	if (pdc->state == MRT_PDC_LINGER) {
		spin_lock_bh(&mn->linger_lock);
		hlist_del_rcu(&pdc->lnode);
		spin_unlock_bh(&mn->linger_lock);
	}
	pdc->state = MRT_PDC_CLOSED;
	trace_mrt_pdc_state(pdc, err);
	if (!hlist_unhashed(&pdc->hnode) || pdc->snode.next) {
		hlist_del(&pdc->hnode);
		list_del(&pdc->snode);
	}
	xa_erase_bh(&mn->pdcs, pdc->lid);
	atomic_dec(mrt_pdc_count(mn, pdc->role));
	atomic_dec(&pdc->ms->npdcs[pdc->role]);
	mrt_src_put(mn, pdc->src);
	pdc->src = NULL;
	mrt_stat(mn, MRT_S_PDCS_CLOSED, 1);

	if (pdc->role == MRT_PDC_TX) {
		for (i = 0; i < pdc->range; i++) {
			kfree_skb(pdc->skbs[i]);
			pdc->skbs[i] = NULL;
		}
		released = mrt_snd_release(&pdc->snd);
		__skb_queue_purge(&pdc->sendq);
		list_for_each_entry_safe(tm, tn, &pdc->tmsgs, node)
			mrt_tmsg_free(pdc, tm, err ? err : -1);
		if (pdc->dest) {
			spin_lock_bh(&pdc->dest->lock);
			if (pdc->waiting)
				list_del_init(&pdc->wait_node);
			pdc->waiting = false;
			if (released)
				nscc_on_cack(&pdc->dest->cc, released);
			spin_unlock_bh(&pdc->dest->lock);
		}
	} else {
		mrt_pdc_rx_drop_msgs(pdc);
	}
	hrtimer_try_to_cancel(&pdc->timer);
	call_rcu(&pdc->rcu, mrt_pdc_free_rcu);
}

static struct hlist_head *mrt_linger_head(struct mrt_net *mn,
					  const struct mrt_addr *peer,
					  u16 peer_ep, u16 rid)
{
	return &mn->linger[mrt_peer_hash(peer, peer_ep, rid) >> (32 - MRT_LINGER_BITS)];
}

/* The socket of a receiving PDC closed.  The PDC stays a while, as TCP's
 * TIME_WAIT does: a sender whose last ACKs were lost sends again, and
 * must hear that the message arrived, not that no one knows the PDC (it
 * would report a delivered message failed).  It keeps its PSN window,
 * drops what it was reassembling, acknowledges again any PSN it had
 * received, NACKs anything else CLOSING (so the sender fails those
 * messages at once), and goes when mrt_gc_work() finds the sender quiet
 * (mrt_linger_ns()).  Must hold the socket's lock.
 */
static void mrt_pdc_linger(struct mrt_pdc *pdc)
{
	struct mrt_net *mn = pdc->mn;

	if (pdc->dead || pdc->state == MRT_PDC_LINGER)
		return;
	mrt_pdc_rx_drop_msgs(pdc);
	pdc->state = MRT_PDC_LINGER;
	pdc->last_ns = mrt_now();
	pdc->progress_ns = pdc->last_ns;
	spin_lock_bh(&mn->linger_lock);
	hlist_add_head_rcu(&pdc->lnode,
			   mrt_linger_head(mn, &pdc->peer, pdc->peer_ep, pdc->rid));
	spin_unlock_bh(&mn->linger_lock);
	trace_mrt_pdc_state(pdc, 0);
}

/* The lingering PDC of a SYN packet p from peer to local: the same
 * sender PDC and key, endpoints, addresses and first PSN (a sender that
 * reuses its PDC id for a new PDC starts elsewhere).  Under RCU; the caller
 * takes the PDC's socket lock and checks it is not dead.
 */
static struct mrt_pdc *mrt_linger_find(struct mrt_net *mn, u8 family,
				       const struct mrt_addr *peer,
				       const struct mrt_addr *local,
				       const struct mrt_pkt *p)
{
	u16 peer_ep = p->data.src_ep, rid = p->spdcid;
	struct mrt_pdc *pdc;

	hlist_for_each_entry_rcu(pdc, mrt_linger_head(mn, peer, peer_ep, rid), lnode)
		if (pdc->peer_ep == peer_ep && pdc->rid == rid &&
		    pdc->rkey == p->skey &&
		    pdc->family == family && pdc->ms->ep == p->data.dst_ep &&
		    pdc->syn_psn == p->data.start_psn &&
		    mrt_addr_eq(&pdc->peer, peer) && mrt_addr_eq(&pdc->local, local))
			return pdc;
	return NULL;
}

/* How long a lingering PDC waits for a quiet sender: the sender's timer
 * backs off to rto_max_us at most, so twice that without a packet means
 * it is done (acknowledged or given up); never longer than an idle
 * receiving PDC would live.
 */
static s64 mrt_linger_ns(struct mrt_net *mn)
{
	return min_t(s64, 2LL * mrt_attr(mn, MRT_A_rto_max_us) * NSEC_PER_USEC,
		     2LL * mrt_attr(mn, MRT_A_pdc_idle_ms) * NSEC_PER_MSEC);
}

/* A sending PDC with nothing left to send or acknowledge. */
static bool mrt_pdc_idle(const struct mrt_pdc *pdc)
{
	/* (a message still being streamed by its sendmsg(), its packets so
	 * far acknowledged, keeps the PDC)
	 */
	return mrt_snd_idle(&pdc->snd) && skb_queue_empty(&pdc->sendq) &&
	       !pdc->ntmsgs;
}

/* The socket is closing: it is dead (no new PDC, nothing delivered) and,
 * in the same hold of its lock, the receiving PDCs linger
 * (mrt_pdc_linger()), so that no packet finds the socket gone and its PDC
 * not yet lingering; the sending ones with messages outstanding finish
 * them (or fail them, unreported) and close then; the rest close now.
 */
void mrt_sock_close_pdcs(struct mrt_sock *ms)
{
	struct mrt_pdc *pdc, *n;

	spin_lock_bh(&ms->lock);
	ms->dead = true;
	list_for_each_entry_safe(pdc, n, &ms->pdc_list, snode)
		if (pdc->role == MRT_PDC_RX)
			mrt_pdc_linger(pdc);
		else if (mrt_pdc_idle(pdc))
			mrt_pdc_close(pdc, 0, NULL);
	spin_unlock_bh(&ms->lock);
}

/* Sender */

static void mrt_snd_cfg_of(struct mrt_net *mn, struct mrt_snd_cfg *c)
{
	c->rto_min_us = mrt_attr(mn, MRT_A_rto_min_us);
	c->rto_max_us = mrt_attr(mn, MRT_A_rto_max_us);
	c->retry_budget = mrt_attr(mn, MRT_A_retry_budget);
	c->sack_loss_min_retx_pkts = mrt_attr(mn, MRT_A_sack_loss_min_retx_pkts);
	c->tx_batch_max_pkts = mrt_attr(mn, MRT_A_tx_batch_max_pkts);
	c->rack = mrt_attr(mn, MRT_A_rack_enabled);
	c->rack_reo_wnd_thou = mrt_attr(mn, MRT_A_rack_reo_wnd);
}

static struct mrt_snd_dest mrt_snd_dest_of(struct mrt_pdc *pdc)
{
	return (struct mrt_snd_dest){ &pdc->dest->cc, &pdc->dest->evs };
}

/* The engine's hooks; ctx is the PDC, under its socket's lock. */
static void mrt_snd_lock(void *ctx)
	__acquires(ctx)
{
	struct mrt_pdc *pdc = ctx;

	spin_lock(&pdc->dest->lock);
}

static void mrt_snd_unlock(void *ctx)
	__releases(ctx)
{
	struct mrt_pdc *pdc = ctx;

	spin_unlock(&pdc->dest->lock);
}

/* psn is delivered: its payload goes, and its message once it has no
 * packet left.
 */
static void mrt_snd_acked(void *ctx, u32 psn)
{
	struct mrt_pdc *pdc = ctx;
	struct sk_buff **skb = &pdc->skbs[psn & (pdc->range - 1)];
	struct mrt_tmsg *m;

	if (WARN_ON_ONCE(!*skb))
		return;
	m = MRT_TX_CB(*skb)->msg;
	kfree_skb(*skb);
	*skb = NULL;
	if (!--m->pkts_left)
		mrt_tmsg_free(pdc, m, 0);
}

/* What marks mrt's packets in mn now (engine.h's mrt_data_tos()). */
static void mrt_mark_cfg_of(struct mrt_net *mn, struct mrt_mark_cfg *c)
{
	u32 flavour = mrt_attr(mn, MRT_A_NSCC_(flavour));

	c->data_dscp = mrt_attr(mn, MRT_A_data_dscp);
	c->trimmable_dscp = mrt_attr(mn, MRT_A_trimmable_dscp);
	c->retransmit_dscp = mrt_attr(mn, MRT_A_retransmit_dscp);
	c->trimming = mrt_trimming(flavour, mrt_attr(mn, MRT_A_NSCC_(trimming_enabled)));
	c->distinct_retx = mrt_attr(mn, MRT_A_use_distinct_dscp_for_retransmits);
	c->uet = flavour == NSCC_FLAVOUR_UET;
}

static u8 mrt_ctl_tos_of(struct mrt_net *mn)
{
	struct mrt_mark_cfg c;

	mrt_mark_cfg_of(mn, &c);
	return mrt_ctl_tos(&c);
}

/* The MRC page's validation warning, "when a NIC with TrimmingEnabled
 * true shares the topology with a switch that does not trim": once per
 * destination, when trimming is on and a packet to it is presumed lost
 * before any trim NACK has come from it, a counter and a log line.
 */
static void mrt_trim_unseen(struct mrt_pdc *pdc)
{
	struct mrt_dest *d = pdc->dest;
	struct mrt_net *mn = pdc->mn;
	struct mrt_mark_cfg mc;

	if (test_bit(MRT_DEST_TRIM_SEEN, &d->flags) ||
	    test_bit(MRT_DEST_TRIM_WARNED, &d->flags))
		return;
	mrt_mark_cfg_of(mn, &mc);
	if (!mc.trimming || test_and_set_bit(MRT_DEST_TRIM_WARNED, &d->flags))
		return;
	mrt_stat(mn, MRT_S_TRIM_UNSEEN, 1);
	if (pdc->family == AF_INET)
		net_info_ratelimited("mrt: trimming_enabled is on, but packets to %pI4 are lost untrimmed and no trim NACK has come: does the path trim DSCP %u?\n",
				     &d->addr.a.s6_addr32[3], mc.trimmable_dscp);
	else
		net_info_ratelimited("mrt: trimming_enabled is on, but packets to %pI6c are lost untrimmed and no trim NACK has come: does the path trim DSCP %u?\n",
				     &d->addr.a, mc.trimmable_dscp);
}

static void mrt_snd_sack_lost(void *ctx, u32 psn)
{
	struct mrt_pdc *pdc = ctx;

	mrt_stat(pdc->mn, MRT_S_SACK_LOSSES, 1);
	mrt_trim_unseen(pdc);
}

/* Under the destination's lock: wait on it for the window or an allow. */
static void mrt_snd_blocked(void *ctx)
{
	struct mrt_pdc *pdc = ctx;

	if (!pdc->waiting) {
		list_add_tail(&pdc->wait_node, &pdc->dest->waiters);
		pdc->waiting = true;
	}
}

static void mrt_snd_cc(void *ctx, enum nscc_routine r)
{
	mrt_cc(ctx, r);
}

static void mrt_snd_ack_seen(void *ctx, const struct mrt_pkt *p,
			     const struct mrt_snd_ack_res *res)
{
	struct mrt_pdc *pdc = ctx;
	struct mrt_net *mn = pdc->mn;

	u8 pen = p->ack.rcv_cwnd_pen;

	trace_mrt_ack(pdc, &p->ack, p->flags, res->newly_rcvd, res->rtt_ns);
	/* the UET page's monitor: from the first RTT or penalty at its
	 * threshold on, every packet of the PDC
	 */
	if (!pdc->monitor &&
	    ((res->rtt_ns != NSCC_NO_RTT &&
	      mrt_attr(mn, MRT_A_trigger_logging_on_rtt_enable) &&
	      res->rtt_ns >= mrt_attr(mn, MRT_A_trigger_logging_on_rtt_threshold_ns)) ||
	     (mrt_attr(mn, MRT_A_trigger_logging_on_cwind_pen_enable) &&
	      pen >= mrt_attr(mn, MRT_A_trigger_logging_on_cwind_pen_threshold))))
		pdc->monitor = true;
	if (pdc->monitor)
		trace_mrt_rtt_log(pdc, true, p->ack.ack_psn,
				  res->rtt_ns == NSCC_NO_RTT ? 0 : res->rtt_ns,
				  READ_ONCE(pdc->dest->cc.cwnd), pen);
}

/* Under the destination's lock, with NSCC's answer to the ACK: the
 * records (an RTT sample NSCC took; an ECN echo with one).
 */
static void mrt_snd_ack_locked(void *ctx, const struct mrt_pkt *p,
			       const struct mrt_snd_ack_res *res)
{
	struct mrt_pdc *pdc = ctx;
	struct mrt_dest *d = pdc->dest;

	d->srtt_us = pdc->snd.rto.srtt8 / 8;
	WRITE_ONCE(d->pen, p->ack.rcv_cwnd_pen);
	if (res->cc_rtt_ns == NSCC_NO_RTT)
		return;
	mrt_rec_rtt(pdc->mn, res->now, res->cc_rtt_ns, d->cc.base_rtt);
	if (res->ecn)
		mrt_stat(pdc->mn, MRT_S_MARKED_RCVD, 1);
}

static void mrt_snd_timed_out(void *ctx, unsigned int expired, u32 rto_us)
{
	struct mrt_pdc *pdc = ctx;
	struct mrt_sock *ms = pdc->ms;

	trace_mrt_rto(pdc, expired, rto_us);
	pdc->st.rto_events += expired;
	pdc->st.rtx_rto += expired;
	ms->st.rto_events += expired;
	ms->st.rtx_rto += expired;
	/* the pages' total_rto_events: timer expiries, one per packet */
	mrt_stat(pdc->mn, MRT_S_RTO_EVENTS, expired);
	mrt_stat(pdc->mn, MRT_S_RTX_RTO, expired);
	mrt_trim_unseen(pdc);
}

static void mrt_snd_resent(void *ctx, u32 psn, u8 cause, u8 tx_count)
{
	struct mrt_pdc *pdc = ctx;

	trace_mrt_retransmit(pdc, psn, cause, tx_count);
	/* the pages' total_rtx_sack: retransmissions of packets presumed
	 * lost from SACK gaps
	 */
	if (cause == MRT_RTX_SACK) {
		pdc->st.rtx_sack++;
		pdc->ms->st.rtx_sack++;
		mrt_stat(pdc->mn, MRT_S_RTX_SACK, 1);
	}
}

static const struct mrt_snd_ops mrt_snd_ops = {
	.lock = mrt_snd_lock,
	.unlock = mrt_snd_unlock,
	.acked = mrt_snd_acked,
	.cc = mrt_snd_cc,
	.sack_lost = mrt_snd_sack_lost,
	.blocked = mrt_snd_blocked,
	.ack_seen = mrt_snd_ack_seen,
	.ack_locked = mrt_snd_ack_locked,
	.timed_out = mrt_snd_timed_out,
	.resent = mrt_snd_resent,
};

u32 mrt_rto_now_us(const struct mrt_pdc *pdc)
{
	struct mrt_snd_cfg c;

	mrt_snd_cfg_of(pdc->mn, &c);
	return mrt_snd_rto_us(&pdc->snd, &c);
}

static void mrt_pdc_arm(struct mrt_pdc *pdc, u64 at)
{
	if (pdc->timer_at && pdc->timer_at <= at)
		return;
	pdc->timer_at = at;
	hrtimer_start(&pdc->timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

/* A transmission of payload: its own head (room for the headers, a short
 * payload copied with its pad zeros) and references to the payload's page
 * fragments, which every transmission shares: no copy.  The fragments
 * are marked shared, so that whatever would write into them on the way
 * (in-place encryption, a checksum over data that may change) copies
 * them first.
 */
static struct sk_buff *mrt_data_skb(struct sk_buff *payload)
{
	unsigned int lin = skb_headlen(payload), pad = mrt_data_pad(payload->len);
	struct skb_shared_info *from = skb_shinfo(payload), *to;
	struct sk_buff *skb;
	unsigned int i;

	if (WARN_ON_ONCE(pad && from->nr_frags))
		return NULL;
	skb = alloc_skb(MRT_HEADROOM + lin + pad, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, MRT_HEADROOM);
	skb_put_data(skb, payload->data, lin);
	skb_put_zero(skb, pad);
	to = skb_shinfo(skb);
	for (i = 0; i < from->nr_frags; i++) {
		to->frags[i] = from->frags[i];
		__skb_frag_ref(&to->frags[i]);
	}
	to->nr_frags = from->nr_frags;
	if (to->nr_frags)
		to->flags |= SKBFL_SHARED_FRAG;
	skb->len += payload->data_len;
	skb->data_len = payload->data_len;
	skb->truesize += payload->data_len;
	return skb;
}

/* A data packet's TOS byte now (engine.h's mrt_data_tos()). */
static u8 mrt_tx_tos(struct mrt_net *mn, bool retx, bool *trimmable)
{
	struct mrt_mark_cfg mc;

	mrt_mark_cfg_of(mn, &mc);
	return mrt_data_tos(&mc, retx, trimmable);
}

/* The DATA header of a transmission of payload (p), marked trimmable if
 * trimmable, with the counters and traces of a data packet sent.
 */
static void mrt_data_hdr(struct mrt_pdc *pdc, struct sk_buff *payload,
			 const struct mrt_snd_tx *tx, u16 ev, bool trimmable,
			 struct mrt_pkt *p)
{
	struct mrt_tx_cb *tcb = MRT_TX_CB(payload);
	struct mrt_net *mn = pdc->mn;

	*p = (struct mrt_pkt){
		.type = MRT_TYPE_DATA,
		.spdcid = pdc->lid,
		.dpdcid = pdc->rid,
		.ev = ev,
		.skey = pdc->key,
		.dkey = pdc->rkey,
	};
	p->flags = tcb->flags;
	/* before its first answer: SYN, the PDC's first PSN, and the cookie
	 * the peer's host gave, if any (else the peer answers with one)
	 */
	if (pdc->state == MRT_PDC_SYN) {
		p->flags |= MRT_DATA_F_SYN;
		p->data.start_psn = pdc->start_psn;
		p->dpdcid = 0;
		p->dkey = READ_ONCE(pdc->dest->cookie);
	}
	if (tx->retx)
		p->flags |= MRT_DATA_F_RETX;
	/* the MRC page's ACK requests: the last packet of a message, and
	 * those the engine names (tx->ar)
	 */
	if (tx->ar || p->flags & MRT_DATA_F_EOM)
		p->flags |= MRT_DATA_F_AR;
	p->data.psn = tx->psn;
	p->data.src_ep = pdc->ms->ep;
	p->data.dst_ep = pdc->peer_ep;
	p->data.msg_id = tcb->msg->msg_id;
	p->data.payload_len = payload->len;
	p->data.msg_offset = tcb->off;
	p->data.msg_len = tcb->msg->len;

	if (trimmable)
		p->flags |= MRT_DATA_F_TRIMMABLE;

	trace_mrt_tx(pdc, tx->psn, payload->len, p->flags);
	if (pdc->monitor)
		trace_mrt_rtt_log(pdc, false, tx->psn, 0,
				  READ_ONCE(pdc->dest->cc.cwnd), READ_ONCE(pdc->dest->pen));
	pdc->st.pkts++;
	mrt_stat(mn, MRT_S_DATA_OUT, 1);
}

/* A transmission of the payload skb with the DATA header, ready for out. */
static struct sk_buff *mrt_data_build(struct mrt_pdc *pdc, struct sk_buff *payload,
				      const struct mrt_snd_tx *tx, u16 ev)
{
	struct mrt_xmit_cb *cb;
	struct sk_buff *skb;
	struct mrt_pkt p;
	bool trimmable;
	u8 tos;

	skb = mrt_data_skb(payload);
	if (!skb) {
		mrt_stat(pdc->mn, MRT_S_ALLOC_FAIL, 1);
		return NULL;
	}
	tos = mrt_tx_tos(pdc->mn, tx->retx, &trimmable);
	mrt_data_hdr(pdc, payload, tx, ev, trimmable, &p);
	mrt_build(skb_push(skb, MRT_DATA_HDR_LEN), &p);
	cb = MRT_XMIT_CB(skb);
	memset(cb, 0, sizeof(*cb));
	cb->pdc = pdc;
	cb->saddr = pdc->local.a;
	cb->daddr = pdc->peer.a;
	cb->sport = htons(ev);
	cb->tos = tos;
	cb->family = pdc->family;
	cb->data = 1;
	cb->psn = tx->psn;
	return skb;
}

/* The largest UDP payload of a batch: its IP packet's 16-bit length
 * (IPv4's counts its header, IPv6's does not; the larger one here).
 */
#define MRT_BATCH_MAX	(U16_MAX - sizeof(struct iphdr) - sizeof(struct udphdr))

/* Appends a new packet (tx, payload) to the open batch skb b as one more
 * UDP GSO segment: its DATA header in a fragment of its own, then
 * references to the payload's fragments; a short payload (its skb's own
 * data) is copied into the header's fragment, with its pad.  Every
 * segment but the last has the first's size, so a shorter packet closes
 * the batch.  false: it does not fit (fragments, length) or there is no
 * memory for the header; nothing changed.
 */
static bool mrt_batch_add(struct mrt_pdc *pdc, struct sk_buff *b, unsigned int seg,
			  struct sk_buff *payload, const struct mrt_snd_tx *tx, u16 ev)
{
	struct skb_shared_info *to = skb_shinfo(b), *from = skb_shinfo(payload);
	unsigned int lin = skb_headlen(payload), pad = mrt_data_pad(payload->len);
	unsigned int len = MRT_DATA_HDR_LEN + payload->len + pad, i;
	unsigned int n = to->nr_frags;
	struct page *page;
	struct mrt_pkt p;
	bool trimmable;
	void *h;

	/* the engine batches new packets only, but the marking attributes
	 * may have changed since the batch began
	 */
	if ((lin || pad) && from->nr_frags)
		return false;
	if (len > seg || b->len + len > MRT_BATCH_MAX ||
	    n + 1 + from->nr_frags > MAX_SKB_FRAGS ||
	    mrt_tx_tos(pdc->mn, tx->retx, &trimmable) != MRT_XMIT_CB(b)->tos)
		return false;
	/* the header, and a short payload's bytes and pad after it */
	h = netdev_alloc_frag(MRT_DATA_HDR_LEN + lin + pad);
	if (!h)
		return false;
	mrt_data_hdr(pdc, payload, tx, ev, trimmable, &p);
	mrt_build(h, &p);
	memcpy(h + MRT_DATA_HDR_LEN, payload->data, lin);
	memset(h + MRT_DATA_HDR_LEN + lin, 0, pad);
	page = virt_to_head_page(h);
	skb_fill_page_desc(b, n++, page, h - page_address(page),
			   MRT_DATA_HDR_LEN + lin + pad);
	for (i = 0; i < from->nr_frags; i++) {
		to->frags[n] = from->frags[i];
		__skb_frag_ref(&to->frags[n++]);
	}
	to->nr_frags = n;
	to->flags |= SKBFL_SHARED_FRAG;
	b->len += len;
	b->data_len += len;
	b->truesize += len;
	to->gso_type = SKB_GSO_UDP_L4;
	to->gso_size = seg;
	to->gso_segs = (to->gso_segs ?: 1) + 1;
	return true;
}

/* Sends what pdc may: retransmissions first, then new packets, while the
 * PSN window and NSCC's window allow (mrt_snd_pick()).  Under ms->lock;
 * the packets go to out for the caller to send once the lock is dropped.
 * A PDC that has more to send than the window lets it waits on its
 * destination, and its last packet asks for an ACK at once (AR).
 */
static void mrt_ctl_addr(struct sk_buff *skb, struct mrt_pdc *pdc,
			 const struct mrt_addr *from, const struct mrt_addr *to,
			 u8 family, u16 ev, u8 tos);

/* The probes due on pdc's destination (a few per call), each a CTRL
 * PROBE on its EV that the peer's PDC answers with a PROBE_ACK; the
 * timer is armed for the next.  Under the socket's lock, the PDC open.
 */
static void mrt_pdc_probe(struct mrt_pdc *pdc, u64 now, struct sk_buff_head *out)
{
	struct mrt_dest *d = pdc->dest;
	struct mrt_net *mn = pdc->mn;
	struct mrt_pkt p = {
		.type = MRT_TYPE_CTRL,
		.spdcid = pdc->lid,
		.dpdcid = pdc->rid,
		.skey = pdc->key,
		.dkey = pdc->rkey,
	};
	unsigned int n;
	u64 next = U64_MAX;
	int ev;

	if (!pdc->rid || READ_ONCE(d->evs.probe_next) > now)
		goto arm;
	for (n = 0; n < 4; n++) {
		struct sk_buff *skb;

		spin_lock(&d->lock);
		ev = mrt_ev_probe_due(&d->evs, now, &next);
		spin_unlock(&d->lock);
		if (ev < 0)
			break;
		skb = mrt_alloc_ctl(MRT_CTRL_HDR_LEN);
		if (!skb) {
			mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
			break;
		}
		p.ev = mrt_ev_port(&d->evs, ev);
		p.ctrl.ctl_type = MRT_CTRL_PROBE;
		p.ctrl.opaque = ev;
		/* the send time, which the answer echoes: its RTT */
		p.ctrl.psn = (u32)now;
		mrt_build(skb_put(skb, MRT_CTRL_HDR_LEN), &p);
		mrt_ctl_addr(skb, pdc, &pdc->local, &pdc->peer, pdc->family, p.ev,
			     mrt_ctl_tos_of(mn));
		__skb_queue_tail(out, skb);
		mrt_stat(mn, MRT_S_PROBES_OUT, 1);
	}
arm:
	next = READ_ONCE(d->evs.probe_next);
	if (pdc->rid && next != U64_MAX)
		mrt_pdc_arm(pdc, max(next, now));
}

/* mrt_snd_push()'s transmitting side: the PDC, its out queue, and the
 * open batch: the skb at out's tail that takes the engine's next batched
 * packet as one more GSO segment of size seg.
 */
struct mrt_push {
	struct mrt_pdc *pdc;
	struct sk_buff_head *out;
	struct sk_buff *batch;
	unsigned int seg;
	u64 now;
};

/* The next new packet's nominal bytes, 0 for none.  A PDC whose peer
 * host has given no cookie yet sends one packet, the first, and the rest
 * once the peer's answer brings one: a SYN without a cookie makes no
 * state at the receiver, and its data is sent again.
 */
static u32 mrt_push_next_bytes(void *x)
{
	struct mrt_push *px = x;
	struct mrt_pdc *pdc = px->pdc;
	struct sk_buff *next = skb_peek(&pdc->sendq);

	if (!next || (pdc->state == MRT_PDC_SYN && pdc->snd.tx.nxt != pdc->start_psn &&
		      !READ_ONCE(pdc->dest->cookie)))
		return 0;
	return mrt_nominal(px->pdc->family, next->len);
}

static u32 mrt_push_queued(void *x)
{
	return skb_queue_len(&((struct mrt_push *)x)->pdc->sendq);
}

static bool mrt_push_xmit(void *x, const struct mrt_snd_tx *tx)
{
	struct mrt_push *px = x;
	struct mrt_pdc *pdc = px->pdc;
	struct sk_buff **slot = &pdc->skbs[tx->psn & (pdc->range - 1)];
	struct sk_buff *skb;

	struct sk_buff *payload = tx->retx ? *slot : skb_peek(&pdc->sendq);

	pdc->ev = mrt_ev_port(&pdc->dest->evs, tx->ev);
	if (tx->batch && px->batch &&
	    mrt_batch_add(pdc, px->batch, px->seg, payload, tx, pdc->ev)) {
		/* a short one is the batch's last */
		if (MRT_DATA_HDR_LEN + payload->len +
		    mrt_data_pad(payload->len) < px->seg)
			px->batch = NULL;
	} else {
		skb = mrt_data_build(pdc, payload, tx, pdc->ev);
		if (!skb)
			return false;
		__skb_queue_tail(px->out, skb);
		/* the first of a batch: its payload in fragments, or short
		 * and copied (mrt_data_skb())
		 */
		px->batch = !tx->retx && tx->batch_pkts > 1 ? skb : NULL;
		px->seg = skb->len;
	}
	if (!tx->retx)
		*slot = __skb_dequeue(&pdc->sendq);
	pdc->last_ns = px->now;
	return true;
}

static void mrt_push_arm(void *x, u64 at)
{
	mrt_pdc_arm(((struct mrt_push *)x)->pdc, at);
}

static const struct mrt_snd_xmit_ops mrt_push_ops = {
	.next_bytes = mrt_push_next_bytes,
	.queued = mrt_push_queued,
	.xmit = mrt_push_xmit,
	.arm = mrt_push_arm,
};

/* A push at now (a train's: the clock read as it arrived). */
static void mrt_pdc_push_at(struct mrt_pdc *pdc, struct sk_buff_head *out,
			    u64 now)
{
	struct mrt_dest *d = pdc->dest;
	struct mrt_net *mn = pdc->mn;
	struct mrt_push px = { .pdc = pdc, .out = out, .now = now };
	struct mrt_snd_dest sd;
	struct mrt_snd_cfg cfg;
	int err;

	if (pdc->dead || pdc->role != MRT_PDC_TX)
		return;
	if (d->evs.usable < d->evs.p.count)
		mrt_pdc_probe(pdc, mrt_now(), out);	/* timed: not a train's */
	mrt_snd_cfg_of(mn, &cfg);
	sd = mrt_snd_dest_of(pdc);
	if (mrt_snd_push(&pdc->snd, &sd, px.now, pdc->state == MRT_PDC_SYN, &cfg,
			 &mrt_snd_ops, pdc, &mrt_push_ops, &px) != MRT_SND_EXHAUSTED)
		return;
	err = READ_ONCE(pdc->xmit_err);
	mrt_stat(mn, MRT_S_RETRY_EXHAUSTED, 1);
	if (err == -ENETUNREACH || err == -EHOSTUNREACH)
		err = EHOSTUNREACH;
	else
		err = ETIMEDOUT;
	mrt_pdc_close(pdc, err, out);
}

void mrt_pdc_push(struct mrt_pdc *pdc, struct sk_buff_head *out)
{
	mrt_pdc_push_at(pdc, out, mrt_now());
}

/* How long packets may wait for the rest of a sendmmsg(): a backstop for
 * one that stops early (a fault in a later entry never reaches mrt); the
 * next message or a full batch pushes them long before.
 */
#define MRT_BATCH_WAIT_NS	(1 * NSEC_PER_MSEC)

void mrt_pdc_batch_wait(struct mrt_pdc *pdc)
{
	WRITE_ONCE(pdc->ms->batch_pdc, pdc);
	mrt_pdc_arm(pdc, mrt_now() + MRT_BATCH_WAIT_NS);
}

/* The train's hold of a socket's lock: taken for a packet of ms's and
 * kept for the next while it is ms's too, so that a train of one PDC's
 * packets is taken under one hold; let go before anything else locks.
 * The hold outlives the functions that take it, which sparse cannot
 * follow: to it these two change nothing (__acquire(), __release()).
 */
static void mrt_train_unlock(struct mrt_train *t)
{
	struct mrt_sock *ms = t->ms;

	t->ext = NULL;
	if (ms) {
		t->ms = NULL;
		spin_unlock(&ms->lock);
		__acquire(&ms->lock);
	}
}

static void mrt_train_lock(struct mrt_train *t, struct mrt_sock *ms)
{
	if (t->ms == ms)
		return;
	mrt_train_unlock(t);
	spin_lock(&ms->lock);
	__release(&ms->lock);
	t->ms = ms;
}

/* An ACK p of pdc's; the push it may allow is the caller's (the train's
 * end, mrt_train_end()).
 */
static void mrt_rcv_ack(struct mrt_pdc *pdc, const struct mrt_pkt *p,
			u64 now, struct sk_buff_head *out)
{
	struct mrt_net *mn = pdc->mn;
	struct mrt_snd_ack_res res;
	struct mrt_snd_dest sd;
	struct mrt_snd_cfg cfg;

	mrt_snd_cfg_of(mn, &cfg);
	sd = mrt_snd_dest_of(pdc);
	if (mrt_snd_ack(&pdc->snd, &sd, p, now, &cfg, &mrt_snd_ops, pdc,
			&res) < 0) {
		mrt_stat(mn, MRT_S_MALFORMED(MRT_BAD_WINDOW), 1);
		return;
	}
	if (res.sack_unsent)
		mrt_stat(mn, MRT_S_ACK_UNSENT, 1);
	if (res.false_lost)
		mrt_stat(mn, MRT_S_SACK_FALSE, res.false_lost);
	if (res.rack_at != U64_MAX && !pdc->dead)
		mrt_pdc_arm(pdc, res.rack_at);
	pdc->last_ns = now;
	if (res.newly)
		pdc->progress_ns = now;
	pdc->st.ecn += res.ecn;
	/* the receiver's PDC is gone: what it reported arrived (applied
	 * above), the rest fails
	 */
	if (p->flags & MRT_ACK_F_CLOSING) {
		mrt_stat(mn, MRT_S_ACK_CLOSING, 1);
		mrt_pdc_close(pdc, ECONNRESET, out);
	}
}

/* The push of the train's sending PDC: what its ACKs allow, in batches;
 * then what the train's packets answered leaves, and the destination's
 * other PDCs, if any wait, get their turn.
 */
void mrt_train_end(struct mrt_net *mn, struct mrt_train *t)
{
	struct mrt_pdc *pdc = t->push;
	struct mrt_sock *ms;

	t->push = NULL;
	if (pdc) {
		ms = pdc->ms;
		mrt_train_lock(t, ms);
		if (pdc->linked && !pdc->dead) {
			mrt_pdc_push_at(pdc, &t->out, t->now);
			/* a closed socket's PDC goes once it has nothing left */
			if (ms->dead && !pdc->dead && mrt_pdc_idle(pdc))
				mrt_pdc_close(pdc, 0, &t->out);
		}
	}
	mrt_train_unlock(t);
	mrt_xmit_queue(mn, &t->out);
	if (pdc && !list_empty_careful(&pdc->dest->waiters))
		mrt_dest_kick(pdc->dest, pdc);
}

/* A CLOSING or MSG_TOO_BIG NACK says (in its payload) what the receiver
 * had received in order: that much was delivered, the rest fails.
 */
static void mrt_closing_acked(void *ctx, u32 psn)
{
	mrt_snd_acked(ctx, psn);
}

/* The message of an outstanding psn fails with err, now. */
static void mrt_pdc_fail_msg(struct mrt_pdc *pdc, u32 psn, int err)
{
	struct sk_buff *skb = pdc->skbs[psn & (pdc->range - 1)];

	if (skb && mrt_snd_slot(&pdc->snd, psn)->psn == psn &&
	    mrt_snd_slot(&pdc->snd, psn)->flags & MRT_SLOT_LIVE)
		mrt_tmsg_free(pdc, MRT_TX_CB(skb)->msg, err);
}

static void mrt_rcv_nack(struct mrt_pdc *pdc, const struct mrt_pkt *p,
			 struct sk_buff_head *out)
{
	const struct mrt_nack *nk = &p->nack;
	struct mrt_net *mn = pdc->mn;
	struct mrt_snd_dest sd;
	struct mrt_snd_cfg cfg;
	u64 now = mrt_now();

	trace_mrt_nack(pdc, nk->nack_psn, nk->nack_code, p->flags);
	switch (nk->nack_code) {
	case MRT_NACK_NO_ENDPOINT:
		mrt_stat(mn, MRT_S_NACK_NO_ENDPOINT, 1);
		break;
	case MRT_NACK_INV_DPDCID:
		mrt_stat(mn, MRT_S_NACK_INV_DPDCID, 1);
		break;
	case MRT_NACK_COOKIE:
		/* the peer host's cookie, for every PDC to it, whatever the
		 * NACK says of its packet (its key says it answers ours)
		 */
		mrt_stat(mn, MRT_S_COOKIES_IN, 1);
		if (nk->payload)
			WRITE_ONCE(pdc->dest->cookie, nk->payload);
		break;
	case MRT_NACK_MSG_TOO_BIG:
		mrt_stat(mn, MRT_S_NACK_TOO_BIG, 1);
		break;
	}
	mrt_snd_cfg_of(mn, &cfg);
	sd = mrt_snd_dest_of(pdc);
	switch (mrt_snd_nack(&pdc->snd, &sd, p, now, &cfg, &mrt_snd_ops, pdc)) {
	case MRT_SND_NACK_STALE:
		mrt_stat(mn, MRT_S_NACK_STALE, 1);
		return;
	case MRT_SND_NACK_OLD:
		pdc->last_ns = now;
		mrt_stat(mn, MRT_S_NACK_STALE, 1);
		return;
	case MRT_SND_NACK_REFUSED:
		pdc->last_ns = now;
		mrt_pdc_close(pdc, ECONNREFUSED, out);
		return;
	case MRT_SND_NACK_RESET:
		pdc->last_ns = now;
		if (nk->nack_code == MRT_NACK_CLOSING)
			mrt_tx_ack(&pdc->snd.tx, nk->payload, nk->payload, 0,
				   mrt_closing_acked, pdc);
		mrt_pdc_close(pdc, ECONNRESET, out);
		return;
	case MRT_SND_NACK_TOO_BIG:
		pdc->last_ns = now;
		mrt_tx_ack(&pdc->snd.tx, nk->payload, nk->payload, 0,
			   mrt_closing_acked, pdc);
		mrt_pdc_fail_msg(pdc, nk->nack_psn, EMSGSIZE);
		mrt_pdc_close(pdc, ECONNRESET, out);
		return;
	case MRT_SND_NACK_COOKIE:
		pdc->last_ns = now;
		mrt_pdc_push(pdc, out);
		return;
	case MRT_SND_NACK_RETX:
		pdc->last_ns = now;
		if (!test_bit(MRT_DEST_TRIM_SEEN, &pdc->dest->flags))
			set_bit(MRT_DEST_TRIM_SEEN, &pdc->dest->flags);
		mrt_stat(mn, nk->nack_code == MRT_NACK_TRIMMED ?
			 MRT_S_NACK_TRIMMED : MRT_S_NACK_TRIMMED_LASTHOP, 1);
		pdc->st.trims++;
		pdc->st.rtx_trim++;
		pdc->ms->st.trims++;
		pdc->ms->st.rtx_trim++;
		mrt_stat(mn, MRT_S_RTX_TRIM, 1);
		mrt_pdc_push(pdc, out);
		return;
	case MRT_SND_NACK_WINDOW:
		pdc->last_ns = now;
		mrt_stat(mn, MRT_S_NACK_OOR, 1);
		mrt_pdc_push(pdc, out);
		return;
	case MRT_SND_NACK_WAIT:
		pdc->last_ns = now;
		mrt_stat(mn, MRT_S_NACK_NO_RESOURCE, 1);
		mrt_pdc_arm(pdc, pdc->snd.wait_until);
		return;
	}
}

static enum hrtimer_restart mrt_pdc_timer(struct hrtimer *t)
{
	struct mrt_pdc *pdc = container_of(t, struct mrt_pdc, timer);
	struct mrt_sock *ms = pdc->ms;
	struct mrt_net *mn = pdc->mn;
	struct mrt_snd_timer_res res;
	struct sk_buff_head out;
	struct mrt_snd_dest sd;
	struct mrt_snd_cfg cfg;
	u64 now = mrt_now();

	__skb_queue_head_init(&out);
	rcu_read_lock();
	spin_lock(&ms->lock);
	pdc->timer_at = 0;
	if (pdc->dead)
		goto unlock;
	mrt_snd_cfg_of(mn, &cfg);
	sd = mrt_snd_dest_of(pdc);
	mrt_snd_timer(&pdc->snd, &sd, now, pdc->rid, &cfg, &mrt_snd_ops, pdc,
		      &res);
	if (res.slow)
		mrt_stat(mn, MRT_S_RTO_SLOW, res.slow);
	mrt_pdc_push(pdc, &out);
	/* the earlier of next and what push armed (hrtimer_start() from
	 * the callback requeues the timer; it is never restarted here)
	 */
	if (!pdc->dead && res.next != U64_MAX)
		mrt_pdc_arm(pdc, res.next);
unlock:
	spin_unlock(&ms->lock);
	mrt_xmit_queue(mn, &out);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

/* Receiver */

static void mrt_ctl_addr(struct sk_buff *skb, struct mrt_pdc *pdc,
			 const struct mrt_addr *from, const struct mrt_addr *to,
			 u8 family, u16 ev, u8 tos)
{
	struct mrt_xmit_cb *cb = MRT_XMIT_CB(skb);

	memset(cb, 0, sizeof(*cb));
	cb->pdc = pdc;
	cb->saddr = from->a;
	cb->daddr = to->a;
	cb->sport = htons(ev);
	cb->tos = tos;
	cb->family = family;
}

/* A NACK of packet p from src to dst: from pdc, or with pdc NULL a
 * stateless one (no id or key of ours; the packet's key echoed, so that
 * only its sender believes it).
 */
static void mrt_send_nack(struct mrt_net *mn, struct mrt_pdc *pdc,
			  const struct mrt_pkt *p, const struct mrt_addr *src,
			  const struct mrt_addr *dst, u8 family, u8 code,
			  u32 payload, struct sk_buff_head *out)
{
	struct mrt_pkt n = {
		.type = MRT_TYPE_NACK,
		.spdcid = pdc ? pdc->lid : 0,
		.dpdcid = p->spdcid,
		.ev = p->ev,
		.skey = pdc ? pdc->key : 0,
		.dkey = p->skey,
	};
	struct sk_buff *skb;

	if (p->flags & MRT_DATA_F_RETX)
		n.flags |= MRT_NACK_F_RETX_ECHO;
	n.nack.nack_psn = p->data.psn;
	n.nack.nack_code = code;
	n.nack.payload = payload;
	if (pdc)
		n.nack.rcvd_bytes = nscc_rcvd_bytes_field(pdc->rx.rcvd_bytes);
	skb = mrt_alloc_ctl(MRT_NACK_HDR_LEN);
	if (!skb) {
		mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
		return;
	}
	mrt_build(skb_put(skb, MRT_NACK_HDR_LEN), &n);
	mrt_ctl_addr(skb, pdc, dst, src, family, p->ev,
		     mrt_ctl_tos_of(mn));
	__skb_queue_tail(out, skb);
	mrt_stat(mn, MRT_S_NACKS_OUT, 1);
}

/* The receiver penalty: the socket's receive buffer occupancy between
 * the thresholds, 0..127, in every ACK whatever this host's flavour (the
 * UET page: it is the receiving NIC's setting; a sender in the mrc flavour
 * ignores it).
 */
static u8 mrt_rcv_pen(struct mrt_pdc *pdc)
{
	struct sock *sk = &pdc->ms->inet.sk;
	struct mrt_net *mn = pdc->mn;
	struct nscc_params p;
	u32 occ, rcvbuf = max(READ_ONCE(sk->sk_rcvbuf), 1);

	occ = min_t(u64, div_u64((u64)atomic_read(&sk->sk_rmem_alloc) * 1000,
				 rcvbuf), 1000);
	NSCC_P(&p, receiver_congestion_low_threshold) =
		mrt_attr(mn, MRT_A_NSCC_(receiver_congestion_low_threshold));
	NSCC_P(&p, receiver_congestion_high_threshold) =
		mrt_attr(mn, MRT_A_NSCC_(receiver_congestion_high_threshold));
	return nscc_receiver_penalty(&p, occ);
}

/* The ACK of data packet p, which arrived at since (0: no service time
 * to report).  The service time is the ACK's wait from since until it
 * leaves, written in as it does (udp.c's mrt_xmit_queue(), which reads the
 * clock once for a GSO skb of ACKs): since waits in skb->tstamp, which is
 * cleared before the skb leaves mrt.
 */
static void mrt_send_ack(struct mrt_pdc *pdc, const struct mrt_pkt *p, bool ce,
			 u8 flags, u64 since, struct sk_buff_head *out)
{
	struct mrt_net *mn = pdc->mn;
	struct mrt_pkt a = {
		.spdcid = pdc->lid,
		.dpdcid = pdc->rid,
		.ev = p->ev,
		.skey = pdc->key,
		.dkey = pdc->rkey,
	};
	struct sk_buff *skb = skb_peek_tail(out);
	u8 pen = mrt_rcv_pen(pdc), tos = mrt_ctl_tos_of(mn);
	struct mrt_xmit_cb *cb;

	if (ce)
		mrt_stat(mn, MRT_S_MARKED_SENT, 1);
	mrt_rx_ack_fill(&pdc->rx, p, ce, pen,
			mrt_attr(mn, MRT_A_NSCC_(restore_cwind_enable)), 0, &a);
	pdc->last_pen = pen;
	a.flags |= flags;
	/* The ACKs of a train (udp.c's mrt_udp_skb()) to one PDC on one EV
	 * go as one UDP GSO skb, each a segment: appended to the one at
	 * out's tail while its head has room (what the allocator gave it,
	 * eight ACKs or so); with batches off (tx_batch_max_pkts 1), each
	 * alone.
	 */
	cb = skb && mrt_attr(mn, MRT_A_tx_batch_max_pkts) > 1 ? MRT_XMIT_CB(skb) : NULL;
	if (cb && cb->ack && cb->pdc == pdc && cb->sport == htons(p->ev) &&
	    cb->tos == tos && ktime_to_ns(skb->tstamp) == since &&
	    skb_tailroom(skb) >= MRT_ACK_HDR_LEN) {
		struct skb_shared_info *si = skb_shinfo(skb);

		mrt_build(skb_put(skb, MRT_ACK_HDR_LEN), &a);
		si->gso_type = SKB_GSO_UDP_L4;
		si->gso_size = MRT_ACK_HDR_LEN;
		si->gso_segs = (si->gso_segs ?: 1) + 1;
	} else {
		skb = mrt_alloc_ctl(MRT_ACK_HDR_LEN);
		if (!skb) {
			mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
			return;
		}
		mrt_build(skb_put(skb, MRT_ACK_HDR_LEN), &a);
		mrt_ctl_addr(skb, pdc, &pdc->local, &pdc->peer, pdc->family, p->ev,
			     tos);
		MRT_XMIT_CB(skb)->ack = 1;
		skb->tstamp = ns_to_ktime(since);
		__skb_queue_tail(out, skb);
	}
	pdc->since_ack = 0;
	mrt_stat(mn, MRT_S_ACKS_OUT, 1);
}

static u32 mrt_rmsg_hash(u16 msg_id)
{
	u32 k = msg_id;

	return mrt_hash(&k, sizeof(k)) >> (32 - MRT_RMSG_BITS);
}

static struct mrt_rmsg *mrt_rmsg_find(struct mrt_pdc *pdc, u16 msg_id)
{
	struct mrt_rmsg *m;

	hlist_for_each_entry(m, &pdc->rmsgs[mrt_rmsg_hash(msg_id)], hnode)
		if (m->msg_id == msg_id)
			return m;
	return NULL;
}

static int mrt_frag_cmp(void *priv, const struct list_head *a,
			const struct list_head *b)
{
	const struct sk_buff *x = list_entry(a, struct sk_buff, list);
	const struct sk_buff *y = list_entry(b, struct sk_buff, list);

	return MRT_RX_CB(x)->off < MRT_RX_CB(y)->off ? -1 : 1;
}

/* All of m's bytes are in: in offset order, without overlap, it is a
 * message.  Sorts its fragments; process context (recvmsg(), under the
 * socket), so that the receive path never sorts.
 */
bool mrt_rmsg_whole(struct mrt_rmsg *m)
{
	struct sk_buff *skb;
	LIST_HEAD(l);
	u32 off = 0;

	/* most arrive in order: then one walk, no sort */
	skb_queue_walk(&m->frags, skb) {
		if (MRT_RX_CB(skb)->off != off)
			break;
		off += MRT_RX_CB(skb)->len;
	}
	if (skb == (struct sk_buff *)&m->frags)
		return off == m->len;
	off = 0;
	while ((skb = __skb_dequeue(&m->frags)))
		list_add_tail(&skb->list, &l);
	list_sort(NULL, &l, mrt_frag_cmp);
	while (!list_empty(&l)) {
		skb = list_first_entry(&l, struct sk_buff, list);
		list_del(&skb->list);
		__skb_queue_tail(&m->frags, skb);
		if (MRT_RX_CB(skb)->off != off)
			off = U32_MAX;
		else
			off += MRT_RX_CB(skb)->len;
	}
	return off == m->len;
}

/* An ordered PDC's held message h goes to its socket's queue. */
static void mrt_held_deliver(struct mrt_pdc *pdc, struct mrt_rmsg *h)
{
	list_del(&h->node);
	pdc->ms->nheld--;
	pdc->held_bytes -= h->held;
	mrt_sock_deliver(pdc->ms, h);
}

static void mrt_rmsg_done(struct mrt_pdc *pdc, struct mrt_rmsg *m)
{
	struct mrt_sock *ms = pdc->ms;
	struct mrt_rmsg *h, *hn;

	mrt_rmsg_unlink(pdc, m);
	if (!ms->ordered) {
		pdc->st.msgs++;
		mrt_sock_deliver(ms, m);
		return;
	}
	/* ordered: in msg_id order; the rest wait, sorted, on held.  An id
	 * behind the next due, too far ahead of it for a sender's window
	 * of messages, or held already, is no message of this PDC's.
	 */
	if (m->msg_id != pdc->next_deliver) {
		u16 ahead = m->msg_id - pdc->next_deliver;

		if (ahead >= MRT_MAX_TMSGS) {
			mrt_stat(pdc->mn, MRT_S_BAD_REASSEMBLY, 1);
			mrt_rmsg_free(m);
			return;
		}
		list_for_each_entry(h, &pdc->held, node) {
			u16 hahead = h->msg_id - pdc->next_deliver;

			if (hahead == ahead) {
				mrt_stat(pdc->mn, MRT_S_BAD_REASSEMBLY, 1);
				mrt_rmsg_free(m);
				return;
			}
			if (hahead > ahead)
				break;
		}
		list_add_tail(&m->node, &h->node);
		ms->nheld++;
		pdc->held_bytes += m->held;
		pdc->st.msgs++;
		return;
	}
	pdc->st.msgs++;
	mrt_sock_deliver(ms, m);
	pdc->next_deliver++;
	list_for_each_entry_safe(h, hn, &pdc->held, node) {
		if (h->msg_id != pdc->next_deliver)
			break;
		mrt_held_deliver(pdc, h);
		pdc->next_deliver++;
	}
}

/* The receive buffer mrt holds to: SO_RCVBUF (a user may set up to
 * INT_MAX with SO_RCVBUFFORCE), at most a quarter of INT_MAX, so that the
 * reserve and a packet beyond it stay far from sk_rmem_alloc's limit.
 */
static int mrt_rcvbuf(const struct sock *sk)
{
	return min_t(int, READ_ONCE(sk->sk_rcvbuf), INT_MAX / 4);
}

/* A received packet's skb (udp.c's mrt_udp_skb()) that mrt does not
 * keep: a datagram's own goes; a train's is its caller's.
 */
static void mrt_rx_free(struct sk_buff *skb, struct mrt_train *t)
{
	if (!t->gso)
		kfree_skb(skb);
}

/* References to the len bytes at off of skb, which lie in its page
 * fragments, as n's next fragments (n has room for them).
 */
static void mrt_rx_frags_add(struct sk_buff *n, const struct sk_buff *skb,
			     unsigned int off, unsigned int len)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	unsigned int pos = skb_headlen(skb), end = off + len, i;

	for (i = 0; i < si->nr_frags && pos < end; i++) {
		const skb_frag_t *f = &si->frags[i];
		unsigned int fl = skb_frag_size(f), from, to;

		from = max(pos, off);
		to = min(pos + fl, end);
		if (from < to) {
			unsigned int k = skb_shinfo(n)->nr_frags;

			skb_fill_page_desc(n, k, skb_frag_page(f),
					   skb_frag_off(f) + from - pos, to - from);
			__skb_frag_ref(&skb_shinfo(n)->frags[k]);
			n->len += to - from;
			n->data_len += to - from;
		}
		pos += fl;
	}
}

/* How many page fragments of skb the len bytes at off take, if all of
 * them lie in its page fragments; else 0.
 */
static unsigned int mrt_rx_frags_of(const struct sk_buff *skb,
				    unsigned int off, unsigned int len)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	unsigned int pos = skb_headlen(skb), end = off + len, i, k = 0;

	if (off < pos || !len || skb_has_frag_list(skb))
		return 0;
	for (i = 0; i < si->nr_frags && pos < end; i++) {
		if (pos + skb_frag_size(&si->frags[i]) > off)
			k++;
		pos += skb_frag_size(&si->frags[i]);
	}
	return pos >= end ? k : 0;
}

/* Can the len bytes at off of the train's skb, message m's bytes from
 * msg_off, join the skb kept for the train's last payload?  Only if that
 * skb is still m's last (the message lives: found under the lock the
 * train holds), ends where they start, and has room for their
 * fragments: in-order packets of a message then cost one skb per train,
 * not one each.
 */
static bool mrt_rx_ext(const struct mrt_train *t, const struct mrt_rmsg *m,
		       u32 msg_off, unsigned int off, unsigned int len)
{
	const struct sk_buff *e = t->ext;
	unsigned int k;

	if (!e || !m || t->ext_m != m || skb_peek_tail(&m->frags) != e ||
	    skb_cloned(e) || MRT_RX_CB(e)->off + MRT_RX_CB(e)->len != msg_off)
		return false;
	k = mrt_rx_frags_of(t->gso, off, len);
	return k && skb_shinfo(e)->nr_frags + k <= MAX_SKB_FRAGS;
}

/* The skb that keeps the len payload bytes at off of a packet's skb:
 * a datagram's own; for a train's segment, a new skb of those bytes
 * alone, referencing the train's page fragments (bytes in the train's
 * head, or a train with a frag_list, are copied), so that a payload
 * pins the pages of its bytes and no more, and holds at least its share
 * of the train's memory (a clone, cheaper, would pin the whole train
 * while charged a share: what a peer could make a receiver hold would
 * grow with the segments per train).  *start is where the payload lies
 * in the skb returned; NULL if there is no memory
 * (or the bytes are not all there).
 */
static struct sk_buff *mrt_rx_keep(struct sk_buff *skb, struct mrt_train *t,
				   unsigned int off, unsigned int len,
				   unsigned int *start)
{
	unsigned int hl = 0;
	struct sk_buff *n;

	if (!t->gso) {
		*start = off;
		return skb;
	}
	*start = 0;
	if (off < skb_headlen(skb))
		hl = min(len, skb_headlen(skb) - off);
	if (skb_has_frag_list(skb))
		hl = len;
	if (hl < len) {
		unsigned int k = mrt_rx_frags_of(skb, off + hl, len - hl);

		if (!k || k > MAX_SKB_FRAGS)
			return NULL;
	}
	n = alloc_skb(hl, GFP_ATOMIC);
	if (!n)
		return NULL;
	if (hl == len) {
		if (skb_copy_bits(skb, off, skb_put(n, len), len)) {
			kfree_skb(n);
			return NULL;
		}
	} else {
		skb_put_data(n, skb->data + off, hl);
		mrt_rx_frags_add(n, skb, off + hl, len - hl);
		n->truesize += len - hl;
	}
	n->truesize = max(n->truesize, t->share);
	return n;
}

/* Room for a new packet p of ts bytes (its truesize: what it pins,
 * however small its payload) of message m (NULL: the packet starts one):
 * the engine's mrt_rx_room() on the socket's receive buffer.  readable:
 * what recvmsg() can take now.  On an ordered socket the in-order packet
 * must be of the message due next, and that PDC's messages held for it
 * are not "others" (they are read as soon as it completes): its held
 * messages came in below the buffer, and so the bound holds, and a
 * socket whose buffer is full of held messages still takes the one they
 * wait for.
 */
static enum mrt_rx_room mrt_rcv_room(struct mrt_pdc *pdc, const struct mrt_pkt *p,
				     const struct mrt_rmsg *m, unsigned int ts)
{
	struct mrt_sock *ms = pdc->ms;
	struct sock *sk = &ms->inet.sk;
	u64 used = atomic_read(&sk->sk_rmem_alloc), held = m ? m->held : 0;
	u64 others = used - min(used, held);
	struct mrt_rmsg *head;
	bool in_order;

	head = list_first_entry_or_null(&ms->partial, struct mrt_rmsg, node);
	in_order = (!head || head->pdc == pdc) && p->data.psn == pdc->rx.cack;
	if (ms->ordered) {
		in_order = in_order && p->data.msg_id == pdc->next_deliver;
		others -= min(others, pdc->held_bytes);
	}
	return mrt_rx_room(used, ts, mrt_rcvbuf(sk), ms->rxq_len, in_order, held,
			   others);
}

/* A receiving PDC gives up (a message that can never fit, or a message
 * whose sender went quiet): it lingers as its socket's closing would make
 * it (mrt_pdc_linger()), so its sender hears CLOSING for what did not
 * arrive and fails those messages, and a new PDC starts afresh; what it
 * holds whole is read first.
 */
static void mrt_pdc_reset(struct mrt_pdc *pdc)
{
	struct mrt_rmsg *h, *hn;

	mrt_stat(pdc->mn, MRT_S_PDCS_RESET, 1);
	/* An ordered PDC's held messages arrived whole and were
	 * acknowledged (their sender counts them delivered): they are read
	 * now, in order, since the one they wait for will fail at its sender
	 * and never come.
	 */
	list_for_each_entry_safe(h, hn, &pdc->held, node)
		mrt_held_deliver(pdc, h);
	mrt_pdc_linger(pdc);
}

/* Data p's message can never be taken here: the sender fails it
 * (EMSGSIZE) and this PDC resets.
 */
static void mrt_rcv_too_big(struct mrt_pdc *pdc, const struct mrt_pkt *p,
			    struct sk_buff_head *out)
{
	mrt_stat(pdc->mn, MRT_S_MSG_TOO_BIG, 1);
	mrt_send_nack(pdc->mn, pdc, p, &pdc->peer, &pdc->local, pdc->family,
		      MRT_NACK_MSG_TOO_BIG, pdc->rx.cack, out);
	mrt_pdc_reset(pdc);
}

static void mrt_rcv_data(struct mrt_pdc *pdc, struct mrt_pkt *p,
			 struct sk_buff *skb, unsigned int off, bool ce,
			 struct mrt_train *t)
{
	struct mrt_sock *ms = pdc->ms;
	struct sock *sk = &ms->inet.sk;
	struct mrt_net *mn = pdc->mn;
	const struct mrt_data *d = &p->data;
	u32 psn = d->psn, nominal = mrt_nominal(pdc->family, d->payload_len);
	struct sk_buff_head *out = &t->out;
	unsigned int ts = t->gso ? max_t(unsigned int, t->share,
					 SKB_TRUESIZE(0) + d->payload_len) :
			  skb->truesize, start;
	enum mrt_rx_verdict v;
	struct mem_cgroup *old;
	struct sk_buff *keep, *ext_skb = NULL;
	struct mrt_rmsg *m;
	bool now_ack, made = false;
	u64 now = t->now;

	pdc->last_ns = now;
	/* A message larger than this host takes (max_msg_bytes), or than
	 * the receive buffer could ever hold (its payload alone), is
	 * refused.
	 */
	if (d->msg_len > mrt_attr(mn, MRT_A_max_msg_bytes)) {
		mrt_stat(mn, MRT_S_OVERSIZE, 1);
		goto too_big;
	}
	if ((u64)d->msg_len > (u64)mrt_rcvbuf(sk) + MRT_RCV_RESERVE)
		goto too_big;
	m = mrt_rmsg_find(pdc, d->msg_id);
	if (m && m->len != d->msg_len) {
		mrt_stat(mn, MRT_S_BAD_REASSEMBLY, 1);
		mrt_rx_free(skb, t);
		return;
	}
	if (!mrt_psn_before(psn, pdc->rx.cack) &&
	    psn - pdc->rx.cack < pdc->range && !mrt_rx_has(&pdc->rx, psn)) {
		enum mrt_rx_room room = mrt_rcv_room(pdc, p, m, ts);

		/* a new packet of it: its sender is alive, whether or not
		 * there is room for it (partial_msg_timeout_ms)
		 */
		if (m)
			m->last_ns = now;
		/* at most max_partial_msgs messages being reassembled, and
		 * one more at cack (the one the rest may wait for)
		 */
		if (!m && room == MRT_RX_ROOM_OK && psn != pdc->rx.cack &&
		    pdc->npartial >= mrt_attr(mn, MRT_A_max_partial_msgs)) {
			mrt_stat(mn, MRT_S_PARTIAL_LIMIT, 1);
			room = MRT_RX_ROOM_FULL;
		}
		switch (room) {
		case MRT_RX_ROOM_OK:
			break;
		case MRT_RX_ROOM_NEVER:
			goto too_big;
		case MRT_RX_ROOM_FULL:
			ms->st.rcvbuf_drops++;
			mrt_stat(mn, MRT_S_RCVBUF_DROPS, 1);
			mrt_send_nack(mn, pdc, p, &pdc->peer, &pdc->local,
				      pdc->family, MRT_NACK_NO_RESOURCE, 0, out);
			mrt_rx_free(skb, t);
			return;
		}
	}
	if (!m && !mrt_rx_has(&pdc->rx, psn)) {
		/* charged to the socket's memory cgroup; at most one per
		 * packet the receive buffer holds
		 */
		old = set_active_memcg(sk->sk_memcg);
		m = kzalloc(sizeof(*m), GFP_ATOMIC | __GFP_ACCOUNT);
		set_active_memcg(old);
		if (!m) {
			mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
			mrt_rx_free(skb, t);
			return;
		}
		__skb_queue_head_init(&m->frags);
		m->pdc = pdc;
		m->msg_id = d->msg_id;
		m->len = d->msg_len;
		m->peer = pdc->peer;
		m->peer_ep = pdc->peer_ep;
		m->family = pdc->family;
		hlist_add_head(&m->hnode, &pdc->rmsgs[mrt_rmsg_hash(d->msg_id)]);
		list_add_tail(&m->node, &ms->partial);
		pdc->npartial++;
		made = true;
	}
	/* Not trimmed, so the payload is exactly payload_len (mrt_parse()),
	 * and whatever follows it is padding.  Its skb first: a packet is
	 * accepted (and so acknowledged) only once it is kept.
	 */
	keep = NULL;
	if (mrt_rx_peek(&pdc->rx, psn) == MRT_RX_NEW) {
		if (mrt_rx_ext(t, m, d->msg_offset, off + MRT_DATA_HDR_LEN,
			       d->payload_len))
			ext_skb = t->ext;
		/* set again only once this payload is kept */
		t->ext = NULL;
		if (!ext_skb) {
			keep = mrt_rx_keep(skb, t, off + MRT_DATA_HDR_LEN,
					   d->payload_len, &start);
			if (!keep) {
				mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
				goto drop;
			}
		}
	}
	v = mrt_rx_accept(&pdc->rx, psn, nominal);
	trace_mrt_rx(pdc, psn, d->payload_len, v, ce);
	switch (v) {
	case MRT_RX_NEW:
		break;
	case MRT_RX_OOR:
		mrt_stat(mn, MRT_S_OOR_IN, 1);
		mrt_send_nack(mn, pdc, p, &pdc->peer, &pdc->local, pdc->family,
			      MRT_NACK_PSN_OOR_WINDOW, pdc->range, out);
		goto drop;
	case MRT_RX_STRAY:
		mrt_stat(mn, MRT_S_STRAY_IN, 1);
		goto drop;
	default:
		mrt_stat(mn, MRT_S_DUP_IN, 1);
		mrt_send_ack(pdc, p, ce, 0, now, out);
		goto drop;
	}
	if (WARN_ON_ONCE(!m))
		goto drop;
	pdc->st.pkts++;
	pdc->st.ecn += ce;

	now_ack = mrt_rx_ack_at_once(p, ce) ||
		  ++pdc->since_ack >= mrt_attr(mn, MRT_A_ack_every_pkts);

	if (ext_skb) {
		/* its bytes join the train's last skb of m, charged its
		 * share as that skb's own were (at least its bytes)
		 */
		unsigned int charge = max(t->share, d->payload_len);

		keep = ext_skb;
		mrt_rx_frags_add(keep, t->gso, off + MRT_DATA_HDR_LEN,
				 d->payload_len);
		keep->truesize += charge;
		atomic_add(charge, &sk->sk_rmem_alloc);
		MRT_RX_CB(keep)->len += d->payload_len;
		m->held += charge;
	} else {
		skb_orphan(keep);
		skb_set_owner_r(keep, sk);
		MRT_RX_CB(keep)->off = d->msg_offset;
		MRT_RX_CB(keep)->start = start;
		MRT_RX_CB(keep)->len = d->payload_len;
		__skb_queue_tail(&m->frags, keep);
		m->held += keep->truesize;
	}
	m->got += d->payload_len;
	m->last_ns = now;
	t->ext = t->gso ? keep : NULL;
	t->ext_m = m;
	if (m->got > m->len) {
		t->ext = NULL;
		mrt_rmsg_unlink(pdc, m);
		mrt_stat(mn, MRT_S_BAD_REASSEMBLY, 1);
		mrt_rmsg_free(m);
	} else if (m->got == m->len && (d->payload_len || !m->len)) {
		t->ext = NULL;
		mrt_rmsg_done(pdc, m);
	}
	if (now_ack)
		mrt_send_ack(pdc, p, ce, 0, now, out);
	return;
drop:
	/* a message made for this packet goes again */
	if (made) {
		mrt_rmsg_unlink(pdc, m);
		mrt_rmsg_free(m);
	}
	if (keep != skb)
		kfree_skb(keep);
	mrt_rx_free(skb, t);
	return;
too_big:
	t->ext = NULL;
	mrt_rcv_too_big(pdc, p, out);
	mrt_rx_free(skb, t);
}

static bool mrt_is_trim(struct mrt_net *mn, const struct mrt_pkt *p, u8 dscp,
			u8 *code)
{
	u8 t = mrt_attr(mn, MRT_A_trim_dscp);
	u8 l = mrt_attr(mn, MRT_A_trim_lasthop_dscp);

	if (l && dscp == l) {
		*code = MRT_NACK_TRIMMED_LASTHOP;
		return true;
	}
	*code = MRT_NACK_TRIMMED;
	return p->trimmed || (t && dscp == t);
}

/* A data packet for a lingering PDC, before anything else looks at it (a
 * trimmed one too: only its header matters).  What arrived before is
 * acknowledged again, which is all a lingering PDC lives for; what did
 * not is answered by one ACK flagged CLOSING, whose cack and SACK say what
 * did arrive, so that the sender retires that and fails the rest; a stray
 * one is dropped.  Only acknowledged duplicates keep it (mrt_gc_work()).
 */
static void mrt_rcv_linger(struct mrt_pdc *pdc, const struct mrt_pkt *p, bool ce,
			   struct sk_buff_head *out)
{
	struct mrt_net *mn = pdc->mn;

	switch (mrt_rx_peek(&pdc->rx, p->data.psn)) {
	case MRT_RX_DUP:
	case MRT_RX_OLD:
		mrt_stat(mn, MRT_S_DUP_IN, 1);
		pdc->last_ns = mrt_now();
		mrt_send_ack(pdc, p, ce, 0, 0, out);
		break;
	case MRT_RX_STRAY:
		mrt_stat(mn, MRT_S_STRAY_IN, 1);
		break;
	default:
		mrt_stat(mn, MRT_S_CLOSING_IN, 1);
		mrt_send_ack(pdc, p, ce, MRT_ACK_F_CLOSING, 0, out);
	}
}

/* Under ms->lock: the receiving PDC a SYN p from peer opened, if any:
 * the same peer PDC (endpoint, id), key and first PSN.  A SYN that
 * differs in any (a sender that reuses its 16-bit id for a new PDC starts
 * elsewhere with another key) is another PDC's.
 */
static struct mrt_pdc *mrt_pdc_rx_find(struct mrt_sock *ms,
				       const struct mrt_addr *peer,
				       const struct mrt_pkt *p)
{
	u16 peer_ep = p->data.src_ep, rid = p->spdcid;
	struct mrt_pdc *pdc;

	hlist_for_each_entry(pdc, &ms->pdcs[mrt_pdc_hash(peer, peer_ep, rid)],
			     hnode)
		if (pdc->role == MRT_PDC_RX && pdc->peer_ep == peer_ep &&
		    pdc->rid == rid && pdc->rkey == p->skey &&
		    pdc->syn_psn == p->data.start_psn &&
		    mrt_addr_eq(&pdc->peer, peer))
			return pdc;
	return NULL;
}

/* Under ms->lock, softirq: a receiving PDC for SYN p from src to dst,
 * whose cookie was checked, within the limits (max_rx_pdcs, per source
 * address, per socket), its memory charged to the socket's memory cgroup.
 * NULL if none may be had (NACKed NO_RESOURCE, rate limited).
 */
static struct mrt_pdc *mrt_pdc_rx_new(struct mrt_sock *ms, struct mrt_pkt *p,
				      const struct mrt_addr *src,
				      const struct mrt_addr *dst, u8 family,
				      struct sk_buff_head *out)
{
	struct mem_cgroup *old = set_active_memcg(ms->inet.sk.sk_memcg);
	gfp_t gfp = GFP_ATOMIC | __GFP_ACCOUNT;
	struct mrt_net *mn = ms->mn;
	struct mrt_pdc *pdc = NULL;
	struct mrt_src *sc;
	u32 range;
	int err;

	range = mrt_attr(mn, MRT_A_max_psn_range);
	if (!mrt_range_valid(range))
		range = 1024;
	sc = mrt_src_get(mn, src, gfp);
	if (sc) {
		pdc = mrt_pdc_new(ms, MRT_PDC_RX, range, gfp, &err);
		if (!pdc)
			mrt_src_put(mn, sc);
	}
	set_active_memcg(old);
	if (!pdc) {
		if (mrt_answer_ok(mn, src, false))
			mrt_send_nack(mn, NULL, p, src, dst, family,
				      MRT_NACK_NO_RESOURCE, 0, out);
		return NULL;
	}
	pdc->src = sc;
	mrt_src_hold_dest(mn, sc);
	pdc->rid = p->spdcid;
	pdc->rkey = p->skey;
	pdc->peer = *src;
	pdc->peer_ep = p->data.src_ep;
	pdc->local = *dst;
	pdc->family = family;
	pdc->syn_psn = p->data.start_psn;
	mrt_rx_init(&pdc->rx, p->data.start_psn, range, pdc->bits);
	mrt_pdc_link(ms, pdc);
	return pdc;
}

/* A DATA packet: to its PDC, or a SYN that makes one.  A packet that
 * names a PDC (dpdcid) must carry its key; a SYN finds the PDC it opened
 * (same peer id, key and first PSN), or makes one if its cookie shows the
 * peer receives at its address, else it is answered with a cookie and
 * nothing is kept.
 */
static void mrt_rcv_data_pkt(struct mrt_net *mn, struct sk_buff *skb,
			     unsigned int off, struct mrt_pkt *p,
			     const struct mrt_addr *src,
			     const struct mrt_addr *dst, u8 family, u8 ds,
			     struct mrt_train *t)
{
	struct sk_buff_head *out = &t->out;
	bool ce = INET_ECN_is_ce(ds);
	struct mrt_pdc *pdc = NULL;
	struct mrt_sock *ms;
	u8 code;

	mrt_stat(mn, MRT_S_DATA_IN, 1);
	if (p->dpdcid) {
		pdc = xa_load(&mn->pdcs, p->dpdcid);
		if (pdc && p->dkey != pdc->key) {
			mrt_stat(mn, MRT_S_BAD_KEY, 1);
			goto drop;
		}
		if (!pdc || pdc->role != MRT_PDC_RX || pdc->rid != p->spdcid ||
		    pdc->rkey != p->skey || pdc->family != family ||
		    !mrt_addr_eq(&pdc->peer, src) ||
		    pdc->peer_ep != p->data.src_ep) {
			mrt_stat(mn, MRT_S_UNKNOWN_PDC, 1);
			if (!pdc && mrt_answer_ok(mn, src, false))
				mrt_send_nack(mn, NULL, p, src, dst, family,
					      MRT_NACK_INV_DPDCID, 0, out);
			goto drop;
		}
		/* the PDC's packets of a train, under one hold */
		ms = pdc->ms;
		mrt_train_lock(t, ms);
		if (!pdc->linked)
			goto drop;
		goto found;
	} else {
		/* A SYN retransmission for a PDC whose socket closed: its
		 * lingering PDC answers, not a socket that took the endpoint
		 * since (which would get the message a second time).
		 */
		mrt_train_unlock(t);
		pdc = mrt_linger_find(mn, family, src, dst, p);
		if (pdc) {
			ms = pdc->ms;
			mrt_train_lock(t, ms);
			goto found;
		}
		ms = mrt_ep_lookup(mn, family, p->data.dst_ep, dst);
		if (!ms) {
			mrt_stat(mn, MRT_S_NO_ENDPOINT, 1);
			if (mrt_answer_ok(mn, src, false))
				mrt_send_nack(mn, NULL, p, src, dst, family,
					      MRT_NACK_NO_ENDPOINT, 0, out);
			goto drop;
		}
		spin_lock(&ms->lock);
		if (ms->dead) {
			spin_unlock(&ms->lock);
			goto drop;
		}
		pdc = mrt_pdc_rx_find(ms, src, p);
		if (!pdc && !mrt_cookie_ok(mn, src, dst, p->dkey)) {
			spin_unlock(&ms->lock);
			mrt_stat(mn, MRT_S_SYN_NO_COOKIE, 1);
			if (mrt_answer_ok(mn, src, true)) {
				mrt_stat(mn, MRT_S_COOKIES_OUT, 1);
				mrt_send_nack(mn, NULL, p, src, dst, family,
					      MRT_NACK_COOKIE,
					      mrt_cookie(mn, src, dst,
							 mrt_cookie_period()),
					      out);
			}
			goto drop;
		}
		if (!pdc) {
			pdc = mrt_pdc_rx_new(ms, p, src, dst, family, out);
			if (!pdc) {
				spin_unlock(&ms->lock);
				goto drop;
			}
		}
		/* the train's hold from here */
		t->ms = ms;
		__release(&ms->lock);
	}
	/* ms->lock held, as the train's (mrt_train_unlock() lets it go) */
found:
	if (pdc->dead)
		goto drop;
	if (pdc->state == MRT_PDC_LINGER) {
		mrt_rcv_linger(pdc, p, ce, out);
		goto drop;
	}
	if (mrt_is_trim(mn, p, ds >> 2, &code)) {
		mrt_stat(mn, MRT_S_TRIMMED_IN, 1);
		pdc->st.trims++;
		pdc->last_ns = t->now;
		mrt_send_nack(mn, pdc, p, src, dst, family, code, 0, out);
		goto drop;
	}
	mrt_rcv_data(pdc, p, skb, off, ce, t);
	return;
drop:
	mrt_rx_free(skb, t);
}

/* The PDC of ours a packet p from src names (dpdcid), if p carries its
 * key: else NULL, counted (bad_key_in, or unknown_pdc for no such PDC or
 * one of another role, family or peer).  Nothing is changed before this.
 */
static struct mrt_pdc *mrt_pdc_named(struct mrt_net *mn, const struct mrt_pkt *p,
				     u8 role, const struct mrt_addr *src, u8 family)
{
	struct mrt_pdc *pdc = xa_load(&mn->pdcs, p->dpdcid);

	if (pdc && p->dkey != pdc->key) {
		mrt_stat(mn, MRT_S_BAD_KEY, 1);
		return NULL;
	}
	if (!pdc || pdc->role != role || pdc->family != family ||
	    !mrt_addr_eq(&pdc->peer, src)) {
		mrt_stat(mn, MRT_S_UNKNOWN_PDC, 1);
		return NULL;
	}
	return pdc;
}

/* Under ms->lock: an answer p names the receiving half pdc talks to.  A
 * stateless NACK names none (its key, already checked, says it answers
 * ours); the first answer of the receiving half gives its id and key
 * (the PDC opens), every later one must carry the same.
 */
static bool mrt_pdc_answer(struct mrt_pdc *pdc, const struct mrt_pkt *p)
{
	if (!p->spdcid)
		return true;
	if (pdc->state == MRT_PDC_SYN) {
		pdc->rid = p->spdcid;
		pdc->rkey = p->skey;
		pdc->state = MRT_PDC_OPEN;
		trace_mrt_pdc_state(pdc, 0);
	}
	return pdc->rid == p->spdcid && pdc->rkey == p->skey;
}

/* An ACK or NACK: to the sending PDC it names. */
static void mrt_rcv_answer(struct mrt_net *mn, const struct mrt_pkt *p,
			   const struct mrt_addr *src, u8 family,
			   struct mrt_train *t)
{
	struct sk_buff_head *out = &t->out;
	struct mrt_pdc *pdc;
	struct mrt_sock *ms;

	pdc = mrt_pdc_named(mn, p, MRT_PDC_TX, src, family);
	if (!pdc)
		return;
	/* another PDC's answer: the one the train was for sends first */
	if (t->push && t->push != pdc)
		mrt_train_end(mn, t);
	ms = pdc->ms;
	mrt_train_lock(t, ms);
	if (!pdc->linked || pdc->dead)
		return;
	if (!mrt_pdc_answer(pdc, p)) {
		mrt_stat(mn, MRT_S_UNKNOWN_PDC, 1);
		return;
	}
	/* the train's arrival, which is each of its ACKs' (the engine keeps
	 * NSCC's clock from running back if another CPU's train was later)
	 */
	if (p->type == MRT_TYPE_ACK)
		mrt_rcv_ack(pdc, p, t->now, out);
	else
		mrt_rcv_nack(pdc, p, out);
	/* it sends, and the window may have opened for the destination's
	 * other PDCs, once the train's answers to it are in
	 */
	t->push = pdc;
}

/* A CTRL packet: a probe for one of our receiving PDCs, answered on the
 * EV it came on; or a probe's answer, for one of our sending PDCs, which
 * makes that EV GOOD again and lets waiting data go.  Others are counted
 * (ctrl_in) and dropped.
 */
static void mrt_rcv_ctrl(struct mrt_net *mn, const struct mrt_pkt *p,
			 const struct mrt_addr *src, const struct mrt_addr *dst,
			 u8 family, struct sk_buff_head *out)
{
	bool probe = p->ctrl.ctl_type == MRT_CTRL_PROBE;
	struct sk_buff *skb;
	struct mrt_pdc *pdc;
	struct mrt_sock *ms;
	struct mrt_dest *d;
	int ev;

	if (!probe && p->ctrl.ctl_type != MRT_CTRL_PROBE_ACK)
		return;
	mrt_stat(mn, probe ? MRT_S_PROBES_IN : MRT_S_PROBE_ACKS_IN, 1);
	pdc = mrt_pdc_named(mn, p, probe ? MRT_PDC_RX : MRT_PDC_TX, src, family);
	if (!pdc)
		return;
	ms = pdc->ms;
	spin_lock(&ms->lock);
	if (!pdc->linked || pdc->dead)
		goto unlock;
	if (!pdc->rid || pdc->rid != p->spdcid || pdc->rkey != p->skey) {
		mrt_stat(mn, MRT_S_UNKNOWN_PDC, 1);
		goto unlock;
	}
	if (probe) {
		struct mrt_pkt a = {
			.type = MRT_TYPE_CTRL,
			.spdcid = pdc->lid,
			.dpdcid = pdc->rid,
			.ev = p->ev,
			.skey = pdc->key,
			.dkey = pdc->rkey,
		};

		a.ctrl.ctl_type = MRT_CTRL_PROBE_ACK;
		a.ctrl.opaque = p->ctrl.opaque;
		a.ctrl.psn = p->ctrl.psn;
		skb = mrt_alloc_ctl(MRT_CTRL_HDR_LEN);
		if (!skb) {
			mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
			goto unlock;
		}
		mrt_build(skb_put(skb, MRT_CTRL_HDR_LEN), &a);
		mrt_ctl_addr(skb, pdc, dst, src, family, p->ev,
			     mrt_ctl_tos_of(mn));
		__skb_queue_tail(out, skb);
		if (pdc->state != MRT_PDC_LINGER)
			pdc->last_ns = mrt_now();
		goto unlock;
	}
	d = pdc->dest;
	spin_lock(&d->lock);
	ev = mrt_ev_index(&d->evs, p->ev);
	if (ev >= 0 && ev == p->ctrl.opaque) {
		/* the MRC page: probe answers are RTT samples for the base
		 * RTT; the answer to an EV's last probe only, timed from
		 * the send time kept here (the echo names the probe)
		 */
		u64 rtt = mrt_ev_probe_ack(&d->evs, ev, p->ctrl.psn, mrt_now());

		if (rtt)
			nscc_on_probe_rtt(&d->cc, rtt);
	}
	spin_unlock(&d->lock);
	mrt_pdc_push(pdc, out);
	spin_unlock(&ms->lock);
	/* the EV is there for the destination's other PDCs too */
	mrt_xmit_queue(mn, out);
	if (!list_empty_careful(&d->waiters))
		mrt_dest_kick(d, NULL);
	return;
unlock:
	spin_unlock(&ms->lock);
}

/* The receive path, from udp.c's mrt_udp_skb(): a datagram, or a
 * train's segment.  Softirq, under RCU.
 */
void mrt_rcv(struct mrt_net *mn, struct sk_buff *skb, unsigned int off,
	     unsigned int len, const struct mrt_addr *src,
	     const struct mrt_addr *dst, u8 family, u8 ds, struct mrt_train *t)
{
	struct sk_buff_head *out = &t->out;
	u8 buf[MRT_ACK_HDR_LEN];
	unsigned int hlen;
	struct mrt_pkt p;
	const u8 *h;
	int err;

	BUILD_BUG_ON(sizeof(buf) < MRT_DATA_MIN_LEN ||
		     sizeof(buf) < MRT_NACK_HDR_LEN ||
		     sizeof(buf) < MRT_CTRL_HDR_LEN);
	mrt_stat(mn, MRT_S_PKTS_IN, 1);
	mrt_stat(mn, MRT_S_BYTES_IN, len);
	/* Up to the header the first byte names (all of a shorter packet),
	 * read where it lies (copied only if it spans fragments):
	 * mrt_parse() reads no further, and it alone says whether and why a
	 * packet is malformed, in the order it checks (a short packet of a
	 * foreign version is malformed_version, as in the unit tests and
	 * the fuzzers).
	 */
	hlen = min_t(unsigned int, len, MRT_HDR_LEN);
	h = skb_header_pointer(skb, off, hlen, buf);
	if (!h)
		goto nomem;
	if (hlen == MRT_HDR_LEN) {
		u8 type = h[0] & 0x0f;

		/* a data packet's padding too: mrt_parse() checks it */
		hlen = min_t(unsigned int, len,
			     type == MRT_TYPE_DATA ? MRT_DATA_MIN_LEN :
			     mrt_hdr_len(type));
		hlen = min_t(unsigned int, hlen, sizeof(buf));
		if (hlen > MRT_HDR_LEN) {
			h = skb_header_pointer(skb, off, hlen, buf);
			if (!h)
				goto nomem;
		}
	}
	err = mrt_parse(h, len, &p);
	if (err)
		goto bad;

	switch (p.type) {
	case MRT_TYPE_DATA:
		mrt_rcv_data_pkt(mn, skb, off, &p, src, dst, family, ds, t);
		break;
	case MRT_TYPE_ACK:
	case MRT_TYPE_NACK:
		mrt_stat(mn, p.type == MRT_TYPE_ACK ? MRT_S_ACKS_IN :
			 MRT_S_NACKS_IN, 1);
		mrt_rx_free(skb, t);
		mrt_rcv_answer(mn, &p, src, family, t);
		break;
	default:
		mrt_stat(mn, MRT_S_CTRL_IN, 1);
		mrt_rx_free(skb, t);
		mrt_train_unlock(t);
		mrt_rcv_ctrl(mn, &p, src, dst, family, out);
	}
	return;
bad:
	mrt_stat(mn, MRT_S_MALFORMED(mrt_bad_reason(err)), 1);
	mrt_rx_free(skb, t);
	return;
nomem:
	mrt_stat(mn, MRT_S_ALLOC_FAIL, 1);
	mrt_rx_free(skb, t);
}

/* A receiving PDC's messages being reassembled: one that had no packet
 * for partial_msg_timeout_ms (taken or not: a message waiting for room
 * has a live sender) has a sender that went quiet (a live one sends again
 * within rto_max_us, however it backs off), and what it holds goes with
 * the PDC (mrt_pdc_reset(): the sender, if it comes back, hears CLOSING
 * and fails what did not arrive).
 */
static bool mrt_rx_expired(struct mrt_pdc *pdc, u64 now)
{
	s64 t = (s64)mrt_attr(pdc->mn, MRT_A_partial_msg_timeout_ms) * NSEC_PER_MSEC;
	unsigned int i, n = 0;
	struct mrt_rmsg *m;

	for (i = 0; i < ARRAY_SIZE(pdc->rmsgs); i++)
		hlist_for_each_entry(m, &pdc->rmsgs[i], hnode)
			n += (s64)(now - m->last_ns) > t;
	if (n)
		mrt_stat(pdc->mn, MRT_S_PARTIAL_EXPIRED, n);
	return n;
}

/* Idle PDCs: a sending one with nothing outstanding or queued after
 * pdc_idle_ms, a receiving one after twice that with nothing received;
 * a receiving one whose messages being reassembled expired
 * (mrt_rx_expired()) resets.
 */
void mrt_gc_work(struct work_struct *w)
{
	struct mrt_net *mn = container_of(to_delayed_work(w), struct mrt_net, gc);
	u64 now = mrt_now();
	s64 quiet, idle = (s64)mrt_attr(mn, MRT_A_pdc_idle_ms) * NSEC_PER_MSEC;
	struct mrt_pdc *pdc;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&mn->pdcs, id, pdc) {
		struct mrt_sock *ms = pdc->ms;

		spin_lock_bh(&ms->lock);
		if (pdc->dead || !pdc->linked)
			goto next;
		/* signed: last_ns may be newer than now, from another CPU */
		quiet = (s64)(now - pdc->last_ns);
		if (pdc->role == MRT_PDC_TX) {
			if (mrt_pdc_idle(pdc) && quiet > idle)
				mrt_pdc_close(pdc, 0, NULL);
			/* A closed socket's messages that make no progress
			 * for 12 idle periods (a minute by default: a peer
			 * that never takes them) are given up.
			 */
			else if (ms->dead &&
				 (s64)(now - pdc->progress_ns) > 12 * idle)
				mrt_pdc_close(pdc, ETIMEDOUT, NULL);
		} else if (pdc->state != MRT_PDC_LINGER &&
			   mrt_rx_expired(pdc, now)) {
			mrt_pdc_reset(pdc);
		} else if (pdc->state == MRT_PDC_LINGER) {
			/* quiet, or lingering long: a peer that keeps
			 * sending never holds a closed socket for good
			 */
			if (quiet > mrt_linger_ns(mn) ||
			    (s64)(now - pdc->progress_ns) > 4 * mrt_linger_ns(mn))
				mrt_pdc_close(pdc, 0, NULL);
		} else if (quiet > 2 * idle) {
			mrt_pdc_close(pdc, 0, NULL);
		}
next:
		spin_unlock_bh(&ms->lock);
	}
	rcu_read_unlock();
	if (atomic_read(&mn->npdcs) || atomic_read(&mn->nrx))
		mod_delayed_work(system_wq, &mn->gc, HZ);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's protocol engine (engine.h): the sending PDC's answers to ACKs,
 * NACKs, timers and a chance to send, and the receiver's ACK.  Pure C;
 * the same file builds into mrt.ko, the unit tests and fabsim.
 */
#include <linux/time64.h>

#include "engine.h"

int mrt_snd_init(struct mrt_snd *s, u32 first_psn, u32 range,
		 struct mrt_slot *slots, u32 *rtxq, u64 *acked, u64 *lost,
		 u32 *ref)
{
	if (mrt_tx_init(&s->tx, first_psn, range, acked, lost, ref))
		return -1;
	s->slots = slots;
	s->rtxq = rtxq;
	s->rtxq_head = 0;
	s->rtxq_len = 0;
	s->range = range;
	s->peer_range = range;
	s->wait_until = 0;
	s->wait_shift = 0;
	s->last_rcvd = 0;
	s->oor = 0;
	s->batch_ev = 0;
	s->batch_left = 0;
	s->rto.srtt8 = 0;
	s->rto.rttvar4 = 0;
	s->rack = NULL;
	s->rack_n = 0;
	s->rtt_min_ns = 0;
	s->reo_grown_ns = 0;
	s->reo_learnt_ns = 0;
	s->reo_base_ns = 0;
	s->reo_clean = 0;
	return 0;
}

static void mrt_rtxq_add(struct mrt_snd *s, u32 psn, u8 cause)
{
	struct mrt_slot *sl = mrt_snd_slot(s, psn);

	if (sl->flags & MRT_SLOT_RTXQ || s->rtxq_len >= s->range)
		return;
	sl->flags |= MRT_SLOT_RTXQ;
	sl->cause = cause;
	s->rtxq[(s->rtxq_head + s->rtxq_len++) & (s->range - 1)] = psn;
}

u32 mrt_snd_rto_us(const struct mrt_snd *s, const struct mrt_snd_cfg *c)
{
	/* before the first sample: four times the floor */
	return mrt_rto_us(&s->rto, c->rto_min_us, c->rto_max_us,
			  min_t(u64, (u64)c->rto_min_us * 4, c->rto_max_us));
}

u64 mrt_snd_deadline(const struct mrt_snd *s, const struct mrt_slot *sl,
		     u32 rto_us, const struct mrt_snd_cfg *c)
{
	u64 rto = (u64)rto_us << min_t(u32, sl->rtos, 6);

	rto = min_t(u64, rto, c->rto_max_us);
	return sl->sent_ns + rto * NSEC_PER_USEC;
}

/* What the PDC's RTTs make late: the smoothed RTT and four times its
 * variation (the RTO without its floor), ns.
 */
static u64 mrt_snd_late_ns(const struct mrt_snd *s)
{
	return (u64)(s->rto.srtt8 / 8 + s->rto.rttvar4) * NSEC_PER_USEC;
}

/* EV ev's RACK state, if anything has been acknowledged on it. */
static struct mrt_ev_rack *mrt_snd_rack(const struct mrt_snd *s, u16 ev)
{
	return ev < s->rack_n && s->rack[ev].sent_ns ? &s->rack[ev] : NULL;
}

u64 mrt_snd_reo_ns(const struct mrt_snd *s, const struct mrt_snd_cfg *c)
{
	u64 cap = mrt_snd_late_ns(s);
	u64 w = div_u64(s->rtt_min_ns * c->rack_reo_wnd_thou, 1000);

	w = max(w, s->reo_learnt_ns);
	return s->rto.srtt8 ? min(w, cap) : w;
}

struct mrt_ack_ctx {
	struct mrt_snd *s;
	const struct mrt_snd_dest *d;
	const struct mrt_snd_ops *ops;
	const struct mrt_snd_cfg *cfg;
	void *ctx;
	u64 now;
	u64 rtt_ns;
	u64 readd;		/* bytes presumed lost, then acknowledged */
	u64 lost;		/* bytes presumed lost by this ACK */
	u64 reo_ns;		/* the reordering window */
	u64 next;		/* the earliest presumption still to come */
	u32 false_lost;		/* presumptions it shows false */
	u64 late_ns;		/* the most that one of them, sent again,
				 * had been out again when the ACK came
				 */
	u64 ack_sent_ns;	/* when the transmission the ACK answers
				 * left; 0: not known
				 */
	u16 ack_ev;		/* ... and its EV */
	u32 rto_us;		/* the RTO now */
	u32 ack_psn;
	bool retx_echo;
	bool newly;		/* acknowledged something new */
	bool syn_rtt;		/* rtt_ns is of a packet sent in SYN */
};

/* The ACK that acknowledges psn is of an earlier transmission of it than
 * the last: it answers the packet as an original; or it answers a packet
 * that left on the same EV before that last transmission, so that what
 * it reports the receiver held before the retransmission could come (the
 * test of TCP's timestamps, RFC 3522's Eifel detection, with the packet
 * it answers as the echo; on one path, which keeps order); or it came
 * sooner after the last transmission than any RTT seen (RFC 8985's).
 */
static bool mrt_ack_of_earlier(const struct mrt_ack_ctx *c,
			       const struct mrt_slot *sl, u32 psn)
{
	if (sl->tx_count < 2)
		return false;
	if (psn == c->ack_psn)
		return !c->retx_echo;
	if (c->ack_sent_ns && c->ack_ev == sl->ev && c->ack_sent_ns < sl->sent_ns)
		return true;
	return c->s->rtt_min_ns &&
	       (s64)(c->now - sl->sent_ns) < (s64)c->s->rtt_min_ns;
}

/* sl went before t on its EV: new packets leave an EV in PSN order (a
 * batch's stamps, spread at the configured rate, need not be); else by
 * their departures, a batch's equal stamps by PSN.
 */
static bool mrt_rack_before(const struct mrt_slot *sl, u32 psn,
			    const struct mrt_ev_rack *t)
{
	if (sl->tx_count == 1 && t->first)
		return mrt_psn_before(psn, t->psn);
	return sl->sent_ns < t->sent_ns ||
	       (sl->sent_ns == t->sent_ns && mrt_psn_before(psn, t->psn));
}

/* RACK's state of sl's EV: the latest transmission acknowledged on it. */
static void mrt_rack_update(struct mrt_ack_ctx *c, const struct mrt_slot *sl,
			    u32 psn)
{
	struct mrt_ev_rack *r;
	s64 rtt;

	/* (not a SYN packet's: it holds the peer's setup) */
	if (sl->ev >= c->s->rack_n || sl->flags & MRT_SLOT_SYN)
		return;
	r = &c->s->rack[sl->ev];
	rtt = c->now - sl->sent_ns;
	if (rtt <= 0 || mrt_ack_of_earlier(c, sl, psn))
		return;
	if (r->sent_ns && mrt_rack_before(sl, psn, r))
		return;
	r->sent_ns = sl->sent_ns;
	r->rtt_ns = min_t(u64, rtt, U32_MAX);
	r->psn = psn;
	r->first = sl->tx_count == 1;
}

static void mrt_acked(void *ctx, u32 psn)
{
	struct mrt_ack_ctx *c = ctx;
	struct mrt_slot *sl = mrt_snd_slot(c->s, psn);

	if (!(sl->flags & MRT_SLOT_LIVE))
		return;
	c->newly = true;
	/* a false presumption: acknowledged before it went again, or after,
	 * by an ACK of the transmission it was presumed of (not one sent
	 * later by a timer)
	 */
	if (sl->flags & MRT_SLOT_PRESUMED &&
	    ((sl->flags & MRT_SLOT_RTXQ && sl->cause == MRT_RTX_SACK) ||
	     (sl->tx_count == 2 && mrt_ack_of_earlier(c, sl, psn)))) {
		c->false_lost++;
		if (!(sl->flags & MRT_SLOT_RTXQ) && (s64)(c->now - sl->sent_ns) > 0)
			c->late_ns = max(c->late_ns, c->now - sl->sent_ns);
	}
	if (c->s->rack)
		mrt_rack_update(c, sl, psn);
	/* (a departure stamp later than now, a batch's segment stamped at
	 * a configured rate below the device's, gives no sample)
	 */
	if (psn == c->ack_psn && (s64)(c->now - sl->sent_ns) > 0 &&
	    (sl->tx_count == 1 || (c->retx_echo && sl->tx_count == 2))) {
		c->rtt_ns = c->now - sl->sent_ns;
		c->syn_rtt = sl->flags & MRT_SLOT_SYN;
	}
	if (!(sl->flags & MRT_SLOT_INFLIGHT))
		c->readd += sl->bytes;
	if (sl->flags & MRT_SLOT_OOR)
		c->s->oor--;
	sl->flags = 0;
	c->ops->acked(c->ctx, psn);
}

/* With rack on (engine.h): whether the SACKs presume psn lost by now;
 * if its ordering evidence has come but not its time, that time goes to
 * c->next.
 */
static bool mrt_rack_lost(struct mrt_ack_ctx *c, const struct mrt_slot *sl,
			  u32 psn, bool beyond)
{
	const struct mrt_ev_rack *r = mrt_snd_rack(c->s, sl->ev);
	u64 rtt, due;

	/* ordering on its EV: a later transmission on it acknowledged; time:
	 * out for longer than that one's RTT and the window
	 */
	if (r && mrt_rack_before(sl, psn, r)) {
		rtt = r->rtt_ns;
	} else if (beyond) {
		/* ordering across EVs, the gap: then out for longer than
		 * what the PDC's RTTs make late, or its EV's last RTT if
		 * more, and the window
		 */
		rtt = mrt_snd_late_ns(c->s);
		if (r)
			rtt = max_t(u64, rtt, r->rtt_ns);
	} else {
		return false;
	}
	/* past its RTO the packet is the timer's: an expiry, counted once */
	if ((s64)(c->now - mrt_snd_deadline(c->s, sl, c->rto_us, c->cfg)) >= 0)
		return false;
	due = sl->sent_ns + rtt + c->reo_ns;
	if ((s64)(c->now - due) >= 0)
		return true;
	c->next = min(c->next, due);
	return false;
}

/* A SACK gap: the packet goes again and its EV is charged; in the mrc
 * flavour it is a loss to NSCC too (its bytes leave flight, the window
 * shrinks), in the uet flavour not (the UET page: such a gap "is not a
 * loss signal and does not change the window").
 */
static bool mrt_lost(void *ctx, u32 psn, bool beyond)
{
	struct mrt_ack_ctx *c = ctx;
	struct mrt_slot *sl = mrt_snd_slot(c->s, psn);
	bool signal;

	/* a packet already queued, or waiting for the receiver's room or
	 * window, goes at its time: its one presumption stays unspent
	 */
	if (!(sl->flags & MRT_SLOT_LIVE) ||
	    sl->flags & (MRT_SLOT_RTXQ | MRT_SLOT_WAIT | MRT_SLOT_OOR))
		return false;
	if (c->cfg->rack ? !mrt_rack_lost(c, sl, psn, beyond) : !beyond)
		return false;
	sl->flags |= MRT_SLOT_PRESUMED;
	c->ops->lock(c->ctx);
	mrt_ev_loss(c->d->evs, sl->ev, c->now);
	signal = c->d->cc->cfg.flavour != NSCC_FLAVOUR_UET;
	c->ops->unlock(c->ctx);
	if (signal && sl->flags & MRT_SLOT_INFLIGHT) {
		c->lost += sl->bytes;
		sl->flags &= ~MRT_SLOT_INFLIGHT;
	}
	mrt_rtxq_add(c->s, psn, MRT_RTX_SACK);
	c->ops->sack_lost(c->ctx, psn);
	return true;
}

/* The reordering window's growth (engine.h), by an ACK that shows a
 * presumption false: doubled, at most once per smoothed RTT; and to what
 * would have held back the presumption of a packet whose original was
 * acknowledged late_ns after it went again: the window before this
 * round's growth plus late_ns, at least.  Learnt in time, not in least
 * RTTs, so that a smaller RTT sample later does not shrink it.
 */
static void mrt_snd_reo_grow(struct mrt_snd *s, const struct mrt_ack_ctx *c,
			     const struct mrt_snd_cfg *cfg)
{
	u64 srtt = (u64)(s->rto.srtt8 / 8) * NSEC_PER_USEC;
	u64 w = mrt_snd_reo_ns(s, cfg);

	s->reo_clean = 0;
	if (!s->reo_grown_ns || (s64)(c->now - s->reo_grown_ns) >= (s64)srtt) {
		s->reo_base_ns = w;
		w *= 2;
		s->reo_grown_ns = c->now;
	}
	w = max(w, s->reo_base_ns + c->late_ns);
	s->reo_learnt_ns = min_t(u64, w, MRT_REO_MAX_NS);
}

/* ... and its decay: an eighth less after 16 ACKs or timer expiries that
 * presumed losses while none proved false.
 */
static void mrt_snd_reo_decay(struct mrt_snd *s)
{
	if (++s->reo_clean < 16)
		return;
	s->reo_clean = 0;
	s->reo_learnt_ns -= s->reo_learnt_ns / 8;
}

int mrt_snd_ack(struct mrt_snd *s, const struct mrt_snd_dest *d,
		const struct mrt_pkt *p, u64 now, const struct mrt_snd_cfg *cfg,
		const struct mrt_snd_ops *ops, void *ctx,
		struct mrt_snd_ack_res *res)
{
	struct mrt_ack_ctx c = {
		.s = s,
		.d = d,
		.ops = ops,
		.cfg = cfg,
		.ctx = ctx,
		.now = now,
		.rtt_ns = NSCC_NO_RTT,
		.next = U64_MAX,
		.ack_psn = p->ack.ack_psn,
		.retx_echo = p->flags & MRT_ACK_F_RETX_ECHO,
	};
	const struct mrt_ack *a = &p->ack;
	struct nscc_ack na = { .rtt_ns = NSCC_NO_RTT };
	const struct mrt_slot *asl = mrt_snd_slot(s, a->ack_psn);
	u32 unsent = s->tx.sack_unsent;
	u64 service = (u64)a->service_time * 64;
	bool resent;
	u64 newly;
	int ev;

	/* the transmission answered, while the window still knows it (its
	 * last, as far as the echo tells)
	 */
	resent = asl->tx_count > 1;
	if (asl->flags & MRT_SLOT_LIVE && asl->psn == a->ack_psn &&
	    mrt_tx_outstanding(&s->tx, a->ack_psn) && c.retx_echo == resent) {
		c.ack_sent_ns = asl->sent_ns;
		c.ack_ev = asl->ev;
	}

	s->peer_range = min_t(u32, s->range, MRT_RANGE_MIN << a->mpr);
	if (mrt_tx_ack(&s->tx, a->cack_psn, a->sack_base_psn, a->sack_bitmap,
		       mrt_acked, &c) < 0)
		return -1;
	res->sack_unsent = s->tx.sack_unsent - unsent;
	res->newly = c.newly;
	res->now = now;
	if (c.newly)
		s->wait_shift = 0;

	/* A service time not below the RTT it is part of is no receiver's
	 * hold but a lie: no sample (a sample of 0 would take the shared
	 * base RTT and max window with it).
	 */
	if (c.rtt_ns != NSCC_NO_RTT && service >= c.rtt_ns)
		c.rtt_ns = NSCC_NO_RTT;
	if (c.rtt_ns != NSCC_NO_RTT) {
		u64 rtt = c.rtt_ns - service;

		/* NSCC takes the service time off itself.  Not the RTT of
		 * a SYN packet: it holds the peer's PDC setup and often a
		 * neighbour resolution (7 ms in the VM against 0.1 ms after),
		 * and a base RTT learnt from it (config_base_rtt_ns 0) would
		 * make the max window as many times too large.
		 */
		mrt_rto_sample(&s->rto, div_u64(rtt, NSEC_PER_USEC));
		if (!c.syn_rtt)
			na.rtt_ns = c.rtt_ns;
	}
	res->rtt_ns = c.rtt_ns;
	res->cc_rtt_ns = na.rtt_ns == NSCC_NO_RTT ? NSCC_NO_RTT :
			 na.rtt_ns > service ? na.rtt_ns - service : 0;
	if (c.rtt_ns != NSCC_NO_RTT && !c.syn_rtt &&
	    (!s->rtt_min_ns || c.rtt_ns < s->rtt_min_ns))
		s->rtt_min_ns = c.rtt_ns;
	if (c.false_lost)
		mrt_snd_reo_grow(s, &c, cfg);
	c.reo_ns = mrt_snd_reo_ns(s, cfg);
	c.rto_us = mrt_snd_rto_us(s, cfg);
	if (mrt_tx_detect_loss(&s->tx, cfg->sack_loss_min_retx_pkts,
			       mrt_lost, &c) && !c.false_lost)
		mrt_snd_reo_decay(s);
	res->false_lost = c.false_lost;
	res->rack_at = c.next;

	newly = nscc_newly_rcvd(s->last_rcvd, a->rcvd_bytes);
	if (newly)
		s->last_rcvd = a->rcvd_bytes;
	res->newly_rcvd = newly;
	na.bytes = newly;
	na.service_ns = service;
	na.ecn = p->flags & MRT_ACK_F_ECN_ECHO;
	res->ecn = na.ecn;
	na.pen = a->rcv_cwnd_pen;
	na.restore = p->flags & MRT_ACK_F_RESTORE_CWND;
	if (ops->ack_seen)
		ops->ack_seen(ctx, p, res);

	ops->lock(ctx);
	/* the EV of the packet answered, as the ACK echoes it */
	ev = mrt_ev_index(d->evs, p->ev);
	if (ev >= 0)
		mrt_ev_ack(d->evs, ev, na.ecn);
	if (c.readd)
		nscc_on_send(d->cc, c.readd);
	/* NSCC's times never run back: ACKs that arrived together share
	 * one clock read (a train's), and another CPU's later train of the
	 * same destination may have been taken first
	 */
	now = max(now, max(d->cc->last_adjust, d->cc->last_dec));
	ops->cc(ctx, nscc_on_ack(d->cc, now, &na));
	if (c.lost)
		ops->cc(ctx, nscc_on_loss(d->cc, c.lost));
	if (ops->ack_locked)
		ops->ack_locked(ctx, p, res);
	ops->unlock(ctx);
	return 0;
}

enum mrt_snd_nack_verdict mrt_snd_nack(struct mrt_snd *s,
				       const struct mrt_snd_dest *d,
				       const struct mrt_pkt *p, u64 now,
				       const struct mrt_snd_cfg *cfg,
				       const struct mrt_snd_ops *ops, void *ctx)
{
	const struct mrt_nack *nk = &p->nack;
	u32 psn = nk->nack_psn;
	struct mrt_slot *sl = mrt_snd_slot(s, psn);
	u64 rtt = NSCC_NO_RTT;
	bool retx;
	int ev;

	/* Only a NACK of a PSN sent and not yet acknowledged counts. */
	if (mrt_psn_before(psn, s->tx.una) || !mrt_psn_before(psn, s->tx.nxt) ||
	    mrt_tx_is_acked(&s->tx, psn) || !(sl->flags & MRT_SLOT_LIVE))
		return MRT_SND_NACK_STALE;

	switch (nk->nack_code) {
	case MRT_NACK_NO_ENDPOINT:
		return MRT_SND_NACK_REFUSED;
	case MRT_NACK_INV_DPDCID:
	case MRT_NACK_CLOSING:
		return MRT_SND_NACK_RESET;
	case MRT_NACK_MSG_TOO_BIG:
		return MRT_SND_NACK_TOO_BIG;
	}

	/* A NACK of an earlier transmission than the last is stale. */
	retx = sl->tx_count > 1;
	if (retx != !!(p->flags & MRT_NACK_F_RETX_ECHO) ||
	    !(sl->flags & MRT_SLOT_INFLIGHT))
		return MRT_SND_NACK_OLD;
	/* The receiver keeps nothing of a SYN without its cookie: the
	 * packet goes again at once with the cookie, its bytes out of
	 * flight meanwhile, and it is no signal of congestion or loss.
	 */
	if (nk->nack_code == MRT_NACK_COOKIE) {
		sl->flags &= ~MRT_SLOT_INFLIGHT;
		ops->lock(ctx);
		ops->cc(ctx, nscc_on_cack(d->cc, sl->bytes));
		ops->unlock(ctx);
		mrt_rtxq_add(s, psn, MRT_RTX_COOKIE);
		return MRT_SND_NACK_COOKIE;
	}
	/* as in mrt_snd_ack(): not a SYN packet's RTT */
	if (sl->tx_count == 1 && !(sl->flags & MRT_SLOT_SYN) &&
	    (s64)(now - sl->sent_ns) > 0)
		rtt = now - sl->sent_ns;
	sl->flags &= ~MRT_SLOT_INFLIGHT;

	/* The NACK's rcvd_bytes is left to the next ACK, which reports
	 * those bytes received: they leave flight then and count toward
	 * Quick Adapt and the increases, as every received byte does.
	 */
	ops->lock(ctx);
	/* the EV of the transmission answered, as the NACK echoes it */
	ev = mrt_ev_index(d->evs, p->ev);
	switch (nk->nack_code) {
	case MRT_NACK_TRIMMED:
	case MRT_NACK_TRIMMED_LASTHOP:
		if (ev >= 0)
			mrt_ev_trim(d->evs, ev);
		ops->cc(ctx, nscc_on_trim(d->cc, now, sl->bytes, rtt));
		break;
	default:
		if (ev >= 0)
			mrt_ev_nack(d->evs, ev);
		ops->cc(ctx, nscc_on_nack(d->cc, now, sl->bytes, rtt));
	}
	ops->unlock(ctx);

	switch (nk->nack_code) {
	case MRT_NACK_TRIMMED:
	case MRT_NACK_TRIMMED_LASTHOP:
		mrt_rtxq_add(s, psn, MRT_RTX_TRIM);
		return MRT_SND_NACK_RETX;
	case MRT_NACK_PSN_OOR_WINDOW:
		/* The MRC page: such a NACK "takes the packet out of flight
		 * and queues it for retransmission, but leaves the window
		 * alone" (nscc_on_nack() above: its RTT sample still counts
		 * toward the base RTT).  The receiver's window, which the
		 * NACK reports, bounds what is sent from now on; the packet
		 * goes as soon as that window reaches it (mrt_snd_pick()).
		 */
		if (nk->payload && mrt_range_valid(nk->payload))
			s->peer_range = min(s->range, nk->payload);
		if (!(sl->flags & MRT_SLOT_OOR)) {
			sl->flags |= MRT_SLOT_OOR;
			s->oor++;
		}
		return MRT_SND_NACK_WINDOW;
	}
	/* The receiver is there but cannot take it yet (its buffer is
	 * full): sent again after an RTO, which is no timeout and spends
	 * no retry budget.
	 */
	sl->flags |= MRT_SLOT_WAIT;
	/* A new wait doubles the last, while no ACK comes between (as
	 * InfiniBand's RNR NAKs back off); meanwhile no new packet goes
	 * either.
	 */
	if ((s64)(now - s->wait_until) >= 0) {
		u64 w = (u64)mrt_snd_rto_us(s, cfg) << s->wait_shift;

		w = min_t(u64, w, cfg->rto_max_us);
		s->wait_until = now + w * NSEC_PER_USEC;
		if (s->wait_shift < 6)
			s->wait_shift++;
	}
	return MRT_SND_NACK_WAIT;
}

/* Whether sl's expiry, after waiting wait_ns, shows its path losing
 * packets, not merely queueing them: a transmission that left after it on
 * its EV has been acknowledged (it was overtaken on one path: lost), or
 * the latest acknowledged on its EV took less than half the wait (the
 * path answers well within it, and did not).  It does too with no such
 * evidence, or only evidence older than the wait before the packet left,
 * or with ev_bad_losses 0 (no losses would ever make the EV bad).
 */
static bool mrt_rto_lossy(const struct mrt_snd *s, const struct mrt_snd_dest *d,
			  const struct mrt_slot *sl, u32 psn, u64 wait_ns)
{
	const struct mrt_ev_rack *r = mrt_snd_rack(s, sl->ev);

	if (!r || !d->evs->p.bad_losses)
		return true;
	if ((s64)(sl->sent_ns - r->sent_ns) > (s64)wait_ns)
		return true;
	return mrt_rack_before(sl, psn, r) || (u64)r->rtt_ns * 2 < wait_ns;
}

/* A slow expiry is one loss on its EV per round: not again for packets
 * that left before the last one charged (a batch, or a queue's worth,
 * expiring together is one piece of evidence).
 */
static bool mrt_rto_slow_charge(struct mrt_snd *s, const struct mrt_slot *sl,
				u64 now)
{
	struct mrt_ev_rack *r = &s->rack[sl->ev];

	if (r->slow_at && (s64)(sl->sent_ns - r->slow_at) <= 0)
		return false;
	r->slow_at = now;
	return true;
}

void mrt_snd_timer(struct mrt_snd *s, const struct mrt_snd_dest *d, u64 now,
		   bool peer_known, const struct mrt_snd_cfg *cfg,
		   const struct mrt_snd_ops *ops, void *ctx,
		   struct mrt_snd_timer_res *res)
{
	struct mrt_ack_ctx c = {
		.s = s,
		.d = d,
		.ops = ops,
		.cfg = cfg,
		.ctx = ctx,
		.now = now,
		.next = U64_MAX,
	};
	u64 next = U64_MAX, lost = 0;
	unsigned int expired = 0, n = 0;
	u32 psn, rto_us = mrt_snd_rto_us(s, cfg);

	res->slow = 0;
	/* what the SACKs presume lost by now, before the timers: such a
	 * packet is queued, no expiry
	 */
	if (cfg->rack) {
		c.reo_ns = mrt_snd_reo_ns(s, cfg);
		c.rto_us = rto_us;
		if (mrt_tx_detect_loss(&s->tx, cfg->sack_loss_min_retx_pkts,
				       mrt_lost, &c))
			mrt_snd_reo_decay(s);
		lost = c.lost;
		next = c.next;
	}
	for (psn = s->tx.una; psn != s->tx.nxt; psn++) {
		struct mrt_slot *sl = mrt_snd_slot(s, psn);
		u64 at;

		/* a packet NACKed beyond the receiver's window has no
		 * timer: it waits for the window (mrt_snd_pick())
		 */
		if (!(sl->flags & MRT_SLOT_LIVE) || sl->flags & MRT_SLOT_OOR ||
		    mrt_tx_is_acked(&s->tx, psn))
			continue;
		/* one asked to wait goes at its time, queued or not (a queue
		 * entry it has serves, else pick() would drop it)
		 */
		if (sl->flags & MRT_SLOT_WAIT) {
			at = s->wait_until;
			if (at > now) {
				next = min(next, at);
			} else {
				sl->flags &= ~MRT_SLOT_WAIT;
				if (sl->flags & MRT_SLOT_RTXQ)
					sl->cause = MRT_RTX_WAIT;
				else
					mrt_rtxq_add(s, psn, MRT_RTX_WAIT);
			}
			continue;
		}
		/* one queued out of flight waits for its turn; one queued in
		 * flight (a SACK gap in the uet flavour keeps it there) keeps
		 * its timer, or a full window of such packets with no ACK to
		 * come would never go
		 */
		if (sl->flags & MRT_SLOT_RTXQ && !(sl->flags & MRT_SLOT_INFLIGHT))
			continue;
		at = mrt_snd_deadline(s, sl, rto_us, cfg);
		if (at > now) {
			next = min(next, at);
			continue;
		}
		if (sl->flags & MRT_SLOT_INFLIGHT) {
			lost += sl->bytes;
			sl->flags &= ~MRT_SLOT_INFLIGHT;
		}
		if (sl->flags & MRT_SLOT_RTXQ)
			sl->cause = MRT_RTX_RTO;
		else
			mrt_rtxq_add(s, psn, MRT_RTX_RTO);
		if (sl->rtos < U8_MAX)
			sl->rtos++;
		/* an RTO that shows the path losing packets makes its EV
		 * ASSUMED_BAD, once the peer has answered (before, it may be
		 * the peer that is not there); one on a path merely slow is
		 * a loss on it, toward ev_bad_losses
		 */
		if (peer_known) {
			bool lossy = mrt_rto_lossy(s, d, sl, psn, at - sl->sent_ns);

			if (lossy || mrt_rto_slow_charge(s, sl, now)) {
				ops->lock(ctx);
				if (lossy)
					mrt_ev_rto(d->evs, sl->ev, now);
				else
					mrt_ev_loss(d->evs, sl->ev, now);
				ops->unlock(ctx);
			}
			res->slow += !lossy;
		}
		expired++;
		if (++n == 1024) {	/* bounded: the rest in a moment */
			next = now;
			break;
		}
	}
	if (expired && ops->timed_out)
		ops->timed_out(ctx, expired, rto_us);
	if (expired || lost) {
		ops->lock(ctx);
		ops->cc(ctx, nscc_on_loss(d->cc, lost));
		ops->unlock(ctx);
	}
	res->expired = expired;
	res->rto_us = rto_us;
	res->next = next;
}

/* Packets NACKed beyond the receiver's window that it now reaches join
 * the retransmission queue.  The window only grows from una, so the scan
 * stops at its end.
 */
static void mrt_snd_oor_release(struct mrt_snd *s)
{
	u32 psn, end = s->tx.una + s->peer_range;

	if (mrt_psn_before(s->tx.nxt, end))
		end = s->tx.nxt;
	for (psn = s->tx.una; s->oor && psn != end; psn++) {
		struct mrt_slot *sl = mrt_snd_slot(s, psn);

		if (!(sl->flags & MRT_SLOT_OOR) || sl->psn != psn)
			continue;
		sl->flags &= ~MRT_SLOT_OOR;
		s->oor--;
		/* (already queued, its entry serves: see mrt_snd_pick()) */
		sl->cause = MRT_RTX_WINDOW;
		mrt_rtxq_add(s, psn, MRT_RTX_WINDOW);
	}
}

u32 mrt_snd_batch_pkts(const struct mrt_snd_dest *d, u32 bytes,
		       const struct mrt_snd_cfg *c)
{
	u64 per = (u64)max_t(u32, bytes, 1) * max_t(u32, d->evs->usable, 1);
	u64 n = div64_u64(d->cc->cwnd, per);

	if (c->tx_batch_max_pkts <= 1)
		return 1;
	return clamp_t(u64, n, 1, c->tx_batch_max_pkts);
}

/* The open batch may take the next new packet: it has room, and its EV
 * is still GOOD.
 */
static bool mrt_snd_batch_open(const struct mrt_snd *s, const struct mrt_snd_dest *d)
{
	return s->batch_left && s->batch_ev < d->evs->p.count &&
	       d->evs->ev[s->batch_ev].state == MRT_EV_GOOD;
}

/* Deferral, as TCP's TSO deferral (tcp_tso_should_defer()): a new packet
 * that would begin a batch waits while NSCC's window has room for fewer
 * packets than the batch would take (of those queued) and packets are in
 * flight, whose ACKs will open it: else a full window clocked by single
 * ACKs sends single packets, each answered by a single ACK, and batches
 * never form.  (Under the destination's lock.)
 */
static bool mrt_snd_defer(const struct mrt_snd *s, const struct mrt_snd_dest *d,
			  const struct mrt_snd_tx *tx, u32 bytes, u32 queued,
			  const struct mrt_snd_cfg *cfg)
{
	const struct nscc *n = d->cc;
	u32 want;

	if (tx->retx || queued < 2 || mrt_snd_idle(s) || n->cfg.pass_through ||
	    n->inflight < 0)
		return false;
	/* a packet of the open batch goes on */
	if (mrt_snd_batch_open(s, d))
		return false;
	want = min(mrt_snd_batch_pkts(d, bytes, cfg), queued);
	return want > 1 && (u64)n->inflight + (u64)want * bytes > n->cwnd;
}

enum mrt_snd_pick mrt_snd_pick(struct mrt_snd *s, const struct mrt_snd_dest *d,
			       u64 now, u32 have_new, u32 new_bytes,
			       const struct mrt_snd_cfg *cfg,
			       const struct mrt_snd_ops *ops, void *ctx,
			       struct mrt_snd_tx *tx)
{
	struct mrt_slot *sl = NULL;
	u32 bytes, join;
	int ev;

	if (s->oor)
		mrt_snd_oor_release(s);
	for (;;) {
		if (s->rtxq_len) {
			u32 psn = s->rtxq[s->rtxq_head & (s->range - 1)];

			sl = mrt_snd_slot(s, psn);
			/* an entry of a PSN acknowledged meanwhile, whose
			 * slot may be another PSN's by now, or of one NACKed
			 * since it was queued: beyond the receiver's window
			 * (mrt_snd_oor_release() queues it again) or asked to
			 * wait (the timer queues it at wait_until)
			 */
			if (!(sl->flags & MRT_SLOT_LIVE) || sl->psn != psn ||
			    sl->flags & (MRT_SLOT_OOR | MRT_SLOT_WAIT) ||
			    mrt_tx_is_acked(&s->tx, psn)) {
				s->rtxq_head++;
				s->rtxq_len--;
				if (sl->psn == psn)
					sl->flags &= ~MRT_SLOT_RTXQ;
				continue;
			}
			/* The budget is of timer expiries: trims and SACKs
			 * show that the path delivers.
			 */
			if (sl->rtos > cfg->retry_budget || sl->tx_count == U8_MAX)
				return MRT_SND_EXHAUSTED;
			tx->psn = psn;
			tx->retx = true;
			bytes = sl->bytes;
			join = sl->flags & MRT_SLOT_INFLIGHT ? 0 : bytes;
			break;
		}
		if (!have_new)
			return MRT_SND_NONE;
		if (!mrt_tx_can_send(&s->tx) ||
		    s->tx.nxt - s->tx.una >= s->peer_range)
			return MRT_SND_BLOCKED;
		/* the receiver asked to wait: the timer resumes */
		if ((s64)(now - s->wait_until) < 0)
			return MRT_SND_WAIT;
		tx->psn = s->tx.nxt;
		tx->retx = false;
		bytes = new_bytes;
		join = bytes;
		break;
	}

	ops->lock(ctx);
	if (!nscc_can_send(d->cc, bytes) ||
	    mrt_snd_defer(s, d, tx, bytes, have_new, cfg)) {
		ops->blocked(ctx);
		ops->unlock(ctx);
		return MRT_SND_BLOCKED;
	}
	/* The MRC page's ACK request: every retransmission, and a packet
	 * after which the window has less than one nominal packet of room
	 * or that goes while it is below 4,095 bytes; and (this
	 * transport's) the packet that fills the PSN window, whose PDC then
	 * waits on ACKs as much as a full NSCC window's does.
	 */
	tx->ar = tx->retx || nscc_ask_ack(d->cc, join) ||
		 s->tx.nxt + 1 - s->tx.una >= s->peer_range;
	/* the EV at transmit time: the open batch's while it may take the
	 * packet and the EV is GOOD; else a pick, a retransmission on
	 * another EV than its last
	 */
	tx->batch = !tx->retx && mrt_snd_batch_open(s, d);
	tx->batch_pkts = 0;
	if (tx->batch)
		ev = s->batch_ev;
	else
		ev = mrt_ev_pick(d->evs, tx->retx ? sl->ev : -1);
	/* every EV DENIED: the data waits for an allow */
	if (ev < 0)
		ops->blocked(ctx);
	else if (!tx->batch)
		tx->batch_pkts = tx->retx ? 1 : mrt_snd_batch_pkts(d, bytes, cfg);
	ops->unlock(ctx);
	if (ev < 0)
		return MRT_SND_NO_EV;
	tx->ev = ev;
	return MRT_SND_SEND;
}

u64 mrt_snd_sent(struct mrt_snd *s, const struct mrt_snd_dest *d,
		 const struct mrt_snd_tx *tx, u64 now, u32 bytes, bool syn,
		 const struct mrt_snd_cfg *cfg, const struct mrt_snd_ops *ops,
		 void *ctx)
{
	struct mrt_slot *sl;

	if (tx->retx) {
		sl = mrt_snd_slot(s, tx->psn);
		s->rtxq_head++;
		s->rtxq_len--;
		if (sl->flags & MRT_SLOT_OOR)	/* (pick() never sends one) */
			s->oor--;
		sl->flags &= ~(MRT_SLOT_RTXQ | MRT_SLOT_WAIT | MRT_SLOT_OOR);
		mrt_tx_resent(&s->tx, tx->psn);
		if (sl->tx_count < U8_MAX)
			sl->tx_count++;
		if (ops->resent)
			ops->resent(ctx, tx->psn, sl->cause, sl->tx_count);
	} else {
		u32 psn = mrt_tx_next(&s->tx);

		sl = mrt_snd_slot(s, psn);
		sl->psn = psn;
		sl->bytes = bytes;
		sl->tx_count = 1;
		sl->rtos = 0;
		sl->flags = MRT_SLOT_LIVE;
	}
	sl->sent_ns = now;
	sl->ev = tx->ev;
	/* the batch: a packet of the open one, or the first of a new one */
	if (tx->batch) {
		s->batch_left--;
	} else {
		s->batch_ev = tx->ev;
		s->batch_left = tx->batch_pkts - 1;
	}
	if (syn)
		sl->flags |= MRT_SLOT_SYN;
	else
		sl->flags &= ~MRT_SLOT_SYN;
	if (!(sl->flags & MRT_SLOT_INFLIGHT)) {
		ops->lock(ctx);
		ops->cc(ctx, nscc_on_send(d->cc, sl->bytes));
		ops->unlock(ctx);
	}
	sl->flags |= MRT_SLOT_INFLIGHT;
	return mrt_snd_deadline(s, sl, mrt_snd_rto_us(s, cfg), cfg);
}

enum mrt_snd_pick mrt_snd_push(struct mrt_snd *s, const struct mrt_snd_dest *d,
			       u64 now, bool syn, const struct mrt_snd_cfg *cfg,
			       const struct mrt_snd_ops *ops, void *ctx,
			       const struct mrt_snd_xmit_ops *xo, void *x)
{
	unsigned int budget = 256;
	struct mrt_snd_tx tx;
	u32 bytes;

	while (budget) {
		bytes = xo->next_bytes(x);
		switch (mrt_snd_pick(s, d, now, bytes ? (xo->queued ? xo->queued(x) : 1) : 0,
				     bytes, cfg, ops, ctx, &tx)) {
		case MRT_SND_SEND:
			break;
		case MRT_SND_BLOCKED:
			goto done;
		case MRT_SND_WAIT:
			xo->arm(x, s->wait_until);
			goto done;
		case MRT_SND_EXHAUSTED:
			return MRT_SND_EXHAUSTED;
		default:	/* nothing, or every EV DENIED */
			goto done;
		}
		if (!xo->xmit(x, &tx))
			break;
		xo->arm(x, mrt_snd_sent(s, d, &tx, now, bytes, syn, cfg, ops, ctx));
		budget--;
	}
done:
	if (!budget && (s->rtxq_len || xo->next_bytes(x)))
		xo->arm(x, now);	/* the rest from the timer */
	return MRT_SND_NONE;
}

u64 mrt_snd_release(struct mrt_snd *s)
{
	u64 released = 0;
	unsigned int i;

	for (i = 0; i < s->range; i++) {
		struct mrt_slot *sl = &s->slots[i];

		if (sl->flags & MRT_SLOT_INFLIGHT)
			released += sl->bytes;
		sl->flags = 0;
	}
	s->oor = 0;
	return released;
}

void mrt_rx_ack_fill(const struct mrt_rx *rx, const struct mrt_pkt *p,
		     bool ce, u8 pen, bool restore, u64 service_ns,
		     struct mrt_pkt *a)
{
	a->type = MRT_TYPE_ACK;
	a->flags = 0;
	if (ce)
		a->flags |= MRT_ACK_F_ECN_ECHO;
	if (p->flags & MRT_DATA_F_RETX)
		a->flags |= MRT_ACK_F_RETX_ECHO;
	a->ack.cack_psn = rx->cack;
	a->ack.ack_psn = p->data.psn;
	mrt_rx_sack(rx, p->data.psn, &a->ack.sack_base_psn,
		    &a->ack.sack_bitmap);
	a->ack.rcvd_bytes = nscc_rcvd_bytes_field(rx->rcvd_bytes);
	a->ack.ooo_count = min_t(u32, rx->ooo, U16_MAX);
	a->ack.mpr = mrt_mpr_of(rx->range);
	a->ack.rcv_cwnd_pen = pen;
	a->ack.service_time = min_t(u64, service_ns >> 6, U16_MAX);
	if (restore)
		a->flags |= MRT_ACK_F_RESTORE_CWND;
}

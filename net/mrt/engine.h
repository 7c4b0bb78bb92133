/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrt's protocol engine, pure C (no skbs, sockets, timers or locks of its
 * own): what a sending PDC does with an ACK, a NACK, a timer expiry and a
 * chance to transmit, and what a receiving PDC puts in an ACK.  It holds
 * together the pieces below it (psn.c's windows and RTO, ev.c's EV
 * states, the NSCC core) exactly as the kernel runs them; pdc.c keeps the
 * payloads, the sockets, the locks and the timer, and fabsim (sim/) runs
 * the same file at fabric scale.
 *
 * A sending PDC's packets are slots, one per PSN of its window (slot psn &
 * (range - 1)); the transport keeps each packet's payload beside it,
 * indexed the same way, until ops->acked() says it was delivered.
 *
 * Bytes in flight: a packet's nominal bytes enter NSCC's flight when it is
 * sent (nscc_on_send) and leave once per transmission: by the rcvd_bytes
 * delta of the ACK that reports it received, by a trim or other NACK, or
 * by a presumed loss (a timer, and in the mrc flavour a SACK gap: the UET
 * page's "a gap the receiver reports in its selective acknowledgements is
 * not a loss signal and does not change the window", so in the uet
 * flavour such a packet stays in flight while it goes again).
 * MRT_SLOT_INFLIGHT says whether they are in; a packet presumed lost and
 * then acknowledged before it was sent again (the original was only late)
 * is added back, because the receiver's count will take it out once more.
 * Only ACKs move the received-bytes clock: bytes the receiver reports in a
 * NACK leave flight, count toward Quick Adapt and toward the increases
 * when the next ACK reports them (the MRC page: "A packet leaves the bytes
 * in flight when a SACK reports it received").
 *
 * The destination's state (its NSCC and its EVs) is shared by the PDCs to
 * it: the engine touches it only between ops->lock() and ops->unlock().
 */
#ifndef _MRT_ENGINE_H
#define _MRT_ENGINE_H

#include <net/fabric/nscc.h>

#include "ev.h"
#include "psn.h"
#include "wire.h"

/* A sender's packet, per PSN. */
struct mrt_slot {
	u64 sent_ns;
	u32 psn;			/* whose slot it is */
	u32 bytes;			/* nominal */
	u16 ev;				/* the EV (index in its dest's set) it
					 * last went on
					 */
	u8 tx_count;			/* transmissions (Karn), up to 255 */
	u8 rtos;			/* expiries of its timer */
	u8 cause;			/* MRT_SLOT_RTXQ: enum mrt_rtx_cause */
	u8 flags;
};

#define MRT_SLOT_INFLIGHT	0x01	/* its bytes are in NSCC's flight */
#define MRT_SLOT_RTXQ		0x02	/* queued for retransmission */
#define MRT_SLOT_WAIT		0x04	/* NACKed: the receiver cannot take it
					 * yet; sent again after an RTO
					 */
#define MRT_SLOT_SYN		0x08	/* last sent while the PDC was in SYN */
#define MRT_SLOT_LIVE		0x10	/* holds a payload: sent, not yet
					 * acknowledged
					 */
#define MRT_SLOT_OOR		0x20	/* NACKed beyond the receiver's PSN
					 * window: out of flight, queued
					 * once the window reaches it
					 */
#define MRT_SLOT_PRESUMED	0x40	/* presumed lost from SACKs: an ACK
					 * of an earlier transmission than
					 * its last shows the presumption
					 * false
					 */

/* Why a packet is sent again (mrt:mrt_retransmit's cause). */
#define MRT_RTX_CAUSES				\
	EM(MRT_RTX_TRIM, trim)			\
	EM(MRT_RTX_SACK, sack)			\
	EM(MRT_RTX_RTO, rto)			\
	EM(MRT_RTX_WAIT, wait)			\
	EM(MRT_RTX_COOKIE, cookie)		\
	EMe(MRT_RTX_WINDOW, window)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_rtx_cause { MRT_RTX_CAUSES };
#undef EM
#undef EMe

/* What an ACK did, for the caller's counters and trace. */
struct mrt_snd_ack_res {
	u64 rtt_ns;		/* NSCC_NO_RTT: no sample */
	u64 cc_rtt_ns;		/* the sample NSCC took (less the service
				 * time), NSCC_NO_RTT: none
				 */
	u64 newly_rcvd;		/* bytes the received-bytes clock moved */
	bool newly;		/* acknowledged something new */
	bool ecn;
	u32 sack_unsent;	/* the ACK's SACK claimed PSNs never sent */
	u32 false_lost;		/* packets presumed lost from SACKs that
				 * this ACK shows had arrived
				 */
	u64 now;		/* mrt_snd_ack()'s: when the ACK arrived */
	u64 rack_at;		/* a packet the SACKs point at is presumed
				 * lost at this time, unless acknowledged
				 * first (mrt_snd_timer() then); U64_MAX:
				 * none
				 */
};

/* The attributes the engine reads, as the caller has them now. */
struct mrt_snd_cfg {
	u32 rto_min_us;
	u32 rto_max_us;
	u32 retry_budget;
	u32 sack_loss_min_retx_pkts;
	u32 tx_batch_max_pkts;		/* 0 or 1: no batches */
	bool rack;			/* rack_enabled: SACK losses judged
					 * per EV and in time (below)
					 */
	u32 rack_reo_wnd_thou;		/* the reordering window's step, in
					 * thousandths of the least RTT
					 */
};

/* Loss detection from SACKs.  The MRC page's rule alone (rack off): a
 * packet is presumed lost once an acknowledged PSN is more than
 * sack_loss_min_retx_pkts beyond it.  Across EVs whose paths differ in
 * delay, PSN order says little: a faster path delivers later PSNs while a
 * packet on a slower one is still on its way.  With rack on, a packet is
 * presumed lost from SACKs when there is ordering evidence, and time
 * evidence agrees:
 *
 *  - ordering: the page's gap, or (Falcon's early retransmission, judged
 *    within one path) a packet sent after it on the same EV has been
 *    acknowledged: an EV is one path, which keeps order;
 *  - time (RFC 8985's RACK, per EV): it has been out for longer than the
 *    RTT of the later transmission acknowledged on its EV (with the gap
 *    alone: the PDC's smoothed RTT plus four times its variation, or its
 *    EV's last RTT if more) plus a reordering window.
 *
 * The window is rack_reo_wnd_thou of the PDC's least RTT, or what it has
 * learnt if more, and never more than the smoothed RTT plus four times
 * its variation (the RTO without its floor).  Whenever a presumption
 * proves false (mrt_acked()'s tests: the packet acknowledged before it
 * went again, or by an ACK of an earlier transmission) the window doubles, at
 * most once per smoothed RTT, and is at once at least what it was before
 * that plus the time from the retransmission to that ACK (so much later
 * at least did the original come than the window allowed).  What it has
 * learnt shrinks by an eighth after every 16 ACKs or timer expiries that
 * presumed losses while none proved false.  It is kept in time, not in least RTTs, so
 * that a smaller RTT sample does not shrink it.  (RFC 8985 grows it by a
 * quarter of the least RTT per round with a DSACK and resets it after 16
 * recoveries: a VM's least RTT is tens of microseconds, the reordering of
 * its softirq backlogs milliseconds.)
 *
 * A packet whose ordering evidence has come but whose time has not is
 * presumed lost by the PDC's timer at that time (res->rack_at,
 * mrt_snd_timer()), unless acknowledged first.  Each packet is still
 * presumed lost this way at most once.
 */
struct mrt_ev_rack {
	u64 sent_ns;		/* the latest transmission acknowledged on
				 * the EV: its departure; 0: none yet
				 */
	u32 rtt_ns;		/* its RTT, at most U32_MAX */
	u32 psn;		/* its PSN (orders a batch's equal stamps) */
	bool first;		/* it was a first transmission */
	u64 slow_at;		/* when an expiry on the EV was last
				 * charged as slow (mrt_snd_timer())
				 */
};

/* The destination's shared state. */
struct mrt_snd_dest {
	struct nscc *cc;
	struct mrt_evset *evs;
};

struct mrt_snd_ops {
	void (*lock)(void *ctx);		/* the destination's state */
	void (*unlock)(void *ctx);
	/* psn is acknowledged: its payload may go */
	void (*acked)(void *ctx, u32 psn);
	/* an NSCC call returned r (under the lock): counters, trace */
	void (*cc)(void *ctx, enum nscc_routine r);
	/* psn is presumed lost (a SACK gap) and queued to go again */
	void (*sack_lost)(void *ctx, u32 psn);
	/* the sender is blocked on the destination (its window, or no
	 * usable EV): wait for it (under the lock)
	 */
	void (*blocked)(void *ctx);
	/* Where the caller's trace and state go, in the order pdc.c has
	 * always had them: an ACK p, applied to the window (res has its RTT
	 * sample and received bytes) before NSCC sees it; the same ACK
	 * under the destination's lock after NSCC has; a timer's expired
	 * packets before NSCC's loss; a retransmission of psn (its cause and
	 * its transmissions so far) before it is back in flight.  Any may be
	 * NULL.
	 */
	void (*ack_seen)(void *ctx, const struct mrt_pkt *p,
			 const struct mrt_snd_ack_res *res);
	void (*ack_locked)(void *ctx, const struct mrt_pkt *p,
			   const struct mrt_snd_ack_res *res);
	void (*timed_out)(void *ctx, unsigned int expired, u32 rto_us);
	void (*resent)(void *ctx, u32 psn, u8 cause, u8 tx_count);
};

struct mrt_snd {
	struct mrt_tx tx;
	struct mrt_rto rto;
	struct mrt_slot *slots;		/* [range] */
	u32 *rtxq;			/* [range] PSNs to send again */
	u32 rtxq_head;
	u32 rtxq_len;
	u32 range;
	u32 peer_range;			/* the receiver's window (its mpr) */
	u64 wait_until;			/* NACKed NO_RESOURCE: nothing new till */
	u8 wait_shift;			/* its backoff */
	u32 last_rcvd;			/* the last rcvd_bytes field seen */
	u32 oor;			/* slots MRT_SLOT_OOR */
	u16 batch_ev;			/* the open batch's EV */
	u16 batch_left;			/* new packets it may still take */
	u16 rack_n;			/* EVs in rack[] */
	struct mrt_ev_rack *rack;	/* [rack_n], by EV index; NULL: no
					 * per-EV evidence (the gap alone,
					 * timed by the smoothed RTT)
					 */
	u64 rtt_min_ns;			/* the least RTT sample; 0: none */
	u64 reo_grown_ns;		/* when reo_learnt_ns last doubled */
	u64 reo_learnt_ns;		/* the reordering window learnt from
					 * false presumptions
					 */
	u64 reo_base_ns;		/* the window before it last doubled */
	u8 reo_clean;			/* ACKs that presumed losses since
					 * the last that proved one false
					 * or the last decay
					 */
};

#define MRT_REO_MAX_NS		(60ULL * NSEC_PER_SEC)

/* slots, rtxq, acked, lost, ref: range entries (acked and lost: bits)
 * each, zeroed.  0, or -1 if range is not a valid window.
 */
int mrt_snd_init(struct mrt_snd *s, u32 first_psn, u32 range,
		 struct mrt_slot *slots, u32 *rtxq, u64 *acked, u64 *lost,
		 u32 *ref);

/* The PDC's per-EV RACK state, for the n EVs of its destination: zeroed
 * memory the caller keeps (and frees) with the PDC.
 */
static inline void mrt_snd_set_rack(struct mrt_snd *s, struct mrt_ev_rack *rack,
				    u16 n)
{
	s->rack = rack;
	s->rack_n = rack ? n : 0;
}

/* The reordering window now, ns (see struct mrt_ev_rack). */
u64 mrt_snd_reo_ns(const struct mrt_snd *s, const struct mrt_snd_cfg *c);

static inline struct mrt_slot *mrt_snd_slot(const struct mrt_snd *s, u32 psn)
{
	return &s->slots[psn & (s->range - 1)];
}

/* Nothing sent is unacknowledged. */
static inline bool mrt_snd_idle(const struct mrt_snd *s)
{
	return s->tx.una == s->tx.nxt;
}

/* The RTO now: RFC 6298 within [rto_min_us, rto_max_us], four times the
 * floor before the first sample.
 */
u32 mrt_snd_rto_us(const struct mrt_snd *s, const struct mrt_snd_cfg *c);

/* A packet's timer: its send time plus the RTO, doubled per expiry of
 * its timer (up to 64 times), within rto_max_us.
 */
u64 mrt_snd_deadline(const struct mrt_snd *s, const struct mrt_slot *sl,
		     u32 rto_us, const struct mrt_snd_cfg *c);

/* An ACK p (already matched to this PDC) at now: the window, RTT and
 * RTO, SACK-gap losses, the EV it echoes and NSCC.  -1: its cack is
 * beyond what was sent (malformed; nothing applied).
 */
int mrt_snd_ack(struct mrt_snd *s, const struct mrt_snd_dest *d,
		const struct mrt_pkt *p, u64 now, const struct mrt_snd_cfg *c,
		const struct mrt_snd_ops *ops, void *ctx,
		struct mrt_snd_ack_res *res);

enum mrt_snd_nack_verdict {
	MRT_SND_NACK_STALE,	/* of nothing outstanding */
	MRT_SND_NACK_OLD,	/* of an older transmission than the last */
	MRT_SND_NACK_REFUSED,	/* NO_ENDPOINT: the PDC fails ECONNREFUSED */
	MRT_SND_NACK_RESET,	/* INV_DPDCID, CLOSING: fails ECONNRESET */
	MRT_SND_NACK_TOO_BIG,	/* MSG_TOO_BIG: its message fails EMSGSIZE,
				 * the PDC's others ECONNRESET
				 */
	MRT_SND_NACK_RETX,	/* trimmed: queued to go again now */
	MRT_SND_NACK_COOKIE,	/* a SYN without the peer's cookie, which
				 * the NACK brings: queued to go again now,
				 * no congestion signal
				 */
	MRT_SND_NACK_WINDOW,	/* PSN_OOR_WINDOW: beyond the receiver's
				 * PSN window; out of flight, queued to go
				 * again as soon as the window reaches it
				 * (the MRC page), no wait, no backoff
				 */
	MRT_SND_NACK_WAIT,	/* the receiver cannot take it yet: again
				 * at wait_until (NO_RESOURCE and the rest)
				 */
};

/* A NACK p (matched to this PDC) at now. */
enum mrt_snd_nack_verdict mrt_snd_nack(struct mrt_snd *s,
				       const struct mrt_snd_dest *d,
				       const struct mrt_pkt *p, u64 now,
				       const struct mrt_snd_cfg *c,
				       const struct mrt_snd_ops *ops,
				       void *ctx);

/* What a timer expiry at now did. */
struct mrt_snd_timer_res {
	unsigned int expired;	/* packets whose timer expired */
	unsigned int slow;	/* ... of them on a path merely slow, not
				 * taken as its losing packets
				 */
	u32 rto_us;		/* the RTO they had */
	u64 next;		/* the next deadline, U64_MAX: none */
};

/* Queues every packet whose timer has expired (an RTO: once the peer has
 * answered, peer_known, its EV becomes ASSUMED_BAD if the expiry shows
 * the path losing packets, else it is a loss on the EV, one per batch or
 * queue; engine.c's mrt_rto_lossy()) and those whose wait is over; at most 1024 per call
 * (next is then now).  With rack on, first the packets the SACKs presume
 * lost by now (mrt_snd_ack()'s rack_at), as an ACK would.
 */
void mrt_snd_timer(struct mrt_snd *s, const struct mrt_snd_dest *d, u64 now,
		   bool peer_known, const struct mrt_snd_cfg *c,
		   const struct mrt_snd_ops *ops, void *ctx,
		   struct mrt_snd_timer_res *res);

enum mrt_snd_pick {
	MRT_SND_NONE,		/* nothing to send */
	MRT_SND_SEND,		/* send tx */
	MRT_SND_BLOCKED,	/* the windows are full (ops->blocked() was
				 * called if it is NSCC's)
				 */
	MRT_SND_WAIT,		/* the receiver asked to wait: wait_until */
	MRT_SND_NO_EV,		/* every EV is DENIED (ops->blocked()) */
	MRT_SND_EXHAUSTED,	/* a packet spent retry_budget timeouts */
};

struct mrt_snd_tx {
	u32 psn;
	u16 ev;			/* the EV's index */
	bool retx;
	bool batch;		/* a new packet on the EV of the new packet
				 * sent before it, in its batch (below)
				 */
	bool ar;		/* asks for an ACK at once: every
				 * retransmission; a new packet that leaves
				 * NSCC's window less than one nominal
				 * packet of room or is sent while the
				 * window is below 4,095 bytes (the MRC
				 * page's rule, nscc_ask_ack()), or that
				 * fills the PSN window (the caller adds
				 * the last packet of a message)
				 */
	u16 batch_pkts;		/* !batch: the most packets the batch it
				 * begins may have (1: it goes alone)
				 */
};

/* Batches.  New packets go out in batches of consecutive PSNs on one EV,
 * so that the transport can hand a batch to the stack as one skb (UDP
 * GSO: every segment of it has the same UDP source port, the EV).  A
 * batch begins with an EV picked as for a single packet and takes at most
 * its EV's share of the window: NSCC's window over the usable EVs, in
 * packets of its first packet's size (at least one, at most
 * tx_batch_max_pkts).  One packet per EV while the window is less than
 * two packets per EV, longer batches when it is many, so that over a
 * window each EV carries what per-packet spraying would give it.  A
 * retransmission is a batch of its own (it avoids its last EV), and ends
 * the open one; so does a change of the batch EV's state from GOOD.
 */
u32 mrt_snd_batch_pkts(const struct mrt_snd_dest *d, u32 bytes,
		       const struct mrt_snd_cfg *c);

/* The next packet to send at now: a retransmission first, else a new
 * packet of new_bytes nominal bytes if have_new (the new packets queued:
 * with two or more, one that would begin a batch may be deferred until
 * the window has room for it, engine.c's mrt_snd_defer()).  Changes nothing but
 * the retransmission queue (its stale entries go; packets NACKed beyond
 * the receiver's window join it once the window reaches them);
 * mrt_snd_sent() commits it.
 */
enum mrt_snd_pick mrt_snd_pick(struct mrt_snd *s, const struct mrt_snd_dest *d,
			       u64 now, u32 have_new, u32 new_bytes,
			       const struct mrt_snd_cfg *c,
			       const struct mrt_snd_ops *ops, void *ctx,
			       struct mrt_snd_tx *tx);

/* The transmitting side of mrt_snd_push(), the caller's, with its own
 * context.
 */
struct mrt_snd_xmit_ops {
	/* the next new packet's nominal bytes; 0: nothing queued */
	u32 (*next_bytes)(void *x);
	/* how many new packets are queued (may be NULL: one) */
	u32 (*queued)(void *x);
	/* sends tx (a retransmission of its slot's payload, or the next
	 * new packet, which takes tx->psn; with AR if tx->ar); false: it
	 * could not (no memory), and the push stops
	 */
	bool (*xmit)(void *x, const struct mrt_snd_tx *tx);
	/* the PDC's timer at at: the earliest asked for */
	void (*arm)(void *x, u64 at);
};

/* Sends what the PDC may at now (syn: it is in SYN), retransmissions
 * first, at most 256 packets (the timer, armed at now, does the rest):
 * each that mrt_snd_pick() allows goes through xo->xmit() and is
 * committed (mrt_snd_sent()).  One the receiver asked to wait arms its
 * timer for then.  Returns MRT_SND_EXHAUSTED if a packet spent its retry budget
 * (the caller fails the PDC), else MRT_SND_NONE.
 */
enum mrt_snd_pick mrt_snd_push(struct mrt_snd *s, const struct mrt_snd_dest *d,
			       u64 now, bool syn, const struct mrt_snd_cfg *c,
			       const struct mrt_snd_ops *ops, void *ctx,
			       const struct mrt_snd_xmit_ops *xo, void *x);

/* tx went out at now (bytes nominal: a new packet's; syn: the PDC is in
 * SYN).  Returns its timer's deadline.
 */
u64 mrt_snd_sent(struct mrt_snd *s, const struct mrt_snd_dest *d,
		 const struct mrt_snd_tx *tx, u64 now, u32 bytes, bool syn,
		 const struct mrt_snd_cfg *c, const struct mrt_snd_ops *ops,
		 void *ctx);

/* The transmission of psn left the host at time "at" (the caller's end of
 * serialization): its RTT sample and its timer run from then, not from
 * the push that built it (the MRC page: a SACK's sample "runs from the
 * end of serialization of the transmission that drew it"; the UET page:
 * "the sender's own queueing and serialization are therefore not part of
 * it").  Ignored unless psn is live and at is later than its stamp.
 */
static inline void mrt_snd_departed(struct mrt_snd *s, u32 psn, u64 at)
{
	struct mrt_slot *sl = mrt_snd_slot(s, psn);

	if (sl->flags & MRT_SLOT_LIVE && sl->psn == psn &&
	    (s64)(at - sl->sent_ns) > 0)
		sl->sent_ns = at;
}

/* The PDC closes: every live slot is let go (ops->acked() is not
 * called); returns the bytes they still had in NSCC's flight.  The state
 * is of no further use (what was outstanding stays so).
 */
u64 mrt_snd_release(struct mrt_snd *s);

/* Packet marking */

/* mrt's trimming_enabled: 0, 1, or auto, the flavour's page default (the
 * MRC page's TrimmingEnabled is true, the UET page's false).
 */
#define MRT_TRIM_AUTO		2

static inline bool mrt_trimming(u32 flavour, u32 trimming_enabled)
{
	if (trimming_enabled == MRT_TRIM_AUTO)
		return flavour == NSCC_FLAVOUR_MRC;
	return trimming_enabled;
}

/* RFC 3168's codepoints, as the IP header's two low TOS bits. */
#define MRT_ECN_NOT_ECT		0
#define MRT_ECN_ECT1		1
#define MRT_ECN_ECT0		2

/* What marks a packet, from the attributes. */
struct mrt_mark_cfg {
	u8 data_dscp;
	u8 trimmable_dscp;
	u8 retransmit_dscp;
	bool trimming;		/* mrt_trimming() */
	bool distinct_retx;	/* use_distinct_dscp_for_retransmits */
	bool uet;		/* the flavour */
};

/* A data packet's TOS byte (DSCP and ECN), and whether it is marked
 * trimmable (the header's TRIMMABLE flag).  The pages: with trimming,
 * data is marked trimmable (MRC: TrimmingEnabled "also marks the NIC's
 * data packets trimmable"; UET: "data packets are marked trimmable"),
 * carrying trimmable_dscp; without, data_dscp; a retransmission with
 * use_distinct_dscp_for_retransmits carries retransmit_dscp and is
 * trimmable "even with TrimmingEnabled set to false" (UET).  ECN: the UET
 * page's "every packet ECN-capable, as ECT(1)"; the MRC page gives ECN no
 * role, and mrc data is ECT(0), RFC 3168's codepoint, so that a marking
 * port marks it rather than drops it (the echo steers EVs only).
 */
static inline u8 mrt_data_tos(const struct mrt_mark_cfg *c, bool retx,
			      bool *trimmable)
{
	u8 ecn = c->uet ? MRT_ECN_ECT1 : MRT_ECN_ECT0, dscp;

	*trimmable = c->trimming || (retx && c->distinct_retx);
	if (retx && c->distinct_retx)
		dscp = c->retransmit_dscp;
	else if (c->trimming)
		dscp = c->trimmable_dscp;
	else
		dscp = c->data_dscp;
	return dscp << 2 | ecn;
}

/* ACKs, NACKs and control packets: data_dscp; ECT(1) in the uet flavour
 * ("every packet"), not ECN-capable in mrc.
 */
static inline u8 mrt_ctl_tos(const struct mrt_mark_cfg *c)
{
	return c->data_dscp << 2 | (c->uet ? MRT_ECN_ECT1 : MRT_ECN_NOT_ECT);
}

/* Receiver */

/* Whether a new data packet p (with CE if ce) is acknowledged at once
 * whatever ack_every_pkts says: a CE mark, a retransmission, an ACK
 * request, a PDC's first packets, a message's end.  The rest are, every
 * ack_every_pkts-th packet: at_once(p, ce) || ++since_ack >= every.
 */
static inline bool mrt_rx_ack_at_once(const struct mrt_pkt *p, bool ce)
{
	return ce || p->flags & (MRT_DATA_F_RETX | MRT_DATA_F_AR |
				 MRT_DATA_F_SYN | MRT_DATA_F_EOM);
}

/* Room at a receiver for a new packet: the receive buffer holds to
 * rcvbuf, with one exception, so that messages being reassembled never
 * keep the oldest in-order message from completing: while nothing waits
 * to be read (reading would make room), a packet at cack of the PDC whose
 * message is the oldest being reassembled (in_order; with none being
 * reassembled, at cack of its own PDC) is taken as long as everything
 * else the buffer holds (others) fits in rcvbuf and its own message
 * alone (held, with the packet) holds at most rcvbuf plus
 * MRT_RCV_RESERVE.  So one message at a time grows past the buffer, and
 * the buffer holds at most twice rcvbuf and the reserve, whatever its
 * peers send; a message that outgrows that never fits (MSG_TOO_BIG).
 * used and bytes are what the buffer holds and what the packet would add
 * (the kernel's truesize).
 */
#define MRT_RCV_RESERVE		(64 * 1024)

enum mrt_rx_room {
	MRT_RX_ROOM_OK,
	MRT_RX_ROOM_FULL,	/* not now: NACKed NO_RESOURCE, sent again */
	MRT_RX_ROOM_NEVER,	/* the in-order message outgrows the buffer
				 * and the reserve: it never fits
				 * (MSG_TOO_BIG)
				 */
};

static inline enum mrt_rx_room mrt_rx_room(u64 used, u64 bytes, u64 rcvbuf,
					   bool readable, bool in_order, u64 held,
					   u64 others)
{
	if (used + bytes <= rcvbuf)
		return MRT_RX_ROOM_OK;
	if (readable || !in_order)
		return MRT_RX_ROOM_FULL;
	if (held + bytes > rcvbuf + MRT_RCV_RESERVE)
		return MRT_RX_ROOM_NEVER;
	if (others > rcvbuf)
		return MRT_RX_ROOM_FULL;
	return MRT_RX_ROOM_OK;
}

/* The ACK (a->ack and a->flags; the caller sets the ids and EV) that
 * answers data packet p: cack, the SACK around p's PSN, the received-bytes
 * clock, the window, the receiver penalty pen, the receiver's restore
 * flag (restore_cwind_enable) on every ACK (the UET page: "Each ACK
 * carries the penalty and the receiving NIC's RestoreCWindEnable"), and
 * the service time: the ns the receiver held p before this ACK, which the
 * sender's RTT sample leaves out (64 ns units, rounded down, at most
 * U16_MAX units).
 */
void mrt_rx_ack_fill(const struct mrt_rx *rx, const struct mrt_pkt *p,
		     bool ce, u8 pen, bool restore, u64 service_ns,
		     struct mrt_pkt *a);

#endif /* _MRT_ENGINE_H */

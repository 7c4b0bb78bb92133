/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrt's sequence-number logic, pure C (no skbs, sockets or timers): PSN
 * arithmetic across wrap, the receiver's PSN window and the selective ACK
 * it sends, the sender's view of which PSNs a SACK acknowledges, and the
 * retransmission-timeout estimator.  The caller owns the memory and the
 * locking; the same file builds into mrt.ko, the unit tests and the
 * simulator.
 *
 * PSNs are u32 and wrap.  Every comparison is modulo 2^32 within half the
 * space (mrt_psn_before()), which the windows keep far from: a receiver
 * accepts PSNs in [cack, cack + range) with range at most MRT_RANGE_MAX.
 */
#ifndef _MRT_PSN_H
#define _MRT_PSN_H

#include <net/fabric/core.h>

/* A PSN window's size: a power of two, a multiple of the SACK's 64 bits. */
#define MRT_RANGE_MIN		64U
#define MRT_RANGE_MAX		16384U
#define MRT_SACK_BITS		64U

/* a < b, modulo 2^32. */
static inline bool mrt_psn_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool mrt_psn_after(u32 a, u32 b)
{
	return mrt_psn_before(b, a);
}

static inline bool mrt_range_valid(u32 range)
{
	return range >= MRT_RANGE_MIN && range <= MRT_RANGE_MAX &&
	       !(range & (range - 1));
}

/* Bytes of bitmap a window of range PSNs needs. */
static inline unsigned int mrt_range_bytes(u32 range)
{
	return range / 8;
}

/* The receiver's side of a PDC.  bits[] has one bit per PSN of the window,
 * bit (psn & (range - 1)); a bit is set for a PSN received above cack and
 * cleared as cack passes it, so the array is reused around the ring.
 */
struct mrt_rx {
	u32 cack;		/* the next PSN expected: all below arrived */
	u32 range;		/* PSNs [cack, cack + range) are accepted */
	u32 highest;		/* one above the highest PSN received */
	u32 ooo;		/* packets that arrived above a hole */
	u64 rcvd_bytes;		/* first-time bytes, out of order included */
	u64 *bits;		/* range bits, zeroed by mrt_rx_init() */
};

enum mrt_rx_verdict {
	MRT_RX_NEW,		/* first arrival: deliver, count, ACK */
	MRT_RX_DUP,		/* arrived before (at or above cack): ACK at once */
	MRT_RX_OLD,		/* within a window below cack, so a
				 * duplicate: ACK at once
				 */
	MRT_RX_OOR,		/* beyond the window: NACK PSN_OOR_WINDOW */
	MRT_RX_STRAY,		/* further below: no sender of this PDC
				 * sent it; drop without an answer
				 */
};

/* The wire's mpr for a window: 64 << mpr PSNs. */
static inline u8 mrt_mpr_of(u32 range)
{
	u8 m = 0;

	while ((MRT_RANGE_MIN << m) < range)
		m++;
	return m;
}

/* 0, or -1 if range is not a valid window (mrt_range_valid()). */
int mrt_rx_init(struct mrt_rx *r, u32 first_psn, u32 range, u64 *bits);

/* A data packet with PSN psn and bytes of nominal size arrived (not
 * trimmed: a trimmed packet is NACKed, not received).
 */
enum mrt_rx_verdict mrt_rx_accept(struct mrt_rx *r, u32 psn, u32 bytes);

/* What mrt_rx_accept() would say of psn, changing nothing. */
enum mrt_rx_verdict mrt_rx_peek(const struct mrt_rx *r, u32 psn);

/* Whether psn has arrived. */
bool mrt_rx_has(const struct mrt_rx *r, u32 psn);

/* The SACK for an ACK answering ack_psn: 64 bits from *base, which is cack
 * while ack_psn is among the 64 PSNs from cack, else the 64 PSNs that end
 * at ack_psn, so that an ACK always reports the packet it answers.
 */
void mrt_rx_sack(const struct mrt_rx *r, u32 ack_psn, u32 *base, u64 *bitmap);

/* The sender's side: which of the PSNs it sent, [una, nxt), are
 * acknowledged, and which have been presumed lost from a SACK gap.
 * acked[] and lost[] have one bit per PSN of the window, as the
 * receiver's bits[], and una moves past each acknowledged PSN at its
 * head.  ref[] holds, per PSN, the newest PSN sent when it was last sent
 * (itself for a first transmission): only a SACK of a PSN more than the
 * gap above ref is evidence newer than the transmission.  A PSN is
 * presumed lost this way at most once (the MRC page: "Each packet is
 * presumed lost this way at most once"): a retransmission of it that is
 * lost too is the timer's.  The transport keeps whatever else a PSN needs (its
 * packet, send time, EV) in its own ring, indexed the same way
 * (psn & (range - 1)).
 */
struct mrt_tx {
	u32 una;		/* the oldest PSN not acknowledged */
	u32 nxt;		/* the next PSN to send */
	u32 range;
	u32 sacked_high;	/* one above the highest PSN acknowledged */
	u32 sack_unsent;	/* ACKs whose SACK claimed PSNs never sent */
	u64 *acked;		/* range bits */
	u64 *lost;		/* range bits */
	u32 *ref;		/* range entries */
};

/* acked and lost: range bits each; ref: range u32s.  0, or -1 if range
 * is not a valid window.
 */
int mrt_tx_init(struct mrt_tx *t, u32 first_psn, u32 range, u64 *acked,
		u64 *lost, u32 *ref);

/* p in [una, nxt): sent and within the window. */
static inline bool mrt_tx_outstanding(const struct mrt_tx *t, u32 p)
{
	return !mrt_psn_before(p, t->una) && mrt_psn_before(p, t->nxt);
}

/* Room for another PSN in the window. */
static inline bool mrt_tx_can_send(const struct mrt_tx *t)
{
	return t->nxt - t->una < t->range;
}

/* Called once per PSN newly acknowledged (mrt_tx_ack()) or presumed lost
 * (mrt_tx_detect_loss()).
 */
typedef void (*mrt_tx_acked_fn)(void *ctx, u32 psn);

/* Called for each PSN mrt_tx_detect_loss() could presume lost: beyond
 * says whether the SACK gap rule holds for it.  True if the caller took
 * it as lost; false (the gap rule does not hold and the caller has no
 * other evidence, or it holds the packet for other reasons: queued again
 * after a trim, waiting for the receiver, or not yet out for long
 * enough) leaves the PSN's one presumption unspent.
 */
typedef bool (*mrt_tx_lost_fn)(void *ctx, u32 psn, bool beyond);

/* The PSN for a new packet; call only when mrt_tx_can_send(). */
u32 mrt_tx_next(struct mrt_tx *t);

/* psn, outstanding, was sent again: a PSN not yet presumed lost from a
 * SACK gap (it went again after a trim or a timer) may be, once PSNs sent
 * after this moment are acknowledged beyond the gap; one already presumed
 * lost never is again.  Returns false, and changes nothing, for a PSN not
 * outstanding or acknowledged.
 */
bool mrt_tx_resent(struct mrt_tx *t, u32 psn);

bool mrt_tx_is_lost(const struct mrt_tx *t, u32 psn);

/* Offers fn every outstanding PSN below the highest acknowledged that is
 * neither acknowledged nor ever presumed lost, with beyond true where the
 * acknowledged PSNs reach more than gap beyond its ref (the MRC page's
 * SACK loss rule: sack_loss_min_retx_pkts, 512 by default).  The gap is
 * the page's whatever the window: a window no larger than the gap
 * presumes no loss by it alone.  A PSN fn takes is marked presumed lost;
 * returns how many fn took.  The work is the PSNs from una to the
 * highest acknowledged, at most the window.
 */
unsigned int mrt_tx_detect_loss(struct mrt_tx *t, u32 gap, mrt_tx_lost_fn fn,
				void *ctx);

/* Applies an ACK (cack and its SACK) to the window: every PSN below cack
 * and every PSN whose bit is set, if sent and not yet acknowledged, is
 * acknowledged (fn is called for it), and una moves on.  Returns the
 * number of PSNs newly acknowledged, or -1 if cack is beyond nxt (it
 * claims PSNs never sent: a malformed ACK, of which nothing is applied).
 * SACK bits for PSNs never sent are dropped and the ACK counted in
 * sack_unsent: a stray data packet the receiver took into its window
 * (spoofed, or of an older PDC) sets such a bit in every later SACK, and
 * refusing those ACKs whole would stall the PDC.  Stale ACKs (cack
 * behind una) are fine: what they say was known.
 */
int mrt_tx_ack(struct mrt_tx *t, u32 cack, u32 sack_base, u64 sack_bitmap,
	       mrt_tx_acked_fn fn, void *ctx);

bool mrt_tx_is_acked(const struct mrt_tx *t, u32 psn);

/* The retransmission timeout (RFC 6298, as Linux's TCP keeps it): srtt and rttvar
 * from RTT samples of packets sent once (Karn), in microseconds, scaled
 * by 8 and 4 to keep their fractions.
 */
struct mrt_rto {
	u32 srtt8;		/* 8 x smoothed RTT, us; 0: no sample yet */
	u32 rttvar4;		/* 4 x RTT variation, us */
};

void mrt_rto_sample(struct mrt_rto *r, u32 rtt_us);

/* srtt + 4 x rttvar, the variance term at least min_us (as Linux's TCP
 * floors it, so that a steady RTT keeps a margin), within [min_us,
 * max_us]; initial_us before a sample.
 */
u32 mrt_rto_us(const struct mrt_rto *r, u32 min_us, u32 max_us,
	       u32 initial_us);

#endif /* _MRT_PSN_H */

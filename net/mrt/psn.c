// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's sequence-number logic (net/mrt/psn.h): the receiver's window and
 * SACK, the sender's acknowledged set, and the RTO estimator.
 *
 * Both windows are rings of bits indexed by psn & (range - 1): a PSN's bit
 * is meaningful only while it lies within the window, and it is cleared
 * as the window's lower edge passes it, so the ring needs no shifting.
 * The receiver does not set a bit for the PSN at cack; it moves cack on,
 * then past every PSN above it that had already arrived.
 */
#include <linux/bitops.h>

#include "psn.h"

/* Samples beyond this (134 s) are taken as this: srtt8 stays in 32 bits. */
#define MRT_RTT_MAX_US		BIT(27)

static bool mrt_bit(const u64 *bits, u32 range, u32 psn)
{
	u32 i = psn & (range - 1);

	return bits[i / 64] & (1ULL << (i % 64));
}

static void mrt_bit_set(u64 *bits, u32 range, u32 psn)
{
	u32 i = psn & (range - 1);

	bits[i / 64] |= 1ULL << (i % 64);
}

static void mrt_bit_clear(u64 *bits, u32 range, u32 psn)
{
	u32 i = psn & (range - 1);

	bits[i / 64] &= ~(1ULL << (i % 64));
}

int mrt_rx_init(struct mrt_rx *r, u32 first_psn, u32 range, u64 *bits)
{
	unsigned int i;

	if (!mrt_range_valid(range))
		return -1;
	*r = (struct mrt_rx){
		.cack = first_psn,
		.highest = first_psn,
		.range = range,
		.bits = bits,
	};
	for (i = 0; i < range / 64; i++)
		bits[i] = 0;
	return 0;
}

enum mrt_rx_verdict mrt_rx_peek(const struct mrt_rx *r, u32 psn)
{
	if (mrt_psn_before(psn, r->cack))
		return r->cack - psn <= r->range ? MRT_RX_OLD : MRT_RX_STRAY;
	if (psn - r->cack >= r->range)
		return MRT_RX_OOR;
	if (psn != r->cack && mrt_bit(r->bits, r->range, psn))
		return MRT_RX_DUP;
	return MRT_RX_NEW;
}

enum mrt_rx_verdict mrt_rx_accept(struct mrt_rx *r, u32 psn, u32 bytes)
{
	enum mrt_rx_verdict v = mrt_rx_peek(r, psn);

	if (v != MRT_RX_NEW)
		return v;
	r->rcvd_bytes += bytes;
	if (psn == r->cack) {
		r->cack++;
		while (mrt_bit(r->bits, r->range, r->cack)) {
			mrt_bit_clear(r->bits, r->range, r->cack);
			r->cack++;
		}
	} else {
		mrt_bit_set(r->bits, r->range, psn);
		if (r->ooo < U32_MAX)
			r->ooo++;
	}
	if (mrt_psn_after(psn + 1, r->highest))
		r->highest = psn + 1;
	return MRT_RX_NEW;
}

bool mrt_rx_has(const struct mrt_rx *r, u32 psn)
{
	if (mrt_psn_before(psn, r->cack))
		return true;
	if (psn - r->cack >= r->range)
		return false;
	return mrt_bit(r->bits, r->range, psn);
}

/* The ring's 64 bits from psn's on (range is a multiple of 64). */
static u64 mrt_bits64(const u64 *bits, u32 range, u32 psn)
{
	u32 i = psn & (range - 1), w = i / 64, sh = i % 64;
	u64 lo = bits[w] >> sh;

	if (!sh)
		return lo;
	return lo | bits[(w + 1) % (range / 64)] << (64 - sh);
}

void mrt_rx_sack(const struct mrt_rx *r, u32 ack_psn, u32 *base, u64 *bitmap)
{
	u64 map = 0;
	u32 b, i;

	if (!mrt_psn_before(ack_psn, r->cack) &&
	    ack_psn - r->cack >= MRT_SACK_BITS)
		b = ack_psn - (MRT_SACK_BITS - 1);
	else
		b = r->cack;
	*base = b;
	/* All 64 within the window, none below cack: the ring's own bits
	 * (cack's is never set), two words at most; else one by one.
	 */
	if (!mrt_psn_before(b, r->cack) &&
	    b - r->cack + MRT_SACK_BITS <= r->range) {
		*bitmap = mrt_bits64(r->bits, r->range, b);
		return;
	}
	for (i = 0; i < MRT_SACK_BITS; i++)
		if (mrt_rx_has(r, b + i))
			map |= 1ULL << i;
	*bitmap = map;
}

int mrt_tx_init(struct mrt_tx *t, u32 first_psn, u32 range, u64 *acked,
		u64 *lost, u32 *ref)
{
	unsigned int i;

	if (!mrt_range_valid(range))
		return -1;
	*t = (struct mrt_tx){
		.una = first_psn,
		.nxt = first_psn,
		.sacked_high = first_psn,
		.range = range,
		.acked = acked,
		.lost = lost,
		.ref = ref,
	};
	for (i = 0; i < range / 64; i++) {
		acked[i] = 0;
		lost[i] = 0;
	}
	return 0;
}

u32 mrt_tx_next(struct mrt_tx *t)
{
	u32 psn = t->nxt++;

	t->ref[psn & (t->range - 1)] = psn;
	mrt_bit_clear(t->lost, t->range, psn);
	return psn;
}

bool mrt_tx_resent(struct mrt_tx *t, u32 psn)
{
	/* Another PSN may own the slot: touch it only for this one. */
	if (!mrt_tx_outstanding(t, psn) || mrt_bit(t->acked, t->range, psn))
		return false;
	t->ref[psn & (t->range - 1)] = t->nxt - 1;
	return true;
}

bool mrt_tx_is_lost(const struct mrt_tx *t, u32 psn)
{
	return mrt_tx_outstanding(t, psn) && !mrt_bit(t->acked, t->range, psn) &&
	       mrt_bit(t->lost, t->range, psn);
}

unsigned int mrt_tx_detect_loss(struct mrt_tx *t, u32 gap, mrt_tx_lost_fn fn,
				void *ctx)
{
	u32 high = t->sacked_high - 1;	/* the highest PSN acknowledged */
	unsigned int n = 0;
	u32 p;

	for (p = t->una; mrt_psn_before(p, t->sacked_high); p++) {
		u32 ref = t->ref[p & (t->range - 1)];

		if (mrt_bit(t->acked, t->range, p) ||
		    mrt_bit(t->lost, t->range, p))
			continue;
		/* evidence newer than the transmission, more than gap on */
		if (!fn(ctx, p, mrt_psn_after(high, ref) && high - ref > gap))
			continue;
		mrt_bit_set(t->lost, t->range, p);
		n++;
	}
	return n;
}

bool mrt_tx_is_acked(const struct mrt_tx *t, u32 psn)
{
	if (mrt_psn_before(psn, t->una))
		return true;
	if (!mrt_psn_before(psn, t->nxt))
		return false;
	return mrt_bit(t->acked, t->range, psn);
}

int mrt_tx_ack(struct mrt_tx *t, u32 cack, u32 sack_base, u64 sack_bitmap,
	       mrt_tx_acked_fn fn, void *ctx)
{
	bool unsent = false;
	int n = 0, top;
	u64 m;
	u32 p;

	/* Nothing of an ACK whose cack claims PSNs never sent is believed;
	 * SACK bits for them are dropped (see psn.h).
	 */
	if (mrt_psn_after(cack, t->nxt))
		return -1;
	for (m = sack_bitmap; m; m &= m - 1) {
		top = __ffs64(m);
		if (mrt_tx_outstanding(t, sack_base + (u32)top) ||
		    mrt_psn_before(sack_base + (u32)top, t->una))
			continue;
		sack_bitmap &= ~(1ULL << top);
		unsent = true;
	}
	if (unsent)
		t->sack_unsent++;

	/* Everything below cack. */
	for (p = t->una; mrt_psn_before(p, cack); p++) {
		if (!mrt_bit(t->acked, t->range, p)) {
			fn(ctx, p);
			n++;
		}
		mrt_bit_clear(t->acked, t->range, p);
		mrt_bit_clear(t->lost, t->range, p);
	}
	if (mrt_psn_after(cack, t->una))
		t->una = cack;
	/* The SACK's bits, of PSNs still outstanding: only the set ones
	 * are looked at.
	 */
	for (m = sack_bitmap; m; m &= m - 1) {
		p = sack_base + __ffs64(m);
		if (!mrt_tx_outstanding(t, p) || mrt_bit(t->acked, t->range, p))
			continue;
		mrt_bit_set(t->acked, t->range, p);
		fn(ctx, p);
		n++;
		if (mrt_psn_after(p + 1, t->sacked_high))
			t->sacked_high = p + 1;
	}
	if (mrt_psn_after(t->una, t->sacked_high))
		t->sacked_high = t->una;
	/* The head moves past what arrived out of order. */
	while (mrt_psn_before(t->una, t->nxt) &&
	       mrt_bit(t->acked, t->range, t->una)) {
		mrt_bit_clear(t->acked, t->range, t->una);
		mrt_bit_clear(t->lost, t->range, t->una);
		t->una++;
	}
	return n;
}

void mrt_rto_sample(struct mrt_rto *r, u32 rtt_us)
{
	s64 delta;

	rtt_us = clamp_t(u32, rtt_us, 1, MRT_RTT_MAX_US);
	if (!r->srtt8) {
		r->srtt8 = rtt_us << 3;
		r->rttvar4 = rtt_us << 1;	/* rttvar = rtt / 2 */
		return;
	}
	/* srtt += (rtt - srtt) / 8; rttvar += (|rtt - srtt| - rttvar) / 4 */
	delta = (s64)rtt_us - (r->srtt8 >> 3);
	r->srtt8 = (u32)((s64)r->srtt8 + delta);
	if (delta < 0)
		delta = -delta;
	r->rttvar4 = (u32)((s64)r->rttvar4 + delta - (r->rttvar4 >> 2));
}

u32 mrt_rto_us(const struct mrt_rto *r, u32 min_us, u32 max_us,
	       u32 initial_us)
{
	u64 rto;

	if (!r->srtt8)
		rto = initial_us;
	else
		rto = (u64)(r->srtt8 >> 3) + max(r->rttvar4, min_us);
	return (u32)clamp_t(u64, rto, min_us, max_us);
}

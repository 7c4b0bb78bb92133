// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mrt's PSN windows and SACK arithmetic (net/mrt/psn.c)
 * against a reference model.  The input picks a window size and a first
 * PSN (anywhere in the 32-bit space, so runs cross the wrap), then a
 * stream of operations on a receiver (packets arriving, SACKs built) and
 * a sender (packets sent and resent, ACKs with any cack and SACK, loss
 * detection).  The model keeps plain arrays indexed by the distance from
 * the first PSN, with none of the ring's reuse of slots or the modulo
 * 2^32 comparisons, and every answer of the real code must match it:
 * verdicts, cack, what has arrived, the SACK's base and bits, which PSNs
 * an ACK acknowledges (each once, through the callback), refusals of ACKs
 * claiming PSNs never sent (with nothing changed), SACK bits for unsent
 * PSNs counted, which PSNs are presumed lost and when.
 */
#include <stdbool.h>
#include <string.h>

#include "../../net/mrt/psn.h"
#include "fuzz.h"

/* Windows of 64 to RMAX PSNs.  Distances from the first PSN the model
 * covers: a run sends at most MAXP PSNs; arrivals and ACKs may name PSNs
 * up to SLACK either side.
 */
#define RMAX	512L
#define MAXP	4096L
#define SLACK	(4 * RMAX)
#define SPAN	(MAXP + 2 * SLACK)

static struct {
	u32 first, range;
	/* receiver */
	struct mrt_rx rx;
	u64 rx_bits[RMAX / 64];
	bool got[SPAN];		/* index: distance + SLACK */
	long cack;		/* distances from first */
	long highest;
	u64 bytes;
	/* sender */
	struct mrt_tx tx;
	u64 acked_bits[RMAX / 64], lost_bits[RMAX / 64];
	u32 ref_ring[RMAX];
	bool acked[SPAN], lost[SPAN];
	long ref[SPAN];
	long una, nxt, sacked_high;
	u32 sack_unsent;
	/* callback */
	bool called[SPAN];
	bool beyond[SPAN];	/* what the loss callback was told */
	unsigned int ncalled;
} m;

static long dist(u32 psn)
{
	return (long)(s32)(psn - m.first);
}

static bool *at(bool *a, long d)
{
	FUZZ_ASSERT(d >= -SLACK && d < MAXP + SLACK, "distance %ld", d);
	return &a[d + SLACK];
}

/* ------------------------------------------------------------------ */
/* receiver */

static bool model_has(long d)
{
	return d < m.cack || (d < m.cack + m.range && *at(m.got, d));
}

static void rx_arrive(long d, u32 bytes)
{
	enum mrt_rx_verdict v = mrt_rx_accept(&m.rx, m.first + (u32)d, bytes),
			    want;

	if (d < m.cack)
		want = m.cack - d <= m.range ? MRT_RX_OLD : MRT_RX_STRAY;
	else if (d - m.cack >= m.range)
		want = MRT_RX_OOR;
	else if (*at(m.got, d))
		want = MRT_RX_DUP;
	else
		want = MRT_RX_NEW;
	FUZZ_ASSERT(v == want, "psn +%ld (cack +%ld, range %u): verdict %d, model %d",
		    d, m.cack, m.range, v, want);
	if (want == MRT_RX_NEW) {
		*at(m.got, d) = true;
		m.bytes += bytes;
		while (*at(m.got, m.cack))
			m.cack++;
		if (d + 1 > m.highest)
			m.highest = d + 1;
	}
	FUZZ_ASSERT(m.rx.cack == m.first + (u32)m.cack, "cack %ld, model %ld",
		    dist(m.rx.cack), m.cack);
	FUZZ_ASSERT(m.rx.highest == m.first + (u32)m.highest, "highest %ld, model %ld",
		    dist(m.rx.highest), m.highest);
	FUZZ_ASSERT(m.rx.rcvd_bytes == m.bytes, "bytes %llu, model %llu",
		    (unsigned long long)m.rx.rcvd_bytes, (unsigned long long)m.bytes);
}

static void rx_check_has(long from)
{
	long d;

	for (d = from; d < from + 128 && d < MAXP + SLACK; d++) {
		if (d < -SLACK)
			continue;
		FUZZ_ASSERT(mrt_rx_has(&m.rx, m.first + (u32)d) == model_has(d),
			    "has +%ld (cack +%ld)", d, m.cack);
	}
}

static void rx_sack(long ack)
{
	u32 base;
	u64 map, want = 0;
	long b, i;

	mrt_rx_sack(&m.rx, m.first + (u32)ack, &base, &map);
	b = ack >= m.cack && ack - m.cack >= MRT_SACK_BITS ?
	    ack - (MRT_SACK_BITS - 1) : m.cack;
	FUZZ_ASSERT(dist(base) == b, "sack for +%ld: base +%ld, model +%ld",
		    ack, dist(base), b);
	for (i = 0; i < MRT_SACK_BITS; i++)
		if (b + i < MAXP + SLACK && model_has(b + i))
			want |= 1ULL << i;
	FUZZ_ASSERT(map == want, "sack for +%ld: bitmap %016llx, model %016llx",
		    ack, (unsigned long long)map, (unsigned long long)want);
	/* the PSN it answers is in it, if it arrived */
	if (ack >= b && ack < b + (long)MRT_SACK_BITS && model_has(ack))
		FUZZ_ASSERT(map & (1ULL << (ack - b)), "sack omits +%ld", ack);
}

/* ------------------------------------------------------------------ */
/* sender */

static void on_psn(void *ctx, u32 psn)
{
	long d = dist(psn);

	FUZZ_ASSERT(!*at(m.called, d), "callback twice for +%ld", d);
	*at(m.called, d) = true;
	m.ncalled++;
}

/* the loss callback: offered every candidate, with whether the gap rule
 * holds; takes those it holds for but the ones at a distance a multiple
 * of 3, which it leaves (as the engine leaves a packet already queued, or
 * not yet out for long enough): their one presumption must stay unspent
 */
static bool on_lost(void *ctx, u32 psn, bool beyond)
{
	on_psn(ctx, psn);
	*at(m.beyond, dist(psn)) = beyond;
	return beyond && dist(psn) % 3 != 0;
}

static void calls_reset(long from, long to)
{
	long d;

	for (d = from; d < to; d++)
		*at(m.called, d) = false;
	m.ncalled = 0;
}

static bool outstanding(long d)
{
	return d >= m.una && d < m.nxt;
}

static void tx_check(void)
{
	long d;

	FUZZ_ASSERT(m.tx.una == m.first + (u32)m.una && m.tx.nxt == m.first + (u32)m.nxt,
		    "una/nxt +%ld/+%ld, model +%ld/+%ld", dist(m.tx.una),
		    dist(m.tx.nxt), m.una, m.nxt);
	FUZZ_ASSERT(m.tx.sack_unsent == m.sack_unsent, "sack_unsent %u, model %u",
		    m.tx.sack_unsent, m.sack_unsent);
	FUZZ_ASSERT(mrt_tx_can_send(&m.tx) == (m.nxt - m.una < m.range), "can_send");
	for (d = m.una - 4; d < m.nxt + 4; d++) {
		if (d < -SLACK || d >= MAXP + SLACK)
			continue;
		FUZZ_ASSERT(mrt_tx_is_acked(&m.tx, m.first + (u32)d) ==
			    (d < m.una || (d < m.nxt && *at(m.acked, d))),
			    "is_acked +%ld", d);
		FUZZ_ASSERT(mrt_tx_is_lost(&m.tx, m.first + (u32)d) ==
			    (outstanding(d) && !*at(m.acked, d) && *at(m.lost, d)),
			    "is_lost +%ld", d);
	}
}

static void tx_send(void)
{
	u32 psn;

	if (!mrt_tx_can_send(&m.tx) || m.nxt >= MAXP)
		return;
	psn = mrt_tx_next(&m.tx);
	FUZZ_ASSERT(dist(psn) == m.nxt, "next +%ld, model +%ld", dist(psn), m.nxt);
	*at(m.acked, m.nxt) = false;
	*at(m.lost, m.nxt) = false;
	m.ref[m.nxt + SLACK] = m.nxt;
	m.nxt++;
}

static void tx_resend(long d)
{
	bool ok = mrt_tx_resent(&m.tx, m.first + (u32)d),
	     want = outstanding(d) && !*at(m.acked, d);

	FUZZ_ASSERT(ok == want, "resent +%ld: %d, model %d", d, ok, want);
	/* MRC: presumed lost from a SACK gap at most once: a resend keeps
	 * the mark
	 */
	if (want)
		m.ref[d + SLACK] = m.nxt - 1;
}

static void tx_ack(long cack, long base, u64 bitmap)
{
	long una0 = m.una, d;
	bool unsent = false;
	unsigned int want = 0;
	int n;

	calls_reset(m.una < cack ? m.una : cack, m.nxt);
	n = mrt_tx_ack(&m.tx, m.first + (u32)cack, m.first + (u32)base, bitmap,
		       on_psn, NULL);
	if (cack > m.nxt) {
		FUZZ_ASSERT(n == -1 && m.ncalled == 0,
			    "cack +%ld beyond nxt +%ld: %d, %u calls", cack, m.nxt,
			    n, m.ncalled);
		tx_check();
		return;
	}
	/* below cack */
	for (d = m.una; d < cack; d++) {
		if (!*at(m.acked, d)) {
			FUZZ_ASSERT(*at(m.called, d), "+%ld below cack not acked", d);
			want++;
		}
		*at(m.acked, d) = true;
	}
	/* SACK bits */
	for (d = 0; d < (long)MRT_SACK_BITS; d++) {
		long p = base + d;

		if (!(bitmap & (1ULL << d)))
			continue;
		if (!outstanding(p) && !(p < una0)) {
			unsent = true;
			continue;
		}
		if (p < cack || p < m.una || *at(m.acked, p))
			continue;
		FUZZ_ASSERT(*at(m.called, p), "sacked +%ld not acked", p);
		*at(m.acked, p) = true;
		want++;
		if (p + 1 > m.sacked_high)
			m.sacked_high = p + 1;
	}
	if (unsent)
		m.sack_unsent++;
	FUZZ_ASSERT(n >= 0 && (unsigned int)n == want && m.ncalled == want,
		    "ack cack +%ld base +%ld %016llx: %d acked, %u calls, model %u",
		    cack, base, (unsigned long long)bitmap, n, m.ncalled, want);
	while (m.una < m.nxt && *at(m.acked, m.una))
		m.una++;
	if (m.una > m.sacked_high)
		m.sacked_high = m.una;
	tx_check();
}

static void tx_detect(u32 gap)
{
	long high = m.sacked_high - 1, d;
	u32 g = gap;	/* the page's gap, whatever the window */
	unsigned int want = 0, calls = 0, n;

	calls_reset(m.una, m.nxt);
	n = mrt_tx_detect_loss(&m.tx, gap, on_lost, NULL);
	for (d = m.una; d < m.sacked_high; d++) {
		long ref = m.ref[d + SLACK];

		bool beyond;

		if (*at(m.acked, d) || *at(m.lost, d))
			continue;
		FUZZ_ASSERT(*at(m.called, d), "+%ld not offered", d);
		calls++;
		beyond = high > ref && high - ref > (long)g;
		FUZZ_ASSERT(*at(m.beyond, d) == beyond, "+%ld offered with beyond %d, model %d",
			    d, *at(m.beyond, d), beyond);
		if (!beyond || d % 3 == 0)
			continue;	/* left: not marked, may come again */
		*at(m.lost, d) = true;
		want++;
	}
	FUZZ_ASSERT(n == want && m.ncalled == calls, "detect gap %u: %u lost, model %u",
		    gap, n, want);
	tx_check();
}

/* A distance near the interesting edges, from one byte. */
static long pick(struct fuzz_in *in, long edge)
{
	s8 off = (s8)fuzz_u8(in);

	switch (fuzz_u8(in) & 3) {
	case 0:
		return edge + off;
	case 1:
		return edge + (long)m.range + off;
	case 2:
		return edge - (long)m.range + off;
	default:
		return edge + (long)(fuzz_u16(in) % (3 * m.range)) - (long)m.range;
	}
}

static long clampd(long d)
{
	if (d < -SLACK + 1)
		return -SLACK + 1;
	if (d > MAXP + SLACK - 200)
		return MAXP + SLACK - 200;
	return d;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int ops = 0;

	memset(&m, 0, sizeof(m));
	m.range = MRT_RANGE_MIN << (fuzz_u8(&in) % 4);
	_Static_assert(MRT_RANGE_MIN << 3 == RMAX, "RMAX is the largest range picked");
	m.first = fuzz_u32(&in);
	FUZZ_ASSERT(!mrt_rx_init(&m.rx, m.first, m.range, m.rx_bits), "rx_init");
	FUZZ_ASSERT(!mrt_tx_init(&m.tx, m.first, m.range, m.acked_bits,
				 m.lost_bits, m.ref_ring), "tx_init");
	FUZZ_ASSERT(mrt_tx_init(&m.tx, m.first, m.range + 1, m.acked_bits,
				m.lost_bits, m.ref_ring) == -1, "bad range accepted");
	FUZZ_ASSERT(!mrt_tx_init(&m.tx, m.first, m.range, m.acked_bits,
				 m.lost_bits, m.ref_ring), "tx_init");

	while (fuzz_left(&in) && ops++ < 2000) {
		u8 op = fuzz_u8(&in);
		long d;

		switch (op % 8) {
		case 0:	/* a packet arrives */
			d = clampd(pick(&in, m.cack));
			rx_arrive(d, fuzz_u8(&in) + 1);
			break;
		case 1:	/* a run of packets arrives in order from a point */
			d = clampd(pick(&in, m.cack));
			for (int i = fuzz_u8(&in) % 64; i >= 0; i--)
				rx_arrive(clampd(d++), 1000);
			break;
		case 2:	/* the SACK for an arrival */
			d = clampd(pick(&in, m.cack));
			rx_sack(d);
			rx_check_has(clampd(d - 64));
			break;
		case 3:	/* the sender sends */
			for (int i = fuzz_u8(&in) % 80; i >= 0; i--)
				tx_send();
			break;
		case 4:	/* an ACK: cack near una, the SACK near nxt */
			d = clampd(pick(&in, m.una));
			tx_ack(d > m.nxt + 2 && (op & 8) ? m.nxt : d,
			       clampd(pick(&in, m.nxt - 64)), fuzz_u64(&in));
			break;
		case 5:	/* a stale or exact ACK: cack at or below una */
			tx_ack(clampd(m.una - (fuzz_u8(&in) % 8)), clampd(pick(&in, m.una)),
			       fuzz_u64(&in));
			break;
		case 6:	/* loss detection */
			tx_detect(fuzz_u16(&in) % (2 * m.range));
			break;
		default: /* a retransmission */
			tx_resend(clampd(pick(&in, m.una)));
			break;
		}
	}
	tx_check();
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Swift core: Algorithm 1 of Kumar et al., SIGCOMM 2020, with the target
 * delay scaled by hops and by the window (flow scaling), in the form
 * Google's Isekai and csg-htsim implement alike (the only one that gives
 * fs_range at fs_min_cwnd and 0 at fs_max_cwnd).  Choices (see
 * Documentation/networking/swift.rst, "Design decisions"): the Isekai
 * defaults, as the paper gives few values; a strict "<" when deciding
 * whether a decrease happened (so an ACK that leaves the window alone does
 * not push the next decrease back); srtt for the once-per-RTT guard; the
 * fabric window only (no endpoint window: TCP echoes no remote queueing
 * delay).
 *
 * Fixed point: windows Q16 packets (resolution 1.5e-5, below the paper's
 * 0.001-packet minimum), factors Q16, delays ns.  The flow-scaling
 * constants come from 1/sqrt(w) in Q25, the per-ACK term from
 * sqrt(cwnd) in Q16, both with one integer square root.
 *
 * References: Kumar et al., "Swift: Delay is Simple and Effective for
 * Congestion Control in the Datacenter", SIGCOMM 2020; Google's Isekai
 * Falcon RUE (swift.cc); Broadcom/csg-htsim swift.cpp.
 */
#include <net/fabric/swift.h>

#define Q16_ONE		BIT_ULL(16)

#define SWIFT_NAMES_U32		NULL

const struct fabric_attr_desc swift_attr_descs[SWIFT_ATTR_COUNT] = {
#define SWIFT_ATTR(name, kind, def, lo, hi, unit, help) \
	[SWIFT_ATTR_##name] = FABRIC_ATTR_DESC(name, kind, def, lo, hi, unit, help, \
					       SWIFT_NAMES_##kind),
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR
};

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
const char * const swift_decision_names[SWIFT_DECISION_COUNT] = { SWIFT_DECISIONS };
#undef EM
#undef EMe

void swift_params_init(struct swift_params *p)
{
	unsigned int i;

	for (i = 0; i < SWIFT_ATTR_COUNT; i++)
		p->v[i] = swift_attr_descs[i].def;
}

/* Thousandths of a packet to Q16 packets, at most U32_MAX. */
static u32 swift_q16(u32 milli)
{
	return min_t(u64, fabric_muldiv(milli, Q16_ONE, 1000, true), U32_MAX);
}

/* 1 / sqrt(milli / 1000), in Q25. */
static u64 swift_inv_sqrt_q25(u32 milli)
{
	return fabric_isqrt64(div64_u64(1000ULL << 50, max_t(u32, milli, 1)));
}

void swift_init(struct swift *s, const struct swift_params *p, u32 cwnd_milli)
{
	u64 lo = swift_inv_sqrt_q25(SWIFT_P(p, fs_min_cwnd));
	u64 hi = swift_inv_sqrt_q25(SWIFT_P(p, fs_max_cwnd));

	*s = (struct swift){ 0 };
	s->min_cwnd = max_t(u32, swift_q16(SWIFT_P(p, min_cwnd)), 1);
	s->max_cwnd = max(swift_q16(SWIFT_P(p, max_cwnd)), s->min_cwnd);
	s->ai = swift_q16(SWIFT_P(p, ai));
	s->beta = swift_q16(SWIFT_P(p, beta));
	s->mdf = swift_q16(SWIFT_P(p, max_mdf));
	s->hop_target = min_t(u64, (u64)SWIFT_P(p, hops) * SWIFT_P(p, per_hop_ns),
			      U32_MAX);
	s->target_base = min_t(u64, (u64)SWIFT_P(p, base_target_ns) +
			       s->hop_target, U32_MAX);
	s->auto_base = !SWIFT_P(p, base_target_ns);
	s->base_rtt = U32_MAX;
	s->fs_range = SWIFT_P(p, fs_range_ns);
	/* No flow scaling unless fs_min_cwnd < fs_max_cwnd. */
	if (lo > hi) {
		u64 alpha = min_t(u64, fabric_muldiv(s->fs_range, 1ULL << 25,
						     lo - hi, true), S32_MAX);

		s->fs_alpha = alpha;
		s->fs_beta = -(s32)min_t(u64, (alpha * hi + (1ULL << 24)) >> 25,
					 S32_MAX);
	}
	s->retx_thresh = SWIFT_P(p, retx_reset_threshold);
	s->cwnd = clamp_t(u32, swift_q16(cwnd_milli), s->min_cwnd, s->max_cwnd);
	s->last_target = swift_target(s);
}

u32 swift_target(const struct swift *s)
{
	u64 root = fabric_isqrt64((u64)s->cwnd << 16);	/* sqrt(cwnd), Q16 */
	s64 fs;

	if (!root)
		fs = s->fs_range;
	else
		fs = (s64)div64_u64((u64)s->fs_alpha << 16, root) + s->fs_beta;
	fs = clamp_t(s64, fs, 0, s->fs_range);
	return min_t(u64, (u64)s->target_base + fs, U32_MAX);
}

/* At most one decrease per srtt; the first may come at any time. */
static bool swift_can_decrease(const struct swift *s, u64 now, u64 srtt)
{
	return !s->decreased || (s64)(now - s->t_last_decrease) >= (s64)srtt;
}

/* cwnd x f (Q16), then the bounds; a decrease is timestamped. */
static void swift_set(struct swift *s, u64 cwnd, u64 now, u64 srtt)
{
	u32 prev = s->cwnd;

	s->cwnd = clamp_t(u64, cwnd, s->min_cwnd, s->max_cwnd);
	if (s->cwnd < prev) {
		s->t_last_decrease = now;
		s->decreased = 1;
	}
	/* One packet every srtt / cwnd when the window is below one packet. */
	s->pacing_gap = s->cwnd < Q16_ONE ?
			min_t(u64, div64_u64(srtt << 16, max_t(u32, s->cwnd, 1)),
			      U32_MAX) : 0;
}

/* base_target_ns 0: the lowest value of a smoothed delay (gain 1/8, as
 * TCP's srtt; the first sample starts it) is the base, so that the rare
 * fast sample among a host's jitter does not become it.
 */
bool swift_offer_base_rtt(struct swift *s, u64 delay)
{
	u32 d = min_t(u64, delay, U32_MAX);

	if (!s->auto_base || !d)
		return false;
	if (!s->auto_srtt)
		s->auto_srtt = d;
	else
		s->auto_srtt += ((s64)d - (s64)s->auto_srtt) / 8;
	if (s->auto_srtt >= s->base_rtt)
		return false;
	s->base_rtt = s->auto_srtt;
	s->target_base = min_t(u64, (u64)s->base_rtt + s->hop_target, U32_MAX);
	s->last_target = swift_target(s);
	return true;
}

static u64 swift_cut(const struct swift *s, u32 f)
{
	return ((u64)s->cwnd * f) >> 16;
}

enum swift_decision swift_on_ack(struct swift *s, u64 now, u64 delay,
				 u32 acked, u64 srtt, bool may_decrease)
{
	u64 cwnd = s->cwnd;
	enum swift_decision d;
	u32 target;

	s->retx_cnt = 0;
	if (may_decrease)
		swift_offer_base_rtt(s, delay);
	target = swift_target(s);
	s->last_target = target;
	s->last_delay = min_t(u64, delay, U32_MAX);
	if (delay < target) {
		/* ai x acked < 2^58: the Q16 quotient in 128 bits */
		if (cwnd >= Q16_ONE)
			cwnd += fabric_muldiv((u64)s->ai * acked, Q16_ONE,
					      cwnd, false);
		else
			cwnd += (u64)s->ai * acked;
		d = SWIFT_AI;
	} else if (!may_decrease) {
		d = SWIFT_NO_MD;
	} else if (!swift_can_decrease(s, now, srtt)) {
		d = SWIFT_HOLD;
	} else {
		/* beta x excess / delay, the product in 128 bits.  A zero
		 * delay reaches here only with a zero target: no excess, so
		 * no decrease (and no division by zero).
		 */
		u64 f = delay ? fabric_muldiv(s->beta, delay - target, delay,
					      false) : 0;

		f = Q16_ONE - min_t(u64, f, Q16_ONE);
		cwnd = swift_cut(s, max_t(u64, f, Q16_ONE - s->mdf));
		d = SWIFT_MD;
	}
	swift_set(s, cwnd, now, srtt);
	s->last_decision = d;
	return d;
}

enum swift_decision swift_on_rto(struct swift *s, u64 now, u64 srtt)
{
	u64 cwnd = s->cwnd;
	enum swift_decision d = SWIFT_RTO;

	s->retx_cnt = min_t(u32, s->retx_cnt + 1, U16_MAX);
	if (s->retx_cnt >= s->retx_thresh) {
		cwnd = s->min_cwnd;
		d = SWIFT_RTO_RESET;
	} else if (swift_can_decrease(s, now, srtt)) {
		cwnd = swift_cut(s, Q16_ONE - s->mdf);
	}
	swift_set(s, cwnd, now, srtt);
	s->last_decision = d;
	return d;
}

enum swift_decision swift_on_recovery(struct swift *s, u64 now, u64 srtt)
{
	u64 cwnd = s->cwnd;

	s->retx_cnt = 0;
	if (swift_can_decrease(s, now, srtt))
		cwnd = swift_cut(s, Q16_ONE - s->mdf);
	swift_set(s, cwnd, now, srtt);
	s->last_decision = SWIFT_RECOVERY;
	return SWIFT_RECOVERY;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC core: the window algorithm of Ultra Ethernet 1.0 section 3.6.13,
 * in the two flavours of the Scala MRC NIC and Scala UET NIC pages
 * ("Congestion control"): mrc and uet.
 *
 * Pure C: no sockets, no skbs, no clocks.  The same file builds into
 * tcp_nscc.ko, the userspace unit tests and tools/ccreplay (see
 * include/net/fabric/core.h).  Integer and Q16 fixed point only, as
 * kernel code has no floating point: fractional attributes are written
 * in thousandths, the gains derived from them are Q16.
 *
 * Per-ACK order (UET 1.0 NSCC.OnACK, which both pages follow): release
 * bytes; receiver penalty (uet); stop without an RTT sample; base RTT and
 * delay average; Quick Adapt; one routine chosen by delay (and ECN echo,
 * uet); fulfill_adjustment on the ConfigBaseRTT period or past 8 nominal
 * packets; bounds.
 *
 * Where the spec and the pages leave room (see
 * Documentation/networking/nscc.rst, "Design decisions"):
 *  - alpha = A x sa x sb x MTU / target with sa = BDP / reference BDP and
 *    sb = target / ReferenceNetworkRTT, the spec's formula, so the target
 *    cancels out;
 *  - fast increase adds FastIncreaseMultiplier x 0.25 x sa bytes per
 *    acked byte, so the default multiplier of 1.0 is the spec's 0.25;
 *  - "MTU" in every gain, in the floor and in the 8-packet rule is the
 *    nominal packet, the IP datagram, which both ends count alike;
 *  - the receiver penalty caps the window at the bytes in flight, then
 *    subtracts, as the UET page says;
 *  - the reference BDP is ReferenceNetworkLinkSpeed x ReferenceNetworkRTT
 *    (300,000 bytes at the defaults, so sa is 1 there).
 *
 * What the reference simulator's history taught, and this core keeps:
 *  - eta is added at most once per config base RTT, in one place, and
 *    last_adjust moves only when it is (else the additive term can come
 *    twice in one period);
 *  - the pending increase is applied as inc / cwnd without a cap (a cap
 *    turns the additive increase multiplicative);
 *  - exactly one routine per ACK;
 *  - multiplicative decrease keeps its own floor of one packet;
 *  - the byte counters and the pending increase are u64 (the pending
 *    increase is Q16 bytes squared: one packet's fair increase is far
 *    beyond 32 bits);
 *  - an ACK without a valid RTT sample stops after the penalty, as the
 *    spec says;
 *  - the timers start at creation, not at 0, and Quick Adapt's window is
 *    over at now >= its end time, as the spec says.
 *
 * References: UET 1.0 section 3.6.13; ultraethernet/uet-htsim
 * htsim/sim/uec.cpp (the reference simulator); the Scala MRC NIC and
 * Scala UET NIC "Congestion control" pages.
 */
#include <net/fabric/nscc.h>

#define Q16		16
#define Q16_ONE		BIT_ULL(Q16)
/* Delay samples beyond 1 s are clamped: keeps Q16 products in 63 bits. */
#define NSCC_DELAY_CAP	1000000000ULL
/* UET base-RTT hysteresis (about 1 us). */
#define NSCC_UET_HYST	1000ULL
/* In-flight bytes saturate at +-2^62, so no run of events, whatever their
 * sizes, can overflow the signed count (undefined behaviour in C).
 */
#define NSCC_INFLIGHT_MAX	((s64)BIT_ULL(62))

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
const char * const nscc_flavour_names[NSCC_FLAVOUR_COUNT] = { NSCC_FLAVOURS };
const char * const nscc_routine_names[NSCC_R_COUNT] = { NSCC_ROUTINES };
#undef EM
#undef EMe

#define NSCC_NAMES_U32		NULL
#define NSCC_NAMES_BOOL		NULL
#define NSCC_NAMES_FLAVOUR	nscc_flavour_names

const struct fabric_attr_desc nscc_attr_descs[NSCC_ATTR_COUNT] = {
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) \
	[NSCC_ATTR_##name] = FABRIC_ATTR_DESC(name, kind, def, lo, hi, unit, help, \
					      NSCC_NAMES_##kind),
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
};

void nscc_params_init(struct nscc_params *p, enum nscc_flavour flavour)
{
	unsigned int i;

	for (i = 0; i < NSCC_ATTR_COUNT; i++)
		p->v[i] = nscc_attr_descs[i].def;
	NSCC_P(p, flavour) = flavour;
	/* The MRC page traps by default; the UET page does not. */
	NSCC_P(p, trimming_enabled) = flavour == NSCC_FLAVOUR_MRC;
}

/* Cross-attribute rules that single-attribute ranges cannot express. */
int nscc_params_check(const struct nscc_params *p, const char **why)
{
	if (NSCC_P(p, receiver_congestion_low_threshold) >
	    NSCC_P(p, receiver_congestion_high_threshold)) {
		*why = "receiver_congestion_low_threshold is above the high threshold";
		return -EINVAL;
	}
	return 0;
}

/* Bytes in a BDP of rate_mbps x rtt_ns. */
static u64 nscc_bdp(u32 rate_mbps, u64 rtt_ns)
{
	return div_u64((u64)rate_mbps * rtt_ns, 8000);
}

/* What scales with the nominal packet and the config base RTT: the
 * increase gains, the adjust period in bytes, and the window's bounds.
 */
static void nscc_cfg_scale(struct nscc *n)
{
	const struct nscc_params *p = &n->p;
	struct nscc_cfg *c = &n->cfg;
	u64 bdp, ref_bdp, ref_ns;

	bdp = max_t(u64, nscc_bdp(c->rate_mbps, c->cfg_base_rtt), 1);
	ref_bdp = max_t(u64, nscc_bdp(NSCC_P(p, reference_network_link_speed_mbps),
				      NSCC_P(p, reference_network_rtt_ns)), 1);

	/* alpha = A x sa x sb x MTU / target = A x MTU x bdp / (ref_bdp x
	 * ref_rtt), Q16 bytes per ns per acked byte: sb = target / ref_rtt,
	 * so the target cancels;
	 * fi = F x MTU x sa bytes; fi_scale = S x 0.25 x sa, so S = 1.0 is
	 * the spec's 0.25;
	 * eta = E x MTU x sa bytes.  The multipliers are thousandths, as
	 * the kernel has no floating point.
	 */
	ref_ns = fabric_mul_sat(ref_bdp * 1000, NSCC_P(p, reference_network_rtt_ns));
	c->alpha_q = fabric_muldiv((u64)NSCC_P(p, alpha_multiplier) * c->mtu,
				   bdp << Q16, ref_ns, true);
	c->fi_q = fabric_muldiv((u64)NSCC_P(p, fair_increase_multiplier) * c->mtu,
				bdp << Q16, ref_bdp * 1000, true);
	c->fis_q = fabric_muldiv(NSCC_P(p, fast_increase_multiplier),
				 bdp << (Q16 - 2), ref_bdp * 1000, true);
	c->eta = fabric_muldiv((u64)NSCC_P(p, eta_multiplier) * c->mtu, bdp,
			       ref_bdp * 1000, false);
	c->adjust_bytes = 8ULL * c->mtu;

	if (c->override_max)
		n->max_wnd = (u64)NSCC_P(p, max_congestion_window_pkts) * c->mtu;
	else
		n->max_wnd = bdp * 3 / 2;
	n->max_wnd = max_t(u64, n->max_wnd, c->mtu);
}

/* The config base RTT and what follows from it: the target (UET 1.0
 * section 3.6.13.3: 0.75 x the base with trimming, the base without;
 * or the pages' override), then what nscc_cfg_scale() derives.
 */
static void nscc_cfg_base(struct nscc *n, u64 rtt)
{
	const struct nscc_params *p = &n->p;
	struct nscc_cfg *c = &n->cfg;

	c->cfg_base_rtt = clamp_t(u64, rtt, 1,
				  nscc_attr_descs[NSCC_ATTR_config_base_rtt_ns].max);
	/* A learnt base: the delays the attributes give for the spec's base
	 * (Quick Adapt's 24 us and the fast-increase margin's 1 us over 6 us)
	 * keep their ratio to it.
	 */
	c->qa_threshold = NSCC_P(p, quick_adapt_threshold_ns);
	c->margin = NSCC_P(p, target_queue_delay_margin_ns);
	if (c->auto_base) {
		u64 spec = nscc_attr_descs[NSCC_ATTR_config_base_rtt_ns].def;

		c->qa_threshold = min_t(u64, fabric_muldiv(c->qa_threshold,
							   c->cfg_base_rtt, spec,
							   false), U32_MAX);
		c->margin = min_t(u64, fabric_muldiv(c->margin, c->cfg_base_rtt,
						     spec, false), U32_MAX);
	}
	if (c->trimming)
		c->qa_threshold = U32_MAX;
	if (NSCC_P(p, override_spec_target_queue_delay))
		c->target = NSCC_P(p, target_queue_delay_ns);
	else if (c->trimming)
		c->target = div_u64((u64)c->cfg_base_rtt * 3, 4);
	else
		c->target = c->cfg_base_rtt;
	c->target = max_t(u32, c->target, 1);
	nscc_cfg_scale(n);
}

void nscc_init(struct nscc *n, const struct nscc_params *p, u32 mtu, u64 now)
{
	struct nscc_cfg *c = &n->cfg;
	u64 rtt = NSCC_P(p, config_base_rtt_ns);

	*n = (struct nscc){ 0 };	/* all state starts at zero */
	n->p = *p;
	c->flavour = NSCC_P(p, flavour);
	c->trimming = NSCC_P(p, trimming_enabled);
	c->disable_qa = NSCC_P(p, disable_quick_adapt);
	c->override_max = NSCC_P(p, override_spec_max_congestion_window);
	c->pass_through = NSCC_P(p, pass_through);
	c->enable = NSCC_P(p, nscc_enable);
	c->qa_gate = NSCC_P(p, quick_adapt_gate);
	c->rate_mbps = NSCC_P(p, data_rate_mbps) ?: FABRIC_LINK_MBPS_FALLBACK;
	/* 0: the path's (smoothed) RTT is the config base RTT
	 * (nscc_learn_base()); the spec's value stands in until one comes.
	 */
	c->auto_base = !rtt;
	if (c->auto_base)
		rtt = nscc_attr_descs[NSCC_ATTR_config_base_rtt_ns].def;

	c->gamma_q = fabric_muldiv(NSCC_P(p, gamma), Q16_ONE, 1000, true);
	c->mdjump_q = fabric_muldiv(NSCC_P(p, max_multiplicative_decrease_jump),
				    Q16_ONE, 1000, true);
	c->dalpha_q = fabric_muldiv(NSCC_P(p, delay_alpha), Q16_ONE, 1000, true);

	c->mtu = max_t(u32, mtu, 1);
	nscc_cfg_base(n, rtt);
	n->cwnd = n->max_wnd;		/* no slow start */
	n->base_rtt = c->cfg_base_rtt;
	n->delay_ref = c->cfg_base_rtt;
	n->last_adjust = now;
	n->last_dec = now;
}

static inline bool nscc_uet(const struct nscc *n)
{
	return n->cfg.flavour == NSCC_FLAVOUR_UET;
}

static void nscc_release(struct nscc *n, u64 bytes)
{
	s64 b = min_t(u64, bytes, NSCC_INFLIGHT_MAX);

	/* b - MAX >= -MAX and inflight - b >= -2^63: neither overflows */
	if (n->inflight < b - NSCC_INFLIGHT_MAX)
		n->inflight = -NSCC_INFLIGHT_MAX;
	else
		n->inflight -= b;
}

/* cwnd = max(cwnd - bytes, MTU) */
static void nscc_shrink(struct nscc *n, u64 bytes)
{
	u64 mtu = n->cfg.mtu;

	n->cwnd = n->cwnd > bytes && n->cwnd - bytes > mtu ?
		  n->cwnd - bytes : mtu;
}

static void nscc_bounds(struct nscc *n)
{
	n->cwnd = clamp_t(u64, n->cwnd, n->cfg.mtu, n->max_wnd);
}

static u64 nscc_wnd_of_rtt(const struct nscc *n, u64 rtt)
{
	return max_t(u64, nscc_bdp(n->cfg.rate_mbps, rtt) * 3 / 2, n->cfg.mtu);
}

void nscc_set_mtu(struct nscc *n, u32 mtu)
{
	if (max_t(u32, mtu, 1) == n->cfg.mtu)
		return;
	n->cfg.mtu = max_t(u32, mtu, 1);
	nscc_cfg_scale(n);
	/* A max window that followed the measured base RTT (as
	 * nscc_update_base_rtt() sets it) keeps following it.
	 */
	if (nscc_uet(n) ? n->base_measured :
	    !n->cfg.override_max && n->base_rtt != n->cfg.cfg_base_rtt)
		n->max_wnd = nscc_wnd_of_rtt(n, n->base_rtt);
	n->cwnd = clamp_t(u64, n->cwnd, n->cfg.mtu, n->max_wnd);
}

/* config_base_rtt_ns 0: the path's base RTT as the samples show it.  Each
 * sample moves a smoothed RTT (TCP's srtt gain, 1/8; the first sample
 * starts it), and the lowest that smoothed RTT has been is the config base
 * RTT: all that follows from it is derived again as nscc_init() would for
 * that value.  Smoothed, because without NIC timestamps the samples carry
 * the hosts' own jitter, and the rare fast one would make every ordinary
 * sample read as queueing.  The base RTT and the delay reference are that
 * value too (no uet hysteresis).  The first one also starts the window at
 * the new max window, as nscc_init() does.  Quick Adapt's threshold and
 * the fast-increase margin scale with the base (nscc_cfg_base()).
 * Returns true when the base was set.
 */
static bool nscc_learn_base(struct nscc *n, u64 rtt)
{
	/* A sample of 0 (all of it service time) says nothing of the path. */
	if (!n->cfg.auto_base || !rtt)
		return false;
	if (!n->auto_srtt)
		n->auto_srtt = rtt;
	else
		n->auto_srtt += ((s64)rtt - (s64)n->auto_srtt) / 8;
	if (n->base_learnt && n->auto_srtt >= n->base_rtt)
		return false;
	nscc_cfg_base(n, n->auto_srtt);
	/* the value itself: cfg_base_rtt stops at the attribute's 1 s */
	n->base_rtt = n->auto_srtt;
	n->delay_ref = n->auto_srtt;
	if (!n->base_learnt)
		n->cwnd = n->max_wnd;
	n->base_learnt = true;
	n->st.base_learnt++;
	return true;
}

bool nscc_offer_base_rtt(struct nscc *n, u64 rtt_ns)
{
	if (rtt_ns == NSCC_NO_RTT || !nscc_learn_base(n, rtt_ns))
		return false;
	nscc_bounds(n);
	return true;
}

/* Offer an RTT sample to the base RTT; returns true when it fell.
 * mrc: any lower sample becomes the base, and the max window follows
 * unless it is overridden.  uet: only a sample more than ~1 us below the
 * base lowers it, to sample + 1 us, and from then on the max window always
 * follows it and delay is measured from the sample that lowered it.
 */
static bool nscc_update_base_rtt(struct nscc *n, u64 rtt)
{
	/* a learnt base follows the smoothed RTT alone, never a raw sample */
	if (n->cfg.auto_base)
		return nscc_learn_base(n, rtt);
	if (nscc_uet(n)) {
		if (rtt + NSCC_UET_HYST >= n->base_rtt)
			return false;
		n->base_rtt = rtt + NSCC_UET_HYST;
		n->delay_ref = rtt;
		n->base_measured = true;
		n->max_wnd = nscc_wnd_of_rtt(n, n->base_rtt);
		return true;
	}
	if (rtt >= n->base_rtt)
		return false;
	n->base_rtt = rtt;
	n->delay_ref = rtt;
	if (!n->cfg.override_max)
		n->max_wnd = nscc_wnd_of_rtt(n, rtt);
	return true;
}

/* mrc: a base RTT a probe lowered reaches the max window at the next
 * sample (a SACK's or NACK's).  Returns true if the max window changed.
 */
static bool nscc_max_follow(struct nscc *n)
{
	if (!n->max_stale)
		return false;
	n->max_stale = false;
	if (n->cfg.override_max)
		return false;
	n->max_wnd = nscc_wnd_of_rtt(n, n->base_rtt);
	return true;
}

void nscc_on_probe_rtt(struct nscc *n, u64 rtt_ns)
{
	rtt_ns = min_t(u64, rtt_ns, NSCC_MAX_RTT_NS);
	if (!n->cfg.enable || n->cfg.auto_base) {
		/* disabled: the base RTT still follows; auto: as a sample */
		if (nscc_update_base_rtt(n, rtt_ns))
			nscc_bounds(n);
		return;
	}
	if (nscc_uet(n)) {
		if (nscc_update_base_rtt(n, rtt_ns))
			n->cwnd = min_t(u64, n->cwnd, n->max_wnd);
		return;
	}
	if (rtt_ns >= n->base_rtt)
		return;
	n->base_rtt = rtt_ns;
	n->delay_ref = rtt_ns;
	n->max_stale = true;
}

/* avg += DelayAlpha x (d - avg), in Q16 ns */
static void nscc_update_delay(struct nscc *n, u64 d)
{
	s64 diff = (s64)(min_t(u64, d, NSCC_DELAY_CAP) << Q16) - n->avg_q;

	n->avg_q += (diff * (s64)n->cfg.dalpha_q) >> Q16;
}

/* Quick Adapt (UET 1.0 section 3.6.13.6).  Returns true when the caller
 * must stop processing this event: QA fired, or a marked event was
 * swallowed by the ignore phase.  The first call opens the first
 * observation window.
 */
static bool nscc_quick_adapt(struct nscc *n, u64 now, bool is_loss,
			     bool marked, u64 d, enum nscc_routine *r)
{
	const struct nscc_cfg *c = &n->cfg;
	bool done = false;

	if (c->disable_qa)
		return false;
	if (n->bytes_ignored < n->bytes_to_ignore && marked) {
		done = true;
		*r = NSCC_R_QA_IGNORE;
	} else if (!n->qa_open || now >= n->qa_endtime) {
		u64 sig = nscc_uet(n) ? nscc_avg_delay(n) : d;
		bool trigger = n->trigger_qa || is_loss ||
			       (!c->trimming && sig > c->qa_threshold);

		if (n->qa_open && trigger &&
		    n->achieved_bytes < (n->max_wnd >> c->qa_gate)) {
			n->cwnd = max_t(u64, n->achieved_bytes, c->mtu);
			n->bytes_to_ignore = n->inflight > 0 ? n->inflight : 0;
			n->bytes_ignored = 0;
			n->trigger_qa = false;
			n->st.qa_count++;
			done = true;
			*r = NSCC_R_QA;
		}
		n->achieved_bytes = 0;
		n->qa_open = true;
		n->qa_endtime = now + n->base_rtt + c->target;
	}
	if (done) {
		n->inc_q = 0;
		n->received_bytes = 0;
	}
	return done;
}

/* Fast increase, entered from proportional increase only, as the spec's
 * fast_increase is: so only unmarked ACKs below the target, not
 * receiver-limited, reach it.
 */
static bool nscc_fast_increase(struct nscc *n, u64 b, u64 d)
{
	const struct nscc_cfg *c = &n->cfg;

	if (d < c->margin) {
		n->fi_bytes = fabric_add_sat(n->fi_bytes, b);
		if (n->fi_bytes > n->cwnd || n->fast) {
			u64 step = fabric_mul_sat(b, c->fis_q) >> Q16;

			n->cwnd = min_t(u64, fabric_add_sat(n->cwnd, step),
					n->max_wnd);
			n->fast = true;
			n->st.fi_count++;
			return true;
		}
	} else {
		n->fi_bytes = 0;
	}
	n->fast = false;
	return false;
}

static enum nscc_routine nscc_proportional(struct nscc *n, u64 b, u64 d)
{
	u64 inc;

	if (nscc_fast_increase(n, b, d))
		return NSCC_R_FAST;
	inc = fabric_mul_sat(fabric_mul_sat(n->cfg.alpha_q, b),
			     n->cfg.target - d);
	n->inc_q = fabric_add_sat(n->inc_q, inc);
	return NSCC_R_PROPORTIONAL;
}

static enum nscc_routine nscc_fair(struct nscc *n, u64 b)
{
	n->inc_q = fabric_add_sat(n->inc_q, fabric_mul_sat(n->cfg.fi_q, b));
	return NSCC_R_FAIR;
}

/* uet only: cut by the average delay's excess, at most once per base RTT. */
static enum nscc_routine nscc_md(struct nscc *n, u64 now)
{
	const struct nscc_cfg *c = &n->cfg;
	u64 avg = nscc_avg_delay(n);
	u64 f;

	n->fast = false;
	n->fi_bytes = 0;
	if (avg <= c->target || now - n->last_dec <= n->base_rtt)
		return NSCC_R_MD;
	f = div64_u64((u64)c->gamma_q * (avg - c->target), avg);
	f = f < Q16_ONE ? Q16_ONE - f : 0;
	f = max_t(u64, f, c->mdjump_q);
	n->cwnd = max_t(u64, fabric_mul_sat(n->cwnd, f) >> Q16, c->mtu);
	n->last_dec = now;
	n->st.md_count++;
	return NSCC_R_MD;
}

/* Apply the pending increase; eta at most once per ConfigBaseRTT, and
 * last_adjust moves only when it is added, so the period runs from the
 * last eta (or creation) and eta cannot come twice in one.
 */
static void nscc_fulfill(struct nscc *n, u64 now)
{
	const struct nscc_cfg *c = &n->cfg;
	bool period = now - n->last_adjust >= c->cfg_base_rtt;

	if (!period && n->received_bytes <= c->adjust_bytes)
		return;
	n->cwnd = fabric_add_sat(n->cwnd, div64_u64(n->inc_q, n->cwnd << Q16));
	if (period) {
		n->last_adjust = now;
		n->cwnd = fabric_add_sat(n->cwnd, c->eta);
		n->st.etas++;
	}
	n->cwnd = min_t(u64, n->cwnd, n->max_wnd);
	n->inc_q = 0;
	n->received_bytes = 0;
	n->st.fulfills++;
}

/* uet: returns true when the ACK is receiver-limited, which blocks this
 * ACK's fair and proportional increase (the spec's apply_cwnd_penalty).
 */
static bool nscc_penalty(struct nscc *n, const struct nscc_ack *a)
{
	if (a->pen > 0) {
		u64 dec = fabric_mul_sat(min_t(u64, a->pen, NSCC_PEN_MAX),
					 a->bytes) >> 7;
		u64 cap = n->inflight > 0 ? n->inflight : 0;

		if (!n->saved_cwnd)
			n->saved_cwnd = n->cwnd;
		n->cwnd = min_t(u64, n->cwnd, cap);
		nscc_shrink(n, dec);
		n->st.penalties++;
		return true;
	}
	if (a->restore && n->saved_cwnd) {
		n->cwnd = n->saved_cwnd;
		n->saved_cwnd = 0;
	}
	return false;
}

enum nscc_routine nscc_on_ack(struct nscc *n, u64 now,
			      const struct nscc_ack *a)
{
	const struct nscc_cfg *c = &n->cfg;
	enum nscc_routine r = NSCC_R_NONE;
	bool uet = nscc_uet(n), rcv_limited = false, marked;
	u64 b = min_t(u64, a->bytes, S64_MAX), rtt, d;

	nscc_release(n, b);
	n->st.acks++;
	if (!c->enable) {
		if (a->rtt_ns != NSCC_NO_RTT && a->rtt_ns > a->service_ns &&
		    nscc_update_base_rtt(n, a->rtt_ns - a->service_ns))
			nscc_bounds(n);
		return NSCC_R_DISABLED;
	}
	n->bytes_ignored = fabric_add_sat(n->bytes_ignored, b);
	n->received_bytes = fabric_add_sat(n->received_bytes, b);
	n->achieved_bytes = fabric_add_sat(n->achieved_bytes, b);

	if (uet)
		rcv_limited = nscc_penalty(n, a);
	if (a->rtt_ns == NSCC_NO_RTT) {
		if (uet)
			nscc_bounds(n);
		return r;
	}
	rtt = a->rtt_ns > a->service_ns ? a->rtt_ns - a->service_ns : 0;
	n->st.rtt_samples++;
	if (nscc_update_base_rtt(n, rtt) || nscc_max_follow(n))
		n->cwnd = min_t(u64, n->cwnd, n->max_wnd);
	d = rtt > n->delay_ref ? rtt - n->delay_ref : 0;
	d = min_t(u64, d, NSCC_DELAY_CAP);
	n->last_delay = d;
	nscc_update_delay(n, d);

	marked = uet && a->ecn;
	if (marked)
		n->st.ecn_acks++;
	if (nscc_quick_adapt(n, now, false, marked, d, &r)) {
		nscc_bounds(n);
		return r;
	}

	if (marked)
		r = d >= c->target ? nscc_md(n, now) : NSCC_R_HOLD;
	else if (rcv_limited)
		r = NSCC_R_HOLD;
	else if (d >= c->target)
		r = nscc_fair(n, b);
	else
		r = nscc_proportional(n, b, d);

	nscc_fulfill(n, now);
	nscc_bounds(n);
	return r;
}

enum nscc_routine nscc_on_cack(struct nscc *n, u64 bytes)
{
	nscc_release(n, bytes);
	return NSCC_R_CACK;
}

/* Offer a NACK's sample (no service time) to the base RTT. */
static void nscc_nack_rtt(struct nscc *n, u64 rtt_ns)
{
	if (rtt_ns == NSCC_NO_RTT)
		return;
	if (!nscc_update_base_rtt(n, rtt_ns) && !nscc_max_follow(n))
		return;
	/* The UET page keeps the window under the max window always. */
	if (nscc_uet(n))
		n->cwnd = min_t(u64, n->cwnd, n->max_wnd);
}

enum nscc_routine nscc_on_trim(struct nscc *n, u64 now, u64 bytes,
			       u64 rtt_ns)
{
	enum nscc_routine r = NSCC_R_TRIM;

	nscc_release(n, bytes);
	n->st.trims++;
	nscc_nack_rtt(n, rtt_ns);
	if (!n->cfg.enable)
		return NSCC_R_DISABLED;
	nscc_update_delay(n, n->cfg.cfg_base_rtt);
	n->bytes_ignored = fabric_add_sat(n->bytes_ignored, bytes);
	n->trigger_qa = true;
	if (nscc_quick_adapt(n, now, true, true, 0, &r))
		return r;
	nscc_shrink(n, bytes);
	return r;
}

enum nscc_routine nscc_on_nack(struct nscc *n, u64 now, u64 bytes,
			       u64 rtt_ns)
{
	nscc_release(n, bytes);
	n->st.nacks++;
	nscc_nack_rtt(n, rtt_ns);
	return NSCC_R_NACK;
}

enum nscc_routine nscc_on_loss(struct nscc *n, u64 bytes)
{
	nscc_release(n, bytes);
	n->st.losses++;
	if (!n->cfg.enable)
		return NSCC_R_DISABLED;
	nscc_shrink(n, bytes);
	n->bytes_ignored = fabric_add_sat(n->bytes_ignored, bytes);
	return NSCC_R_LOSS;
}

enum nscc_routine nscc_on_send(struct nscc *n, u64 bytes)
{
	s64 b = min_t(u64, bytes, NSCC_INFLIGHT_MAX);

	/* saturates like nscc_release() */
	if (n->inflight > NSCC_INFLIGHT_MAX - b)
		n->inflight = NSCC_INFLIGHT_MAX;
	else
		n->inflight += b;
	return NSCC_R_SEND;
}

/* mrc gates the payload fetch on inflight < cwnd (the packet may overshoot
 * by less than one packet); uet sends only if the packet fits.
 */
bool nscc_can_send(const struct nscc *n, u64 bytes)
{
	if (n->cfg.pass_through || n->inflight < 0)
		return true;
	if (nscc_uet(n))
		return (u64)n->inflight + bytes <= n->cwnd;
	return (u64)n->inflight < n->cwnd;
}

/* "smaller than 4,095 bytes" */
#define NSCC_ASK_ACK_CWND	4095

bool nscc_ask_ack(const struct nscc *n, u64 bytes)
{
	u64 in = n->inflight > 0 ? (u64)n->inflight : 0;

	return n->cwnd < NSCC_ASK_ACK_CWND ||
	       in + min_t(u64, bytes, NSCC_MAX_EVENT_BYTES) + n->cfg.mtu > n->cwnd;
}

u8 nscc_receiver_penalty(const struct nscc_params *p, u32 occupancy_milli)
{
	u32 lo = NSCC_P(p, receiver_congestion_low_threshold);
	u32 hi = NSCC_P(p, receiver_congestion_high_threshold);

	if (occupancy_milli < lo)
		return 0;
	if (occupancy_milli >= hi)
		return NSCC_PEN_MAX;
	return NSCC_PEN_MAX * (occupancy_milli - lo) / (hi - lo);
}

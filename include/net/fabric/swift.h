/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion
 * Control in the Datacenter", SIGCOMM 2020), Algorithm 1 with the scaled
 * target delay, in the form Google's Isekai and csg-htsim both implement:
 * the pure window core.
 *
 *   target = base_target + hops x per_hop
 *            + clamp(alpha / sqrt(cwnd) + beta, 0, fs_range)
 *   alpha  = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd)),
 *   beta   = -alpha / sqrt(fs_max_cwnd)
 *
 * Below the target the window grows by ai per RTT; above it, at most once
 * per RTT, it shrinks by beta x (delay - target) / delay, at most max_mdf
 * (a zero delay, at a zero target, is no excess and no decrease).
 * Timeouts and fast recovery cut by max_mdf; retx_reset_threshold
 * consecutive timeouts drop it to min_cwnd.  Windows are Q16 packets and
 * may go below one packet: the sender then paces one packet every
 * RTT / cwnd.  Time in ns.  The state fits in icsk_ca_priv.
 */
#ifndef _NET_FABRIC_SWIFT_H
#define _NET_FABRIC_SWIFT_H

#include <net/fabric/attr.h>

enum swift_attr_id {
#define SWIFT_ATTR(name, kind, def, lo, hi, unit, help) SWIFT_ATTR_##name,
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR
	SWIFT_ATTR_COUNT
};

struct swift_params {
	u32 v[SWIFT_ATTR_COUNT];
};

#define SWIFT_P(p, name) ((p)->v[SWIFT_ATTR_##name])

/* What an update did (the tracepoint's "decision"): one EM(value, name)
 * row each, EMe() for the last; the list makes the enum,
 * swift_decision_names[] and the tracepoint's symbols (swift_trace.h).
 */
#define SWIFT_DECISIONS							\
	EM(SWIFT_AI, ai)		/* below target: additive increase */ \
	EM(SWIFT_MD, md)		/* above target: decrease */	\
	EM(SWIFT_HOLD, hold)		/* above, decreased < an RTT ago */ \
	EM(SWIFT_NO_MD, no_md)		/* above, sample unfit to decrease */ \
	EM(SWIFT_RTO, rto)		/* timeout: cut by max_mdf or held */ \
	EM(SWIFT_RTO_RESET, rto_reset)	/* retx_reset_threshold: min_cwnd */ \
	EMe(SWIFT_RECOVERY, recovery)	/* fast recovery: max_mdf or held */

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum swift_decision { SWIFT_DECISIONS SWIFT_DECISION_COUNT };
#undef EM
#undef EMe

struct swift {
	u64 t_last_decrease;	/* ns */
	u32 cwnd;		/* Q16 packets */
	u32 min_cwnd;		/* Q16 */
	u32 max_cwnd;		/* Q16 */
	u32 ai;			/* Q16 packets per RTT */
	u32 beta;		/* Q16 */
	u32 mdf;		/* Q16 */
	u32 target_base;	/* ns: base_target + hops x per_hop */
	u32 hop_target;		/* ns: hops x per_hop */
	u32 base_rtt;		/* ns, auto: the lowest auto_srtt; U32_MAX: none */
	u32 auto_srtt;		/* ns, auto: smoothed fit samples; 0: none */
	u32 fs_alpha;		/* ns */
	s32 fs_beta;		/* ns */
	u32 fs_range;		/* ns */
	u32 last_delay;		/* ns */
	u32 last_target;	/* ns */
	u32 pacing_gap;		/* ns between packets when cwnd < 1, else 0 */
	u16 retx_thresh;
	u16 retx_cnt;
	u8 last_decision;	/* enum swift_decision */
	u8 decreased;		/* t_last_decrease is set */
	u8 auto_base;		/* base_target_ns 0: base_rtt is the base */
};

extern const struct fabric_attr_desc swift_attr_descs[SWIFT_ATTR_COUNT];
extern const char * const swift_decision_names[SWIFT_DECISION_COUNT];

void swift_params_init(struct swift_params *p);
/*
 * cwnd_milli: the starting window (TCP: its initial window).
 * base_target_ns 0 follows the path: the base of the target is the lowest
 * value of a smoothed delay (gain 1/8) over the samples fit for a
 * decrease (the path's RTT without queueing, in Swift's terms
 * propagation, serialisation and host delay); until one comes, the target
 * is its hop and flow-scaling terms alone.
 */
void swift_init(struct swift *s, const struct swift_params *p, u32 cwnd_milli);

/*
 * A delay measured outside the ACKs (TCP: the handshake's RTT) for an
 * automatic base target; no effect with a configured one.  Returns true
 * when it lowered the base.
 */
bool swift_offer_base_rtt(struct swift *s, u64 delay);

/* The target delay (ns) for the current window. */
u32 swift_target(const struct swift *s);

/*
 * The largest delay and srtt (ns) the core is made for, 1000 s: srtt << 16
 * (for the pacing gap) and the Q16 products stay within 64 bits with room
 * to spare.  TCP's RTTs are far below it; ccreplay refuses larger values.
 */
#define SWIFT_MAX_DELAY_NS	1000000000000ULL

/*
 * An ACK at now of acked packets with this delay; srtt is the RTT that
 * paces decreases (at most one per srtt) and sets the pacing gap.  A
 * sample unfit for a decrease (a delayed ACK, retransmitted data) may
 * still increase; only a sample fit for one lowers an automatic base.
 */
enum swift_decision swift_on_ack(struct swift *s, u64 now, u64 delay,
				 u32 acked, u64 srtt, bool may_decrease);
enum swift_decision swift_on_rto(struct swift *s, u64 now, u64 srtt);
enum swift_decision swift_on_recovery(struct swift *s, u64 now, u64 srtt);

static inline u64 swift_cwnd_milli(const struct swift *s)
{
	return ((u64)s->cwnd * 1000 + (1 << 15)) >> 16;
}

#endif /* _NET_FABRIC_SWIFT_H */

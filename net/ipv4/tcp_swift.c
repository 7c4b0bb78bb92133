// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Swift: Swift's delay-based window (Kumar et al., SIGCOMM 2020) as a
 * tcp_congestion_ops, "swift".
 *
 * The algorithm is the pure core net/swift/swift_core.c.  This file maps
 * TCP onto it (Documentation/networking/swift.rst, "The TCP mapping"):
 *
 *   - Delay is rs->rtt_us, the RTT of the last (S)ACKed segment; ACKed
 *     packets are rs->acked_sacked; the once-per-RTT guard and the pacing
 *     gap use srtt.  A sample flagged as a possibly delayed ACK
 *     (rs->is_ack_delayed) or taken from retransmitted data
 *     (rs->is_retrans, which includes TCP's millisecond timestamp
 *     fallback) may increase the window but never decrease it.
 *   - cong_control owns cwnd and pacing: a window of two packets or more
 *     gives snd_cwnd = its whole packets and no pacing; below two,
 *     sk_pacing_rate = the window per srtt, min_tso_segs = 2 and
 *     snd_cwnd = 4, so that two segments go out as one TSO burst every
 *     2 MSS at that rate.  Two, not Swift's one: a receiver that delays
 *     ACKs (any but one with quickack) holds the ACK of a lone segment for
 *     40 ms or more, while two segments are ACKed at once.  And 4, not 2:
 *     tcp_cwnd_test() gives one skb at most half the window, so with a
 *     window of 2 (or 3) the pair leaves as two skbs, paced one MSS at
 *     the rate apart, srtt / window; once that gap passes the receiver's
 *     delayed-ACK timeout (a window of one packet at 40 ms of srtt) every
 *     lone first segment waits for the timer, whose delay then feeds
 *     srtt.  snd_cwnd 4 caps what is in flight at four packets; the
 *     pacing keeps it at two as long as ACKs come within 2 x srtt / window
 *     of their pair (more than srtt, the window being below two), and a
 *     rising delay or pacing's credit after a gap can let a second pair
 *     out before the first one's ACK.
 *   - Fast recovery and timeouts: entering Recovery is the fast-recovery
 *     reaction; a timeout (CA_EVENT_LOSS, or Loss entered again from Loss)
 *     the timeout reaction, whose window applies from the next ACK.
 *
 * Linux cannot give Swift the hop count (no TTL reaches a congestion
 * control), NIC timestamps, or the remote host's delay, so the delay is
 * the whole RTT and hops is an attribute: configure receivers with
 * quickack and put the hosts' own delay into base_target_ns
 * (Documentation/networking/swift.rst).
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include "fabric_tcp.h"
#include <net/tcp.h>

#include "tcp_swift.h"

#define CREATE_TRACE_POINTS
#include "swift_trace.h"

/* Attributes, counters and per-netns state: fabric.ko makes the module
 * parameters, the net.swift.* sysctls, /proc/net/swift_stat and the "swift"
 * attribute set of the fabric netlink family from this descriptor, and
 * include/net/fabric/swift_attrs.h is the one table behind them (and behind
 * ccreplay --set).  A socket copies its namespace's values when swift
 * starts on it, so a change reaches sockets started afterwards.
 */
static struct fabric_module tcp_swift_fabric;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_swift_defaults[SWIFT_ATTR_COUNT] = {
#define SWIFT_ATTR(name, kind, def, lo, hi, unit, help) \
	[SWIFT_ATTR_##name] = (def),
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR
};

/* One module parameter per attribute, same name as the sysctl. */
#define SWIFT_ATTR(name, kind, def, lo, hi, unit, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_swift_fabric, name, SWIFT_ATTR_##name, help)
#include <net/fabric/swift_attrs.h>
#undef SWIFT_ATTR

static const char * const tcp_swift_stat_names[TCP_SWIFT_STAT_DECISION] = {
	[TCP_SWIFT_STAT_SOCKETS]	= "sockets",
	[TCP_SWIFT_STAT_DECREASES]	= "decreases",
	[TCP_SWIFT_STAT_TIMEOUTS]	= "timeouts",
	[TCP_SWIFT_STAT_PACED_ENTRIES]	= "paced_entries",
	[TCP_SWIFT_STAT_PACED_ACKS]	= "paced_acks",
	[TCP_SWIFT_STAT_BASE_LEARNT]	= "base_rtt_learnt",
};

static const struct fabric_stat_group tcp_swift_stats[] = {
	{ .prefix = "", .names = tcp_swift_stat_names, .count = TCP_SWIFT_STAT_DECISION },
	{ .prefix = "decision_", .names = swift_decision_names, .count = SWIFT_DECISION_COUNT },
};

FABRIC_MODULE_PERNET(tcp_swift_fabric)

static struct fabric_module tcp_swift_fabric = {
	.owner			= THIS_MODULE,
	.name			= "swift",
	.desc			= swift_attr_descs,
	.nattrs			= SWIFT_ATTR_COUNT,
	.defaults		= tcp_swift_defaults,
	.stats			= tcp_swift_stats,
	.nstat_groups		= ARRAY_SIZE(tcp_swift_stats),
	.pernet			= FABRIC_MODULE_PERNET_OPS(tcp_swift_fabric),
};

static struct fabric_net *tcp_swift_pernet(const struct net *net)
{
	return fabric_net(&tcp_swift_fabric, net);
}

#define TCP_SWIFT_MAX_CWND	65535U
#define TCP_SWIFT_MIN_CWND	2U	/* segments: see the comment at the top */
#define TCP_SWIFT_BURST_SEGS	2U	/* below MIN_CWND: segments per burst */
#define TCP_SWIFT_PACED_CWND	4U	/* below MIN_CWND: snd_cwnd, 2 x a burst */

struct tcp_swift {
	struct swift s;
	u8 asked_pacing;	/* init asked for TCP's internal pacing */
};

static u64 tcp_swift_srtt_ns(const struct tcp_sock *tp)
{
	return (u64)(tp->srtt_us >> 3) * NSEC_PER_USEC;
}

/* The window is below one packet, where Swift itself paces (counters). */
static bool tcp_swift_paced(const struct swift *s)
{
	return s->cwnd < (1U << 16);
}

/* The window is below TCP's floor: the rate paces what snd_cwnd allows. */
static bool tcp_swift_below_floor(const struct swift *s)
{
	return s->cwnd < (TCP_SWIFT_MIN_CWND << 16);
}

/* The pacing rate in bytes per second, or ~0UL for none: below the
 * floor, the window per srtt (below one packet that is one MSS per the
 * core's pacing gap, srtt / cwnd).
 */
static unsigned long tcp_swift_rate(const struct tcp_sock *tp,
				    const struct swift *s)
{
	u64 srtt_ns = tcp_swift_srtt_ns(tp), rate;

	if (!tcp_swift_below_floor(s) || !srtt_ns)
		return ~0UL;
	/* mss < 2^16, cwnd < 2^17, 10^9 < 2^30: no overflow */
	rate = div64_u64((u64)tp->mss_cache * s->cwnd * NSEC_PER_SEC,
			 srtt_ns << 16);
	return clamp_t(u64, rate, 1, ULONG_MAX);
}

/* The core's window onto snd_cwnd and the pacing rate. */
static void tcp_swift_apply(struct sock *sk, const struct swift *s)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = s->cwnd >> 16;

	if (tcp_swift_below_floor(s))
		cwnd = TCP_SWIFT_PACED_CWND;
	/* the socket's clamp wins over the floor, as in BBR */
	tcp_snd_cwnd_set(tp, min(cwnd, min(tp->snd_cwnd_clamp,
					   TCP_SWIFT_MAX_CWND)));
	WRITE_ONCE(sk->sk_pacing_rate,
		   min(tcp_swift_rate(tp, s), READ_ONCE(sk->sk_max_pacing_rate)));
}

static void tcp_swift_account(struct sock *sk, const struct swift *s,
			      u32 prev_cwnd)
{
	struct fabric_net *fn = tcp_swift_pernet(sock_net(sk));
	const struct tcp_sock *tp = tcp_sk(sk);

	fabric_net_stat_add(fn, TCP_SWIFT_STAT_DECISION + s->last_decision, 1);
	if (s->cwnd < prev_cwnd && (s->last_decision == SWIFT_MD ||
				    s->last_decision == SWIFT_RECOVERY))
		fabric_net_stat_add(fn, TCP_SWIFT_STAT_DECREASES, 1);
	if (tcp_swift_paced(s) && prev_cwnd >= (1U << 16))
		fabric_net_stat_add(fn, TCP_SWIFT_STAT_PACED_ENTRIES, 1);
	trace_swift_update(sk, s, tp->srtt_us >> 3);
}

static void tcp_swift_init(struct sock *sk)
{
	struct fabric_net *fn = tcp_swift_pernet(sock_net(sk));
	struct tcp_swift *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift_params p;

	fabric_net_params(fn, p.v);
	swift_init(&ca->s, &p, tcp_snd_cwnd(tp) * 1000);
	/* base_target_ns 0: the handshake's RTT is the first sample. */
	if (tcp_min_rtt(tp) != ~0U &&
	    swift_offer_base_rtt(&ca->s, (u64)tcp_min_rtt(tp) * NSEC_PER_USEC))
		fabric_net_stat_add(fn, TCP_SWIFT_STAT_BASE_LEARNT, 1);
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	ca->asked_pacing = fabric_tcp_pacing_init(sk);
	tcp_swift_apply(sk, &ca->s);
	fabric_net_stat_add(fn, TCP_SWIFT_STAT_SOCKETS, 1);
}

static void tcp_swift_cong_control(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_swift *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 prev = ca->s.cwnd;

	/* The handshake's last ACK reaches cong_control before init(). */
	if (unlikely(!prev))
		return;
	if (rs->rtt_us > 0) {
		struct fabric_net *fn = tcp_swift_pernet(sock_net(sk));
		u64 srtt = tcp_swift_srtt_ns(tp);
		bool may_decrease = !rs->is_ack_delayed && !rs->is_retrans;
		u32 base = ca->s.base_rtt;

		if (tcp_swift_paced(&ca->s))
			fabric_net_stat_add(fn, TCP_SWIFT_STAT_PACED_ACKS, 1);
		swift_on_ack(&ca->s, fabric_tcp_now_ns(tp),
			     (u64)rs->rtt_us * NSEC_PER_USEC, rs->acked_sacked,
			     srtt, may_decrease);
		if (ca->s.base_rtt != base)
			fabric_net_stat_add(fn, TCP_SWIFT_STAT_BASE_LEARNT, 1);
		tcp_swift_account(sk, &ca->s, prev);
	}
	tcp_swift_apply(sk, &ca->s);
}

/* A retransmission timeout: the core's reaction, counted.  TCP has just
 * set cwnd to the packets in flight + 1 for its loss recovery; Swift's
 * window takes over at the next ACK (as BBR does), not in a burst now.
 */
static void tcp_swift_timeout(struct sock *sk, struct tcp_swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 prev = ca->s.cwnd;

	fabric_net_stat_add(tcp_swift_pernet(sock_net(sk)),
			    TCP_SWIFT_STAT_TIMEOUTS, 1);
	swift_on_rto(&ca->s, fabric_tcp_now_ns(tp), tcp_swift_srtt_ns(tp));
	tcp_swift_account(sk, &ca->s, prev);
}

/* The first timeout of an episode raises CA_EVENT_LOSS; further ones
 * re-enter Loss from Loss.  Entering Loss otherwise (a path-MTU
 * retransmission) is no timeout.  Entering Recovery is fast recovery.
 * Times are fabric_tcp_now_ns(), the clock cong_control uses.
 */
static void tcp_swift_set_state(struct sock *sk, u8 new_state)
{
	struct tcp_swift *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u8 old_state = inet_csk(sk)->icsk_ca_state;
	u32 prev = ca->s.cwnd;

	if (unlikely(!prev))	/* before init() */
		return;
	if (new_state == TCP_CA_Recovery && old_state != TCP_CA_Recovery) {
		swift_on_recovery(&ca->s, fabric_tcp_now_ns(tp),
				  tcp_swift_srtt_ns(tp));
		tcp_swift_account(sk, &ca->s, prev);
		tcp_swift_apply(sk, &ca->s);
	} else if (new_state == TCP_CA_Loss && old_state == TCP_CA_Loss) {
		tcp_swift_timeout(sk, ca);
	}
}

static void tcp_swift_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_swift *ca = inet_csk_ca(sk);

	if (ev == CA_EVENT_LOSS && ca->s.cwnd)
		tcp_swift_timeout(sk, ca);
}

/* Swift has no slow start: TCP's loss paths keep their threshold. */
static u32 tcp_swift_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 tcp_swift_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/* Below the floor, two segments go out as one burst every 2 MSS at the
 * pacing rate (snd_cwnd 4 lets one skb carry two), so the receiver ACKs
 * the pair at once; one by one, the first one's ACK would wait for the
 * second, or for the receiver's delayed-ACK timer, and srtt (from the
 * oldest segment an ACK covers) with it.
 */
static u32 tcp_swift_min_tso_segs(struct sock *sk)
{
	const struct tcp_swift *ca = inet_csk_ca(sk);

	return tcp_swift_below_floor(&ca->s) ? TCP_SWIFT_BURST_SEGS :
	       READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_min_tso_segs);
}

/* ss -ti shows Swift's state in the BBR layout of tcp_cc_info:
 *   bw          window / srtt, the rate the window allows;
 *   mrtt        the target delay;
 *   pacing_gain the window in packets (below two: paced);
 *   cwnd_gain   the last delay / the target (above 1.0: decreasing).
 */
static size_t tcp_swift_get_info(struct sock *sk, u32 ext, int *attr,
				 union tcp_cc_info *info)
{
	const struct tcp_swift *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 cwnd = READ_ONCE(ca->s.cwnd);
	u64 target = max_t(u32, READ_ONCE(ca->s.last_target), 1);
	u64 srtt_us = max_t(u32, READ_ONCE(tp->srtt_us) >> 3, 1);
	u64 bw;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1) |
		     1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	bw = fabric_muldiv(cwnd * tp->mss_cache, USEC_PER_SEC, srtt_us << 16, false);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = div_u64(target, NSEC_PER_USEC);
	info->bbr.bbr_pacing_gain = min_t(u64, cwnd >> 8, U32_MAX);
	info->bbr.bbr_cwnd_gain = div64_u64((u64)READ_ONCE(ca->s.last_delay) << 8,
					    target);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

/* Leaves the socket's pacing as TCP made it, for whatever comes next. */
static void tcp_swift_release(struct sock *sk)
{
	const struct tcp_swift *ca = inet_csk_ca(sk);

	fabric_tcp_release(sk, ca->asked_pacing);
}

static struct tcp_congestion_ops tcp_swift_ops __read_mostly = {
	.init		= tcp_swift_init,
	.release	= tcp_swift_release,
	.ssthresh	= tcp_swift_ssthresh,
	.cong_control	= tcp_swift_cong_control,
	.set_state	= tcp_swift_set_state,
	.cwnd_event	= tcp_swift_cwnd_event,
	.undo_cwnd	= tcp_swift_undo_cwnd,
	.min_tso_segs	= tcp_swift_min_tso_segs,
	.get_info	= tcp_swift_get_info,
	.owner		= THIS_MODULE,
	.name		= "swift",
};

static int __init tcp_swift_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct tcp_swift) > ICSK_CA_PRIV_SIZE);

	err = fabric_module_register(&tcp_swift_fabric);
	if (err)
		goto err_fabric;
	err = tcp_register_congestion_control(&tcp_swift_ops);
	if (err)
		goto err_cc;
	return 0;

err_cc:
	fabric_module_unregister(&tcp_swift_fabric);
err_fabric:
	return err;
}

static void __exit tcp_swift_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_swift_ops);
	fabric_module_unregister(&tcp_swift_fabric);
}

module_init(tcp_swift_register);
module_exit(tcp_swift_unregister);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP Swift: delay-based congestion control with a scaled target");
MODULE_VERSION("0.1");

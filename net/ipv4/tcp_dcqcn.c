// SPDX-License-Identifier: GPL-2.0
/*
 * TCP DCQCN: the DCQCN rate loop of RoCE NICs (Zhu et al., SIGCOMM 2015,
 * with the NIC parameters of Documentation/networking/dcqcn.rst) as a
 * tcp_congestion_ops, "dcqcn".
 *
 * The loop is the pure core net/dcqcn/dcqcn_core.c.  This file maps TCP's
 * signals onto it (Documentation/networking/dcqcn.rst, "How TCP carries
 * DCQCN"):
 *
 *   - CNPs.  The receiver echoes CE packet by packet, DCTCP style
 *     (net/ipv4/fabric_tcp.c); a CNP is one packet newly delivered with an
 *     ECN echo, the growth of tp->delivered_ce.  Packets sent are the
 *     growth of tp->data_segs_out.
 *   - Time.  There is no per-socket timer: on every ACK (cong_control) and
 *     on CA_EVENT_TX_START the loop first replays every half-interval
 *     boundary that has passed, in order, then takes the CNPs and packets
 *     this event brought.  After DCQCN_MAX_CATCHUP boundaries of silence
 *     the episode has long ended and is closed at line rate.
 *   - Rate.  The current rate becomes sk_pacing_rate (TCP's internal
 *     pacing, or fq's); cwnd is only a safety bound of twice the rate's
 *     BDP over srtt, at least 4 packets.  The rate paces TCP payload bytes.
 *   - Loss is left to TCP's retransmission; the loop has no loss reaction
 *     (the spec page's NIC runs over a lossless fabric).
 *   - ECN: the handshake asks for (and a listener grants to a peer whose
 *     congestion control needs it) ECN as the module parameter enable_ecn
 *     says: the registered ops carry TCP_CONG_NEEDS_ECN only then, so a
 *     module that will not use ECN does not negotiate it, and such a
 *     peer's packets stay Not-ECT too.  At init the connection settles
 *     (fabric_tcp_ecn_select(), with counters).  Without ECN on the
 *     connection (a peer that refused it, or enable_ecn 0 and a handshake
 *     without it) the socket sends Not-ECT and stays at line rate; one that
 *     has ECN anyway (the host's tcp_ecn granted a classic peer, a netns
 *     that differs from the module parameter) keeps it and its CNPs drive
 *     the loop.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include "fabric_tcp.h"
#include <net/inet_ecn.h>
#include <net/tcp.h>

#include "tcp_dcqcn.h"

#define CREATE_TRACE_POINTS
#include "dcqcn_trace.h"

#define TCP_DCQCN_MIN_CWND	4U
#define TCP_DCQCN_MAX_CWND	65535U

/* TCP sizes each TSO skb to sk_pacing_rate >> sk_pacing_shift bytes of
 * data (at least min_tso_segs), and TSQ holds that much per socket below
 * it: at the default 10, about 1 ms of the rate goes out as one burst,
 * longer than the queue an ECN threshold allows at a fabric port.  The
 * DCQCN NIC paces packet by packet; 14 makes the bursts 61 us of the rate
 * (two segments at 400 Mbit/s).
 */
#define TCP_DCQCN_PACING_SHIFT	14

struct tcp_dcqcn {
	struct dcqcn d;
	u32 prior_ce;		/* tp->delivered_ce at the previous ACK */
	u32 prior_segs;		/* tp->data_segs_out at the previous event */
	struct fabric_ece ece;	/* receiver: the accurate echo */
	u8 ecn_wanted;		/* this netns's enable_ecn */
	u8 ecn_pending;		/* init ran in SYN_SENT: settle ECN later */
	u8 asked_pacing;	/* init asked for TCP's internal pacing */
	u8 prior_shift;		/* sk_pacing_shift before init */
};

static struct tcp_congestion_ops tcp_dcqcn_ops, tcp_dcqcn_ecn_ops,
	tcp_dcqcn_plain_ops;

/* Attributes, counters and per-netns state: fabric.ko makes the module
 * parameters, the net.dcqcn.* sysctls, /proc/net/dcqcn_stat and the "dcqcn"
 * attribute set of the fabric netlink family from this descriptor, and
 * include/net/fabric/dcqcn_attrs.h is the one table behind them (and behind
 * ccreplay --set).  A socket copies its namespace's values when dcqcn
 * starts on it, so a change reaches sockets started afterwards.
 */
static void tcp_dcqcn_default_changed(unsigned int id);
static struct fabric_module tcp_dcqcn_fabric;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_dcqcn_defaults[DCQCN_ATTR_COUNT] = {
#define DCQCN_ATTR(name, kind, def, lo, hi, unit, help) \
	[DCQCN_ATTR_##name] = (def),
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR
};

/* One module parameter per attribute, same name as the sysctl. */
#define DCQCN_ATTR(name, kind, def, lo, hi, unit, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_dcqcn_fabric, name, DCQCN_ATTR_##name, help)
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR

static const char * const tcp_dcqcn_stat_names[TCP_DCQCN_STAT_PHASE] = {
	[TCP_DCQCN_STAT_SOCKETS]		= "sockets",
	[TCP_DCQCN_STAT_CNPS]			= "cnps",
	[TCP_DCQCN_STAT_CE_ECHOED]		= "ce_echoed",
	[TCP_DCQCN_STAT_EPISODES_STARTED]	= "episodes_started",
	[TCP_DCQCN_STAT_EPISODES_ENDED]		= "episodes_ended",
	[TCP_DCQCN_STAT_CATCHUP_LIMIT]		= "catchup_limit",
	[TCP_DCQCN_STAT_ECN_ON]			= "ecn_on",
	[TCP_DCQCN_STAT_ECN_NOT_NEGOTIATED]	= "ecn_not_negotiated",
	[TCP_DCQCN_STAT_ECN_KEPT]		= "ecn_kept",
	[TCP_DCQCN_STAT_LINK_FALLBACKS]	= "link_speed_fallbacks",
};

static const struct fabric_stat_group tcp_dcqcn_stats[] = {
	{ .prefix = "", .names = tcp_dcqcn_stat_names, .count = TCP_DCQCN_STAT_PHASE },
	{ .prefix = "phase_", .names = dcqcn_phase_names, .count = DCQCN_RUN_COUNT },
};

FABRIC_MODULE_PERNET(tcp_dcqcn_fabric)

static struct fabric_module tcp_dcqcn_fabric = {
	.owner			= THIS_MODULE,
	.name			= "dcqcn",
	.desc			= dcqcn_attr_descs,
	.nattrs			= DCQCN_ATTR_COUNT,
	.defaults		= tcp_dcqcn_defaults,
	.default_changed	= tcp_dcqcn_default_changed,
	.stats			= tcp_dcqcn_stats,
	.nstat_groups		= ARRAY_SIZE(tcp_dcqcn_stats),
	.pernet			= FABRIC_MODULE_PERNET_OPS(tcp_dcqcn_fabric),
};

static struct fabric_net *tcp_dcqcn_pernet(const struct net *net)
{
	return fabric_net(&tcp_dcqcn_fabric, net);
}

/* The handshake asks for ECN as the module-wide enable_ecn says.  Also
 * runs while the module loads, before registration.
 */
static void tcp_dcqcn_default_changed(unsigned int id)
{
	if (id == DCQCN_ATTR_enable_ecn)
		fabric_tcp_ops_set_ecn(&tcp_dcqcn_ops,
				       fabric_module_default(&tcp_dcqcn_fabric,
							     id));
}

/* Once the handshake is over: this connection with ECN or without; the
 * loop only ever leaves line rate with it.  enable_ecn 0 keeps ECN out of
 * the handshakes the module's ops make; one that has ECN anyway (a
 * classic peer granted by the host's tcp_ecn, a netns that differs from
 * the module parameter) keeps it and lets its CNPs drive the loop, as an
 * ECN endpoint must answer the marks it asked for.
 */
static void tcp_dcqcn_settle_ecn(struct sock *sk, struct fabric_net *fn,
				 struct tcp_dcqcn *ca)
{
	static const unsigned int stat[] = {
		[FABRIC_ECN_ON]			= TCP_DCQCN_STAT_ECN_ON,
		[FABRIC_ECN_NOT_NEGOTIATED]	= TCP_DCQCN_STAT_ECN_NOT_NEGOTIATED,
		[FABRIC_ECN_KEPT]		= TCP_DCQCN_STAT_ECN_KEPT,
	};
	enum fabric_ecn r;

	ca->ecn_pending = 0;
	r = fabric_tcp_ecn_select(sk, ca->ecn_wanted, &tcp_dcqcn_ecn_ops,
				  &tcp_dcqcn_plain_ops);
	/* A connection with ECN honours its marks, enable_ecn 0 or not. */
	ca->d.enable = r == FABRIC_ECN_ON || r == FABRIC_ECN_KEPT;
	if (r != FABRIC_ECN_OFF)
		fabric_net_stat_add(fn, stat[r], 1);
}

static void tcp_dcqcn_count_run(struct sock *sk, struct fabric_net *fn,
				const struct dcqcn *d, u64 t)
{
	fabric_net_stat_add(fn, TCP_DCQCN_STAT_PHASE + d->last_phase, 1);
	if (d->last_phase == DCQCN_RUN_END)
		fabric_net_stat_add(fn, TCP_DCQCN_STAT_EPISODES_ENDED, 1);
	trace_dcqcn_run(sk, d, t);
}

struct tcp_dcqcn_catch_up_ctx {
	struct sock *sk;
	struct fabric_net *fn;
};

/* dcqcn_catch_up() calls this after each run: count it, trace it. */
static void tcp_dcqcn_catch_up_run(const struct dcqcn *d, u64 t, void *ctx)
{
	struct tcp_dcqcn_catch_up_ctx *c = ctx;

	tcp_dcqcn_count_run(c->sk, c->fn, d, t);
}

/* Replays the boundaries that have passed by now: the core's bounded
 * catch-up, the same as ccreplay's; it closes the episode at the bound.
 */
static void tcp_dcqcn_catch_up(struct sock *sk, struct fabric_net *fn,
			       struct dcqcn *d, u64 now)
{
	struct tcp_dcqcn_catch_up_ctx c = { .sk = sk, .fn = fn };

	if (dcqcn_catch_up(d, now, tcp_dcqcn_catch_up_run, &c) &
	    DCQCN_CATCHUP_LIMIT) {
		fabric_net_stat_add(fn, TCP_DCQCN_STAT_CATCHUP_LIMIT, 1);
		fabric_net_stat_add(fn, TCP_DCQCN_STAT_EPISODES_ENDED, 1);
	}
}

/* The current rate as the pacing rate, and cwnd as a bound around it. */
static void tcp_dcqcn_apply(struct sock *sk, const struct dcqcn *d)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 rate = (u64)d->rc_kbps * 125;	/* bytes per second */
	u32 srtt_us = tp->srtt_us >> 3;

	/* Never 0, which TCP's pacing reads as unpaced: the core keeps the
	 * rate at 1 Mbit/s or more (a SO_MAX_PACING_RATE of 0 still means
	 * what it means to TCP).
	 */
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
	if (srtt_us && tp->mss_cache) {
		u64 cwnd = fabric_muldiv(2 * rate, srtt_us,
					 (u64)USEC_PER_SEC * tp->mss_cache,
					 false) + 1;

		tcp_snd_cwnd_set(tp, clamp_t(u64, cwnd, TCP_DCQCN_MIN_CWND,
					     min(tp->snd_cwnd_clamp,
						 TCP_DCQCN_MAX_CWND)));
	}
}

/* One event: catch up to now, then the packets sent and CNPs received. */
static void tcp_dcqcn_update(struct sock *sk, u32 cnps)
{
	struct fabric_net *fn = tcp_dcqcn_pernet(sock_net(sk));
	struct tcp_dcqcn *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u64 now = fabric_tcp_now_ns(tp);

	if (unlikely(ca->ecn_pending) && sk->sk_state != TCP_SYN_SENT)
		tcp_dcqcn_settle_ecn(sk, fn, ca);
	tcp_dcqcn_catch_up(sk, fn, &ca->d, now);
	dcqcn_on_tx(&ca->d, tp->data_segs_out - ca->prior_segs);
	ca->prior_segs = tp->data_segs_out;
	if (cnps) {
		fabric_net_stat_add(fn, TCP_DCQCN_STAT_CNPS, cnps);
		if (dcqcn_on_cnp(&ca->d, now, cnps)) {
			fabric_net_stat_add(fn, TCP_DCQCN_STAT_EPISODES_STARTED, 1);
			tcp_dcqcn_count_run(sk, fn, &ca->d, now);
		}
	}
	tcp_dcqcn_apply(sk, &ca->d);
}

static void tcp_dcqcn_init(struct sock *sk)
{
	struct fabric_net *fn = tcp_dcqcn_pernet(sock_net(sk));
	struct tcp_dcqcn *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn_params p;

	/* Re-assert the registered flags (see tcp_nscc_init()). */
	tcp_dcqcn_default_changed(DCQCN_ATTR_enable_ecn);
	fabric_net_params(fn, p.v);
	/* data_rate_mbps 0: the egress device's speed. */
	DCQCN_P(&p, data_rate_mbps) =
		fabric_tcp_rate_mbps(sk, DCQCN_P(&p, data_rate_mbps),
				     dcqcn_attr_descs[DCQCN_ATTR_data_rate_mbps].max,
				     fn, TCP_DCQCN_STAT_LINK_FALLBACKS);
	dcqcn_init(&ca->d, &p);
	ca->prior_shift = READ_ONCE(sk->sk_pacing_shift);
	WRITE_ONCE(sk->sk_pacing_shift, TCP_DCQCN_PACING_SHIFT);
	ca->prior_ce = tp->delivered_ce;
	ca->prior_segs = tp->data_segs_out;
	fabric_ece_init(&ca->ece, sk);
	/* Whether the connection has ECN decides (tcp_dcqcn_settle_ecn()).
	 * setsockopt(TCP_CONGESTION) during a non-blocking connect runs init
	 * before the SYN-ACK has told.
	 */
	ca->ecn_wanted = ca->d.enable;
	if (sk->sk_state == TCP_SYN_SENT)
		ca->ecn_pending = 1;
	else
		tcp_dcqcn_settle_ecn(sk, fn, ca);
	ca->asked_pacing = fabric_tcp_pacing_init(sk);
	tcp_dcqcn_apply(sk, &ca->d);
	fabric_net_stat_add(fn, TCP_DCQCN_STAT_SOCKETS, 1);
}

static void tcp_dcqcn_cong_control(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_dcqcn *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cnps = tp->delivered_ce - ca->prior_ce;

	/* The handshake's last ACK reaches cong_control before init()
	 * (tcp_rcv_state_process() acks first, then tcp_init_transfer()).
	 */
	if (unlikely(!ca->d.line_kbps))
		return;
	/* After a SYN_SENT init: the SYN-ACK's ACK (tcp_ecn_rcv_synack() has
	 * run) or any later one.
	 */
	if (unlikely(ca->ecn_pending))
		tcp_dcqcn_settle_ecn(sk, tcp_dcqcn_pernet(sock_net(sk)), ca);
	ca->prior_ce = tp->delivered_ce;
	tcp_dcqcn_update(sk, cnps);
}

static void tcp_dcqcn_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_dcqcn *ca = inet_csk_ca(sk);

	/* After a SYN_SENT init, a socket that only receives settles here. */
	if (unlikely(ca->ecn_pending) && sk->sk_state != TCP_SYN_SENT)
		tcp_dcqcn_settle_ecn(sk, tcp_dcqcn_pernet(sock_net(sk)), ca);
	switch (ev) {
	case CA_EVENT_TX_START:
		if (ca->d.line_kbps)
			tcp_dcqcn_update(sk, 0);
		break;
	case CA_EVENT_ECN_IS_CE:
		fabric_net_stat_add(tcp_dcqcn_pernet(sock_net(sk)),
				    TCP_DCQCN_STAT_CE_ECHOED, 1);
		fabric_ece_update(sk, &ca->ece, 1);
		break;
	case CA_EVENT_ECN_NO_CE:
		fabric_ece_update(sk, &ca->ece, 0);
		break;
	default:
		break;
	}
}

/* The loop owns the rate; TCP's CWR and recovery keep what they have. */
static u32 tcp_dcqcn_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 tcp_dcqcn_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/* ss -ti: the rate is "pacing_rate"; the loop's state is in the DCTCP
 * layout: ce_state = in an episode, alpha = estimate x 1024, ab_ecn = CNPs
 * (CE-echoed packets), ab_tot = data packets sent.
 */
static size_t tcp_dcqcn_get_info(struct sock *sk, u32 ext, int *attr,
				 union tcp_cc_info *info)
{
	const struct tcp_dcqcn *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	if (!(ext & (1 << (INET_DIAG_DCTCPINFO - 1) |
		     1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	memset(&info->dctcp, 0, sizeof(info->dctcp));
	info->dctcp.dctcp_enabled = 1;
	info->dctcp.dctcp_ce_state = READ_ONCE(ca->d.congested);
	info->dctcp.dctcp_alpha = (READ_ONCE(ca->d.alpha) * 1024ULL) >> 16;
	info->dctcp.dctcp_ab_ecn = READ_ONCE(tp->delivered_ce);
	info->dctcp.dctcp_ab_tot = READ_ONCE(tp->data_segs_out);
	*attr = INET_DIAG_DCTCPINFO;
	return sizeof(info->dctcp);
}

/* Leaves the socket as TCP made it, under the registered ops. */
static void tcp_dcqcn_release(struct sock *sk)
{
	const struct tcp_dcqcn *ca = inet_csk_ca(sk);

	fabric_tcp_release(sk, ca->asked_pacing);
	if (ca->prior_shift)
		WRITE_ONCE(sk->sk_pacing_shift, ca->prior_shift);
	WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &tcp_dcqcn_ops);
}

/* The registered ops, whose TCP_CONG_NEEDS_ECN follows the module-wide
 * enable_ecn (tcp_dcqcn_default_changed()), and the twins init() settles
 * a connection on: the same callbacks with and without ECN.
 */
#define TCP_DCQCN_OPS(_flags) {					\
	.flags		= (_flags),				\
	.init		= tcp_dcqcn_init,			\
	.release	= tcp_dcqcn_release,			\
	.ssthresh	= tcp_dcqcn_ssthresh,			\
	.cong_control	= tcp_dcqcn_cong_control,		\
	.undo_cwnd	= tcp_dcqcn_undo_cwnd,			\
	.cwnd_event	= tcp_dcqcn_cwnd_event,			\
	.get_info	= tcp_dcqcn_get_info,			\
	.owner		= THIS_MODULE,				\
	.name		= "dcqcn",				\
}

static struct tcp_congestion_ops tcp_dcqcn_ops __read_mostly =
	TCP_DCQCN_OPS(TCP_CONG_NEEDS_ECN);
static struct tcp_congestion_ops tcp_dcqcn_ecn_ops __read_mostly =
	TCP_DCQCN_OPS(TCP_CONG_NEEDS_ECN);
static struct tcp_congestion_ops tcp_dcqcn_plain_ops __read_mostly =
	TCP_DCQCN_OPS(0);

static int __init tcp_dcqcn_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct tcp_dcqcn) > ICSK_CA_PRIV_SIZE);

	tcp_dcqcn_default_changed(DCQCN_ATTR_enable_ecn);
	err = fabric_module_register(&tcp_dcqcn_fabric);
	if (err)
		goto err_fabric;
	err = tcp_register_congestion_control(&tcp_dcqcn_ops);
	if (err)
		goto err_cc;
	return 0;

err_cc:
	fabric_module_unregister(&tcp_dcqcn_fabric);
err_fabric:
	return err;
}

static void __exit tcp_dcqcn_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_dcqcn_ops);
	fabric_module_unregister(&tcp_dcqcn_fabric);
}

module_init(tcp_dcqcn_register);
module_exit(tcp_dcqcn_unregister);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP DCQCN: the DCQCN-style rate loop of a RoCE NIC");
MODULE_VERSION("0.1");

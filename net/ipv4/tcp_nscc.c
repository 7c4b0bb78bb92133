// SPDX-License-Identifier: GPL-2.0
/*
 * TCP NSCC: Network Signal-based Congestion Control (Ultra Ethernet 1.0
 * section 3.6.13) as a tcp_congestion_ops, "nscc".
 *
 * The algorithm lives in the pure core net/nscc/nscc_core.c; this file maps
 * TCP's signals onto it and its window back onto snd_cwnd:
 *
 *   - cong_control owns cwnd (like BBR): no slow start, the window starts
 *     at the max window, snd_cwnd = window / nominal packet, at least 2
 *     (TCP_NSCC_MIN_CWND: not the spec's one packet, which a receiver
 *     that delays ACKs would stall).
 *     The nominal packet is MSS + TCP header (with options) + IP header,
 *     followed on every ACK (a BPF program at connect starts nscc before
 *     the MSS is set, 536; the peer's MSS comes with the SYN-ACK; path MTU
 *     changes and MTU probing move it): the core derives what scales with
 *     it again (nscc_set_mtu()).
 *   - cong_control owns pacing too (6.1 skips tcp_update_pacing_rate() for
 *     it): the window over srtt, times net.ipv4.tcp_pacing_ca_ratio (120 %
 *     by default, TCP's own gain outside slow start), never above the
 *     link rate data_rate_mbps, through TCP's internal pacing or fq.  The
 *     window stays the limit; pacing spreads it over the RTT instead of
 *     sending it as 64 kB TSO bursts.
 *   - Each ACK is one NSCC ACK (uet) or SACK (mrc): the bytes are the
 *     packets newly (S)ACKed (rs->acked_sacked) times the nominal packet,
 *     the RTT sample is rs->rtt_us unless it came from retransmitted data
 *     (tcp_nscc_rtt()), bytes in flight come from rs->prior_in_flight.
 *   - ECN echo (uet): the ACK is marked when tp->delivered_ce grew.  The
 *     receiver echoes CE packet by packet, DCTCP style: on a change of CE
 *     state it sends any delayed ACK with the old state first, then ACKs at
 *     once.  The mrc flavour has no ECN (its NIC has none), so it does not
 *     ask for it: an AQM would mark its packets where it would drop them,
 *     and mrc reacts to losses.  The handshake asks for ECN when the module
 *     parameter flavour is uet (the registered ops carry TCP_CONG_NEEDS_ECN
 *     then, and not for mrc); at init the connection settles
 *     (fabric_tcp_ecn_select(), with counters).  An mrc connection that has
 *     ECN all the same (a classic peer, the host's tcp_ecn, a netns whose
 *     flavour differs from the module's) keeps it, echoes the peer's CE,
 *     and takes a mark on its own packets as the loss it stood for, once
 *     per window.
 *   - Under the ECN twin (uet with ECN), the receiver ACKs every data
 *     segment, as NSCC receivers do, so that delayed ACKs stay out of RTT
 *     samples: TCP gives a congestion control a hook per received segment
 *     only when its ops need ECN.  Otherwise (mrc, kept ECN included), set
 *     "quickack 1" on the receiver's route for the same effect.
 *   - mrc: packets TCP marks lost on an ACK (rs->losses) are presumed
 *     losses.  Both flavours: a retransmission timeout is one presumed
 *     loss of the head packet.
 *   - Attributes that follow the path: data_rate_mbps 0 is the egress
 *     device's speed when nscc starts (net/ipv4/fabric_link.c), and with
 *     config_base_rtt_ns 0 the handshake's RTT (TCP's min RTT then) is the
 *     core's first base sample.
 *
 * TCP cannot carry trims, the receiver penalty or the receiver's service
 * time, so those inputs are never given to the core here
 * (Documentation/networking/nscc.rst, "TCP mapping").
 *
 * Per-socket state (the core and the parameters it started with) does not
 * fit in icsk_ca_priv, so it is allocated in init; if that fails the
 * socket runs Reno and alloc_failures counts it.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "fabric_tcp.h"
#include <net/tcp.h>

#include "tcp_nscc.h"

#define CREATE_TRACE_POINTS
#include "nscc_trace.h"

/* snd_cwnd ceiling: keeps TCP's u32 byte arithmetic (cwnd x MSS) safe. */
#define TCP_NSCC_MAX_CWND	65535U

/* In icsk_ca_priv.  get_info() runs without the socket lock, while the core
 * may be freed (close, a change of algorithm): it reads only the copies in
 * "info", written by cong_control with WRITE_ONCE.
 */
struct tcp_nscc {
	struct nscc *core;	/* allocated; NULL: no memory, Reno fallback */
	u32 pkt;		/* nominal packet, bytes */
	u32 prior_ce;		/* tp->delivered_ce at the previous ACK */
	struct fabric_ece ece;	/* receiver: the accurate echo */
	u8 ecn_wanted;		/* this netns's flavour is uet */
	u8 ecn_pending;		/* init ran in SYN_SENT: settle ECN later */
	u8 asked_pacing;	/* init asked for TCP's internal pacing */
	u8 misfit;		/* counted in base_rtt_misfits */
	u8 ce_round;		/* mrc: a mark was taken as a loss ... */
	u32 ce_round_end;	/* ... for the window that ends at this seq */
	struct {
		u64 cwnd;	/* bytes */
		u64 max_wnd;	/* bytes */
		u32 base_rtt;	/* ns */
		u32 avg_delay;	/* ns */
		u32 target;	/* ns */
	} info;
};

static struct tcp_congestion_ops tcp_nscc_ops, tcp_nscc_ecn_ops,
	tcp_nscc_plain_ops, tcp_nscc_reno_ecn_ops, tcp_nscc_reno_plain_ops;

/* Attributes, counters and per-netns state: fabric.ko makes the module
 * parameters, the net.nscc.* sysctls, /proc/net/nscc_stat and the "nscc"
 * attribute set of the fabric netlink family from this descriptor, and
 * include/net/fabric/nscc_attrs.h is the one table behind them (and behind
 * ccreplay --set).  A socket copies its namespace's values when nscc
 * starts on it, so a change reaches sockets started afterwards.
 */
static void tcp_nscc_default_changed(unsigned int id);
static struct fabric_module tcp_nscc_fabric;

/* Module parameters are parsed before module_init, so the defaults hold
 * the table's values from link time.
 */
static u32 tcp_nscc_defaults[NSCC_ATTR_COUNT] = {
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) \
	[NSCC_ATTR_##name] = (def),
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
};

/* One module parameter per attribute, same name as the sysctl. */
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) \
	FABRIC_ATTR_MODULE_PARAM(tcp_nscc_fabric, name, NSCC_ATTR_##name, help)
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR

static const char * const tcp_nscc_stat_names[TCP_NSCC_STAT_ROUTINE] = {
	[TCP_NSCC_STAT_SOCKETS]		= "sockets",
	[TCP_NSCC_STAT_ALLOC_FAIL]	= "alloc_failures",
	[TCP_NSCC_STAT_ACKS]		= "acks",
	[TCP_NSCC_STAT_RTT_SAMPLES]	= "rtt_samples",
	[TCP_NSCC_STAT_ECN_ACKS]	= "ecn_acks",
	[TCP_NSCC_STAT_LOST_PKTS]	= "lost_packets",
	[TCP_NSCC_STAT_RTO]		= "rto",
	[TCP_NSCC_STAT_CE_RECEIVED]	= "ce_received",
	[TCP_NSCC_STAT_MD_CUTS]		= "md_cuts",
	[TCP_NSCC_STAT_QA_FIRED]	= "qa_fired",
	[TCP_NSCC_STAT_NOMINAL_CHANGES]	= "nominal_changes",
	[TCP_NSCC_STAT_ECN_ON]		= "ecn_on",
	[TCP_NSCC_STAT_ECN_NOT_NEGOTIATED] = "ecn_not_negotiated",
	[TCP_NSCC_STAT_ECN_KEPT]	= "ecn_kept",
	[TCP_NSCC_STAT_CE_LOSSES]	= "ce_losses",
	[TCP_NSCC_STAT_BASE_RTT_MISFITS] = "base_rtt_misfits",
	[TCP_NSCC_STAT_LINK_FALLBACKS]	= "link_speed_fallbacks",
	[TCP_NSCC_STAT_BASE_LEARNT]	= "base_rtt_learnt",
};

static const struct fabric_stat_group tcp_nscc_stats[] = {
	{ .prefix = "", .names = tcp_nscc_stat_names, .count = TCP_NSCC_STAT_ROUTINE },
	{ .prefix = "routine_", .names = nscc_routine_names, .count = NSCC_R_COUNT },
};

/* The rules across attributes, the same that ccreplay applies. */
static int tcp_nscc_check(const u32 *v, const char **why)
{
	struct nscc_params p;

	memcpy(p.v, v, sizeof(p.v));
	return nscc_params_check(&p, why);
}

FABRIC_MODULE_PERNET(tcp_nscc_fabric)

static struct fabric_module tcp_nscc_fabric = {
	.owner			= THIS_MODULE,
	.name			= "nscc",
	.desc			= nscc_attr_descs,
	.nattrs			= NSCC_ATTR_COUNT,
	.defaults		= tcp_nscc_defaults,
	.default_changed	= tcp_nscc_default_changed,
	.check			= tcp_nscc_check,
	.stats			= tcp_nscc_stats,
	.nstat_groups		= ARRAY_SIZE(tcp_nscc_stats),
	.pernet			= FABRIC_MODULE_PERNET_OPS(tcp_nscc_fabric),
};

static struct fabric_net *tcp_nscc_pernet(const struct net *net)
{
	return fabric_net(&tcp_nscc_fabric, net);
}

/* The handshake asks for ECN as the module-wide flavour says: uet uses it,
 * mrc does not.  Also runs while the module loads, before registration.
 */
static void tcp_nscc_default_changed(unsigned int id)
{
	if (id == NSCC_ATTR_flavour)
		fabric_tcp_ops_set_ecn(&tcp_nscc_ops, fabric_module_default(&tcp_nscc_fabric, id) ==
				       NSCC_FLAVOUR_UET);
}

/* Once the handshake is over: this connection with ECN or without. */
static void tcp_nscc_settle_ecn(struct sock *sk, struct fabric_net *fn,
				struct tcp_nscc *ca)
{
	static const unsigned int stat[] = {
		[FABRIC_ECN_ON]			= TCP_NSCC_STAT_ECN_ON,
		[FABRIC_ECN_NOT_NEGOTIATED]	= TCP_NSCC_STAT_ECN_NOT_NEGOTIATED,
		[FABRIC_ECN_KEPT]		= TCP_NSCC_STAT_ECN_KEPT,
	};
	enum fabric_ecn r;

	ca->ecn_pending = 0;
	if (ca->core)
		r = fabric_tcp_ecn_select(sk, ca->ecn_wanted, &tcp_nscc_ecn_ops,
					  &tcp_nscc_plain_ops);
	else
		r = fabric_tcp_ecn_select(sk, ca->ecn_wanted,
					  &tcp_nscc_reno_ecn_ops,
					  &tcp_nscc_reno_plain_ops);
	if (r != FABRIC_ECN_OFF)
		fabric_net_stat_add(fn, stat[r], 1);
}

/* The window over srtt with TCP's own congestion-avoidance gain, capped
 * at the link rate: payload bytes per second, as TCP's pacing counts.
 */
static void tcp_nscc_set_pacing(struct sock *sk, const struct tcp_nscc *ca)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct netns_ipv4 *net = &sock_net(sk)->ipv4;
	u64 rate;

	if (!tp->srtt_us)
		return;
	rate = (u64)tp->mss_cache * ((USEC_PER_SEC / 100) << 3) *
	       READ_ONCE(net->sysctl_tcp_pacing_ca_ratio) *
	       max(tcp_snd_cwnd(tp), tp->packets_out);
	rate = div_u64(rate, tp->srtt_us);
	rate = min_t(u64, rate, (u64)ca->core->cfg.rate_mbps * 125000);
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
}

/* The nominal packet follows the MSS (and the TCP options in use). */
static void tcp_nscc_follow_mss(struct sock *sk, struct fabric_net *fn,
				struct tcp_nscc *ca)
{
	u32 pkt = max_t(u32, fabric_tcp_nominal(sk), 1);

	if (likely(pkt == ca->pkt))
		return;
	ca->pkt = pkt;
	nscc_set_mtu(ca->core, pkt);
	fabric_net_stat_add(fn, TCP_NSCC_STAT_NOMINAL_CHANGES, 1);
}

/* The fewest segments TCP may have out: two, as TCP's own algorithms
 * keep, where the spec's window goes down to one packet.  Only an nscc
 * receiver under the ECN twin ACKs every segment (tcp_nscc_cwnd_event());
 * the sender cannot know what the receiver runs, and any other receiver
 * (cubic, an nscc one without ECN) delays the ACK of a lone segment by
 * 40 ms or more, so one packet per RTT would become one per 40 ms.  Two
 * segments out are ACKed at once.
 */
#define TCP_NSCC_MIN_CWND	2U

static void tcp_nscc_set_cwnd(struct sock *sk, const struct tcp_nscc *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct nscc *n = ca->core;
	u64 pkts;

	if (n->cfg.pass_through)
		pkts = TCP_NSCC_MAX_CWND;
	else
		pkts = div_u64(n->cwnd, ca->pkt);
	/* the socket's clamp wins over the floor, as in BBR */
	pkts = min_t(u64, max_t(u64, pkts, TCP_NSCC_MIN_CWND),
		     min_t(u32, tp->snd_cwnd_clamp, TCP_NSCC_MAX_CWND));
	tcp_snd_cwnd_set(tp, pkts);
}

static void tcp_nscc_publish(struct tcp_nscc *ca)
{
	const struct nscc *n = ca->core;

	WRITE_ONCE(ca->info.cwnd, n->cwnd);
	WRITE_ONCE(ca->info.max_wnd, n->max_wnd);
	WRITE_ONCE(ca->info.base_rtt, min_t(u64, n->base_rtt, U32_MAX));
	WRITE_ONCE(ca->info.avg_delay, min_t(u64, nscc_avg_delay(n), U32_MAX));
	WRITE_ONCE(ca->info.target, n->cfg.target);
}

static void tcp_nscc_init(struct sock *sk)
{
	struct fabric_net *fn = tcp_nscc_pernet(sock_net(sk));
	struct tcp_nscc *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct nscc_params p;
	struct nscc *n;

	/* Re-assert the registered flags: a plain read-modify-write of them
	 * by tcp_set_allowed_congestion_control() may have undone ours.
	 */
	tcp_nscc_default_changed(NSCC_ATTR_flavour);
	ca->pkt = max_t(u32, fabric_tcp_nominal(sk), 1);
	ca->prior_ce = tp->delivered_ce;
	fabric_ece_init(&ca->ece, sk);
	ca->asked_pacing = fabric_tcp_pacing_init(sk);

	/* init may run in softirq context (passive open). */
	n = kmalloc(sizeof(*n), GFP_NOWAIT | __GFP_NOWARN);
	if (n) {
		fabric_net_params(fn, p.v);
		ca->ecn_wanted = NSCC_P(&p, flavour) == NSCC_FLAVOUR_UET;
	} else {
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ALLOC_FAIL, 1);
		ca->ecn_wanted = fabric_net_attr(fn, NSCC_ATTR_flavour) ==
				 NSCC_FLAVOUR_UET;
		/* No state: Reno from now on, as a second ops (as dctcp
		 * swaps in dctcp_reno), the twin of the flags the handshake
		 * ran with until ECN is settled.
		 */
		WRITE_ONCE(inet_csk(sk)->icsk_ca_ops,
			   READ_ONCE(tcp_nscc_ops.flags) & TCP_CONG_NEEDS_ECN ?
			   &tcp_nscc_reno_ecn_ops : &tcp_nscc_reno_plain_ops);
	}
	ca->core = n;
	/* setsockopt(TCP_CONGESTION) during a non-blocking connect runs
	 * init before the SYN-ACK has said whether ECN was granted.
	 */
	if (sk->sk_state == TCP_SYN_SENT)
		ca->ecn_pending = 1;
	else
		tcp_nscc_settle_ecn(sk, fn, ca);
	if (!n)
		return;

	/* data_rate_mbps 0: the egress device's speed. */
	NSCC_P(&p, data_rate_mbps) =
		fabric_tcp_rate_mbps(sk, NSCC_P(&p, data_rate_mbps),
				     nscc_attr_descs[NSCC_ATTR_data_rate_mbps].max,
				     fn, TCP_NSCC_STAT_LINK_FALLBACKS);
	/* TCP's cached clock, as every later hook reads it, so that time
	 * never runs backwards for the core (init may run inside tcp_ack(),
	 * from a BPF setsockopt, before that ACK's cong_control).  It can be
	 * old here (a fast-open child has its listener's, setsockopt() on an
	 * idle socket the last segment's): the core's first adjust period
	 * then ends at the first ACK.
	 */
	nscc_init(n, &p, ca->pkt, fabric_tcp_now_ns(tp));
	/* config_base_rtt_ns 0: the handshake's RTT is the first sample. */
	if (tcp_min_rtt(tp) != ~0U &&
	    nscc_offer_base_rtt(n, (u64)tcp_min_rtt(tp) * NSEC_PER_USEC))
		fabric_net_stat_add(fn, TCP_NSCC_STAT_BASE_LEARNT, 1);
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	tcp_nscc_set_cwnd(sk, ca);
	tcp_nscc_set_pacing(sk, ca);
	tcp_nscc_publish(ca);
	fabric_net_stat_add(fn, TCP_NSCC_STAT_SOCKETS, 1);
}

static void tcp_nscc_release(struct sock *sk)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	kfree(ca->core);
	ca->core = NULL;
	fabric_tcp_release(sk, ca->asked_pacing);
	/* Back to the registered ops: a socket reconnected after
	 * disconnect negotiates as a new one would.
	 */
	WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &tcp_nscc_ops);
}

/* TCP's RTT sample for this ACK, or NSCC_NO_RTT.  NSCC takes a sample only
 * from a packet sent once (Karn); TCP keeps to that for its own samples
 * but, when an ACK covers only retransmitted data, falls back to the
 * timestamp echo, in whole milliseconds: drop those (rs->is_retrans).
 */
static u64 tcp_nscc_rtt(const struct rate_sample *rs)
{
	if (rs->rtt_us <= 0 || rs->is_retrans)
		return NSCC_NO_RTT;
	return (u64)rs->rtt_us * NSEC_PER_USEC;
}

/* The path's minimum RTT (TCP's windowed min, over every sample) is ten
 * times the configured base or more: the attributes describe another
 * path (the spec's 6 us against a host's tens of microseconds reads every
 * sample as queueing).  Counted once per socket; the tracepoint shows the
 * minimum and the same test (TCP_NSCC_MISFIT_RATIO, tcp_nscc.h).
 */
static void tcp_nscc_check_base(struct sock *sk, struct fabric_net *fn,
				struct tcp_nscc *ca)
{
	u32 min_us = tcp_min_rtt(tcp_sk(sk));

	/* a base still to be learnt is no base to judge by */
	if (ca->misfit || min_us == ~0U ||
	    (ca->core->cfg.auto_base && !ca->core->base_learnt) ||
	    (u64)min_us * NSEC_PER_USEC <
	    (u64)ca->core->cfg.cfg_base_rtt * TCP_NSCC_MISFIT_RATIO)
		return;
	ca->misfit = 1;
	fabric_net_stat_add(fn, TCP_NSCC_STAT_BASE_RTT_MISFITS, 1);
}

static void tcp_nscc_cong_control(struct sock *sk, const struct rate_sample *rs)
{
	struct fabric_net *fn = tcp_nscc_pernet(sock_net(sk));
	struct tcp_nscc *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct nscc *n = ca->core;
	enum nscc_routine r = NSCC_R_NONE;
	u64 md, qa, learnt;
	u32 ce;

	/* The handshake's last ACK reaches cong_control before init()
	 * (tcp_rcv_state_process() acks first, then tcp_init_transfer()).
	 */
	if (unlikely(!ca->pkt))
		return;
	/* After a SYN_SENT init: the SYN-ACK's ACK (tcp_ecn_rcv_synack() has
	 * run) or any later one.
	 */
	if (unlikely(ca->ecn_pending))
		tcp_nscc_settle_ecn(sk, fn, ca);
	tcp_nscc_follow_mss(sk, fn, ca);
	ce = tp->delivered_ce - ca->prior_ce;
	ca->prior_ce = tp->delivered_ce;

	md = n->st.md_count;
	qa = n->st.qa_count;
	learnt = n->st.base_learnt;
	n->inflight = (s64)rs->prior_in_flight * ca->pkt;
	if (rs->acked_sacked || rs->rtt_us >= 0) {
		struct nscc_ack a = {
			.bytes = (u64)rs->acked_sacked * ca->pkt,
			.rtt_ns = tcp_nscc_rtt(rs),
			.ecn = ce > 0,
		};

		r = nscc_on_ack(n, fabric_tcp_now_ns(tp), &a);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + r, 1);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ACKS, 1);
		if (a.rtt_ns != NSCC_NO_RTT)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_RTT_SAMPLES, 1);
		if (a.ecn)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_ECN_ACKS, 1);
	}
	/* After the core, which may have learnt its base from this sample
	 * (config_base_rtt_ns 0) rather than judge it by the stand-in.
	 */
	if (rs->rtt_us >= 0)
		tcp_nscc_check_base(sk, fn, ca);
	/* mrc on a connection that kept ECN (mrc takes no ECN signal as
	 * such): a mark is the loss it stood for, one packet, once per window
	 * as a loss-based sender answers ECE.  The receiver echoes until our
	 * CWR reaches it, and CWR rides the first segment at or after
	 * ce_round_end, so the window ends once data beyond that point is
	 * ACKed (as TCP holds CWR until snd_una passes high_seq).  The round
	 * is closed on every ACK, so ce_round_end never falls 2^31 behind
	 * and after() stays true across sequence wrap.
	 */
	if (ca->ce_round && after(tp->snd_una, ca->ce_round_end))
		ca->ce_round = 0;
	if (ce && n->cfg.flavour == NSCC_FLAVOUR_MRC && !ca->ce_round) {
		ca->ce_round = 1;
		ca->ce_round_end = tp->snd_nxt;
		r = nscc_on_loss(n, ca->pkt);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + r, 1);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_CE_LOSSES, 1);
	}
	/* mrc presumes loss from SACK gaps; on uet only a timeout is a loss. */
	if (rs->losses > 0 && n->cfg.flavour == NSCC_FLAVOUR_MRC) {
		r = nscc_on_loss(n, (u64)rs->losses * ca->pkt);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + r, 1);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_LOST_PKTS, rs->losses);
	}
	if (n->st.md_count != md)
		fabric_net_stat_add(fn, TCP_NSCC_STAT_MD_CUTS, 1);
	if (n->st.qa_count != qa)
		fabric_net_stat_add(fn, TCP_NSCC_STAT_QA_FIRED, 1);
	if (n->st.base_learnt != learnt)
		fabric_net_stat_add(fn, TCP_NSCC_STAT_BASE_LEARNT, 1);
	tcp_nscc_set_cwnd(sk, ca);
	tcp_nscc_set_pacing(sk, ca);
	tcp_nscc_publish(ca);
	trace_nscc_update(sk, n, r, tcp_snd_cwnd(tp));
}

/* An NSCC receiver acknowledges every data packet (one SACK per packet on
 * the MRC page), so delayed ACKs never hold the only packet of a small
 * window and never inflate the sender's RTT samples.  TCP raises an ECN
 * event for each data segment of an ECN connection: that is where it is
 * done; a GRO batch is one segment to TCP and gets one ACK.
 */
static void tcp_nscc_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct fabric_net *fn = tcp_nscc_pernet(sock_net(sk));
	struct tcp_nscc *ca = inet_csk_ca(sk);

	/* Before init (a SYN that times out raises CA_EVENT_LOSS, and so
	 * does a reconnect after tcp_disconnect()) there is no state yet and
	 * nothing to answer: no data has flowed.
	 */
	if (unlikely(!ca->core))
		return;
	/* After a SYN_SENT init: before the first data leaves (TX_START
	 * comes ahead of its transmission) or the first segment arrives.
	 */
	if (unlikely(ca->ecn_pending) && sk->sk_state != TCP_SYN_SENT)
		tcp_nscc_settle_ecn(sk, fn, ca);
	switch (ev) {
	case CA_EVENT_TX_START:
		/* Init in SYN_SENT: tcp_init_transfer() has since put TCP's
		 * initial window back; the first data takes nscc's again.
		 */
		tcp_nscc_set_cwnd(sk, ca);
		tcp_nscc_set_pacing(sk, ca);
		break;
	case CA_EVENT_ECN_IS_CE:
		if (!ca->ece.ce_state)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_CE_RECEIVED, 1);
		fabric_ece_update(sk, &ca->ece, 1);
		fabric_tcp_ack_now(sk);
		break;
	case CA_EVENT_ECN_NO_CE:
		fabric_ece_update(sk, &ca->ece, 0);
		fabric_tcp_ack_now(sk);
		break;
	case CA_EVENT_LOSS:
		fabric_net_stat_add(fn, TCP_NSCC_STAT_RTO, 1);
		nscc_on_loss(ca->core, ca->pkt);
		tcp_nscc_publish(ca);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + NSCC_R_LOSS, 1);
		trace_nscc_update(sk, ca->core, NSCC_R_LOSS,
				  tcp_snd_cwnd(tcp_sk(sk)));
		break;
	default:
		break;
	}
}

/* NSCC has no slow-start threshold; TCP's loss paths still ask for one. */
static u32 tcp_nscc_ssthresh(struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

static u32 tcp_nscc_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/* The Reno fallback, for a socket that got no memory for NSCC's state:
 * TCP's own Reno with TCP's pacing, plus what the connection owes its
 * peer whatever runs it (the accurate ECN echo and ECN settling,
 * tcp_nscc_reno_cwnd_event()).  Its two twins, with and without
 * TCP_CONG_NEEDS_ECN, are swapped in at init; no hook of NSCC's runs
 * without NSCC's state.
 */
static void tcp_nscc_reno_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct fabric_net *fn = tcp_nscc_pernet(sock_net(sk));
	struct tcp_nscc *ca = inet_csk_ca(sk);

	if (unlikely(ca->ecn_pending) && sk->sk_state != TCP_SYN_SENT)
		tcp_nscc_settle_ecn(sk, fn, ca);
	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
		if (!ca->ece.ce_state)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_CE_RECEIVED, 1);
		fabric_ece_update(sk, &ca->ece, 1);
		fabric_tcp_ack_now(sk);
		break;
	case CA_EVENT_ECN_NO_CE:
		fabric_ece_update(sk, &ca->ece, 0);
		fabric_tcp_ack_now(sk);
		break;
	case CA_EVENT_LOSS:
		fabric_net_stat_add(fn, TCP_NSCC_STAT_RTO, 1);
		break;
	default:
		break;
	}
}

/* After a SYN_SENT init: settle ECN on the SYN-ACK (tcp_ack() runs after
 * tcp_ecn_rcv_synack() has read its ECN answer), as cong_control does.
 */
static void tcp_nscc_reno_in_ack(struct sock *sk, u32 flags)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	if (unlikely(ca->ecn_pending))
		tcp_nscc_settle_ecn(sk, tcp_nscc_pernet(sock_net(sk)), ca);
}

static void tcp_nscc_reno_release(struct sock *sk)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	fabric_tcp_release(sk, ca->asked_pacing);
	/* As tcp_nscc_release(): a reconnect after tcp_disconnect(), or a
	 * listener's children, start from the registered ops (and nscc's
	 * init), not from this twin.
	 */
	WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &tcp_nscc_ops);
}

/* ss -ti shows the state through the one layout inet_diag has room for
 * that fits a window algorithm, BBR's:
 *   bw          window / base RTT, the rate the window allows;
 *   mrtt        the base RTT;
 *   pacing_gain average queueing delay / target (1.0 = on target);
 *   cwnd_gain   window / max window.
 */
static size_t tcp_nscc_get_info(struct sock *sk, u32 ext, int *attr,
				union tcp_cc_info *info)
{
	const struct tcp_nscc *ca = inet_csk_ca(sk);
	u64 cwnd = READ_ONCE(ca->info.cwnd);
	u64 max_wnd = max_t(u64, READ_ONCE(ca->info.max_wnd), 1);
	u64 base_rtt = max_t(u64, READ_ONCE(ca->info.base_rtt), 1);
	u64 target = max_t(u64, READ_ONCE(ca->info.target), 1);
	u64 bw;

	if (!cwnd || !(ext & (1 << (INET_DIAG_BBRINFO - 1) |
			      1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	bw = fabric_muldiv(cwnd, NSEC_PER_SEC, base_rtt, false);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = div_u64(base_rtt, NSEC_PER_USEC);
	info->bbr.bbr_pacing_gain = min_t(u64, U32_MAX,
					  div64_u64((u64)READ_ONCE(ca->info.avg_delay) << 8,
						    target));
	info->bbr.bbr_cwnd_gain = min_t(u64, U32_MAX,
					div64_u64(cwnd << 8, max_wnd));
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

/* The registered ops, whose TCP_CONG_NEEDS_ECN follows the module-wide
 * flavour (tcp_nscc_default_changed()), and the twins init() settles a
 * connection on: the same callbacks with and without ECN.
 */
#define TCP_NSCC_OPS(_flags) {					\
	.flags		= (_flags),				\
	.init		= tcp_nscc_init,			\
	.release	= tcp_nscc_release,			\
	.ssthresh	= tcp_nscc_ssthresh,			\
	.cong_control	= tcp_nscc_cong_control,		\
	.undo_cwnd	= tcp_nscc_undo_cwnd,			\
	.cwnd_event	= tcp_nscc_cwnd_event,			\
	.get_info	= tcp_nscc_get_info,			\
	.owner		= THIS_MODULE,				\
	.name		= "nscc",				\
}

static struct tcp_congestion_ops tcp_nscc_ops __read_mostly =
	TCP_NSCC_OPS(TCP_CONG_NEEDS_ECN);
static struct tcp_congestion_ops tcp_nscc_ecn_ops __read_mostly =
	TCP_NSCC_OPS(TCP_CONG_NEEDS_ECN);
static struct tcp_congestion_ops tcp_nscc_plain_ops __read_mostly =
	TCP_NSCC_OPS(0);

#define TCP_NSCC_RENO_OPS(_flags) {				\
	.flags		= (_flags),				\
	.release	= tcp_nscc_reno_release,		\
	.ssthresh	= tcp_reno_ssthresh,			\
	.cong_avoid	= tcp_reno_cong_avoid,			\
	.undo_cwnd	= tcp_reno_undo_cwnd,			\
	.cwnd_event	= tcp_nscc_reno_cwnd_event,		\
	.in_ack_event	= tcp_nscc_reno_in_ack,			\
	.owner		= THIS_MODULE,				\
	.name		= "nscc-reno",				\
}

static struct tcp_congestion_ops tcp_nscc_reno_ecn_ops __read_mostly =
	TCP_NSCC_RENO_OPS(TCP_CONG_NEEDS_ECN);
static struct tcp_congestion_ops tcp_nscc_reno_plain_ops __read_mostly =
	TCP_NSCC_RENO_OPS(0);

static int __init tcp_nscc_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct tcp_nscc) > ICSK_CA_PRIV_SIZE);

	tcp_nscc_default_changed(NSCC_ATTR_flavour);
	err = fabric_module_register(&tcp_nscc_fabric);
	if (err)
		goto err_fabric;
	err = tcp_register_congestion_control(&tcp_nscc_ops);
	if (err)
		goto err_cc;
	return 0;

err_cc:
	fabric_module_unregister(&tcp_nscc_fabric);
err_fabric:
	return err;
}

static void __exit tcp_nscc_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_nscc_ops);
	fabric_module_unregister(&tcp_nscc_fabric);
}

module_init(tcp_nscc_register);
module_exit(tcp_nscc_unregister);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP NSCC (Ultra Ethernet 1.0 section 3.6.13), mrc and uet flavours");
MODULE_VERSION("0.1");

// SPDX-License-Identifier: GPL-2.0
/*
 * TCP DCQCN: the DCQCN-style rate loop of the project's spec page
 * (../shared/spec/dcqcn-roce-nic.md) as a tcp_congestion_ops, "dcqcn".
 *
 * The loop is the pure core net/dcqcn/dcqcn_core.c.  This file maps TCP's
 * signals onto it (notes/dcqcn-swift.md sections 1.6-1.8):
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
 *   - enable_ecn 0, or a peer that refused ECN: the socket sends Not-ECT
 *     and takes no ECN on its connection (echoes included), so it stays
 *     at line rate.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/fabric_tcp.h>
#include <net/inet_ecn.h>
#include <net/tcp.h>

#include "tcp_dcqcn.h"

#define CREATE_TRACE_POINTS
#include "dcqcn_trace.h"

#define TCP_DCQCN_MIN_CWND	4U
#define TCP_DCQCN_MAX_CWND	65535U

struct tcp_dcqcn {
	struct dcqcn d;
	u32 prior_ce;		/* tp->delivered_ce at the previous ACK */
	u32 prior_segs;		/* tp->data_segs_out at the previous event */
	struct fabric_ece ece;	/* receiver: the accurate echo */
};

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

	/* The core keeps the rate above 0; still never write 0, which TCP's
	 * pacing reads as "no pacing" (even under SO_MAX_PACING_RATE 0).
	 */
	WRITE_ONCE(sk->sk_pacing_rate,
		   max_t(u64, min_t(u64, rate,
				    READ_ONCE(sk->sk_max_pacing_rate)), 1));
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
	u64 now = tcp_clock_ns();

	/* tcp_init_congestion_control() sets ECT after init(): undo it here,
	 * before the first data packet (CA_EVENT_TX_START) and on every ACK.
	 */
	if (!ca->d.enable)
		INET_ECN_dontxmit(sk);
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

	fabric_net_params(fn, p.v);
	dcqcn_init(&ca->d, &p);
	ca->prior_ce = tp->delivered_ce;
	ca->prior_segs = tp->data_segs_out;
	fabric_ece_init(&ca->ece, sk);
	/* No ECN on this connection: the peer refused it, or enable_ecn is
	 * 0 (which TCP can only honour by turning ECN off for the whole
	 * connection, echoes included).  Not-ECT, line rate.
	 */
	if (!(tp->ecn_flags & TCP_ECN_OK))
		ca->d.enable = 0;
	if (!ca->d.enable)
		tp->ecn_flags &= ~TCP_ECN_OK;
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
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
	ca->prior_ce = tp->delivered_ce;
	tcp_dcqcn_update(sk, cnps);
}

static void tcp_dcqcn_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_dcqcn *ca = inet_csk_ca(sk);

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

static struct tcp_congestion_ops tcp_dcqcn_ops __read_mostly = {
	.flags		= TCP_CONG_NEEDS_ECN,
	.init		= tcp_dcqcn_init,
	.ssthresh	= tcp_dcqcn_ssthresh,
	.cong_control	= tcp_dcqcn_cong_control,
	.undo_cwnd	= tcp_dcqcn_undo_cwnd,
	.cwnd_event	= tcp_dcqcn_cwnd_event,
	.get_info	= tcp_dcqcn_get_info,
	.owner		= THIS_MODULE,
	.name		= "dcqcn",
};

static int __init tcp_dcqcn_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct tcp_dcqcn) > ICSK_CA_PRIV_SIZE);

	err = tcp_dcqcn_net_init_module();
	if (err)
		goto err_net;
	err = tcp_register_congestion_control(&tcp_dcqcn_ops);
	if (err)
		goto err_cc;
	return 0;

err_cc:
	tcp_dcqcn_net_exit_module();
err_net:
	return err;
}

static void __exit tcp_dcqcn_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_dcqcn_ops);
	tcp_dcqcn_net_exit_module();
}

module_init(tcp_dcqcn_register);
module_exit(tcp_dcqcn_unregister);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP DCQCN: the DCQCN-style rate loop of a RoCE NIC");
MODULE_VERSION("0.1");

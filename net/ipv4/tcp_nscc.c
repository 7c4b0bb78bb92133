// SPDX-License-Identifier: GPL-2.0
/*
 * TCP NSCC: Network Signal-based Congestion Control (Ultra Ethernet 1.0
 * section 3.6.13) as a tcp_congestion_ops, "nscc".
 *
 * The algorithm lives in the pure core net/nscc/nscc_core.c; this file maps
 * TCP's signals onto it and its window back onto snd_cwnd:
 *
 *   - cong_control owns cwnd (like BBR): no slow start, the window starts
 *     at the max window, snd_cwnd = window / nominal packet, at least 1.
 *     The nominal packet is MSS + TCP header (with options) + IP header.
 *   - Each ACK is one NSCC ACK (uet) or SACK (mrc): the bytes are the
 *     packets newly (S)ACKed (rs->acked_sacked) times the nominal packet,
 *     the RTT sample is rs->rtt_us unless it came from retransmitted data
 *     (tcp_nscc_rtt()), bytes in flight come from rs->prior_in_flight.
 *   - ECN echo: the ACK is marked when tp->delivered_ce grew.  The receiver
 *     echoes CE packet by packet, DCTCP style: on a change of CE state it
 *     sends any delayed ACK with the old state first, then ACKs at once.
 *     The module always asks for ECN (TCP_CONG_NEEDS_ECN); the mrc flavour
 *     ignores the echoes, as its NIC has no ECN.
 *   - The receiver ACKs every data segment, as NSCC receivers do, so that
 *     delayed ACKs stay out of RTT samples.
 *   - mrc: packets TCP marks lost on an ACK (rs->losses) are presumed
 *     losses.  Both flavours: a retransmission timeout is one presumed
 *     loss of the head packet.
 *
 * TCP cannot carry trims, the receiver penalty or the receiver's service
 * time, so those inputs are never given to the core here
 * (Documentation/networking/nscc.rst, "TCP mapping").
 *
 * Per-socket state does not fit in icsk_ca_priv, so it is allocated in
 * init; if that fails the socket runs Reno and alloc_failures counts it.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/fabric_tcp.h>
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
	struct nscc *core;	/* NULL: no memory, Reno fallback */
	u32 pkt;		/* nominal packet, bytes */
	u32 prior_ce;		/* tp->delivered_ce at the previous ACK */
	struct fabric_ece ece;	/* receiver: the accurate echo */
	struct {
		u64 cwnd;	/* bytes */
		u64 max_wnd;	/* bytes */
		u32 base_rtt;	/* ns */
		u32 avg_delay;	/* ns */
		u32 target;	/* ns */
	} info;
};

static u64 tcp_nscc_now(const struct tcp_sock *tp)
{
	return tp->tcp_mstamp * NSEC_PER_USEC;
}

static void tcp_nscc_set_cwnd(struct sock *sk, const struct tcp_nscc *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct nscc *n = ca->core;
	u64 pkts;

	if (n->cfg.pass_through)
		pkts = TCP_NSCC_MAX_CWND;
	else
		pkts = div_u64(n->cwnd, ca->pkt);
	pkts = clamp_t(u64, pkts, 1,
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

	ca->pkt = max_t(u32, fabric_tcp_nominal(sk), 1);
	ca->prior_ce = tp->delivered_ce;
	fabric_ece_init(&ca->ece, sk);

	/* init may run in softirq context (passive open). */
	ca->core = kmalloc(sizeof(*ca->core), GFP_NOWAIT | __GFP_NOWARN);
	if (!ca->core) {
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ALLOC_FAIL, 1);
		return;
	}
	fabric_net_params(fn, p.v);
	nscc_init(ca->core, &p, ca->pkt, tcp_nscc_now(tp));
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	tcp_nscc_set_cwnd(sk, ca);
	tcp_nscc_publish(ca);
	fabric_net_stat_add(fn, TCP_NSCC_STAT_SOCKETS, 1);
}

static void tcp_nscc_release(struct sock *sk)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	kfree(ca->core);
	ca->core = NULL;
}

/* Without per-socket state: Reno, reducing on loss and ECE as TCP would. */
static void tcp_nscc_reno(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tcp_in_cwnd_reduction(sk))
		tcp_snd_cwnd_set(tp, max(min(tcp_snd_cwnd(tp), tp->snd_ssthresh), 2U));
	else
		tcp_reno_cong_avoid(sk, 0, rs->acked_sacked);
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

static void tcp_nscc_cong_control(struct sock *sk, const struct rate_sample *rs)
{
	struct fabric_net *fn = tcp_nscc_pernet(sock_net(sk));
	struct tcp_nscc *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct nscc *n = ca->core;
	enum nscc_routine r = NSCC_R_NONE;
	u64 md, qa;
	u32 ce;

	/* The handshake's last ACK reaches cong_control before init()
	 * (tcp_rcv_state_process() acks first, then tcp_init_transfer()).
	 */
	if (unlikely(!ca->pkt))
		return;
	ce = tp->delivered_ce - ca->prior_ce;
	ca->prior_ce = tp->delivered_ce;
	if (unlikely(!n)) {
		tcp_nscc_reno(sk, rs);
		return;
	}

	md = n->st.md_count;
	qa = n->st.qa_count;
	n->inflight = (s64)rs->prior_in_flight * ca->pkt;
	if (rs->acked_sacked || rs->rtt_us >= 0) {
		struct nscc_ack a = {
			.bytes = (u64)rs->acked_sacked * ca->pkt,
			.rtt_ns = tcp_nscc_rtt(rs),
			.ecn = ce > 0,
		};

		r = nscc_on_ack(n, tcp_nscc_now(tp), &a);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + r, 1);
		fabric_net_stat_add(fn, TCP_NSCC_STAT_ACKS, 1);
		if (a.rtt_ns != NSCC_NO_RTT)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_RTT_SAMPLES, 1);
		if (a.ecn)
			fabric_net_stat_add(fn, TCP_NSCC_STAT_ECN_ACKS, 1);
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
	tcp_nscc_set_cwnd(sk, ca);
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
		if (ca->core) {
			nscc_on_loss(ca->core, ca->pkt);
			tcp_nscc_publish(ca);
			fabric_net_stat_add(fn, TCP_NSCC_STAT_ROUTINE + NSCC_R_LOSS, 1);
			trace_nscc_update(sk, ca->core, NSCC_R_LOSS,
					  tcp_snd_cwnd(tcp_sk(sk)));
		}
		break;
	default:
		break;
	}
}

/* NSCC has no slow-start threshold; TCP's loss paths still ask for one. */
static u32 tcp_nscc_ssthresh(struct sock *sk)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	return ca->core ? TCP_INFINITE_SSTHRESH : tcp_reno_ssthresh(sk);
}

static u32 tcp_nscc_undo_cwnd(struct sock *sk)
{
	struct tcp_nscc *ca = inet_csk_ca(sk);

	return ca->core ? tcp_snd_cwnd(tcp_sk(sk)) : tcp_reno_undo_cwnd(sk);
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

static struct tcp_congestion_ops tcp_nscc_ops __read_mostly = {
	.flags		= TCP_CONG_NEEDS_ECN,
	.init		= tcp_nscc_init,
	.release	= tcp_nscc_release,
	.ssthresh	= tcp_nscc_ssthresh,
	.cong_control	= tcp_nscc_cong_control,
	.undo_cwnd	= tcp_nscc_undo_cwnd,
	.cwnd_event	= tcp_nscc_cwnd_event,
	.get_info	= tcp_nscc_get_info,
	.owner		= THIS_MODULE,
	.name		= "nscc",
};

static int __init tcp_nscc_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct tcp_nscc) > ICSK_CA_PRIV_SIZE);

	err = tcp_nscc_net_init_module();
	if (err)
		goto err_net;
	err = tcp_register_congestion_control(&tcp_nscc_ops);
	if (err)
		goto err_cc;
	return 0;

err_cc:
	tcp_nscc_net_exit_module();
err_net:
	return err;
}

static void __exit tcp_nscc_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_nscc_ops);
	tcp_nscc_net_exit_module();
}

module_init(tcp_nscc_register);
module_exit(tcp_nscc_unregister);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP NSCC (Ultra Ethernet 1.0 section 3.6.13), mrc and uet flavours");
MODULE_VERSION("0.1");

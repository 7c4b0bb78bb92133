/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fabric TCP congestion controls share on the TCP side: the
 * DCTCP-style accurate ECN echo of a receiver (RFC 8257 section 3.2), the
 * nominal packet (the IP datagram of a full segment), the choice of ECN
 * per connection, and pacing ownership.
 */
#ifndef _NET_FABRIC_TCP_H
#define _NET_FABRIC_TCP_H

#include <net/fabric/core.h>
#include <net/fabric/module.h>
#include <net/inet_connection_sock.h>
#include <net/inet_ecn.h>
#include <net/tcp.h>

/* Receiver state of the echo; lives in the module's icsk_ca_priv. */
struct fabric_ece {
	u32 prior_rcv_nxt;	/* rcv_nxt at the last CE state change */
	u32 ce_state;		/* the last data packet was CE */
};

static inline void fabric_ece_init(struct fabric_ece *e, const struct sock *sk)
{
	e->prior_rcv_nxt = tcp_sk(sk)->rcv_nxt;
	e->ce_state = 0;
}

/* On CA_EVENT_ECN_IS_CE (1) and CA_EVENT_ECN_NO_CE (0). */
void fabric_ece_update(struct sock *sk, struct fabric_ece *e, u32 new_state);

/* The one clock of the fabric TCP modules, in ns: TCP's own, as
 * tcp_mstamp_refresh() last read it for this socket (on each received
 * segment and before each transmit burst), so a core's timestamps and
 * TCP's RTT samples and pacing share one time base.
 */
static inline u64 fabric_tcp_now_ns(const struct tcp_sock *tp)
{
	return tp->tcp_clock_cache;
}

/* The receiver acknowledges this data segment at once. */
static inline void fabric_tcp_ack_now(struct sock *sk)
{
	inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
}

/* MSS + TCP header with options + IP header: 1500 on a 1500-byte MTU. */
static inline u32 fabric_tcp_nominal(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return tp->mss_cache + tp->tcp_header_len +
	       inet_csk(sk)->icsk_af_ops->net_header_len;
}

/* ECN per connection.  TCP negotiates ECN in the SYN and SYN-ACK, before a
 * congestion control's init() runs, from the flags of the ops the socket
 * has then: the module's registered ops, whose TCP_CONG_NEEDS_ECN follows
 * the module-wide default (its module parameter), and from the host's own
 * net.ipv4.tcp_ecn and route features, which a module cannot overrule (a
 * listener at the default tcp_ecn 2 grants ECN to any classic client).
 * Once the handshake is over, fabric_tcp_ecn_select() settles the
 * connection under one of two twins of the registered ops, the same
 * callbacks with and without TCP_CONG_NEEDS_ECN (as dctcp swaps in
 * dctcp_reno); a later change of the module parameter then does not reach
 * established sockets.  A connection that has ECN keeps it: an RFC 3168
 * endpoint must echo its peer's CE and answer its own marks.  Wanted
 * (FABRIC_ECN_ON): the ECN twin, so the receiver gets CE events and echoes
 * packet by packet, DCTCP style.  Not wanted (FABRIC_ECN_KEPT): the plain
 * twin with TCP_ECN_OK, where TCP itself is the RFC 3168 endpoint (ECE
 * until CWR, ECT on new data only); the module decides what the marks mean
 * to it.  No ECN: the plain twin, Not-ECT.
 */
enum fabric_ecn {
	FABRIC_ECN_ON,			/* wanted and negotiated */
	FABRIC_ECN_OFF,			/* neither */
	FABRIC_ECN_NOT_NEGOTIATED,	/* wanted; the handshake had none */
	FABRIC_ECN_KEPT,		/* not wanted, but negotiated: kept */
};

/* Sets or clears TCP_CONG_NEEDS_ECN in a registered ops' flags, leaving the
 * rest (TCP_CONG_NON_RESTRICTED belongs to tcp_allowed_congestion_control).
 */
static inline void fabric_tcp_ops_set_ecn(struct tcp_congestion_ops *ops,
					  bool ecn)
{
	u32 old, new;

	do {
		old = READ_ONCE(ops->flags);
		new = ecn ? old | TCP_CONG_NEEDS_ECN : old & ~TCP_CONG_NEEDS_ECN;
	} while (old != new && cmpxchg(&ops->flags, old, new) != old);
}

/* Must not run before the SYN-ACK is processed (tcp_ecn_rcv_synack()):
 * at init in SYN_RECV or later, or from cong_control, which runs on the
 * SYN-ACK's ACK only after it.
 */
enum fabric_ecn fabric_tcp_ecn_select(struct sock *sk, bool wants,
				      const struct tcp_congestion_ops *ecn_ops,
				      const struct tcp_congestion_ops *plain_ops);

/* Pacing.  A cong_control module owns sk_pacing_rate (6.1's
 * tcp_cong_control() skips tcp_update_pacing_rate() for it) and asks for
 * TCP's internal pacing when no fq qdisc paces the socket: init returns
 * whether it was the one that asked.  On release the module leaves the
 * socket as TCP made it (fabric_tcp_release()): a next module, or a reinit
 * after setsockopt(TCP_CONGESTION), does not inherit its rate.
 */
static inline bool fabric_tcp_pacing_init(struct sock *sk)
{
	return cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE,
		       SK_PACING_NEEDED) == SK_PACING_NONE;
}

/* From a module's release(): the pacing rate TCP's own update would leave
 * (unlimited, under the user's cap), the pacing request withdrawn if init
 * made it and no SO_MAX_PACING_RATE wants it kept, and no ECN bits (a SYN
 * after tcp_disconnect() must be Not-ECT; tcp_reinit_congestion_control()
 * sets them again for the next module).
 */
static inline void fabric_tcp_release(struct sock *sk, bool asked_pacing)
{
	if (asked_pacing && READ_ONCE(sk->sk_max_pacing_rate) == ~0UL)
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NEEDED, SK_PACING_NONE);
	WRITE_ONCE(sk->sk_pacing_rate, READ_ONCE(sk->sk_max_pacing_rate));
	INET_ECN_dontxmit(sk);
}

/* The speed in Mbit/s of the device the socket's route leaves by, as its
 * driver reports it (ethtool's speed), or 0 if unknown: no route yet, a
 * device that reports none (lo, dummy) or SPEED_UNKNOWN.  veth reports a
 * constant 10000 whatever it carries.
 */
static inline u32 fabric_tcp_link_mbps(struct sock *sk)
{
	const struct dst_entry *dst;
	u32 mbps = 0;

	rcu_read_lock();
	dst = __sk_dst_get(sk);
	if (dst && dst->dev)
		mbps = fabric_link_mbps(dst->dev);
	rcu_read_unlock();
	return mbps;
}

/* A data_rate_mbps attribute's value for this socket: attr itself, or
 * for 0 the egress device's speed within [1, max], else
 * FABRIC_LINK_MBPS_FALLBACK, counted in counter stat of fn.
 */
static inline u32 fabric_tcp_rate_mbps(struct sock *sk, u32 attr, u32 max,
				       struct fabric_net *fn, unsigned int stat)
{
	u32 mbps;

	if (attr)
		return attr;
	mbps = fabric_tcp_link_mbps(sk);
	if (mbps)
		return clamp_t(u32, mbps, 1, max);
	fabric_net_stat_add(fn, stat, 1);
	return FABRIC_LINK_MBPS_FALLBACK;
}

#endif /* _NET_FABRIC_TCP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fabric TCP congestion controls share on the TCP side: the
 * DCTCP-style accurate ECN echo of a receiver (RFC 8257 section 3.2), and
 * the nominal packet (the IP datagram of a full segment).
 */
#ifndef _NET_FABRIC_TCP_H
#define _NET_FABRIC_TCP_H

#include <net/inet_connection_sock.h>
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

#endif /* _NET_FABRIC_TCP_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The DCTCP-style accurate ECN echo shared by the fabric TCP congestion
 * controls (net/ipv4/fabric_tcp.h).  Classic ECN holds ECE until CWR,
 * so a sender sees runs of marks; this echo reflects each packet's CE
 * state: on a change of state, an ACK that was being delayed goes out
 * first with the old state, and the next ACK leaves at once.  The same
 * state machine as dctcp_ece_ack_update() (net/ipv4/tcp_dctcp.h, which
 * the kernel does not install) and RFC 8257 section 3.2.
 */
#include "fabric_tcp.h"
#include <net/inet_ecn.h>

static void fabric_ece_demand_cwr(struct tcp_sock *tp, u32 ce_state)
{
	if (ce_state)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

void fabric_ece_update(struct sock *sk, struct fabric_ece *e, u32 new_state)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (e->ce_state != new_state) {
		if (inet_csk(sk)->icsk_ack.pending & ICSK_ACK_TIMER) {
			fabric_ece_demand_cwr(tp, e->ce_state);
			__tcp_send_ack(sk, e->prior_rcv_nxt);
		}
		inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
	}
	e->prior_rcv_nxt = tp->rcv_nxt;
	e->ce_state = new_state;
	fabric_ece_demand_cwr(tp, new_state);
}

enum fabric_ecn fabric_tcp_ecn_select(struct sock *sk, bool wants,
				      const struct tcp_congestion_ops *ecn_ops,
				      const struct tcp_congestion_ops *plain_ops)
{
	bool negotiated = tcp_sk(sk)->ecn_flags & TCP_ECN_OK;
	bool on = wants && negotiated;

	WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, on ? ecn_ops : plain_ops);
	/* ECT from now on for the ECN twin; under the plain twin TCP sets it
	 * on each new data segment itself when the connection kept ECN.
	 */
	if (on)
		INET_ECN_xmit(sk);
	else
		INET_ECN_dontxmit(sk);
	if (wants)
		return negotiated ? FABRIC_ECN_ON : FABRIC_ECN_NOT_NEGOTIATED;
	return negotiated ? FABRIC_ECN_KEPT : FABRIC_ECN_OFF;
}

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "mrt" generic netlink family of mrt.ko: the transport's own state per
 * network namespace, its destinations (the NSCC windows) and its PDCs.
 * The transport's attributes and counters are not here but in the "fabric"
 * family under the module name "mrt", as every module's are.
 *
 * Reads are open to every user, as /proc/net/mrt/{pdcs,dests} are, except
 * a PDC's ids, PSNs and keys (the MRT_NL_PDC_A_* marked "admin"): what a
 * packet forged into the PDC needs, they go, here and in /proc, only to a
 * requester with CAP_NET_ADMIN in the namespace's user namespace.  A dump
 * covers the namespace of the requesting socket.
 * Documentation/networking/mrt.rst describes the fields and
 * Documentation/netlink/specs/mrt.yaml is the same family in the ynl
 * genetlink format (a host test checks that the two agree).  This header is
 * append-only: values are never renumbered or reused.
 *
 * Addresses are 16 bytes, IPv6, or IPv4 as an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d).  Counters are u64; PSNs, lengths and times u32.
 */
#ifndef _UAPI_LINUX_MRT_NL_H
#define _UAPI_LINUX_MRT_NL_H

#define MRT_GENL_NAME		"mrt"
#define MRT_GENL_VERSION	1
/* The multicast group of MRT_NL_CMD_EV_NTF; joining it needs CAP_NET_ADMIN
 * in the namespace's user namespace (each member costs the data path).
 */
#define MRT_GENL_MCGRP_EVENTS	"events"

/* Which way a PDC carries data (MRT_NL_PDC_A_ROLE). */
enum mrt_nl_pdc_role {
	MRT_NL_PDC_ROLE_TX,	/* sends a socket's messages to one peer */
	MRT_NL_PDC_ROLE_RX,	/* receives one peer's messages */
};

/* A PDC's state (MRT_NL_PDC_A_STATE). */
enum mrt_nl_pdc_state {
	MRT_NL_PDC_STATE_SYN,	/* TX: no answer from the peer yet */
	MRT_NL_PDC_STATE_OPEN,
	MRT_NL_PDC_STATE_CLOSED, /* failed or collected, about to go; not
				  * listed (tracepoints show it)
				  */
	MRT_NL_PDC_STATE_LINGER, /* RX: its socket closed; it acknowledges
				  * again what it received, NACKs the rest
				  * CLOSING, and goes once the sender is
				  * quiet
				  */
};

/* An EV's profile state (MRT_NL_EV_A_STATE, _OLD_STATE). */
enum mrt_nl_ev_state {
	MRT_NL_EV_STATE_GOOD,
	MRT_NL_EV_STATE_SKIP,		/* recent congestion: passed over while
					 * its credit drains
					 */
	MRT_NL_EV_STATE_ASSUMED_BAD,	/* an RTO or ev_bad_losses losses: no
					 * data, probed
					 */
	MRT_NL_EV_STATE_DENIED,		/* an administrator's: no data, no probes */
};

/* Why an EV changed state (MRT_NL_EV_A_WHY). */
enum mrt_nl_ev_why {
	MRT_NL_EV_WHY_ECN,		/* an ECN echo charged to it */
	MRT_NL_EV_WHY_TRIM,		/* a trim NACK */
	MRT_NL_EV_WHY_CREDIT,		/* its SKIP credit drained */
	MRT_NL_EV_WHY_LOSSES,		/* ev_bad_losses losses in a row */
	MRT_NL_EV_WHY_RTO,		/* a timer expiry */
	MRT_NL_EV_WHY_PROBE,		/* a probe was answered */
	MRT_NL_EV_WHY_DENY,		/* an administrator's deny */
	MRT_NL_EV_WHY_ALLOW,		/* an administrator's allow */
};

enum mrt_nl_cmd {
	MRT_NL_CMD_UNSPEC,
	/*
	 * do: the destination whose address MRT_NL_A_DEST holds in
	 * MRT_NL_DEST_A_ADDR (the first, if sockets with their own EV sets
	 * have more at that address); dump: every destination of the
	 * namespace (a dump takes no filter).  One
	 * reply message per destination: MRT_NL_A_NETNS_INUM and
	 * MRT_NL_A_DEST with every MRT_NL_DEST_A_* but PAD.  Destinations
	 * are the windows PDCs share when qp_groups_enabled is 1; with 0,
	 * each sending PDC has its own, shown with the PDC.
	 */
	MRT_NL_CMD_DEST_GET,
	/*
	 * do: the PDC whose local id MRT_NL_A_PDC holds in MRT_NL_PDC_A_LID;
	 * dump: every PDC of the namespace, in local id order (not those
	 * closing).  A dump takes no filter.  One reply
	 * message per PDC: MRT_NL_A_NETNS_INUM and MRT_NL_A_PDC with the
	 * attributes of its role (MRT_NL_PDC_A_* comments say which).
	 * Without CAP_NET_ADMIN in the namespace's user namespace a do is
	 * refused (EPERM, with an extack message, before the lookup: even
	 * ENOENT would tell which ids exist) and a dump leaves out the
	 * attributes marked "admin" (the ids, PSNs and keys).
	 */
	MRT_NL_CMD_PDC_GET,
	/*
	 * dump: the EVs of every destination (those of qp_groups_enabled 0
	 * too, last), or with MRT_NL_A_EV holding MRT_NL_EV_A_ADDR, of those
	 * at that address (-ENOENT if there is none); one
	 * message per EV, in port order: MRT_NL_A_NETNS_INUM and
	 * MRT_NL_A_EV with ADDR, PORT, STATE, USABLE, COUNT, CREDIT,
	 * LOSS_RUN, PROBE_IN_US and the counters PKTS to CHANGES.
	 */
	MRT_NL_CMD_EV_GET,
	/*
	 * do: CAP_NET_ADMIN in the namespace's user namespace; MRT_NL_A_EV
	 * with ADDR, PORT, optionally PORT_LAST (a range, PORT to
	 * PORT_LAST), and STATE: DENIED (deny) or GOOD (allow; only a
	 * DENIED EV changes).  A deny is a rule of the namespace: it holds
	 * for the destination's EVs now and for any destination created at
	 * that address later (born DENIED: no event, no counter), until an
	 * allow of those ports lifts it.  At most 256 rules per namespace
	 * (-ENOSPC, for a deny, or an allow that would split a rule).
	 */
	MRT_NL_CMD_EV_SET,
	/*
	 * Notification on the "events" group of the namespace, on every EV
	 * state change: MRT_NL_A_NETNS_INUM and MRT_NL_A_EV
	 * with ADDR, PORT, STATE, OLD_STATE, WHY, USABLE and COUNT.  USABLE
	 * 0: the destination has no EV to send data on (its data goes as
	 * probes, or waits if every EV is DENIED).
	 */
	MRT_NL_CMD_EV_NTF,
	/*
	 * dump: the namespace's deny rules, one message per rule:
	 * MRT_NL_A_NETNS_INUM and MRT_NL_A_EV with ADDR, PORT and PORT_LAST.
	 */
	MRT_NL_CMD_DENY_GET,

	__MRT_NL_CMD_MAX,
	MRT_NL_CMD_MAX = __MRT_NL_CMD_MAX - 1
};

/* Top-level attributes. */
enum mrt_nl_a {
	MRT_NL_A_UNSPEC,
	MRT_NL_A_NETNS_INUM,	/* u32: the namespace's inode (/proc/PID/ns/net) */
	MRT_NL_A_DEST,		/* nest: MRT_NL_DEST_A_* */
	MRT_NL_A_PDC,		/* nest: MRT_NL_PDC_A_* */
	MRT_NL_A_EV,		/* nest: MRT_NL_EV_A_* */

	__MRT_NL_A_MAX,
	MRT_NL_A_MAX = __MRT_NL_A_MAX - 1
};

/* Inside MRT_NL_A_DEST: one destination address and its NSCC window. */
enum mrt_nl_dest_a {
	MRT_NL_DEST_A_UNSPEC,
	MRT_NL_DEST_A_PAD,	/* pad: aligns the u64 values */
	MRT_NL_DEST_A_ADDR,	/* binary: 16 bytes, the peer address */
	MRT_NL_DEST_A_REFS,	/* u32: its sending PDCs and the sockets whose
				 * MRT_INFO reports it
				 */
	MRT_NL_DEST_A_CWND_BYTES, /* u64: NSCC's window */
	MRT_NL_DEST_A_MAX_CWND_BYTES, /* u64: its upper bound */
	MRT_NL_DEST_A_INFLIGHT_BYTES, /* u64: bytes sent, not yet answered */
	MRT_NL_DEST_A_BASE_RTT_NS, /* u64: the base RTT NSCC runs against */
	MRT_NL_DEST_A_AVG_DELAY_NS, /* u64: average queueing delay */
	MRT_NL_DEST_A_SRTT_US,	/* u32: smoothed RTT of the last sample */
	MRT_NL_DEST_A_RCV_CWND_PEN, /* u32: the receiver penalty last seen, 0-127 */
	MRT_NL_DEST_A_QA_COUNT,	/* u64: Quick Adapt reductions */
	MRT_NL_DEST_A_FI_COUNT,	/* u64: fast increases */
	MRT_NL_DEST_A_WAITING,	/* u32: PDCs waiting for room in the window,
				 * or for an allow (every EV DENIED)
				 */
	MRT_NL_DEST_A_EV_COUNT,	/* u16: its EVs (ev_count when it was made) */
	MRT_NL_DEST_A_EV_USABLE, /* u16: those GOOD or SKIP */
	MRT_NL_DEST_A_EV_BASE,	/* u16: its first EV */
	MRT_NL_DEST_A_OWN_EVS,	/* u8: 1 if its EV set is a socket's (MRT_EVS) */

	__MRT_NL_DEST_A_MAX,
	MRT_NL_DEST_A_MAX = __MRT_NL_DEST_A_MAX - 1
};

/*
 * Inside MRT_NL_A_PDC: one PDC.  Every PDC has LID to IDLE_MS, PKTS to
 * ECN (counters whose comment reads "this, or that" count this for a
 * sending PDC, that for a receiving one), KEY and RKEY; a sending one (TX)
 * also has UNA_PSN to INFLIGHT_BYTES and RTX_SACK to RTO_EVENTS, a
 * receiving one (RX) CACK_PSN to RCV_CWND_PEN.  Those marked "admin" (LID,
 * RID, the PSNs, KEY, RKEY) only when the requester has CAP_NET_ADMIN in
 * the namespace's user namespace.
 */
enum mrt_nl_pdc_a {
	MRT_NL_PDC_A_UNSPEC,
	MRT_NL_PDC_A_PAD,	/* pad: aligns the u64 values */
	MRT_NL_PDC_A_LID,	/* u16, admin: its id here (the peer's dpdcid) */
	MRT_NL_PDC_A_RID,	/* u16, admin: the peer's id for it; TX: 0
				 * until answered
				 */
	MRT_NL_PDC_A_ROLE,	/* u8: enum mrt_nl_pdc_role */
	MRT_NL_PDC_A_STATE,	/* u8: enum mrt_nl_pdc_state */
	MRT_NL_PDC_A_FAMILY,	/* u8: AF_INET or AF_INET6 */
	MRT_NL_PDC_A_LOCAL_ADDR, /* binary: 16 bytes; all zero: the route's */
	MRT_NL_PDC_A_LOCAL_EP,	/* u16: the socket's endpoint */
	MRT_NL_PDC_A_PEER_ADDR,	/* binary: 16 bytes */
	MRT_NL_PDC_A_PEER_EP,	/* u16: the peer socket's endpoint */
	MRT_NL_PDC_A_EV,	/* u16: TX: the EV (UDP source port) of its last
				 * packet; RX: 0
				 */
	MRT_NL_PDC_A_RANGE,	/* u32: its PSN window, in packets */
	MRT_NL_PDC_A_IDLE_MS,	/* u32: since its last packet in or out */
	MRT_NL_PDC_A_UNA_PSN,	/* u32, admin: TX: the oldest PSN not
				 * acknowledged
				 */
	MRT_NL_PDC_A_NXT_PSN,	/* u32, admin: TX: the next PSN to send */
	MRT_NL_PDC_A_RTX_QUEUED, /* u32: TX: packets queued to be sent again */
	MRT_NL_PDC_A_MSGS_QUEUED, /* u32: TX: messages not yet acknowledged whole */
	MRT_NL_PDC_A_SRTT_US,	/* u32: TX: smoothed RTT; 0: no sample yet */
	MRT_NL_PDC_A_RTTVAR_US,	/* u32: TX: RTT variation */
	MRT_NL_PDC_A_RTO_US,	/* u32: TX: the retransmission timeout now */
	MRT_NL_PDC_A_CWND_BYTES, /* u64: TX: the window it sends under */
	MRT_NL_PDC_A_INFLIGHT_BYTES, /* u64: TX: that window's bytes in flight */
	MRT_NL_PDC_A_CACK_PSN,	/* u32, admin: RX: the next PSN expected */
	MRT_NL_PDC_A_RCVD_BYTES, /* u64: RX: first-time bytes, out of order too */
	MRT_NL_PDC_A_OOO_PKTS,	/* u32: RX: packets that arrived above a hole */
	MRT_NL_PDC_A_RCV_CWND_PEN, /* u32: RX: the penalty its ACKs carry, 0-127 */
	MRT_NL_PDC_A_PKTS,	/* u64: data packets sent (retransmissions too),
				 * or received (new, not trimmed)
				 */
	MRT_NL_PDC_A_MSGS,	/* u64: messages acknowledged whole, or received */
	MRT_NL_PDC_A_TRIMS,	/* u64: trim NACKs received, or trimmed packets */
	MRT_NL_PDC_A_ECN,	/* u64: ECN echoes received, or new CE packets */
	MRT_NL_PDC_A_RTX_SACK,	/* u64: TX: packets queued to be sent again
				 * after a SACK gap
				 */
	MRT_NL_PDC_A_RTX_TRIM,	/* u64: TX: the same after a trim NACK */
	MRT_NL_PDC_A_RTX_RTO,	/* u64: TX: the same after a timeout */
	MRT_NL_PDC_A_RTO_EVENTS, /* u64: TX: timer expiries that found packets due */
	MRT_NL_PDC_A_KEY,	/* u32, admin: this half's own key */
	MRT_NL_PDC_A_RKEY,	/* u32, admin: the peer half's key */

	__MRT_NL_PDC_A_MAX,
	MRT_NL_PDC_A_MAX = __MRT_NL_PDC_A_MAX - 1
};

/* Inside MRT_NL_A_EV: one EV of one destination, or a deny rule. */
enum mrt_nl_ev_a {
	MRT_NL_EV_A_UNSPEC,
	MRT_NL_EV_A_PAD,	/* pad: aligns the u64 values */
	MRT_NL_EV_A_ADDR,	/* binary: 16 bytes, its destination */
	MRT_NL_EV_A_PORT,	/* u16: the EV, a UDP source port */
	MRT_NL_EV_A_PORT_LAST,	/* u16: a range's last port (SET, DENY_GET) */
	MRT_NL_EV_A_STATE,	/* u8: enum mrt_nl_ev_state */
	MRT_NL_EV_A_OLD_STATE,	/* u8: enum mrt_nl_ev_state; NTF: the state it
				 * left
				 */
	MRT_NL_EV_A_WHY,	/* u8: NTF: enum mrt_nl_ev_why */
	MRT_NL_EV_A_USABLE,	/* u16: its destination's EVs GOOD or SKIP */
	MRT_NL_EV_A_COUNT,	/* u16: its destination's EVs */
	MRT_NL_EV_A_CREDIT,	/* u16: SKIP: passes left before GOOD */
	MRT_NL_EV_A_LOSS_RUN,	/* u8: losses in a row since a clean answer */
	MRT_NL_EV_A_PROBE_IN_US, /* u32: ASSUMED_BAD: until its next probe
				  * (0: due); others 0
				  */
	MRT_NL_EV_A_PKTS,	/* u64: data packets sent on it */
	MRT_NL_EV_A_ECN,	/* u64: ECN echoes charged to it */
	MRT_NL_EV_A_TRIMS,	/* u64: trim NACKs */
	MRT_NL_EV_A_NACKS,	/* u64: other NACKs */
	MRT_NL_EV_A_LOSSES,	/* u64: presumed losses (SACK gaps) */
	MRT_NL_EV_A_RTOS,	/* u64: timer expiries */
	MRT_NL_EV_A_PROBES,	/* u64: probes sent */
	MRT_NL_EV_A_CHANGES,	/* u64: state changes */

	__MRT_NL_EV_A_MAX,
	MRT_NL_EV_A_MAX = __MRT_NL_EV_A_MAX - 1
};

#endif /* _UAPI_LINUX_MRT_NL_H */

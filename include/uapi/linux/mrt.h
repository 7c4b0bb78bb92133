/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mrt, the multipath reliable message transport: its protocol numbers and
 * its wire format, version 2.
 *
 * mrt carries messages over UDP in the manner of Ultra Ethernet's Packet
 * Delivery Sublayer and MRC: packet delivery contexts (PDCs) with packet
 * sequence numbers (PSNs), selective ACKs that also report the bytes
 * received, NACKs (with UET's code values) for trimmed packets, and the
 * UDP source port as the entropy value (EV) that picks a path.  The
 * headers are this project's own, not UET PDS bytes, so the UDP
 * destination port is an attribute (never UET's 4793 or RoCE's 4791).
 *
 * Every field is big-endian, every header a multiple of 4 bytes, with no
 * C bitfields; the structs below give the layout (the codec in
 * net/mrt/wire.c reads and writes the fields by offset and checks these
 * sizes at build time).  Reserved fields are sent as zero and a packet
 * with a reserved field that is not zero is malformed, so that a later
 * version can give them a meaning.  Documentation/networking/mrt.rst
 * describes each field.
 *
 * Version 2 adds the keys: each half of a PDC (the sender's and the
 * receiver's) chooses 32 random bits at open, and every packet to a PDC
 * carries the key of the half it is for (dkey), which the receiving half
 * checks before the packet changes anything.  A SYN, whose receiver has
 * no PDC yet, carries instead the cookie the receiver gave the sender's
 * host (0: none yet), and a receiver makes a PDC only for a SYN with a
 * valid cookie: the peer has shown it receives at its address.  Version
 * 1 (no keys, an 8-byte common header) is refused (malformed_old_version).
 */
#ifndef _UAPI_LINUX_MRT_H
#define _UAPI_LINUX_MRT_H

#include <linux/types.h>

#ifndef IPPROTO_MRT
#define IPPROTO_MRT		253	/* socket(AF_INET{,6}, SOCK_RDM, 253) */
#endif
#define SOL_MRT			253

#define MRT_WIRE_VERSION	2

/* The high nibble of mrt_hdr.ver_type is the version, the low one this. */
enum mrt_type {
	MRT_TYPE_DATA	= 1,
	MRT_TYPE_ACK	= 2,	/* ACK and selective ACK (SACK) */
	MRT_TYPE_NACK	= 3,
	MRT_TYPE_CTRL	= 4,
};

/* The common header of every packet: 16 bytes. */
struct mrt_hdr {
	__u8	ver_type;	/* version << 4 | type */
	__u8	flags;		/* per type: MRT_DATA_F_*, MRT_ACK_F_*, ... */
	__be16	spdcid;		/* the sender's PDC id; 0 only in a
				 * stateless NACK (mrt_nack_stateless(): the
				 * sender has no PDC)
				 */
	__be16	dpdcid;		/* the receiver's PDC id; 0 only on a SYN */
	__be16	ev;		/* DATA, CTRL: the EV it was sent on;
				 * ACK, NACK: the EV of the packet answered
				 */
	__be32	skey;		/* the sending half's key, never 0; 0 only in
				 * a stateless NACK
				 */
	__be32	dkey;		/* the receiving half's key, as the sender
				 * learnt it from that half's packets; on a
				 * SYN the receiver's cookie (0: none yet); on
				 * a stateless NACK the skey of the packet
				 * answered.  0 only on a SYN.
				 */
};

/* DATA flags. */
#define MRT_DATA_F_SYN		0x01	/* first packets of a PDC: create it */
#define MRT_DATA_F_AR		0x02	/* ACK request: answer at once */
#define MRT_DATA_F_RETX		0x04	/* a retransmission */
#define MRT_DATA_F_SOM		0x08	/* the message's first packet */
#define MRT_DATA_F_EOM		0x10	/* the message's last packet */
#define MRT_DATA_F_TRIMMABLE	0x20	/* a switch may trim it to its headers */
#define MRT_DATA_F_MASK		0x3f

/* DATA: common header + 24 bytes, then payload_len bytes of payload,
 * then zeros to MRT_DATA_MIN_LEN if shorter: no answer (an ACK, a NACK)
 * is larger than the data packet it answers.
 */
struct mrt_data_hdr {
	struct mrt_hdr	h;
	__be32	psn;
	__be16	src_ep;		/* the sending socket's endpoint */
	__be16	dst_ep;		/* the receiving socket's endpoint */
	__be16	msg_id;		/* per PDC and direction */
	__be16	payload_len;	/* as sent: a shorter payload was trimmed */
	__be32	msg_offset;	/* of this payload in the message */
	__be32	msg_len;	/* the whole message */
	__be32	start_psn;	/* with SYN: the PDC's first PSN; else 0 */
};

/* ACK flags. */
#define MRT_ACK_F_ECN_ECHO	0x01	/* the answered packet was CE */
#define MRT_ACK_F_RETX_ECHO	0x02	/* it was a retransmission */
#define MRT_ACK_F_PROBE_ACK	0x04
#define MRT_ACK_F_RESTORE_CWND	0x08	/* with rcv_cwnd_pen: see NSCC */
#define MRT_ACK_F_CUMULATIVE	0x10	/* only cack_psn is meaningful */
#define MRT_ACK_F_CLOSING	0x20	/* the PDC is gone (its socket closed,
					 * or it reset): what this ACK reports
					 * arrived, nothing else will
					 */
#define MRT_ACK_F_MASK		0x3f

/* rcv_cwnd_pen: the receiver penalty, 0 (none) to this. */
#define MRT_RCV_CWND_PEN_MAX	127
/* mpr: windows of 64 to 16384 PSNs. */
#define MRT_MPR_MAX		8

/* The smallest data packet: an ACK's size (a shorter one is padded). */
#define MRT_DATA_MIN_LEN	48

/* ACK: common header + 32 bytes. */
struct mrt_ack_hdr {
	struct mrt_hdr	h;
	__be32	cack_psn;	/* every PSN below it was received */
	__be32	ack_psn;	/* the PSN of the packet answered */
	__be32	sack_base_psn;
	/* The SACK bitmap, a big-endian u64 in two halves so that the
	 * struct has no padding: bit i of (hi << 32 | lo) says that
	 * sack_base_psn + i was received.
	 */
	__be32	sack_bitmap_hi;
	__be32	sack_bitmap_lo;
	__be32	rcvd_bytes;	/* the receiver's first-time bytes, in
				 * 256-byte units rounded up, modulo 2^24
				 * (UET's field); the top 8 bits are zero
				 */
	__be16	ooo_count;	/* packets received out of order */
	__u8	rcv_cwnd_pen;	/* 0..MRT_RCV_CWND_PEN_MAX */
	__u8	mpr;		/* the receiver's PSN window: 64 << mpr
				 * PSNs, mpr 0..MRT_MPR_MAX
				 */
	__be16	service_time;	/* the receiver's hold, in 64 ns units */
	__be16	reserved;
};

/* NACK flags. */
#define MRT_NACK_F_RETX_ECHO	0x01
#define MRT_NACK_F_MASK		0x01

/* NACK codes: Ultra Ethernet 1.0's values, and this project's own. */
enum mrt_nack_code {
	MRT_NACK_TRIMMED		= 0x01,
	MRT_NACK_TRIMMED_LASTHOP	= 0x02,
	MRT_NACK_NO_RESOURCE		= 0x0a,	/* payload: the PSN window of a
						 * PDC, or 0: no PDC (limits)
						 */
	MRT_NACK_PSN_OOR_WINDOW		= 0x0b,	/* payload: the window */
	MRT_NACK_INV_DPDCID		= 0x0e,
	MRT_NACK_NO_ENDPOINT		= 0x0f,	/* this project's: no socket */
	MRT_NACK_CLOSING		= 0x10,	/* payload: the PDC's cack_psn
						 * (mrt answers with an ACK that
						 * has MRT_ACK_F_CLOSING)
						 */
	MRT_NACK_COOKIE			= 0xc0,	/* this project's: a SYN without
						 * a valid cookie; payload: one
						 */
	MRT_NACK_MSG_TOO_BIG		= 0xc1,	/* this project's: the message
						 * never fits the receive buffer;
						 * payload: the PDC's cack_psn
						 */
};

/* The NACKs a receiver may send without a PDC of its own (then spdcid and
 * skey 0, dkey the answered packet's skey).
 */
static inline int mrt_nack_stateless(__u8 code)
{
	return code == MRT_NACK_INV_DPDCID || code == MRT_NACK_NO_ENDPOINT ||
	       code == MRT_NACK_NO_RESOURCE || code == MRT_NACK_COOKIE;
}

/* NACK: common header + 16 bytes. */
struct mrt_nack_hdr {
	struct mrt_hdr	h;
	__be32	nack_psn;
	__u8	nack_code;	/* enum mrt_nack_code */
	__u8	vendor_code;	/* 0 */
	__be16	reserved;
	__be32	rcvd_bytes;	/* as in an ACK: NACKs clock bytes too */
	__be32	payload;	/* per code: PSN_OOR_WINDOW: the window */
};

/* CTRL types. */
enum mrt_ctrl_type {
	MRT_CTRL_PROBE		= 1,
	MRT_CTRL_PROBE_ACK	= 2,
	MRT_CTRL_ACK_REQ	= 3,
	MRT_CTRL_CLOSE		= 4,
	MRT_CTRL_REQ_CLOSE	= 5,
	MRT_CTRL_CLOSE_ACK	= 6,
};

/* CTRL: common header + 8 bytes. */
struct mrt_ctrl_hdr {
	struct mrt_hdr	h;
	__u8	ctl_type;	/* enum mrt_ctrl_type */
	__u8	ctl_flags;	/* 0 */
	__be16	opaque;		/* a probe's id (its EV's index), echoed */
	__be32	psn;		/* a probe's send time (ns, low 32 bits),
				 * echoed: the answer's RTT sample
				 */
};

/*
 * The socket API: socket(AF_INET or AF_INET6, SOCK_RDM, IPPROTO_MRT), the
 * endpoint in sin_port / sin6_port.  Options at level SOL_MRT:
 */
#define MRT_INFO		1	/* get: struct mrt_info */
#define MRT_ORDERED		2	/* int: deliver each peer's messages in order */
#define MRT_CONFIRM		3	/* int: report deliveries on the error queue */
#define MRT_COOKIE		4	/* cmsg to sendmsg: a __u64 for the reports */
#define MRT_EVS			5	/* struct mrt_evs: the socket's own EV set */

/*
 * setsockopt(SOL_MRT, MRT_EVS): the EVs (UDP source ports) base to
 * base + count - 1 for the PDCs the socket opens from then on, instead of
 * the namespace's ev_base and ev_count; count 0 goes back to those.
 * count is 1 to 256, base at least 1 and the last port at most 65535
 * (else EINVAL); getsockopt gives the set, count 0 for the namespace's.  Such
 * a socket's PDCs share a destination (its NSCC window and EV states)
 * only with PDCs of the same EV set to the same address.
 */
struct mrt_evs {
	__u16	base;
	__u16	count;
};

/*
 * The error queue (recvmsg(MSG_ERRQUEUE)): one entry per message that
 * failed, or (MRT_CONFIRM) was delivered.  Its data is the message's
 * __u64 cookie (0 if sendmsg had none), msg_name its peer, and a control
 * message (SOL_IP, IP_RECVERR) or (SOL_IPV6, IPV6_RECVERR) carries a
 * struct sock_extended_err with ee_origin SO_EE_ORIGIN_LOCAL, ee_type one
 * of these, ee_errno 0 for a delivery or ETIMEDOUT (the retry budget ran
 * out), ECONNREFUSED (no socket bound to the peer's endpoint),
 * EHOSTUNREACH (no route to the peer) or ECONNRESET (the peer lost the
 * PDC), and ee_info the message's length.
 */
#define MRT_EE_FAILED		1
#define MRT_EE_DELIVERED	2

/*
 * getsockopt(SOL_MRT, MRT_INFO): copies min(optlen, sizeof) bytes, as
 * TCP_INFO does, and sets optlen to that; fields are only ever added at
 * the end.  The window fields are those of the destination the socket
 * last sent to (its connect() peer first) while a PDC to it is open;
 * zero before it sends and once none is (the window is gone then).
 */
struct mrt_info {
	__u32	mrti_size;		/* sizeof(struct mrt_info) of the kernel */
	__u32	mrti_pdcs;		/* PDCs of the socket, both directions */
	__u64	mrti_cwnd_bytes;	/* NSCC window */
	__u64	mrti_max_cwnd_bytes;
	__u64	mrti_inflight_bytes;
	__u64	mrti_base_rtt_ns;
	__u64	mrti_srtt_us;		/* smoothed RTT of its last PDC */
	__u64	mrti_avg_delay_ns;	/* NSCC's average queueing delay */
	__u64	mrti_qa_count;		/* Quick Adapt (the destination's) */
	__u64	mrti_fi_count;		/* fast-increase steps */
	__u64	mrti_msgs_sent;
	__u64	mrti_msgs_rcvd;
	__u64	mrti_msgs_failed;
	__u64	mrti_rtx_sack;		/* retransmissions: SACK gaps */
	__u64	mrti_rtx_trim;		/* ... trim NACKs */
	__u64	mrti_rtx_rto;		/* ... timer expiries */
	__u64	mrti_rto_events;
	__u64	mrti_trims;		/* trim NACKs received */
	__u64	mrti_rcvbuf_drops;	/* packets dropped: receive buffer full */
	__u64	mrti_rmem_bytes;	/* receive buffer in use (SO_RCVBUF's) */
	__u64	mrti_wmem_bytes;	/* send buffer in use (SO_SNDBUF's) */
	__u32	mrti_rxq_msgs;		/* whole messages waiting for recvmsg() */
	__u32	mrti_pad;
};

#endif /* _UAPI_LINUX_MRT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrt's wire codec, pure C: packets in host order (struct mrt_pkt) to and
 * from the bytes of include/uapi/linux/mrt.h.  No skbs or sockets: the
 * same file builds into mrt.ko, the unit tests and the simulator.
 *
 * mrt_parse() checks everything a packet can be checked for on its own
 * (lengths, version, type, flags, reserved fields, PDC ids, a data
 * packet's place in its message) and says why a packet is malformed with
 * one of enum mrt_malformed, which the transport counts by reason.  A
 * data packet whose payload is shorter than its header says is not
 * malformed: a switch trimmed it (mrt_pkt.trimmed), and the receiver
 * NACKs it.  What needs a PDC's state (PSN windows, SACK bits for PSNs
 * never sent) is checked by the PSN code.
 */
#ifndef _MRT_WIRE_H
#define _MRT_WIRE_H

#include <net/fabric/core.h>
#include <uapi/linux/mrt.h>

#define MRT_HDR_LEN		16
#define MRT_DATA_HDR_LEN	40
#define MRT_ACK_HDR_LEN		48
#define MRT_NACK_HDR_LEN	32
#define MRT_CTRL_HDR_LEN	24

/* The zeros that follow a payload of len bytes (MRT_DATA_MIN_LEN). */
static inline unsigned int mrt_data_pad(unsigned int len)
{
	return MRT_DATA_HDR_LEN + len < MRT_DATA_MIN_LEN ?
	       MRT_DATA_MIN_LEN - MRT_DATA_HDR_LEN - len : 0;
}

/* A SYN's PSN is within this of its start_psn: the largest window. */
#define MRT_SYN_SPAN_MAX	16384U

/* The rcvd_bytes fields carry UET's 24-bit value. */
#define MRT_RCVD_BYTES_MASK	0xffffffU

/* Why a packet is malformed: one EM(value, name) row each, EMe() last. */
#define MRT_MALFORMED							\
	EM(MRT_BAD_SHORT, short)	/* shorter than its header */	\
	EM(MRT_BAD_OLD_VERSION, old_version) /* version 1: no keys */	\
	EM(MRT_BAD_VERSION, version)	/* no version mrt knows */	\
	EM(MRT_BAD_TYPE, type)		/* no such type */		\
	EM(MRT_BAD_FLAGS, flags)	/* a flag the type has not */	\
	EM(MRT_BAD_RESERVED, reserved)	/* a reserved field not zero */	\
	EM(MRT_BAD_PDCID, pdcid)	/* a PDC id 0 where none may be */ \
	EM(MRT_BAD_KEY, key)		/* a key 0 where none may be */	\
	EM(MRT_BAD_LENGTH, length)	/* more payload than announced */ \
	EM(MRT_BAD_OFFSET, offset)	/* payload beyond its message */ \
	EM(MRT_BAD_BOUNDARY, boundary)	/* SOM not at 0, EOM not at end */ \
	EM(MRT_BAD_PENALTY, penalty)	/* rcv_cwnd_pen above 127 */	\
	EM(MRT_BAD_WINDOW, window)	/* mpr above MRT_MPR_MAX */	\
	EMe(MRT_BAD_CODE, code)		/* no such NACK code or CTRL type */

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_malformed { MRT_MALFORMED MRT_BAD_COUNT };
#undef EM
#undef EMe

extern const char * const mrt_malformed_names[MRT_BAD_COUNT];

struct mrt_data {
	u32 psn;
	u16 src_ep;
	u16 dst_ep;
	u16 msg_id;
	u16 payload_len;	/* as announced */
	u32 msg_offset;
	u32 msg_len;
	u32 start_psn;
};

struct mrt_ack {
	u32 cack_psn;
	u32 ack_psn;
	u32 sack_base_psn;
	u64 sack_bitmap;
	u32 rcvd_bytes;		/* the 24-bit field */
	u16 ooo_count;
	u8 rcv_cwnd_pen;
	u8 mpr;
	u16 service_time;
};

struct mrt_nack {
	u32 nack_psn;
	u8 nack_code;
	u32 rcvd_bytes;
	u32 payload;
};

struct mrt_ctrl {
	u8 ctl_type;
	u16 opaque;
	u32 psn;
};

struct mrt_pkt {
	u8 type;		/* enum mrt_type */
	u8 flags;
	u16 spdcid;
	u16 dpdcid;
	u16 ev;
	u32 skey;
	u32 dkey;
	/* DATA: the payload bytes that follow the header (fewer than
	 * payload_len if trimmed; not the padding).
	 */
	u16 present;
	bool trimmed;
	union {
		struct mrt_data data;
		struct mrt_ack ack;
		struct mrt_nack nack;
		struct mrt_ctrl ctrl;
	};
};

/* The length of a type's header, or 0 for no such type. */
unsigned int mrt_hdr_len(u8 type);

/* Decodes the len bytes at buf (a UDP payload) into p.  Returns 0, or
 * -1 - reason with reason an enum mrt_malformed (use mrt_bad_reason()).
 */
int mrt_parse(const void *buf, unsigned int len, struct mrt_pkt *p);

static inline enum mrt_malformed mrt_bad_reason(int err)
{
	return (enum mrt_malformed)(-1 - err);
}

/* Writes p's header (mrt_hdr_len(p->type) bytes) at buf; returns that
 * length.  p must be well formed: the transport builds it, and follows a
 * data header with the payload and mrt_data_pad() zeros.
 */
unsigned int mrt_build(void *buf, const struct mrt_pkt *p);
/* An ACK built already (at buf) gets its service time (units of 64 ns),
 * known only as it leaves.
 */
void mrt_ack_set_service(void *buf, u16 service_time);

#endif /* _MRT_WIRE_H */

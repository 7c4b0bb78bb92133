// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's wire codec (net/mrt/wire.h): every field read and written by its
 * offset in the uapi structs, big-endian, at any alignment, so that a
 * packet is never cast onto a struct and the layout has one definition.
 * The sizes are pinned at build time against the uapi structs.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "wire.h"

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
const char * const mrt_malformed_names[MRT_BAD_COUNT] = { MRT_MALFORMED };
#undef EM
#undef EMe

#define MRT_OFF(type, field)	offsetof(struct type, field)

static void mrt_layout_check(void)
{
	BUILD_BUG_ON(sizeof(struct mrt_hdr) != MRT_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct mrt_data_hdr) != MRT_DATA_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct mrt_ack_hdr) != MRT_ACK_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct mrt_nack_hdr) != MRT_NACK_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct mrt_ctrl_hdr) != MRT_CTRL_HDR_LEN);
	BUILD_BUG_ON(MRT_OFF(mrt_hdr, dkey) != 12);
	BUILD_BUG_ON(MRT_OFF(mrt_ack_hdr, sack_bitmap_hi) != 28);
	BUILD_BUG_ON(MRT_OFF(mrt_ack_hdr, reserved) != 46);
	BUILD_BUG_ON(MRT_OFF(mrt_data_hdr, start_psn) != 36);
	BUILD_BUG_ON(MRT_OFF(mrt_nack_hdr, payload) != 28);
	BUILD_BUG_ON(MRT_DATA_MIN_LEN != MRT_ACK_HDR_LEN);
}

/* Per type: its header's length and the flags it may carry. */
static const struct {
	u8 hlen;
	u8 flags;
} mrt_types[] = {
	[MRT_TYPE_DATA] = { MRT_DATA_HDR_LEN, MRT_DATA_F_MASK },
	[MRT_TYPE_ACK]	= { MRT_ACK_HDR_LEN, MRT_ACK_F_MASK },
	[MRT_TYPE_NACK] = { MRT_NACK_HDR_LEN, MRT_NACK_F_MASK },
	[MRT_TYPE_CTRL] = { MRT_CTRL_HDR_LEN, 0 },
};

unsigned int mrt_hdr_len(u8 type)
{
	return type < ARRAY_SIZE(mrt_types) ? mrt_types[type].hlen : 0;
}

static bool mrt_nack_code_known(u8 code)
{
	switch (code) {
	case MRT_NACK_TRIMMED:
	case MRT_NACK_TRIMMED_LASTHOP:
	case MRT_NACK_NO_RESOURCE:
	case MRT_NACK_PSN_OOR_WINDOW:
	case MRT_NACK_INV_DPDCID:
	case MRT_NACK_NO_ENDPOINT:
	case MRT_NACK_CLOSING:
	case MRT_NACK_COOKIE:
	case MRT_NACK_MSG_TOO_BIG:
		return true;
	}
	return false;
}

#define MRT_BAD(reason)	(-1 - (int)(reason))

static int mrt_parse_data(const u8 *b, unsigned int len, struct mrt_pkt *p)
{
	struct mrt_data *d = &p->data;
	unsigned int body = len - MRT_DATA_HDR_LEN, i;
	bool syn = p->flags & MRT_DATA_F_SYN;

	d->psn = get_unaligned_be32(b + MRT_OFF(mrt_data_hdr, psn));
	d->src_ep = get_unaligned_be16(b + MRT_OFF(mrt_data_hdr, src_ep));
	d->dst_ep = get_unaligned_be16(b + MRT_OFF(mrt_data_hdr, dst_ep));
	d->msg_id = get_unaligned_be16(b + MRT_OFF(mrt_data_hdr, msg_id));
	d->payload_len = get_unaligned_be16(b + MRT_OFF(mrt_data_hdr, payload_len));
	d->msg_offset = get_unaligned_be32(b + MRT_OFF(mrt_data_hdr, msg_offset));
	d->msg_len = get_unaligned_be32(b + MRT_OFF(mrt_data_hdr, msg_len));
	d->start_psn = get_unaligned_be32(b + MRT_OFF(mrt_data_hdr, start_psn));

	/* A PDC's first packets carry SYN and no receiver id (their dkey
	 * is a cookie, or 0); the rest name the receiver's PDC and its key.
	 */
	if (!p->dpdcid != syn)
		return MRT_BAD(MRT_BAD_PDCID);
	if (!syn && !p->dkey)
		return MRT_BAD(MRT_BAD_KEY);
	/* start_psn is a SYN's, and its PSN lies in the window it opens. */
	if (!syn && d->start_psn)
		return MRT_BAD(MRT_BAD_RESERVED);
	if (syn && d->psn - d->start_psn >= MRT_SYN_SPAN_MAX)
		return MRT_BAD(MRT_BAD_WINDOW);
	/* A payload shorter than the minimum is followed by zeros, up to
	 * MRT_DATA_MIN_LEN and no further (a switch may cut them, as it may
	 * trim any payload: a packet is not refused for being short).
	 */
	if (body > d->payload_len) {
		if (len > MRT_DATA_MIN_LEN)
			return MRT_BAD(MRT_BAD_LENGTH);
		for (i = MRT_DATA_HDR_LEN + d->payload_len; i < len; i++)
			if (b[i])
				return MRT_BAD(MRT_BAD_RESERVED);
		body = d->payload_len;
	}
	p->present = body;
	p->trimmed = body < d->payload_len;
	if (d->msg_offset > d->msg_len ||
	    d->payload_len > d->msg_len - d->msg_offset)
		return MRT_BAD(MRT_BAD_OFFSET);
	if ((p->flags & MRT_DATA_F_SOM) && d->msg_offset)
		return MRT_BAD(MRT_BAD_BOUNDARY);
	if ((p->flags & MRT_DATA_F_EOM) &&
	    d->msg_offset + d->payload_len != d->msg_len)
		return MRT_BAD(MRT_BAD_BOUNDARY);
	/* Only an empty message has an empty packet, and it is the whole
	 * message.
	 */
	if (!d->payload_len &&
	    (d->msg_len || (p->flags & (MRT_DATA_F_SOM | MRT_DATA_F_EOM)) !=
			   (MRT_DATA_F_SOM | MRT_DATA_F_EOM)))
		return MRT_BAD(MRT_BAD_BOUNDARY);
	return 0;
}

static int mrt_parse_ack(const u8 *b, struct mrt_pkt *p)
{
	struct mrt_ack *a = &p->ack;

	a->cack_psn = get_unaligned_be32(b + MRT_OFF(mrt_ack_hdr, cack_psn));
	a->ack_psn = get_unaligned_be32(b + MRT_OFF(mrt_ack_hdr, ack_psn));
	a->sack_base_psn = get_unaligned_be32(b + MRT_OFF(mrt_ack_hdr, sack_base_psn));
	a->sack_bitmap = get_unaligned_be64(b + MRT_OFF(mrt_ack_hdr, sack_bitmap_hi));
	a->rcvd_bytes = get_unaligned_be32(b + MRT_OFF(mrt_ack_hdr, rcvd_bytes));
	a->ooo_count = get_unaligned_be16(b + MRT_OFF(mrt_ack_hdr, ooo_count));
	a->rcv_cwnd_pen = b[MRT_OFF(mrt_ack_hdr, rcv_cwnd_pen)];
	a->mpr = b[MRT_OFF(mrt_ack_hdr, mpr)];
	a->service_time = get_unaligned_be16(b + MRT_OFF(mrt_ack_hdr, service_time));

	if (!p->dpdcid)
		return MRT_BAD(MRT_BAD_PDCID);
	if (a->rcvd_bytes & ~MRT_RCVD_BYTES_MASK ||
	    get_unaligned_be16(b + MRT_OFF(mrt_ack_hdr, reserved)))
		return MRT_BAD(MRT_BAD_RESERVED);
	if (a->rcv_cwnd_pen > MRT_RCV_CWND_PEN_MAX)
		return MRT_BAD(MRT_BAD_PENALTY);
	if (a->mpr > MRT_MPR_MAX)
		return MRT_BAD(MRT_BAD_WINDOW);
	return 0;
}

static int mrt_parse_nack(const u8 *b, struct mrt_pkt *p)
{
	struct mrt_nack *n = &p->nack;

	n->nack_psn = get_unaligned_be32(b + MRT_OFF(mrt_nack_hdr, nack_psn));
	n->nack_code = b[MRT_OFF(mrt_nack_hdr, nack_code)];
	n->rcvd_bytes = get_unaligned_be32(b + MRT_OFF(mrt_nack_hdr, rcvd_bytes));
	n->payload = get_unaligned_be32(b + MRT_OFF(mrt_nack_hdr, payload));

	/* The stateless codes answer a packet for which the receiver has
	 * no PDC (none it knows, no socket to make one for, no room for
	 * one, no cookie yet): they name the PDC they answer (dpdcid) and
	 * none of their own.
	 */
	if (!p->dpdcid || (!p->spdcid && !mrt_nack_stateless(n->nack_code)))
		return MRT_BAD(MRT_BAD_PDCID);
	if (b[MRT_OFF(mrt_nack_hdr, vendor_code)] ||
	    get_unaligned_be16(b + MRT_OFF(mrt_nack_hdr, reserved)) ||
	    n->rcvd_bytes & ~MRT_RCVD_BYTES_MASK)
		return MRT_BAD(MRT_BAD_RESERVED);
	if (!mrt_nack_code_known(n->nack_code))
		return MRT_BAD(MRT_BAD_CODE);
	return 0;
}

static int mrt_parse_ctrl(const u8 *b, struct mrt_pkt *p)
{
	struct mrt_ctrl *c = &p->ctrl;

	c->ctl_type = b[MRT_OFF(mrt_ctrl_hdr, ctl_type)];
	c->opaque = get_unaligned_be16(b + MRT_OFF(mrt_ctrl_hdr, opaque));
	c->psn = get_unaligned_be32(b + MRT_OFF(mrt_ctrl_hdr, psn));

	if (b[MRT_OFF(mrt_ctrl_hdr, ctl_flags)])
		return MRT_BAD(MRT_BAD_RESERVED);
	if (c->ctl_type < MRT_CTRL_PROBE || c->ctl_type > MRT_CTRL_CLOSE_ACK)
		return MRT_BAD(MRT_BAD_CODE);
	if (!p->dpdcid)
		return MRT_BAD(MRT_BAD_PDCID);
	return 0;
}

int mrt_parse(const void *buf, unsigned int len, struct mrt_pkt *p)
{
	const u8 *b = buf;
	unsigned int hlen;
	u8 ver_type;

	mrt_layout_check();
	*p = (struct mrt_pkt){ 0 };
	if (!len)
		return MRT_BAD(MRT_BAD_SHORT);
	/* the version first: any packet of version 1, whose common header
	 * was 8 bytes, is that
	 */
	ver_type = b[MRT_OFF(mrt_hdr, ver_type)];
	if (ver_type >> 4 == 1)
		return MRT_BAD(MRT_BAD_OLD_VERSION);
	if (ver_type >> 4 != MRT_WIRE_VERSION)
		return MRT_BAD(MRT_BAD_VERSION);
	if (len < MRT_HDR_LEN)
		return MRT_BAD(MRT_BAD_SHORT);
	p->type = ver_type & 0xf;
	hlen = mrt_hdr_len(p->type);
	if (!hlen)
		return MRT_BAD(MRT_BAD_TYPE);
	if (len < hlen)
		return MRT_BAD(MRT_BAD_SHORT);
	/* Only data carries a payload. */
	if (p->type != MRT_TYPE_DATA && len != hlen)
		return MRT_BAD(MRT_BAD_LENGTH);
	p->flags = b[MRT_OFF(mrt_hdr, flags)];
	p->spdcid = get_unaligned_be16(b + MRT_OFF(mrt_hdr, spdcid));
	p->dpdcid = get_unaligned_be16(b + MRT_OFF(mrt_hdr, dpdcid));
	p->ev = get_unaligned_be16(b + MRT_OFF(mrt_hdr, ev));
	p->skey = get_unaligned_be32(b + MRT_OFF(mrt_hdr, skey));
	p->dkey = get_unaligned_be32(b + MRT_OFF(mrt_hdr, dkey));
	if (p->flags & ~mrt_types[p->type].flags)
		return MRT_BAD(MRT_BAD_FLAGS);
	if (!p->spdcid && p->type != MRT_TYPE_NACK)
		return MRT_BAD(MRT_BAD_PDCID);
	/* A sender with a PDC has a key; a stateless NACK has neither (the
	 * NACK's own check says which codes may be stateless).  Every
	 * packet but a SYN names the receiving half's key.
	 */
	if (!p->skey != !p->spdcid)
		return MRT_BAD(MRT_BAD_KEY);
	if (!p->dkey && p->type != MRT_TYPE_DATA)
		return MRT_BAD(MRT_BAD_KEY);

	switch (p->type) {
	case MRT_TYPE_DATA:
		return mrt_parse_data(b, len, p);
	case MRT_TYPE_ACK:
		return mrt_parse_ack(b, p);
	case MRT_TYPE_NACK:
		return mrt_parse_nack(b, p);
	default:
		return mrt_parse_ctrl(b, p);
	}
}

unsigned int mrt_build(void *buf, const struct mrt_pkt *p)
{
	unsigned int hlen = mrt_hdr_len(p->type);
	u8 *b = buf;

	if (!hlen)
		return 0;
	memset(b, 0, hlen);
	b[MRT_OFF(mrt_hdr, ver_type)] = MRT_WIRE_VERSION << 4 | p->type;
	b[MRT_OFF(mrt_hdr, flags)] = p->flags;
	put_unaligned_be16(p->spdcid, b + MRT_OFF(mrt_hdr, spdcid));
	put_unaligned_be16(p->dpdcid, b + MRT_OFF(mrt_hdr, dpdcid));
	put_unaligned_be16(p->ev, b + MRT_OFF(mrt_hdr, ev));
	put_unaligned_be32(p->skey, b + MRT_OFF(mrt_hdr, skey));
	put_unaligned_be32(p->dkey, b + MRT_OFF(mrt_hdr, dkey));

	switch (p->type) {
	case MRT_TYPE_DATA:
		put_unaligned_be32(p->data.psn, b + MRT_OFF(mrt_data_hdr, psn));
		put_unaligned_be16(p->data.src_ep, b + MRT_OFF(mrt_data_hdr, src_ep));
		put_unaligned_be16(p->data.dst_ep, b + MRT_OFF(mrt_data_hdr, dst_ep));
		put_unaligned_be16(p->data.msg_id, b + MRT_OFF(mrt_data_hdr, msg_id));
		put_unaligned_be16(p->data.payload_len,
				   b + MRT_OFF(mrt_data_hdr, payload_len));
		put_unaligned_be32(p->data.msg_offset,
				   b + MRT_OFF(mrt_data_hdr, msg_offset));
		put_unaligned_be32(p->data.msg_len, b + MRT_OFF(mrt_data_hdr, msg_len));
		put_unaligned_be32(p->data.start_psn, b + MRT_OFF(mrt_data_hdr, start_psn));
		break;
	case MRT_TYPE_ACK:
		put_unaligned_be32(p->ack.cack_psn, b + MRT_OFF(mrt_ack_hdr, cack_psn));
		put_unaligned_be32(p->ack.ack_psn, b + MRT_OFF(mrt_ack_hdr, ack_psn));
		put_unaligned_be32(p->ack.sack_base_psn,
				   b + MRT_OFF(mrt_ack_hdr, sack_base_psn));
		put_unaligned_be64(p->ack.sack_bitmap,
				   b + MRT_OFF(mrt_ack_hdr, sack_bitmap_hi));
		put_unaligned_be32(p->ack.rcvd_bytes & MRT_RCVD_BYTES_MASK,
				   b + MRT_OFF(mrt_ack_hdr, rcvd_bytes));
		put_unaligned_be16(p->ack.ooo_count, b + MRT_OFF(mrt_ack_hdr, ooo_count));
		b[MRT_OFF(mrt_ack_hdr, rcv_cwnd_pen)] = p->ack.rcv_cwnd_pen;
		b[MRT_OFF(mrt_ack_hdr, mpr)] = p->ack.mpr;
		put_unaligned_be16(p->ack.service_time,
				   b + MRT_OFF(mrt_ack_hdr, service_time));
		break;
	case MRT_TYPE_NACK:
		put_unaligned_be32(p->nack.nack_psn, b + MRT_OFF(mrt_nack_hdr, nack_psn));
		b[MRT_OFF(mrt_nack_hdr, nack_code)] = p->nack.nack_code;
		put_unaligned_be32(p->nack.rcvd_bytes & MRT_RCVD_BYTES_MASK,
				   b + MRT_OFF(mrt_nack_hdr, rcvd_bytes));
		put_unaligned_be32(p->nack.payload, b + MRT_OFF(mrt_nack_hdr, payload));
		break;
	case MRT_TYPE_CTRL:
		b[MRT_OFF(mrt_ctrl_hdr, ctl_type)] = p->ctrl.ctl_type;
		put_unaligned_be16(p->ctrl.opaque, b + MRT_OFF(mrt_ctrl_hdr, opaque));
		put_unaligned_be32(p->ctrl.psn, b + MRT_OFF(mrt_ctrl_hdr, psn));
		break;
	}
	return hlen;
}

void mrt_ack_set_service(void *buf, u16 service_time)
{
	put_unaligned_be16(service_time,
			   (u8 *)buf + MRT_OFF(mrt_ack_hdr, service_time));
}

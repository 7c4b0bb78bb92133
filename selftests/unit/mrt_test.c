// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of mrt's pure protocol pieces: the wire codec
 * (net/mrt/wire.c) against the layout of include/uapi/linux/mrt.h, each
 * malformed-packet reason, trimmed packets; the receiver's PSN window and
 * SACK, the sender's acknowledged set, both across PSN wrap; rcvd_bytes
 * (the NSCC core's 24-bit field) across wrap and stale; the RTO estimator
 * against RFC 6298 worked by hand; the EV sets (net/mrt/ev.c): the round
 * robin's balance, each profile state's entry and exit, probes' backoff,
 * DENIED, REPS's reuse of clean EVs; the protocol engine
 * (net/mrt/engine.c): a sender and a receiver through a loss, a trim, a
 * timeout and retry exhaustion, with NSCC's flight kept exact.
 */
#include <stdlib.h>
#include <string.h>

#include <net/fabric/nscc.h>

#include "../../net/mrt/engine.h"
#include "../../net/mrt/ev.h"
#include "../../net/mrt/psn.h"
#include "../../net/mrt/wire.h"
#include "tap.h"

static u8 buf[8192];

static struct mrt_pkt data_pkt(u32 psn, u16 plen, u32 off, u32 mlen, u8 flags)
{
	struct mrt_pkt p = {
		.type = MRT_TYPE_DATA, .flags = flags,
		.spdcid = 0x1234, .dpdcid = 0x4321, .ev = 0xc001,
		.skey = 0xa1b2c3d4, .dkey = 0x5e6f7081,
	};

	p.data.psn = psn;
	p.data.src_ep = 7;
	p.data.dst_ep = 9;
	p.data.msg_id = 0xbeef;
	p.data.payload_len = plen;
	p.data.msg_offset = off;
	p.data.msg_len = mlen;
	return p;
}

/* An ACK, NACK or CTRL between PDCs 1 and 2 with keys. */
static struct mrt_pkt ctl_pkt(u8 type)
{
	return (struct mrt_pkt){ .type = type, .spdcid = 1, .dpdcid = 2,
				 .skey = 0x01020304, .dkey = 0x05060708 };
}

/* Build, then parse len bytes (header + present payload bytes). */
static int roundtrip(const struct mrt_pkt *in, unsigned int present,
		     struct mrt_pkt *out)
{
	unsigned int n = mrt_build(buf, in);

	memset(buf + n, 0xab, present);
	return mrt_parse(buf, n + present, out);
}

static void t_layout(void)
{
	struct mrt_pkt p = data_pkt(0x01020304, 1000, 4000, 9000,
				    MRT_DATA_F_AR | MRT_DATA_F_TRIMMABLE);
	static const u8 want[MRT_DATA_HDR_LEN] = {
		0x21, 0x22, 0x12, 0x34, 0x43, 0x21, 0xc0, 0x01,
		0xa1, 0xb2, 0xc3, 0xd4, 0x5e, 0x6f, 0x70, 0x81,
		0x01, 0x02, 0x03, 0x04, 0x00, 0x07, 0x00, 0x09,
		0xbe, 0xef, 0x03, 0xe8, 0x00, 0x00, 0x0f, 0xa0,
		0x00, 0x00, 0x23, 0x28, 0x00, 0x00, 0x00, 0x00,
	};

	TAP_EQ(mrt_build(buf, &p), 40, "DATA header is 40 bytes");
	tap_ok(!memcmp(buf, want, sizeof(want)),
	       "DATA header bytes: version 2, type 1, the keys, big-endian fields at their offsets");
	TAP_EQ(mrt_hdr_len(MRT_TYPE_ACK), 48, "ACK header is 48 bytes");
	TAP_EQ(mrt_hdr_len(MRT_TYPE_NACK), 32, "NACK header is 32 bytes");
	TAP_EQ(mrt_hdr_len(MRT_TYPE_CTRL), 24, "CTRL header is 24 bytes");
	TAP_EQ(mrt_hdr_len(9), 0, "no type 9");
	TAP_EQ(MRT_DATA_MIN_LEN, mrt_hdr_len(MRT_TYPE_ACK),
	       "the smallest data packet is an ACK's size: no answer is larger");
	TAP_EQ(mrt_data_pad(0), 8, "an empty payload is followed by 8 zeros");
	TAP_EQ(mrt_data_pad(7), 1, "7 bytes by one");
	TAP_EQ(mrt_data_pad(8), 0, "8 bytes by none");
}

static void t_roundtrip(void)
{
	struct mrt_pkt in, out;

	in = data_pkt(0xfffffffe, 1000, 1000, 3000,
		      MRT_DATA_F_RETX | MRT_DATA_F_SYN);
	in.dpdcid = 0;
	in.dkey = 0xc0c0c0c0;
	in.data.start_psn = 0xfffffff0;
	tap_ok(!roundtrip(&in, 1000, &out) && out.data.psn == 0xfffffffe &&
	       out.data.msg_offset == 1000 && out.data.msg_len == 3000 &&
	       out.data.start_psn == 0xfffffff0 && out.ev == 0xc001 &&
	       out.skey == 0xa1b2c3d4 && out.dkey == 0xc0c0c0c0 &&
	       out.flags == (MRT_DATA_F_RETX | MRT_DATA_F_SYN) &&
	       out.present == 1000 && !out.trimmed,
	       "DATA round trip (a SYN with its cookie in dkey)");

	in = ctl_pkt(MRT_TYPE_ACK);
	in.flags = MRT_ACK_F_ECN_ECHO;
	in.ev = 3;
	in.ack.cack_psn = 100;
	in.ack.ack_psn = 170;
	in.ack.sack_base_psn = 107;
	in.ack.sack_bitmap = 0x8000000000000001ULL;
	in.ack.rcvd_bytes = 0xabcdef;
	in.ack.ooo_count = 5;
	in.ack.rcv_cwnd_pen = 127;
	in.ack.mpr = 4;
	in.ack.service_time = 99;
	tap_ok(!roundtrip(&in, 0, &out) && out.ack.sack_bitmap == 0x8000000000000001ULL &&
	       out.ack.rcvd_bytes == 0xabcdef && out.ack.rcv_cwnd_pen == 127 &&
	       out.ack.ack_psn == 170 && out.ack.mpr == 4 && out.ack.service_time == 99 &&
	       out.skey == 0x01020304 && out.dkey == 0x05060708 &&
	       buf[28] == 0x80 && buf[35] == 0x01,
	       "ACK round trip; the bitmap is one big-endian u64 (bit 63 first on the wire)");
	/* the service time, written in as the ACK leaves (udp.c) */
	mrt_ack_set_service(buf, 0xbeef);
	tap_ok(!mrt_parse(buf, MRT_ACK_HDR_LEN, &out) && out.ack.service_time == 0xbeef &&
	       out.ack.ack_psn == 170 && out.ack.mpr == 4 && out.ack.rcv_cwnd_pen == 127 &&
	       out.ack.sack_bitmap == 0x8000000000000001ULL,
	       "an ACK's service time set in place: that field alone changes");

	in = ctl_pkt(MRT_TYPE_NACK);
	in.nack.nack_psn = 77;
	in.nack.nack_code = MRT_NACK_TRIMMED_LASTHOP;
	in.nack.rcvd_bytes = 12;
	tap_ok(!roundtrip(&in, 0, &out) && out.nack.nack_code == 0x02 &&
	       out.nack.nack_psn == 77 && out.nack.rcvd_bytes == 12,
	       "NACK round trip, UET's code 0x02 for TRIMMED_LASTHOP");

	in = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .dpdcid = 2, .dkey = 9 };
	in.nack.nack_code = MRT_NACK_COOKIE;
	in.nack.payload = 0xfeedf00d;
	tap_ok(!roundtrip(&in, 0, &out) && out.nack.payload == 0xfeedf00d &&
	       !out.spdcid && !out.skey && out.dkey == 9,
	       "a COOKIE NACK from no PDC: the cookie in its payload, the SYN's key echoed");

	in = ctl_pkt(MRT_TYPE_CTRL);
	in.ctrl.ctl_type = MRT_CTRL_PROBE;
	in.ctrl.opaque = 0x5555;
	tap_ok(!roundtrip(&in, 0, &out) && out.ctrl.opaque == 0x5555 &&
	       out.ctrl.ctl_type == MRT_CTRL_PROBE, "CTRL round trip");

	in = data_pkt(5, 0, 0, 0, MRT_DATA_F_SOM | MRT_DATA_F_EOM | MRT_DATA_F_SYN);
	in.dpdcid = 0;
	in.dkey = 0;
	memset(buf, 0xee, sizeof(buf));
	TAP_EQ(mrt_build(buf, &in), 40, "an empty message's header");
	TAP_EQ(mrt_parse(buf, 40 + 8, &out), -1 - MRT_BAD_RESERVED,
	       "the build leaves the padding to the caller: 0xee is not zeros");
	memset(buf + 40, 0, 8);
	tap_ok(!mrt_parse(buf, 48, &out) && out.present == 0,
	       "... padded with 8 zeros to the smallest data packet");
}

static void t_trimmed(void)
{
	struct mrt_pkt in = data_pkt(9, 4000, 0, 8000, MRT_DATA_F_SOM), out;

	tap_ok(!roundtrip(&in, 0, &out) && out.trimmed && out.present == 0,
	       "a payload cut to nothing is trimmed, not malformed (not short either)");
	tap_ok(!roundtrip(&in, 8, &out) && out.trimmed && out.present == 8,
	       "a payload cut to 8 bytes is trimmed, not malformed");
	tap_ok(!roundtrip(&in, 128, &out) && out.trimmed && out.present == 128,
	       "a payload cut to 128 bytes is trimmed");
	tap_ok(roundtrip(&in, 4001, &out) == -1 - MRT_BAD_LENGTH,
	       "more payload than announced is malformed (length)");
}

static int bad(const u8 *b, unsigned int len)
{
	struct mrt_pkt p;
	int err = mrt_parse(b, len, &p);

	return err ? (int)mrt_bad_reason(err) : -1;
}

static void t_malformed(void)
{
	struct mrt_pkt p = data_pkt(1, 100, 0, 100, MRT_DATA_F_SOM | MRT_DATA_F_EOM);
	unsigned int n;
	u8 b[256];

	n = mrt_build(b, &p);
	memset(b + n, 0, 100);
	TAP_EQ(bad(b, n + 100), -1, "the well-formed base case parses");
	TAP_EQ(bad(b, 0), MRT_BAD_SHORT, "0 bytes: short");
	TAP_EQ(bad(b, 15), MRT_BAD_SHORT, "15 bytes: short");
	TAP_EQ(bad(b, 39), MRT_BAD_SHORT, "39 bytes of DATA: short");
	TAP_EQ(bad(b, 47), -1, "47 bytes of a 100-byte payload: trimmed, not short");
	b[0] = 0x11;
	TAP_EQ(bad(b, n + 100), MRT_BAD_OLD_VERSION, "version 1: old_version");
	TAP_EQ(bad(b, 8), MRT_BAD_OLD_VERSION, "version 1, 8 bytes: old_version");
	b[0] = 0x31;
	TAP_EQ(bad(b, n + 100), MRT_BAD_VERSION, "version 3: version");
	b[0] = 0x27;
	TAP_EQ(bad(b, n + 100), MRT_BAD_TYPE, "type 7: type");
	b[0] = 0x21;
	b[1] = 0x80 | MRT_DATA_F_SOM | MRT_DATA_F_EOM;
	TAP_EQ(bad(b, n + 100), MRT_BAD_FLAGS, "an unknown flag: flags");
	b[1] = MRT_DATA_F_SOM | MRT_DATA_F_EOM;
	b[2] = 0;
	b[3] = 0;
	TAP_EQ(bad(b, n + 100), MRT_BAD_PDCID, "spdcid 0: pdcid");
	b[2] = 0x12;
	b[3] = 0x34;
	b[4] = 0;
	b[5] = 0;
	TAP_EQ(bad(b, n + 100), MRT_BAD_PDCID, "dpdcid 0 without SYN: pdcid");
	b[1] |= MRT_DATA_F_SYN;
	TAP_EQ(bad(b, n + 100), -1, "... with SYN it parses");
	b[4] = 0x43;
	TAP_EQ(bad(b, n + 100), MRT_BAD_PDCID, "a SYN that names a dpdcid: pdcid");
	b[1] &= ~MRT_DATA_F_SYN;
	b[5] = 0x21;
	memset(b + 8, 0, 4);
	TAP_EQ(bad(b, n + 100), MRT_BAD_KEY, "skey 0 with a PDC: key");
	b[8] = 0xa1;
	memset(b + 12, 0, 4);
	TAP_EQ(bad(b, n + 100), MRT_BAD_KEY, "dkey 0 without SYN: key");
	b[12] = 0x5e;
	TAP_EQ(bad(b, n + 100), -1, "(restored)");

	p = data_pkt(1, 100, 0, 100, MRT_DATA_F_SOM | MRT_DATA_F_EOM);
	p.data.start_psn = 1;
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_RESERVED, "start_psn without SYN: reserved");
	p.flags |= MRT_DATA_F_SYN;
	p.dpdcid = 0;
	p.data.psn = 16384;
	p.data.start_psn = 0;
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_WINDOW,
	       "a SYN 16384 PSNs past its start: window");
	p.data.psn = 16383 - 10;
	p.data.start_psn = (u32)-10;
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), -1, "a SYN 16383 PSNs past its start, across wrap, parses");

	p = data_pkt(1, 100, 950, 1000, 0);
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_OFFSET,
	       "offset 950 + 100 beyond a 1000-byte message: offset");
	p = data_pkt(1, 100, 0xffffff9c, 100, 0);
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_OFFSET, "an offset that wraps u32: offset");
	p = data_pkt(1, 100, 100, 1000, MRT_DATA_F_SOM);
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_BOUNDARY, "SOM at offset 100: boundary");
	p = data_pkt(1, 100, 0, 1000, MRT_DATA_F_EOM);
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 100), MRT_BAD_BOUNDARY, "EOM before the message's end: boundary");
	p = data_pkt(1, 0, 0, 0, MRT_DATA_F_SOM);
	n = mrt_build(b, &p);
	memset(b + n, 0, 8);
	TAP_EQ(bad(b, n + 8), MRT_BAD_BOUNDARY,
	       "an empty packet that is not a whole empty message: boundary");
	p = data_pkt(1, 3, 0, 3, MRT_DATA_F_SOM | MRT_DATA_F_EOM);
	n = mrt_build(b, &p);
	memset(b + n, 0, 8);
	TAP_EQ(bad(b, n + 8), -1, "3 bytes and 5 zeros parse");
	TAP_EQ(bad(b, n + 3), -1, "3 bytes without the padding (a switch cut it): taken");
	TAP_EQ(bad(b, n + 5), -1, "... with part of it");
	b[n + 7] = 1;
	TAP_EQ(bad(b, n + 8), MRT_BAD_RESERVED, "padding that is not zero: reserved");
	b[n + 7] = 0;
	TAP_EQ(bad(b, n + 9), MRT_BAD_LENGTH, "a byte past the padding: length");

	p = ctl_pkt(MRT_TYPE_ACK);
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n + 4), MRT_BAD_LENGTH, "an ACK with trailing bytes: length");
	b[42] = 128;
	TAP_EQ(bad(b, n), MRT_BAD_PENALTY, "rcv_cwnd_pen 128: penalty");
	b[42] = 0;
	b[43] = MRT_MPR_MAX + 1;
	TAP_EQ(bad(b, n), MRT_BAD_WINDOW, "mpr 9 (a window of 32768): window");
	b[43] = MRT_MPR_MAX;
	TAP_EQ(bad(b, n), -1, "mpr 8, a window of 16384, is the largest");
	b[43] = 0;
	b[36] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "rcvd_bytes above 24 bits: reserved");
	b[36] = 0;
	b[47] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "the ACK's reserved field: reserved");
	b[47] = 0;
	b[15] = 0;
	b[14] = 0;
	b[13] = 0;
	b[12] = 0;
	TAP_EQ(bad(b, n), MRT_BAD_KEY, "an ACK without dkey: key");
	b[12] = 5;
	b[4] = 0;
	b[5] = 0;
	TAP_EQ(bad(b, n), MRT_BAD_PDCID, "an ACK without dpdcid: pdcid");

	/* The stateless NACKs come from a node without the PDC: no spdcid
	 * or skey of their own, the dpdcid of the PDC they answer and its
	 * key.
	 */
	p = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .spdcid = 0, .dpdcid = 2, .dkey = 7 };
	p.nack.nack_code = MRT_NACK_INV_DPDCID;
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n), -1, "INV_DPDCID may come from no PDC (spdcid 0)");
	b[20] = MRT_NACK_NO_ENDPOINT;
	TAP_EQ(bad(b, n), -1, "so may NO_ENDPOINT");
	b[20] = MRT_NACK_NO_RESOURCE;
	TAP_EQ(bad(b, n), -1, "and NO_RESOURCE");
	b[20] = MRT_NACK_COOKIE;
	TAP_EQ(bad(b, n), -1, "and COOKIE");
	b[20] = MRT_NACK_TRIMMED;
	TAP_EQ(bad(b, n), MRT_BAD_PDCID, "another code without spdcid: pdcid");
	b[20] = MRT_NACK_INV_DPDCID;
	b[11] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_KEY, "an skey without an spdcid: key");
	b[11] = 0;
	b[5] = 0;
	TAP_EQ(bad(b, n), MRT_BAD_PDCID, "a NACK that answers no PDC (dpdcid 0): pdcid");
	b[3] = 1;
	b[5] = 2;
	TAP_EQ(bad(b, n), MRT_BAD_KEY, "an spdcid without an skey: key");
	b[11] = 1;
	b[20] = 0x33;
	TAP_EQ(bad(b, n), MRT_BAD_CODE, "NACK code 0x33: code");
	b[20] = MRT_NACK_TRIMMED;
	b[21] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "a vendor code: reserved");
	b[21] = 0;
	b[23] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "the NACK's reserved field: reserved");
	b[23] = 0;
	b[24] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "the NACK's rcvd_bytes above 24 bits: reserved");

	p = ctl_pkt(MRT_TYPE_CTRL);
	p.ctrl.ctl_type = 7;
	n = mrt_build(b, &p);
	TAP_EQ(bad(b, n), MRT_BAD_CODE, "CTRL type 7: code");
	b[16] = MRT_CTRL_PROBE;
	b[17] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_RESERVED, "CTRL ctl_flags: reserved");
	b[17] = 0;
	b[5] = 0;
	TAP_EQ(bad(b, n), MRT_BAD_PDCID, "a CTRL without dpdcid: pdcid");
	b[5] = 2;
	b[16] = MRT_CTRL_CLOSE;
	b[1] = 1;
	TAP_EQ(bad(b, n), MRT_BAD_FLAGS, "a CTRL with flags: flags");
	tap_ok(!strcmp(mrt_malformed_names[MRT_BAD_BOUNDARY], "boundary") &&
	       !strcmp(mrt_malformed_names[MRT_BAD_CODE], "code") &&
	       !strcmp(mrt_malformed_names[MRT_BAD_OLD_VERSION], "old_version") &&
	       !strcmp(mrt_malformed_names[MRT_BAD_KEY], "key"),
	       "reasons have names (the counters')");
}

/* Every single-bit flip of valid packets: ok or a reason in range, and
 * never a read past the packet (ASan; the prefixes: t_exact_prefix()).
 */
static void t_mutations(void)
{
	struct mrt_pkt in[3] = {
		data_pkt(1, 40, 0, 40, MRT_DATA_F_SOM | MRT_DATA_F_EOM),
		ctl_pkt(MRT_TYPE_ACK),
		ctl_pkt(MRT_TYPE_NACK),
	};
	unsigned int k, bit, n, ok = 1;
	struct mrt_pkt out;
	u8 b[96];
	int err;

	in[2].nack.nack_code = MRT_NACK_TRIMMED;
	for (k = 0; k < 3; k++) {
		n = mrt_build(b, &in[k]) + (k == 0 ? 40 : 0);
		for (bit = 0; bit < n * 8; bit++) {
			b[bit / 8] ^= 1 << (bit % 8);
			err = mrt_parse(b, n, &out);
			if (err && mrt_bad_reason(err) >= MRT_BAD_COUNT)
				ok = 0;
			b[bit / 8] ^= 1 << (bit % 8);
		}
	}
	tap_ok(ok, "bit flips of valid packets: ok or a known reason");
}

static void t_psn(void)
{
	tap_ok(mrt_psn_before(0xffffffff, 0), "0xffffffff is before 0 (wrap)");
	tap_ok(!mrt_psn_before(0, 0xffffffff), "0 is not before 0xffffffff");
	tap_ok(mrt_psn_after(5, 0xfffffff0), "5 is after 0xfffffff0");
	tap_ok(mrt_range_valid(64) && mrt_range_valid(16384) && !mrt_range_valid(96) &&
	       !mrt_range_valid(32) && !mrt_range_valid(32768),
	       "window sizes: powers of two, 64..16384");
}

static void t_rx(void)
{
	u64 bits[MRT_RANGE_MAX / 64];
	struct mrt_rx r;
	u64 map;
	u32 base;

	/* A window of 128 that starts 3 below the wrap. */
	mrt_rx_init(&r, 0xfffffffd, 128, bits);
	TAP_EQ(mrt_rx_accept(&r, 0xfffffffd, 1000), MRT_RX_NEW, "first PSN: new");
	TAP_EQ(r.cack, 0xfffffffe, "cack moves to the next");
	TAP_EQ(mrt_rx_accept(&r, 1, 1000), MRT_RX_NEW,
	       "PSN 1 (across the wrap, a hole at 0xfffffffe..0): new");
	TAP_EQ(r.cack, 0xfffffffe, "cack stays at the hole");
	TAP_EQ(r.ooo, 1, "one packet out of order");
	TAP_EQ(mrt_rx_accept(&r, 1, 1000), MRT_RX_DUP, "PSN 1 again: duplicate");
	TAP_EQ(r.rcvd_bytes, 2000, "a duplicate adds no bytes");
	mrt_rx_sack(&r, 1, &base, &map);
	tap_ok(base == 0xfffffffe && map == 1ULL << 3,
	       "SACK from cack: bit 3 is PSN 1 (base %#x map %#llx)", base,
	       (unsigned long long)map);
	TAP_EQ(mrt_rx_accept(&r, 0xfffffffe, 1000), MRT_RX_NEW, "the hole fills: 0xfffffffe");
	TAP_EQ(mrt_rx_accept(&r, 0xffffffff, 1000), MRT_RX_NEW, "0xffffffff");
	TAP_EQ(mrt_rx_accept(&r, 0, 1000), MRT_RX_NEW, "0");
	TAP_EQ(r.cack, 2, "cack passes the PSN that had already arrived: 2");
	TAP_EQ(mrt_rx_accept(&r, 0xffffffff, 1000), MRT_RX_OLD, "below cack: old");
	TAP_EQ(mrt_rx_accept(&r, 2 + 128, 1000), MRT_RX_OOR, "cack + range: out of the window");
	TAP_EQ(mrt_rx_accept(&r, 2 + 127, 1000), MRT_RX_NEW,
	       "cack + range - 1: the last accepted");
	tap_ok(!mrt_rx_has(&r, 2 + 128) && mrt_rx_has(&r, 2 + 127) && mrt_rx_has(&r, 0xfffffffd),
	       "has(): beyond no, the last yes, below cack yes");
	mrt_rx_sack(&r, 2 + 127, &base, &map);
	tap_ok(base == 2 + 127 - 63 && map == 1ULL << 63,
	       "SACK for a PSN far above cack: the 64 PSNs ending at it");
	TAP_EQ(r.highest, 2 + 128, "highest is one above the highest PSN received");
	TAP_EQ(r.rcvd_bytes, 6000, "first-time bytes, out of order included: 6000");
}

/* The SACK read from the ring's words is the one of mrt_rx_has() bit by
 * bit: random arrivals into windows of every size, across the wrap, for
 * every PSN an ACK may answer (below cack, at it, far above it).
 */
static void t_rx_sack_words(void)
{
	static u64 bits[MRT_RANGE_MAX / 64];
	u32 range, k, i, bad = 0, fast = 0, n = 0;
	struct mrt_rx r;

	srand(7);
	for (range = MRT_RANGE_MIN; range <= 1024; range *= 2) {
		for (k = 0; k < 20; k++) {
			u32 first = 0xffffffff - rand() % (2 * range);

			mrt_rx_init(&r, first, range, bits);
			for (i = 0; i < range * 2; i++)
				mrt_rx_accept(&r, r.cack + rand() % range, 1);
			for (i = 0; i < 200; i++) {
				u32 ack = r.cack - 70 + rand() % (range + 140);
				u32 base, want_base, j;
				u64 map, want = 0;

				mrt_rx_sack(&r, ack, &base, &map);
				want_base = !mrt_psn_before(ack, r.cack) &&
					    ack - r.cack >= MRT_SACK_BITS ?
					    ack - (MRT_SACK_BITS - 1) : r.cack;
				for (j = 0; j < MRT_SACK_BITS; j++)
					if (mrt_rx_has(&r, want_base + j))
						want |= 1ULL << j;
				bad += base != want_base || map != want;
				fast += map && map != ~0ULL;
				n++;
			}
		}
	}
	tap_ok(!bad && fast > n / 4,
	       "SACK from the ring's words = bit by bit: %u of %u differ (%u mixed maps)",
	       bad, n, fast);
}

/* peek() says what accept() would, and changes nothing: every verdict,
 * across the wrap.
 */
static void t_rx_peek(void)
{
	u64 bits[2], before[2];
	struct mrt_rx r, r0;
	u32 psn, base = 0xffffff00, ok = 1, seen = 0;
	unsigned int i;

	mrt_rx_init(&r, base, 128, bits);
	for (i = 0; i < 300; i += 3)
		mrt_rx_accept(&r, base + (i * 7) % 200, 1);
	for (i = 0; i < 1000; i++) {
		enum mrt_rx_verdict v;

		psn = base - 400 + i;
		r0 = r;
		memcpy(before, bits, sizeof(bits));
		v = mrt_rx_peek(&r, psn);
		ok &= !memcmp(&r, &r0, sizeof(r)) && !memcmp(before, bits, sizeof(bits));
		seen |= 1U << v;
		ok &= mrt_rx_accept(&r, psn, 1) == v;
		r = r0;
		memcpy(bits, before, sizeof(bits));
	}
	tap_ok(ok, "peek() says what accept() says and changes nothing");
	TAP_EQ(seen, (1U << MRT_RX_NEW) | (1U << MRT_RX_DUP) | (1U << MRT_RX_OLD) |
	       (1U << MRT_RX_OOR) | (1U << MRT_RX_STRAY), "every verdict came up");
}

/* The ring reuses its bits: a long in-order run with holes filled late. */
static void t_rx_ring(void)
{
	u64 bits[1];
	struct mrt_rx r;
	u32 i, ok = 1;

	mrt_rx_init(&r, 1000, 64, bits);
	for (i = 0; i < 10000; i += 2) {
		/* odd first, then even: every odd arrives out of order */
		ok &= mrt_rx_accept(&r, 1000 + i + 1, 1) == MRT_RX_NEW;
		ok &= mrt_rx_accept(&r, 1000 + i, 1) == MRT_RX_NEW;
		ok &= r.cack == 1000 + i + 2;
	}
	tap_ok(ok && bits[0] == 0 && r.ooo == 5000,
	       "10000 PSNs through a 64-PSN ring, pairs swapped: all new, ring empty after");
}

static u32 acked_list[256], acked_n;

static void note_acked(void *ctx, u32 psn)
{
	if (acked_n < 256)
		acked_list[acked_n++] = psn;
}

static bool note_lost(void *ctx, u32 psn, bool beyond)
{
	if (!beyond)
		return false;
	note_acked(ctx, psn);
	return true;
}

static u64 tx_acked[MRT_RANGE_MAX / 64], tx_lost[MRT_RANGE_MAX / 64];
static u32 tx_ref[MRT_RANGE_MAX];

static void t_tx(void)
{
	struct mrt_tx t;
	int i;

	mrt_tx_init(&t, 0xfffffff0, 64, tx_acked, tx_lost, tx_ref);
	for (i = 0; i < 64; i++)
		mrt_tx_next(&t);
	tap_ok(!mrt_tx_can_send(&t), "64 PSNs out in a 64-PSN window: no room");
	acked_n = 0;
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff0, 0xfffffff0, 0x6ULL, note_acked, NULL), 2,
	       "a SACK of the second and third PSN acknowledges 2");
	tap_ok(acked_n == 2 && acked_list[0] == 0xfffffff1 && acked_list[1] == 0xfffffff2 &&
	       t.una == 0xfffffff0, "those two, and una stays at the hole");
	acked_n = 0;
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff0, 0xfffffff0, 0x6ULL, note_acked, NULL), 0,
	       "the same SACK again acknowledges nothing");
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff1, 0xfffffff1, 0, note_acked, NULL), 1,
	       "cack past the hole acknowledges the hole only");
	TAP_EQ(t.una, 0xfffffff3, "una moves past what had been SACKed (across no wrap yet)");
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff0, 0xfffffff0, 0x7ULL, note_acked, NULL), 0,
	       "a stale ACK (cack behind una) is harmless");
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff0 + 65, 0, 0, note_acked, NULL), -1,
	       "cack beyond the PSNs sent: refused");
	acked_n = 0;
	TAP_EQ(mrt_tx_ack(&t, 0xfffffff3, 0xfffffff0 + 1, 1ULL << 63 | 1ULL << 10,
			  note_acked, NULL), 1,
	       "a SACK bit for a PSN never sent is dropped, the others applied");
	tap_ok(t.sack_unsent == 1 && acked_n == 1 && acked_list[0] == 0xfffffff0 + 11,
	       "and the ACK is counted in sack_unsent");
	TAP_EQ(t.una, 0xfffffff3, "una is where it was");
	acked_n = 0;
	TAP_EQ(mrt_tx_ack(&t, 0x10, 0x10, 0, note_acked, NULL), 28,
	       "cack 0x10 across the wrap acknowledges the 28 PSNs below it not SACKed");
	tap_ok(mrt_tx_can_send(&t) && t.una == 0x10 && mrt_tx_is_acked(&t, 0xffffffff) &&
	       !mrt_tx_is_acked(&t, 0x10), "room again; una 0x10; acked below, not at");
}

/* UET's SACK loss rule: presumed lost once a PSN more than the gap above
 * it is acknowledged; once per transmission.
 */
static void t_loss(void)
{
	struct mrt_tx t;
	u32 i;

	mrt_tx_init(&t, 0xfffffe00, 1024, tx_acked, tx_lost, tx_ref);
	for (i = 0; i < 700; i++)
		mrt_tx_next(&t);
	/* PSN una + 0 is missing; the receiver reports una + 1 .. una + 512,
	 * 64 at a time.
	 */
	for (i = 1; i < 513; i += 64)
		mrt_tx_ack(&t, 0xfffffe00, 0xfffffe00 + i, ~0ULL, note_acked, NULL);
	acked_n = 0;
	TAP_EQ(mrt_tx_detect_loss(&t, 512, note_lost, NULL), 0,
	       "the highest acknowledged is 512 above the hole: not more than the gap, not lost");
	mrt_tx_ack(&t, 0xfffffe00, 0xfffffe00 + 450, 1ULL << 63, note_acked, NULL);
	acked_n = 0;
	TAP_EQ(mrt_tx_detect_loss(&t, 512, note_lost, NULL), 1,
	       "513 above (across the wrap): presumed lost");
	tap_ok(acked_n == 1 && acked_list[0] == 0xfffffe00 && mrt_tx_is_lost(&t, 0xfffffe00),
	       "the hole, once");
	TAP_EQ(mrt_tx_detect_loss(&t, 512, note_lost, NULL), 0,
	       "not again for the same transmission");
	mrt_tx_resent(&t, 0xfffffe00);
	tap_ok(mrt_tx_is_lost(&t, 0xfffffe00),
	       "resent: still marked presumed lost (MRC: each packet is presumed lost this way at most once)");
	TAP_EQ(mrt_tx_detect_loss(&t, 512, note_lost, NULL), 0,
	       "old evidence does not presume the retransmission lost");
	/* 300 PSNs sent after the retransmission (its ref is the 700th PSN,
	 * 0xfffffe00 + 699); every PSN but the hole acknowledged: the
	 * newest 300 beyond ref, more than a gap of 128.
	 */
	for (i = 0; i < 300; i++)
		mrt_tx_next(&t);
	for (i = 514; i < 1000; i += 64)
		mrt_tx_ack(&t, 0xfffffe00, 0xfffffe00 + i,
			   i + 64 <= 1000 ? ~0ULL : (1ULL << (1000 - i)) - 1,
			   note_acked, NULL);
	acked_n = 0;
	TAP_EQ(mrt_tx_detect_loss(&t, 128, note_lost, NULL), 0,
	       "MRC, at most once: evidence 300 beyond the retransmission, more than a gap of 128, does not presume it lost again (the timer's)");
	TAP_EQ(mrt_tx_ack(&t, 0xfffffe01, 0xfffffe01, 0, note_acked, NULL), 1,
	       "the retransmission arrives after all: acknowledged");
	tap_ok(!mrt_tx_is_lost(&t, 0xfffffe00) && t.una != 0xfffffe00,
	       "then it is neither lost nor outstanding");
}

/* Every prefix of every type, from a heap buffer of exactly that length:
 * ASan sees any read past it.
 */
static void t_exact_prefix(void)
{
	struct mrt_pkt in[4] = {
		data_pkt(1, 40, 0, 40, MRT_DATA_F_SOM | MRT_DATA_F_EOM),
		ctl_pkt(MRT_TYPE_ACK),
		ctl_pkt(MRT_TYPE_NACK),
		ctl_pkt(MRT_TYPE_CTRL),
	};
	unsigned int k, len, n, min, ok = 1;
	struct mrt_pkt out;
	u8 b[96], *h;

	in[2].nack.nack_code = MRT_NACK_TRIMMED;
	in[3].ctrl.ctl_type = MRT_CTRL_PROBE;
	for (k = 0; k < 4; k++) {
		n = mrt_build(b, &in[k]) + (k == 0 ? 40 : 0);
		for (len = 0; len <= n; len++) {
			h = malloc(len ? len : 1);
			memcpy(h, b, len);
			/* short below the header, ok at and (DATA) above it */
			min = mrt_hdr_len(in[k].type);
			if (!mrt_parse(h, len, &out) != (len >= min &&
							 (k == 0 || len == n)))
				ok = 0;
			free(h);
		}
	}
	tap_ok(ok, "every prefix, from an exact heap buffer: short below the header, parsed at it");
}

static void t_tx_edges(void)
{
	struct mrt_tx t;
	u32 i;

	tap_ok(mrt_tx_init(&t, 0, 96, tx_acked, tx_lost, tx_ref) == -1 &&
	       mrt_tx_init(&t, 0, 32, tx_acked, tx_lost, tx_ref) == -1,
	       "a window that is not a power of two from 64, refused");
	mrt_tx_init(&t, 1000, 64, tx_acked, tx_lost, tx_ref);
	for (i = 0; i < 10; i++)
		mrt_tx_next(&t);
	acked_n = 0;
	TAP_EQ(mrt_tx_ack(&t, 1011, 1000, 0x3ULL, note_acked, NULL), -1,
	       "cack beyond the PSNs sent, with valid SACK bits: refused");
	tap_ok(acked_n == 0 && t.una == 1000 && t.sacked_high == 1000 && !tx_acked[0],
	       "and nothing of it applied");
	TAP_EQ(mrt_tx_ack(&t, 1010, 1010, 0, note_acked, NULL), 10,
	       "cack at nxt acknowledges all 10");
	tap_ok(!mrt_tx_resent(&t, 1005), "resending an acknowledged PSN: refused");

	/* ref exactness: a resend when nxt is 20 (ref 19), gap 3 */
	mrt_tx_init(&t, 0, 64, tx_acked, tx_lost, tx_ref);
	for (i = 0; i < 20; i++)
		mrt_tx_next(&t);
	tap_ok(mrt_tx_resent(&t, 0), "resend PSN 0 when 20 are out");
	for (i = 0; i < 5; i++)
		mrt_tx_next(&t);
	mrt_tx_ack(&t, 0, 1, (1ULL << 22) - 1, note_acked, NULL);	/* 1..22 */
	acked_n = 0;
	TAP_EQ(mrt_tx_detect_loss(&t, 3, note_lost, NULL), 0,
	       "acknowledged up to 22, 3 beyond ref 19: not more than the gap");
	mrt_tx_ack(&t, 0, 23, 1, note_acked, NULL);			/* 23 */
	TAP_EQ(mrt_tx_detect_loss(&t, 3, note_lost, NULL), 1,
	       "up to 23, 4 beyond ref 19: presumed lost");

	/* MRC: the gap is SACKLossMinRetxPkts whatever the window. */
	mrt_tx_init(&t, 0, 512, tx_acked, tx_lost, tx_ref);
	for (i = 0; i < 512; i++)
		mrt_tx_next(&t);
	for (i = 1; i < 512; i += 64)
		mrt_tx_ack(&t, 0, i, i + 64 <= 512 ? ~0ULL : (1ULL << (512 - i)) - 1,
			   note_acked, NULL);
	acked_n = 0;
	TAP_EQ(mrt_tx_detect_loss(&t, 512, note_lost, NULL), 0,
	       "MRC, SACK gap of more than 512: a window of 512 presumes no loss from a gap (the timer's)");
	TAP_EQ(mrt_tx_detect_loss(&t, 510, note_lost, NULL), 1,
	       "and a gap of 510 presumes the hole lost, 511 above it");
}

static void t_rx_edges(void)
{
	u64 bits[2];
	struct mrt_rx r;
	u64 map;
	u32 base;

	tap_ok(mrt_rx_init(&r, 0, 100, bits) == -1, "a window of 100: refused");
	mrt_rx_init(&r, 5000, 128, bits);
	TAP_EQ(mrt_rx_accept(&r, 5000 - 128, 1), MRT_RX_OLD, "a window's width below cack: old");
	TAP_EQ(mrt_rx_accept(&r, 5000 - 129, 1), MRT_RX_STRAY, "further below: stray, no answer");
	TAP_EQ(mrt_rx_accept(&r, 5000 + 63, 1), MRT_RX_NEW, "cack + 63");
	mrt_rx_sack(&r, 5000 + 63, &base, &map);
	tap_ok(base == 5000 && map == 1ULL << 63,
	       "answering cack + 63: the SACK starts at cack, bit 63");
	TAP_EQ(mrt_rx_accept(&r, 5000 + 64, 1), MRT_RX_NEW, "cack + 64");
	mrt_rx_sack(&r, 5000 + 64, &base, &map);
	tap_ok(base == 5001 && map == (1ULL << 63 | 1ULL << 62),
	       "answering cack + 64: the 64 PSNs ending at it");
	mrt_rx_sack(&r, 4000, &base, &map);
	tap_ok(base == 5000 && !(map & 1), "answering an old PSN: from cack, bit 0 clear");
	tap_ok(mrt_mpr_of(64) == 0 && mrt_mpr_of(1024) == 4 && mrt_mpr_of(16384) == MRT_MPR_MAX,
	       "mpr: 64 << mpr PSNs, 16384 is 8");
}

/*
 * A sender and a receiver over a channel that loses, reorders and
 * duplicates packets and ACKs, across the PSN wrap and many laps of a
 * 64-PSN ring: no PSN is acknowledged that did not arrive, none twice,
 * none presumed lost once acknowledged or twice for one transmission,
 * and every PSN is delivered in the end.
 */
struct model_pkt {
	u32 psn;
	bool ack;
	u32 cack, base;
	u64 map;
};

static struct {
	u8 got[1 << 16], acked[1 << 16], lost[1 << 16];
	u32 first;
	unsigned int bad;
} mdl;

static u32 mdl_idx(u32 psn)
{
	return (psn - mdl.first) & 0xffff;
}

static void mdl_acked(void *ctx, u32 psn)
{
	if (!mdl.got[mdl_idx(psn)] || mdl.acked[mdl_idx(psn)])
		mdl.bad++;
	mdl.acked[mdl_idx(psn)] = 1;
}

static bool mdl_lost(void *ctx, u32 psn, bool beyond)
{
	if (!beyond)
		return false;
	if (mdl.acked[mdl_idx(psn)] || mdl.lost[mdl_idx(psn)]++)
		mdl.bad++;
	return true;
}

static u32 mdl_oldest(const struct mrt_tx *tx)
{
	u32 i;

	for (i = tx->una; mrt_psn_before(i, tx->nxt); i++)
		if (!mrt_tx_is_acked(tx, i))
			break;
	return i;
}

/* One packet reaches its end: an ACK the sender, data the receiver,
 * which answers it (the ACK joins the channel).
 */
static void mdl_deliver(struct mrt_rx *rx, struct mrt_tx *tx,
			const struct model_pkt *m, struct model_pkt *q,
			unsigned int *qn)
{
	struct model_pkt a = { .ack = true };

	if (m->ack) {
		if (mrt_tx_ack(tx, m->cack, m->base, m->map, mdl_acked, NULL) < 0)
			mdl.bad++;
		mrt_tx_detect_loss(tx, 8, mdl_lost, NULL);
		return;
	}
	if (mrt_rx_accept(rx, m->psn, 1) == MRT_RX_OOR)
		return;
	if (mrt_rx_has(rx, m->psn))
		mdl.got[mdl_idx(m->psn)] = 1;
	if (*qn >= 512)
		return;
	/* a lazy but truthful cack, now and then */
	a.cack = rx->cack - (rand() % 4 ? 0 : rand() % 8);
	if (mrt_psn_before(a.cack, mdl.first))
		a.cack = mdl.first;
	mrt_rx_sack(rx, m->psn, &a.base, &a.map);
	q[(*qn)++] = a;
}

static void t_model(void)
{
	static struct model_pkt q[512];
	u64 rbits[1];
	struct mrt_rx rx;
	struct mrt_tx tx;
	unsigned int seed, step, qn, i, sent, total = 3000;

	for (seed = 1; seed <= 4; seed++) {
		memset(&mdl, 0, sizeof(mdl));
		srand(seed);
		mdl.first = 0xffffffff - 700;
		mrt_rx_init(&rx, mdl.first, 64, rbits);
		mrt_tx_init(&tx, mdl.first, 64, tx_acked, tx_lost, tx_ref);
		qn = 0;
		sent = 0;
		for (step = 0; step < 200000 && mrt_psn_before(tx.una, mdl.first + total);
		     step++) {
			int r = rand() % 100;

			if (r < 40 && mrt_tx_can_send(&tx) && sent < total && qn < 512) {
				q[qn++] = (struct model_pkt){ .psn = mrt_tx_next(&tx) };
				sent++;
			} else if (r < 50 && qn < 512) {
				/* resend the oldest outstanding, lost or not */
				i = mdl_oldest(&tx);
				if (mrt_psn_before(i, tx.nxt) && mrt_tx_resent(&tx, i)) {
					mdl.lost[mdl_idx(i)] = 0;
					q[qn++] = (struct model_pkt){ .psn = i };
				}
			} else if (qn) {
				/* deliver, drop (10 %) or duplicate (5 %) one */
				unsigned int k = rand() % qn;
				struct model_pkt m = q[k];

				if (rand() % 100 >= 5)
					q[k] = q[--qn];
				if (rand() % 100 < 10)
					continue;
				mdl_deliver(&rx, &tx, &m, q, &qn);
			}
		}
		if (mrt_psn_before(tx.una, mdl.first + total))
			mdl.bad++;
		/* each PSN sent was acknowledged, once (mdl_acked() counts twice) */
		for (i = 0; i < total; i++)
			if (!mdl.acked[i])
				mdl.bad++;
		if (!tap_ok(!mdl.bad,
			    "model, seed %u: 3000 PSNs, lossy reordering channel, 64-PSN ring, wrap",
			    seed))
			tap_diag("%u violations, una %#x of %#x", mdl.bad, tx.una,
				 mdl.first + total);
	}
}

static void t_rcvd_bytes(void)
{
	u32 f = nscc_rcvd_bytes_field((u64)NSCC_RCVD_BYTES_MASK << 8);

	TAP_EQ(nscc_rcvd_bytes_field(1), 1,
	       "1 byte reports one 256-byte unit (rounded up)");
	TAP_EQ(nscc_newly_rcvd(f, nscc_rcvd_bytes_field(((u64)NSCC_RCVD_BYTES_MASK << 8) + 512)),
	       512, "the 24-bit field wraps: 512 bytes newly received");
	TAP_EQ(nscc_newly_rcvd(100, 90), 0,
	       "a field behind the last (a reordered ACK) is stale: 0");
	TAP_EQ(nscc_newly_rcvd(100, 100), 0, "the same field: nothing new");
}

static void t_rto(void)
{
	struct mrt_rto r = { 0 };

	TAP_EQ(mrt_rto_us(&r, 200, 1000000, 100000), 100000, "no sample: the initial RTO");
	mrt_rto_sample(&r, 1000);
	/* srtt 1000, rttvar 500: rto = 1000 + 4 x 500 */
	TAP_EQ(mrt_rto_us(&r, 200, 1000000, 100000), 3000, "first sample 1000 us: 3000 us");
	mrt_rto_sample(&r, 2000);
	/* rttvar = 3/4 500 + 1/4 1000 = 625; srtt = 7/8 1000 + 1/8 2000 = 1125 */
	TAP_EQ(r.srtt8 >> 3, 1125, "srtt after 2000 us: 1125");
	TAP_EQ(r.rttvar4 >> 2, 625, "rttvar: 625");
	TAP_EQ(mrt_rto_us(&r, 200, 1000000, 100000), 1125 + 2500, "rto 3625 us");
	TAP_EQ(mrt_rto_us(&r, 5000, 1000000, 100000), 1125 + 5000,
	       "rto_min_us floors the variance term, as Linux's TCP: 1125 + 5000");
	TAP_EQ(mrt_rto_us(&r, 200, 3000, 100000), 3000, "clamped to rto_max_us");
	{
		struct mrt_rto a = { 0 }, b = { 0 };
		int k, same = 1;

		for (k = 0; k < 3; k++) {
			mrt_rto_sample(&a, 0xffffffff);
			mrt_rto_sample(&b, 1U << 27);
			same &= a.srtt8 == b.srtt8 && a.rttvar4 == b.rttvar4;
		}
		tap_ok(same && a.srtt8 >> 3 == 1U << 27,
		       "a sample of 2^32 - 1 us counts as the cap, 2^27 us, first and after");
	}
	{
		struct mrt_rto s = { 0 };
		int k;

		for (k = 0; k < 200; k++)
			mrt_rto_sample(&s, 1000);
		TAP_EQ(mrt_rto_us(&s, 200, 1000000, 1), 1000 + 200,
		       "200 steady samples: the variance term is floored at rto_min_us");
	}
}

/* EV sets */

static unsigned int ev_changes[4][4];
static unsigned int ev_last_why;

static void ev_note(void *ctx, unsigned int i, u8 from, u8 to, u8 why)
{
	ev_changes[from][to]++;
	ev_last_why = why;
}

static u8 ev_mem[MRT_EV_COUNT_MAX * (sizeof(struct mrt_ev) + sizeof(u16))];

static void ev_init(struct mrt_evset *s, u16 count, u8 policy)
{
	struct mrt_ev_params p = {
		.base = 50000, .count = count, .policy = policy, .bad_losses = 3,
		.skip_ecn = 1, .skip_trim = 4, .skip_max = 16,
		.probe_ns = 1000, .probe_max_ns = 16000,
	};

	memset(ev_changes, 0, sizeof(ev_changes));
	if (mrt_evset_init(s, &p, ev_mem, 7))
		abort();
	s->note = ev_note;
}

static void t_ev(void)
{
	struct mrt_ev_params bad = { .base = 65535, .count = 2 };
	unsigned int seen[16] = { 0 }, i, n, ok;
	struct mrt_evset s;
	u64 next;
	int e, last;

	tap_ok(mrt_evset_init(&s, &bad, ev_mem, 0) == -1,
	       "an EV set past port 65535 is refused");
	bad.base = 1;
	bad.count = 0;
	tap_ok(mrt_evset_init(&s, &bad, ev_mem, 0) == -1, "so is an empty one");
	bad.base = 0;
	bad.count = 1;
	tap_ok(mrt_evset_init(&s, &bad, ev_mem, 0) == -1, "and one from port 0");
	tap_ok(mrt_evset_bytes(16) == 16 * (sizeof(struct mrt_ev) + 2),
	       "mrt_evset_bytes: the EVs and the recycle queue");

	ev_init(&s, 16, MRT_EV_RR);
	for (n = 0, ok = 1, last = -1; n < 16 * 100; n++) {
		e = mrt_ev_pick(&s, -1);
		ok &= e >= 0 && e < 16 && e != last;
		seen[e]++;
		last = e;
	}
	for (i = 0; i < 16; i++)
		ok &= seen[i] == 100;
	tap_ok(ok, "round robin: 1600 picks, 100 on each of 16 EVs, never one twice in a row");
	tap_ok(mrt_ev_port(&s, 3) == 50003 && mrt_ev_index(&s, 50015) == 15 &&
	       mrt_ev_index(&s, 50016) == -1 && mrt_ev_index(&s, 49999) == -1,
	       "ports and indices: base + i, others none");
	for (n = 0, ok = 1; n < 200; n++)
		ok &= mrt_ev_pick(&s, 5) != 5;
	tap_ok(ok, "a retransmission avoids the EV the packet went on");

	/* SKIP: an ECN echo passes it over once, a trim four times */
	mrt_ev_ack(&s, 2, true);
	tap_ok(s.ev[2].state == MRT_EV_SKIP && s.ev[2].credit == 1 &&
	       ev_changes[MRT_EV_GOOD][MRT_EV_SKIP] == 1 && ev_last_why == MRT_EV_WHY_ECN,
	       "an ECN echo: GOOD -> SKIP with one credit, noted");
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < 16; n++)
		seen[mrt_ev_pick(&s, -1)]++;
	tap_ok(seen[2] == 0 && s.ev[2].state == MRT_EV_GOOD &&
	       ev_changes[MRT_EV_SKIP][MRT_EV_GOOD] == 1 && ev_last_why == MRT_EV_WHY_CREDIT,
	       "one round: passed over once, then GOOD (its credit spent)");
	for (n = 0; n < 16; n++)
		seen[mrt_ev_pick(&s, -1)]++;
	tap_ok(seen[2] == 1, "the next round it carries again");
	mrt_ev_trim(&s, 2);
	tap_ok(s.ev[2].state == MRT_EV_SKIP && s.ev[2].credit == 4 && s.ev[2].st.trims == 1 &&
	       s.ev[2].st.ecn == 1, "a trim NACK: SKIP with four credits");
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < 16 * 4; n++)
		seen[mrt_ev_pick(&s, -1)]++;
	tap_ok(seen[2] == 0 && s.ev[2].state == MRT_EV_GOOD,
	       "four rounds: passed over four times, carrying nothing, then GOOD");
	for (n = 0; n < 16; n++)
		seen[mrt_ev_pick(&s, -1)]++;
	tap_ok(seen[2] == 1, "then it carries again");
	for (n = 0; n < 30; n++)
		mrt_ev_trim(&s, 2);
	tap_ok(s.ev[2].credit == 16, "the credit stops at skip_max");
	for (n = 0; n < 16 * 16; n++)
		mrt_ev_pick(&s, -1);
	tap_ok(s.ev[2].state == MRT_EV_GOOD, "and drains all the same");

	/* a count that is no power of two, starting anywhere: every pass of
	 * count picks is a whole permutation
	 */
	for (e = 0, ok = 1; e < 2; e++) {
		struct mrt_ev_params q = { .base = 1000, .count = 7 };
		struct mrt_evset t;
		unsigned int c[7] = { 0 };

		if (mrt_evset_init(&t, &q, ev_mem, e ? 0xffffffffU : 0xfffffffaU))
			abort();
		for (n = 0; n < 7 * 50; n++)
			c[mrt_ev_pick(&t, -1)]++;
		for (i = 0; i < 7; i++)
			ok &= c[i] == 50;
	}
	tap_ok(ok, "7 EVs, seeds near 2^32: 350 picks, 50 on each");
	ev_init(&s, 16, MRT_EV_RR);

	/* ASSUMED_BAD: an RTO, or three losses in a row */
	mrt_ev_rto(&s, 4, 100);
	tap_ok(s.ev[4].state == MRT_EV_ASSUMED_BAD && s.usable == 15 &&
	       s.ev[4].probe_at == 1100, "an RTO: ASSUMED_BAD, a probe due 1000 ns later");
	mrt_ev_loss(&s, 6, 0);
	mrt_ev_loss(&s, 6, 0);
	mrt_ev_ack(&s, 6, false);
	mrt_ev_loss(&s, 6, 0);
	mrt_ev_loss(&s, 6, 0);
	tap_ok(s.ev[6].state == MRT_EV_GOOD && s.ev[6].st.losses == 4,
	       "losses with a clean answer between them: still GOOD");
	mrt_ev_loss(&s, 6, 200);
	tap_ok(s.ev[6].state == MRT_EV_ASSUMED_BAD && ev_last_why == MRT_EV_WHY_LOSSES,
	       "the third loss in a row: ASSUMED_BAD");
	for (n = 0, ok = 1; n < 1000; n++) {
		e = mrt_ev_pick(&s, -1);
		ok &= e != 4 && e != 6;
	}
	tap_ok(ok, "ASSUMED_BAD EVs carry no data");
	mrt_ev_ack(&s, 4, false);
	tap_ok(s.ev[4].state == MRT_EV_ASSUMED_BAD,
	       "a late ACK of data sent before does not restore it; only a probe does");

	/* probes: due in order, the wait doubling up to its cap */
	tap_ok(mrt_ev_probe_due(&s, 1099, &next) == -1 && next == 1100,
	       "no probe before it is due; the next at 1100");
	tap_ok(mrt_ev_probe_due(&s, 1100, &next) == 4 && s.ev[4].probe_at == 3100 &&
	       next == 1200, "EV 4's probe at 1100, its next 2000 ns later; EV 6's at 1200");
	tap_ok(mrt_ev_probe_due(&s, 3100, &next) == 6,
	       "the other due probe first (one per call)");
	tap_ok(mrt_ev_probe_due(&s, 3100, &next) == 4 && s.ev[4].probe_at == 7100,
	       "then EV 4's again, after 4000 ns");
	tap_ok(!mrt_ev_probe_ack(&s, 6, 3100 + 1, 3500) && s.ev[6].state == MRT_EV_GOOD,
	       "an answer that echoes another stamp: GOOD again, but no RTT sample");
	for (n = 0; n < 10; n++)
		mrt_ev_probe_due(&s, s.ev[4].probe_at, &next);
	{
		u64 before = s.ev[4].probe_at;

		tap_ok(mrt_ev_probe_due(&s, before, &next) == 4 &&
		       s.ev[4].probe_at - before == 16000 && next == s.ev[4].probe_at &&
		       s.ev[4].st.probes == 13,
		       "after a dozen probes the wait stays at probe_max_ns; next is reported");
	}
	{
		u64 sent = s.ev[4].probe_sent;

		tap_ok(mrt_ev_probe_ack(&s, 4, (u32)sent, sent + 777) == 777 &&
		       s.ev[4].state == MRT_EV_GOOD && s.usable == 16 &&
		       ev_last_why == MRT_EV_WHY_PROBE,
		       "a probe answered: GOOD again, the RTT from its own send time (MRC: probe answers are samples)");
		tap_ok(!mrt_ev_probe_ack(&s, 4, (u32)sent, sent + 900),
		       "a second answer to it: no sample (no probe outstanding)");
	}

	/* DENIED */
	mrt_ev_deny(&s, 9);
	mrt_ev_probe_ack(&s, 9, 0, 1);
	mrt_ev_ack(&s, 9, false);
	tap_ok(s.ev[9].state == MRT_EV_DENIED && mrt_ev_probe_due(&s, ~0ULL >> 1, &next) != 9,
	       "DENIED: no probe, and neither an answer nor a probe's undoes it");
	mrt_ev_rto(&s, 9, 0);
	mrt_ev_trim(&s, 9);
	tap_ok(s.ev[9].state == MRT_EV_DENIED, "nor does an RTO or a trim move it");
	for (n = 0, ok = 1; n < 1000; n++)
		ok &= mrt_ev_pick(&s, -1) != 9;
	tap_ok(ok, "DENIED EVs carry nothing");
	tap_ok(mrt_ev_allow(&s, 9) == 0 && s.ev[9].state == MRT_EV_GOOD &&
	       mrt_ev_allow(&s, 9) == -1, "allow: GOOD again; allowing a GOOD EV is refused");

	/* every EV unusable: nothing to send on */
	ev_init(&s, 3, MRT_EV_RR);
	mrt_ev_rto(&s, 0, 0);
	mrt_ev_deny(&s, 1);
	tap_ok(mrt_ev_pick(&s, 2) == 2, "one usable EV left: taken even when to be avoided");
	mrt_ev_loss(&s, 2, 0);
	mrt_ev_loss(&s, 2, 0);
	mrt_ev_loss(&s, 2, 0);
	s.ev[2].probe_at = 500;
	tap_ok(s.usable == 0 && mrt_ev_pick(&s, -1) == 2 && s.ev[2].state == MRT_EV_ASSUMED_BAD,
	       "every EV ASSUMED_BAD or DENIED: the most overdue bad one carries, as its probe");
	mrt_ev_deny(&s, 0);
	mrt_ev_deny(&s, 2);
	tap_ok(mrt_ev_pick(&s, -1) == -1, "every EV DENIED: none to pick");
	ev_init(&s, 3, MRT_EV_RR);
	mrt_ev_trim(&s, 0);
	mrt_ev_trim(&s, 1);
	mrt_ev_trim(&s, 2);
	tap_ok(mrt_ev_pick(&s, -1) >= 0, "every EV in SKIP: one is still picked");

	/* REPS: clean answers are reused in their order */
	ev_init(&s, 8, MRT_EV_REPS);
	mrt_ev_ack(&s, 5, false);
	mrt_ev_ack(&s, 3, false);
	mrt_ev_ack(&s, 5, false);
	mrt_ev_ack(&s, 6, true);
	e = mrt_ev_pick(&s, -1);
	n = mrt_ev_pick(&s, -1);
	tap_ok(e == 5 && n == 3, "REPS: the EVs of clean answers, oldest first, once each");
	for (n = 0, ok = 1; n < 8; n++)	/* a pass: each EV visited once */
		ok &= mrt_ev_pick(&s, -1) != 6;
	tap_ok(ok && s.q_len == 0 && s.ev[6].state == MRT_EV_GOOD,
	       "then the round robin: a pass of the others, past the EV that echoed ECN");
	mrt_ev_ack(&s, 1, false);
	mrt_ev_rto(&s, 1, 0);
	e = mrt_ev_pick(&s, -1);
	tap_ok(e != 1, "a recycled EV that has gone bad since is not reused");
	for (i = 0, n = 0; i < 8; i++)
		n += s.ev[i].st.pkts;
	tap_ok(n == 11, "every pick counted on its EV");
}

/* The engine: a PDC's sender and receiver, hand-driven. */
static struct {
	u32 acked[64];
	unsigned int nacked, sack_lost, blocked, locks, cc_calls;
	unsigned int seen, seen_cc, locked_after, timed_out;
	u32 resent_psn;
	u8 resent_cause, resent_tx;
	bool locked;
} eng;

static void eng_lock(void *ctx)
{
	if (eng.locked)
		abort();	/* the engine never nests the lock */
	eng.locked = true;
	eng.locks++;
}

static void eng_unlock(void *ctx)
{
	eng.locked = false;
}

static void eng_acked(void *ctx, u32 psn)
{
	if (eng.nacked < 64)
		eng.acked[eng.nacked] = psn;
	eng.nacked++;
}

static void eng_cc(void *ctx, enum nscc_routine r)
{
	if (!eng.locked)
		abort();	/* NSCC is the destination's: under its lock */
	eng.cc_calls++;
}

static void eng_sack_lost(void *ctx, u32 psn)
{
	eng.sack_lost++;
}

static void eng_blocked(void *ctx)
{
	if (!eng.locked)
		abort();
	eng.blocked++;
}

/* The hooks, and where they come: before NSCC sees an ACK, under the
 * lock after it has.
 */
static void eng_ack_seen(void *ctx, const struct mrt_pkt *p,
			 const struct mrt_snd_ack_res *res)
{
	eng.seen++;
	eng.seen_cc = eng.cc_calls;
}

static void eng_ack_locked(void *ctx, const struct mrt_pkt *p,
			   const struct mrt_snd_ack_res *res)
{
	if (!eng.locked)
		abort();
	eng.locked_after = eng.cc_calls;
}

static void eng_timed_out(void *ctx, unsigned int expired, u32 rto_us)
{
	eng.timed_out += expired;
}

static void eng_resent(void *ctx, u32 psn, u8 cause, u8 tx_count)
{
	eng.resent_psn = psn;
	eng.resent_cause = cause;
	eng.resent_tx = tx_count;
}

static const struct mrt_snd_ops eng_ops = {
	.lock = eng_lock, .unlock = eng_unlock, .acked = eng_acked,
	.cc = eng_cc, .sack_lost = eng_sack_lost, .blocked = eng_blocked,
	.ack_seen = eng_ack_seen, .ack_locked = eng_ack_locked,
	.timed_out = eng_timed_out, .resent = eng_resent,
};

static struct mrt_slot eng_slots[64];
static u32 eng_rtxq[64], eng_ref[64];
static u64 eng_acked_bits[1], eng_lost_bits[1], eng_rx_bits[1];

/* mrt_snd_push()'s transmitting side: queued packets of the test's
 * size.
 */
static struct {
	unsigned int queued, sent, asked;
	u32 last_psn, asked_psn;
	u64 armed;
} pushx;

static u32 push_next(void *x)
{
	return pushx.queued ? 4096 : 0;
}

static bool push_xmit(void *x, const struct mrt_snd_tx *tx)
{
	pushx.queued--;
	pushx.sent++;
	pushx.last_psn = tx->psn;
	if (tx->ar) {
		pushx.asked++;
		pushx.asked_psn = tx->psn;
	}
	return true;
}

static void push_arm(void *x, u64 at)
{
	if (!pushx.armed || at < pushx.armed)
		pushx.armed = at;
}

static const struct mrt_snd_xmit_ops push_xops = {
	.next_bytes = push_next, .xmit = push_xmit, .arm = push_arm,
};

/* The ACK the receiver sends for data packet psn, as the sender gets it. */
static struct mrt_pkt eng_ack_of(struct mrt_rx *rx, u32 psn, u16 ev, bool retx)
{
	struct mrt_pkt d = data_pkt(psn, 4096, 0, 1 << 20,
				    retx ? MRT_DATA_F_RETX : 0);
	struct mrt_pkt a = { .ev = ev };

	mrt_rx_ack_fill(rx, &d, false, 0, false, 0, &a);
	return a;
}

static void t_engine(void)
{
	const struct mrt_snd_cfg cfg = {
		.rto_min_us = 100, .rto_max_us = 10000, .retry_budget = 1,
		.sack_loss_min_retx_pkts = 2,
	};
	const u32 bytes = 4096;	/* a multiple of the 256-byte clock */
	struct nscc_params np;
	struct mrt_evset evs;
	struct mrt_snd_dest d;
	struct mrt_snd snd;
	struct mrt_rx rx;
	struct mrt_snd_tx tx[8];
	struct mrt_snd_ack_res res;
	struct mrt_snd_timer_res tr;
	static struct nscc cc;
	struct mrt_pkt a, n;
	u64 now = 1000000;
	u16 evs_used = 0;
	bool ok = true;
	int i;

	nscc_params_init(&np, NSCC_FLAVOUR_UET);
	nscc_init(&cc, &np, bytes, 0);
	ev_init(&evs, 4, MRT_EV_RR);
	d.cc = &cc;
	d.evs = &evs;
	memset(&eng, 0, sizeof(eng));
	tap_ok(mrt_snd_init(&snd, 0xfffffffe, 96, eng_slots, eng_rtxq, eng_acked_bits,
			    eng_lost_bits, eng_ref) == -1 &&
	       !mrt_snd_init(&snd, 0xfffffffe, 64, eng_slots, eng_rtxq, eng_acked_bits,
			     eng_lost_bits, eng_ref) &&
	       !mrt_rx_init(&rx, 0xfffffffe, 64, eng_rx_bits),
	       "engine: a window of 96 is refused, of 64 taken (PSNs from 0xfffffffe)");
	tap_ok(mrt_snd_pick(&snd, &d, now, false, 0, &cfg, &eng_ops, NULL, &tx[0]) ==
	       MRT_SND_NONE, "nothing queued: nothing to send");

	/* four packets, across PSN wrap, each on the EV the round robin gives */
	for (i = 0; i < 4; i++) {
		ok &= mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL,
				   &tx[i]) == MRT_SND_SEND &&
		      tx[i].psn == 0xfffffffe + i && !tx[i].retx;
		mrt_snd_sent(&snd, &d, &tx[i], now, bytes, i == 0, &cfg, &eng_ops, NULL);
		evs_used |= 1 << tx[i].ev;
	}
	tap_ok(ok && evs_used == 0xf && cc.inflight == 4 * bytes &&
	       (mrt_snd_slot(&snd, 0xfffffffe)->flags & MRT_SLOT_SYN) &&
	       !(mrt_snd_slot(&snd, 0xffffffff)->flags & MRT_SLOT_SYN),
	       "four sent on four EVs, 4 x nominal in NSCC's flight, the first a SYN's");

	/* 0xfffffffe and 0 arrive, 0xffffffff is trimmed, 1 is lost */
	mrt_rx_accept(&rx, 0xfffffffe, bytes);
	now += 10000;
	a = eng_ack_of(&rx, 0xfffffffe, mrt_ev_port(&evs, tx[0].ev), false);
	tap_ok(!mrt_snd_ack(&snd, &d, &a, now, &cfg, &eng_ops, NULL, &res) &&
	       eng.nacked == 1 && eng.acked[0] == 0xfffffffe && res.newly &&
	       res.rtt_ns == 10000 && snd.rto.srtt8 && cc.inflight == 3 * bytes,
	       "ACK of the first: acknowledged, a 10 us RTT sample, its bytes out of flight");
	tap_ok(cc.st.rtt_samples == 0 && res.cc_rtt_ns == NSCC_NO_RTT,
	       "the SYN packet's RTT feeds the RTO but not NSCC (nor the records)");
	mrt_rx_accept(&rx, 0, bytes);
	now += 10000;
	a = eng_ack_of(&rx, 0, mrt_ev_port(&evs, tx[2].ev), false);
	tap_ok(!mrt_snd_ack(&snd, &d, &a, now, &cfg, &eng_ops, NULL, &res) &&
	       eng.nacked == 2 && eng.acked[1] == 0 && res.rtt_ns == 20000 &&
	       res.cc_rtt_ns == 20000 &&
	       cc.st.rtt_samples == 1 && snd.tx.una == 0xffffffff && !eng.sack_lost,
	       "SACK of PSN 0 over the hole: acknowledged, no loss yet (gap 2)");

	n = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .ev = mrt_ev_port(&evs, tx[1].ev) };
	n.nack.nack_psn = 0xffffffff;
	n.nack.nack_code = MRT_NACK_TRIMMED;
	n.nack.rcvd_bytes = nscc_rcvd_bytes_field(rx.rcvd_bytes);
	tap_ok(mrt_snd_nack(&snd, &d, &n, now, &cfg, &eng_ops, NULL) == MRT_SND_NACK_RETX &&
	       snd.rtxq_len == 1 && cc.st.trims == 1 && cc.inflight == bytes &&
	       evs.ev[tx[1].ev].state == MRT_EV_SKIP,
	       "trim NACK: queued again, NSCC's trim, the bytes out of flight, its EV SKIPs");
	tap_ok(mrt_snd_nack(&snd, &d, &n, now, &cfg, &eng_ops, NULL) == MRT_SND_NACK_OLD,
	       "the same NACK again: its transmission is no longer in flight");
	n.nack.nack_psn = 0xfffffffe;
	tap_ok(mrt_snd_nack(&snd, &d, &n, now, &cfg, &eng_ops, NULL) == MRT_SND_NACK_STALE,
	       "a NACK of an acknowledged PSN: stale");

	ok = mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[4]) ==
	     MRT_SND_SEND && tx[4].retx && tx[4].psn == 0xffffffff && tx[4].ev != tx[1].ev;
	mrt_snd_sent(&snd, &d, &tx[4], now, bytes, false, &cfg, &eng_ops, NULL);
	tap_ok(ok && !snd.rtxq_len && mrt_snd_slot(&snd, 0xffffffff)->tx_count == 2 &&
	       cc.inflight == 2 * bytes && eng.resent_psn == 0xffffffff &&
	       eng.resent_cause == MRT_RTX_TRIM && eng.resent_tx == 2,
	       "the retransmission goes first, on another EV, back in flight (hook: trim, 2nd)");
	tap_ok(eng.seen == 2 && eng.seen_cc < eng.locked_after,
	       "each ACK is shown before NSCC sees it and again, locked, after");

	/* its ACK echoes RETX: acknowledged, and 1 is now presumed lost */
	mrt_rx_accept(&rx, 0xffffffff, bytes);
	now += 5000;
	a = eng_ack_of(&rx, 0xffffffff, mrt_ev_port(&evs, tx[4].ev), true);
	tap_ok(!mrt_snd_ack(&snd, &d, &a, now, &cfg, &eng_ops, NULL, &res) &&
	       eng.nacked == 3 && res.rtt_ns == 5000 && snd.tx.una == 1 &&
	       !eng.sack_lost && cc.inflight == bytes,
	       "ACK of the retransmission (RETX echoed, sent twice): an RTT sample, una at 1");

	/* nothing more: PSN 1's timer expires; peer known, so its EV is bad */
	now += (u64)mrt_snd_rto_us(&snd, &cfg) * 1000 + 1;
	mrt_snd_timer(&snd, &d, now, true, &cfg, &eng_ops, NULL, &tr);
	tap_ok(tr.expired == 1 && eng.timed_out == 1 && snd.rtxq_len == 1 && cc.inflight == 0 &&
	       evs.ev[tx[3].ev].state == MRT_EV_ASSUMED_BAD && tr.next == U64_MAX,
	       "PSN 1 times out: queued, out of flight, its EV ASSUMED_BAD");
	ok = mrt_snd_pick(&snd, &d, now, false, 0, &cfg, &eng_ops, NULL, &tx[5]) ==
	     MRT_SND_SEND && tx[5].retx && tx[5].psn == 1;
	mrt_snd_sent(&snd, &d, &tx[5], now, 0, false, &cfg, &eng_ops, NULL);
	now += (u64)cfg.rto_max_us * 1000 + 1;
	mrt_snd_timer(&snd, &d, now, true, &cfg, &eng_ops, NULL, &tr);
	tap_ok(ok && tr.expired == 1 &&
	       mrt_snd_pick(&snd, &d, now, false, 0, &cfg, &eng_ops, NULL, &tx[6]) ==
	       MRT_SND_EXHAUSTED,
	       "a second timeout spends retry_budget 1: exhausted");
	tap_ok(mrt_snd_release(&snd) == 0 && !mrt_snd_idle(&snd),
	       "released: nothing left in flight (PSN 1 still unacknowledged)");

	/* NSCC's window closed: blocked, on the destination, under its lock */
	cc.inflight = cc.cwnd;
	eng.blocked = 0;
	tap_ok(mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[7]) ==
	       MRT_SND_BLOCKED && eng.blocked == 1 && !eng.locked && !snd.rtxq_len,
	       "after release the queued retransmission is gone; a full NSCC window blocks");

	/* a SACK gap: PSNs 0..3 sent, 2 and 3 arrive; 0 is more than 2 (the
	 * gap) below the highest acknowledged, so presumed lost; 1 not yet
	 */
	for (i = 0; i < 2; i++) {
		bool mrc = i == 1;
		int j;

		nscc_params_init(&np, mrc ? NSCC_FLAVOUR_MRC : NSCC_FLAVOUR_UET);
		nscc_init(&cc, &np, bytes, 0);
		ev_init(&evs, 4, MRT_EV_RR);
		memset(&eng, 0, sizeof(eng));
		memset(eng_slots, 0, sizeof(eng_slots));
		mrt_snd_init(&snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits,
			     eng_ref);
		mrt_rx_init(&rx, 0, 64, eng_rx_bits);
		for (j = 0; j < 4; j++) {
			mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[j]);
			mrt_snd_sent(&snd, &d, &tx[j], now, bytes, false, &cfg, &eng_ops, NULL);
		}
		mrt_rx_accept(&rx, 2, bytes);
		mrt_rx_accept(&rx, 3, bytes);
		a = eng_ack_of(&rx, 3, mrt_ev_port(&evs, tx[3].ev), false);
		ok = !mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg, &eng_ops, NULL, &res) &&
		     eng.nacked == 2 && eng.sack_lost == 1 && snd.rtxq_len == 1 &&
		     snd.rtxq[0] == 0 && evs.ev[tx[0].ev].st.losses == 1;
		if (mrc)
			tap_ok(ok && cc.inflight == bytes && cc.st.losses == 1,
			       "MRC, SACK gap: PSN 0 presumed lost (queued, its EV charged), a loss to NSCC: its bytes leave the flight, PSN 1's stay");
		else
			tap_ok(ok && cc.inflight == 2 * bytes && cc.st.losses == 0,
			       "UET, a SACK gap is not a loss signal and does not change the window: PSN 0 goes again, its bytes stay in flight");
		/* it goes again; in the uet flavour its bytes are counted
		 * once, and the ACK of the retransmission takes them out
		 */
		ok = mrt_snd_pick(&snd, &d, now, false, 0, &cfg, &eng_ops, NULL, &tx[4]) ==
		     MRT_SND_SEND && tx[4].retx && tx[4].psn == 0 && tx[4].ar;
		mrt_snd_sent(&snd, &d, &tx[4], now + 2000, bytes, false, &cfg, &eng_ops, NULL);
		ok &= cc.inflight == 2 * bytes && eng.resent_cause == MRT_RTX_SACK;
		mrt_rx_accept(&rx, 0, bytes);
		a = eng_ack_of(&rx, 0, mrt_ev_port(&evs, tx[4].ev), true);
		ok &= !mrt_snd_ack(&snd, &d, &a, now + 3000, &cfg, &eng_ops, NULL, &res) &&
		      cc.inflight == bytes && snd.tx.una == 1;
		if (mrc)
			tap_ok(ok,
			       "MRC: the retransmission asks for an ACK, its bytes rejoin the flight and its ACK takes them out");
		else
			tap_ok(ok,
			       "UET: the retransmission asks for an ACK, its bytes counted once, its ACK takes them out");
	}
	nscc_params_init(&np, NSCC_FLAVOUR_UET);

	/* a push: packets until NSCC's window is full, the last asking for
	 * an ACK; the timer armed for the first deadline
	 */
	nscc_init(&cc, &np, bytes, 0);
	memset(eng_slots, 0, sizeof(eng_slots));
	mrt_snd_init(&snd, 100, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	memset(&pushx, 0, sizeof(pushx));
	pushx.queued = 1000;
	cc.inflight = cc.cwnd - 3 * bytes;
	tap_ok(mrt_snd_push(&snd, &d, now, true, &cfg, &eng_ops, NULL, &push_xops, &pushx) ==
	       MRT_SND_NONE && pushx.sent == 3 && pushx.asked == 1 && pushx.last_psn == 102 &&
	       pushx.asked_psn == 102 && pushx.armed == now + 4 * cfg.rto_min_us * 1000ULL,
	       "MRC, ACK request: a push fills NSCC's window, and only the packet that leaves less than one nominal packet of room asks");
	cc.inflight = 0;
	pushx.asked = 0;
	pushx.queued = 2;
	tap_ok(mrt_snd_push(&snd, &d, now, false, &cfg, &eng_ops, NULL, &push_xops, &pushx) ==
	       MRT_SND_NONE && pushx.sent == 5 && !pushx.asked,
	       "the queue runs dry before the window: no ACK request");

	/* the receiver's ACK decisions and its restore flag */
	a = data_pkt(5, 100, 0, 100, 0);
	tap_ok(!mrt_rx_ack_at_once(&a, false) && mrt_rx_ack_at_once(&a, true),
	       "a plain packet waits for ack_every_pkts, a CE one is ACKed at once");
	a.flags = MRT_DATA_F_EOM;
	tap_ok(mrt_rx_ack_at_once(&a, false), "the end of a message is ACKed at once");
	mrt_rx_ack_fill(&rx, &a, true, 40, true, 1000, &n);
	ok = n.ack.rcv_cwnd_pen == 40 && (n.flags & MRT_ACK_F_ECN_ECHO) &&
	     (n.flags & MRT_ACK_F_RESTORE_CWND) && n.ack.service_time == 15;
	mrt_rx_ack_fill(&rx, &a, false, 0, true, 0, &n);
	ok &= (n.flags & MRT_ACK_F_RESTORE_CWND) && !n.ack.service_time;
	mrt_rx_ack_fill(&rx, &a, false, 0, true, 0, &n);
	tap_ok(ok && (n.flags & MRT_ACK_F_RESTORE_CWND) && n.ack.cack_psn == rx.cack &&
	       n.ack.mpr == 0 && n.type == MRT_TYPE_ACK,
	       "UET: each ACK carries the penalty and the receiver's RestoreCWindEnable (with a penalty, at 0, and again)");
	mrt_rx_ack_fill(&rx, &a, false, 0, false, 1ULL << 40, &n);
	tap_ok(!(n.flags & MRT_ACK_F_RESTORE_CWND) && n.ack.service_time == U16_MAX,
	       "MRC: the service time is the receiver's hold in 64 ns units (1000 ns: 15; saturating); without restore_cwind_enable no flag");
}

/* A fresh sender and receiver (PSNs from 0, a window of 64) on a fresh
 * NSCC of np, the hooks' record cleared, and n packets of 4096 nominal
 * bytes sent at now (tx[0..n-1]).
 */
static void eng_fresh(struct nscc *cc, const struct nscc_params *np, struct mrt_snd *snd,
		      struct mrt_rx *rx, const struct mrt_snd_dest *d, u64 now,
		      unsigned int n, const struct mrt_snd_cfg *cfg, struct mrt_snd_tx *tx)
{
	unsigned int i;

	nscc_init(cc, np, 4096, 0);
	memset(&eng, 0, sizeof(eng));
	memset(eng_slots, 0, sizeof(eng_slots));
	mrt_snd_init(snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	mrt_rx_init(rx, 0, 64, eng_rx_bits);
	for (i = 0; i < n; i++) {
		mrt_snd_pick(snd, d, now, true, 4096, cfg, &eng_ops, NULL, &tx[i]);
		mrt_snd_sent(snd, d, &tx[i], now, 4096, false, cfg, &eng_ops, NULL);
	}
}

/* Batches (issue 36): consecutive new packets on one EV, each batch its
 * EV's share of the window (the window over the usable EVs) within
 * tx_batch_max_pkts; a retransmission or a change of the EV's state ends
 * one; 0 or 1 turns them off.
 */
/* One packet, new or the queued retransmission, on EV ev at t. */
static void rack_send(struct mrt_snd *snd, const struct mrt_snd_dest *d,
		      const struct mrt_snd_cfg *cfg, u16 ev, u64 t)
{
	struct mrt_snd_tx tx;

	if (mrt_snd_pick(snd, d, t, 1, 4096, cfg, &eng_ops, NULL, &tx) != MRT_SND_SEND)
		abort();
	tx.ev = ev;
	tx.batch = false;
	tx.batch_pkts = 1;
	mrt_snd_sent(snd, d, &tx, t, 4096, false, cfg, &eng_ops, NULL);
}

/* A new sending PDC from PSN 0 with its RACK state for 2 EVs, and its
 * receiver.
 */
static void rack_pdc(struct mrt_snd *snd, struct mrt_ev_rack *rack, struct mrt_rx *rx)
{
	memset(eng_slots, 0, sizeof(eng_slots));
	memset(rack, 0, 2 * sizeof(*rack));
	mrt_snd_init(snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	mrt_snd_set_rack(snd, rack, 2);
	mrt_rx_init(rx, 0, 64, eng_rx_bits);
}

/* As rack_pdc(), with a fresh set of 2 EVs and an RTO of 20 ms (a
 * smoothed RTT of 10 ms, no variation, over a 10 ms floor); EV 1 last
 * answered in 12 ms, at t: a slow path.
 */
static void rto_pdc(struct mrt_snd *snd, struct mrt_ev_rack *rack, struct mrt_rx *rx,
		    struct mrt_evset *evs, u64 t)
{
	ev_init(evs, 2, MRT_EV_RR);
	rack_pdc(snd, rack, rx);
	snd->rto.srtt8 = 8 * 10000;
	snd->rto.rttvar4 = 0;
	rack[1] = (struct mrt_ev_rack){ .sent_ns = t, .rtt_ns = 12000 * 1000, .first = true };
}

/* Loss detection that tolerates spraying (engine.h, struct mrt_ev_rack):
 * ordering evidence per EV or the page's gap, and time.
 */
static void t_engine_rack(void)
{
	struct mrt_snd_cfg cfg = {
		.rto_min_us = 10000, .rto_max_us = 100000, .retry_budget = 8,
		.sack_loss_min_retx_pkts = 2, .rack = true, .rack_reo_wnd_thou = 250,
	};
	static struct mrt_ev_rack rack[2];
	const u64 us = 1000, t0 = 1000000;
	struct mrt_snd_timer_res tr;
	struct mrt_snd_ack_res res;
	struct nscc_params np;
	struct mrt_evset evs;
	struct mrt_snd_dest d;
	struct mrt_snd snd;
	struct mrt_rx rx;
	static struct nscc cc;
	struct mrt_pkt a;
	u32 psn, i;
	bool ok;

	nscc_params_init(&np, NSCC_FLAVOUR_MRC);
	nscc_init(&cc, &np, 4096, 0);
	ev_init(&evs, 2, MRT_EV_RR);
	d.cc = &cc;
	d.evs = &evs;
	memset(&eng, 0, sizeof(eng));
	rack_pdc(&snd, rack, &rx);

	/* EV 0 is a path of 10 us, EV 1 one of 1 ms: PSN 0 on EV 1, 1 on
	 * EV 0, each answered after its path's RTT
	 */
	rack_send(&snd, &d, &cfg, 1, t0);
	rack_send(&snd, &d, &cfg, 0, t0);
	mrt_rx_accept(&rx, 1, 4096);
	a = eng_ack_of(&rx, 1, mrt_ev_port(&evs, 0), false);
	mrt_snd_ack(&snd, &d, &a, t0 + 10 * us, &cfg, &eng_ops, NULL, &res);
	mrt_rx_accept(&rx, 0, 4096);
	a = eng_ack_of(&rx, 0, mrt_ev_port(&evs, 1), false);
	mrt_snd_ack(&snd, &d, &a, t0 + 1000 * us, &cfg, &eng_ops, NULL, &res);
	tap_ok(rack[0].rtt_ns == 10 * us && rack[1].rtt_ns == 1000 * us &&
	       snd.rtt_min_ns == 10 * us && !eng.sack_lost,
	       "rack: each EV keeps the RTT of its latest transmission acknowledged; the least RTT is the PDC's");

	/* PSNs 2..5 at t1: 2 and 4 on the slow EV, 3 and 5 on the fast one,
	 * whose ACKs come first: the gap (2) holds for PSN 2 at once
	 */
	{
		const u64 t1 = t0 + 2000 * us;

		rack_send(&snd, &d, &cfg, 1, t1);
		rack_send(&snd, &d, &cfg, 0, t1);
		rack_send(&snd, &d, &cfg, 1, t1);
		rack_send(&snd, &d, &cfg, 0, t1);
		for (psn = 3; psn <= 5; psn += 2) {
			mrt_rx_accept(&rx, psn, 4096);
			a = eng_ack_of(&rx, psn, mrt_ev_port(&evs, 0), false);
			mrt_snd_ack(&snd, &d, &a, t1 + 10 * us, &cfg, &eng_ops, NULL, &res);
		}
		tap_ok(!eng.sack_lost && !snd.rtxq_len && res.rack_at > t1 + 1000 * us &&
		       res.rack_at <= t1 + 1000 * us + 1000 * us / 4,
		       "rack: PSN 2, 3 PSNs below one acknowledged on a faster EV, is not presumed lost while its own EV's RTT and the window have not passed (the PDC's timer is asked for then)");
		mrt_snd_timer(&snd, &d, t1 + 500 * us, true, &cfg, &eng_ops, NULL, &tr);
		ok = !eng.sack_lost && !tr.expired && tr.next == res.rack_at;
		mrt_rx_accept(&rx, 2, 4096);
		mrt_rx_accept(&rx, 4, 4096);
		a = eng_ack_of(&rx, 4, mrt_ev_port(&evs, 1), false);
		mrt_snd_ack(&snd, &d, &a, t1 + 1000 * us, &cfg, &eng_ops, NULL, &res);
		tap_ok(ok && !eng.sack_lost && snd.tx.una == 6 && res.rack_at == U64_MAX &&
		       !res.false_lost,
		       "rack: the slow EV's packets arrive in their time: nothing presumed, nothing sent again");

		/* the page's rule alone: the same pattern presumes PSN 6 lost
		 * the moment the gap holds
		 */
		cfg.rack = false;
		rack_send(&snd, &d, &cfg, 1, t1 + 2000 * us);
		for (psn = 7; psn <= 9; psn++) {
			rack_send(&snd, &d, &cfg, 0, t1 + 2000 * us);
			mrt_rx_accept(&rx, psn, 4096);
			a = eng_ack_of(&rx, psn, mrt_ev_port(&evs, 0), false);
			mrt_snd_ack(&snd, &d, &a, t1 + 2010 * us, &cfg, &eng_ops, NULL, &res);
		}
		tap_ok(eng.sack_lost == 1 && snd.rtxq_len == 1 && snd.rtxq[snd.rtxq_head] == 6,
		       "rack_enabled 0: the MRC page's gap alone presumes the slow EV's PSN 6 lost at once");
		/* ... which proves false: the original's ACK comes after the
		 * retransmission went
		 */
		cfg.rack = true;
		rack_send(&snd, &d, &cfg, 0, t1 + 2020 * us);
		mrt_rx_accept(&rx, 6, 4096);
		a = eng_ack_of(&rx, 6, mrt_ev_port(&evs, 1), false);
		mrt_snd_ack(&snd, &d, &a, t1 + 2030 * us, &cfg, &eng_ops, NULL, &res);
		tap_ok(res.false_lost == 1 && snd.tx.una == 10,
		       "an ACK of the original after the retransmission went: a false presumption, counted");
		tap_ok(mrt_snd_reo_ns(&snd, &cfg) == 10 * us / 4 + 10 * us,
		       "the reordering window grows to a quarter of the least RTT and the 10 us the ACK came after the retransmission");
	}

	/* ordering within one EV: PSNs 10 and 11 go together on the fast
	 * EV; 11 arrives, 10 not: far below the gap, yet presumed lost once
	 * the window has passed
	 */
	{
		const u64 t2 = t0 + 10000 * us;
		s64 full;
		u64 at;

		rack_send(&snd, &d, &cfg, 0, t2);
		rack_send(&snd, &d, &cfg, 0, t2);
		mrt_rx_accept(&rx, 11, 4096);
		a = eng_ack_of(&rx, 11, mrt_ev_port(&evs, 0), false);
		cfg.sack_loss_min_retx_pkts = 512;
		mrt_snd_ack(&snd, &d, &a, t2 + 10 * us, &cfg, &eng_ops, NULL, &res);
		at = res.rack_at;
		ok = eng.sack_lost == 1 && at == t2 + 10 * us + mrt_snd_reo_ns(&snd, &cfg);
		mrt_snd_timer(&snd, &d, at - 1, true, &cfg, &eng_ops, NULL, &tr);
		ok &= eng.sack_lost == 1 && tr.next == at;
		mrt_snd_timer(&snd, &d, at, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(ok && eng.sack_lost == 2 && !tr.expired && snd.rtxq_len == 1 &&
		       snd.rtxq[snd.rtxq_head] == 10 &&
		       mrt_snd_slot(&snd, 10)->flags & MRT_SLOT_PRESUMED &&
		       !(mrt_snd_slot(&snd, 10)->flags & MRT_SLOT_INFLIGHT),
		       "rack: a later packet on the same EV acknowledged presumes PSN 10 lost with no gap, by the PDC's timer once the window has passed (a loss, no expiry)");
		/* sent again; the retransmission's ACK shows nothing false */
		rack_send(&snd, &d, &cfg, 1, at);
		mrt_rx_accept(&rx, 10, 4096);
		a = eng_ack_of(&rx, 10, mrt_ev_port(&evs, 1), true);
		mrt_snd_ack(&snd, &d, &a, at + 1000 * us, &cfg, &eng_ops, NULL, &res);
		tap_ok(!res.false_lost && snd.tx.una == 12 && rack[1].sent_ns == at,
		       "its retransmission's ACK (RETX echoed) is no false presumption, and times its new EV");
		snd.reo_learnt_ns = 1000000 * us;
		tap_ok(mrt_snd_reo_ns(&snd, &cfg) ==
		       (u64)(snd.rto.srtt8 / 8 + snd.rto.rttvar4) * us,
		       "rack: the reordering window is never more than the smoothed RTT and four times its variation");

		/* 16 ACKs that each presume a loss (PSN p on the fast EV,
		 * then p + 1 on it 1 ms later, which alone arrives), none
		 * proved false: an eighth off the window
		 */
		snd.reo_learnt_ns = 64 * us;
		snd.reo_clean = 0;
		ok = true;
		for (psn = 12, at = t2 + 2000 * us; psn < 12 + 2 * 16; psn += 2, at += 3000 * us) {
			u32 lost = eng.sack_lost;

			ok &= snd.reo_learnt_ns == 64 * us;
			rack_send(&snd, &d, &cfg, 0, at);
			rack_send(&snd, &d, &cfg, 0, at + 1000 * us);
			mrt_rx_accept(&rx, psn + 1, 4096);
			a = eng_ack_of(&rx, psn + 1, mrt_ev_port(&evs, 0), false);
			mrt_snd_ack(&snd, &d, &a, at + 1010 * us, &cfg, &eng_ops, NULL, &res);
			ok &= eng.sack_lost == lost + 1 && !res.false_lost;
			rack_send(&snd, &d, &cfg, 0, at + 1010 * us);
			mrt_rx_accept(&rx, psn, 4096);
			a = eng_ack_of(&rx, psn, mrt_ev_port(&evs, 0), true);
			mrt_snd_ack(&snd, &d, &a, at + 1020 * us, &cfg, &eng_ops, NULL, &res);
			ok &= !res.false_lost && snd.tx.una == psn + 2;
		}
		tap_ok(ok && snd.reo_learnt_ns == 56 * us,
		       "rack: 16 ACKs that presume losses, none proved false, take an eighth off the reordering window");

		/* Eifel's test: PSN 44 presumed lost and sent again, then an
		 * ACK answering PSN 46, sent before that retransmission, which
		 * reports 44: the original had arrived
		 */
		rack_send(&snd, &d, &cfg, 0, at);			/* 44 */
		rack_send(&snd, &d, &cfg, 0, at);			/* 45 */
		rack_send(&snd, &d, &cfg, 1, at);			/* 46 */
		mrt_rx_accept(&rx, 45, 4096);
		a = eng_ack_of(&rx, 45, mrt_ev_port(&evs, 0), false);
		mrt_snd_ack(&snd, &d, &a, at + 1000 * us, &cfg, &eng_ops, NULL, &res);
		mrt_snd_timer(&snd, &d, res.rack_at, true, &cfg, &eng_ops, NULL, &tr);
		ok = snd.rtxq_len == 1 && snd.rtxq[snd.rtxq_head] == 44;
		rack_send(&snd, &d, &cfg, 1, res.rack_at);		/* 44 again */
		mrt_rx_accept(&rx, 44, 4096);
		mrt_rx_accept(&rx, 46, 4096);
		a = eng_ack_of(&rx, 46, mrt_ev_port(&evs, 1), false);
		mrt_snd_ack(&snd, &d, &a, res.rack_at + 500 * us, &cfg, &eng_ops, NULL, &res);
		tap_ok(ok && res.false_lost == 1 && snd.tx.una == 47,
		       "rack: an ACK answering a packet sent before the retransmission, reporting the packet, proves its presumption false (Eifel's test)");

		/* a batch's stamps spread at a rate below the device's may
		 * invert order on an EV: new packets there are ordered by
		 * PSN (47 stamped after 48, 48 acknowledged: 47 went first)
		 */
		at = t2 + 500000 * us;
		rack_send(&snd, &d, &cfg, 0, at + 100 * us);		/* 47 */
		rack_send(&snd, &d, &cfg, 0, at);			/* 48 */
		mrt_rx_accept(&rx, 48, 4096);
		a = eng_ack_of(&rx, 48, mrt_ev_port(&evs, 0), false);
		mrt_snd_ack(&snd, &d, &a, at + 1000 * us, &cfg, &eng_ops, NULL, &res);
		mrt_snd_timer(&snd, &d, res.rack_at, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(res.rack_at != U64_MAX && snd.rtxq_len == 1 &&
		       snd.rtxq[snd.rtxq_head] == 47 && rack[0].first,
		       "rack: new packets on one EV are ordered by PSN, not by their (estimated) departures");
		rack_send(&snd, &d, &cfg, 1, res.rack_at);
		mrt_rx_accept(&rx, 47, 4096);
		a = eng_ack_of(&rx, 47, mrt_ev_port(&evs, 1), true);
		mrt_snd_ack(&snd, &d, &a, res.rack_at + 100 * us, &cfg, &eng_ops, NULL, &res);

		/* uet: a presumption keeps the packet in flight; if it cannot
		 * go (the window full) and no ACK comes, its timer still
		 * expires and takes it out
		 */
		nscc_params_init(&np, NSCC_FLAVOUR_UET);
		nscc_init(&cc, &np, 4096, 0);
		rack_pdc(&snd, rack, &rx);
		rack_send(&snd, &d, &cfg, 0, t2);
		rack_send(&snd, &d, &cfg, 0, t2);
		mrt_rx_accept(&rx, 1, 4096);
		a = eng_ack_of(&rx, 1, mrt_ev_port(&evs, 0), false);
		mrt_snd_ack(&snd, &d, &a, t2 + 10 * us, &cfg, &eng_ops, NULL, &res);
		mrt_snd_timer(&snd, &d, res.rack_at, true, &cfg, &eng_ops, NULL, &tr);
		ok = snd.rtxq_len == 1 && cc.inflight == 4096 && !tr.expired &&
		     mrt_snd_slot(&snd, 0)->flags & MRT_SLOT_INFLIGHT;
		cc.inflight = (s64)cc.cwnd;	/* the window full */
		full = cc.inflight;
		at = mrt_snd_deadline(&snd, mrt_snd_slot(&snd, 0), mrt_snd_rto_us(&snd, &cfg),
				      &cfg);
		ok &= tr.next == at;
		mrt_snd_timer(&snd, &d, at, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(ok && tr.expired == 1 && snd.rtxq_len == 1 &&
		       !(mrt_snd_slot(&snd, 0)->flags & MRT_SLOT_INFLIGHT) &&
		       mrt_snd_slot(&snd, 0)->cause == MRT_RTX_RTO && cc.inflight == full - 4096,
		       "rack, uet: a packet presumed lost stays in flight, queued; with the window full and no ACK its timer still expires and takes it out of flight");

		/* an RTO is evidence that its path loses packets only if the
		 * path answers well within the RTO: EV 1 took 12 ms, EV 0
		 * 1 ms, the RTO is 20 ms
		 */
		nscc_init(&cc, &np, 4096, 0);
		rto_pdc(&snd, rack, &rx, &evs, t2 - 1);
		rack[0] = (struct mrt_ev_rack){ .sent_ns = t2 - 1, .rtt_ns = 1000 * us,
						.first = true };
		rack_send(&snd, &d, &cfg, 1, t2);
		mrt_snd_timer(&snd, &d, t2 + 20000 * us, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(tr.expired == 1 && tr.slow == 1 && evs.ev[1].state == MRT_EV_GOOD &&
		       evs.ev[1].losses == 1 && snd.rtxq_len == 1,
		       "an RTO on an EV whose last RTT was over half the RTO (slow, not lossy): sent again, a loss on the EV, the EV still GOOD");
		rack_send(&snd, &d, &cfg, 0, t2 + 20000 * us);
		rack_send(&snd, &d, &cfg, 0, t2 + 20000 * us);
		mrt_snd_timer(&snd, &d, t2 + 40000 * us, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(tr.expired == 1 && !tr.slow && evs.ev[0].state == MRT_EV_ASSUMED_BAD,
		       "an RTO on an EV that answered in 1 ms: evidence that the path loses packets, ASSUMED_BAD");
		rto_pdc(&snd, rack, &rx, &evs, t2 - 1);
		rack_send(&snd, &d, &cfg, 1, t2);
		rack[1] = (struct mrt_ev_rack){ .sent_ns = t2 + 1, .rtt_ns = 12000 * us };
		mrt_snd_timer(&snd, &d, t2 + 20000 * us, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(tr.expired == 1 && !tr.slow && evs.ev[1].state == MRT_EV_ASSUMED_BAD,
		       "an RTO on a slow EV that delivered a packet sent after it: lost, not queued, ASSUMED_BAD");

		/* a batch of four on the slow EV expires together: one loss
		 * (ev_bad_losses 3 here), the EV still GOOD; evidence older
		 * than the wait before the packet left is none: lossy
		 */
		rto_pdc(&snd, rack, &rx, &evs, t2 - 1);
		for (i = 0; i < 4; i++)
			rack_send(&snd, &d, &cfg, 1, t2 + i);
		mrt_snd_timer(&snd, &d, t2 + 20000 * us, true, &cfg, &eng_ops, NULL, &tr);
		ok = tr.expired == 1 && tr.slow == 1;
		mrt_snd_timer(&snd, &d, t2 + 20000 * us + 3, true, &cfg, &eng_ops, NULL, &tr);
		tap_ok(ok && tr.expired == 3 && tr.slow == 3 && evs.ev[1].losses == 1 &&
		       evs.ev[1].state == MRT_EV_GOOD,
		       "a batch of four expiring on a slow EV is one loss on it, not four (the EV stays GOOD)");
		rto_pdc(&snd, rack, &rx, &evs, t2 - 1);
		rack_send(&snd, &d, &cfg, 1, t2 + 50000 * us);
		mrt_snd_timer(&snd, &d, t2 + 50000 * us + 20000 * us, true, &cfg, &eng_ops, NULL,
			      &tr);
		tap_ok(tr.expired == 1 && !tr.slow && evs.ev[1].state == MRT_EV_ASSUMED_BAD,
		       "an RTO on an EV whose only answer predates the wait before the packet left: no evidence of slowness, ASSUMED_BAD");
	}
}

static void t_engine_batches(void)
{
	struct mrt_snd_cfg cfg = {
		.rto_min_us = 100, .rto_max_us = 10000, .retry_budget = 8,
		.sack_loss_min_retx_pkts = 512, .tx_batch_max_pkts = 8,
	};
	const u32 bytes = 4096;
	struct nscc_params np;
	struct mrt_evset evs;
	struct mrt_snd_dest d;
	struct mrt_snd snd;
	struct mrt_rx rx;
	struct mrt_snd_tx tx[24];
	static struct nscc cc;
	bool ok = true;
	int i;

	nscc_params_init(&np, NSCC_FLAVOUR_MRC);
	ev_init(&evs, 4, MRT_EV_RR);
	d.cc = &cc;
	d.evs = &evs;
	eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 0, &cfg, tx);
	cc.cwnd = 64 * bytes;
	tap_ok(mrt_snd_batch_pkts(&d, bytes, &cfg) == 8,
	       "batch size: the EV's share of the window (64 packets over 4 EVs: 16), at most tx_batch_max_pkts (8)");
	for (i = 0; i < 24; i++) {
		ok &= mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[i]) ==
		      MRT_SND_SEND;
		mrt_snd_sent(&snd, &d, &tx[i], 1000, bytes, false, &cfg, &eng_ops, NULL);
	}
	for (i = 0; i < 24; i++)
		ok &= tx[i].batch == !!(i % 8) && tx[i].ev == tx[i - i % 8].ev &&
		      tx[i].batch_pkts == (i % 8 ? 0 : 8);
	tap_ok(ok && tx[0].ev != tx[8].ev && tx[8].ev != tx[16].ev,
	       "new packets go in batches of 8 on one EV each, the next batch on the next EV");

	eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 0, &cfg, tx);
	cc.cwnd = 11 * bytes;
	tap_ok(mrt_snd_batch_pkts(&d, bytes, &cfg) == 2,
	       "a window of 11 packets over 4 EVs: batches of 2");
	cc.cwnd = 7 * bytes;
	ok = mrt_snd_batch_pkts(&d, bytes, &cfg) == 1;
	for (i = 0; i < 4; i++) {
		mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[i]);
		mrt_snd_sent(&snd, &d, &tx[i], 1000, bytes, false, &cfg, &eng_ops, NULL);
		ok &= !tx[i].batch && tx[i].batch_pkts == 1;
	}
	tap_ok(ok && tx[0].ev != tx[1].ev && tx[1].ev != tx[2].ev && tx[2].ev != tx[3].ev,
	       "a window of less than two packets per EV: one packet per EV, each on the next");

	/* a batch of 8 begins; a retransmission ends it */
	eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 0, &cfg, tx);
	cc.cwnd = 64 * bytes;
	for (i = 0; i < 3; i++) {
		mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[i]);
		mrt_snd_sent(&snd, &d, &tx[i], 1000, bytes, false, &cfg, &eng_ops, NULL);
	}
	mrt_snd_slot(&snd, 1)->flags |= MRT_SLOT_RTXQ;
	snd.rtxq[snd.rtxq_head & (snd.range - 1)] = 1;
	snd.rtxq_len = 1;
	ok = mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[3]) ==
	     MRT_SND_SEND && tx[3].retx && !tx[3].batch && tx[3].batch_pkts == 1 &&
	     tx[3].ev != tx[1].ev;
	mrt_snd_sent(&snd, &d, &tx[3], 1000, bytes, false, &cfg, &eng_ops, NULL);
	mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[4]);
	mrt_snd_sent(&snd, &d, &tx[4], 1000, bytes, false, &cfg, &eng_ops, NULL);
	tap_ok(ok && !tx[4].batch && tx[4].batch_pkts == 8,
	       "a retransmission goes alone, on another EV than its last, and ends the open batch");

	/* the batch's EV goes ASSUMED_BAD: the next packet picks anew */
	mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[5]);
	mrt_snd_sent(&snd, &d, &tx[5], 1000, bytes, false, &cfg, &eng_ops, NULL);
	mrt_ev_rto(&evs, tx[5].ev, 1000);
	mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[6]);
	tap_ok(tx[5].batch && !tx[6].batch && tx[6].ev != tx[5].ev,
	       "an EV that leaves GOOD ends its batch");

	cfg.tx_batch_max_pkts = 1;
	eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 0, &cfg, tx);
	cc.cwnd = 64 * bytes;
	ok = true;
	for (i = 0; i < 8; i++) {
		mrt_snd_pick(&snd, &d, 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[i]);
		mrt_snd_sent(&snd, &d, &tx[i], 1000, bytes, false, &cfg, &eng_ops, NULL);
		ok &= !tx[i].batch && tx[i].batch_pkts == 1;
	}
	tap_ok(ok, "tx_batch_max_pkts 1: every packet alone, as before batches");

	/* deferral: with packets in flight, a batch waits for room for the
	 * whole of it (of what is queued); alone, or with one queued, not
	 */
	{
		struct mrt_snd_tx t2;

		cfg.tx_batch_max_pkts = 8;
		eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 0, &cfg, tx);
		cc.cwnd = 64 * bytes;		/* batches of 8 of 4 EVs' share */
		cc.inflight = 60 * bytes;	/* room for 4 */
		ok = mrt_snd_pick(&snd, &d, 1000, 20, bytes, &cfg, &eng_ops, NULL, &t2) ==
		     MRT_SND_SEND;		/* nothing in flight: no wait */
		mrt_snd_sent(&snd, &d, &t2, 1000, bytes, false, &cfg, &eng_ops, NULL);
		snd.batch_left = 0;		/* its batch ended */
		ok &= mrt_snd_pick(&snd, &d, 1000, 20, bytes, &cfg, &eng_ops, NULL, &t2) ==
		      MRT_SND_BLOCKED;
		ok &= mrt_snd_pick(&snd, &d, 1000, 1, bytes, &cfg, &eng_ops, NULL, &t2) ==
		      MRT_SND_SEND;
		cc.inflight = 56 * bytes;	/* room for 8 */
		ok &= mrt_snd_pick(&snd, &d, 1000, 20, bytes, &cfg, &eng_ops, NULL, &t2) ==
		      MRT_SND_SEND && t2.batch_pkts == 8;
		cc.inflight = 60 * bytes;
		ok &= mrt_snd_pick(&snd, &d, 1000, 3, bytes, &cfg, &eng_ops, NULL, &t2) ==
		      MRT_SND_SEND;		/* 3 queued fit in 4 */
		tap_ok(ok, "deferral: a batch waits, in flight, for room for it or the queue");
	}

	/* a batch's later segment stamped past the ACK (a configured rate
	 * below the device's): no sample, rather than a wrapped one
	 */
	{
		struct mrt_snd_ack_res res;
		struct mrt_pkt a;

		eng_fresh(&cc, &np, &snd, &rx, &d, 1000, 2, &cfg, tx);
		mrt_snd_departed(&snd, 1, 9000);
		mrt_rx_accept(&rx, 0, bytes);
		mrt_rx_accept(&rx, 1, bytes);
		a = eng_ack_of(&rx, 1, mrt_ev_port(&evs, tx[1].ev), false);
		tap_ok(!mrt_snd_ack(&snd, &d, &a, 5000, &cfg, &eng_ops, NULL, &res) &&
		       res.rtt_ns == NSCC_NO_RTT && snd.tx.una == 2,
		       "a departure stamp later than its ACK gives no RTT sample; the ACK applies");
	}
}

/* The engine against the MRC and UET pages' transport rules (issue 35). */
static void t_engine_pages(void)
{
	const struct mrt_snd_cfg cfg = {
		.rto_min_us = 100, .rto_max_us = 10000, .retry_budget = 8,
		.sack_loss_min_retx_pkts = 512,
	}, cfg2 = {
		.rto_min_us = 100, .rto_max_us = 10000, .retry_budget = 8,
		.sack_loss_min_retx_pkts = 2,
	};
	const u32 bytes = 4096;
	struct nscc_params np;
	struct mrt_evset evs;
	struct mrt_snd_dest d;
	struct mrt_snd snd;
	struct mrt_rx rx;
	struct mrt_snd_tx tx[8];
	struct mrt_snd_ack_res res;
	struct mrt_snd_timer_res tr;
	static struct nscc cc;
	struct mrt_pkt a, n;
	u64 now = 1000000, acks;
	bool ok = true;
	int i;

	nscc_params_init(&np, NSCC_FLAVOUR_MRC);
	nscc_init(&cc, &np, bytes, 0);
	ev_init(&evs, 4, MRT_EV_RR);
	d.cc = &cc;
	d.evs = &evs;
	memset(&eng, 0, sizeof(eng));
	memset(eng_slots, 0, sizeof(eng_slots));
	mrt_snd_init(&snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	mrt_rx_init(&rx, 0, 64, eng_rx_bits);
	for (i = 0; i < 6; i++) {
		ok &= mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[i]) ==
		      MRT_SND_SEND && !tx[i].ar;
		mrt_snd_sent(&snd, &d, &tx[i], now, bytes, false, &cfg, &eng_ops, NULL);
	}
	tap_ok(ok && cc.inflight == 6 * bytes,
	       "MRC, ACK request: with room in a large window, new packets do not ask");

	/* PSN 5 is NACKed beyond the receiver's window of... 4 PSNs (as a
	 * NACK may report any valid window, 64 here, the smallest, so the
	 * test shrinks the sender's view by hand after it).
	 */
	n = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .ev = mrt_ev_port(&evs, tx[5].ev) };
	n.nack.nack_psn = 5;
	n.nack.nack_code = MRT_NACK_PSN_OOR_WINDOW;
	n.nack.payload = 64;
	n.nack.rcvd_bytes = nscc_rcvd_bytes_field(3 * bytes);	/* 0..2 arrived */
	acks = cc.cwnd;
	tap_ok(mrt_snd_nack(&snd, &d, &n, now + 5000, &cfg, &eng_ops, NULL) ==
	       MRT_SND_NACK_WINDOW && cc.inflight == 5 * bytes && cc.cwnd == acks &&
	       cc.st.nacks == 1 && !snd.wait_until && snd.oor == 1,
	       "MRC, a NACK beyond the receiver's PSN window takes the packet out of flight, leaves the window alone, holds no new data");
	tap_ok(snd.last_rcvd == 0,
	       "the NACK's received bytes are left to the next ACK (they leave flight when a SACK reports them)");
	snd.peer_range = 4;	/* the receiver's window: PSNs 0..3 */
	ok = mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[6]) ==
	     MRT_SND_BLOCKED && !snd.rtxq_len;
	now += 1000000;
	mrt_snd_timer(&snd, &d, now, true, &cfg, &eng_ops, NULL, &tr);
	tap_ok(ok && tr.expired == 5 && !(mrt_snd_slot(&snd, 5)->flags & MRT_SLOT_RTXQ) &&
	       snd.oor == 1,
	       "it waits for the window: no new PSN beyond it, and no timer of its own");
	/* queue drained: 0..4 go again; then PSNs 0..2 are acknowledged */
	while (snd.rtxq_len) {
		mrt_snd_pick(&snd, &d, now, false, 0, &cfg, &eng_ops, NULL, &tx[7]);
		mrt_snd_sent(&snd, &d, &tx[7], now, 0, false, &cfg, &eng_ops, NULL);
	}
	for (i = 0; i < 3; i++)
		mrt_rx_accept(&rx, i, bytes);
	a = eng_ack_of(&rx, 2, mrt_ev_port(&evs, tx[2].ev), true);
	acks = cc.st.acks;
	ok = !mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg, &eng_ops, NULL, &res) &&
	     snd.tx.una == 3;
	tap_ok(ok && res.newly_rcvd == 3 * bytes && cc.st.acks == acks + 1,
	       "MRC: bytes a NACK reported count toward Quick Adapt's delivered bytes and the increases when the SACK reports them (NSCC's SACK carries all 3 packets)");
	ok = mrt_snd_pick(&snd, &d, now + 1000, true, bytes, &cfg, &eng_ops, NULL, &tx[7]) ==
	     MRT_SND_SEND && tx[7].retx && tx[7].psn == 5 && tx[7].ar && !snd.oor;
	mrt_snd_sent(&snd, &d, &tx[7], now + 1000, 0, false, &cfg, &eng_ops, NULL);
	tap_ok(ok && eng.resent_cause == MRT_RTX_WINDOW,
	       "once cack reaches it, the packet NACKed beyond the window goes first (cause window), asking for an ACK");

	/* the packet that fills the PSN window asks (7 PSNs from una 3) */
	snd.peer_range = 7;
	ok = mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[0]) ==
	     MRT_SND_SEND && !tx[0].retx && tx[0].psn == 6 && !tx[0].ar;
	mrt_snd_sent(&snd, &d, &tx[0], now, bytes, false, &cfg, &eng_ops, NULL);
	ok &= mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[1]) ==
	      MRT_SND_SEND && tx[1].psn == 7 && !tx[1].ar;
	mrt_snd_sent(&snd, &d, &tx[1], now, bytes, false, &cfg, &eng_ops, NULL);
	ok &= mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[2]) ==
	      MRT_SND_SEND && tx[2].psn == 8 && !tx[2].ar;
	mrt_snd_sent(&snd, &d, &tx[2], now, bytes, false, &cfg, &eng_ops, NULL);
	ok &= mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[3]) ==
	      MRT_SND_SEND && tx[3].psn == 9 && tx[3].ar;
	mrt_snd_sent(&snd, &d, &tx[3], now, bytes, false, &cfg, &eng_ops, NULL);
	tap_ok(ok && mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[4]) ==
	       MRT_SND_BLOCKED,
	       "the packet that fills the receiver's PSN window asks for an ACK; the next waits");

	/* the sample runs from the end of serialization (the departure the
	 * caller reports), not from the push that built the packet
	 */
	nscc_init(&cc, &np, bytes, 0);
	memset(eng_slots, 0, sizeof(eng_slots));
	mrt_snd_init(&snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	mrt_rx_init(&rx, 0, 64, eng_rx_bits);
	for (i = 0; i < 2; i++) {
		mrt_snd_pick(&snd, &d, now, true, bytes, &cfg, &eng_ops, NULL, &tx[i]);
		mrt_snd_sent(&snd, &d, &tx[i], now, bytes, false, &cfg, &eng_ops, NULL);
	}
	mrt_snd_departed(&snd, 1, now + 7000);
	mrt_snd_departed(&snd, 1, now + 6000);	/* earlier: ignored */
	mrt_snd_departed(&snd, 9, now + 9000);	/* never sent: ignored */
	mrt_rx_accept(&rx, 0, bytes);
	mrt_rx_accept(&rx, 1, bytes);
	a = eng_ack_of(&rx, 1, mrt_ev_port(&evs, tx[1].ev), false);
	tap_ok(!mrt_snd_ack(&snd, &d, &a, now + 10000, &cfg, &eng_ops, NULL, &res) &&
	       res.rtt_ns == 3000 && res.cc_rtt_ns == 3000,
	       "MRC: a SACK's sample runs from the end of serialization of the transmission that drew it (3 us, not 10)");

	/* uet: PSNs 0 and 1 a SACK gap queued again (their bytes still in
	 * flight), then PSN 1 NACKed beyond the receiver's window before it
	 * went: it is not sent beyond the window, and goes once the window
	 * reaches it
	 */
	nscc_params_init(&np, NSCC_FLAVOUR_UET);
	eng_fresh(&cc, &np, &snd, &rx, &d, now, 8, &cfg2, tx);
	for (i = 2; i < 8; i++)
		mrt_rx_accept(&rx, i, bytes);
	a = eng_ack_of(&rx, 7, mrt_ev_port(&evs, tx[7].ev), false);
	mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg2, &eng_ops, NULL, &res);
	ok = snd.rtxq_len == 2 && eng.sack_lost == 2;
	n = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .ev = mrt_ev_port(&evs, tx[1].ev) };
	n.nack.nack_psn = 1;
	n.nack.nack_code = MRT_NACK_PSN_OOR_WINDOW;
	n.nack.payload = 64;
	ok &= mrt_snd_nack(&snd, &d, &n, now + 1000, &cfg2, &eng_ops, NULL) ==
	      MRT_SND_NACK_WINDOW && snd.oor == 1;
	snd.peer_range = 1;	/* the receiver's window: PSN 0 alone */
	ok &= mrt_snd_pick(&snd, &d, now, false, 0, &cfg2, &eng_ops, NULL, &tx[0]) ==
	      MRT_SND_SEND && tx[0].psn == 0;
	mrt_snd_sent(&snd, &d, &tx[0], now + 2000, bytes, false, &cfg2, &eng_ops, NULL);
	ok &= mrt_snd_pick(&snd, &d, now, false, 0, &cfg2, &eng_ops, NULL, &tx[1]) ==
	      MRT_SND_NONE && !snd.rtxq_len &&
	      (mrt_snd_slot(&snd, 1)->flags & (MRT_SLOT_OOR | MRT_SLOT_RTXQ)) == MRT_SLOT_OOR;
	tap_ok(ok,
	       "uet: a packet queued after a SACK gap and then NACKed beyond the window is not sent beyond it");
	mrt_rx_accept(&rx, 0, bytes);
	a = eng_ack_of(&rx, 0, mrt_ev_port(&evs, tx[0].ev), true);
	mrt_snd_ack(&snd, &d, &a, now + 3000, &cfg2, &eng_ops, NULL, &res);
	tap_ok(snd.tx.una == 1 &&
	       mrt_snd_pick(&snd, &d, now, false, 0, &cfg2, &eng_ops, NULL, &tx[1]) ==
	       MRT_SND_SEND && tx[1].psn == 1 && tx[1].retx && !snd.oor,
	       "and it goes once the window reaches it");

	/* a SACK gap leaves a packet already queued (after a trim) with its
	 * one presumption unspent
	 */
	nscc_params_init(&np, NSCC_FLAVOUR_MRC);
	eng_fresh(&cc, &np, &snd, &rx, &d, now, 8, &cfg2, tx);
	n = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .ev = mrt_ev_port(&evs, tx[0].ev) };
	n.nack.nack_psn = 0;
	n.nack.nack_code = MRT_NACK_TRIMMED;
	ok = mrt_snd_nack(&snd, &d, &n, now + 500, &cfg2, &eng_ops, NULL) == MRT_SND_NACK_RETX;
	for (i = 1; i < 8; i++)
		mrt_rx_accept(&rx, i, bytes);
	a = eng_ack_of(&rx, 7, mrt_ev_port(&evs, tx[7].ev), false);
	mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg2, &eng_ops, NULL, &res);
	tap_ok(ok && !eng.sack_lost && !mrt_tx_is_lost(&snd.tx, 0),
	       "MRC, at most once: a SACK gap over a packet already queued (trimmed) spends no presumption");
	mrt_snd_pick(&snd, &d, now, false, 0, &cfg2, &eng_ops, NULL, &tx[0]);
	mrt_snd_sent(&snd, &d, &tx[0], now + 1000, 0, false, &cfg2, &eng_ops, NULL);
	for (i = 0; i < 8; i++) {
		mrt_snd_pick(&snd, &d, now, true, bytes, &cfg2, &eng_ops, NULL, &tx[1]);
		mrt_snd_sent(&snd, &d, &tx[1], now + 1000, bytes, false, &cfg2, &eng_ops, NULL);
		mrt_rx_accept(&rx, tx[1].psn, bytes);
	}
	a = eng_ack_of(&rx, tx[1].psn, mrt_ev_port(&evs, tx[1].ev), false);
	mrt_snd_ack(&snd, &d, &a, now + 2000, &cfg2, &eng_ops, NULL, &res);
	tap_ok(eng.sack_lost == 1 && mrt_tx_is_lost(&snd.tx, 0),
	       "so its retransmission, lost too, is presumed lost from a SACK gap (once)");

	/* a NO_RESOURCE NACK for a packet already queued (uet, SACK gap):
	 * it waits until wait_until, as any NACKed packet
	 */
	nscc_params_init(&np, NSCC_FLAVOUR_UET);
	eng_fresh(&cc, &np, &snd, &rx, &d, now, 8, &cfg2, tx);
	for (i = 1; i < 8; i++)
		mrt_rx_accept(&rx, i, bytes);
	a = eng_ack_of(&rx, 7, mrt_ev_port(&evs, tx[7].ev), false);
	mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg2, &eng_ops, NULL, &res);
	n = (struct mrt_pkt){ .type = MRT_TYPE_NACK, .ev = mrt_ev_port(&evs, tx[0].ev) };
	n.nack.nack_psn = 0;
	n.nack.nack_code = MRT_NACK_NO_RESOURCE;
	ok = snd.rtxq_len == 1 &&
	     mrt_snd_nack(&snd, &d, &n, now + 1000, &cfg2, &eng_ops, NULL) == MRT_SND_NACK_WAIT;
	tap_ok(ok && mrt_snd_pick(&snd, &d, now + 1001, false, 0, &cfg2, &eng_ops, NULL,
				  &tx[0]) == MRT_SND_NONE,
	       "a queued packet NACKed NO_RESOURCE is not sent before its wait is over");
	mrt_snd_timer(&snd, &d, snd.wait_until, true, &cfg2, &eng_ops, NULL, &tr);
	tap_ok(mrt_snd_pick(&snd, &d, snd.wait_until, false, 0, &cfg2, &eng_ops, NULL,
			    &tx[0]) == MRT_SND_SEND && tx[0].psn == 0,
	       "and goes when it is");
	/* the same, the timer first (its queue entry still there) */
	eng_fresh(&cc, &np, &snd, &rx, &d, now, 8, &cfg2, tx);
	for (i = 1; i < 8; i++)
		mrt_rx_accept(&rx, i, bytes);
	a = eng_ack_of(&rx, 7, mrt_ev_port(&evs, tx[7].ev), false);
	mrt_snd_ack(&snd, &d, &a, now + 1000, &cfg2, &eng_ops, NULL, &res);
	ok = mrt_snd_nack(&snd, &d, &n, now + 1000, &cfg2, &eng_ops, NULL) == MRT_SND_NACK_WAIT &&
	     snd.rtxq_len == 1;
	mrt_snd_timer(&snd, &d, snd.wait_until, true, &cfg2, &eng_ops, NULL, &tr);
	tap_ok(ok && mrt_snd_pick(&snd, &d, snd.wait_until, false, 0, &cfg2, &eng_ops, NULL,
				  &tx[0]) == MRT_SND_SEND && tx[0].psn == 0,
	       "a queued packet asked to wait goes at its time when the timer comes first");

	/* a service time not below the RTT: no sample */
	mrt_rx_accept(&rx, 0, bytes);
	a = eng_ack_of(&rx, 0, mrt_ev_port(&evs, tx[0].ev), true);	/* its 1st retx */
	a.ack.service_time = U16_MAX;
	mrt_snd_sent(&snd, &d, &tx[0], snd.wait_until, 0, false, &cfg2, &eng_ops, NULL);
	tap_ok(!mrt_snd_ack(&snd, &d, &a, snd.wait_until + 1000, &cfg2, &eng_ops, NULL, &res) &&
	       res.rtt_ns == NSCC_NO_RTT && res.cc_rtt_ns == NSCC_NO_RTT && res.newly,
	       "an ACK whose service time is not below the RTT gives no sample (a base RTT of 0 otherwise)");

	/* a window below 4,095 bytes: every packet asks */
	nscc_init(&cc, &np, bytes, 0);
	memset(eng_slots, 0, sizeof(eng_slots));
	mrt_snd_init(&snd, 0, 64, eng_slots, eng_rtxq, eng_acked_bits, eng_lost_bits, eng_ref);
	cc.cwnd = 4094;
	ok = mrt_snd_pick(&snd, &d, now, true, 100, &cfg, &eng_ops, NULL, &tx[0]) ==
	     MRT_SND_SEND && tx[0].ar;
	cc.cwnd = 4095 + 2 * bytes;
	ok &= mrt_snd_pick(&snd, &d, now, true, 100, &cfg, &eng_ops, NULL, &tx[0]) ==
	      MRT_SND_SEND && !tx[0].ar;
	cc.inflight = 4096 + 4095 - 100;
	ok &= mrt_snd_pick(&snd, &d, now, true, 100, &cfg, &eng_ops, NULL, &tx[0]) ==
	      MRT_SND_SEND && !tx[0].ar;
	cc.inflight++;
	tap_ok(ok && mrt_snd_pick(&snd, &d, now, true, 100, &cfg, &eng_ops, NULL, &tx[0]) ==
	       MRT_SND_SEND && tx[0].ar,
	       "MRC, ACK request: a window below 4,095 bytes asks on every packet; one nominal packet of room left is enough, less is not");
}

/* Packet marking (engine.h's mrt_data_tos(), mrt_ctl_tos()) at mrt's
 * defaults, as the pages mark.
 */
static void t_marking(void)
{
	struct mrt_mark_cfg c = {
		.data_dscp = 0, .trimmable_dscp = 10, .retransmit_dscp = 10,
		.distinct_retx = true,
	};
	bool trimmable;
	u8 tos;

	tap_ok(mrt_trimming(NSCC_FLAVOUR_MRC, MRT_TRIM_AUTO) &&
	       !mrt_trimming(NSCC_FLAVOUR_UET, MRT_TRIM_AUTO) &&
	       mrt_trimming(NSCC_FLAVOUR_UET, 1) && !mrt_trimming(NSCC_FLAVOUR_MRC, 0),
	       "TrimmingEnabled's page defaults: auto is mrc true, uet false; 0 and 1 as set");
	c.trimming = mrt_trimming(NSCC_FLAVOUR_MRC, MRT_TRIM_AUTO);
	tos = mrt_data_tos(&c, false, &trimmable);
	tap_ok(trimmable && tos == (10 << 2 | MRT_ECN_ECT0),
	       "MRC: TrimmingEnabled marks the NIC's data packets trimmable (DSCP 10, ECT(0))");
	c.uet = true;
	c.trimming = mrt_trimming(NSCC_FLAVOUR_UET, MRT_TRIM_AUTO);
	tos = mrt_data_tos(&c, false, &trimmable);
	tap_ok(!trimmable && tos == (0 << 2 | MRT_ECN_ECT1),
	       "UET, TrimmingEnabled false: data is not trimmable; every packet ECN-capable as ECT(1)");
	tos = mrt_data_tos(&c, true, &trimmable);
	tap_ok(trimmable && tos == (10 << 2 | MRT_ECN_ECT1),
	       "UET, UseDistinctDSCPForRetransmits: retransmissions are marked trimmable even with TrimmingEnabled false");
	c.distinct_retx = false;
	tos = mrt_data_tos(&c, true, &trimmable);
	tap_ok(!trimmable && tos == MRT_ECN_ECT1,
	       "without it, a retransmission is marked as the first transmission was");
	tap_ok(mrt_ctl_tos(&c) == MRT_ECN_ECT1,
	       "UET: ACKs and NACKs are ECN-capable too (ECT(1))");
	c.uet = false;
	tap_ok(mrt_ctl_tos(&c) == MRT_ECN_NOT_ECT, "mrc: ACKs are not ECN-capable");
}

/* The receiver's room rule (engine.h's mrt_rx_room()): the buffer holds
 * strictly but for the in-order packet of the oldest PDC, whose message
 * may grow to the buffer and the reserve while everything else fits in
 * the buffer: one message at a time past it, so the buffer never holds
 * more than twice itself and the reserve, whatever arrives.
 */
static void t_rx_room(void)
{
	const u64 buf = 262144, r = MRT_RCV_RESERVE, ts = 768;
	u64 used = 0, held = 0, peak = 0;
	unsigned int i, msgs, ok = 1;

	TAP_EQ(mrt_rx_room(buf - 100, 100, buf, false, false, 0, buf - 100), MRT_RX_ROOM_OK,
	       "a packet that fits the buffer is taken, in order or not");
	TAP_EQ(mrt_rx_room(buf - 99, 100, buf, false, false, 0, buf - 99), MRT_RX_ROOM_FULL,
	       "one byte over, out of order: not now (NO_RESOURCE)");
	TAP_EQ(mrt_rx_room(buf, 100, buf, true, true, 0, buf), MRT_RX_ROOM_FULL,
	       "over, in order, but something waits to be read: not now");
	TAP_EQ(mrt_rx_room(buf + 1000, 100, buf, false, true, buf + r - 100, 1000),
	       MRT_RX_ROOM_OK,
	       "over, in order, nothing readable, its message within the buffer and reserve: taken");
	TAP_EQ(mrt_rx_room(buf + 1000, 100, buf, false, true, buf + r - 99, 1000),
	       MRT_RX_ROOM_NEVER,
	       "... one byte more than that: the message never fits (MSG_TOO_BIG)");
	TAP_EQ(mrt_rx_room(buf + 1000, 100, buf, false, true, 100, buf + 900),
	       MRT_RX_ROOM_FULL,
	       "in order, but the rest is past the buffer (another message went past it): not now");
	/* A peer that starts message after message in order, each of tiny
	 * packets (768 bytes of truesize), never finishing one: once one is
	 * past the buffer, no other goes past, and that one stops at the
	 * buffer and the reserve.
	 */
	for (msgs = 0; msgs < 64; msgs++) {
		held = 0;
		for (i = 0; i < 100000; i++) {
			enum mrt_rx_room v = mrt_rx_room(used, ts, buf, false, true, held,
							 used - held);

			if (v != MRT_RX_ROOM_OK) {
				if (v == MRT_RX_ROOM_NEVER && held + ts <= buf + r)
					ok = 0;
				break;
			}
			used += ts;
			held += ts;
			peak = used > peak ? used : peak;
		}
	}
	tap_ok(ok && peak <= 2 * buf + r,
	       "in-order messages of tiny packets, never finished: at most twice the buffer and the reserve");
}

int main(void)
{
	tap_header();
	t_layout();
	t_roundtrip();
	t_trimmed();
	t_malformed();
	t_mutations();
	t_psn();
	t_rx();
	t_rx_sack_words();
	t_rx_peek();
	t_rx_ring();
	t_tx();
	t_loss();
	t_exact_prefix();
	t_tx_edges();
	t_rx_edges();
	t_model();
	t_rcvd_bytes();
	t_rto();
	t_ev();
	t_engine();
	t_engine_pages();
	t_engine_batches();
	t_engine_rack();
	t_marking();
	t_rx_room();
	return tap_finish();
}

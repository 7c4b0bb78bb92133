// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mrt's wire decoder (net/mrt/wire.c), on any bytes as a
 * UDP payload.  mrt_parse() must read nothing beyond the buffer (ASan
 * sees the exact length), return 0 or one of the malformed reasons, and
 * for a packet it accepts, mrt_build() must write back a header that
 * parses to the same packet (with the same payload after it), and a
 * header that is bit for bit the accepted one wherever the format has
 * no freedom (everything but the bytes mrt_parse ignores: none today, so
 * the rebuilt header equals the input's).
 */
#include <string.h>

#include "../../net/mrt/wire.h"
#include "fuzz.h"

static int same_pkt(const struct mrt_pkt *a, const struct mrt_pkt *b)
{
	return !memcmp(a, b, sizeof(*a));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 buf[65536 + MRT_ACK_HDR_LEN];
	struct mrt_pkt p, q;
	unsigned int hl, n;
	int rc;

	if (size > 65535)
		return 0;
	memset(&p, 0, sizeof(p));
	rc = mrt_parse(data, (unsigned int)size, &p);
	if (rc) {
		FUZZ_ASSERT(rc < 0 && mrt_bad_reason(rc) < MRT_BAD_COUNT,
			    "rc %d", rc);
		return 0;
	}
	hl = mrt_hdr_len(p.type);
	FUZZ_ASSERT(hl >= MRT_HDR_LEN && hl <= size, "type %u hdr %u size %zu",
		    p.type, hl, size);
	if (p.type == MRT_TYPE_DATA) {
		/* the payload, then (a short one's) zeros up to the
		 * smallest data packet, perhaps cut
		 */
		FUZZ_ASSERT(p.present == size - hl ||
			    (!p.trimmed && size - hl > p.present &&
			     size <= MRT_DATA_MIN_LEN),
			    "present %u of %zu - %u", p.present, size, hl);
		FUZZ_ASSERT(p.present <= p.data.payload_len, "present %u > %u",
			    p.present, p.data.payload_len);
		FUZZ_ASSERT(p.trimmed == (p.present < p.data.payload_len),
			    "trimmed %d", p.trimmed);
	}

	n = mrt_build(buf, &p);
	FUZZ_ASSERT(n == hl, "built %u, header %u", n, hl);
	memcpy(buf + n, data + hl, size - hl);
	FUZZ_ASSERT(!memcmp(buf, data, hl), "rebuilt header differs (type %u)",
		    p.type);
	memset(&q, 0, sizeof(q));
	rc = mrt_parse(buf, (unsigned int)size, &q);
	FUZZ_ASSERT(rc == 0, "the rebuilt packet is refused: %d", rc);
	FUZZ_ASSERT(same_pkt(&p, &q), "the rebuilt packet parses differently");
	return 0;
}

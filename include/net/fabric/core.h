/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment of the pure algorithm cores (NSCC, and later DCQCN and
 * Swift).  A core is plain C with no socket or skb knowledge; the same .c
 * file is compiled into a kernel module and into userspace tests and tools,
 * the way include/net/codel_impl.h serves both sch_codel and tc tests.
 *
 * The cores include real kernel headers only.  Userspace builds put
 * tools/include first on the include path, where small stand-ins for those
 * headers supply the few types and helpers the cores use, with the same
 * names and semantics (as tools/include does for the kernel's own
 * userspace builds of lib/ code), so neither the cores nor this header need
 * an #ifdef.
 */
#ifndef _NET_FABRIC_CORE_H
#define _NET_FABRIC_CORE_H

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>

#ifndef __SIZEOF_INT128__
#error "the fabric cores need a 64-bit target with 128-bit integer products"
#endif

/*
 * The link speed (Mbit/s) a data_rate_mbps of 0, "the egress device's
 * speed", stands for where no speed is known: a device that reports none
 * (lo, dummy, a virtio-net device without the speed feature), a socket
 * without a route yet, or a core run outside the kernel (ccreplay).
 * 100 Gbit/s: set too high it only lets the window and pacing reach more
 * than the link carries, which the algorithms' own signals then rein in;
 * too low it would cap every flow below what the link carries, unseen.
 */
#define FABRIC_LINK_MBPS_FALLBACK	100000U

/* a * b, saturating at U64_MAX instead of wrapping. */
static inline u64 fabric_mul_sat(u64 a, u64 b)
{
	u64 r;

	if (check_mul_overflow(a, b, &r))
		return U64_MAX;
	return r;
}

/* a + b, saturating at U64_MAX instead of wrapping. */
static inline u64 fabric_add_sat(u64 a, u64 b)
{
	u64 r;

	if (check_add_overflow(a, b, &r))
		return U64_MAX;
	return r;
}

/*
 * a * b / c for c > 0, rounded down (round = false) or to nearest, and
 * saturating at U64_MAX.  The product is taken in 128 bits; the division is
 * the 128-by-64 mul_u64_u64_div_u64(), which must not be asked for a
 * quotient wider than 64 bits (on x86 that traps), hence the check of the
 * product's high half first.  The remainder is below c, so wrapping u64
 * arithmetic recovers it exactly for the rounding.
 */
static inline u64 fabric_muldiv(u64 a, u64 b, u64 c, bool round)
{
	__uint128_t p = (__uint128_t)a * b;
	u64 q, r;

	if ((u64)(p >> 64) >= c)
		return U64_MAX;
	q = mul_u64_u64_div_u64(a, b, c);
	r = (u64)p - q * c;
	return (round && r >= c - r && q != U64_MAX) ? q + 1 : q;
}

/* floor(sqrt(x)), bit by bit: the same result in kernel and userspace. */
static inline u64 fabric_isqrt64(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

#endif /* _NET_FABRIC_CORE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/math64.h>: the divisions the
 * cores use, with the kernel's names and results.
 */
#ifndef _TOOLS_LINUX_MATH64_H
#define _TOOLS_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline s64 div64_s64(s64 a, s64 b)
{
	return a / b;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}

#endif /* _TOOLS_LINUX_MATH64_H */

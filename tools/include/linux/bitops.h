/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bitops.h>: what the cores use. */
#ifndef _TOOLS_LINUX_BITOPS_H
#define _TOOLS_LINUX_BITOPS_H

#include <linux/types.h>

/* The index of w's lowest set bit; w must not be 0. */
static inline unsigned int __ffs64(u64 w)
{
	return __builtin_ctzll(w);
}

#endif /* _TOOLS_LINUX_BITOPS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/minmax.h>. */
#ifndef _TOOLS_LINUX_MINMAX_H
#define _TOOLS_LINUX_MINMAX_H

#define min(a, b) ({ typeof(a) __x = (a); typeof(b) __y = (b); __x < __y ? __x : __y; })
#define max(a, b) ({ typeof(a) __x = (a); typeof(b) __y = (b); __x > __y ? __x : __y; })
#define min_t(t, a, b) ({ t __a = (a), __b = (b); __a < __b ? __a : __b; })
#define max_t(t, a, b) ({ t __a = (a), __b = (b); __a > __b ? __a : __b; })
#define clamp_t(t, v, lo, hi)						\
	({ t __v = (v), __lo = (lo), __hi = (hi);			\
	   __v < __lo ? __lo : __v > __hi ? __hi : __v; })

#endif /* _TOOLS_LINUX_MINMAX_H */

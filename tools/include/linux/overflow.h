/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/overflow.h>. */
#ifndef _TOOLS_LINUX_OVERFLOW_H
#define _TOOLS_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

#endif /* _TOOLS_LINUX_OVERFLOW_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/types.h>: the uapi header's
 * __u32 and friends, plus the kernel's short names and bool, which the
 * pure cores (include/net/fabric/core.h) use.
 */
#ifndef _TOOLS_LINUX_TYPES_H
#define _TOOLS_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s32 s32;
typedef __s64 s64;

#endif /* _TOOLS_LINUX_TYPES_H */

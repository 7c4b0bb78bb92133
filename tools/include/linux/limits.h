/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/limits.h>. */
#ifndef _TOOLS_LINUX_LIMITS_H
#define _TOOLS_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))

#endif /* _TOOLS_LINUX_LIMITS_H */

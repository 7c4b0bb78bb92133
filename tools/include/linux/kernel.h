/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/kernel.h>, as the cores use it. */
#ifndef _TOOLS_LINUX_KERNEL_H
#define _TOOLS_LINUX_KERNEL_H

#include <linux/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* _TOOLS_LINUX_KERNEL_H */

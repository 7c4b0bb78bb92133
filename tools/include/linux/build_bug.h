/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/build_bug.h>. */
#ifndef _TOOLS_LINUX_BUILD_BUG_H
#define _TOOLS_LINUX_BUILD_BUG_H

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#endif /* _TOOLS_LINUX_BUILD_BUG_H */

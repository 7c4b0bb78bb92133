/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/string.h>: the C library's. */
#ifndef _TOOLS_LINUX_STRING_H
#define _TOOLS_LINUX_STRING_H

#include <string.h>

#endif /* _TOOLS_LINUX_STRING_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc's helpers for programs that link the sch_fabric tc plugin without tc
 * (selftests/lib/tc_stub.c).
 */
#ifndef _SELFTESTS_TC_STUB_H
#define _SELFTESTS_TC_STUB_H

#include <setjmp.h>
#include <stdbool.h>

#include "tc_plugin.h"

#define TC_OUT_SIZE 16384

/* What the print_*() helpers wrote since tc_capture(), NUL-terminated */
extern char tc_out[TC_OUT_SIZE];

/* incomplete_command() longjmp()s here */
extern jmp_buf tc_incomplete_jmp;

/* Starts a capture: text, or JSON inside tc's "options" object */
void tc_capture(bool as_json);

#endif /* _SELFTESTS_TC_STUB_H */

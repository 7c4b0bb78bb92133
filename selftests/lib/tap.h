/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP 13 output for userspace unit tests, in the spirit of
 * tools/testing/selftests/kselftest.h (ok/not ok lines, "# " diagnostics,
 * exit 0 on success and 1 on any failure).  The host driver, scripts/check,
 * counts these lines.
 */
#ifndef _SELFTESTS_TAP_H
#define _SELFTESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline void tap_header(void)
{
	printf("TAP version 13\n");
}

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* One test point: passes when cond is true. */
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return cond;
}

/* Integer equality with a tolerance; prints both values on failure. */
#define TAP_NEAR(got, want, tol, ...)					\
	({								\
		long long __g = (got), __w = (want), __t = (tol);	\
		long long __d = __g > __w ? __g - __w : __w - __g;	\
		int __ok = tap_ok(__d <= __t, __VA_ARGS__);		\
		if (!__ok)						\
			tap_diag("got %lld, want %lld (+-%lld)",	\
				 __g, __w, __t);			\
		__ok;							\
	})

#define TAP_EQ(got, want, ...) TAP_NEAR(got, want, 0, __VA_ARGS__)

/* Ends the run: prints the plan, returns the process exit code. */
static inline int tap_finish(void)
{
	tap_plan(tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* _SELFTESTS_TAP_H */

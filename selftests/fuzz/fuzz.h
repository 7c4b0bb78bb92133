/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets of selftests/fuzz/: a reader of the
 * fuzzer's input as a stream of small integers, and FUZZ_ASSERT, which
 * aborts (a crash libFuzzer reports and saves) when an invariant fails.
 */
#ifndef _SELFTESTS_FUZZ_H
#define _SELFTESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/types.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define FUZZ_ASSERT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

struct fuzz_in {
	const u8 *p;
	size_t n;
};

static inline int fuzz_left(const struct fuzz_in *in)
{
	return in->n > 0;
}

/* The next byte, or 0 once the input is used up. */
static inline u8 fuzz_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline u16 fuzz_u16(struct fuzz_in *in)
{
	return (u16)(fuzz_u8(in) | fuzz_u8(in) << 8);
}

static inline u32 fuzz_u32(struct fuzz_in *in)
{
	return (u32)fuzz_u16(in) | (u32)fuzz_u16(in) << 16;
}

static inline u64 fuzz_u64(struct fuzz_in *in)
{
	return (u64)fuzz_u32(in) | (u64)fuzz_u32(in) << 32;
}

#endif /* _SELFTESTS_FUZZ_H */

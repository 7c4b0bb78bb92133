// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: ccreplay's trace parser and the event handlers of
 * every algorithm behind it (tools/ccreplay/), on any text.  The first
 * byte picks the algorithm (nscc uet, nscc mrc, dcqcn, swift); the rest
 * is the trace on stdin.  No crash and no undefined behaviour (a trace is
 * user input: bad lines end the replay with a message), an exit status of
 * 0 or 1, and the same output from the same trace twice (start() leaves
 * nothing of the run before).
 */
#define main ccreplay_main
#include "../../tools/ccreplay/ccreplay.c"
#undef main

#include "fuzz.h"

static int run(const struct ccr_algo *a, const char *flavour,
	       const u8 *data, size_t size, char **out, size_t *len)
{
	struct ccr_opts o = { 0 };
	FILE *in, *saved_out = stdout, *saved_err = stderr;
	const char *why = "";
	int rc;

	FUZZ_ASSERT(!a->defaults(flavour, &why), "defaults: %s", why);
	FUZZ_ASSERT(!a->start(&o, &why), "start: %s", why);
	in = fmemopen((void *)data, size, "r");
	FUZZ_ASSERT(in, "fmemopen");
	stdout = open_memstream(out, len);
	stderr = fopen("/dev/null", "w");
	FUZZ_ASSERT(stdout && stderr, "streams");
	rc = replay(a, in);
	fclose(stdout);
	fclose(stderr);
	fclose(in);
	stdout = saved_out;
	stderr = saved_err;
	return rc;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const struct {
		const struct ccr_algo *a;
		const char *flavour;
	} algos[] = {
		{ &ccr_algo_nscc, "uet" },
		{ &ccr_algo_nscc, "mrc" },
		{ &ccr_algo_dcqcn, NULL },
		{ &ccr_algo_swift, NULL },
	};
	char *out1 = NULL, *out2 = NULL;
	size_t len1 = 0, len2 = 0;
	unsigned int i;
	int rc1, rc2;

	if (!size || size > 8192)
		return 0;
	i = data[0] % 4;
	rc1 = run(algos[i].a, algos[i].flavour, data + 1, size - 1, &out1, &len1);
	rc2 = run(algos[i].a, algos[i].flavour, data + 1, size - 1, &out2, &len2);
	FUZZ_ASSERT(rc1 == 0 || rc1 == 1, "replay returned %d", rc1);
	FUZZ_ASSERT(rc1 == rc2 && len1 == len2 && !memcmp(out1, out2, len1),
		    "%s: a second replay of the same trace differs", algos[i].a->name);
	free(out1);
	free(out2);
	return 0;
}

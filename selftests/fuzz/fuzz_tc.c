// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the sch_fabric tc plugin (tools/tc/q_fabric.c) through
 * its ABI, with tc's helpers from selftests/lib/tc_stub.c.  The first byte
 * picks what the rest is:
 *   0  the words after "fabric" on tc's command line (split at spaces and
 *      NULs): parse_qopt() must accept or refuse them without a crash,
 *      and what it accepts must print (text and JSON) and print back to
 *      words that parse to the very same attributes;
 *   1  a TCA_OPTIONS payload as a kernel (any kernel) might dump it:
 *      print_qopt() in text and JSON, no crash;
 *   2  xstats of any length: print_xstats() in text and JSON, no crash.
 */
#include <stdbool.h>
#include <string.h>

#include <linux/fabric_sched.h>
#include <linux/gen_stats.h>

#include "fuzz.h"
#include "tc_stub.h"

static struct {
	struct nlmsghdr n;
	char buf[4096];
} req;

static int parse_words(char *text, int *incomplete)
{
	char *argv[65], *save = NULL, *tok;
	int argc = 0;
	FILE *saved = stderr;
	int rc = -99;

	for (tok = strtok_r(text, " ", &save); tok && argc < 64;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	/* more than 64 words: not parsed at all (cutting them would make
	 * a text and the same text less its clear_stats words differ)
	 */
	if (tok) {
		*incomplete = 1;
		return 0;
	}
	argv[argc] = NULL;
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(0);
	*incomplete = 0;
	stderr = fopen("/dev/null", "w");
	if (setjmp(tc_incomplete_jmp))
		*incomplete = 1;
	else
		rc = fabric_qdisc_util.parse_qopt(&fabric_qdisc_util, argc, argv,
						  &req.n, "d0");
	fclose(stderr);
	stderr = saved;
	return rc;
}

static void print_both(struct rtattr *opt)
{
	tc_capture(false);
	fabric_qdisc_util.print_qopt(&fabric_qdisc_util, stdout, opt);
	tc_capture(true);
	fabric_qdisc_util.print_qopt(&fabric_qdisc_util, stdout, opt);
}

/* text without its clear_stats words (an action, which prints as nothing) */
static void drop_clear(char *text)
{
	char *w = text, *r = text, *end;
	bool last = false;

	while (!last) {
		end = strchr(r, ' ');
		if (!end)
			end = r + strlen(r);
		last = !*end;	/* before the space below overwrites it */
		if ((size_t)(end - r) != strlen("clear_stats") ||
		    memcmp(r, "clear_stats", end - r)) {
			memmove(w, r, end - r);
			w += end - r;
			*w++ = ' ';
		}
		r = end + 1;
	}
	*w = '\0';
}

static void words(const u8 *data, size_t size)
{
	static char text[2048], copy[2048], again[TC_OUT_SIZE];
	static unsigned char first[sizeof(req)];
	unsigned int first_len;
	int rc, inc;
	size_t i;

	if (size >= sizeof(text))
		return;
	for (i = 0; i < size; i++)
		text[i] = data[i] ? (char)data[i] : ' ';
	text[size] = '\0';
	memcpy(copy, text, size + 1);
	rc = parse_words(copy, &inc);
	if (inc || rc)
		return;
	print_both((struct rtattr *)((char *)&req.n + NLMSG_LENGTH(0)));

	drop_clear(text);
	memcpy(copy, text, strlen(text) + 1);
	rc = parse_words(copy, &inc);
	FUZZ_ASSERT(!inc && !rc, "\"%s\" is refused without clear_stats", text);
	first_len = req.n.nlmsg_len;
	memcpy(first, &req, first_len);
	tc_capture(false);
	fabric_qdisc_util.print_qopt(&fabric_qdisc_util, stdout,
				     (struct rtattr *)(first + NLMSG_LENGTH(0)));
	snprintf(again, sizeof(again), "%s", tc_out);
	rc = parse_words(again, &inc);
	FUZZ_ASSERT(!inc && !rc, "\"%s\" prints as \"%s\", which is refused",
		    text, tc_out);
	FUZZ_ASSERT(req.n.nlmsg_len == first_len && !memcmp(first, &req, first_len),
		    "\"%s\" prints as \"%s\", which parses differently", text, tc_out);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u64 buf[512];
	struct rtattr *rta = (struct rtattr *)buf;

	if (!size || size > sizeof(buf) - RTA_LENGTH(0))
		return 0;
	switch (data[0] % 3) {
	case 0:
		words(data + 1, size - 1);
		break;
	case 1:
	case 2:
		/* the nest or the xstats attribute around the bytes */
		rta->rta_type = data[0] % 3 == 1 ? (TCA_OPTIONS | NLA_F_NESTED) :
			       TCA_STATS_APP;
		rta->rta_len = RTA_LENGTH(size - 1);
		memcpy(RTA_DATA(rta), data + 1, size - 1);
		if (data[0] % 3 == 1) {
			print_both(rta);
		} else {
			tc_capture(false);
			fabric_qdisc_util.print_xstats(&fabric_qdisc_util, stdout, rta);
			tc_capture(true);
			fabric_qdisc_util.print_xstats(&fabric_qdisc_util, stdout, rta);
		}
		break;
	}
	return 0;
}

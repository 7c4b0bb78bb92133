// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of the tc plugin of sch_fabric (tools/tc/q_fabric.c).
 *
 * The plugin is linked as it is, and driven only through its ABI, the
 * struct qdisc_util fabric_qdisc_util that tc finds with dlsym(): parse_qopt
 * with argv as tc hands it (the words after "fabric"), print_qopt with a
 * TCA_OPTIONS nest as the kernel dumps it, print_xstats with the xstats.
 * tc's helpers it calls (tools/tc/tc_plugin.h) are selftests/lib/tc_stub.c:
 * a real netlink message the tests read back (type, length, exact value),
 * and text or JSON in tc_out[] that the tests compare; stderr is captured
 * for the refusals.
 *
 * What it holds the plugin to: rates and sizes exact in integers, with
 * tc's units in any case ("1001bit" is 1001 bit/s, "12.5kbit" 12500,
 * "8bps" 8 bytes/s), a refusal with a message for what is not a whole
 * number of bits per second or bytes, or does not fit, or is not a
 * number; JSON "rate" in bytes per second as tc's qdiscs print it, with
 * the exact "rate_bits"; text that parses back to the same attributes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <linux/fabric_sched.h>

#include "tc_plugin.h"
#include "tap.h"
#include "tc_stub.h"

/* ------------------------------------------------------------------ */
/* Running the parser */

struct parsed {
	int rc;
	bool incomplete;
	bool nested_flag;		/* TCA_OPTIONS | NLA_F_NESTED */
	unsigned int n_attrs;		/* inside TCA_OPTIONS */
	unsigned int msg_len;		/* nlmsg_len after the call */
	struct rtattr *tb[TCA_FABRIC_MAX + 1];
	char err[8192];			/* what it printed on stderr */
};

static struct {
	struct nlmsghdr n;
	char buf[4096];
} req;

static struct parsed res;

/* Runs fd 2 into a temporary file while fn runs */
static void with_stderr(void (*fn)(void *), void *arg, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t got = 0;

	buf[0] = '\0';
	if (!tmp || saved < 0) {
		fn(arg);
		return;
	}
	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	got = fread(buf, 1, len - 1, tmp);
	buf[got] = '\0';
	fclose(tmp);
}

struct call {
	int argc;
	char **argv;
};

static void call_parse(void *p)
{
	struct call *c = p;

	res.rc = -99;
	res.incomplete = false;
	if (setjmp(tc_incomplete_jmp)) {
		res.incomplete = true;
		return;
	}
	res.rc = fabric_qdisc_util.parse_qopt(&fabric_qdisc_util, c->argc,
					      c->argv, &req.n, "d0");
}

/* Parses the NULL-ended words; res holds what came out */
static struct parsed *parse_argv(const char *const *words)
{
	static char store[32][256];
	char *argv[33];
	struct call c = { 0, argv };
	struct rtattr *opt;

	while (words[c.argc] && c.argc < 32) {
		snprintf(store[c.argc], sizeof(store[0]), "%s", words[c.argc]);
		argv[c.argc] = store[c.argc];
		c.argc++;
	}
	argv[c.argc] = NULL;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(0);
	memset(res.tb, 0, sizeof(res.tb));
	res.nested_flag = false;
	res.n_attrs = 0;
	with_stderr(call_parse, &c, res.err, sizeof(res.err));
	res.msg_len = req.n.nlmsg_len;

	if (res.msg_len <= NLMSG_LENGTH(0))
		return &res;
	opt = (struct rtattr *)((char *)&req.n + NLMSG_LENGTH(0));
	res.nested_flag = opt->rta_type == (TCA_OPTIONS | NLA_F_NESTED);
	if ((opt->rta_type & ~NLA_F_NESTED) != TCA_OPTIONS)
		return &res;
	{
		struct rtattr *rta = RTA_DATA(opt);
		int len = RTA_PAYLOAD(opt);

		while (RTA_OK(rta, len)) {
			res.n_attrs++;
			if (rta->rta_type <= TCA_FABRIC_MAX && !res.tb[rta->rta_type])
				res.tb[rta->rta_type] = rta;
			rta = RTA_NEXT(rta, len);
		}
	}
	return &res;
}

#define PARSE(...) parse_argv((const char *const[]){ __VA_ARGS__, NULL })

static unsigned long long attr_u64(const struct rtattr *rta)
{
	unsigned long long v = 0;
	__u64 v64;
	__u32 v32;

	if (RTA_PAYLOAD(rta) == sizeof(v64)) {
		memcpy(&v64, RTA_DATA(rta), sizeof(v64));
		v = v64;
	} else if (RTA_PAYLOAD(rta) == sizeof(v32)) {
		memcpy(&v32, RTA_DATA(rta), sizeof(v32));
		v = v32;
	}
	return v;
}

/* The option's value parses to want, as one attribute of alen bytes */
static void accepts(const char *opt, unsigned short type, unsigned int alen,
		    const char *value, unsigned long long want)
{
	struct parsed *r = PARSE(opt, value);
	struct rtattr *a = r->tb[type];
	bool ok = r->rc == 0 && r->nested_flag && r->n_attrs == 1 && a &&
		  RTA_PAYLOAD(a) == alen && attr_u64(a) == want;

	if (!tap_ok(ok, "%s %s -> %llu", opt, value, want))
		tap_diag("rc %d, nested %d, attrs %u, len %d, value %llu; stderr: %s",
			 r->rc, r->nested_flag, r->n_attrs, a ? (int)RTA_PAYLOAD(a) : -1,
			 a ? attr_u64(a) : 0, r->err);
}

static void rate_is(const char *value, unsigned long long want)
{
	accepts("rate", TCA_FABRIC_RATE, 8, value, want);
}

static void size_is(const char *opt, unsigned short type, const char *value,
		    unsigned long long want)
{
	accepts(opt, type, 4, value, want);
}

/*
 * The option's value is refused: tc gets an error, no attribute is built,
 * and stderr names the option and the value, says why, and what is legal.
 */
static void refuses(const char *opt, const char *value, const char *why)
{
	struct parsed *r = PARSE(opt, value);
	char head[512];
	bool ok;

	snprintf(head, sizeof(head), "Illegal \"%s\" value \"%s\": ", opt, value);
	ok = r->rc != 0 && !r->incomplete && r->msg_len == NLMSG_LENGTH(0) &&
	     strstr(r->err, head) && strstr(r->err, why) && strstr(r->err, "; want ");
	if (!tap_ok(ok, "%s \"%s\" refused: %s", opt, value, why))
		tap_diag("rc %d, message length %u; stderr: %s", r->rc, r->msg_len,
			 r->err);
}

/* ------------------------------------------------------------------ */
/* Rates */

static void t_rates(void)
{
	/* tc's get_rate64() goes through a double: it gave 1000 and 12496 */
	rate_is("1001bit", 1001);
	rate_is("12.5kbit", 12500);
	rate_is("1001", 1001);			/* a bare number is bit/s */
	rate_is("1gbit", 1000000000ULL);
	rate_is("1Gbit", 1000000000ULL);	/* units in any case, as tc */
	rate_is("100mbit", 100000000ULL);
	rate_is("100MBIT", 100000000ULL);
	rate_is("1kbit", 1000);
	rate_is("1tbit", 1000000000000ULL);
	rate_is("1kibit", 1024);
	rate_is("1Kibit", 1024);
	rate_is("1mibit", 1ULL << 20);
	rate_is("1gibit", 1ULL << 30);
	rate_is("1tibit", 1ULL << 40);
	rate_is("7bit", 7);
	/* byte units: bytes/s x 8; "bps" is Bps, as in tc */
	rate_is("8bps", 64);
	rate_is("8Bps", 64);
	rate_is("1KBps", 8000);
	rate_is("10gbps", 80000000000ULL);
	rate_is("1KiBps", 8192);
	rate_is("1MiBps", 8ULL << 20);
	rate_is("1.5TiBps", 13194139533312ULL);
	rate_is("0.125Bps", 1);			/* one bit per second */
	/* decimal forms */
	rate_is(".5kbit", 500);
	rate_is("1.", 1);
	rate_is("2.50000000000000000000000000000kbit", 2500);
	rate_is("0.000000001gbit", 1);
	rate_is("000000000000000000000000001001bit", 1001);
	/* zero is no rate limit */
	rate_is("0", 0);
	rate_is("0bit", 0);
	rate_is("0.0gbit", 0);
	/* the top of u64 */
	rate_is("18446744073709551615bit", 18446744073709551615ULL);
	rate_is("18446744073.709551615gbit", 18446744073709551615ULL);
	rate_is("2305843009213693951Bps", 18446744073709551608ULL);

	refuses("rate", "0.5bit", "not a whole number of bits per second");
	refuses("rate", "1.0001kbit", "not a whole number of bits per second");
	refuses("rate", "12.4999kbit", "not a whole number of bits per second");
	refuses("rate", "0.1Bps", "not a whole number of bits per second");
	refuses("rate", "0.1kibit", "not a whole number of bits per second");
	refuses("rate", "18446744073709551616bit", "above 18446744073709551615 bits");
	refuses("rate", "18446744073.709551616gbit", "above 18446744073709551615 bits");
	refuses("rate", "2305843009213693952Bps", "above 18446744073709551615 bits");
	refuses("rate", "99999999999999999999999999bit", "above 18446744073709551615");
	refuses("rate", "18446744074gbit", "above 18446744073709551615");
	refuses("rate", "-1", "not a number");
	refuses("rate", "+1", "not a number");
	refuses("rate", " 1", "not a number");
	refuses("rate", "inf", "not a number");
	refuses("rate", "nan", "not a number");
	refuses("rate", "", "not a number");
	refuses("rate", ".", "not a number");
	refuses("rate", "kbit", "not a number");
	refuses("rate", "1e3", "unknown unit \"e3\"");
	refuses("rate", "0x10", "unknown unit \"x10\"");
	refuses("rate", "1 ", "unknown unit \" \"");
	refuses("rate", "1kbits", "unknown unit \"kbits\"");
	refuses("rate", "1.5.5kbit", "unknown unit \".5kbit\"");
	refuses("rate", "10gbitz", "TiBps");	/* the message lists the units */
}

/* ------------------------------------------------------------------ */
/* Sizes */

static void t_sizes(void)
{
	size_is("limit", TCA_FABRIC_LIMIT, "1.5kb", 1536);
	size_is("limit", TCA_FABRIC_LIMIT, "0.5kb", 512);
	size_is("limit", TCA_FABRIC_LIMIT, "1500", 1500);
	size_is("limit", TCA_FABRIC_LIMIT, "1500b", 1500);
	size_is("limit", TCA_FABRIC_LIMIT, "1k", 1024);
	size_is("limit", TCA_FABRIC_LIMIT, "64K", 65536);
	size_is("limit", TCA_FABRIC_LIMIT, "1m", 1048576);
	size_is("limit", TCA_FABRIC_LIMIT, "1MB", 1048576);
	size_is("limit", TCA_FABRIC_LIMIT, "1g", 1ULL << 30);
	size_is("limit", TCA_FABRIC_LIMIT, "3gb", 3ULL << 30);
	/* tc's size "kbit" is 1024 bits */
	size_is("limit", TCA_FABRIC_LIMIT, "1kbit", 128);
	size_is("limit", TCA_FABRIC_LIMIT, "1mbit", 131072);
	size_is("limit", TCA_FABRIC_LIMIT, "1gbit", 1ULL << 27);
	size_is("limit", TCA_FABRIC_LIMIT, "4294967295", 4294967295ULL);
	size_is("limit", TCA_FABRIC_LIMIT, "4194303.9990234375kb", 4294967295ULL);
	size_is("limit", TCA_FABRIC_LIMIT, "3.999999999068677425384521484375gb",
		4294967295ULL);
	size_is("ecn_min", TCA_FABRIC_ECN_MIN, "30kb", 30720);
	size_is("ecn_max", TCA_FABRIC_ECN_MAX, "0", 0);		/* no marking */
	size_is("trim_at", TCA_FABRIC_TRIM_AT, "0", 0);		/* no trimming */
	size_is("trim_size", TCA_FABRIC_TRIM_SIZE, "128", 128);
	size_is("trim_limit", TCA_FABRIC_TRIM_LIMIT, "256kb", 262144);

	refuses("trim_at", "0.5b", "not a whole number of bytes");
	refuses("limit", "1.1kb", "not a whole number of bytes");
	refuses("limit", "0.3kbit", "not a whole number of bytes");
	refuses("limit", "4294967296", "above 4294967295 bytes");
	refuses("limit", "4gb", "above 4294967295 bytes");
	refuses("limit", "4194304kb", "above 4294967295 bytes");
	refuses("limit", "32gbit", "above 4294967295 bytes");
	refuses("limit", "99999999999999999999999k", "above 4294967295 bytes");
	refuses("limit", "1tb", "unknown unit \"tb\"");
	refuses("limit", "1e3", "unknown unit \"e3\"");
	refuses("limit", "1kib", "unknown unit \"kib\"");
	refuses("limit", "-1", "not a number");
	refuses("limit", " 1", "not a number");
	refuses("limit", "inf", "not a number");
	refuses("limit", "nan", "not a number");
}

/* ------------------------------------------------------------------ */
/* Plain numbers, DSCPs, the command line */

static void t_others(void)
{
	struct parsed *r;

	size_is("ecn_prob", TCA_FABRIC_ECN_PROB, "100", 100);
	size_is("ecn_prob", TCA_FABRIC_ECN_PROB, "0", 0);
	size_is("trim_dscp", TCA_FABRIC_TRIM_DSCP, "63", 63);
	refuses("ecn_prob", "101", "above 100");
	refuses("ecn_prob", "99999999999999999999", "above 100");
	refuses("ecn_prob", "50.0", "not a whole decimal number");
	refuses("ecn_prob", "-1", "not a whole decimal number");
	refuses("trim_dscp", "64", "above 63");

	accepts("trim_dscp_in", TCA_FABRIC_TRIM_DSCP_MASK, 8, "8-15,46",
		0xff00ULL | 1ULL << 46);
	accepts("trim_dscp_in", TCA_FABRIC_TRIM_DSCP_MASK, 8, "none", 0);
	accepts("trim_dscp_in", TCA_FABRIC_TRIM_DSCP_MASK, 8,
		"0x8000000000000001", 0x8000000000000001ULL);
	accepts("trim_dscp_in", TCA_FABRIC_TRIM_DSCP_MASK, 8,
		"0X00000000000000000000ff", 0xff);
	refuses("trim_dscp_in", "0x", "not a list of DSCPs");
	refuses("trim_dscp_in", "0x10000000000000000", "more than 64 bits");
	refuses("trim_dscp_in", "64", "not a list of DSCPs");
	refuses("trim_dscp_in", "15-8", "not a list of DSCPs");

	/* clear_stats: a flag attribute with no value, beside others */
	r = PARSE("clear_stats");
	tap_ok(r->rc == 0 && r->nested_flag && r->n_attrs == 1 &&
	       r->tb[TCA_FABRIC_CLEAR_STATS] &&
	       RTA_PAYLOAD(r->tb[TCA_FABRIC_CLEAR_STATS]) == 0,
	       "clear_stats: one empty flag attribute");
	r = PARSE("rate", "1mbit", "clear_stats");
	tap_ok(r->rc == 0 && r->n_attrs == 2 && r->tb[TCA_FABRIC_CLEAR_STATS] &&
	       r->tb[TCA_FABRIC_RATE] && attr_u64(r->tb[TCA_FABRIC_RATE]) == 1000000,
	       "clear_stats with rate 1mbit: both sent");

	/* every option, sent in attribute order, only those given */
	r = PARSE("trim_limit", "64kb", "rate", "1001bit", "ecn_max", "120kb");
	tap_ok(r->rc == 0 && r->nested_flag && r->n_attrs == 3 &&
	       r->tb[TCA_FABRIC_RATE] && attr_u64(r->tb[TCA_FABRIC_RATE]) == 1001 &&
	       r->tb[TCA_FABRIC_ECN_MAX] &&
	       attr_u64(r->tb[TCA_FABRIC_ECN_MAX]) == 122880 &&
	       r->tb[TCA_FABRIC_TRIM_LIMIT] &&
	       attr_u64(r->tb[TCA_FABRIC_TRIM_LIMIT]) == 65536 &&
	       r->tb[TCA_FABRIC_RATE] < r->tb[TCA_FABRIC_ECN_MAX] &&
	       r->tb[TCA_FABRIC_ECN_MAX] < r->tb[TCA_FABRIC_TRIM_LIMIT],
	       "three options: three attributes, in attribute order, nested");

	r = PARSE("rate", "1001bit", "limit", "0.5b");
	tap_ok(r->rc != 0 && r->msg_len == NLMSG_LENGTH(0),
	       "a refusal after a good option sends nothing");

	r = PARSE("rate");
	tap_ok(r->incomplete, "an option without a value: incomplete_command()");

	r = PARSE("bogus", "1");
	tap_ok(r->rc != 0 && strstr(r->err, "What is \"bogus\"?") &&
	       strstr(r->err, "Usage: ... fabric"), "an unknown option is refused");

	r = PARSE("help");
	tap_ok(r->rc != 0 && strstr(r->err, "Usage: ... fabric") &&
	       strstr(r->err, "12.5kbit") && strstr(r->err, "KiBps") &&
	       strstr(r->err, "1.1kb"),
	       "help: the usage, with the units and the exactness rule");
}

/* ------------------------------------------------------------------ */
/* Printing */

static struct {
	struct nlmsghdr n;
	char buf[4096];
} dump;

/* A TCA_OPTIONS nest as the kernel dumps it, from attribute/value pairs */
static struct rtattr *build_opts(const unsigned long long *pairs, int n)
{
	struct rtattr *nest;
	int i;

	memset(&dump, 0, sizeof(dump));
	dump.n.nlmsg_len = NLMSG_LENGTH(0);
	nest = addattr_nest(&dump.n, sizeof(dump), TCA_OPTIONS | NLA_F_NESTED);
	for (i = 0; i < n; i++) {
		unsigned short type = pairs[2 * i];
		__u64 v64 = pairs[2 * i + 1];
		__u32 v32 = v64;

		if (type == TCA_FABRIC_RATE || type == TCA_FABRIC_TRIM_DSCP_MASK)
			addattr_l(&dump.n, sizeof(dump), type, &v64, sizeof(v64));
		else
			addattr_l(&dump.n, sizeof(dump), type, &v32, sizeof(v32));
	}
	addattr_nest_end(&dump.n, nest);
	return nest;
}

static const char *print_opts(struct rtattr *opt, bool as_json)
{
	tc_capture(as_json);
	fabric_qdisc_util.print_qopt(&fabric_qdisc_util, stdout, opt);
	return tc_out;
}

static void text_is(const unsigned long long *pairs, int n, const char *want)
{
	const char *got = print_opts(build_opts(pairs, n), false);

	if (!tap_ok(!strcmp(got, want), "text: \"%s\"", want))
		tap_diag("got \"%s\"", got);
}

static void json_is(const unsigned long long *pairs, int n, const char *want)
{
	const char *got = print_opts(build_opts(pairs, n), true);

	if (!tap_ok(!strcmp(got, want), "JSON: %s", want))
		tap_diag("got %s", got);
}

/* Parses the words, prints the result, parses that: the same attributes */
static void round_trip(const char *const *words)
{
	char text[1024], *argv[40], *tok, *save = NULL;
	unsigned char first_attrs[1024];
	unsigned int first_len;
	struct parsed *r;
	const char *got;
	int argc = 0;
	bool ok;

	r = parse_argv(words);
	first_len = r->msg_len;
	memcpy(first_attrs, &req, first_len < sizeof(first_attrs) ?
	       first_len : sizeof(first_attrs));
	got = print_opts((struct rtattr *)((char *)&req.n + NLMSG_LENGTH(0)), false);
	snprintf(text, sizeof(text), "%s", got);
	for (tok = strtok_r(text, " ", &save); tok && argc < 39;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	r = parse_argv((const char *const *)argv);
	ok = r->rc == 0 && r->msg_len == first_len &&
	     !memcmp(first_attrs, &req, first_len);
	if (!tap_ok(ok, "round trip through \"%s\"", got))
		tap_diag("rc %d, %u bytes then %u; stderr: %s", r->rc, first_len,
			 r->msg_len, r->err);
}

#define ROUND_TRIP(...) round_trip((const char *const[]){ __VA_ARGS__, NULL })

static void t_print(void)
{
	static const unsigned long long r10g[] = {
		TCA_FABRIC_RATE, 10000000000ULL, TCA_FABRIC_LIMIT, 1048576,
	};
	static const unsigned long long r1001[] = {
		TCA_FABRIC_RATE, 1001, TCA_FABRIC_LIMIT, 1536,
		TCA_FABRIC_ECN_PROB, 20, TCA_FABRIC_TRIM_DSCP_MASK, 0xff00ULL | 1ULL << 46,
	};
	static const unsigned long long r0[] = { TCA_FABRIC_RATE, 0 };
	static const unsigned long long rmax[] = {
		TCA_FABRIC_RATE, 18446744073709551615ULL,
	};

	text_is(r10g, 2, "rate 10gbit limit 1mb ");
	json_is(r10g, 2, "\"rate\":1250000000,\"rate_bits\":10000000000,\"limit\":1048576");
	text_is(r1001, 4, "rate 1001bit limit 1536b ecn_prob 20 trim_dscp_in 8-15,46 ");
	/* 1001 bit/s is 125.125 bytes/s: JSON's bytes/s lose the remainder */
	json_is(r1001, 4,
		"\"rate\":125,\"rate_bits\":1001,\"limit\":1536,\"ecn_prob\":20,\"trim_dscp_in\":\"8-15,46\"");
	text_is(r0, 1, "rate 0 ");
	json_is(r0, 1, "\"rate\":0,\"rate_bits\":0");
	text_is(rmax, 1, "rate 18446744073709551615bit ");
	json_is(rmax, 1, "\"rate\":2305843009213693951,\"rate_bits\":18446744073709551615");

	ROUND_TRIP("rate", "1001bit", "limit", "1.5kb");
	ROUND_TRIP("rate", "12.5kbit", "limit", "3.999999999068677425384521484375gb");
	ROUND_TRIP("rate", "1.5TiBps", "trim_dscp_in", "0x8000000000000001");
	ROUND_TRIP("rate", "10gbit", "limit", "1mb", "ecn_min", "30kb", "ecn_max", "120kb",
		   "ecn_prob", "20", "trim_at", "100kb", "trim_size", "128", "trim_dscp", "11",
		   "trim_dscp_in", "46", "trim_limit", "256kb");
}

static void t_xstats(void)
{
	static __u64 buf[(RTA_SPACE(sizeof(struct tc_fabric_xstats)) + 7) / 8];
	struct rtattr *rta = (struct rtattr *)buf;
	struct tc_fabric_xstats st;
	const char *got;

	memset(&st, 0, sizeof(st));
	st.ecn_marked = 5;
	st.trimmed = 7;
	st.delay_count = 4;
	st.delay_sum_ns = 4000;
	st.delay_max_ns = 1500;
	st.delay_hist[1] = 4;
	rta->rta_type = TCA_XSTATS;
	rta->rta_len = RTA_LENGTH(sizeof(st));
	memcpy(RTA_DATA(rta), &st, sizeof(st));

	tc_capture(false);
	fabric_qdisc_util.print_xstats(&fabric_qdisc_util, stdout, rta);
	got = tc_out;
	if (!tap_ok(strstr(got, "  ecn_marked 5 trimmed 7 ") &&
		    strstr(got, "delay: n 4 mean 1.0us max 1.5us p50 <2us p99 <2us") &&
		    strstr(got, "delay histogram (us): 1-2:4"), "xstats: text"))
		tap_diag("got \"%s\"", got);

	tc_capture(true);
	fabric_qdisc_util.print_xstats(&fabric_qdisc_util, stdout, rta);
	got = tc_out;
	if (!tap_ok(strstr(got, "\"ecn_marked\":5,\"trimmed\":7,") == got &&
		    strstr(got, "\"delay_count\":4,\"delay_sum_ns\":4000,\"delay_max_ns\":1500,") &&
		    strstr(got, "\"delay_p50_us\":2,\"delay_p99_us\":2,\"delay_hist\":[{") &&
		    strstr(got, "{\"lo_us\":1,\"hi_us\":2,\"packets\":4}"), "xstats: JSON"))
		tap_diag("got %s", got);
}

/* The fine buckets (uapi fabric_sched.h): contiguous, each at most 1/8 of
 * its lower bound wide, every delay in the bucket whose bounds hold it.
 */
static void t_fine_buckets(void)
{
	const __u32 last = TC_FABRIC_FINE_BUCKETS - 1;
	bool holds = true, contiguous = true, narrow = true, monotone = true;
	__u32 b, prev = 0;
	__u64 v;
	int k, d;

	for (b = 0; b + 1 < last; b++) {
		__u64 lo = tc_fabric_fine_lo(b), hi = tc_fabric_fine_lo(b + 1);

		if (hi <= lo || tc_fabric_fine_bucket(lo) != b ||
		    tc_fabric_fine_bucket(hi - 1) != b || tc_fabric_fine_bucket(hi) != b + 1)
			contiguous = false;
		if (b >= TC_FABRIC_FINE_SUB ? (hi - lo) * 8 > lo : hi - lo != 1)
			narrow = false;
	}
	for (v = 0; v < 300000; v++) {
		b = tc_fabric_fine_bucket(v);
		if (b < prev)
			monotone = false;
		prev = b;
		if (b >= last || v < tc_fabric_fine_lo(b) || v >= tc_fabric_fine_lo(b + 1))
			holds = false;
	}
	for (k = 3; k < 64; k++)
		for (d = -1; d <= 1; d++) {
			v = (1ULL << k) + d;
			b = tc_fabric_fine_bucket(v);
			if (b > last || v < tc_fabric_fine_lo(b) ||
			    (b < last && v >= tc_fabric_fine_lo(b + 1)))
				holds = false;
		}
	tap_ok(contiguous, "fine buckets: contiguous, each bound in its own bucket");
	tap_ok(narrow, "fine buckets: at most 12.5 %% of the lower bound wide");
	tap_ok(holds && monotone, "fine buckets: every delay lies within its bucket's bounds");
	tap_ok(tc_fabric_fine_lo(last) == 1ULL << 36 &&
	       tc_fabric_fine_bucket((1ULL << 36) - 1) == last - 1 &&
	       tc_fabric_fine_bucket(1ULL << 36) == last &&
	       tc_fabric_fine_bucket(~0ULL) == last,
	       "fine buckets: the last one holds 2^36 ns and more");
	tap_ok(TC_FABRIC_XSTATS_V1_LEN == 13 * 8 + TC_FABRIC_DELAY_BUCKETS * 8 &&
	       sizeof(struct tc_fabric_xstats) == TC_FABRIC_XSTATS_V1_LEN + 24,
	       "xstats: the fine window is appended after the old layout");
}

/* Whether got holds each string up to NULL, in that order, back to back */
static bool has_all(const char *got, ...)
{
	const char *want, *at = NULL;
	va_list ap;
	bool ok = true;

	va_start(ap, got);
	while (ok && (want = va_arg(ap, const char *))) {
		if (!at)
			at = strstr(got, want);
		else if (strncmp(at, want, strlen(want)))
			at = NULL;
		ok = at;
		if (at)
			at += strlen(want);
	}
	va_end(ap);
	return ok;
}

/* print_xstats of a head plus n window counts, payload len bytes */
static const char *fine_xstats(bool as_json, const struct tc_fabric_xstats *st,
			       const __u64 *cnt, unsigned int n, size_t len)
{
	static __u64 buf[(RTA_SPACE(sizeof(struct tc_fabric_xstats)) + 7) / 8 + 16];
	struct rtattr *rta = (struct rtattr *)buf;

	memset(buf, 0, sizeof(buf));
	rta->rta_type = TCA_XSTATS;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), st, sizeof(*st));
	memcpy((char *)RTA_DATA(rta) + sizeof(*st), cnt, n * sizeof(*cnt));
	tc_capture(as_json);
	fabric_qdisc_util.print_xstats(&fabric_qdisc_util, stdout, rta);
	return tc_out;
}

static void t_xstats_fine(void)
{
	/* 1000 packets from 1024 ns on: 500 + 490 + 9 + 1 */
	const __u64 cnt[] = { 500, 490, 9, 1 };
	const size_t full = sizeof(struct tc_fabric_xstats) + sizeof(cnt);
	struct tc_fabric_xstats st;
	const char *got;

	memset(&st, 0, sizeof(st));
	st.delay_count = 1000;
	st.delay_sum_ns = 1100000;
	st.delay_max_ns = 1400;
	st.delay_hist[11] = 1000;	/* [1024, 2048) us in the old buckets */
	st.delay_fine_first = tc_fabric_fine_bucket(1024);
	st.delay_fine_len = 4;
	st.delay_fine_offset = sizeof(st);

	got = fine_xstats(false, &st, cnt, 4, full);
	if (!tap_ok(has_all(got, "delay: n 1000 mean 1.1us max 1.4us",
			    " p50 <1.16us p99 <1.28us p99.9 <1.41us", NULL) &&
		    !strstr(got, "p50 <2048us"), "xstats: fine percentiles in text, to 3 digits"))
		tap_diag("got \"%s\"", got);
	got = fine_xstats(true, &st, cnt, 4, full);
	if (!tap_ok(has_all(got, "\"delay_p50_us\":2048,\"delay_p99_us\":2048,",
			    "\"delay_fine_p50_ns\":1152,\"delay_fine_p50_us\":1.152,",
			    "\"delay_fine_p99_ns\":1280,\"delay_fine_p99_us\":1.28,",
			    "\"delay_fine_p999_ns\":1408,\"delay_fine_p999_us\":1.408,", NULL) &&
		    has_all(got, "\"delay_fine_hist\":[",
			    "{\"lo_ns\":1024,\"hi_ns\":1152,\"packets\":500},",
			    "{\"lo_ns\":1152,\"hi_ns\":1280,\"packets\":490},",
			    "{\"lo_ns\":1280,\"hi_ns\":1408,\"packets\":9},",
			    "{\"lo_ns\":1408,\"hi_ns\":1536,\"packets\":1}]", NULL),
		    "xstats: fine percentiles and histogram in JSON, exact in ns"))
		tap_diag("got %s", got);

	/* three digits after rounding up: a maximum of 9994 ns bounds the
	 * packets above the window by 9995 ns, 10.0us; 99949 ns by 100us
	 */
	{
		const __u64 one[] = { 1 };
		struct tc_fabric_xstats t = st;
		bool ok;

		t.delay_count = 2;
		t.delay_fine_len = 1;
		t.delay_fine_above = 1;
		t.delay_max_ns = 9994;
		got = fine_xstats(false, &t, one, 1, sizeof(t) + 8);
		ok = has_all(got, " p99 <10.0us p99.9 <10.0us", NULL);
		t.delay_max_ns = 99949;
		got = fine_xstats(false, &t, one, 1, sizeof(t) + 8);
		ok = ok && has_all(got, " p99 <100us p99.9 <100us", NULL);
		if (!tap_ok(ok, "xstats: bounds print to three digits, rounded up"))
			tap_diag("got \"%s\"", got);
	}

	/* 100 packets below the window, 2 above it (max 3 ms): 1102 in all */
	st.delay_count = 1102;
	st.delay_max_ns = 3000000;
	st.delay_fine_below = 100;
	st.delay_fine_above = 2;
	got = fine_xstats(true, &st, cnt, 4, full);
	if (!tap_ok(has_all(got, "\"delay_fine_p50_ns\":1152,", NULL) &&
		    has_all(got, "\"delay_fine_p999_ns\":3000001,",
			    "\"delay_fine_p999_us\":3001,", NULL) &&
		    has_all(got, "\"delay_fine_hist\":[",
			    "{\"lo_ns\":0,\"hi_ns\":1024,\"packets\":100,\"clipped\":true},",
			    "{\"lo_ns\":1024,", NULL) &&
		    has_all(got, "{\"lo_ns\":1408,\"hi_ns\":1536,\"packets\":1},",
			    "{\"lo_ns\":1536,\"hi_ns\":3000001,\"packets\":2,\"clipped\":true}]",
			    NULL),
		    "xstats: packets below and above the window, bounded by 0 and the maximum"))
		tap_diag("got %s", got);
	st.delay_count = 1000;
	st.delay_max_ns = 1400;
	st.delay_fine_below = 0;
	st.delay_fine_above = 0;

	got = fine_xstats(false, &st, cnt, 4, TC_FABRIC_XSTATS_V1_LEN);
	if (!tap_ok(strstr(got, "p50 <2048us p99 <2048us") && !strstr(got, "p99.9"),
		    "xstats: an older module's (no fine window): the power-of-two percentiles"))
		tap_diag("got \"%s\"", got);
	got = fine_xstats(false, &st, cnt, 4, full - 8);
	if (!tap_ok(strstr(got, "p50 <2048us p99 <2048us") && !strstr(got, "p99.9"),
		    "xstats: a window longer than the payload is ignored"))
		tap_diag("got \"%s\"", got);
	st.delay_fine_offset = sizeof(st) + 8;
	got = fine_xstats(false, &st, cnt, 4, full);
	if (!tap_ok(strstr(got, "p50 <2048us") && !strstr(got, "p99.9"),
		    "xstats: counts at an offset past the payload are ignored"))
		tap_diag("got \"%s\"", got);
	st.delay_fine_offset = sizeof(st);
	st.delay_fine_first = 0xffffffff;
	st.delay_fine_len = 1;
	got = fine_xstats(false, &st, cnt, 4, full);
	if (!tap_ok(strstr(got, "p50 <2048us") && !strstr(got, "p99.9"),
		    "xstats: a window that would wrap past the last bucket is ignored"))
		tap_diag("got \"%s\"", got);

	st.delay_fine_first = TC_FABRIC_FINE_BUCKETS - 1;
	st.delay_fine_len = 1;
	st.delay_max_ns = (1ULL << 36) + 5;
	got = fine_xstats(false, &st, cnt, 1, sizeof(st) + 8);
	if (!tap_ok(has_all(got, " p50 <68719477us p99 <68719477us p99.9 <68719477us", NULL),
		    "xstats: the open last bucket is bounded by the maximum"))
		tap_diag("got \"%s\"", got);
	st.delay_max_ns = 5;	/* inconsistent: below the open bucket */
	got = fine_xstats(false, &st, cnt, 1, sizeof(st) + 8);
	if (!tap_ok(has_all(got, " p50 <68719476.737us", NULL) ||
		    has_all(got, " p50 <68719477us", NULL),
		    "xstats: an open range never ends before it starts"))
		tap_diag("got \"%s\"", got);
	st.delay_max_ns = ~0ULL;
	got = fine_xstats(false, &st, cnt, 1, sizeof(st) + 8);
	if (!tap_ok(has_all(got, " p50 <18446744073709552us", NULL),
		    "xstats: a maximum of 2^64 - 1 ns does not wrap"))
		tap_diag("got \"%s\"", got);
	st.delay_fine_len = 2;
	got = fine_xstats(false, &st, cnt, 2, sizeof(st) + 16);
	if (!tap_ok(!strstr(got, "p99.9"), "xstats: a window past the last bucket is ignored"))
		tap_diag("got \"%s\"", got);
}

int main(void)
{
	tap_header();

	t_rates();
	t_sizes();
	t_others();
	t_print();
	t_xstats();
	t_fine_buckets();
	t_xstats_fine();

	return tap_finish();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * q_fabric.so: the tc plugin of the "fabric" qdisc (sch_fabric.ko).
 *
 *	tc qdisc add dev X root fabric rate 10gbit limit 1mb \
 *		ecn_min 30kb ecn_max 120kb ecn_prob 20 \
 *		trim_at 100kb trim_size 128 trim_dscp 11 trim_dscp_in 46 \
 *		trim_limit 256kb
 *
 * Design.  The shape is that of iproute2's tc/q_pie.c: an explain()
 * usage, a parse callback that walks argv and ends in one nested
 * TCA_OPTIONS, a print callback for the options and one for the xstats,
 * and a struct qdisc_util named <kind>_qdisc_util that tc finds with
 * dlsym().  Unlike q_pie, it is built against Debian's installed tc and
 * not inside an iproute2 tree: Debian ships no iproute2 headers, so
 * tc_plugin.h declares the 6.1 ABI (struct qdisc_util) and the helpers
 * it uses, which Debian's tc exports (it is linked -export-dynamic, and
 * dlopen()s q_<kind>.so from $TC_LIB_DIR or its library directory), and
 * include/uapi/linux/fabric_sched.h is the contract with the kernel.
 *
 * One table, fabric_opts[], in attribute order, drives both directions,
 * so what "tc qdisc show" prints is what the parser reads back:
 *  - only the options given are sent, so "tc qdisc change" changes those
 *    and no other; the kernel holds the defaults and checks the values
 *    against each other (ecn_min <= ecn_max and so on);
 *  - TCA_OPTIONS carries NLA_F_NESTED: the kernel parses it strictly;
 *  - rates travel as u64 bits per second, sizes as u32 bytes, the
 *    trimmable DSCPs as a u64 mask;
 *  - numbers are parsed here, exactly, in integers: tc's get_rate64() and
 *    get_size() go through a double ("1001bit" became 1000 bit/s, "0.5b"
 *    0 bytes).  The units are theirs, in any case; a value that is not a
 *    whole number of bits per second or of bytes, or that does not fit,
 *    is refused with a message;
 *  - text shows sizes and rates with the largest exact unit ("1mb",
 *    "10gbit"), which reads back to the same value; JSON shows raw
 *    numbers under the same keys, except that "rate" is bytes per second
 *    as tc's own qdiscs print it (print_color_rate()), truncated, with the
 *    exact bits per second in "rate_bits".
 * Helpers whose signature changed after 6.1 (sprint_size, tc_print_rate)
 * are not used: the formatters below are our own.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/fabric_sched.h>

#include "tc_plugin.h"

#define FABRIC_DSCP_MAX		63
#define FABRIC_NLA_MAXLEN	1024

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... fabric [ rate RATE ] [ limit SIZE ]\n"
		"                  [ ecn_min SIZE ] [ ecn_max SIZE ] [ ecn_prob PERCENT ]\n"
		"                  [ trim_at SIZE ] [ trim_size SIZE ] [ trim_dscp DSCP ]\n"
		"                  [ trim_dscp_in DSCPS ] [ trim_limit SIZE ] [ clear_stats ]\n"
		"RATE: a whole number of bit/s, as a number (10, 12.5) and a unit:\n"
		"  bit (or none), kbit, mbit, gbit, tbit (x 1000), kibit, mibit, gibit,\n"
		"  tibit (x 1024); or bytes/s: Bps, KBps ... TBps, KiBps ... TiBps.\n"
		"SIZE: a whole number of bytes up to 4294967295, as a number and a unit:\n"
		"  b (or none), k or kb, m or mb, g or gb (x 1024); kbit, mbit, gbit\n"
		"  (x 1024 bits).  Units in any case: 1Gbit is 1gbit, 8bps is 8Bps.\n"
		"  \"12.5kbit\" is 12500 bit/s and \"1.5kb\" 1536 bytes; \"0.5bit\" and\n"
		"  \"1.1kb\" are refused.\n"
		"  rate RATE           egress rate; 0 is no rate limit      default 0\n"
		"  limit SIZE          bytes of the data queue, at most 1gb default 1mb (1048576)\n"
		"  ecn_min SIZE        data backlog where CE marking starts default 0\n"
		"  ecn_max SIZE        data backlog where marking reaches\n"
		"                      ecn_prob; 0 is no ECN marking (and\n"
		"                      clears ecn_min)                      default 0 (off)\n"
		"  ecn_prob PERCENT    0..100, marking probability at\n"
		"                      ecn_max                              default 100\n"
		"  trim_at SIZE        data backlog above which packets are\n"
		"                      trimmed; 0 is no trimming            default 0 (off)\n"
		"  trim_size SIZE      bytes of IP datagram a trimmed\n"
		"                      packet keeps                         default 128\n"
		"  trim_dscp DSCP      0..63, DSCP of trimmed packets       default 0\n"
		"  trim_dscp_in DSCPS  DSCPs that may be trimmed: a list\n"
		"                      such as 46, 10,46 or 8-15,46; a\n"
		"                      64-bit mask 0x... (bit d: DSCP d);\n"
		"                      or none                              default none\n"
		"  trim_limit SIZE     bytes of the queue of trimmed\n"
		"                      headers, at most 1gb                 default 256kb (262144)\n"
		"  clear_stats         (change) zero the counters and delay\n"
		"                      histograms of tc -s; the queues and\n"
		"                      tc's own sent/dropped totals stay\n"
		"Only the options given are sent: \"tc qdisc change\" changes those alone.\n");
}

enum fabric_fmt {
	FABRIC_FMT_RATE,	/* u64 bit/s; text "10gbit" */
	FABRIC_FMT_SIZE,	/* u32 bytes; text "1mb", "30kb", "1500b" */
	FABRIC_FMT_NUM,		/* u32 0..max */
	FABRIC_FMT_DSCPS,	/* u64 mask; text "8-15,46" or "none" */
};

struct fabric_opt {
	const char *name;	/* option, and key of its JSON value */
	unsigned short type;	/* TCA_FABRIC_* */
	enum fabric_fmt fmt;
	__u32 max;		/* FABRIC_FMT_NUM only */
	const char *hint;	/* what a legal value looks like */
};

/* In attribute order, which is also the order of "tc qdisc show" */
static const struct fabric_opt fabric_opts[] = {
	{ "rate", TCA_FABRIC_RATE, FABRIC_FMT_RATE, 0,
	  "a rate such as 10gbit or 12.5kbit, or 0" },
	{ "limit", TCA_FABRIC_LIMIT, FABRIC_FMT_SIZE, 0,
	  "a size such as 1mb" },
	{ "ecn_min", TCA_FABRIC_ECN_MIN, FABRIC_FMT_SIZE, 0,
	  "a size such as 30kb" },
	{ "ecn_max", TCA_FABRIC_ECN_MAX, FABRIC_FMT_SIZE, 0,
	  "a size such as 120kb, or 0" },
	{ "ecn_prob", TCA_FABRIC_ECN_PROB, FABRIC_FMT_NUM, 100,
	  "a percentage, 0..100" },
	{ "trim_at", TCA_FABRIC_TRIM_AT, FABRIC_FMT_SIZE, 0,
	  "a size such as 100kb, or 0" },
	{ "trim_size", TCA_FABRIC_TRIM_SIZE, FABRIC_FMT_SIZE, 0,
	  "a size such as 128" },
	{ "trim_dscp", TCA_FABRIC_TRIM_DSCP, FABRIC_FMT_NUM, FABRIC_DSCP_MAX,
	  "a DSCP, 0..63" },
	{ "trim_dscp_in", TCA_FABRIC_TRIM_DSCP_MASK, FABRIC_FMT_DSCPS, 0,
	  "DSCPs 0..63 such as 8-15,46, a mask 0x..., or none" },
	{ "trim_limit", TCA_FABRIC_TRIM_LIMIT, FABRIC_FMT_SIZE, 0,
	  "a size such as 256kb" },
};

static bool fabric_opt_is_u64(const struct fabric_opt *o)
{
	return o->fmt == FABRIC_FMT_RATE || o->fmt == FABRIC_FMT_DSCPS;
}

/* A unit of a number, and what one of it is in bit/s (rates) or bytes */
struct fabric_unit {
	const char *name;
	__u64 scale;
};

/*
 * The units of tc's get_rate() and get_rate64() (iproute2 6.1,
 * lib/utils_math.c), matched in any case as there: "" and "bit" are
 * bit/s, the "B" ones bytes/s.  Every scale is 2^a x 5^b, below 2^44.
 */
static const struct fabric_unit fabric_rate_units[] = {
	{ "", 1 },
	{ "bit", 1 },
	{ "kbit", 1000ULL },
	{ "mbit", 1000000ULL },
	{ "gbit", 1000000000ULL },
	{ "tbit", 1000000000000ULL },
	{ "kibit", 1ULL << 10 },
	{ "mibit", 1ULL << 20 },
	{ "gibit", 1ULL << 30 },
	{ "tibit", 1ULL << 40 },
	{ "Bps", 8 },
	{ "KBps", 8000ULL },
	{ "MBps", 8000000ULL },
	{ "GBps", 8000000000ULL },
	{ "TBps", 8000000000000ULL },
	{ "KiBps", 8ULL << 10 },
	{ "MiBps", 8ULL << 20 },
	{ "GiBps", 8ULL << 30 },
	{ "TiBps", 8ULL << 40 },
};

/*
 * The units of tc's get_size(), in bytes: "" is b, "kbit" is 1024 bits
 * there, as "kb" is 1024 bytes.
 */
static const struct fabric_unit fabric_size_units[] = {
	{ "", 1 },
	{ "b", 1 },
	{ "k", 1ULL << 10 },
	{ "kb", 1ULL << 10 },
	{ "m", 1ULL << 20 },
	{ "mb", 1ULL << 20 },
	{ "g", 1ULL << 30 },
	{ "gb", 1ULL << 30 },
	{ "kbit", 1ULL << 7 },
	{ "mbit", 1ULL << 17 },
	{ "gbit", 1ULL << 27 },
};

/* Why a value was refused */
enum fabric_err {
	FABRIC_OK,
	FABRIC_ERR_SYNTAX,	/* not a number as we write them */
	FABRIC_ERR_UNIT,	/* a number, then no unit of the table */
	FABRIC_ERR_FRACTION,	/* not a whole number of bit/s or bytes */
	FABRIC_ERR_RANGE,	/* above what the attribute holds */
};

/*
 * A decimal number and a unit, read exactly in integers: "10gbit",
 * "12.5kbit", "1.5kb", ".5kb", "1.", "1001".  The number starts with a
 * digit or with a point and a digit: no sign, blank, exponent, hex, inf
 * or nan (all of which strtod() takes).  Its value times the unit must be
 * a whole number of the base unit, at most max.  *unitp is set to the
 * unit's text, for the message.
 */
static enum fabric_err fabric_parse_scaled(const char *s,
					   const struct fabric_unit *units,
					   unsigned int n_units, __u64 max,
					   __u64 *val, const char **unitp)
{
	const char *p, *int_end, *frac, *end;
	bool too_big = false, inexact = false;
	__u64 whole = 0, part = 0, scale, t;
	unsigned int i, d;

	for (p = s; isdigit((unsigned char)*p); p++) {
		d = *p - '0';
		if (whole > (UINT64_MAX - d) / 10)
			too_big = true;
		else
			whole = whole * 10 + d;
	}
	int_end = p;
	frac = p;
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
	}
	end = p;
	if (int_end == s && end == frac)
		return FABRIC_ERR_SYNTAX;	/* no digit */

	*unitp = end;
	for (i = 0; i < n_units; i++)
		if (!strcasecmp(end, units[i].name))
			break;
	if (i == n_units)
		return FABRIC_ERR_UNIT;
	scale = units[i].scale;

	/*
	 * The fraction times the scale, by long multiplication from its last
	 * digit: every digit of the product below the point must be 0, and
	 * what is carried over the point is the whole part.  The carry stays
	 * below scale, so t below 10 x scale.
	 */
	for (p = end; p > frac; ) {
		p--;
		t = (__u64)(*p - '0') * scale + part;
		if (t % 10)
			inexact = true;
		part = t / 10;
	}
	if (inexact)
		return FABRIC_ERR_FRACTION;
	if (too_big || part > max || whole > (max - part) / scale)
		return FABRIC_ERR_RANGE;
	*val = whole * scale + part;
	return FABRIC_OK;
}

/* Decimal digits alone, at most max */
static enum fabric_err fabric_parse_uint(const char *s, __u64 max, __u64 *val)
{
	__u64 v = 0;
	unsigned int d;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return FABRIC_ERR_SYNTAX;
	for (; *s; s++) {
		d = *s - '0';
		if (d > max || v > (max - d) / 10)
			return FABRIC_ERR_RANGE;
		v = v * 10 + d;
	}
	*val = v;
	return FABRIC_OK;
}

/* Hex digits alone, at most 64 bits of them */
static enum fabric_err fabric_parse_hex64(const char *s, __u64 *val)
{
	__u64 v = 0;
	unsigned int d;

	if (!*s || strspn(s, "0123456789abcdefABCDEF") != strlen(s))
		return FABRIC_ERR_SYNTAX;
	for (; *s; s++) {
		d = isdigit((unsigned char)*s) ? *s - '0' :
		    tolower((unsigned char)*s) - 'a' + 10;
		if (v >> 60)
			return FABRIC_ERR_RANGE;
		v = v << 4 | d;
	}
	*val = v;
	return FABRIC_OK;
}

/* One DSCP of a list, advancing *sp past it */
static int fabric_parse_dscp(const char **sp, unsigned int *dscp)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)**sp))
		return -1;
	v = strtoul(*sp, &end, 10);
	if (v > FABRIC_DSCP_MAX)
		return -1;
	*dscp = v;
	*sp = end;
	return 0;
}

/* "none", "0x..." or a list of DSCPs and ranges: "46", "10,46", "8-15,46" */
static enum fabric_err fabric_parse_dscps(const char *s, __u64 *mask)
{
	unsigned int lo, hi, d;
	__u64 m = 0;

	if (!strcmp(s, "none")) {
		*mask = 0;
		return FABRIC_OK;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return fabric_parse_hex64(s + 2, mask);
	for (;;) {
		if (fabric_parse_dscp(&s, &lo))
			return FABRIC_ERR_SYNTAX;
		hi = lo;
		if (*s == '-') {
			s++;
			if (fabric_parse_dscp(&s, &hi) || hi < lo)
				return FABRIC_ERR_SYNTAX;
		}
		for (d = lo; d <= hi; d++)
			m |= 1ULL << d;
		if (!*s)
			break;
		if (*s != ',')
			return FABRIC_ERR_SYNTAX;
		s++;
	}
	*mask = m;
	return FABRIC_OK;
}

static enum fabric_err fabric_parse_value(const struct fabric_opt *o,
					  const char *arg, __u64 *val,
					  const char **unitp)
{
	switch (o->fmt) {
	case FABRIC_FMT_RATE:
		return fabric_parse_scaled(arg, fabric_rate_units,
					   ARRAY_SIZE(fabric_rate_units),
					   UINT64_MAX, val, unitp);
	case FABRIC_FMT_SIZE:
		return fabric_parse_scaled(arg, fabric_size_units,
					   ARRAY_SIZE(fabric_size_units),
					   UINT32_MAX, val, unitp);
	case FABRIC_FMT_NUM:
		return fabric_parse_uint(arg, o->max, val);
	case FABRIC_FMT_DSCPS:
		return fabric_parse_dscps(arg, val);
	}
	return FABRIC_ERR_SYNTAX;
}

/* The units of a table, for a message: "bit, kbit, ..." */
static void fabric_sprint_units(char *buf, size_t len,
				const struct fabric_unit *units,
				unsigned int n_units)
{
	size_t pos = 0;
	unsigned int i;
	int w;

	buf[0] = '\0';
	for (i = 0; i < n_units; i++) {
		if (!units[i].name[0])
			continue;
		w = snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
			     units[i].name);
		if (w < 0 || (size_t)w >= len - pos)
			return;
		pos += w;
	}
}

/* Why the value of o was refused, as the middle of "Illegal ..." */
static void fabric_sprint_why(char *buf, size_t len,
			      const struct fabric_opt *o, enum fabric_err err,
			      const char *unit)
{
	bool rate = o->fmt == FABRIC_FMT_RATE;
	char units[256];

	switch (err) {
	case FABRIC_OK:
	case FABRIC_ERR_SYNTAX:
		break;
	case FABRIC_ERR_UNIT:
		if (rate)
			fabric_sprint_units(units, sizeof(units), fabric_rate_units,
					    ARRAY_SIZE(fabric_rate_units));
		else
			fabric_sprint_units(units, sizeof(units), fabric_size_units,
					    ARRAY_SIZE(fabric_size_units));
		snprintf(buf, len, "unknown unit \"%s\" (units: %s; none is %s)",
			 unit, units, rate ? "bit" : "b");
		return;
	case FABRIC_ERR_FRACTION:
		snprintf(buf, len, "not a whole number of %s",
			 rate ? "bits per second" : "bytes");
		return;
	case FABRIC_ERR_RANGE:
		if (rate)
			snprintf(buf, len, "above %llu bits per second",
				 (unsigned long long)UINT64_MAX);
		else if (o->fmt == FABRIC_FMT_SIZE)
			snprintf(buf, len, "above %u bytes", UINT32_MAX);
		else if (o->fmt == FABRIC_FMT_NUM)
			snprintf(buf, len, "above %u", o->max);
		else
			snprintf(buf, len, "a mask of more than 64 bits");
		return;
	}
	switch (o->fmt) {
	case FABRIC_FMT_RATE:
	case FABRIC_FMT_SIZE:
		snprintf(buf, len, "not a number (digits, an optional fraction, a unit)");
		break;
	case FABRIC_FMT_NUM:
		snprintf(buf, len, "not a whole decimal number");
		break;
	case FABRIC_FMT_DSCPS:
		snprintf(buf, len, "not a list of DSCPs, a mask or none");
		break;
	}
}

static const struct fabric_opt *fabric_find_opt(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fabric_opts); i++)
		if (!strcmp(name, fabric_opts[i].name))
			return &fabric_opts[i];
	return NULL;
}

static int fabric_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			    struct nlmsghdr *n, const char *dev)
{
	__u64 val[TCA_FABRIC_MAX + 1] = { 0 };
	bool given[TCA_FABRIC_MAX + 1] = { false };
	const struct fabric_opt *o;
	const char *unit = "";
	struct rtattr *nest;
	enum fabric_err err;
	bool clear = false;
	char why[384];
	unsigned int i;

	while (argc > 0) {
		if (!strcmp(*argv, "help")) {
			explain();
			return -1;
		}
		if (!strcmp(*argv, "clear_stats")) {
			clear = true;
			argc--;
			argv++;
			continue;
		}
		o = fabric_find_opt(*argv);
		if (!o) {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		NEXT_ARG();
		err = fabric_parse_value(o, *argv, &val[o->type], &unit);
		if (err != FABRIC_OK) {
			fabric_sprint_why(why, sizeof(why), o, err, unit);
			fprintf(stderr, "Illegal \"%s\" value \"%s\": %s; want %s\n",
				o->name, *argv, why, o->hint);
			return -1;
		}
		given[o->type] = true;
		argc--;
		argv++;
	}

	nest = addattr_nest(n, FABRIC_NLA_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	for (i = 0; i < ARRAY_SIZE(fabric_opts); i++) {
		o = &fabric_opts[i];
		if (!given[o->type])
			continue;
		if (fabric_opt_is_u64(o)) {
			__u64 v = val[o->type];

			addattr_l(n, FABRIC_NLA_MAXLEN, o->type, &v, sizeof(v));
		} else {
			__u32 v = val[o->type];

			addattr_l(n, FABRIC_NLA_MAXLEN, o->type, &v, sizeof(v));
		}
	}
	if (clear)
		addattr_l(n, FABRIC_NLA_MAXLEN, TCA_FABRIC_CLEAR_STATS, NULL, 0);
	addattr_nest_end(n, nest);
	return 0;
}

/* Bit rates with the largest exact decimal unit, as our parser reads */
static void fabric_sprint_rate(char *buf, size_t len, __u64 bits)
{
	if (!bits)
		snprintf(buf, len, "0");
	else if (bits % 1000000000ULL == 0)
		snprintf(buf, len, "%llugbit", bits / 1000000000ULL);
	else if (bits % 1000000ULL == 0)
		snprintf(buf, len, "%llumbit", bits / 1000000ULL);
	else if (bits % 1000ULL == 0)
		snprintf(buf, len, "%llukbit", bits / 1000ULL);
	else
		snprintf(buf, len, "%llubit", bits);
}

/* Sizes with the largest exact binary unit, as our parser reads */
static void fabric_sprint_size(char *buf, size_t len, __u32 bytes)
{
	if (!bytes)
		snprintf(buf, len, "0");
	else if (bytes % (1024U * 1024U) == 0)
		snprintf(buf, len, "%umb", bytes / (1024U * 1024U));
	else if (bytes % 1024U == 0)
		snprintf(buf, len, "%ukb", bytes / 1024U);
	else
		snprintf(buf, len, "%ub", bytes);
}

/* The mask as fabric_parse_dscps() reads it: runs become ranges */
static void fabric_sprint_dscps(char *buf, size_t len, __u64 mask)
{
	unsigned int d, e;
	size_t pos = 0;
	int w;

	if (!mask) {
		snprintf(buf, len, "none");
		return;
	}
	buf[0] = '\0';
	for (d = 0; d <= FABRIC_DSCP_MAX; d++) {
		if (!(mask & (1ULL << d)))
			continue;
		e = d;
		while (e < FABRIC_DSCP_MAX && (mask & (1ULL << (e + 1))))
			e++;
		if (e > d)
			w = snprintf(buf + pos, len - pos, "%s%u-%u",
				     pos ? "," : "", d, e);
		else
			w = snprintf(buf + pos, len - pos, "%s%u",
				     pos ? "," : "", d);
		if (w < 0 || (size_t)w >= len - pos)
			return;
		pos += w;
		d = e;
	}
}

static int fabric_print_opt(struct qdisc_util *qu, FILE *f,
			    struct rtattr *opt)
{
	struct rtattr *tb[TCA_FABRIC_MAX + 1];
	const struct fabric_opt *o;
	char text[256], value[192];
	unsigned int i;
	__u64 v64 = 0;
	__u32 v32 = 0;

	if (!opt)
		return 0;
	/* the kernel nests with NLA_F_NESTED; an older dump may not */
	parse_rtattr_flags(tb, TCA_FABRIC_MAX, RTA_DATA(opt), RTA_PAYLOAD(opt),
			   NLA_F_NESTED);

	for (i = 0; i < ARRAY_SIZE(fabric_opts); i++) {
		o = &fabric_opts[i];
		if (!tb[o->type])
			continue;
		if (fabric_opt_is_u64(o)) {
			if (RTA_PAYLOAD(tb[o->type]) < sizeof(v64))
				continue;
			memcpy(&v64, RTA_DATA(tb[o->type]), sizeof(v64));
		} else {
			if (RTA_PAYLOAD(tb[o->type]) < sizeof(v32))
				continue;
			memcpy(&v32, RTA_DATA(tb[o->type]), sizeof(v32));
		}

		switch (o->fmt) {
		case FABRIC_FMT_RATE:
			/*
			 * "rate" as tbf and htb give it: bytes/s, so any bits
			 * short of a byte are lost; "rate_bits" is exact.
			 */
			print_rate(false, PRINT_JSON, o->name, NULL, v64 / 8);
			print_lluint(PRINT_JSON, "rate_bits", NULL, v64);
			fabric_sprint_rate(value, sizeof(value), v64);
			break;
		case FABRIC_FMT_SIZE:
			print_uint(PRINT_JSON, o->name, NULL, v32);
			fabric_sprint_size(value, sizeof(value), v32);
			break;
		case FABRIC_FMT_NUM:
			print_uint(PRINT_JSON, o->name, NULL, v32);
			snprintf(value, sizeof(value), "%u", v32);
			break;
		case FABRIC_FMT_DSCPS:
			fabric_sprint_dscps(value, sizeof(value), v64);
			print_string(PRINT_JSON, o->name, NULL, value);
			break;
		}
		snprintf(text, sizeof(text), "%s %s ", o->name, value);
		print_string(PRINT_FP, NULL, "%s", text);
	}
	return 0;
}

/* Bucket bounds in us; the last bucket is open, its hi_us nominal (2^i) */
static __u64 fabric_bucket_lo(unsigned int i)
{
	return i ? 1ULL << (i - 1) : 0;
}

static __u64 fabric_bucket_hi(unsigned int i)
{
	return 1ULL << i;
}

/* The first bucket where the cumulative count reaches pct of total */
static unsigned int fabric_pct_bucket(const __u64 *hist, __u64 total,
				      unsigned int pct)
{
	__u64 need = total / 100 * pct + (total % 100 * pct + 99) / 100;
	__u64 cum = 0;
	unsigned int i;

	for (i = 0; i < TC_FABRIC_DELAY_BUCKETS - 1; i++) {
		cum += hist[i];
		if (cum >= need)
			break;
	}
	return i;
}

/* Whole microseconds, with a tenth below 100 us where it still matters */
static void fabric_sprint_us(char *buf, size_t len, __u64 ns)
{
	if (ns < 100000)
		snprintf(buf, len, "%.1fus", ns / 1000.0);
	else
		snprintf(buf, len, "%lluus", (ns + 500) / 1000);
}

/*
 * Text "<2us" for a percentile in bucket 1, ">=1073741824us" in the last;
 * JSON only without a name.
 */
static void fabric_print_pct(const char *key, const char *name,
			     unsigned int bucket)
{
	char text[64];

	print_lluint(PRINT_JSON, key, NULL, fabric_bucket_hi(bucket));
	if (!name)
		return;
	if (bucket < TC_FABRIC_DELAY_BUCKETS - 1)
		snprintf(text, sizeof(text), " %s <%lluus", name,
			 fabric_bucket_hi(bucket));
	else
		snprintf(text, sizeof(text), " %s >=%lluus", name,
			 fabric_bucket_lo(bucket));
	print_string(PRINT_FP, NULL, "%s", text);
}

static void fabric_print_hist(const struct tc_fabric_xstats *st)
{
	char text[64];
	unsigned int i;
	__u64 lo, hi;

	if (is_json_context()) {
		open_json_array(PRINT_JSON, "delay_hist");
		for (i = 0; i < TC_FABRIC_DELAY_BUCKETS; i++) {
			open_json_object(NULL);
			print_lluint(PRINT_JSON, "lo_us", NULL, fabric_bucket_lo(i));
			print_lluint(PRINT_JSON, "hi_us", NULL, fabric_bucket_hi(i));
			print_lluint(PRINT_JSON, "packets", NULL, st->delay_hist[i]);
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
		return;
	}

	for (i = 0; i < TC_FABRIC_DELAY_BUCKETS; i++)
		if (st->delay_hist[i])
			break;
	if (i == TC_FABRIC_DELAY_BUCKETS)
		return;

	print_nl();
	print_string(PRINT_FP, NULL, "%s", "  delay histogram (us):");
	for (i = 0; i < TC_FABRIC_DELAY_BUCKETS; i++) {
		if (!st->delay_hist[i])
			continue;
		lo = fabric_bucket_lo(i);
		hi = fabric_bucket_hi(i);
		if (i == 0)
			snprintf(text, sizeof(text), " <%llu:%llu", hi,
				 st->delay_hist[i]);
		else if (i < TC_FABRIC_DELAY_BUCKETS - 1)
			snprintf(text, sizeof(text), " %llu-%llu:%llu", lo, hi,
				 st->delay_hist[i]);
		else
			snprintf(text, sizeof(text), " >=%llu:%llu", lo,
				 st->delay_hist[i]);
		print_string(PRINT_FP, NULL, "%s", text);
	}
}

/*
 * The fine histogram as the xstats carry it (uapi fabric_sched.h), as
 * ranges [lo, hi) ns with their packets: the packets below the window,
 * each bucket of the window, the packets above it.  Where no bucket bound
 * closes a range (above the window, the open last bucket), the maximum
 * delay does: hi is delay_max_ns + 1.  Such ranges, and the one below the
 * window, are wider than a bucket ("clipped").
 */
struct fabric_range {
	__u64 lo, hi, packets;
	bool clipped;
};

struct fabric_fine {
	struct fabric_range r[TC_FABRIC_FINE_WINDOW + 2];
	unsigned int n;
	__u64 total;
};

static void fabric_fine_add(struct fabric_fine *f, __u64 lo, __u64 hi,
			    __u64 packets, bool clipped)
{
	struct fabric_range *r = &f->r[f->n++];

	r->lo = lo;
	r->hi = hi;
	r->packets = packets;
	r->clipped = clipped;
	f->total += packets;
}

/* Reads the fine histogram after the xstats; false if there is none. */
static bool fabric_fine_read(struct fabric_fine *f,
			     const struct tc_fabric_xstats *st,
			     const char *data, size_t len)
{
	__u32 first = st->delay_fine_first, n = st->delay_fine_len, i, b;
	size_t off = st->delay_fine_offset;
	__u64 cnt, lo, open_hi;

	/* saturating, and never below the range's own start */
	open_hi = st->delay_max_ns == ~0ULL ? ~0ULL : st->delay_max_ns + 1;

	f->n = 0;
	f->total = 0;
	if (len < sizeof(*st) || !n || n > TC_FABRIC_FINE_WINDOW ||
	    first >= TC_FABRIC_FINE_BUCKETS || n > TC_FABRIC_FINE_BUCKETS - first ||
	    off < sizeof(*st) || off > len || (len - off) / sizeof(__u64) < n)
		return false;
	if (st->delay_fine_below)
		fabric_fine_add(f, 0, tc_fabric_fine_lo(first),
				st->delay_fine_below, true);
	for (i = 0; i < n; i++) {
		b = first + i;
		memcpy(&cnt, data + off + i * sizeof(cnt), sizeof(cnt));
		lo = tc_fabric_fine_lo(b);
		if (b < TC_FABRIC_FINE_BUCKETS - 1)
			fabric_fine_add(f, lo, tc_fabric_fine_lo(b + 1), cnt, false);
		else
			fabric_fine_add(f, lo, open_hi > lo ? open_hi : lo + 1, cnt, true);
	}
	if (st->delay_fine_above) {
		lo = tc_fabric_fine_lo(first + n);
		fabric_fine_add(f, lo, open_hi > lo ? open_hi : lo + 1,
				st->delay_fine_above, true);
	}
	return f->total > 0;
}

/* The first range where the cumulative count reaches permille of total */
static const struct fabric_range *fabric_fine_pct(const struct fabric_fine *f,
						  unsigned int permille)
{
	__u64 need = f->total / 1000 * permille +
		     (f->total % 1000 * permille + 999) / 1000;
	__u64 cum = 0;
	unsigned int i;

	for (i = 0; i + 1 < f->n; i++) {
		cum += f->r[i].packets;
		if (cum >= need)
			break;
	}
	return &f->r[i];
}

/*
 * ns as microseconds to three significant digits, rounded up so that a
 * printed upper bound stays one: "0.152us", "1.16us", "23.1us", "1180us".
 */
static __u64 fabric_div_up(__u64 n, __u64 d)
{
	return n / d + !!(n % d);
}

static void fabric_sprint_fine_us(char *buf, size_t len, __u64 ns)
{
	__u64 v;

	if (ns < 1000) {
		snprintf(buf, len, "0.%03lluus", ns);
		return;
	}
	v = fabric_div_up(ns, 10);
	if (v < 1000) {
		snprintf(buf, len, "%llu.%02lluus", v / 100, v % 100);
		return;
	}
	v = fabric_div_up(ns, 100);
	if (v < 1000)
		snprintf(buf, len, "%llu.%lluus", v / 10, v % 10);
	else
		snprintf(buf, len, "%lluus", fabric_div_up(ns, 1000));
}

/*
 * JSON microseconds that stay an upper bound: exact below 1 ms (at most
 * six digits, which "%g" prints as they are), whole and rounded up above.
 */
static void fabric_print_json_us(const char *key, __u64 ns)
{
	if (ns < 1000000)
		print_float(PRINT_JSON, key, NULL, ns / 1000.0);
	else
		print_lluint(PRINT_JSON, key, NULL, fabric_div_up(ns, 1000));
}

/*
 * A percentile from the fine histogram, as the upper bound of its range:
 * text " p99 <1.16us"; JSON delay_fine_<key>_ns (exact) and _us.
 */
static void fabric_print_fine_pct(const struct fabric_fine *f,
				  unsigned int permille, const char *key,
				  const char *name)
{
	const struct fabric_range *r = fabric_fine_pct(f, permille);
	char jkey[48], text[64], num[32];

	snprintf(jkey, sizeof(jkey), "delay_fine_%s_ns", key);
	print_lluint(PRINT_JSON, jkey, NULL, r->hi);
	snprintf(jkey, sizeof(jkey), "delay_fine_%s_us", key);
	fabric_print_json_us(jkey, r->hi);
	fabric_sprint_fine_us(num, sizeof(num), r->hi);
	snprintf(text, sizeof(text), " %s <%s", name, num);
	print_string(PRINT_FP, NULL, "%s", text);
}

static void fabric_print_fine_hist(const struct fabric_fine *f)
{
	const struct fabric_range *r;
	unsigned int i;

	open_json_array(PRINT_JSON, "delay_fine_hist");
	for (i = 0; i < f->n; i++) {
		r = &f->r[i];
		if (!r->packets)
			continue;
		open_json_object(NULL);
		print_lluint(PRINT_JSON, "lo_ns", NULL, r->lo);
		print_lluint(PRINT_JSON, "hi_ns", NULL, r->hi);
		print_lluint(PRINT_JSON, "packets", NULL, r->packets);
		if (r->clipped)
			print_bool(PRINT_JSON, "clipped", NULL, true);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/*
 * tc prints a newline after this, so the lines are separated, not ended,
 * by print_nl().  The keys land at the top level of the qdisc's JSON
 * object, next to tc's own "backlog" and "drops".  An older module's
 * xstats end before the fine histogram: its percentiles are the
 * power-of-two buckets'.
 */
static int fabric_print_xstats(struct qdisc_util *qu, FILE *f,
			       struct rtattr *xstats)
{
	static struct fabric_fine fine;
	struct tc_fabric_xstats st = {};
	unsigned int p50 = 0, p99 = 0;
	char mean[32], max[32];
	__u64 total = 0;
	unsigned int i, len;
	bool has_fine;

	if (!xstats || RTA_PAYLOAD(xstats) < TC_FABRIC_XSTATS_V1_LEN)
		return 0;
	len = RTA_PAYLOAD(xstats);
	/* a longer struct is a newer kernel's: its head is this one */
	memcpy(&st, RTA_DATA(xstats), len < sizeof(st) ? len : sizeof(st));
	has_fine = fabric_fine_read(&fine, &st, RTA_DATA(xstats), len);

	print_lluint(PRINT_ANY, "ecn_marked", "  ecn_marked %llu", st.ecn_marked);
	print_lluint(PRINT_ANY, "trimmed", " trimmed %llu", st.trimmed);
	print_lluint(PRINT_ANY, "trim_dropped", " trim_dropped %llu", st.trim_dropped);
	print_lluint(PRINT_ANY, "drop_limit", " drop_limit %llu", st.drop_limit);
	print_lluint(PRINT_ANY, "untrimmable", " untrimmable %llu", st.untrimmable);
	print_lluint(PRINT_ANY, "drop_change", " drop_change %llu", st.drop_change);
	print_nl();

	print_lluint(PRINT_ANY, "data_backlog", "  backlog data %llub", st.data_backlog);
	print_lluint(PRINT_ANY, "hdr_backlog", " hdr %llub", st.hdr_backlog);
	print_lluint(PRINT_ANY, "hdr_packets", " (%llu pkts)", st.hdr_packets);
	print_lluint(PRINT_ANY, "max_backlog", " max_backlog %llub", st.max_backlog);
	print_nl();

	for (i = 0; i < TC_FABRIC_DELAY_BUCKETS; i++)
		total += st.delay_hist[i];
	if (total) {
		p50 = fabric_pct_bucket(st.delay_hist, total, 50);
		p99 = fabric_pct_bucket(st.delay_hist, total, 99);
	}

	print_lluint(PRINT_ANY, "delay_count", "  delay: n %llu", st.delay_count);
	print_lluint(PRINT_JSON, "delay_sum_ns", NULL, st.delay_sum_ns);
	print_lluint(PRINT_JSON, "delay_max_ns", NULL, st.delay_max_ns);
	if (st.delay_count) {
		fabric_sprint_us(mean, sizeof(mean),
				 st.delay_sum_ns / st.delay_count);
		fabric_sprint_us(max, sizeof(max), st.delay_max_ns);
		print_string(PRINT_FP, NULL, " mean %s", mean);
		print_string(PRINT_FP, NULL, " max %s", max);
	}
	/* the power-of-two percentiles: text only from an older module */
	if (total) {
		fabric_print_pct("delay_p50_us", has_fine ? NULL : "p50", p50);
		fabric_print_pct("delay_p99_us", has_fine ? NULL : "p99", p99);
	} else {
		/* no samples: 0, which is no bucket's bound */
		print_lluint(PRINT_JSON, "delay_p50_us", NULL, 0);
		print_lluint(PRINT_JSON, "delay_p99_us", NULL, 0);
	}
	if (has_fine) {
		fabric_print_fine_pct(&fine, 500, "p50", "p50");
		fabric_print_fine_pct(&fine, 990, "p99", "p99");
		fabric_print_fine_pct(&fine, 999, "p999", "p99.9");
	}

	fabric_print_hist(&st);
	if (has_fine)
		fabric_print_fine_hist(&fine);
	return 0;
}

struct qdisc_util fabric_qdisc_util = {
	.id		= "fabric",
	.parse_qopt	= fabric_parse_opt,
	.print_qopt	= fabric_print_opt,
	.print_xstats	= fabric_print_xstats,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * tc's helpers that the sch_fabric plugin (tools/tc/q_fabric.c) calls,
 * for the programs that link the plugin without tc: the unit test
 * (selftests/unit/q_fabric_test.c) and the fuzzer
 * (selftests/fuzz/fuzz_tc.c).  Written from iproute2 6.1's documented
 * behaviour: addattr_l() and the nests build a real netlink message;
 * the print_color_*() family writes text or JSON (tc's rules: PRINT_FP
 * is text only, PRINT_JSON JSON only, PRINT_ANY either) into tc_out[];
 * incomplete_command() longjmp()s to tc_incomplete_jmp instead of
 * exit()ing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "tc_stub.h"

/* Where the next attribute goes (libnetlink.h's NLMSG_TAIL) */
static struct rtattr *nlmsg_tail(struct nlmsghdr *n)
{
	return (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
}

/* ------------------------------------------------------------------ */
/* tc's netlink helpers (lib/libnetlink.c) */

int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen)
{
	int len = RTA_LENGTH(alen);
	struct rtattr *rta;

	if ((int)(NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len)) > maxlen) {
		fprintf(stderr, "%s ERROR: message exceeded bound of %d\n",
			__func__, maxlen);
		return -1;
	}
	rta = nlmsg_tail(n);
	rta->rta_type = type;
	rta->rta_len = len;
	if (alen)
		memcpy(RTA_DATA(rta), data, alen);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len);
	return 0;
}

struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type)
{
	struct rtattr *nest = nlmsg_tail(n);

	addattr_l(n, maxlen, type, NULL, 0);
	return nest;
}

int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest)
{
	nest->rta_len = (char *)nlmsg_tail(n) - (char *)nest;
	return n->nlmsg_len;
}

int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags)
{
	unsigned short type;

	memset(tb, 0, sizeof(struct rtattr *) * (max + 1));
	while (RTA_OK(rta, len)) {
		type = rta->rta_type & ~flags;
		if (type <= max && !tb[type])
			tb[type] = rta;
		rta = RTA_NEXT(rta, len);
	}
	return 0;
}

/* lib/utils.c: tc exit()s here; the tests jump back */
jmp_buf tc_incomplete_jmp;

void incomplete_command(void)
{
	fprintf(stderr, "Command line is not complete. Try option \"help\"\n");
	longjmp(tc_incomplete_jmp, 1);
}

/* ------------------------------------------------------------------ */
/* tc's printing (lib/json_print.c), into tc_out[] */

char tc_out[TC_OUT_SIZE];
static size_t out_len;
static bool json;		/* tc -j */
static int depth;
static bool first[16];		/* nothing yet at this depth */

static void out_add(const char *fmt, ...)
{
	va_list ap;
	int w;

	if (out_len >= sizeof(tc_out) - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(tc_out + out_len, sizeof(tc_out) - out_len, fmt, ap);
	va_end(ap);
	if (w > 0)
		out_len += (size_t)w < sizeof(tc_out) - out_len ? (size_t)w :
			   sizeof(tc_out) - out_len - 1;
}

void tc_capture(bool as_json)
{
	out_len = 0;
	tc_out[0] = '\0';
	json = as_json;
	depth = 1;
	first[1] = true;
}

static bool in_json(enum output_type t)
{
	return json && (t & (PRINT_JSON | PRINT_ANY));
}

static bool in_text(enum output_type t)
{
	return !json && (t & (PRINT_FP | PRINT_ANY));
}

/* A comma before all but the first member, then "key": if there is one */
static void json_member(const char *key)
{
	if (!first[depth])
		out_add(",");
	first[depth] = false;
	if (key)
		out_add("\"%s\":", key);
}

bool is_json_context(void)
{
	return json;
}

void open_json_object(const char *str)
{
	if (!json)
		return;
	json_member(str);
	out_add("{");
	first[++depth] = true;
}

void close_json_object(void)
{
	if (!json)
		return;
	out_add("}");
	depth--;
}

void open_json_array(enum output_type type, const char *delim)
{
	if (in_json(type)) {
		json_member(delim);
		out_add("[");
		first[++depth] = true;
	} else if (in_text(type)) {
		out_add("%s", delim);
	}
}

void close_json_array(enum output_type type, const char *delim)
{
	if (in_json(type)) {
		out_add("]");
		depth--;
	} else if (in_text(type)) {
		out_add("%s", delim);
	}
}

void print_nl(void)
{
	if (!json)
		out_add("\n");
}

int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value)
{
	if (in_json(t)) {
		json_member(key);
		out_add("%u", value);
	} else if (in_text(t)) {
		out_add(fmt, value);
	}
	return 0;
}

int print_color_lluint(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt,
		       unsigned long long value)
{
	if (in_json(t)) {
		json_member(key);
		out_add("%llu", value);
	} else if (in_text(t)) {
		out_add(fmt, value);
	}
	return 0;
}

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value)
{
	if (in_json(t)) {
		json_member(key);
		out_add("\"%s\"", value);
	} else if (in_text(t)) {
		out_add(fmt, value);
	}
	return 0;
}

int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value)
{
	if (in_json(t)) {
		json_member(key);
		out_add("%s", value ? "true" : "false");
	} else if (in_text(t)) {
		out_add(fmt, value ? "true" : "false");
	}
	return 0;
}

int print_color_float(enum output_type t, enum color_attr color,
		      const char *key, const char *fmt, double value)
{
	if (in_json(t)) {
		json_member(key);
		out_add("%g", value);
	} else if (in_text(t)) {
		out_add(fmt, value);
	}
	return 0;
}

/*
 * rate is bytes/s: JSON gets that number; text gets bits, marked here so
 * that a text leak shows ("<8000bit>"); tc would print "8Kbit".
 */
int print_color_rate(bool use_iec, enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned long long rate)
{
	if (in_json(t))
		return print_color_lluint(t, color, key, "%llu", rate);
	if (in_text(t))
		out_add("<%llubit>", rate * 8);
	return 0;
}

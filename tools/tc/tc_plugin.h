/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plugin ABI of iproute2 6.1's tc (Debian bookworm's iproute2 6.1.0),
 * declared here because Debian ships no iproute2 headers.  Only
 * declarations: what tc expects of a q_<kind>.so and the helpers it
 * exports (tc is linked -export-dynamic);
 * the plugin's undefined symbols resolve against the tc executable.
 *
 * Every function below was checked with
 *	nm -D --defined-only /usr/sbin/tc | grep -w NAME
 * and its signature against iproute2 v6.1.0 (tc/tc_util.h,
 * include/utils.h, include/libnetlink.h, include/json_print.h,
 * include/color.h).  Declare a new helper only after the same two checks.
 * Helpers whose signatures changed after 6.1 (print_tcstats2_attr,
 * print_tm, tc_print_police, sprint_size, tc_print_rate) are left out on
 * purpose.
 */
#ifndef _TOOLS_TC_PLUGIN_H
#define _TOOLS_TC_PLUGIN_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/*
 * tc/tc_util.h.  tc dlopen()s $TC_LIB_DIR/q_<kind>.so and looks up
 * "<kind>_qdisc_util"; it links the struct into its list through ->next,
 * so the object must stay writable.  The field order is the same from
 * 5.10 to 7.x; 6.9 only made qu const, which does not change the ABI.
 */
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/* What q_fabric.so exports: tc's dlsym() finds "fabric_qdisc_util" */
extern struct qdisc_util fabric_qdisc_util;

/* include/color.h: COLOR_NONE is the seventh enumerator */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

static_assert(COLOR_NONE == 6, "iproute2 6.1: COLOR_NONE is 6");

/* include/json_print.h */
enum output_type {
	PRINT_FP = 1,	/* text only */
	PRINT_JSON = 2,	/* JSON only */
	PRINT_ANY = 4,	/* whichever tc is printing (-j or not) */
};

/* lib/libnetlink.c */
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);

/*
 * lib/utils.c.  The number parsers are not used: get_rate64() and
 * get_size() (lib/utils_math.c) go through a double and lose bits
 * ("1001bit" is 1000 bit/s, "0.5b" 0 bytes), so q_fabric.c parses every
 * number itself, exactly.
 */
void incomplete_command(void);	/* prints a hint and exit()s */
void invarg(const char *msg, const char *arg);	/* prints msg and exit()s */
bool matches(const char *prefix, const char *string);

/*
 * lib/json_print.c.  Printing goes to stdout (not to the FILE * that tc
 * hands the callbacks); text is printed only for PRINT_FP and PRINT_ANY
 * without -j, JSON only for PRINT_JSON and PRINT_ANY with -j.
 */
bool is_json_context(void);
void open_json_object(const char *str);
void close_json_object(void);
void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
void print_nl(void);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_lluint(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt,
		       unsigned long long value);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
/* JSON: true or false; text: fmt with "true" or "false" */
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value);
/* JSON: "%g" (jsonw_float()) */
int print_color_float(enum output_type t, enum color_attr color,
		      const char *key, const char *fmt, double value);

/* json_print.h's static inline wrappers */
static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int value)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_lluint(enum output_type t, const char *key,
			       const char *fmt, unsigned long long value)
{
	return print_color_lluint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_bool(enum output_type t, const char *key,
			     const char *fmt, bool value)
{
	return print_color_bool(t, COLOR_NONE, key, fmt, value);
}

static inline int print_float(enum output_type t, const char *key,
			      const char *fmt, double value)
{
	return print_color_float(t, COLOR_NONE, key, fmt, value);
}

static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *value)
{
	return print_color_string(t, COLOR_NONE, key, fmt, value);
}

/*
 * rate is in BYTES per second: JSON gets it as a number, text as bits
 * with a decimal (or, with use_iec, binary) unit, "10Gbit".  In
 * lib/json_print.c since 5.11, the same signature to 6.19; tc_print_rate()
 * (tc/tc_util.c) only adds tc's -iec.
 */
int print_color_rate(bool use_iec, enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned long long rate);

static inline int print_rate(bool use_iec, enum output_type t,
			     const char *key, const char *fmt,
			     unsigned long long rate)
{
	return print_color_rate(use_iec, t, COLOR_NONE, key, fmt, rate);
}

/* include/utils.h: step to an option's value, or exit() if there is none */
#define NEXT_ARG()					\
	do {						\
		argv++;					\
		if (--argc <= 0)			\
			incomplete_command();		\
	} while (0)

#endif /* _TOOLS_TC_PLUGIN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabctl: the declarations its files share.  main.c describes the design;
 * nl.c is the netlink plumbing (requests, replies, errors, attribute
 * validation), json.c the JSON writer, and attr.c, stats.c, monitor.c and
 * sock.c one command each.
 */
#ifndef _FABCTL_H
#define _FABCTL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libmnl/libmnl.h>

#define FABCTL_VERSION		"0.1"

/* Exit statuses (fabctl(8), EXIT STATUS). */
#define FABCTL_EXIT_OK		0
#define FABCTL_EXIT_ERROR	1
#define FABCTL_EXIT_USAGE	2

/*
 * Receive buffer: larger than any datagram the kernel sends (a dump part
 * is at most 32 KiB, an error a page plus the request), so that no reply
 * is ever truncated; a truncated one (MSG_TRUNC) is an error all the same.
 */
#define NL_BUF_SIZE		65536

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* What every command gets: the options and where its output goes. */
struct fabctl {
	bool json;
	bool pretty;
	FILE *out;
};

/* json.c: a streaming JSON writer. */
#define JSON_MAX_DEPTH		8

struct json {
	FILE *f;
	bool pretty;
	bool key;			/* a key was written: its value next */
	int depth;
	bool first[JSON_MAX_DEPTH + 1];	/* nothing in the container yet */
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_raw(struct json *j, const char *number);
void json_null(struct json *j);
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_raw(struct json *j, const char *key, const char *number);
void json_kv_null(struct json *j, const char *key);
void json_escape(FILE *f, const char *s);

/*
 * json.c: one object's fields, as "key value" pairs on one line (text) or
 * as the members of a JSON object (the caller begins and ends it).
 */
struct kv_out {
	struct fabctl *fc;
	struct json *j;
	bool first;			/* text: no pair on the line yet */
};

void kv_str(struct kv_out *o, const char *key, const char *v);
void kv_u64(struct kv_out *o, const char *key, uint64_t v);
/* q / one with three decimals, a JSON number. */
void kv_ratio(struct kv_out *o, const char *key, uint64_t q, uint64_t one);
/* A value the kernel does not know (yet): "-", or null. */
void kv_none(struct kv_out *o, const char *key);

/* nl.c: netlink sockets, requests and replies. */
struct nl_sock {
	struct mnl_socket *nl;
	unsigned int portid;
	unsigned int seq;
	char *tx;			/* NL_BUF_SIZE: the request */
	char *rx;			/* NL_BUF_SIZE: the replies */
};

/* A generic netlink family as the controller describes it. */
struct genl_family {
	uint16_t id;
	uint32_t version;
	uint32_t mcgrp;			/* the group asked for; 0: none */
};

/* Called for each reply message of a type >= NLMSG_MIN_TYPE. */
typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);
/* Called for each attribute of a stream (nl_walk()). */
typedef int (*nl_attr_cb)(const struct nlattr *attr, void *data);

int nl_open(struct nl_sock *s, int bus);
void nl_close(struct nl_sock *s);
int nl_talk(struct nl_sock *s, struct nlmsghdr *nlh, nl_msg_cb cb,
	    void *data);
int nl_run(struct nl_sock *s, const void *buf, size_t len, uint32_t seq,
	   nl_msg_cb cb, void *data);
int nl_walk(const void *buf, size_t len, nl_attr_cb cb, void *data,
	    const char *where);
int nl_parse(const void *buf, size_t len,
	     const enum mnl_attr_data_type *policy, unsigned int max,
	     const struct nlattr **tb, const char *where);
int nl_parse_nest(const struct nlattr *nest,
		  const enum mnl_attr_data_type *policy, unsigned int max,
		  const struct nlattr **tb, const char *where);
int nl_fail(int err, const char *fmt, ...);
int nl_bad_reply(const char *fmt, ...);
int nl_error(void);
void nl_perror(const char *what);

struct nlmsghdr *genl_req(struct nl_sock *s, uint16_t family, uint8_t cmd,
			  uint8_t version, uint16_t flags);
int genl_attrs(const struct nlmsghdr *nlh, uint16_t family,
	       const void **attrs, size_t *len);
int genl_resolve(struct nl_sock *s, const char *name, const char *group,
		 struct genl_family *fam);
int genl_open(struct nl_sock *s, const char *name, const char *group,
	      struct genl_family *fam, const char *hint);
int fabric_open(struct nl_sock *s, struct genl_family *fam, bool events);

/* attr.c: the policies of the fabric family's attributes. */
extern const enum mnl_attr_data_type fabric_policy[];
extern const enum mnl_attr_data_type fabric_attr_policy[];

/* mrt.c: the names of enum mrt_nl_ev_state and enum mrt_nl_ev_why. */
#define MRT_EV_NSTATES	4
#define MRT_EV_NWHYS	8
extern const char *const mrt_ev_states[MRT_EV_NSTATES];
extern const char *const mrt_ev_whys[MRT_EV_NWHYS];
/* A 16-byte mrt address as text: IPv4 when it is IPv4-mapped. */
void fmt_mrt_addr(char *buf, size_t size, const void *a16);

/* The commands; each returns an exit status. */
int cmd_attr(struct fabctl *fc, int argc, char **argv);
int cmd_stats(struct fabctl *fc, int argc, char **argv);
int cmd_monitor(struct fabctl *fc, int argc, char **argv);
int cmd_sock(struct fabctl *fc, int argc, char **argv);
int cmd_mrt(struct fabctl *fc, int argc, char **argv);

/* main.c */
void usage_error(const char *fmt, ...);
char *fmt_ratio(char *buf, size_t size, uint64_t q, uint64_t one);

#endif /* _FABCTL_H */

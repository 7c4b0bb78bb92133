// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl's netlink plumbing, on libmnl.
 *
 * nl_talk() sends one request and reads replies until the ACK, the end of
 * a dump (NLMSG_DONE) or an error; nl_run() walks one received datagram.
 * Every message is checked before a callback sees it: its length against
 * the datagram (a datagram with bytes left over is an error), its
 * sequence number and port, NLM_F_DUMP_INTR.  NLMSG_ERROR and NLMSG_DONE
 * carry the kernel's errno and, as NETLINK_EXT_ACK asks, its extack
 * message; both end up in one error record, which nl_perror() prints as
 * "fabctl: MESSAGE: strerror(errno)".
 *
 * Attributes go through nl_walk() (bounds: an attribute must fit what
 * holds it, and nothing may be left over) and nl_parse() (one attribute
 * per type, each validated against a policy of libmnl data types, so that
 * a u32 is exactly 4 bytes and a string ends in its NUL).  Types above a
 * policy's maximum are skipped: they are a newer kernel's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/fabric.h>

#include "fabctl.h"

/* The last error: a positive errno and what to print before strerror(). */
static struct {
	int err;
	char msg[512];
} nl_last;

static void nl_vset(int err, const char *fmt, va_list ap)
{
	nl_last.err = err > 0 ? err : EIO;
	vsnprintf(nl_last.msg, sizeof(nl_last.msg), fmt, ap);
}

/* Records an error; returns MNL_CB_ERROR for callbacks to return. */
int nl_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nl_vset(err, fmt, ap);
	va_end(ap);
	return MNL_CB_ERROR;
}

/* A reply that breaks the family's rules: EBADMSG with what was wrong. */
int nl_bad_reply(const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return nl_fail(EBADMSG, "malformed reply from the kernel: %s", what);
}

int nl_error(void)
{
	return nl_last.err;
}

/* "fabctl: MESSAGE: strerror", with what for the message if there is none. */
void nl_perror(const char *what)
{
	fprintf(stderr, "fabctl: %s: %s\n",
		nl_last.msg[0] ? nl_last.msg : what,
		strerror(nl_last.err ? nl_last.err : EIO));
}

int nl_open(struct nl_sock *s, int bus)
{
	int one = 1;

	memset(s, 0, sizeof(*s));
	s->tx = malloc(NL_BUF_SIZE);
	s->rx = malloc(NL_BUF_SIZE);
	if (!s->tx || !s->rx) {
		nl_fail(ENOMEM, "out of memory");
		goto err;
	}
	s->nl = mnl_socket_open(bus);
	if (!s->nl) {
		nl_fail(errno, "netlink socket");
		goto err;
	}
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		nl_fail(errno, "netlink bind");
		goto err;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	s->seq = (unsigned int)time(NULL);
	/*
	 * Extended ACKs carry the kernel's reason for an error; capped ACKs
	 * leave the request out of them.  Kernels without either still
	 * report the errno, so neither is required.
	 */
	mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	return 0;
err:
	nl_close(s);
	return -1;
}

void nl_close(struct nl_sock *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	free(s->tx);
	free(s->rx);
	memset(s, 0, sizeof(*s));
}

int nl_walk(const void *buf, size_t len, nl_attr_cb cb, void *data,
	    const char *where)
{
	const struct nlattr *attr = buf;
	int rem;

	if (len > NL_BUF_SIZE)
		return nl_bad_reply("%s: %zu bytes of attributes", where, len);
	for (rem = (int)len; mnl_attr_ok(attr, rem);
	     rem -= MNL_ALIGN(attr->nla_len), attr = mnl_attr_next(attr)) {
		if (cb(attr, data) < 0)
			return -1;
	}
	/* Less than a whole attribute left: a truncated one. */
	if (rem > 0)
		return nl_bad_reply("%s: %d bytes after the last attribute",
				    where, rem);
	return 0;
}

struct nl_parse_ctx {
	const enum mnl_attr_data_type *policy;
	unsigned int max;
	const struct nlattr **tb;
	const char *where;
};

static int nl_parse_cb(const struct nlattr *attr, void *data)
{
	struct nl_parse_ctx *ctx = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type > ctx->max)
		return 0;
	if (ctx->policy[type] != MNL_TYPE_UNSPEC &&
	    mnl_attr_validate(attr, ctx->policy[type]) < 0)
		return nl_bad_reply("%s: attribute %u of %u bytes", ctx->where,
				    type, mnl_attr_get_payload_len(attr));
	ctx->tb[type] = attr;
	return 0;
}

/*
 * Fills tb[0..max] with the attributes in buf (the last of a type wins),
 * each checked against policy[type]; MNL_TYPE_UNSPEC checks nothing.
 */
int nl_parse(const void *buf, size_t len,
	     const enum mnl_attr_data_type *policy, unsigned int max,
	     const struct nlattr **tb, const char *where)
{
	struct nl_parse_ctx ctx = {
		.policy = policy, .max = max, .tb = tb, .where = where,
	};

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return nl_walk(buf, len, nl_parse_cb, &ctx, where);
}

int nl_parse_nest(const struct nlattr *nest,
		  const enum mnl_attr_data_type *policy, unsigned int max,
		  const struct nlattr **tb, const char *where)
{
	return nl_parse(mnl_attr_get_payload(nest),
			mnl_attr_get_payload_len(nest), policy, max, tb, where);
}

static const enum mnl_attr_data_type nlmsgerr_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]		= MNL_TYPE_NUL_STRING,
	[NLMSGERR_ATTR_OFFS]		= MNL_TYPE_U32,
	[NLMSGERR_ATTR_MISS_TYPE]	= MNL_TYPE_U32,
};

/*
 * Records err (positive) with the extack TLVs in [tlv, tlv + len), if any:
 * the message, or else the type of a missing attribute.  err 0 (an ACK
 * with a message, the kernel's warning) prints the message instead.
 */
static int nl_ext_error(int err, const void *tlv, size_t len)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	const char *msg = "";

	if (len && nl_parse(tlv, len, nlmsgerr_policy, NLMSGERR_ATTR_MAX, tb,
			    "extended ACK") < 0)
		return MNL_CB_ERROR;
	if (tb[NLMSGERR_ATTR_MSG])
		msg = mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]);
	if (!err) {
		if (msg[0])
			fprintf(stderr, "fabctl: warning: %s\n", msg);
		return MNL_CB_STOP;
	}
	if (msg[0])
		return nl_fail(err, "%s", msg);
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		return nl_fail(err, "missing attribute %u",
			       mnl_attr_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
	return nl_fail(err, "%s", "");
}

/* NLMSG_ERROR: an ACK (MNL_CB_STOP) or an error (MNL_CB_ERROR). */
static int nl_parse_error(const struct nlmsghdr *nlh)
{
	size_t len = mnl_nlmsg_get_payload_len(nlh), off;
	const char *p = mnl_nlmsg_get_payload(nlh);
	const struct nlmsgerr *e = (const void *)p;

	if (len < sizeof(*e))
		return nl_bad_reply("NLMSG_ERROR of %zu bytes", len);
	if (e->error > 0 || e->error < -4095)
		return nl_bad_reply("NLMSG_ERROR with error %d", e->error);
	off = sizeof(*e);
	/* Uncapped: the request follows the header (NETLINK_CAP_ACK unset). */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr))
			return nl_bad_reply("NLMSG_ERROR echoing %u bytes",
					    e->msg.nlmsg_len);
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	off = MNL_ALIGN(off);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= len)
		return nl_ext_error(-e->error, NULL, 0);
	return nl_ext_error(-e->error, p + off, len - off);
}

/* NLMSG_DONE: the end of a dump, which may carry the dump's error. */
static int nl_parse_done(const struct nlmsghdr *nlh)
{
	size_t len = mnl_nlmsg_get_payload_len(nlh);
	const char *p = mnl_nlmsg_get_payload(nlh);
	int err;

	/* A DONE without the errno (old kernels, other families): success. */
	if (len < sizeof(int))
		return MNL_CB_STOP;
	memcpy(&err, p, sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	if (err < -4095)
		return nl_bad_reply("NLMSG_DONE with error %d", err);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return nl_fail(-err, "%s", "");
	return nl_ext_error(-err, p + MNL_ALIGN(sizeof(int)),
			    len > MNL_ALIGN(sizeof(int)) ?
			    len - MNL_ALIGN(sizeof(int)) : 0);
}

/*
 * Walks the messages of one datagram.  seq 0 accepts any sequence number
 * and port (notifications); otherwise messages of another request are
 * skipped.  Returns MNL_CB_OK (more to come), MNL_CB_STOP (done) or
 * MNL_CB_ERROR (recorded).
 */
int nl_run(struct nl_sock *s, const void *buf, size_t len, uint32_t seq,
	   nl_msg_cb cb, void *data)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len, ret = MNL_CB_OK;

	if (len > NL_BUF_SIZE)
		return nl_fail(EMSGSIZE, "a datagram of %zu bytes", len);
	for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		if (seq && (nlh->nlmsg_seq != seq ||
			    nlh->nlmsg_pid != s->portid))
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			return nl_fail(EINTR,
				       "the dump was interrupted by a change, try again");
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			continue;
		case NLMSG_ERROR:
			ret = nl_parse_error(nlh);
			break;
		case NLMSG_DONE:
			ret = nl_parse_done(nlh);
			break;
		case NLMSG_OVERRUN:
			return nl_fail(ENOBUFS, "netlink overrun");
		default:
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE || !cb)
				continue;
			ret = cb(nlh, data);
			break;
		}
		if (ret <= MNL_CB_STOP)
			return ret;
	}
	if (rem > 0)
		return nl_bad_reply("%d bytes after the last message", rem);
	return ret;
}

/*
 * Sends the request in nlh and runs cb over its replies until the ACK, the
 * dump's NLMSG_DONE or an error.  Returns 0, or -1 with the error recorded.
 */
int nl_talk(struct nl_sock *s, struct nlmsghdr *nlh, nl_msg_cb cb,
	    void *data)
{
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	memset(&nl_last, 0, sizeof(nl_last));
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0) {
		nl_fail(errno, "netlink send");
		return -1;
	}
	for (;;) {
		n = mnl_socket_recvfrom(s->nl, s->rx, NL_BUF_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EPIPE;
			/* libmnl's ENOSPC: MSG_TRUNC, a truncated datagram */
			if (errno == ENOSPC)
				nl_fail(EMSGSIZE, "a reply longer than %d bytes",
					NL_BUF_SIZE);
			else
				nl_fail(errno, "netlink receive");
			return -1;
		}
		ret = nl_run(s, s->rx, (size_t)n, seq, cb, data);
		if (ret == MNL_CB_ERROR)
			return -1;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

/* A generic netlink request with its header; attributes go after it. */
struct nlmsghdr *genl_req(struct nl_sock *s, uint16_t family, uint8_t cmd,
			  uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(s->tx);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++s->seq;
	if (!nlh->nlmsg_seq)
		nlh->nlmsg_seq = ++s->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* The attributes of a reply of family; MNL_CB_ERROR if it is not one. */
int genl_attrs(const struct nlmsghdr *nlh, uint16_t family,
	       const void **attrs, size_t *len)
{
	size_t plen = mnl_nlmsg_get_payload_len(nlh);

	if (nlh->nlmsg_type != family)
		return nl_bad_reply("message type %u, expected %u",
				    nlh->nlmsg_type, family);
	if (plen < GENL_HDRLEN)
		return nl_bad_reply("generic netlink message of %zu bytes",
				    plen);
	*attrs = (const char *)mnl_nlmsg_get_payload(nlh) + GENL_HDRLEN;
	*len = plen - GENL_HDRLEN;
	return MNL_CB_OK;
}

static const enum mnl_attr_data_type ctrl_policy[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID]		= MNL_TYPE_U16,
	[CTRL_ATTR_FAMILY_NAME]		= MNL_TYPE_NUL_STRING,
	[CTRL_ATTR_VERSION]		= MNL_TYPE_U32,
	[CTRL_ATTR_MCAST_GROUPS]	= MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type
ctrl_grp_policy[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
	[CTRL_ATTR_MCAST_GRP_NAME]	= MNL_TYPE_NUL_STRING,
	[CTRL_ATTR_MCAST_GRP_ID]	= MNL_TYPE_U32,
};

struct ctrl_ctx {
	struct genl_family *fam;
	const char *group;
	bool found;
};

static int ctrl_grp_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct ctrl_ctx *ctx = data;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return nl_bad_reply("multicast group entry");
	if (nl_parse_nest(attr, ctrl_grp_policy, CTRL_ATTR_MCAST_GRP_MAX, tb,
			  "multicast group") < 0)
		return -1;
	if (!tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
		return nl_bad_reply("multicast group without name or id");
	if (ctx->group &&
	    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), ctx->group))
		ctx->fam->mcgrp = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	return 0;
}

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct ctrl_ctx *ctx = data;
	const void *attrs;
	size_t len;

	if (genl_attrs(nlh, GENL_ID_CTRL, &attrs, &len) < 0 ||
	    nl_parse(attrs, len, ctrl_policy, CTRL_ATTR_MAX, tb,
		     "CTRL_CMD_GETFAMILY") < 0)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return nl_bad_reply("CTRL_CMD_GETFAMILY without a family id");
	ctx->fam->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		ctx->fam->version = mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_MCAST_GROUPS] &&
	    nl_walk(mnl_attr_get_payload(tb[CTRL_ATTR_MCAST_GROUPS]),
		    mnl_attr_get_payload_len(tb[CTRL_ATTR_MCAST_GROUPS]),
		    ctrl_grp_cb, ctx, "multicast groups") < 0)
		return MNL_CB_ERROR;
	ctx->found = true;
	return MNL_CB_OK;
}

/* Resolves a family (and the id of its group, if group is not NULL). */
int genl_resolve(struct nl_sock *s, const char *name, const char *group,
		 struct genl_family *fam)
{
	struct ctrl_ctx ctx = { .fam = fam, .group = group };
	struct nlmsghdr *nlh;

	memset(fam, 0, sizeof(*fam));
	nlh = genl_req(s, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	if (nl_talk(s, nlh, ctrl_cb, &ctx) < 0)
		return -1;
	if (!ctx.found) {
		nl_bad_reply("no CTRL_CMD_GETFAMILY reply");
		return -1;
	}
	return 0;
}

/*
 * Opens a generic netlink socket and resolves family name (and, if group
 * is not NULL, that multicast group).  Prints the error itself; hint says
 * what to load when the family is not there.
 */
int genl_open(struct nl_sock *s, const char *name, const char *group,
	      struct genl_family *fam, const char *hint)
{
	char what[64];

	snprintf(what, sizeof(what), "resolving the %s family", name);
	if (nl_open(s, NETLINK_GENERIC) < 0) {
		nl_perror("generic netlink");
		return -1;
	}
	if (genl_resolve(s, name, group, fam) < 0) {
		if (nl_error() == ENOENT)
			fprintf(stderr,
				"fabctl: the %s netlink family is not there (%s)\n",
				name, hint);
		else
			nl_perror(what);
		nl_close(s);
		return -1;
	}
	if (group && !fam->mcgrp) {
		fprintf(stderr,
			"fabctl: the %s netlink family has no \"%s\" multicast group\n",
			name, group);
		nl_close(s);
		return -1;
	}
	return 0;
}

/* The fabric family (and with events, its "events" group). */
int fabric_open(struct nl_sock *s, struct genl_family *fam, bool events)
{
	return genl_open(s, FABRIC_GENL_NAME,
			 events ? FABRIC_GENL_MCGRP_EVENTS : NULL, fam,
			 "is fabric.ko loaded? modprobe tcp_nscc loads it");
}

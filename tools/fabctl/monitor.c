// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl monitor: joins the fabric family's "events" group and prints each
 * FABRIC_CMD_ATTR_NTF, "MODULE NAME OLD -> NEW (netns INUM)", or with -j
 * one JSON object per line.  If mrt.ko is loaded, it joins the mrt
 * family's "events" group too and prints each MRT_NL_CMD_EV_NTF, "mrt ev
 * DEST PORT OLD -> NEW (WHY) usable N/COUNT (netns INUM)", with ", no
 * usable EV" when N is 0 (that group needs CAP_NET_ADMIN: without it the
 * monitor says so on stderr and follows the attributes alone).  stdout is
 * flushed after each event: a reader on a pipe sees it at once.  SIGINT
 * and SIGTERM end it with status 0; lost events (the socket's buffer
 * overran) are reported on stderr and
 * the monitor goes on.  A malformed notification is reported and skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <linux/fabric.h>
#include <linux/mrt_nl.h>

#include "fabctl.h"

struct monitor_ctx {
	struct fabctl *fc;
	uint16_t family;
	uint16_t mrt;			/* the mrt family; 0: not followed */
};

static const enum mnl_attr_data_type mrt_top[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_NETNS_INUM]	= MNL_TYPE_U32,
	[MRT_NL_A_EV]		= MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type mrt_ev_ntf[MRT_NL_EV_A_MAX + 1] = {
	[MRT_NL_EV_A_ADDR]	= MNL_TYPE_BINARY,
	[MRT_NL_EV_A_PORT]	= MNL_TYPE_U16,
	[MRT_NL_EV_A_STATE]	= MNL_TYPE_U8,
	[MRT_NL_EV_A_OLD_STATE]	= MNL_TYPE_U8,
	[MRT_NL_EV_A_WHY]	= MNL_TYPE_U8,
	[MRT_NL_EV_A_USABLE]	= MNL_TYPE_U16,
	[MRT_NL_EV_A_COUNT]	= MNL_TYPE_U16,
};

static const char *name_of(const char *const *names, size_t n, uint8_t v)
{
	return v < n ? names[v] : "?";
}

/* An MRT_NL_CMD_EV_NTF. */
static int monitor_mrt(struct monitor_ctx *ctx, const void *attrs, size_t len)
{
	const struct nlattr *tb[MRT_NL_A_MAX + 1], *e[MRT_NL_EV_A_MAX + 1];
	static const uint16_t need[] = {
		MRT_NL_EV_A_ADDR, MRT_NL_EV_A_PORT, MRT_NL_EV_A_STATE,
		MRT_NL_EV_A_OLD_STATE, MRT_NL_EV_A_WHY, MRT_NL_EV_A_USABLE,
		MRT_NL_EV_A_COUNT,
	};
	char addr[INET6_ADDRSTRLEN];
	const char *from, *to, *why;
	unsigned int usable, count;
	struct json j;
	size_t i;

	if (nl_parse(attrs, len, mrt_top, MRT_NL_A_MAX, tb, "MRT_NL_CMD_EV_NTF") < 0)
		return MNL_CB_ERROR;
	if (!tb[MRT_NL_A_EV])
		return nl_bad_reply("MRT_NL_CMD_EV_NTF without MRT_NL_A_EV");
	if (nl_parse_nest(tb[MRT_NL_A_EV], mrt_ev_ntf, MRT_NL_EV_A_MAX, e,
			  "MRT_NL_A_EV") < 0)
		return MNL_CB_ERROR;
	for (i = 0; i < ARRAY_SIZE(need); i++)
		if (!e[need[i]])
			return nl_bad_reply("MRT_NL_CMD_EV_NTF without attribute %u",
					    need[i]);
	if (mnl_attr_get_payload_len(e[MRT_NL_EV_A_ADDR]) != sizeof(struct in6_addr))
		return nl_bad_reply("MRT_NL_EV_A_ADDR of %u bytes",
				    mnl_attr_get_payload_len(e[MRT_NL_EV_A_ADDR]));
	fmt_mrt_addr(addr, sizeof(addr), mnl_attr_get_payload(e[MRT_NL_EV_A_ADDR]));
	from = name_of(mrt_ev_states, MRT_EV_NSTATES,
		       mnl_attr_get_u8(e[MRT_NL_EV_A_OLD_STATE]));
	to = name_of(mrt_ev_states, MRT_EV_NSTATES,
		     mnl_attr_get_u8(e[MRT_NL_EV_A_STATE]));
	why = name_of(mrt_ev_whys, MRT_EV_NWHYS,
		      mnl_attr_get_u8(e[MRT_NL_EV_A_WHY]));
	usable = mnl_attr_get_u16(e[MRT_NL_EV_A_USABLE]);
	count = mnl_attr_get_u16(e[MRT_NL_EV_A_COUNT]);
	if (ctx->fc->json) {
		json_init(&j, ctx->fc->out, false);
		json_begin_object(&j);
		json_kv_string(&j, "module", "mrt");
		json_kv_string(&j, "event", "ev");
		json_kv_string(&j, "addr", addr);
		json_kv_u64(&j, "port", mnl_attr_get_u16(e[MRT_NL_EV_A_PORT]));
		json_kv_string(&j, "old", from);
		json_kv_string(&j, "state", to);
		json_kv_string(&j, "why", why);
		json_kv_u64(&j, "usable", usable);
		json_kv_u64(&j, "count", count);
		if (tb[MRT_NL_A_NETNS_INUM])
			json_kv_u64(&j, "netns_inum",
				    mnl_attr_get_u32(tb[MRT_NL_A_NETNS_INUM]));
		json_end_object(&j);
	} else {
		fprintf(ctx->fc->out, "mrt ev %s %u %s -> %s (%s) usable %u/%u",
			addr, mnl_attr_get_u16(e[MRT_NL_EV_A_PORT]), from, to,
			why, usable, count);
		if (!usable)
			fputs(", no usable EV", ctx->fc->out);
		if (tb[MRT_NL_A_NETNS_INUM])
			fprintf(ctx->fc->out, " (netns %u)",
				mnl_attr_get_u32(tb[MRT_NL_A_NETNS_INUM]));
		fputc('\n', ctx->fc->out);
	}
	if (fflush(ctx->fc->out))
		return nl_fail(errno, "write");
	return MNL_CB_OK;
}

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[FABRIC_A_MAX + 1], *at[FABRIC_ATTR_A_MAX + 1];
	struct monitor_ctx *ctx = data;
	const struct genlmsghdr *g;
	const char *module, *name;
	uint32_t old, value;
	const void *attrs;
	struct json j;
	size_t len;

	if (ctx->mrt && nlh->nlmsg_type == ctx->mrt) {
		if (genl_attrs(nlh, ctx->mrt, &attrs, &len) < 0)
			return MNL_CB_ERROR;
		g = mnl_nlmsg_get_payload(nlh);
		if (g->cmd != MRT_NL_CMD_EV_NTF)
			return MNL_CB_OK;
		return monitor_mrt(ctx, attrs, len);
	}
	if (genl_attrs(nlh, ctx->family, &attrs, &len) < 0)
		return MNL_CB_ERROR;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != FABRIC_CMD_ATTR_NTF)
		return MNL_CB_OK;
	if (nl_parse(attrs, len, fabric_policy, FABRIC_A_MAX, tb,
		     "FABRIC_CMD_ATTR_NTF") < 0)
		return MNL_CB_ERROR;
	if (!tb[FABRIC_A_MODULE] || !tb[FABRIC_A_ATTR])
		return nl_bad_reply("FABRIC_CMD_ATTR_NTF without FABRIC_A_MODULE or FABRIC_A_ATTR");
	if (nl_parse_nest(tb[FABRIC_A_ATTR], fabric_attr_policy,
			  FABRIC_ATTR_A_MAX, at, "FABRIC_A_ATTR") < 0)
		return MNL_CB_ERROR;
	if (!at[FABRIC_ATTR_A_NAME] || !at[FABRIC_ATTR_A_VALUE] ||
	    !at[FABRIC_ATTR_A_OLD])
		return nl_bad_reply("FABRIC_CMD_ATTR_NTF without NAME, VALUE or OLD");
	module = mnl_attr_get_str(tb[FABRIC_A_MODULE]);
	name = mnl_attr_get_str(at[FABRIC_ATTR_A_NAME]);
	old = mnl_attr_get_u32(at[FABRIC_ATTR_A_OLD]);
	value = mnl_attr_get_u32(at[FABRIC_ATTR_A_VALUE]);

	if (ctx->fc->json) {
		/* One event per line: never indented. */
		json_init(&j, ctx->fc->out, false);
		json_begin_object(&j);
		json_kv_string(&j, "module", module);
		json_kv_string(&j, "name", name);
		json_kv_u64(&j, "old", old);
		json_kv_u64(&j, "value", value);
		if (tb[FABRIC_A_NETNS_INUM])
			json_kv_u64(&j, "netns_inum",
				    mnl_attr_get_u32(tb[FABRIC_A_NETNS_INUM]));
		json_end_object(&j);
	} else {
		fprintf(ctx->fc->out, "%s %s %u -> %u", module, name, old,
			value);
		if (tb[FABRIC_A_NETNS_INUM])
			fprintf(ctx->fc->out, " (netns %u)",
				mnl_attr_get_u32(tb[FABRIC_A_NETNS_INUM]));
		fputc('\n', ctx->fc->out);
	}
	if (fflush(ctx->fc->out))
		return nl_fail(errno, "write");
	return MNL_CB_OK;
}

/*
 * Exits at once: every event printed has been flushed, so there is
 * nothing to finish, and exiting here has no race with a blocking recv.
 */
static void monitor_stop(int sig)
{
	_exit(FABCTL_EXIT_OK);
}

int cmd_monitor(struct fabctl *fc, int argc, char **argv)
{
	struct monitor_ctx ctx = { .fc = fc };
	struct sigaction sa = { .sa_handler = monitor_stop };
	struct genl_family fam, mfam;
	struct nl_sock s;
	ssize_t n;
	int grp;

	if (argc) {
		usage_error("monitor: unexpected argument \"%s\"", argv[0]);
		return FABCTL_EXIT_USAGE;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (fabric_open(&s, &fam, true) < 0)
		return FABCTL_EXIT_ERROR;
	ctx.family = fam.id;
	grp = (int)fam.mcgrp;
	if (mnl_socket_setsockopt(s.nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		fprintf(stderr, "fabctl: monitor: joining group \"%s\": %s\n",
			FABRIC_GENL_MCGRP_EVENTS, strerror(errno));
		nl_close(&s);
		return FABCTL_EXIT_ERROR;
	}
	/* mrt's EV events too, if it is loaded (else only the fabric's) */
	if (!genl_resolve(&s, MRT_GENL_NAME, MRT_GENL_MCGRP_EVENTS, &mfam) &&
	    mfam.mcgrp) {
		grp = (int)mfam.mcgrp;
		/* CAP_NET_ADMIN only: without it, the attribute events alone */
		if (mnl_socket_setsockopt(s.nl, NETLINK_ADD_MEMBERSHIP, &grp,
					  sizeof(grp)) < 0)
			fprintf(stderr,
				"fabctl: monitor: mrt's EV events not followed (%s)\n",
				strerror(errno));
		else
			ctx.mrt = mfam.id;
	}
	for (;;) {
		n = mnl_socket_recvfrom(s.nl, s.rx, NL_BUF_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			fprintf(stderr,
				"fabctl: monitor: events were lost (receive buffer overrun)\n");
			continue;
		}
		if (n < 0 && errno == ENOSPC) {
			fprintf(stderr,
				"fabctl: monitor: a notification longer than %d bytes was skipped\n",
				NL_BUF_SIZE);
			continue;
		}
		if (n <= 0) {
			fprintf(stderr, "fabctl: monitor: netlink receive: %s\n",
				strerror(n ? errno : EPIPE));
			break;
		}
		if (nl_run(&s, s.rx, (size_t)n, 0, monitor_cb, &ctx) ==
		    MNL_CB_ERROR) {
			nl_perror("monitor");
			/* A malformed event is skipped; anything else ends. */
			if (nl_error() != EBADMSG)
				break;
		}
	}
	nl_close(&s);
	return FABCTL_EXIT_ERROR;
}

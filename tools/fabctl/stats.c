// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl stats [MODULE]: FABRIC_CMD_STATS_GET, a dump of every module or a
 * do for one.  Each reply is one module's counters, printed as it comes:
 * the module's name on a line, then "  name value" lines; or one JSON
 * object {module, netns_inum, stats: {name: value, ...}} in an array.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <string.h>

#include <linux/fabric.h>

#include "fabctl.h"

static const enum mnl_attr_data_type stat_policy[FABRIC_STAT_A_MAX + 1] = {
	[FABRIC_STAT_A_NAME]	= MNL_TYPE_NUL_STRING,
	[FABRIC_STAT_A_VALUE]	= MNL_TYPE_U64,
};

struct stats_ctx {
	struct fabctl *fc;
	struct json j;
	uint16_t family;
	size_t width;			/* text: the longest name */
	bool print;			/* the second walk: print */
};

static int stat_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr *tb[FABRIC_STAT_A_MAX + 1];
	struct stats_ctx *ctx = data;
	const char *name;
	uint64_t v;
	size_t len;

	if (mnl_attr_get_type(attr) != FABRIC_A_STAT)
		return 0;
	if (nl_parse_nest(attr, stat_policy, FABRIC_STAT_A_MAX, tb,
			  "FABRIC_A_STAT") < 0)
		return -1;
	if (!tb[FABRIC_STAT_A_NAME] || !tb[FABRIC_STAT_A_VALUE])
		return nl_bad_reply("FABRIC_A_STAT without a name or a value");
	name = mnl_attr_get_str(tb[FABRIC_STAT_A_NAME]);
	v = mnl_attr_get_u64(tb[FABRIC_STAT_A_VALUE]);
	if (!ctx->print) {
		len = strlen(name);
		if (len > ctx->width)
			ctx->width = len;
	} else if (ctx->fc->json) {
		json_kv_u64(&ctx->j, name, v);
	} else {
		fprintf(ctx->fc->out, "  %-*s %" PRIu64 "\n", (int)ctx->width,
			name, v);
	}
	return 0;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[FABRIC_A_MAX + 1];
	struct stats_ctx *ctx = data;
	const char *module;
	const void *attrs;
	size_t len;

	if (genl_attrs(nlh, ctx->family, &attrs, &len) < 0 ||
	    nl_parse(attrs, len, fabric_policy, FABRIC_A_MAX, tb,
		     "FABRIC_CMD_STATS_GET") < 0)
		return MNL_CB_ERROR;
	if (!tb[FABRIC_A_MODULE])
		return nl_bad_reply("FABRIC_CMD_STATS_GET without FABRIC_A_MODULE");
	module = mnl_attr_get_str(tb[FABRIC_A_MODULE]);

	/* Every counter is checked before the module's first is printed. */
	ctx->print = false;
	ctx->width = 0;
	if (nl_walk(attrs, len, stat_cb, ctx, "FABRIC_CMD_STATS_GET") < 0)
		return MNL_CB_ERROR;
	if (ctx->fc->json) {
		json_begin_object(&ctx->j);
		json_kv_string(&ctx->j, "module", module);
		if (tb[FABRIC_A_NETNS_INUM])
			json_kv_u64(&ctx->j, "netns_inum",
				    mnl_attr_get_u32(tb[FABRIC_A_NETNS_INUM]));
		json_key(&ctx->j, "stats");
		json_begin_object(&ctx->j);
	} else {
		fprintf(ctx->fc->out, "%s\n", module);
	}
	ctx->print = true;
	nl_walk(attrs, len, stat_cb, ctx, "FABRIC_CMD_STATS_GET");
	if (ctx->fc->json) {
		json_end_object(&ctx->j);
		json_end_object(&ctx->j);
	}
	return MNL_CB_OK;
}

int cmd_stats(struct fabctl *fc, int argc, char **argv)
{
	struct stats_ctx ctx = { .fc = fc };
	struct genl_family fam;
	struct nlmsghdr *nlh;
	struct nl_sock s;
	int ret;

	if (argc > 1) {
		usage_error("stats: unexpected argument \"%s\"", argv[1]);
		return FABCTL_EXIT_USAGE;
	}
	if (fabric_open(&s, &fam, false) < 0)
		return FABCTL_EXIT_ERROR;
	ctx.family = fam.id;
	nlh = genl_req(&s, fam.id, FABRIC_CMD_STATS_GET, FABRIC_GENL_VERSION,
		       argc ? NLM_F_ACK : NLM_F_DUMP);
	if (argc)
		mnl_attr_put_strz(nlh, FABRIC_A_MODULE, argv[0]);
	json_init(&ctx.j, fc->out, fc->pretty);
	if (fc->json)
		json_begin_array(&ctx.j);
	ret = nl_talk(&s, nlh, stats_cb, &ctx);
	nl_close(&s);
	if (ret < 0) {
		nl_perror("stats");
		return FABCTL_EXIT_ERROR;
	}
	if (fc->json)
		json_end_array(&ctx.j);
	return FABCTL_EXIT_OK;
}

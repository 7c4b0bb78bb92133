// SPDX-License-Identifier: GPL-2.0
/*
 * The "fabric" generic netlink family (include/uapi/linux/fabric.h,
 * Documentation/netlink/specs/fabric.yaml): every registered module's
 * attributes and counters, per network namespace.
 *
 *   ATTR_GET   do: one attribute; dump: all, or one module's
 *   ATTR_SET   do: several attributes of one module, all or nothing
 *   STATS_GET  do: one module's counters; dump: every module's
 *   ATTR_NTF   on the "events" group: an attribute changed
 *
 * 6.1 has neither split ops nor the ynl policy generator, so each command
 * has its own hand-written policy, validated strictly (unknown attributes,
 * wrong types and lengths, trailing data are refused before a handler
 * runs); the values' ranges, which differ per attribute, are checked
 * against the attribute table.  ATTR_SET needs CAP_NET_ADMIN in the user
 * namespace that owns the network namespace (GENL_UNS_ADMIN_PERM), as a
 * sysctl write in that namespace does; if that user namespace is not the
 * initial one, the limits are held to init_net's (attr.c, EPERM).
 *
 * Refusals carry an extended-ACK message naming the attribute and, for a
 * value, its range.  6.1's extack holds a pointer to a message, not the
 * message, and sends it after the handler has returned and dropped every
 * lock, so a message must outlive its module: formatted messages are
 * interned here (fabric_msg()), once per distinct text, and freed with
 * fabric.ko.  Texts come from the attribute tables, fixed reasons and
 * init_net's values of the limits (which only its administrator sets),
 * never from a request, so their number is bounded.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "fabric.h"

static struct genl_family fabric_genl_family;

enum fabric_mcgrp {
	FABRIC_MCGRP_EVENTS,
};

static const struct genl_multicast_group fabric_mcgrps[] = {
	[FABRIC_MCGRP_EVENTS] = { .name = FABRIC_GENL_MCGRP_EVENTS },
};

struct fabric_msg {
	struct list_head node;
	char text[];
};

static DEFINE_MUTEX(fabric_msg_lock);
static LIST_HEAD(fabric_msgs);

/* A message that lives as long as fabric.ko, or a fixed one if out of
 * memory.
 */
__printf(1, 2) const char *fabric_msg(const char *fmt, ...)
{
	struct fabric_msg *m;
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!text)
		return "invalid value";
	mutex_lock(&fabric_msg_lock);
	list_for_each_entry(m, &fabric_msgs, node)
		if (!strcmp(m->text, text))
			goto out;
	m = kmalloc(sizeof(*m) + strlen(text) + 1, GFP_KERNEL);
	if (m) {
		strcpy(m->text, text);
		list_add(&m->node, &fabric_msgs);
	}
out:
	mutex_unlock(&fabric_msg_lock);
	kfree(text);
	return m ? m->text : "invalid value";
}

static const struct nla_policy fabric_attr_get_policy[FABRIC_ATTR_A_MAX + 1] = {
	[FABRIC_ATTR_A_NAME] = { .type = NLA_NUL_STRING,
				 .len = FABRIC_ATTR_NAME_MAX - 1 },
};

static const struct nla_policy fabric_attr_set_policy[FABRIC_ATTR_A_MAX + 1] = {
	[FABRIC_ATTR_A_NAME] = { .type = NLA_NUL_STRING,
				 .len = FABRIC_ATTR_NAME_MAX - 1 },
	[FABRIC_ATTR_A_VALUE] = { .type = NLA_U32 },
	[FABRIC_ATTR_A_TEXT] = { .type = NLA_NUL_STRING,
				 .len = FABRIC_ATTR_TEXT_MAX - 1 },
};

static const struct nla_policy fabric_get_policy[FABRIC_A_MAX + 1] = {
	[FABRIC_A_MODULE] = { .type = NLA_NUL_STRING,
			      .len = FABRIC_MODULE_NAME_MAX - 1 },
	[FABRIC_A_ATTR] = NLA_POLICY_NESTED(fabric_attr_get_policy),
};

static const struct nla_policy fabric_set_policy[FABRIC_A_MAX + 1] = {
	[FABRIC_A_MODULE] = { .type = NLA_NUL_STRING,
			      .len = FABRIC_MODULE_NAME_MAX - 1 },
	[FABRIC_A_ATTR] = NLA_POLICY_NESTED(fabric_attr_set_policy),
};

static const struct nla_policy fabric_stats_policy[FABRIC_A_MAX + 1] = {
	[FABRIC_A_MODULE] = { .type = NLA_NUL_STRING,
			      .len = FABRIC_MODULE_NAME_MAX - 1 },
};

/* The module FABRIC_A_MODULE names, under fabric_lock; an ERR_PTR (and
 * the extack says why) if there is none.
 */
static struct fabric_module *fabric_genl_module(struct nlattr **tb,
						struct netlink_ext_ack *extack)
{
	struct fabric_module *mod;

	if (NL_REQ_ATTR_CHECK(extack, NULL, tb, FABRIC_A_MODULE)) {
		NL_SET_ERR_MSG(extack, "no module given (FABRIC_A_MODULE)");
		return ERR_PTR(-EINVAL);
	}
	mod = fabric_module_find(nla_data(tb[FABRIC_A_MODULE]));
	if (!mod) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FABRIC_A_MODULE],
				    "no such module registered (is it loaded?)");
		return ERR_PTR(-ENOENT);
	}
	return mod;
}

/* The attribute of mod called name, or -ENOENT. */
static int fabric_attr_id(const struct fabric_module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->nattrs; i++)
		if (!strcmp(mod->desc[i].name, name))
			return i;
	return -ENOENT;
}

static u32 fabric_netns_inum(const struct net *net)
{
	return net->ns.inum;
}

static int fabric_put_attr(struct sk_buff *skb, const struct fabric_net *fn,
			   unsigned int id)
{
	const struct fabric_attr_desc *d = &fn->mod->desc[id];
	struct nlattr *nest, *names;
	unsigned int i;

	/* The table's flags are the uapi's bits. */
	BUILD_BUG_ON(FABRIC_ATTR_F_LIMIT != FABRIC_ATTR_FLAG_LIMIT);
	nest = nla_nest_start(skb, FABRIC_A_ATTR);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, FABRIC_ATTR_A_NAME, d->name) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_VALUE, fabric_net_attr(fn, id)) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_DEFAULT, d->def) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_GLOBAL,
			fabric_module_default(fn->mod, id)) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_MIN_VALUE, d->min) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_MAX_VALUE, d->max) ||
	    nla_put_u8(skb, FABRIC_ATTR_A_KIND, d->kind) ||
	    nla_put_string(skb, FABRIC_ATTR_A_UNIT, fabric_attr_unit(d)) ||
	    nla_put_string(skb, FABRIC_ATTR_A_HELP, d->help) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_FLAGS, d->flags))
		goto cancel;
	if (d->kind == FABRIC_ATTR_ENUM && d->names) {
		names = nla_nest_start(skb, FABRIC_ATTR_A_ENUM_NAMES);
		if (!names)
			goto cancel;
		for (i = 0; i <= d->max; i++)
			if (d->names[i] &&
			    nla_put_string(skb, i + 1, d->names[i]))
				goto cancel;
		nla_nest_end(skb, names);
	}
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* The start of every reply and notification: the header, the module,
 * the netns.  cb: in a dump (flags the message if the modules changed
 * since it began).  NULL if the skb is full.
 */
static void *fabric_put_head(struct sk_buff *skb, const struct fabric_net *fn,
			     u8 cmd, u32 portid, u32 seq, int flags,
			     struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &fabric_genl_family, flags, cmd);
	if (!hdr)
		return NULL;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (nla_put_string(skb, FABRIC_A_MODULE, fn->mod->name) ||
	    nla_put_u32(skb, FABRIC_A_NETNS_INUM, fabric_netns_inum(fn->net))) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/* One ATTR_GET reply: the module, the netns, one attribute. */
static int fabric_fill_attr(struct sk_buff *skb, const struct fabric_net *fn,
			    unsigned int id, u32 portid, u32 seq, int flags,
			    struct netlink_callback *cb)
{
	void *hdr;

	hdr = fabric_put_head(skb, fn, FABRIC_CMD_ATTR_GET, portid, seq, flags,
			      cb);
	if (!hdr)
		return -EMSGSIZE;
	if (fabric_put_attr(skb, fn, id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int fabric_attr_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[FABRIC_ATTR_A_MAX + 1];
	struct fabric_module *mod;
	struct sk_buff *msg;
	int id, err;

	if (GENL_REQ_ATTR_CHECK(info, FABRIC_A_ATTR)) {
		NL_SET_ERR_MSG(info->extack,
			       "no attribute given (FABRIC_A_ATTR with its name)");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, FABRIC_ATTR_A_MAX, info->attrs[FABRIC_A_ATTR],
			       fabric_attr_get_policy, info->extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[FABRIC_A_ATTR], tb,
			      FABRIC_ATTR_A_NAME)) {
		NL_SET_ERR_MSG(info->extack,
			       "no attribute name given (FABRIC_ATTR_A_NAME)");
		return -EINVAL;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&fabric_lock);
	mod = fabric_genl_module(info->attrs, info->extack);
	if (IS_ERR(mod)) {
		err = PTR_ERR(mod);
		goto out;
	}
	id = fabric_attr_id(mod, nla_data(tb[FABRIC_ATTR_A_NAME]));
	if (id < 0) {
		fabric_extack(info->extack, tb[FABRIC_ATTR_A_NAME],
			      fabric_msg("%s: no such attribute", mod->name));
		err = id;
		goto out;
	}
	err = fabric_fill_attr(msg, fabric_net(mod, genl_info_net(info)), id,
			       info->snd_portid, info->snd_seq, 0, NULL);
out:
	mutex_unlock(&fabric_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* Dump position, in cb->ctx: the module's index and the attribute's. */
struct fabric_dump_ctx {
	unsigned int mod;
	unsigned int attr;
};

/* The module a dump is limited to (NULL: all), or an error if its
 * FABRIC_A_MODULE names none.  Looked up in each pass of the dump, not in
 * a start() callback: 6.1 gives start() no extack, while a pass has one
 * and its error goes out in NLMSG_DONE with the message.  Under
 * fabric_lock.
 */
static struct fabric_module *fabric_dump_only(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);

	BUILD_BUG_ON(sizeof(struct fabric_dump_ctx) > sizeof(cb->ctx));
	if (!info->attrs[FABRIC_A_MODULE])
		return NULL;
	return fabric_genl_module(info->attrs, cb->extack);
}

/* The dumps: fill() puts one module's replies for this netns, resuming at
 * ctx->attr; the walk over the modules resumes at ctx->mod.
 */
static int fabric_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       int (*fill)(struct sk_buff *skb, struct fabric_net *fn,
				   struct netlink_callback *cb))
{
	struct fabric_dump_ctx *ctx = (void *)cb->ctx;
	struct fabric_module *mod, *only;
	unsigned int m = 0;
	int err = 0;

	mutex_lock(&fabric_lock);
	cb->seq = fabric_gen;
	only = fabric_dump_only(cb);
	if (IS_ERR(only)) {
		err = PTR_ERR(only);
		goto out;
	}
	list_for_each_entry(mod, &fabric_modules, node) {
		if (m++ < ctx->mod)
			continue;
		if (!only || mod == only) {
			err = fill(skb, fabric_net(mod, sock_net(skb->sk)), cb);
			if (err)
				break;
		}
		ctx->attr = 0;
		ctx->mod++;
	}
out:
	mutex_unlock(&fabric_lock);
	/* A full skb: the dump continues; one that holds nothing: too big. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

static int fabric_dump_attrs(struct sk_buff *skb, struct fabric_net *fn,
			     struct netlink_callback *cb)
{
	struct fabric_dump_ctx *ctx = (void *)cb->ctx;
	int err;

	for (; ctx->attr < fn->mod->nattrs; ctx->attr++) {
		err = fabric_fill_attr(skb, fn, ctx->attr,
				       NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			return err;
	}
	return 0;
}

static int fabric_attr_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	return fabric_dump(skb, cb, fabric_dump_attrs);
}

/* Parses one ATTR_SET nest into w; on a refusal, extack says why. */
static int fabric_set_parse(const struct fabric_module *mod,
			    const struct nlattr *nest,
			    struct fabric_attr_write *w,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FABRIC_ATTR_A_MAX + 1];
	const struct fabric_attr_desc *d;
	const char *why = "", *msg;
	unsigned long seen = 0;
	const struct nlattr *a;
	int id, err, rem;

	err = nla_parse_nested(tb, FABRIC_ATTR_A_MAX, nest,
			       fabric_attr_set_policy, extack);
	if (err)
		return err;
	/* The parser keeps the last of a type: a nest with two names (or
	 * values) would set whichever came last.  Refuse it, as a set that
	 * names one attribute twice is refused.
	 */
	BUILD_BUG_ON(FABRIC_ATTR_A_MAX >= BITS_PER_LONG);
	nla_for_each_nested(a, nest, rem) {
		if (__test_and_set_bit(nla_type(a), &seen)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a field given twice in one attribute nest (FABRIC_A_ATTR)");
			return -EINVAL;
		}
	}
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, FABRIC_ATTR_A_NAME)) {
		NL_SET_ERR_MSG(extack,
			       "an attribute without a name (FABRIC_ATTR_A_NAME)");
		return -EINVAL;
	}
	id = fabric_attr_id(mod, nla_data(tb[FABRIC_ATTR_A_NAME]));
	if (id < 0) {
		fabric_extack(extack, tb[FABRIC_ATTR_A_NAME],
			      fabric_msg("%s: no such attribute", mod->name));
		return -ENOENT;
	}
	d = &mod->desc[id];
	if (!tb[FABRIC_ATTR_A_VALUE] == !tb[FABRIC_ATTR_A_TEXT]) {
		msg = fabric_msg("%s: %s: give a value or a text (one, not both)",
				 mod->name, d->name);
		fabric_extack(extack, nest, msg);
		return -EINVAL;
	}
	w->id = id;
	if (tb[FABRIC_ATTR_A_TEXT]) {
		err = fabric_attr_parse(d, nla_data(tb[FABRIC_ATTR_A_TEXT]),
					&w->val, &why);
		if (err) {
			msg = fabric_msg("%s: %s: %s (range %u..%u)", mod->name,
					 d->name, why, d->min, d->max);
			fabric_extack(extack, tb[FABRIC_ATTR_A_TEXT], msg);
			return err;
		}
		return 0;
	}
	w->val = nla_get_u32(tb[FABRIC_ATTR_A_VALUE]);
	if (w->val < d->min || w->val > d->max) {
		msg = fabric_msg("%s: %s: value out of range (range %u..%u)",
				 mod->name, d->name, d->min, d->max);
		fabric_extack(extack, tb[FABRIC_ATTR_A_VALUE], msg);
		return -EINVAL;
	}
	return 0;
}

static int fabric_attr_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fabric_attr_write *w = NULL;
	struct fabric_module *mod;
	const char *msg;
	struct nlattr *a;
	unsigned int n = 0, i;
	int rem, err;

	mutex_lock(&fabric_lock);
	mod = fabric_genl_module(info->attrs, info->extack);
	if (IS_ERR(mod)) {
		err = PTR_ERR(mod);
		goto out;
	}
	/* Every FABRIC_A_ATTR, not only the last one the parser kept; the
	 * policy has already checked each of them.
	 */
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(a) == FABRIC_A_ATTR)
			n++;
	if (!n) {
		NL_SET_ERR_MSG(info->extack,
			       "no attribute to set (FABRIC_A_ATTR)");
		err = -EINVAL;
		goto out;
	}
	if (n > mod->nattrs) {
		NL_SET_ERR_MSG(info->extack, "more attributes than the module has");
		err = -EINVAL;
		goto out;
	}
	w = kcalloc(n, sizeof(*w), GFP_KERNEL);
	err = -ENOMEM;
	if (!w)
		goto out;
	n = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FABRIC_A_ATTR)
			continue;
		err = fabric_set_parse(mod, a, &w[n], info->extack);
		if (err)
			goto out;
		for (i = 0; i < n; i++) {
			if (w[i].id == w[n].id) {
				msg = fabric_msg("%s: %s: given twice",
						 mod->name,
						 mod->desc[w[n].id].name);
				fabric_extack(info->extack, a, msg);
				err = -EINVAL;
				goto out;
			}
		}
		n++;
	}
	err = fabric_net_commit(fabric_net(mod, genl_info_net(info)), w, n,
				info->extack);
	if (err == -EINVAL) {
		/* The module's rule across attributes refused the set; its
		 * reason came from the module and must outlive it.
		 */
		msg = info->extack->_msg;
		msg = fabric_msg("%s: %s", mod->name,
				 msg ? msg : "the values break a rule across attributes");
		fabric_extack(info->extack, NULL, msg);
	}
out:
	mutex_unlock(&fabric_lock);
	kfree(w);
	return err;
}

/* One STATS_GET reply: a module's counters in this netns (cb: as for
 * fabric_fill_attr()).
 */
static int fabric_fill_stats(struct sk_buff *skb, const struct fabric_net *fn,
			     u32 portid, u32 seq, int flags,
			     struct netlink_callback *cb)
{
	const struct fabric_module *mod = fn->mod;
	unsigned int g, i, k = 0;
	struct nlattr *nest;
	char name[64];
	void *hdr;

	hdr = fabric_put_head(skb, fn, FABRIC_CMD_STATS_GET, portid, seq,
			      flags, cb);
	if (!hdr)
		return -EMSGSIZE;
	for (g = 0; g < mod->nstat_groups; g++) {
		const struct fabric_stat_group *sg = &mod->stats[g];

		for (i = 0; i < sg->count; i++, k++) {
			snprintf(name, sizeof(name), "%s%s", sg->prefix,
				 sg->names[i]);
			nest = nla_nest_start(skb, FABRIC_A_STAT);
			if (!nest ||
			    nla_put_string(skb, FABRIC_STAT_A_NAME, name) ||
			    nla_put_u64_64bit(skb, FABRIC_STAT_A_VALUE,
					      fabric_net_stat_value(fn, sg, i, k),
					      FABRIC_STAT_A_PAD))
				goto cancel;
			nla_nest_end(skb, nest);
		}
	}
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int fabric_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fabric_module *mod;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&fabric_lock);
	mod = fabric_genl_module(info->attrs, info->extack);
	if (IS_ERR(mod))
		err = PTR_ERR(mod);
	else
		err = fabric_fill_stats(msg, fabric_net(mod, genl_info_net(info)),
					info->snd_portid, info->snd_seq, 0, NULL);
	mutex_unlock(&fabric_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int fabric_dump_stats(struct sk_buff *skb, struct fabric_net *fn,
			     struct netlink_callback *cb)
{
	return fabric_fill_stats(skb, fn, NETLINK_CB(cb->skb).portid,
				 cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
}

static int fabric_stats_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	return fabric_dump(skb, cb, fabric_dump_stats);
}

void fabric_genl_notify(struct fabric_net *fn, unsigned int id, u32 old,
			u32 val)
{
	const struct fabric_attr_desc *d = &fn->mod->desc[id];
	struct sk_buff *skb;
	struct nlattr *nest;
	void *hdr;

	if (!genl_has_listeners(&fabric_genl_family, fn->net,
				FABRIC_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = fabric_put_head(skb, fn, FABRIC_CMD_ATTR_NTF, 0, 0, 0, NULL);
	if (!hdr)
		goto err;
	nest = nla_nest_start(skb, FABRIC_A_ATTR);
	if (!nest ||
	    nla_put_string(skb, FABRIC_ATTR_A_NAME, d->name) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_VALUE, val) ||
	    nla_put_u32(skb, FABRIC_ATTR_A_OLD, old))
		goto err;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&fabric_genl_family, fn->net, skb, 0,
				FABRIC_MCGRP_EVENTS, GFP_KERNEL);
	return;

err:
	nlmsg_free(skb);
}

static const struct genl_ops fabric_genl_ops[] = {
	{
		.cmd = FABRIC_CMD_ATTR_GET,
		.doit = fabric_attr_get_doit,
		.dumpit = fabric_attr_get_dumpit,
		.policy = fabric_get_policy,
		.maxattr = FABRIC_A_MAX,
	},
	{
		.cmd = FABRIC_CMD_ATTR_SET,
		.doit = fabric_attr_set_doit,
		.policy = fabric_set_policy,
		.maxattr = FABRIC_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FABRIC_CMD_STATS_GET,
		.doit = fabric_stats_get_doit,
		.dumpit = fabric_stats_get_dumpit,
		.policy = fabric_stats_policy,
		.maxattr = FABRIC_A_MAX,
	},
};

static struct genl_family fabric_genl_family = {
	.name = FABRIC_GENL_NAME,
	.version = FABRIC_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = fabric_genl_ops,
	.n_ops = ARRAY_SIZE(fabric_genl_ops),
	.mcgrps = fabric_mcgrps,
	.n_mcgrps = ARRAY_SIZE(fabric_mcgrps),
};

int __init fabric_genl_init(void)
{
	return genl_register_family(&fabric_genl_family);
}

void fabric_genl_exit(void)
{
	struct fabric_msg *m, *tmp;

	genl_unregister_family(&fabric_genl_family);
	list_for_each_entry_safe(m, tmp, &fabric_msgs, node) {
		list_del(&m->node);
		kfree(m);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute values on the kernel side: module parameters (the global
 * defaults), per-netns sysctls, and the one write path that sysctl and
 * netlink share.
 *
 * Every write goes through fabric_attr_parse() (text) or the descriptor's
 * range (netlink numbers), then through fabric_net_commit(): the module's
 * rule across attributes (its check(), e.g. nscc's low threshold not above
 * its high one) runs on the values as they would be after the write, and
 * only if it passes are they stored, all of them inside one seqlock write
 * section so that a socket starting meanwhile reads either the old
 * set or the new one.  A refused write changes nothing and says why: in
 * the netlink extended ACK, or for a sysctl in the kernel log (a sysctl
 * write fails with EINVAL, or EPERM for a limit).  Each value that changed
 * is sent to the "events" netlink group.
 *
 * Limits (FABRIC_ATTR_F_LIMIT: what bounds the memory a namespace makes
 * the kernel hold) are held to init_net's in a namespace owned by a user
 * namespace other than the initial one, whose root may write its own
 * namespace's attributes but must not lift the bounds the initial
 * namespace's administrator set: such a write may lower a limit, or set
 * it to anything up to init_net's current value, and is refused with
 * EPERM if it would raise it above that.  The check sits in
 * fabric_net_commit(), which every per-netns write goes through, and a
 * new such namespace starts each limit at most at init_net's value.  A
 * limit already above init_net's (init_net lowered it later) stays until
 * it is written; lowering it works.  init_net's value is read once per
 * write, without its lock: a write that races with init_net's own is
 * judged by the value before or after it.
 *
 * Module parameters are global, not per netns: they are checked against
 * the same rules once the module has registered (while it loads they are
 * taken one by one and checked together by fabric_module_register()), and
 * they are not notified.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "fabric.h"

/* Longest text form of a value: ten digits or an enum name, newline, NUL. */
#define FABRIC_ATTR_TEXT	FABRIC_ATTR_TEXT_MAX

const char *fabric_attr_unit(const struct fabric_attr_desc *d)
{
	return d->unit ? d->unit : "";
}

/* The text form of val, with a newline for sysfs (proc_dostring adds its own). */
static int fabric_attr_format(const struct fabric_attr_desc *d, u32 val,
			      char *buf, size_t len, bool newline)
{
	const char *name = fabric_attr_name_of(d, val);

	if (name)
		return scnprintf(buf, len, "%s%s", name, newline ? "\n" : "");
	return scnprintf(buf, len, "%u%s", val, newline ? "\n" : "");
}

void fabric_net_params(const struct fabric_net *fn, u32 *out)
{
	unsigned int i, seq;

	do {
		seq = read_seqbegin(&fn->seq);
		for (i = 0; i < fn->mod->nattrs; i++)
			out[i] = READ_ONCE(fn->attr[i]);
	} while (read_seqretry(&fn->seq, seq));
}
EXPORT_SYMBOL_GPL(fabric_net_params);

/* Why a write of a limit is refused (%u: init_net's value). */
#define FABRIC_LIMIT_WHY \
	"a namespace owned by a non-initial user namespace cannot raise it above the initial namespace's (%u)"

/* -EPERM (and says why) if next raises a limit of a limited namespace
 * above init_net's value; else 0.
 */
static int fabric_net_limit_check(const struct fabric_net *fn, const u32 *old,
				  const u32 *next,
				  struct netlink_ext_ack *extack)
{
	const struct fabric_module *mod = fn->mod;
	const struct fabric_attr_desc *d;
	const struct fabric_net *top;
	unsigned int i;
	u32 max;

	if (!fabric_net_limited(fn->net))
		return 0;
	top = fabric_net(mod, &init_net);
	for (i = 0; i < mod->nattrs; i++) {
		d = &mod->desc[i];
		if (!(d->flags & FABRIC_ATTR_F_LIMIT) || next[i] <= old[i])
			continue;
		max = fabric_net_attr(top, i);
		if (next[i] <= max)
			continue;
		if (extack)
			fabric_extack(extack, NULL,
				      fabric_msg("%s: %s: " FABRIC_LIMIT_WHY,
						 mod->name, d->name, max));
		else
			pr_warn_ratelimited("%s: %s: " FABRIC_LIMIT_WHY "\n",
					    mod->sysctl_path, d->name, max);
		return -EPERM;
	}
	return 0;
}

void fabric_net_limit_start(struct fabric_net *fn)
{
	const struct fabric_module *mod = fn->mod;
	const struct fabric_net *top;
	const char *why = "";
	unsigned int i;

	if (!fabric_net_limited(fn->net))
		return;
	top = fabric_net(mod, &init_net);
	for (i = 0; i < mod->nattrs; i++)
		if (mod->desc[i].flags & FABRIC_ATTR_F_LIMIT)
			fn->attr[i] = min(fn->attr[i], fabric_net_attr(top, i));
	/* Each limit is the smaller of two values that passed the module's
	 * rules, and rules among limits (a <= b) hold for the smaller of
	 * each; one that ties a limit to another attribute may not.  Then
	 * the namespace starts from init_net's whole set, which passed.
	 */
	if (mod->check && mod->check(fn->attr, &why)) {
		pr_warn_ratelimited("%s: %s: a new namespace starts from the initial namespace's values\n",
				    mod->sysctl_path, why);
		fabric_net_params(top, fn->attr);
	}
}

int fabric_net_commit(struct fabric_net *fn, const struct fabric_attr_write *w,
		      unsigned int n, struct netlink_ext_ack *extack)
{
	const struct fabric_module *mod = fn->mod;
	const char *why = NULL;
	u32 *next, *old;
	unsigned int i;
	int err = 0;

	next = kmalloc_array(2 * mod->nattrs, sizeof(u32), GFP_KERNEL);
	if (!next)
		return -ENOMEM;
	old = next + mod->nattrs;

	mutex_lock(&fn->lock);
	memcpy(old, fn->attr, mod->nattrs * sizeof(u32));
	memcpy(next, old, mod->nattrs * sizeof(u32));
	for (i = 0; i < n; i++)
		next[w[i].id] = w[i].val;
	err = fabric_net_limit_check(fn, old, next, extack);
	if (err)
		goto out;
	if (mod->check && mod->check(next, &why)) {
		fabric_extack(extack, NULL, why);
		if (!extack)
			pr_warn_ratelimited("%s: %s\n", mod->sysctl_path, why);
		err = -EINVAL;
		goto out;
	}
	/* Readers may run in softirq context on this CPU: BH stays off while
	 * the sequence is odd, or a reader would spin on it forever.
	 */
	write_seqlock_bh(&fn->seq);
	for (i = 0; i < mod->nattrs; i++)
		WRITE_ONCE(fn->attr[i], next[i]);
	write_sequnlock_bh(&fn->seq);
out:
	mutex_unlock(&fn->lock);
	if (!err)
		for (i = 0; i < mod->nattrs; i++)
			if (old[i] != next[i])
				fabric_genl_notify(fn, i, old[i], next[i]);
	kfree(next);
	return err;
}

/* A module parameter: parse, then (once registered) the rule across. */
static int fabric_attr_param_set(const char *text, const struct kernel_param *kp)
{
	const struct fabric_attr_param *p = kp->arg;
	struct fabric_module *mod = p->mod;
	const struct fabric_attr_desc *d = &mod->desc[p->id];
	const char *why = "";
	u32 val, *next;
	int err;

	err = fabric_attr_parse(d, text, &val, &why);
	if (err) {
		pr_warn("%s: %s: %s (range %u..%u)\n", mod->name, d->name, why,
			d->min, d->max);
		return err;
	}
	/* Writers of one module's parameters hold its kernel_param_lock. */
	if (READ_ONCE(mod->registered) && mod->check) {
		next = kmemdup(mod->defaults, mod->nattrs * sizeof(u32),
			       GFP_KERNEL);
		if (!next)
			return -ENOMEM;
		next[p->id] = val;
		err = mod->check(next, &why);
		kfree(next);
		if (err) {
			pr_warn("%s: %s: %s\n", mod->name, d->name, why);
			return err;
		}
	}
	WRITE_ONCE(mod->defaults[p->id], val);
	if (mod->default_changed)
		mod->default_changed(p->id);
	return 0;
}

static int fabric_attr_param_get(char *buf, const struct kernel_param *kp)
{
	const struct fabric_attr_param *p = kp->arg;

	return fabric_attr_format(&p->mod->desc[p->id],
				  READ_ONCE(p->mod->defaults[p->id]),
				  buf, PAGE_SIZE, true);
}

const struct kernel_param_ops fabric_attr_param_ops = {
	.set = fabric_attr_param_set,
	.get = fabric_attr_param_get,
};
EXPORT_SYMBOL_GPL(fabric_attr_param_ops);

/* proc handler of every attribute sysctl: extra1 is the descriptor, extra2
 * the module's per-netns state.
 */
static int fabric_attr_proc(struct ctl_table *table, int write, void *buffer,
			    size_t *lenp, loff_t *ppos)
{
	const struct fabric_attr_desc *d = table->extra1;
	struct fabric_net *fn = table->extra2;
	struct fabric_attr_write w = { .id = d - fn->mod->desc };
	char text[FABRIC_ATTR_TEXT];
	struct ctl_table tmp = {
		.data = text,
		.maxlen = sizeof(text),
	};
	const char *why = "";
	int err;

	/* proc_dostring() would cut a longer write (one continuing at *ppos
	 * included) and take the rest as consumed: a value with many leading
	 * zeros would become another.
	 */
	if (write && *ppos + *lenp >= sizeof(text)) {
		pr_warn_ratelimited("%s: %s: value too long\n",
				    fn->mod->sysctl_path, d->name);
		return -EINVAL;
	}
	/* Reads show it; a write continuing at *ppos > 0 appends to it. */
	fabric_attr_format(d, fabric_net_attr(fn, w.id), text, sizeof(text),
			   false);
	err = proc_dostring(&tmp, write, buffer, lenp, ppos);
	if (err || !write)
		return err;
	err = fabric_attr_parse(d, text, &w.val, &why);
	if (err) {
		pr_warn_ratelimited("%s: %s: %s (range %u..%u)\n",
				    fn->mod->sysctl_path, d->name, why,
				    d->min, d->max);
		return err;
	}
	return fabric_net_commit(fn, &w, 1, NULL);
}

int fabric_sysctl_register(struct fabric_net *fn)
{
	const struct fabric_module *mod = fn->mod;
	struct ctl_table *tbl;
	unsigned int i;

	/* One spare zeroed entry terminates the table. */
	tbl = kcalloc(mod->nattrs + 1, sizeof(*tbl), GFP_KERNEL);
	if (!tbl)
		return -ENOMEM;
	for (i = 0; i < mod->nattrs; i++) {
		tbl[i].procname = mod->desc[i].name;
		tbl[i].data = &fn->attr[i];
		tbl[i].maxlen = sizeof(u32);
		tbl[i].mode = 0644;
		tbl[i].proc_handler = fabric_attr_proc;
		tbl[i].extra1 = (void *)&mod->desc[i];
		tbl[i].extra2 = fn;
	}
	fn->sysctl = register_net_sysctl(fn->net, mod->sysctl_path, tbl);
	if (!fn->sysctl) {
		kfree(tbl);
		return -ENOMEM;
	}
	return 0;
}

void fabric_sysctl_unregister(struct fabric_net *fn)
{
	struct ctl_table *tbl;

	if (!fn->sysctl)
		return;
	tbl = fn->sysctl->ctl_table_arg;
	unregister_net_sysctl_table(fn->sysctl);
	kfree(tbl);
}

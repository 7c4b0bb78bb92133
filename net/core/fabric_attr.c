// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute tables on the kernel side: module parameters and per-netns
 * sysctls made from one descriptor table (include/net/fabric/attr.h).
 *
 * Module parameters hold the global defaults; each network namespace copies
 * them when it is created and then has its own values under
 * /proc/sys/<set->sysctl_path>/.  Every write, from sysfs or sysctl, goes
 * through fabric_attr_parse(), and a bad value fails with EINVAL
 * and leaves the old one in place.  Values are single u32s written with
 * WRITE_ONCE and read with READ_ONCE; there is no rule across attributes,
 * so the order of writes never matters.
 *
 * Each module links its own copy of this file (it is small), so no symbol
 * is exported and modules do not depend on each other.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

#include <net/fabric/pernet.h>

/* Longest text form of a value: ten digits or an enum name, newline, NUL. */
#define FABRIC_ATTR_TEXT	32

static int fabric_attr_store(const struct fabric_attr_set *set, u32 *values,
			     unsigned int id, const char *text)
{
	const struct fabric_attr_desc *d = &set->desc[id];
	const char *why = "";
	u32 val;
	int err;

	err = fabric_attr_parse(d, text, &val, &why);
	if (err) {
		pr_warn_ratelimited("%s: %s: %s (range %u..%u)\n",
				    set->sysctl_path, d->name, why, d->min, d->max);
		return err;
	}
	WRITE_ONCE(values[id], val);
	return 0;
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

static int fabric_attr_param_set(const char *text, const struct kernel_param *kp)
{
	const struct fabric_attr_param *p = kp->arg;
	int err;

	err = fabric_attr_store(p->set, p->set->defaults, p->id, text);
	if (!err && p->set->default_changed)
		p->set->default_changed(p->id);
	return err;
}

static int fabric_attr_param_get(char *buf, const struct kernel_param *kp)
{
	const struct fabric_attr_param *p = kp->arg;

	return fabric_attr_format(&p->set->desc[p->id],
				  READ_ONCE(p->set->defaults[p->id]),
				  buf, PAGE_SIZE, true);
}

const struct kernel_param_ops fabric_attr_param_ops = {
	.set = fabric_attr_param_set,
	.get = fabric_attr_param_get,
};

/* proc handler of every attribute sysctl: extra1 is the descriptor, extra2
 * the set, data this netns's value inside its values[] array.
 */
static int fabric_attr_proc(struct ctl_table *table, int write, void *buffer,
			    size_t *lenp, loff_t *ppos)
{
	const struct fabric_attr_desc *d = table->extra1;
	const struct fabric_attr_set *set = table->extra2;
	unsigned int id = d - set->desc;
	u32 *values = (u32 *)table->data - id;
	char text[FABRIC_ATTR_TEXT];
	struct ctl_table tmp = {
		.data = text,
		.maxlen = sizeof(text),
	};
	int err;

	/* Reads show it; a write continuing at *ppos > 0 appends to it. */
	fabric_attr_format(d, READ_ONCE(values[id]), text, sizeof(text), false);
	err = proc_dostring(&tmp, write, buffer, lenp, ppos);
	if (err || !write)
		return err;
	return fabric_attr_store(set, values, id, text);
}

struct ctl_table_header *fabric_attr_sysctl_register(struct net *net,
						     const struct fabric_attr_set *set,
						     u32 *values)
{
	struct ctl_table_header *hdr;
	struct ctl_table *tbl;
	unsigned int i;

	/* One spare zeroed entry terminates the table. */
	tbl = kcalloc(set->count + 1, sizeof(*tbl), GFP_KERNEL);
	if (!tbl)
		return NULL;
	for (i = 0; i < set->count; i++) {
		tbl[i].procname = set->desc[i].name;
		tbl[i].data = &values[i];
		tbl[i].maxlen = sizeof(u32);
		tbl[i].mode = 0644;
		tbl[i].proc_handler = fabric_attr_proc;
		tbl[i].extra1 = (void *)&set->desc[i];
		tbl[i].extra2 = (void *)set;
	}
	hdr = register_net_sysctl(net, set->sysctl_path, tbl);
	if (!hdr)
		kfree(tbl);
	return hdr;
}

void fabric_attr_sysctl_unregister(struct ctl_table_header *hdr)
{
	struct ctl_table *tbl;

	if (!hdr)
		return;
	tbl = hdr->ctl_table_arg;
	unregister_net_sysctl_table(hdr);
	kfree(tbl);
}

void fabric_attr_snapshot(const struct fabric_attr_set *set,
			  const u32 *values, u32 *out)
{
	unsigned int i;

	for (i = 0; i < set->count; i++)
		out[i] = READ_ONCE(values[i]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fabric.ko: the base module the fabric modules register with.  It holds
 * no algorithm; it turns each module's descriptor (struct fabric_module,
 * include/net/fabric/module.h) into module parameters, per-netns sysctls
 * and counters, and the module's part of the "fabric" generic netlink
 * family, and it keeps the link speeds that "follow the path" attribute
 * values read.  One family for every module, as devlink holds many
 * drivers' parameters: one schema and one CLI (fabctl) whatever module a
 * user tunes, and the transport plugs in the same way.
 *
 * Load order: the modules depend on this one's symbols, so modprobe loads
 * it first and it stays while any of them is loaded.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "fabric.h"

/* The registered modules, and who may use them: see fabric.h. */
DEFINE_MUTEX(fabric_lock);
LIST_HEAD(fabric_modules);
unsigned int fabric_gen = 1;		/* never 0: a dump's "no sequence" */

static void fabric_gen_next(void)
{
	if (!++fabric_gen)
		fabric_gen = 1;
}

struct fabric_module *fabric_module_find(const char *name)
{
	struct fabric_module *mod;

	lockdep_assert_held(&fabric_lock);
	list_for_each_entry(mod, &fabric_modules, node)
		if (!strcmp(mod->name, name))
			return mod;
	return NULL;
}

static int fabric_module_check(const struct fabric_module *mod)
{
	unsigned int i, g;

	if (!mod->owner || !mod->name ||
	    strlen(mod->name) >= FABRIC_MODULE_NAME_MAX ||
	    !mod->nattrs || !mod->desc || !mod->defaults ||
	    !mod->pernet.init || !mod->pernet.exit)
		return -EINVAL;
	for (i = 0; i < mod->nattrs; i++)
		if (strlen(mod->desc[i].name) >= FABRIC_ATTR_NAME_MAX)
			return -EINVAL;
	for (g = 0; g < mod->nstat_groups; g++)
		if (!mod->stats[g].names || !mod->stats[g].prefix)
			return -EINVAL;
	return 0;
}

int fabric_module_register(struct fabric_module *mod)
{
	const char *why = "";
	unsigned int g;
	int err;

	err = fabric_module_check(mod);
	if (err) {
		pr_err("fabric: module %s: malformed descriptor\n",
		       mod->name ? mod->name : "(no name)");
		return err;
	}
	/* The module parameters were taken one by one while the module
	 * loaded; together they must pass the rule across attributes, and
	 * from now on each write is checked against the others (under their
	 * lock, so none slips between this check and the flag).
	 */
	kernel_param_lock(mod->owner);
	if (mod->check && mod->check(mod->defaults, &why)) {
		kernel_param_unlock(mod->owner);
		pr_err("%s: module parameters: %s\n", mod->name, why);
		return -EINVAL;
	}
	WRITE_ONCE(mod->registered, true);
	kernel_param_unlock(mod->owner);
	mod->nstats = 0;
	for (g = 0; g < mod->nstat_groups; g++)
		mod->nstats += mod->stats[g].count;
	snprintf(mod->sysctl_path, sizeof(mod->sysctl_path), "net/%s",
		 mod->name);
	snprintf(mod->proc_name, sizeof(mod->proc_name), "%s_stat", mod->name);

	mutex_lock(&fabric_lock);
	if (fabric_module_find(mod->name)) {
		err = -EEXIST;
		goto out;
	}
	err = fabric_pernet_register(mod);
	if (err)
		goto out;
	list_add_tail(&mod->node, &fabric_modules);
	fabric_gen_next();
out:
	mutex_unlock(&fabric_lock);
	if (err)
		WRITE_ONCE(mod->registered, false);
	return err;
}
EXPORT_SYMBOL_GPL(fabric_module_register);

void fabric_module_unregister(struct fabric_module *mod)
{
	/* Off the list first: no netlink request reaches the module's
	 * pernet state once it starts to go.
	 */
	mutex_lock(&fabric_lock);
	list_del(&mod->node);
	fabric_gen_next();
	WRITE_ONCE(mod->registered, false);
	mutex_unlock(&fabric_lock);
	fabric_pernet_unregister(mod);
}
EXPORT_SYMBOL_GPL(fabric_module_unregister);

static int __init fabric_init(void)
{
	int err;

	err = fabric_link_init();
	if (err)
		goto err_link;
	err = fabric_genl_init();
	if (err)
		goto err_genl;
	return 0;

err_genl:
	fabric_link_exit();
err_link:
	return err;
}

static void __exit fabric_exit(void)
{
	fabric_genl_exit();
	fabric_link_exit();
}

module_init(fabric_init);
module_exit(fabric_exit);

MODULE_AUTHOR("The fabric-cc authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fabric modules' attributes, counters and generic netlink family");
MODULE_VERSION("0.1");
MODULE_ALIAS_GENL_FAMILY(FABRIC_GENL_NAME);

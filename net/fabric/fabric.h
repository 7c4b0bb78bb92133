/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabric.ko's own interfaces between its files: the module registry
 * (main.c), attribute writes (attr.c), per-netns state (pernet.c), the
 * generic netlink family (netlink.c) and link speeds (link.c).
 */
#ifndef _FABRIC_FABRIC_H
#define _FABRIC_FABRIC_H

#include <linux/netlink.h>
#include <linux/user_namespace.h>
#include <net/fabric/module.h>

/* The registered modules; fabric_lock protects the list and each
 * module's presence on it (a module leaves it before its pernet state
 * goes).  Netlink handlers hold it for as long as they use a module.
 */
extern struct mutex fabric_lock;
extern struct list_head fabric_modules;
/* Changes with each module registered or gone: dumps that span it are
 * flagged NLM_F_DUMP_INTR.
 */
extern unsigned int fabric_gen;

struct fabric_module *fabric_module_find(const char *name);

/* One value of a multi-attribute write: the attribute and its new value. */
struct fabric_attr_write {
	unsigned int id;
	u32 val;
};

/* Writes n values of this netns's attributes at once: the limits
 * (-EPERM, fabric_net_limited()) and the module's rule across attributes
 * (-EINVAL) are checked on the whole result first; on failure nothing
 * changes and extack (which may be NULL: the kernel log) says why.
 * Notifies each value that changed.  Takes fn->lock.
 */
int fabric_net_commit(struct fabric_net *fn, const struct fabric_attr_write *w,
		      unsigned int n, struct netlink_ext_ack *extack);

/* The namespace's limits (FABRIC_ATTR_F_LIMIT) are held to init_net's:
 * it is owned by a user namespace other than the initial one.
 */
static inline bool fabric_net_limited(const struct net *net)
{
	return net->user_ns != &init_user_ns;
}

/* A new namespace's start: each limit of a limited one at most init_net's. */
void fabric_net_limit_start(struct fabric_net *fn);

/* A message that lives as long as fabric.ko (netlink.c), for an extack. */
__printf(1, 2) const char *fabric_msg(const char *fmt, ...);

/* An extended-ACK message that is not a literal: msg must outlive the
 * request (fabric_msg() in netlink.c, or static).  attr may be NULL.
 */
static inline void fabric_extack(struct netlink_ext_ack *extack,
				 const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	do_trace_netlink_extack(msg);
	extack->_msg = msg;
	if (attr)
		NL_SET_BAD_ATTR(extack, attr);
}

/* The unit of an attribute, for the dump: from its name's ending. */
const char *fabric_attr_unit(const struct fabric_attr_desc *d);

int fabric_sysctl_register(struct fabric_net *fn);
void fabric_sysctl_unregister(struct fabric_net *fn);

int fabric_pernet_register(struct fabric_module *mod);
void fabric_pernet_unregister(struct fabric_module *mod);

int fabric_genl_init(void);
void fabric_genl_exit(void);
void fabric_genl_notify(struct fabric_net *fn, unsigned int id, u32 old,
			u32 val);

int fabric_link_init(void);
void fabric_link_exit(void);

#endif /* _FABRIC_FABRIC_H */

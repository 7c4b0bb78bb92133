// SPDX-License-Identifier: GPL-2.0
/*
 * Link speeds for the "follow the path" attribute values (data_rate_mbps
 * 0): the speed each network device reports through ethtool, read where
 * the kernel allows it and looked up where a socket starts.
 *
 * A driver's get_link_ksettings() runs under RTNL and may sleep, while a
 * congestion control starts in softirq context too (a passive open).  So
 * the speeds are read in a netdevice notifier, under RTNL, when a device
 * registers, comes up or changes state (a new carrier comes with a new
 * negotiated speed), and kept in a small RCU hash table keyed by the
 * device.  A master (bond, team), whose speed is its lowers', is read
 * again whenever one of them changes, joins or leaves, or fails over.
 * A speed that changes with no event (a virtio-net config change) is
 * seen at the device's next event.  Registering the notifier replays the
 * devices that exist; unregistering it replays their removal (as does a
 * move to another netns, which re-registers the device there).
 *
 * fabric.ko has the one notifier and table; the TCP modules look up
 * their socket's egress device (fabric_tcp_link_mbps()).
 */
#include <linux/ethtool.h>
#include <linux/hashtable.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "fabric.h"

struct fabric_link {
	struct hlist_node node;
	const struct net_device *dev;	/* the key; never dereferenced */
	u32 mbps;
	struct rcu_head rcu;
};

/* Written under RTNL (the notifier), read under RCU. */
static DEFINE_HASHTABLE(fabric_links, 6);

static struct fabric_link *fabric_link_find(const struct net_device *dev)
{
	struct fabric_link *l;

	hash_for_each_possible_rcu(fabric_links, l, node, (unsigned long)dev,
				   lockdep_rtnl_is_held())
		if (l->dev == dev)
			return l;
	return NULL;
}

static void fabric_link_forget(const struct net_device *dev)
{
	struct fabric_link *l = fabric_link_find(dev);

	if (l) {
		hash_del_rcu(&l->node);
		kfree_rcu(l, rcu);
	}
}

/* Under RTNL: the device's speed now, or forgotten if it reports none. */
static void fabric_link_learn(struct net_device *dev)
{
	struct ethtool_link_ksettings ks;
	struct fabric_link *l;
	u32 mbps = 0;

	/* A master releasing its lowers while it unregisters (after its
	 * NETDEV_UNREGISTER) must not be cached again.
	 */
	if (dev->reg_state != NETREG_REGISTERED) {
		fabric_link_forget(dev);
		return;
	}
	if (!__ethtool_get_link_ksettings(dev, &ks) &&
	    ks.base.speed != (u32)SPEED_UNKNOWN)
		mbps = ks.base.speed;
	l = fabric_link_find(dev);
	if (!mbps) {
		if (l) {
			hash_del_rcu(&l->node);
			kfree_rcu(l, rcu);
		}
		return;
	}
	if (l) {
		WRITE_ONCE(l->mbps, mbps);
		return;
	}
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return;		/* the socket takes the fallback */
	l->dev = dev;
	l->mbps = mbps;
	hash_add_rcu(fabric_links, &l->node, (unsigned long)dev);
}

static int fabric_link_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *info;
	struct net_device *master;

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UP:
	case NETDEV_CHANGE:
	case NETDEV_BONDING_FAILOVER:
		fabric_link_learn(dev);
		fallthrough;
	case NETDEV_CHANGELOWERSTATE:
		master = netdev_master_upper_dev_get(dev);
		if (master)
			fabric_link_learn(master);
		break;
	case NETDEV_CHANGEUPPER:
		/* a lower joined or left: the upper's speed is theirs */
		info = ptr;
		fabric_link_learn(info->upper_dev);
		break;
	case NETDEV_UNREGISTER:
		fabric_link_forget(dev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block fabric_link_notifier = {
	.notifier_call = fabric_link_event,
};

int fabric_link_init(void)
{
	return register_netdevice_notifier(&fabric_link_notifier);
}

void fabric_link_exit(void)
{
	struct hlist_node *tmp;
	struct fabric_link *l;
	int bkt;

	unregister_netdevice_notifier(&fabric_link_notifier);
	/* Every device's NETDEV_UNREGISTER was replayed; sweep regardless. */
	rtnl_lock();
	hash_for_each_safe(fabric_links, bkt, tmp, l, node) {
		hash_del_rcu(&l->node);
		kfree_rcu(l, rcu);
	}
	rtnl_unlock();
}

u32 fabric_link_mbps(const struct net_device *dev)
{
	const struct fabric_link *l;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "link speed lookup outside RCU");
	l = fabric_link_find(dev);
	return l ? READ_ONCE(l->mbps) : 0;
}
EXPORT_SYMBOL_GPL(fabric_link_mbps);

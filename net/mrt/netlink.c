// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrt" generic netlink family (include/uapi/linux/mrt_nl.h,
 * Documentation/netlink/specs/mrt.yaml): the destinations and PDCs of the
 * requesting socket's network namespace, as /proc/net/mrt/{dests,pdcs}
 * show them, in typed attributes for fabctl and ynl.
 *
 *   DEST_GET  do: one destination, by address; dump: all of them
 *   PDC_GET   do (CAP_NET_ADMIN): one PDC, by local id; dump: all of
 *             them, by id (ids, PSNs and keys for CAP_NET_ADMIN only)
 *   EV_GET    dump: every EV of one destination, or of all of them
 *   EV_SET    do (CAP_NET_ADMIN): deny or allow EVs of a destination
 *   EV_NTF    to the "events" group: an EV changed state
 *   DENY_GET  dump: the namespace's deny rules
 *
 * The attributes and counters of the transport are in the "fabric"
 * family (module "mrt"), which fabric.ko keeps for every module; object
 * state is the transport's own, so mrt.ko owns this family and it lives
 * as long as the module.  Reads need no privilege, as the /proc files
 * do; EV_SET needs CAP_NET_ADMIN in the namespace's user namespace.  The
 * policies are strict (6.1 has no split ops: one policy per command).
 *
 * But a PDC's ids, PSNs and keys are what a packet forged into it needs,
 * so, as /proc/net/mrt/pdcs does, PDC_GET gives them only to a requester
 * with CAP_NET_ADMIN in the namespace's user namespace
 * (netlink_ns_capable(): the socket's opener and the sender both): a
 * dump asks once, at its start (the later parts run in whoever reads the
 * socket), and leaves the attributes out for anyone else.  A do is
 * refused to anyone else, with EPERM before the lookup: an answer by id,
 * even ENOENT, would tell which ids exist.  The flag of the op cannot say
 * this (it covers the dump too), so the handlers do.
 *
 * Denies are rules of the namespace (address, port range), kept apart
 * from the destinations: a destination lives only while it has PDCs or
 * sockets that report it, and a rule holds for every destination made at
 * its address later too.  The rules of one address are kept disjoint and
 * merged, so that an allow splits at most one.  Rules and the walk that
 * applies them are under mrt_net.lock, which a new destination takes to
 * read them and to be published, so none is missed.
 *
 * A dump walks under RCU and takes each object's lock (the socket's for a
 * PDC, then its destination's; a destination's own) only to copy it out,
 * so a dump never holds up the data path for more than one object.  It
 * resumes by PDC id, or by destination hash bucket and place, so a dump
 * that spans changes may miss or repeat an object created or freed
 * meanwhile, as /proc does.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <uapi/linux/mrt_nl.h>

#include "mrt.h"

static struct genl_family mrt_genl_family;

enum mrt_mcgrp {
	MRT_MCGRP_EVENTS,
};

/* Joining needs CAP_NET_ADMIN: every member costs the data path an
 * allocation per EV state change.
 */
/* 6.1.68 to 6.1.175 named the flag GENL_UNS_ADMIN_PERM; before 6.1.68 a
 * group has no flags (not supported)
 */
#ifndef GENL_MCAST_CAP_NET_ADMIN
#define GENL_MCAST_CAP_NET_ADMIN GENL_UNS_ADMIN_PERM
#endif
static const struct genl_multicast_group mrt_mcgrps[] = {
	[MRT_MCGRP_EVENTS] = { .name = MRT_GENL_MCGRP_EVENTS,
			       .flags = GENL_MCAST_CAP_NET_ADMIN },
};

static const struct nla_policy mrt_nl_dest_policy[MRT_NL_DEST_A_MAX + 1] = {
	[MRT_NL_DEST_A_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
};

static const struct nla_policy mrt_nl_pdc_policy[MRT_NL_PDC_A_MAX + 1] = {
	[MRT_NL_PDC_A_LID] = NLA_POLICY_MIN(NLA_U16, 1),
};

/* EV_GET's filter: a destination */
static const struct nla_policy mrt_nl_ev_get_nest[MRT_NL_EV_A_MAX + 1] = {
	[MRT_NL_EV_A_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
};

static const struct nla_policy mrt_nl_ev_set_nest[MRT_NL_EV_A_MAX + 1] = {
	[MRT_NL_EV_A_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRT_NL_EV_A_PORT] = { .type = NLA_U16 },
	[MRT_NL_EV_A_PORT_LAST] = { .type = NLA_U16 },
	[MRT_NL_EV_A_STATE] = NLA_POLICY_MAX(NLA_U8, MRT_NL_EV_STATE_DENIED),
};

static const struct nla_policy mrt_nl_ev_get_policy[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_EV] = NLA_POLICY_NESTED(mrt_nl_ev_get_nest),
};

static const struct nla_policy mrt_nl_ev_set_policy[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_EV] = NLA_POLICY_NESTED(mrt_nl_ev_set_nest),
};

/* DENY_GET takes nothing */
static const struct nla_policy mrt_nl_deny_get_policy[MRT_NL_A_MAX + 1] = {
};

static const struct nla_policy mrt_nl_dest_get_policy[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_DEST] = NLA_POLICY_NESTED(mrt_nl_dest_policy),
};

static const struct nla_policy mrt_nl_pdc_get_policy[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_PDC] = NLA_POLICY_NESTED(mrt_nl_pdc_policy),
};

/* The message header and the netns; NULL if the skb is full. */
static void *mrt_nl_head(struct sk_buff *skb, const struct mrt_net *mn,
			 u8 cmd, u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mrt_genl_family, flags, cmd);
	if (!hdr)
		return NULL;
	if (nla_put_u32(skb, MRT_NL_A_NETNS_INUM, mn->net->ns.inum)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

static int mrt_nl_put_addr(struct sk_buff *skb, int type,
			   const struct mrt_addr *a)
{
	return nla_put_in6_addr(skb, type, &a->a);
}

static int mrt_nl_put_u64(struct sk_buff *skb, int type, u64 v, int pad)
{
	return nla_put_u64_64bit(skb, type, v, pad);
}

#define DEST_U64(type, v) \
	mrt_nl_put_u64(skb, MRT_NL_DEST_A_##type, (v), MRT_NL_DEST_A_PAD)

/* A destination's message; takes its lock. */
static int mrt_nl_fill_dest(struct sk_buff *skb, struct mrt_dest *d,
			    u32 portid, u32 seq, int flags)
{
	struct list_head *w;
	struct nlattr *nest;
	u32 waiting = 0;
	void *hdr;
	int err;

	BUILD_BUG_ON(MRT_EV_COUNT_MAX > U16_MAX);

	hdr = mrt_nl_head(skb, d->mn, MRT_NL_CMD_DEST_GET, portid, seq, flags);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRT_NL_A_DEST);
	if (!nest)
		goto cancel;
	spin_lock_bh(&d->lock);
	list_for_each(w, &d->waiters)
		waiting++;
	err = mrt_nl_put_addr(skb, MRT_NL_DEST_A_ADDR, &d->addr) ||
	      nla_put_u32(skb, MRT_NL_DEST_A_REFS, refcount_read(&d->ref)) ||
	      DEST_U64(CWND_BYTES, d->cc.cwnd) ||
	      DEST_U64(MAX_CWND_BYTES, d->cc.max_wnd) ||
	      DEST_U64(INFLIGHT_BYTES, max_t(s64, d->cc.inflight, 0)) ||
	      DEST_U64(BASE_RTT_NS, d->cc.base_rtt) ||
	      DEST_U64(AVG_DELAY_NS, nscc_avg_delay(&d->cc)) ||
	      nla_put_u32(skb, MRT_NL_DEST_A_SRTT_US, d->srtt_us) ||
	      nla_put_u32(skb, MRT_NL_DEST_A_RCV_CWND_PEN, d->pen) ||
	      DEST_U64(QA_COUNT, d->cc.st.qa_count) ||
	      DEST_U64(FI_COUNT, d->cc.st.fi_count) ||
	      nla_put_u32(skb, MRT_NL_DEST_A_WAITING, waiting) ||
	      nla_put_u16(skb, MRT_NL_DEST_A_EV_COUNT, d->evs.p.count) ||
	      nla_put_u16(skb, MRT_NL_DEST_A_EV_USABLE, d->evs.usable) ||
	      nla_put_u16(skb, MRT_NL_DEST_A_EV_BASE, d->evs.p.base) ||
	      nla_put_u8(skb, MRT_NL_DEST_A_OWN_EVS, d->own_evs);
	spin_unlock_bh(&d->lock);
	if (err)
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

#undef DEST_U64

#define PDC_U64(type, v) \
	mrt_nl_put_u64(skb, MRT_NL_PDC_A_##type, (v), MRT_NL_PDC_A_PAD)

/* What only a sending PDC has, the PSNs if admin; under its socket's lock. */
static int mrt_nl_put_tx(struct sk_buff *skb, struct mrt_pdc *pdc, bool admin)
{
	struct mrt_dest *d = pdc->dest;
	u64 cwnd, inflight;

	spin_lock(&d->lock);
	cwnd = d->cc.cwnd;
	inflight = max_t(s64, d->cc.inflight, 0);
	spin_unlock(&d->lock);
	return (admin &&
		(nla_put_u32(skb, MRT_NL_PDC_A_UNA_PSN, pdc->snd.tx.una) ||
		 nla_put_u32(skb, MRT_NL_PDC_A_NXT_PSN, pdc->snd.tx.nxt))) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_RTX_QUEUED, pdc->snd.rtxq_len) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_MSGS_QUEUED, pdc->ntmsgs) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_SRTT_US, pdc->snd.rto.srtt8 / 8) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_RTTVAR_US, pdc->snd.rto.rttvar4 / 4) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_RTO_US, mrt_rto_now_us(pdc)) ||
	       PDC_U64(CWND_BYTES, cwnd) ||
	       PDC_U64(INFLIGHT_BYTES, inflight) ||
	       PDC_U64(RTX_SACK, pdc->st.rtx_sack) ||
	       PDC_U64(RTX_TRIM, pdc->st.rtx_trim) ||
	       PDC_U64(RTX_RTO, pdc->st.rtx_rto) ||
	       PDC_U64(RTO_EVENTS, pdc->st.rto_events);
}

/* What only a receiving PDC has, the PSN if admin; under its socket's
 * lock.
 */
static int mrt_nl_put_rx(struct sk_buff *skb, const struct mrt_pdc *pdc,
			 bool admin)
{
	return (admin &&
		nla_put_u32(skb, MRT_NL_PDC_A_CACK_PSN, pdc->rx.cack)) ||
	       PDC_U64(RCVD_BYTES, pdc->rx.rcvd_bytes) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_OOO_PKTS, pdc->rx.ooo) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_RCV_CWND_PEN, pdc->last_pen);
}

/* The ids and keys of a PDC, for admins; under its socket's lock. */
static int mrt_nl_put_ids(struct sk_buff *skb, const struct mrt_pdc *pdc)
{
	return nla_put_u16(skb, MRT_NL_PDC_A_LID, pdc->lid) ||
	       nla_put_u16(skb, MRT_NL_PDC_A_RID, pdc->rid) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_KEY, pdc->key) ||
	       nla_put_u32(skb, MRT_NL_PDC_A_RKEY, pdc->rkey);
}

/* A PDC's message, under RCU: takes its socket's lock; -ENOENT (and no
 * message) if it is going.  Its ids, PSNs and keys only if admin (the
 * requester has CAP_NET_ADMIN over the namespace).
 */
static int mrt_nl_fill_pdc(struct sk_buff *skb, struct mrt_pdc *pdc,
			   u32 portid, u32 seq, int flags, bool admin)
{
	struct mrt_sock *ms = pdc->ms;
	struct nlattr *nest;
	u64 idle;
	void *hdr;
	int err;

	/* the uapi values are the internal ones */
	BUILD_BUG_ON((int)MRT_NL_PDC_ROLE_TX != (int)MRT_PDC_TX ||
		     (int)MRT_NL_PDC_ROLE_RX != (int)MRT_PDC_RX);
	BUILD_BUG_ON((int)MRT_NL_PDC_STATE_SYN != (int)MRT_PDC_SYN ||
		     (int)MRT_NL_PDC_STATE_OPEN != (int)MRT_PDC_OPEN ||
		     (int)MRT_NL_PDC_STATE_CLOSED != (int)MRT_PDC_CLOSED ||
		     (int)MRT_NL_PDC_STATE_LINGER != (int)MRT_PDC_LINGER);

	hdr = mrt_nl_head(skb, pdc->mn, MRT_NL_CMD_PDC_GET, portid, seq, flags);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRT_NL_A_PDC);
	if (!nest) {
		err = -EMSGSIZE;
		goto cancel;
	}
	spin_lock_bh(&ms->lock);
	if (!pdc->linked || pdc->dead) {
		spin_unlock_bh(&ms->lock);
		err = -ENOENT;
		goto cancel;
	}
	idle = div_u64(ktime_get_ns() - pdc->last_ns, NSEC_PER_MSEC);
	err = (admin && mrt_nl_put_ids(skb, pdc)) ||
	      nla_put_u8(skb, MRT_NL_PDC_A_ROLE, pdc->role) ||
	      nla_put_u8(skb, MRT_NL_PDC_A_STATE, pdc->state) ||
	      nla_put_u8(skb, MRT_NL_PDC_A_FAMILY, pdc->family) ||
	      mrt_nl_put_addr(skb, MRT_NL_PDC_A_LOCAL_ADDR, &pdc->local) ||
	      nla_put_u16(skb, MRT_NL_PDC_A_LOCAL_EP, ms->ep) ||
	      mrt_nl_put_addr(skb, MRT_NL_PDC_A_PEER_ADDR, &pdc->peer) ||
	      nla_put_u16(skb, MRT_NL_PDC_A_PEER_EP, pdc->peer_ep) ||
	      nla_put_u16(skb, MRT_NL_PDC_A_EV, pdc->ev) ||
	      nla_put_u32(skb, MRT_NL_PDC_A_RANGE, pdc->range) ||
	      nla_put_u32(skb, MRT_NL_PDC_A_IDLE_MS, min_t(u64, idle, U32_MAX)) ||
	      PDC_U64(PKTS, pdc->st.pkts) ||
	      PDC_U64(MSGS, pdc->st.msgs) ||
	      PDC_U64(TRIMS, pdc->st.trims) ||
	      PDC_U64(ECN, pdc->st.ecn) ||
	      (pdc->role == MRT_PDC_TX ? mrt_nl_put_tx(skb, pdc, admin) :
					  mrt_nl_put_rx(skb, pdc, admin));
	spin_unlock_bh(&ms->lock);
	if (err) {
		err = -EMSGSIZE;
		goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return err;
}

#undef PDC_U64

/* The destination at address a, under RCU. */
static struct mrt_dest *mrt_nl_dest_find(struct mrt_net *mn,
					 const struct mrt_addr *a)
{
	struct mrt_dest *d;

	hlist_for_each_entry_rcu(d, &mn->dests[mrt_dest_hash(a)], node)
		if (mrt_addr_eq(&d->addr, a))
			return d;
	return NULL;
}

/* A do's request: the nest top, parsed into tb, with attribute key in
 * it; 0, or an error and the extack says which is missing (none, nokey:
 * static messages).
 */
static int mrt_nl_do_parse(struct genl_info *info, int top, int max,
			   const struct nla_policy *policy, int key,
			   struct nlattr **tb, const char *none,
			   const char *nokey)
{
	int err;

	if (GENL_REQ_ATTR_CHECK(info, top)) {
		info->extack->_msg = none;
		return -EINVAL;
	}
	err = nla_parse_nested(tb, max, info->attrs[top], policy, info->extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[top], tb, key)) {
		info->extack->_msg = nokey;
		return -EINVAL;
	}
	return 0;
}

/* A do's answer: msg filled (err 0), or no such object (-ENOENT, the
 * extack naming attribute bad with the static message why).
 */
static int mrt_nl_do_reply(struct genl_info *info, struct sk_buff *msg,
			   int err, const struct nlattr *bad, const char *why)
{
	if (!err)
		return genlmsg_reply(msg, info);
	if (err == -ENOENT) {
		info->extack->_msg = why;
		NL_SET_BAD_ATTR(info->extack, bad);
	}
	nlmsg_free(msg);
	return err;
}

static int mrt_nl_dest_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrt_net *mn = mrt_net(genl_info_net(info));
	struct nlattr *tb[MRT_NL_DEST_A_MAX + 1];
	struct mrt_dest *d;
	struct mrt_addr a;
	struct sk_buff *msg;
	int err;

	err = mrt_nl_do_parse(info, MRT_NL_A_DEST, MRT_NL_DEST_A_MAX,
			      mrt_nl_dest_policy, MRT_NL_DEST_A_ADDR, tb,
			      "no destination given (MRT_NL_A_DEST with its address)",
			      "no destination address given (MRT_NL_DEST_A_ADDR)");
	if (err)
		return err;
	a.a = nla_get_in6_addr(tb[MRT_NL_DEST_A_ADDR]);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	d = mrt_nl_dest_find(mn, &a);
	err = d ? mrt_nl_fill_dest(msg, d, info->snd_portid, info->snd_seq, 0) :
		  -ENOENT;
	rcu_read_unlock();
	return mrt_nl_do_reply(info, msg, err, tb[MRT_NL_DEST_A_ADDR],
			       "no destination with that address (none sent to it, or qp_groups_enabled is 0)");
}

/* Resumes at bucket cb->args[0], place cb->args[1] in it. */
static int mrt_nl_dest_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mrt_net *mn = mrt_net(sock_net(skb->sk));
	unsigned long b, i;
	struct mrt_dest *d;
	int err = 0;

	if (genl_dumpit_info(cb)->attrs[MRT_NL_A_DEST]) {
		NL_SET_ERR_MSG(cb->extack,
			       "a dump takes no filter (a do gets one destination)");
		return -EINVAL;
	}
	rcu_read_lock();
	for (b = cb->args[0]; b < ARRAY_SIZE(mn->dests); b++, cb->args[1] = 0) {
		i = 0;
		hlist_for_each_entry_rcu(d, &mn->dests[b], node) {
			if (i++ < cb->args[1])
				continue;
			err = mrt_nl_fill_dest(skb, d, NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (err) {
				cb->args[1] = i - 1;
				goto out;
			}
		}
	}
out:
	cb->args[0] = b;
	rcu_read_unlock();
	/* A full skb: the dump continues; one that holds nothing: too big. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int mrt_nl_pdc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrt_net *mn = mrt_net(genl_info_net(info));
	struct nlattr *tb[MRT_NL_PDC_A_MAX + 1];
	struct mrt_pdc *pdc;
	struct sk_buff *msg;
	int err;

	/* before the lookup: even ENOENT would tell which ids exist */
	if (!netlink_ns_capable(skb, mn->net->user_ns, CAP_NET_ADMIN)) {
		GENL_SET_ERR_MSG(info,
				 "a PDC by id needs CAP_NET_ADMIN (ids and PSNs are an administrator's); a dump lists every PDC without them");
		return -EPERM;
	}
	err = mrt_nl_do_parse(info, MRT_NL_A_PDC, MRT_NL_PDC_A_MAX,
			      mrt_nl_pdc_policy, MRT_NL_PDC_A_LID, tb,
			      "no PDC given (MRT_NL_A_PDC with its local id)",
			      "no PDC id given (MRT_NL_PDC_A_LID)");
	if (err)
		return err;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	pdc = xa_load(&mn->pdcs, nla_get_u16(tb[MRT_NL_PDC_A_LID]));
	/* admin: the check above */
	err = pdc ? mrt_nl_fill_pdc(msg, pdc, info->snd_portid, info->snd_seq,
				    0, true) :
		    -ENOENT;
	rcu_read_unlock();
	return mrt_nl_do_reply(info, msg, err, tb[MRT_NL_PDC_A_LID],
			       "no PDC with that id");
}

/* The PDC dump's cb->args: where it resumes, and what it may show. */
enum {
	MRT_NL_PDC_DUMP_ID,		/* the next PDC id */
	MRT_NL_PDC_DUMP_ADMIN,		/* 1: ids, PSNs and keys too */
};

/* Once per dump, in the requester's sendmsg(): may it see ids and PSNs?
 * The later parts of the dump run in whoever reads the socket.
 */
static int mrt_nl_pdc_get_start(struct netlink_callback *cb)
{
	struct net *net = sock_net(cb->skb->sk);

	cb->args[MRT_NL_PDC_DUMP_ADMIN] =
		netlink_ns_capable(cb->skb, net->user_ns, CAP_NET_ADMIN);
	return 0;
}

/* Resumes at PDC id cb->args[MRT_NL_PDC_DUMP_ID]. */
static int mrt_nl_pdc_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mrt_net *mn = mrt_net(sock_net(skb->sk));
	unsigned long id = cb->args[MRT_NL_PDC_DUMP_ID];
	bool admin = cb->args[MRT_NL_PDC_DUMP_ADMIN];
	struct mrt_pdc *pdc;
	int err = 0;

	if (genl_dumpit_info(cb)->attrs[MRT_NL_A_PDC]) {
		NL_SET_ERR_MSG(cb->extack,
			       "a dump takes no filter (a do gets one PDC)");
		return -EINVAL;
	}
	rcu_read_lock();
	xa_for_each_start(&mn->pdcs, id, pdc, cb->args[MRT_NL_PDC_DUMP_ID]) {
		err = mrt_nl_fill_pdc(skb, pdc, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI, admin);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			break;
	}
	/* id: the PDC that did not fit, or one past the last */
	cb->args[MRT_NL_PDC_DUMP_ID] = err ? id : ULONG_MAX;
	rcu_read_unlock();
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* EVs */

#define EV_U64(type, v) \
	mrt_nl_put_u64(skb, MRT_NL_EV_A_##type, (v), MRT_NL_EV_A_PAD)

/* EV i of d's message: ev and usable, its state and d's usable count,
 * stable while the caller holds d->lock or has copied them under it.
 */
static int mrt_nl_fill_ev(struct sk_buff *skb, struct mrt_dest *d,
			  unsigned int i, const struct mrt_ev *ev, u16 usable,
			  u8 cmd, u32 portid, u32 seq, int flags, u8 from,
			  u8 why)
{
	u64 now = ktime_get_ns(), wait = 0;
	struct nlattr *nest;
	void *hdr;

	/* the uapi values are the internal ones */
	BUILD_BUG_ON((int)MRT_NL_EV_STATE_GOOD != (int)MRT_EV_GOOD ||
		     (int)MRT_NL_EV_STATE_SKIP != (int)MRT_EV_SKIP ||
		     (int)MRT_NL_EV_STATE_ASSUMED_BAD != (int)MRT_EV_ASSUMED_BAD ||
		     (int)MRT_NL_EV_STATE_DENIED != (int)MRT_EV_DENIED);
	BUILD_BUG_ON((int)MRT_NL_EV_WHY_ECN != (int)MRT_EV_WHY_ECN ||
		     (int)MRT_NL_EV_WHY_TRIM != (int)MRT_EV_WHY_TRIM ||
		     (int)MRT_NL_EV_WHY_CREDIT != (int)MRT_EV_WHY_CREDIT ||
		     (int)MRT_NL_EV_WHY_LOSSES != (int)MRT_EV_WHY_LOSSES ||
		     (int)MRT_NL_EV_WHY_RTO != (int)MRT_EV_WHY_RTO ||
		     (int)MRT_NL_EV_WHY_PROBE != (int)MRT_EV_WHY_PROBE ||
		     (int)MRT_NL_EV_WHY_DENY != (int)MRT_EV_WHY_DENY ||
		     (int)MRT_NL_EV_WHY_ALLOW != (int)MRT_EV_WHY_ALLOW);

	if (ev->state == MRT_EV_ASSUMED_BAD && ev->probe_at > now)
		wait = div_u64(ev->probe_at - now, NSEC_PER_USEC);

	hdr = mrt_nl_head(skb, d->mn, cmd, portid, seq, flags);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, MRT_NL_A_EV);
	if (!nest ||
	    mrt_nl_put_addr(skb, MRT_NL_EV_A_ADDR, &d->addr) ||
	    nla_put_u16(skb, MRT_NL_EV_A_PORT, mrt_ev_port(&d->evs, i)) ||
	    nla_put_u8(skb, MRT_NL_EV_A_STATE, ev->state) ||
	    nla_put_u16(skb, MRT_NL_EV_A_USABLE, usable) ||
	    nla_put_u16(skb, MRT_NL_EV_A_COUNT, d->evs.p.count))
		goto cancel;
	if (cmd == MRT_NL_CMD_EV_NTF) {
		if (nla_put_u8(skb, MRT_NL_EV_A_OLD_STATE, from) ||
		    nla_put_u8(skb, MRT_NL_EV_A_WHY, why))
			goto cancel;
	} else if (nla_put_u16(skb, MRT_NL_EV_A_CREDIT, ev->credit) ||
		   nla_put_u8(skb, MRT_NL_EV_A_LOSS_RUN, ev->losses) ||
		   nla_put_u32(skb, MRT_NL_EV_A_PROBE_IN_US,
			       min_t(u64, wait, U32_MAX)) ||
		   EV_U64(PKTS, ev->st.pkts) ||
		   EV_U64(ECN, ev->st.ecn) ||
		   EV_U64(TRIMS, ev->st.trims) ||
		   EV_U64(NACKS, ev->st.nacks) ||
		   EV_U64(LOSSES, ev->st.losses) ||
		   EV_U64(RTOS, ev->st.rtos) ||
		   EV_U64(PROBES, ev->st.probes) ||
		   EV_U64(CHANGES, ev->st.changes)) {
		goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

#undef EV_U64

/* EV_NTFs one EV_SET holds until it lets go of its locks, at most. */
#define MRT_NTF_DEFER_MAX	4096

/* An EV_NTF's size: the header, the netns and the nest of seven. */
static size_t mrt_nl_ev_ntf_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* NETNS_INUM */
	       nla_total_size(0) +			/* EV */
	       nla_total_size(sizeof(struct in6_addr)) +	/* ADDR */
	       3 * nla_total_size(sizeof(u16)) +	/* PORT, USABLE, COUNT */
	       3 * nla_total_size(sizeof(u8));		/* STATE, OLD_STATE, WHY */
}

void mrt_nl_ev_notify(struct mrt_dest *d, unsigned int i, u8 from, u8 to,
		      u8 why)
{
	struct net *net = d->mn->net;
	struct sk_buff *skb;

	if (!genl_has_listeners(&mrt_genl_family, net, MRT_MCGRP_EVENTS))
		return;
	/* a bound on what one EV_SET holds: past it, events go (and the
	 * group hears ENOBUFS after the flush)
	 */
	if (d->ntf_defer && skb_queue_len(d->ntf_defer) >= MRT_NTF_DEFER_MAX) {
		d->ntf_lost = true;
		return;
	}
	/* softirq or bh off, under d->lock */
	skb = genlmsg_new(mrt_nl_ev_ntf_size(), GFP_ATOMIC);
	if (skb && mrt_nl_fill_ev(skb, d, i, &d->evs.ev[i], d->evs.usable,
				  MRT_NL_CMD_EV_NTF, 0, 0, 0, from, why)) {
		nlmsg_free(skb);
		skb = NULL;
	}
	if (!skb) {
		if (d->ntf_defer)
			d->ntf_lost = true;
		return;
	}
	if (d->ntf_defer) {
		__skb_queue_tail(d->ntf_defer, skb);
		return;
	}
	genlmsg_multicast_netns(&mrt_genl_family, net, skb, 0,
				MRT_MCGRP_EVENTS, GFP_ATOMIC);
}

/* An EV_SET's events, once no lock is held; lost: some did not fit. */
static void mrt_nl_ev_flush(struct net *net, struct sk_buff_head *q, bool lost)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q)))
		genlmsg_multicast_netns(&mrt_genl_family, net, skb, 0,
					MRT_MCGRP_EVENTS, GFP_KERNEL);
	if (lost)
		genl_set_err(&mrt_genl_family, net, 0, MRT_MCGRP_EVENTS,
			     -ENOBUFS);
}

/* The EV dump's filter: 1 and *a set, 0 for none, or an error. */
static int mrt_nl_ev_filter(struct netlink_callback *cb, struct mrt_addr *a)
{
	struct nlattr *tb[MRT_NL_EV_A_MAX + 1];
	const struct nlattr *top = genl_dumpit_info(cb)->attrs[MRT_NL_A_EV];
	int err;

	if (!top)
		return 0;
	err = nla_parse_nested(tb, MRT_NL_EV_A_MAX, top, mrt_nl_ev_get_nest,
			       cb->extack);
	if (err)
		return err;
	if (!tb[MRT_NL_EV_A_ADDR]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, top,
				    "a filter names a destination (MRT_NL_EV_A_ADDR)");
		return -EINVAL;
	}
	a->a = nla_get_in6_addr(tb[MRT_NL_EV_A_ADDR]);
	return 1;
}

/* The EVs of d from index cb->args[2] on (from 0 if the dump stopped in
 * another: a destination made meanwhile moved the places in its list);
 * 0 when all are in.
 */
static int mrt_nl_dump_evs(struct sk_buff *skb, struct netlink_callback *cb,
			   struct mrt_dest *d)
{
	struct mrt_ev e;
	u16 usable;
	int err;

	if (cb->args[4] != (unsigned long)d)
		cb->args[2] = 0;
	cb->args[4] = (unsigned long)d;
	for (; cb->args[2] < d->evs.p.count; cb->args[2]++) {
		spin_lock_bh(&d->lock);
		e = d->evs.ev[cb->args[2]];
		usable = d->evs.usable;
		spin_unlock_bh(&d->lock);
		err = mrt_nl_fill_ev(skb, d, cb->args[2], &e, usable,
				     MRT_NL_CMD_EV_GET,
				     NETLINK_CB(cb->skb).portid,
				     cb->nlh->nlmsg_seq, NLM_F_MULTI, 0, 0);
		if (err)
			return err;
	}
	cb->args[2] = 0;
	cb->args[4] = 0;
	return 0;
}

/* The lists an EV dump walks: the hash buckets, then the destinations
 * not grouped (qp_groups_enabled 0).
 */
static struct hlist_head *mrt_nl_ev_list(struct mrt_net *mn, unsigned long b)
{
	return b < ARRAY_SIZE(mn->dests) ? &mn->dests[b] : &mn->solo;
}

/* Resumes at list cb->args[0], destination cb->args[1] in it, EV
 * cb->args[2] of it (cb->args[4]: which destination that was).  With a
 * filter only the address's bucket and the solo list are walked, and only
 * its destinations count; cb->args[3] is 1 once one was found.
 */
static int mrt_nl_ev_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct mrt_net *mn = mrt_net(sock_net(skb->sk));
	unsigned long b, i, n = ARRAY_SIZE(mn->dests) + 1, hb = 0;
	struct mrt_dest *d;
	struct mrt_addr a;
	int err = 0, filter;

	filter = mrt_nl_ev_filter(cb, &a);
	if (filter < 0)
		return filter;
	if (filter) {
		hb = mrt_dest_hash(&a);
		if (!cb->args[3] && cb->args[0] < hb)
			cb->args[0] = hb;
	}
	rcu_read_lock();
	for (b = cb->args[0]; b < n; b++, cb->args[1] = 0) {
		if (filter && b != hb && b != n - 1)
			continue;
		i = 0;
		hlist_for_each_entry_rcu(d, mrt_nl_ev_list(mn, b), node) {
			if (filter && !mrt_addr_eq(&d->addr, &a))
				continue;
			if (i++ < cb->args[1])
				continue;
			cb->args[3] = 1;
			err = mrt_nl_dump_evs(skb, cb, d);
			if (err) {
				cb->args[1] = i - 1;
				goto stop;
			}
		}
	}
stop:
	cb->args[0] = b;
	rcu_read_unlock();
	if (filter && !cb->args[3]) {
		NL_SET_ERR_MSG(cb->extack,
			       "no destination with that address (none sent to it)");
		return -ENOENT;
	}
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* Under mn->lock: the rules of a that overlap lo..hi, or touch it (adj). */
static bool mrt_deny_meets(const struct mrt_deny *r, const struct mrt_addr *a,
			   int lo, int hi, int adj)
{
	return mrt_addr_eq(&r->addr, a) && r->lo <= hi + adj && r->hi + adj >= lo;
}

void mrt_deny_apply(struct mrt_net *mn, struct mrt_dest *d)
{
	unsigned int base = d->evs.p.base, last = base + d->evs.p.count - 1;
	struct mrt_deny *r;
	unsigned int p;

	lockdep_assert_held(&mn->lock);
	list_for_each_entry(r, &mn->deny, node) {
		if (!mrt_deny_meets(r, &d->addr, base, last, 0))
			continue;
		for (p = max_t(unsigned int, r->lo, base);
		     p <= min_t(unsigned int, r->hi, last); p++)
			mrt_ev_deny(&d->evs, p - base);
	}
}

void mrt_deny_flush(struct mrt_net *mn)
{
	struct mrt_deny *r, *t;

	list_for_each_entry_safe(r, t, &mn->deny, node)
		kfree(r);
	INIT_LIST_HEAD(&mn->deny);
	mn->ndeny = 0;
}

/* Under mn->lock: a deny of lo..hi at a, merged with the rules it meets
 * or touches (n: a new rule, used unless one of them takes it).
 */
static int mrt_deny_add(struct mrt_net *mn, const struct mrt_addr *a,
			u16 lo, u16 hi, struct mrt_deny **n)
{
	struct mrt_deny *r, *t, *keep = NULL;
	int nlo = lo, nhi = hi;

	list_for_each_entry(r, &mn->deny, node)
		if (mrt_deny_meets(r, a, lo, hi, 1)) {
			nlo = min_t(int, nlo, r->lo);
			nhi = max_t(int, nhi, r->hi);
		}
	list_for_each_entry_safe(r, t, &mn->deny, node) {
		if (!mrt_deny_meets(r, a, nlo, nhi, 0))
			continue;
		if (!keep) {
			keep = r;
			continue;
		}
		list_del(&r->node);
		mn->ndeny--;
		kfree(r);
	}
	if (!keep) {
		if (mn->ndeny >= MRT_DENY_MAX)
			return -ENOSPC;
		keep = *n;
		*n = NULL;
		keep->addr = *a;
		list_add_tail(&keep->node, &mn->deny);
		mn->ndeny++;
	}
	keep->lo = nlo;
	keep->hi = nhi;
	return 0;
}

/* Under mn->lock: lo..hi at a lifted from the rules; at most one rule is
 * split (those of an address are disjoint), taking n.
 */
static int mrt_deny_lift(struct mrt_net *mn, const struct mrt_addr *a,
			 u16 lo, u16 hi, struct mrt_deny **n)
{
	struct mrt_deny *r, *t;

	list_for_each_entry_safe(r, t, &mn->deny, node) {
		if (!mrt_deny_meets(r, a, lo, hi, 0))
			continue;
		if (r->lo >= lo && r->hi <= hi) {
			list_del(&r->node);
			mn->ndeny--;
			kfree(r);
		} else if (r->lo < lo && r->hi > hi) {
			if (mn->ndeny >= MRT_DENY_MAX)
				return -ENOSPC;
			(*n)->addr = *a;
			(*n)->lo = hi + 1;
			(*n)->hi = r->hi;
			list_add_tail(&(*n)->node, &mn->deny);
			*n = NULL;
			mn->ndeny++;
			r->hi = lo - 1;
		} else if (r->lo < lo) {
			r->hi = lo - 1;
		} else {
			r->lo = hi + 1;
		}
	}
	return 0;
}

/* Under mn->lock: the EVs lo..hi of destinations at a, in list h; their
 * events go to q; true if some did not fit.
 */
static bool mrt_deny_walk(struct hlist_head *h, const struct mrt_addr *a,
			  u16 lo, u16 hi, bool deny, struct sk_buff_head *q)
{
	unsigned int base, p, last;
	struct mrt_dest *d;
	bool lost = false;

	hlist_for_each_entry(d, h, node) {
		if (!mrt_addr_eq(&d->addr, a))
			continue;
		base = d->evs.p.base;
		last = min_t(unsigned int, hi, base + d->evs.p.count - 1);
		spin_lock(&d->lock);
		d->ntf_defer = q;
		for (p = max_t(unsigned int, lo, base); p <= last; p++) {
			if (deny)
				mrt_ev_deny(&d->evs, p - base);
			else
				mrt_ev_allow(&d->evs, p - base);
		}
		d->ntf_defer = NULL;
		lost |= d->ntf_lost;
		d->ntf_lost = false;
		spin_unlock(&d->lock);
	}
	return lost;
}

/* After an allow: the destinations at a whose data waited may send. */
static void mrt_deny_kick(struct hlist_head *h, const struct mrt_addr *a)
{
	struct mrt_dest *d;

	rcu_read_lock();
	hlist_for_each_entry_rcu(d, h, node) {
		if (!mrt_addr_eq(&d->addr, a) || !refcount_inc_not_zero(&d->ref))
			continue;
		if (!list_empty_careful(&d->waiters))
			mrt_dest_kick(d, NULL);
		mrt_dest_put(d);
	}
	rcu_read_unlock();
}

static int mrt_nl_ev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrt_net *mn = mrt_net(genl_info_net(info));
	struct nlattr *tb[MRT_NL_EV_A_MAX + 1];
	struct nlattr *top = info->attrs[MRT_NL_A_EV];
	struct sk_buff_head q;
	struct mrt_deny *n;
	struct hlist_head *h;
	bool deny, lost = false;
	struct mrt_addr a;
	u16 lo, hi;
	int err;

	err = mrt_nl_do_parse(info, MRT_NL_A_EV, MRT_NL_EV_A_MAX,
			      mrt_nl_ev_set_nest, MRT_NL_EV_A_ADDR, tb,
			      "no EV given (MRT_NL_A_EV with an address, a port and a state)",
			      "no destination address given (MRT_NL_EV_A_ADDR)");
	if (err)
		return err;
	top = info->attrs[MRT_NL_A_EV];
	if (NL_REQ_ATTR_CHECK(info->extack, top, tb, MRT_NL_EV_A_PORT)) {
		GENL_SET_ERR_MSG(info, "no EV given (MRT_NL_EV_A_PORT)");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(info->extack, top, tb, MRT_NL_EV_A_STATE)) {
		GENL_SET_ERR_MSG(info,
				 "no state given (MRT_NL_EV_A_STATE: denied or good)");
		return -EINVAL;
	}
	a.a = nla_get_in6_addr(tb[MRT_NL_EV_A_ADDR]);
	lo = nla_get_u16(tb[MRT_NL_EV_A_PORT]);
	hi = tb[MRT_NL_EV_A_PORT_LAST] ?
	     nla_get_u16(tb[MRT_NL_EV_A_PORT_LAST]) : lo;
	if (hi < lo) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRT_NL_EV_A_PORT_LAST],
				    "the range's last port is below its first");
		return -EINVAL;
	}
	switch (nla_get_u8(tb[MRT_NL_EV_A_STATE])) {
	case MRT_NL_EV_STATE_DENIED:
		deny = true;
		break;
	case MRT_NL_EV_STATE_GOOD:
		deny = false;
		break;
	default:
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRT_NL_EV_A_STATE],
				    "only denied (deny) or good (allow) can be set; the other states are the transport's");
		return -EINVAL;
	}
	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	h = &mn->dests[mrt_dest_hash(&a)];
	__skb_queue_head_init(&q);
	mutex_lock(&mn->ev_set_lock);
	spin_lock_bh(&mn->lock);
	err = deny ? mrt_deny_add(mn, &a, lo, hi, &n) :
		     mrt_deny_lift(mn, &a, lo, hi, &n);
	if (!err) {
		lost = mrt_deny_walk(h, &a, lo, hi, deny, &q);
		lost |= mrt_deny_walk(&mn->solo, &a, lo, hi, deny, &q);
	}
	spin_unlock_bh(&mn->lock);
	kfree(n);
	mrt_nl_ev_flush(mn->net, &q, lost);
	mutex_unlock(&mn->ev_set_lock);
	if (err) {
		if (deny)
			GENL_SET_ERR_MSG(info,
					 "too many deny rules in this namespace (256); allow some first");
		else
			GENL_SET_ERR_MSG(info,
					 "this allow splits a rule, and the namespace has 256 already; allow a range that ends at one of the rule's ends");
		return err;
	}
	if (!deny) {
		mrt_deny_kick(h, &a);
		mrt_deny_kick(&mn->solo, &a);
	}
	return 0;
}

/* Resumes at rule cb->args[0] (rules are few: the list is walked). */
static int mrt_nl_deny_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mrt_net *mn = mrt_net(sock_net(skb->sk));
	unsigned long i = 0;
	struct nlattr *nest;
	struct mrt_deny *r;
	void *hdr;
	int err = 0;

	spin_lock_bh(&mn->lock);
	list_for_each_entry(r, &mn->deny, node) {
		if (i++ < cb->args[0])
			continue;
		err = -EMSGSIZE;
		hdr = mrt_nl_head(skb, mn, MRT_NL_CMD_DENY_GET,
				  NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (!hdr)
			break;
		nest = nla_nest_start(skb, MRT_NL_A_EV);
		if (!nest ||
		    mrt_nl_put_addr(skb, MRT_NL_EV_A_ADDR, &r->addr) ||
		    nla_put_u16(skb, MRT_NL_EV_A_PORT, r->lo) ||
		    nla_put_u16(skb, MRT_NL_EV_A_PORT_LAST, r->hi)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		nla_nest_end(skb, nest);
		genlmsg_end(skb, hdr);
		err = 0;
		cb->args[0] = i;
	}
	spin_unlock_bh(&mn->lock);
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops mrt_genl_ops[] = {
	{
		.cmd = MRT_NL_CMD_DEST_GET,
		.doit = mrt_nl_dest_get_doit,
		.dumpit = mrt_nl_dest_get_dumpit,
		.policy = mrt_nl_dest_get_policy,
		.maxattr = MRT_NL_A_MAX,
	},
	{
		.cmd = MRT_NL_CMD_PDC_GET,
		.doit = mrt_nl_pdc_get_doit,
		.start = mrt_nl_pdc_get_start,
		.dumpit = mrt_nl_pdc_get_dumpit,
		.policy = mrt_nl_pdc_get_policy,
		.maxattr = MRT_NL_A_MAX,
	},
	{
		.cmd = MRT_NL_CMD_EV_GET,
		.dumpit = mrt_nl_ev_get_dumpit,
		.policy = mrt_nl_ev_get_policy,
		.maxattr = MRT_NL_A_MAX,
	},
	{
		.cmd = MRT_NL_CMD_EV_SET,
		.doit = mrt_nl_ev_set_doit,
		.policy = mrt_nl_ev_set_policy,
		.maxattr = MRT_NL_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRT_NL_CMD_DENY_GET,
		.dumpit = mrt_nl_deny_get_dumpit,
		.policy = mrt_nl_deny_get_policy,
		.maxattr = MRT_NL_A_MAX,
	},
};

static struct genl_family mrt_genl_family = {
	.name = MRT_GENL_NAME,
	.version = MRT_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = mrt_genl_ops,
	.n_ops = ARRAY_SIZE(mrt_genl_ops),
	.mcgrps = mrt_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrt_mcgrps),
};

int __init mrt_genl_init(void)
{
	return genl_register_family(&mrt_genl_family);
}

void mrt_genl_exit(void)
{
	genl_unregister_family(&mrt_genl_family);
}

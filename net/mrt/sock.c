// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's socket API: socket(AF_INET or AF_INET6, SOCK_RDM, 253), reliable,
 * message-oriented and connectionless, as RDS and libfabric's FI_EP_RDM.
 * bind() takes an endpoint (sin_port), which travels in the mrt header;
 * sendmsg() sends one whole message to a peer {address, endpoint};
 * recvmsg() returns one whole message with MSG_EOR.  A message that cannot
 * be delivered is reported on the error queue with its cookie
 * (include/uapi/linux/mrt.h).
 */
#include <linux/errqueue.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/net.h>
#include <net/addrconf.h>
#include <net/inet_common.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/transp_v6.h>

#include "mrt.h"

#define MRT_EP_EPHEMERAL_MIN	49152

static u32 mrt_ep_hash(u16 ep)
{
	u32 k = ep;

	return mrt_hash(&k, sizeof(k)) >> (32 - MRT_EP_HASH_BITS);
}

struct mrt_sock *mrt_ep_lookup(struct mrt_net *mn, u8 family, u16 ep,
			       const struct mrt_addr *daddr)
{
	struct mrt_sock *ms;

	hlist_for_each_entry_rcu(ms, &mn->eps[mrt_ep_hash(ep)], ep_node)
		if (ms->ep == ep && ms->family == family &&
		    (!ms->bound_addr || mrt_addr_eq(&ms->addr, daddr)))
			return ms;
	return NULL;
}

static bool mrt_ep_busy(struct mrt_net *mn, u8 family, u16 ep)
{
	struct mrt_sock *ms;

	hlist_for_each_entry(ms, &mn->eps[mrt_ep_hash(ep)], ep_node)
		if (ms->ep == ep && ms->family == family)
			return true;
	return false;
}

/* Binds ms to ep, or to a free ephemeral endpoint if ep is 0. */
static int mrt_ep_bind(struct mrt_sock *ms, const struct mrt_addr *addr, u16 ep)
{
	struct mrt_net *mn = ms->mn;
	unsigned int i, span = 65536 - MRT_EP_EPHEMERAL_MIN;
	int err = 0;

	spin_lock_bh(&mn->lock);
	if (ms->ep) {
		err = -EINVAL;
		goto out;
	}
	if (!ep) {
		u16 start = get_random_u32_below(span);

		for (i = 0; i < span; i++) {
			ep = MRT_EP_EPHEMERAL_MIN + (start + i) % span;
			if (!mrt_ep_busy(mn, ms->family, ep))
				break;
		}
		if (i == span) {
			err = -EADDRINUSE;
			goto out;
		}
	} else if (mrt_ep_busy(mn, ms->family, ep)) {
		err = -EADDRINUSE;
		goto out;
	}
	ms->addr = *addr;
	ms->bound_addr = !mrt_addr_any(addr);
	WRITE_ONCE(ms->ep, ep);
	hlist_add_head_rcu(&ms->ep_node, &mn->eps[mrt_ep_hash(ep)]);
	ms->hashed = true;
out:
	spin_unlock_bh(&mn->lock);
	return err;
}

static void mrt_ep_unbind(struct mrt_sock *ms)
{
	struct mrt_net *mn = ms->mn;

	spin_lock_bh(&mn->lock);
	if (ms->hashed) {
		hlist_del_rcu(&ms->ep_node);
		ms->hashed = false;
	}
	spin_unlock_bh(&mn->lock);
}

/* A sockaddr of the socket's family into addr and ep. */
static int mrt_addr_from(struct sock *sk, const struct sockaddr *uaddr,
			 int len, struct mrt_addr *addr, u16 *ep)
{
	if (sk->sk_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)uaddr;

		if (len < (int)sizeof(*sin))
			return -EINVAL;
		if (sin->sin_family != AF_INET)
			return -EAFNOSUPPORT;
		mrt_addr_set_v4(addr, sin->sin_addr.s_addr);
		*ep = ntohs(sin->sin_port);
	} else {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)uaddr;

		if (len < SIN6_LEN_RFC2133)
			return -EINVAL;
		if (sin6->sin6_family != AF_INET6)
			return -EAFNOSUPPORT;
		/* An AF_INET6 socket speaks IPv6 only. */
		if (ipv6_addr_v4mapped(&sin6->sin6_addr))
			return -EAFNOSUPPORT;
		addr->a = sin6->sin6_addr;
		*ep = ntohs(sin6->sin6_port);
	}
	return 0;
}

static int mrt_addr_to(u8 family, const struct mrt_addr *addr, u16 ep,
		       struct sockaddr *uaddr)
{
	struct sockaddr_in6 *sin6;

	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)uaddr;

		memset(sin, 0, sizeof(*sin));
		sin->sin_family = AF_INET;
		sin->sin_port = htons(ep);
		sin->sin_addr.s_addr = mrt_addr_v4(addr);
		return sizeof(*sin);
	}
	sin6 = (struct sockaddr_in6 *)uaddr;
	memset(sin6, 0, sizeof(*sin6));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(ep);
	sin6->sin6_addr = addr->a;
	return sizeof(*sin6);
}

/* 0 if addr is a unicast peer; -EACCES for a broadcast address (as UDP
 * without SO_BROADCAST: mrt has no such option, it never broadcasts),
 * -EOPNOTSUPP for a multicast one (a PDC has one receiver).  The subnet's
 * broadcast address takes a lookup, so callers ask once per new PDC.
 */
int mrt_unicast_check(struct net *net, u8 family, const struct mrt_addr *addr)
{
	__be32 a4 = mrt_addr_v4(addr);

	if (family == AF_INET6)
		return ipv6_addr_is_multicast(&addr->a) ? -EOPNOTSUPP : 0;
	if (ipv4_is_multicast(a4))
		return -EOPNOTSUPP;
	if (ipv4_is_lbcast(a4) || inet_addr_type(net, a4) == RTN_BROADCAST)
		return -EACCES;
	return 0;
}

static void mrt_addr_any_of(u8 family, struct mrt_addr *addr)
{
	if (family == AF_INET)
		mrt_addr_set_v4(addr, 0);
	else
		addr->a = in6addr_any;
}

static int mrt_bind(struct socket *sock, struct sockaddr *uaddr, int len)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	struct net *net = sock_net(sk);
	struct mrt_addr addr;
	u16 ep;
	int err;

	err = mrt_addr_from(sk, uaddr, len, &addr, &ep);
	if (err)
		return err;
	if (!mrt_addr_any(&addr)) {
		if (sk->sk_family == AF_INET) {
			if (inet_addr_type(net, mrt_addr_v4(&addr)) != RTN_LOCAL)
				return -EADDRNOTAVAIL;
		} else if (!ipv6_chk_addr(net, &addr.a, NULL, 0)) {
			return -EADDRNOTAVAIL;
		}
	}
	return mrt_ep_bind(ms, &addr, ep);
}

static int mrt_autobind(struct mrt_sock *ms)
{
	struct mrt_addr any;
	int err;

	if (READ_ONCE(ms->ep))
		return 0;
	mrt_addr_any_of(ms->family, &any);
	err = mrt_ep_bind(ms, &any, 0);
	return err == -EINVAL ? 0 : err;	/* bound meanwhile */
}

static int mrt_connect(struct socket *sock, struct sockaddr *uaddr, int len,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	struct mrt_addr addr;
	u16 ep;
	int err;

	if (len >= (int)sizeof(uaddr->sa_family) &&
	    uaddr->sa_family == AF_UNSPEC) {
		spin_lock_bh(&ms->lock);
		ms->connected = false;
		spin_unlock_bh(&ms->lock);
		return 0;
	}
	err = mrt_addr_from(sk, uaddr, len, &addr, &ep);
	if (err)
		return err;
	if (!ep || mrt_addr_any(&addr))
		return -EINVAL;
	err = mrt_unicast_check(sock_net(sk), ms->family, &addr);
	if (err)
		return err;
	err = mrt_autobind(ms);
	if (err)
		return err;
	spin_lock_bh(&ms->lock);
	ms->peer = addr;
	ms->peer_ep = ep;
	ms->connected = true;
	spin_unlock_bh(&ms->lock);
	return 0;
}

static int mrt_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	struct mrt_addr addr;
	u16 ep;

	spin_lock_bh(&ms->lock);
	if (peer) {
		if (!ms->connected) {
			spin_unlock_bh(&ms->lock);
			return -ENOTCONN;
		}
		addr = ms->peer;
		ep = ms->peer_ep;
	} else {
		addr = ms->addr;
		ep = ms->ep;
		if (!ep)
			mrt_addr_any_of(ms->family, &addr);
	}
	spin_unlock_bh(&ms->lock);
	return mrt_addr_to(ms->family, &addr, ep, uaddr);
}

static __poll_t mrt_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (!skb_queue_empty_lockless(&sk->sk_error_queue))
		mask |= EPOLLERR |
			(sock_flag(sk, SOCK_SELECT_ERR_QUEUE) ? EPOLLPRI : 0);
	if (READ_ONCE(ms->rxq_len))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (sock_writeable(sk))
		mask |= EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND;
	else
		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
	return mask;
}

/* Room for a message of need bytes of buffer: an empty send buffer takes
 * any message sendmsg() accepts.
 */
static bool mrt_snd_room(struct sock *sk, u64 need)
{
	int used = sk_wmem_alloc_get(sk);

	return !used || used + need <= (u64)READ_ONCE(sk->sk_sndbuf);
}

/* A payload's skb, which holds its bytes in fragments and needs a head
 * only for skb_shared_info: the head is carved (build_skb()) from the
 * same page fragment as the payload after it (the task's), not
 * kmalloc()ed, which would round it up to 512 bytes and zero them
 * (init_on_alloc): the head pins only pages its own payload does.
 */
static struct sk_buff *mrt_payload_skb(struct sock *sk, struct page_frag *pf)
{
	unsigned int size = SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;

	if (skb_page_frag_refill(size + SMP_CACHE_BYTES, pf, sk->sk_allocation)) {
		pf->offset = ALIGN(pf->offset, SMP_CACHE_BYTES);
		skb = build_skb(page_address(pf->page) + pf->offset, size);
		if (skb) {
			get_page(pf->page);
			pf->offset += size;
			return skb;
		}
	}
	return alloc_skb(0, sk->sk_allocation);
}

/* A payload of plen bytes from the user, copied once.  A short one (at
 * most MRT_TX_LINEAR_MAX bytes) is the skb's own data, copied again into
 * each transmission with its pad; a longer one goes into page fragments
 * (the task's page_frag, as TCP's) that every transmission and
 * retransmission references (pdc.c's mrt_data_build()), never copies.
 */
static struct sk_buff *mrt_payload_new(struct sock *sk, struct iov_iter *from,
				       unsigned int plen, int *err)
{
	struct sk_buff *skb;
	unsigned int left;

	if (plen <= MRT_TX_LINEAR_MAX) {
		skb = alloc_skb(plen, sk->sk_allocation);
		if (!skb) {
			*err = -ENOBUFS;
			return NULL;
		}
		if (!copy_from_iter_full(skb_put(skb, plen), plen, from)) {
			*err = -EFAULT;
			goto fail;
		}
		return skb;
	}
	skb = mrt_payload_skb(sk, sk_page_frag(sk));
	if (!skb) {
		*err = -ENOBUFS;
		return NULL;
	}
	for (left = plen; left; ) {
		struct page_frag *pf = sk_page_frag(sk);
		unsigned int i = skb_shinfo(skb)->nr_frags, n;

		*err = -ENOBUFS;
		/* (not sk_page_frag_refill(): it would shrink sk_sndbuf from
		 * a stream socket's sk_wmem_queued, which mrt does not keep)
		 */
		if (i == MAX_SKB_FRAGS || !skb_page_frag_refill(32U, pf, sk->sk_allocation))
			goto fail;
		n = min(left, pf->size - pf->offset);
		if (!copy_from_iter_full(page_address(pf->page) + pf->offset, n,
					 from)) {
			*err = -EFAULT;
			goto fail;
		}
		skb_fill_page_desc(skb, i, pf->page, pf->offset, n);
		get_page(pf->page);
		pf->offset += n;
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		left -= n;
	}
	return skb;
fail:
	kfree_skb(skb);
	return NULL;
}

static int mrt_cookie(struct msghdr *msg, u64 *cookie)
{
	struct cmsghdr *c;

	for_each_cmsghdr(c, msg) {
		if (!CMSG_OK(msg, c))
			return -EINVAL;
		if (c->cmsg_level != SOL_MRT)
			continue;
		if (c->cmsg_type != MRT_COOKIE ||
		    c->cmsg_len != CMSG_LEN(sizeof(u64)))
			return -EINVAL;
		memcpy(cookie, CMSG_DATA(c), sizeof(u64));
	}
	return 0;
}

/* What packets of a message cost the send buffer: their payload and, per
 * packet, an skb.
 */
static u64 mrt_snd_cost(u64 bytes, unsigned int pkts)
{
	return bytes + (u64)pkts * SKB_TRUESIZE(MRT_HEADROOM);
}

/* sendmmsg(): the packets a PDC holds for the call's next entries go now:
 * an entry that fails ends the call, and one that waits for room may be
 * waiting for theirs to leave and be acknowledged.
 */
static void mrt_batch_flush(struct mrt_sock *ms)
{
	struct sk_buff_head out;

	if (!READ_ONCE(ms->batch_pdc))
		return;
	__skb_queue_head_init(&out);
	rcu_read_lock();
	spin_lock_bh(&ms->lock);
	if (ms->batch_pdc)
		mrt_pdc_push(ms->batch_pdc, &out);
	WRITE_ONCE(ms->batch_pdc, NULL);
	spin_unlock_bh(&ms->lock);
	local_bh_disable();
	mrt_xmit_queue(ms->mn, &out);
	local_bh_enable();
	rcu_read_unlock();
}

/* Waits for room for want bytes in the send buffer (an empty one has room
 * for any): EAGAIN when it may not wait, SO_SNDTIMEO, signals.  For a
 * message being streamed (m), also until its PDC fails (m->unlinked,
 * which mrt_tmsg_free() wakes it for); a signal then is EINTR, never a
 * restart, since part of the message has gone.
 */
static int mrt_snd_wait(struct sock *sk, u64 want, long *timeo,
			const struct mrt_tmsg *m)
{
	while (!mrt_snd_room(sk, want) && !(m && READ_ONCE(m->unlinked))) {
		mrt_batch_flush(mrt_sk(sk));
		if (!*timeo)
			return -EAGAIN;
		if (signal_pending(current))
			return m ? -EINTR : sock_intr_errno(*timeo);
		*timeo = wait_event_interruptible_timeout(*sk_sleep(sk),
							  mrt_snd_room(sk, want) ||
							  (m && READ_ONCE(m->unlinked)),
							  *timeo);
		if (*timeo < 0)
			return m ? -EINTR : sock_intr_errno(*timeo);
	}
	return 0;
}

/* Under ms->lock: the sending PDC to peer, found or made (the lock is
 * dropped to make one); NULL with *err if there is none to be had.
 */
static struct mrt_pdc *mrt_snd_pdc(struct mrt_sock *ms, const struct mrt_addr *peer,
				   u16 ep, int *err)
{
	struct mrt_pdc *pdc, *fresh;

	pdc = ms->dead ? NULL : mrt_pdc_tx_find(ms, peer, ep);
	if (!pdc && !ms->dead) {
		spin_unlock_bh(&ms->lock);
		fresh = mrt_pdc_tx_new(ms, peer, ep, err);
		spin_lock_bh(&ms->lock);
		if (!fresh)
			return NULL;
		pdc = ms->dead ? NULL : mrt_pdc_tx_find(ms, peer, ep);
		if (pdc || ms->dead) {
			/* never linked, so no one else has it */
			mrt_pdc_close(fresh, 0, NULL);
		} else {
			mrt_pdc_tx_link(ms, fresh);
			pdc = fresh;
		}
	}
	if (!pdc)
		*err = -EPIPE;
	return pdc;
}

/* One message, queued in chunks that each fit the send buffer's free
 * room: all at once when it fits the buffer, else streamed, a chunk as
 * ACKs free room (a quarter of the buffer at a time).  A message still
 * being streamed is m->streaming: a failure of its PDC meanwhile leaves
 * it to this call (m->unlinked), which returns the error.
 */
static int mrt_sendmsg_one(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	struct mrt_net *mn = ms->mn;
	unsigned int mss = mrt_attr(mn, MRT_A_mss);
	unsigned int npkts, done, n, i;
	struct sk_buff_head q, out;
	struct mrt_pdc *pdc = NULL;
	struct mrt_tmsg *m = NULL;
	struct mrt_addr peer;
	struct sk_buff *skb;
	u64 cookie = 0, per, want, sndbuf, used;
	bool whole;
	long timeo;
	u16 ep;
	int err;

	if (msg->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR |
			       MSG_CMSG_COMPAT | MSG_BATCH))
		return -EOPNOTSUPP;
	if (msg->msg_name) {
		err = mrt_addr_from(sk, msg->msg_name, msg->msg_namelen, &peer, &ep);
		if (err)
			return err;
		if (!ep || mrt_addr_any(&peer))
			return -EINVAL;
	} else {
		spin_lock_bh(&ms->lock);
		peer = ms->peer;
		ep = ms->peer_ep;
		err = ms->connected ? 0 : -EDESTADDRREQ;
		spin_unlock_bh(&ms->lock);
		if (err)
			return err;
	}
	err = mrt_cookie(msg, &cookie);
	if (err)
		return err;
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	npkts = len ? DIV_ROUND_UP(len, mss) : 1;
	/* only a send that may wait can stream a message through a buffer
	 * it does not fit
	 */
	if (len > mrt_attr(mn, MRT_A_max_msg_bytes) ||
	    (!timeo && len > (size_t)READ_ONCE(sk->sk_sndbuf)))
		return -EMSGSIZE;
	err = mrt_autobind(ms);
	if (err)
		return err;

	m = kzalloc(sizeof(*m), sk->sk_allocation | __GFP_ACCOUNT);
	if (!m)
		return -ENOBUFS;
	m->cookie = cookie;
	m->len = len;
	m->pkts_left = npkts;
	per = mrt_snd_cost(mss, 1);
	__skb_queue_head_init(&q);
	for (done = 0; done < npkts; done += n) {
		/* all the rest if the buffer takes it (an empty one takes
		 * anything a send that may not wait sends), else a quarter
		 * of the buffer at a time
		 */
		sndbuf = READ_ONCE(sk->sk_sndbuf);
		want = mrt_snd_cost(len - (u64)done * mss, npkts - done);
		whole = !timeo || want <= sndbuf;
		if (!whole)
			want = max(sndbuf / 4, per);
		err = mrt_snd_wait(sk, want, &timeo, done ? m : NULL);
		if (err)
			goto fail;
		used = sk_wmem_alloc_get(sk);
		n = used < sndbuf ? div64_u64(sndbuf - used, per) : 0;
		n = whole ? npkts - done : clamp_t(unsigned int, n, 1, npkts - done);
		for (i = done; i < done + n; i++) {
			unsigned int off = i * mss, plen = min_t(size_t, mss, len - off);

			skb = mrt_payload_new(sk, &msg->msg_iter, plen, &err);
			if (!skb)
				goto fail;
			skb_set_owner_w(skb, sk);
			MRT_TX_CB(skb)->msg = m;
			MRT_TX_CB(skb)->off = off;
			MRT_TX_CB(skb)->flags = (i ? 0 : MRT_DATA_F_SOM) |
						(i == npkts - 1 ? MRT_DATA_F_EOM : 0);
			__skb_queue_tail(&q, skb);
		}

		/* The PDC is found or made and then used under one hold of
		 * the lock; the packets that name it are sent within RCU.
		 */
		__skb_queue_head_init(&out);
		spin_lock_bh(&ms->lock);
		if (!done) {
			pdc = mrt_snd_pdc(ms, &peer, ep, &err);
			if (pdc && pdc->ntmsgs >= MRT_MAX_TMSGS) {
				pdc = NULL;
				err = -ENOBUFS;
			}
			if (!pdc) {
				spin_unlock_bh(&ms->lock);
				goto fail;
			}
			m->msg_id = pdc->next_msg_id++;
			list_add_tail(&m->node, &pdc->tmsgs);
			pdc->ntmsgs++;
			ms->st.msgs_sent++;
			mrt_stat(mn, MRT_S_MSGS_OUT, 1);
		} else if (m->unlinked) {
			/* its PDC failed while it was being streamed */
			spin_unlock_bh(&ms->lock);
			err = -m->err;
			goto fail_free;
		}
		WRITE_ONCE(m->streaming, done + n < npkts);
		skb_queue_splice_tail_init(&q, &pdc->sendq);
		/* sendmmsg(): a message with more behind it (MSG_BATCH) waits
		 * for them, so that they leave in batches, until a batch is
		 * full or the next goes to another PDC
		 */
		if (ms->batch_pdc && ms->batch_pdc != pdc)
			mrt_pdc_push(ms->batch_pdc, &out);
		WRITE_ONCE(ms->batch_pdc, NULL);
		if ((msg->msg_flags & MSG_BATCH) && done + n == npkts &&
		    skb_queue_len(&pdc->sendq) <
		    mrt_attr(mn, MRT_A_tx_batch_max_pkts))
			mrt_pdc_batch_wait(pdc);
		else
			mrt_pdc_push(pdc, &out);
		ms->info_peer = pdc->peer;
		ms->info_ep = pdc->peer_ep;
		ms->info_set = true;
		/* The packets name the PDC: it lives until they are sent. */
		rcu_read_lock();
		spin_unlock_bh(&ms->lock);
		local_bh_disable();
		mrt_xmit_queue(mn, &out);
		local_bh_enable();
		rcu_read_unlock();
	}
	return len;

fail:
	__skb_queue_purge(&q);
	if (!done) {
		kfree(m);
		return err;
	}
	/* Part of it is out and the rest will never be (SO_SNDTIMEO, a
	 * signal, a fault or no memory while copying it): a message cannot
	 * be taken back, so its PDC fails (the others on it with
	 * ECONNABORTED), unless it has failed already.
	 */
	__skb_queue_head_init(&out);
	spin_lock_bh(&ms->lock);
	if (!m->unlinked)
		mrt_pdc_close(pdc, ECONNABORTED, &out);
	rcu_read_lock();
	spin_unlock_bh(&ms->lock);
	local_bh_disable();
	mrt_xmit_queue(mn, &out);
	local_bh_enable();
	rcu_read_unlock();
fail_free:
	__skb_queue_purge(&q);
	kfree(m);
	return err;
}

static int mrt_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	int err = mrt_sendmsg_one(sock, msg, len);

	if (err < 0)
		mrt_batch_flush(mrt_sk(sock->sk));
	return err;
}

void mrt_sock_deliver(struct mrt_sock *ms, struct mrt_rmsg *m)
{
	struct sock *sk = &ms->inet.sk;

	list_add_tail(&m->node, &ms->rxq);
	WRITE_ONCE(ms->rxq_len, ms->rxq_len + 1);
	ms->st.msgs_rcvd++;
	mrt_stat(ms->mn, MRT_S_MSGS_IN, 1);
	sk->sk_data_ready(sk);
}

static int mrt_recv_err(struct sock *sk, struct msghdr *msg, size_t len,
			int *addr_len)
{
	struct sock_exterr_skb *serr;
	struct mrt_errq_tail tail;
	struct sk_buff *skb;
	size_t copied;
	int err;

	skb = sock_dequeue_err_skb(sk);
	if (!skb)
		return -EAGAIN;
	copied = min_t(size_t, len, skb->len);
	if (copied < skb->len)
		msg->msg_flags |= MSG_TRUNC;
	err = skb_copy_datagram_msg(skb, 0, msg, copied);
	if (err)
		goto out;
	/* the peer lies just past the data, within the buffer */
	memcpy(&tail, skb_tail_pointer(skb), sizeof(tail));
	if (msg->msg_name)
		*addr_len = mrt_addr_to(tail.family, &tail.peer, tail.peer_ep,
					msg->msg_name);
	serr = SKB_EXT_ERR(skb);
	if (sk->sk_family == AF_INET)
		put_cmsg(msg, SOL_IP, IP_RECVERR, sizeof(serr->ee), &serr->ee);
	else
		put_cmsg(msg, SOL_IPV6, IPV6_RECVERR, sizeof(serr->ee), &serr->ee);
	msg->msg_flags |= MSG_ERRQUEUE;
	err = copied;
out:
	consume_skb(skb);
	return err;
}

static int mrt_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms = mrt_sk(sk);
	struct mrt_addr peer;
	struct mrt_rmsg *m;
	struct sk_buff *skb;
	size_t copied = 0;
	u16 peer_ep;
	u32 mlen;
	long timeo;
	int err = 0;
	u8 family;

	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC | MSG_ERRQUEUE |
		      MSG_WAITALL | MSG_CMSG_COMPAT))
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return mrt_recv_err(sk, msg, len, &msg->msg_namelen);

	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	lock_sock(sk);		/* one reader at a time: MSG_PEEK copies in place */
again:
	while (!READ_ONCE(ms->rxq_len)) {
		release_sock(sk);
		if (!timeo)
			return -EAGAIN;
		if (signal_pending(current))
			return sock_intr_errno(timeo);
		timeo = wait_event_interruptible_timeout(*sk_sleep(sk),
							 READ_ONCE(ms->rxq_len),
							 timeo);
		if (timeo < 0)
			return sock_intr_errno(timeo);
		lock_sock(sk);
	}
	spin_lock_bh(&ms->lock);
	m = list_first_entry(&ms->rxq, struct mrt_rmsg, node);
	spin_unlock_bh(&ms->lock);
	/* Its fragments in order, here rather than in the receive path; a
	 * message whose fragments do not make its bytes once each is no
	 * message (a peer's overlapping offsets), dropped and counted.
	 */
	if (!m->sorted) {
		m->sorted = true;
		if (!mrt_rmsg_whole(m)) {
			spin_lock_bh(&ms->lock);
			list_del(&m->node);
			WRITE_ONCE(ms->rxq_len, ms->rxq_len - 1);
			spin_unlock_bh(&ms->lock);
			mrt_stat(ms->mn, MRT_S_BAD_REASSEMBLY, 1);
			__skb_queue_purge(&m->frags);
			kfree(m);
			goto again;
		}
	}
	if (!(flags & MSG_PEEK)) {
		spin_lock_bh(&ms->lock);
		list_del(&m->node);
		WRITE_ONCE(ms->rxq_len, ms->rxq_len - 1);
		spin_unlock_bh(&ms->lock);
	}

	/* read while the socket is held: with MSG_PEEK, m stays queued */
	peer = m->peer;
	peer_ep = m->peer_ep;
	family = m->family;
	mlen = m->len;
	skb_queue_walk(&m->frags, skb) {
		size_t n = min_t(size_t, MRT_RX_CB(skb)->len, len - copied);

		if (!n)
			break;
		err = skb_copy_datagram_msg(skb, MRT_RX_CB(skb)->start, msg, n);
		if (err)
			break;
		copied += n;
	}
	if (err && !(flags & MSG_PEEK)) {
		/* nothing is lost: the message goes back first in line */
		spin_lock_bh(&ms->lock);
		list_add(&m->node, &ms->rxq);
		WRITE_ONCE(ms->rxq_len, ms->rxq_len + 1);
		spin_unlock_bh(&ms->lock);
		release_sock(sk);
		return err;
	}
	release_sock(sk);
	if (err)
		return err;
	if (msg->msg_name)
		msg->msg_namelen = mrt_addr_to(family, &peer, peer_ep,
					       msg->msg_name);
	msg->msg_flags |= MSG_EOR;
	if (copied < mlen)
		msg->msg_flags |= MSG_TRUNC;
	err = flags & MSG_TRUNC ? mlen : copied;
	if (!(flags & MSG_PEEK)) {
		__skb_queue_purge(&m->frags);
		kfree(m);
	}
	return err;
}

static int mrt_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	struct mrt_sock *ms = mrt_sk(sock->sk);
	struct mrt_evs evs;
	int val;

	if (level != SOL_MRT)
		return -ENOPROTOOPT;
	if (optname == MRT_EVS) {
		if (optlen < sizeof(evs))
			return -EINVAL;
		if (copy_from_sockptr(&evs, optval, sizeof(evs)))
			return -EFAULT;
		if (evs.count > MRT_EV_COUNT_MAX ||
		    (evs.count && (!evs.base ||
				   (u32)evs.base + evs.count - 1 > U16_MAX)))
			return -EINVAL;
		/* source ports below ip_unprivileged_port_start are a
		 * privileged bind's, as for any UDP socket
		 */
		if (evs.count &&
		    inet_port_requires_bind_service(sock_net(sock->sk), evs.base) &&
		    !ns_capable(sock_net(sock->sk)->user_ns, CAP_NET_BIND_SERVICE))
			return -EACCES;
		/* for the PDCs opened from now on */
		WRITE_ONCE(ms->evs, evs.count ? (u32)evs.base << 16 | evs.count : 0);
		return 0;
	}
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	switch (optname) {
	case MRT_ORDERED:
		/* before bind: a PDC's messages are ordered from its first */
		spin_lock_bh(&ms->lock);
		if (READ_ONCE(ms->ep)) {
			spin_unlock_bh(&ms->lock);
			return -EISCONN;
		}
		ms->ordered = !!val;
		spin_unlock_bh(&ms->lock);
		return 0;
	case MRT_CONFIRM:
		WRITE_ONCE(ms->confirm, !!val);
		return 0;
	}
	return -ENOPROTOOPT;
}

static void mrt_get_info(struct mrt_sock *ms, struct mrt_info *info)
{
	struct mrt_pdc *pdc;
	struct mrt_dest *d;

	memset(info, 0, sizeof(*info));
	info->mrti_size = sizeof(*info);
	spin_lock_bh(&ms->lock);
	list_for_each_entry(pdc, &ms->pdc_list, snode)
		info->mrti_pdcs++;
	info->mrti_msgs_sent = ms->st.msgs_sent;
	info->mrti_msgs_rcvd = ms->st.msgs_rcvd;
	info->mrti_msgs_failed = ms->st.msgs_failed;
	info->mrti_rtx_sack = ms->st.rtx_sack;
	info->mrti_rtx_trim = ms->st.rtx_trim;
	info->mrti_rtx_rto = ms->st.rtx_rto;
	info->mrti_rto_events = ms->st.rto_events;
	info->mrti_trims = ms->st.trims;
	info->mrti_rcvbuf_drops = ms->st.rcvbuf_drops;
	info->mrti_rmem_bytes = atomic_read(&ms->inet.sk.sk_rmem_alloc);
	info->mrti_wmem_bytes = sk_wmem_alloc_get(&ms->inet.sk);
	info->mrti_rxq_msgs = ms->rxq_len;
	/* the window of the peer last sent to, while a PDC to it is open:
	 * with none, its group and window are gone (the pages' group lives
	 * while a PDC to or from it is open)
	 */
	pdc = ms->info_set ? mrt_pdc_tx_find(ms, &ms->info_peer, ms->info_ep) : NULL;
	d = pdc ? pdc->dest : NULL;
	if (d) {
		spin_lock(&d->lock);
		info->mrti_cwnd_bytes = d->cc.cwnd;
		info->mrti_max_cwnd_bytes = d->cc.max_wnd;
		info->mrti_inflight_bytes = max_t(s64, d->cc.inflight, 0);
		info->mrti_base_rtt_ns = d->cc.base_rtt;
		info->mrti_srtt_us = d->srtt_us;
		info->mrti_avg_delay_ns = nscc_avg_delay(&d->cc);
		info->mrti_qa_count = d->cc.st.qa_count;
		info->mrti_fi_count = d->cc.st.fi_count;
		spin_unlock(&d->lock);
	}
	spin_unlock_bh(&ms->lock);
}

static int mrt_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct mrt_sock *ms = mrt_sk(sock->sk);
	struct mrt_info info;
	struct mrt_evs evs;
	int len, val;

	if (level != SOL_MRT)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	switch (optname) {
	case MRT_INFO:
		mrt_get_info(ms, &info);
		len = min_t(unsigned int, len, sizeof(info));
		if (put_user(len, optlen) || copy_to_user(optval, &info, len))
			return -EFAULT;
		return 0;
	case MRT_EVS:
		val = READ_ONCE(ms->evs);
		evs.base = (u32)val >> 16;
		evs.count = val & 0xffff;
		len = min_t(unsigned int, len, sizeof(evs));
		if (put_user(len, optlen) || copy_to_user(optval, &evs, len))
			return -EFAULT;
		return 0;
	case MRT_ORDERED:
		val = READ_ONCE(ms->ordered);
		break;
	case MRT_CONFIRM:
		val = READ_ONCE(ms->confirm);
		break;
	default:
		return -ENOPROTOOPT;
	}
	len = min_t(unsigned int, len, sizeof(val));
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

static int mrt_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct mrt_sock *ms;
	struct mrt_rmsg *m, *n;
	LIST_HEAD(rxq);

	if (!sk)
		return 0;
	ms = mrt_sk(sk);
	/* Dead; receiving PDCs linger, sending ones with messages
	 * outstanding finish in the background (they hold the socket), the
	 * rest close; then the endpoint is free.
	 */
	mrt_sock_close_pdcs(ms);
	mrt_ep_unbind(ms);

	spin_lock_bh(&ms->lock);
	list_splice_init(&ms->rxq, &rxq);
	WRITE_ONCE(ms->rxq_len, 0);
	spin_unlock_bh(&ms->lock);
	list_for_each_entry_safe(m, n, &rxq, node) {
		__skb_queue_purge(&m->frags);
		kfree(m);
	}

	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

/* The last reference: the tunnels are put from process context. */
static void mrt_sk_destruct(struct sock *sk)
{
	struct mrt_sock *ms = mrt_sk(sk);

	if (ms->tunnel) {
		atomic_inc(&ms->mn->tun_puts);
		schedule_work(&ms->mn->tun_work);
	}
	ms->inet_destruct(sk);
}

static int mrt_sk_init(struct sock *sk)
{
	struct mrt_sock *ms = mrt_sk(sk);
	unsigned int i;
	int err;

	spin_lock_init(&ms->lock);
	ms->mn = mrt_net(sock_net(sk));
	ms->family = sk->sk_family;
	mrt_addr_any_of(ms->family, &ms->addr);
	for (i = 0; i < ARRAY_SIZE(ms->pdcs); i++)
		INIT_HLIST_HEAD(&ms->pdcs[i]);
	INIT_LIST_HEAD(&ms->pdc_list);
	INIT_LIST_HEAD(&ms->rxq);
	INIT_LIST_HEAD(&ms->partial);
	INIT_LIST_HEAD(&ms->reports);
	INIT_WORK(&ms->report_work, mrt_report_work);
	sock_set_flag(sk, SOCK_RCU_FREE);
	err = mrt_tunnel_get(ms->mn);
	if (err)
		return err;
	ms->tunnel = true;
	ms->inet_destruct = sk->sk_destruct;
	sk->sk_destruct = mrt_sk_destruct;
	return 0;
}

/* Only sk_common_release() calls these, when mrt_sk_init() fails. */
static int mrt_sk_hash(struct sock *sk)
{
	return 0;
}

static void mrt_sk_unhash(struct sock *sk)
{
}

static struct proto mrt_prot = {
	.name		= "MRT",
	.owner		= THIS_MODULE,
	.init		= mrt_sk_init,
	.hash		= mrt_sk_hash,
	.unhash		= mrt_sk_unhash,
	.obj_size	= sizeof(struct mrt_sock),
};

static struct proto mrt6_prot = {
	.name		= "MRTv6",
	.owner		= THIS_MODULE,
	.init		= mrt_sk_init,
	.hash		= mrt_sk_hash,
	.unhash		= mrt_sk_unhash,
	.obj_size	= sizeof(struct mrt6_sock),
};

#define MRT_OPS(_family)				\
	{						\
		.family		= (_family),		\
		.owner		= THIS_MODULE,		\
		.release	= mrt_release,		\
		.bind		= mrt_bind,		\
		.connect	= mrt_connect,		\
		.socketpair	= sock_no_socketpair,	\
		.accept		= sock_no_accept,	\
		.getname	= mrt_getname,		\
		.poll		= mrt_poll,		\
		.ioctl		= sock_no_ioctl,	\
		.listen		= sock_no_listen,	\
		.shutdown	= sock_no_shutdown,	\
		.setsockopt	= mrt_setsockopt,	\
		.getsockopt	= mrt_getsockopt,	\
		.sendmsg	= mrt_sendmsg,		\
		.recvmsg	= mrt_recvmsg,		\
		.mmap		= sock_no_mmap,		\
		.sendpage	= sock_no_sendpage,	\
	}

static const struct proto_ops mrt_ops = MRT_OPS(PF_INET);
static const struct proto_ops mrt6_ops = MRT_OPS(PF_INET6);

static struct inet_protosw mrt_protosw = {
	.type		= SOCK_RDM,
	.protocol	= IPPROTO_MRT,
	.prot		= &mrt_prot,
	.ops		= &mrt_ops,
};

static struct inet_protosw mrt6_protosw = {
	.type		= SOCK_RDM,
	.protocol	= IPPROTO_MRT,
	.prot		= &mrt6_prot,
	.ops		= &mrt6_ops,
};

int mrt_sock_register(void)
{
	int err;

	err = proto_register(&mrt_prot, 1);
	if (err)
		return err;
	err = proto_register(&mrt6_prot, 1);
	if (err)
		goto out_prot;
	inet_register_protosw(&mrt_protosw);
	err = inet6_register_protosw(&mrt6_protosw);
	if (err)
		goto out_sw;
	return 0;

out_sw:
	inet_unregister_protosw(&mrt_protosw);
	proto_unregister(&mrt6_prot);
out_prot:
	proto_unregister(&mrt_prot);
	return err;
}

void mrt_sock_unregister(void)
{
	inet6_unregister_protosw(&mrt6_protosw);
	inet_unregister_protosw(&mrt_protosw);
	proto_unregister(&mrt6_prot);
	proto_unregister(&mrt_prot);
}

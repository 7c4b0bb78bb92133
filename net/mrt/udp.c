// SPDX-License-Identifier: GPL-2.0
/*
 * mrt over UDP: the per-netns tunnel sockets that receive every mrt packet
 * (one per family, bound to udp_port), and the transmit path.  The UDP
 * source port is the packet's entropy value (EV).  The UDP stack checks
 * lengths, and mrt_udp_skb() checksums, before mrt reads a datagram, so a
 * switch that trims a packet must fix both up (sch_fabric does).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "mrt.h"

/* The addresses and DS field of datagram skb (of a train: every segment's,
 * GRO having merged only datagrams whose IP headers agree but for their
 * lengths and IDs); false for one that is not unicast.
 */
static bool mrt_udp_addrs(struct sk_buff *skb, struct mrt_addr *src,
			  struct mrt_addr *dst, u8 *family, u8 *ds)
{
	/* A PDC has one peer: broadcast and multicast datagrams (which
	 * would make state on every host of the link) are dropped.
	 */
	if (skb->pkt_type != PACKET_HOST)
		return false;
	if (ip_hdr(skb)->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		/* the route's verdict, kept by IP_PKTINFO before the UDP
		 * socket dropped the route: the address itself only when
		 * the route was local and neither broadcast nor multicast
		 * (fib_compute_spec_dst()), VRFs and local routes in other
		 * tables included
		 */
		if (ipv4_is_multicast(iph->daddr) || ipv4_is_lbcast(iph->daddr) ||
		    PKTINFO_SKB_CB(skb)->ipi_spec_dst.s_addr != iph->daddr)
			return false;
		*family = AF_INET;
		mrt_addr_set_v4(src, iph->saddr);
		mrt_addr_set_v4(dst, iph->daddr);
		*ds = iph->tos;
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		if (ipv6_addr_is_multicast(&ip6h->daddr))
			return false;
		*family = AF_INET6;
		src->a = ip6h->saddr;
		dst->a = ip6h->daddr;
		*ds = ipv6_get_dsfield(ip6h);
	}
	return true;
}

/* UDP's count of datagrams delivered, which a socket's reader keeps. */
static void mrt_udp_in(struct mrt_net *mn, bool v4, unsigned int n)
{
	if (v4)
		__SNMP_ADD_STATS(mn->net->mib.udp_statistics,
				 UDP_MIB_INDATAGRAMS, n);
	else
		__SNMP_ADD_STATS(mn->net->mib.udp_stats_in6,
				 UDP_MIB_INDATAGRAMS, n);
}

/* A datagram the tunnel socket queued (its UDP header pulled, its
 * checksum not yet checked, skb->dev the queue's scratch word), or a
 * train of them: a UDP GSO skb, a peer's batch that crossed a veth whole
 * or datagrams of one flow that GRO merged (the tunnels take both,
 * UDP_GRO), whose segments are taken one after another as one train
 * (struct mrt_train): a batch's ACKs, which share its EV, leave as one
 * GSO skb (pdc.c's mrt_send_ack()), and a train of ACKs lets its PDC send
 * once, in batches.
 *
 * A train is read where it lies: each segment (gso_size bytes, the last
 * what is left) is parsed from its bytes in the skb, and only a payload
 * that is kept gets an skb, of its bytes' page fragments (pdc.c's
 * mrt_rx_keep()): an ACK or a duplicate costs no allocation and no copy
 * of its header (udp_rcv_segment() cost two allocations, and a
 * reallocation to pull the mrt header, for every datagram).  A kept
 * payload holds at least its share of the train's memory (the train's
 * truesize over its segments).  A train is
 * UDP_L4 GSO with its checksum left to segmentation, as GRO and a local
 * sender make it (one a tunnel decapsulated says CHECKSUM_NONE; the
 * kernel's own UDP receive, which would segment it, treats it as
 * checksummed too); anything else (UFO, tunnel GSO) is dropped.
 */
static void mrt_udp_skb(struct mrt_net *mn, struct sk_buff *skb)
{
	struct skb_shared_info *si = skb_shinfo(skb);
	bool v4 = ip_hdr(skb)->version == 4;
	unsigned int off, seg, n;
	struct mrt_addr src, dst;
	struct mrt_train t;
	u8 family, ds;

	if (!skb_is_gso(skb)) {
		if (!udp_skb_csum_unnecessary(skb) &&
		    __udp_lib_checksum_complete(skb))
			goto csum_error;
	} else if (!(si->gso_type & SKB_GSO_UDP_L4) ||
		   si->gso_type & ~(SKB_GSO_UDP_L4 | SKB_GSO_DODGY) ||
		   (skb->ip_summed != CHECKSUM_PARTIAL &&
		    skb->ip_summed != CHECKSUM_NONE) ||
		   skb_checksum_start(skb) != skb_transport_header(skb) ||
		   !si->gso_size) {
		mrt_stat(mn, MRT_S_TRAINS_REFUSED, 1);
		kfree_skb(skb);
		return;
	}
	/* its datagrams */
	seg = skb_is_gso(skb) ? si->gso_size : skb->len;
	n = skb_is_gso(skb) ? max(DIV_ROUND_UP(skb->len, seg), 1U) : 1;
	mrt_udp_in(mn, v4, n);
	if (!mrt_udp_addrs(skb, &src, &dst, &family, &ds)) {
		mrt_stat(mn, MRT_S_NONUNICAST, n);
		kfree_skb(skb);
		return;
	}
	__skb_queue_head_init(&t.out);
	t.push = NULL;
	t.ms = NULL;
	t.ext = NULL;
	t.now = ktime_get_ns();
	if (!skb_is_gso(skb)) {
		t.gso = NULL;
		t.share = 0;
		mrt_rcv(mn, skb, 0, skb->len, &src, &dst, family, ds, &t);
		goto end;
	}
	t.gso = skb;
	t.share = skb->truesize / n;
	/* the queue's scratch word, which a kept payload's skb would copy */
	skb->dev = NULL;
	mrt_stat(mn, MRT_S_TRAINS_IN, 1);
	for (off = 0; off < skb->len; off += seg)
		mrt_rcv(mn, skb, off, min(seg, skb->len - off), &src, &dst,
			family, ds, &t);
	consume_skb(skb);
end:
	mrt_train_end(mn, &t);
	return;
csum_error:
	if (v4) {
		__UDP_INC_STATS(mn->net, UDP_MIB_CSUMERRORS, 0);
		__UDP_INC_STATS(mn->net, UDP_MIB_INERRORS, 0);
	} else {
		__UDP6_INC_STATS(mn->net, UDP_MIB_CSUMERRORS, 0);
		__UDP6_INC_STATS(mn->net, UDP_MIB_INERRORS, 0);
	}
	kfree_skb(skb);
}

/* The tunnel socket's sk_data_ready: everything it has queued, at once
 * (in softirq as a datagram is queued, by whichever CPU queued it; an
 * error the socket reports, cleared as it is read, does not stop it).
 */
static void mrt_udp_data_ready(struct sock *usk)
{
	int off = 0, err, errs = 0;
	struct sk_buff *skb;
	struct mrt_net *mn;

	local_bh_disable();
	rcu_read_lock();
	mn = rcu_dereference_sk_user_data(usk);
	while (mn && errs < 2) {
		skb = __skb_recv_udp(usk, MSG_DONTWAIT, &off, &err);
		if (skb) {
			mrt_udp_skb(mn, skb);
			continue;
		}
		if (err == -EAGAIN)
			break;
		errs++;
	}
	rcu_read_unlock();
	local_bh_enable();
}

/* A tunnel socket: plain UDP on port, its datagrams mrt's as they are
 * queued (mrt_udp_data_ready()), GSO trains whole (UDP_GRO: an
 * encapsulation socket's hook would be handed a train cut into datagrams
 * first).
 */
static int mrt_tunnel_open(struct mrt_net *mn, u8 family, __be16 port,
			   struct socket **sockp)
{
	struct udp_port_cfg cfg = {
		.family		= family,
		.local_udp_port	= port,
	};
	struct sock *usk;
	int err, one = 1;

	if (family == AF_INET6) {
		cfg.ipv6_v6only = 1;
		cfg.use_udp6_rx_checksums = 1;
		cfg.use_udp6_tx_checksums = 1;
	}
	err = udp_sock_create(mn->net, &cfg, sockp);
	if (err)
		return err;
	err = (*sockp)->ops->setsockopt(*sockp, SOL_UDP, UDP_GRO,
					KERNEL_SOCKPTR(&one), sizeof(one));
	if (err) {
		udp_tunnel_sock_release(*sockp);
		return err;
	}
	usk = (*sockp)->sk;
	/* trains of 64 KiB queued at once (4 MiB: the value is doubled),
	 * no busy polling from softirq, the route's verdict kept
	 * (mrt_udp_addrs())
	 */
	sock_set_rcvbuf(usk, 2 << 20);
	WRITE_ONCE(usk->sk_ll_usec, 0);
	if (family == AF_INET)
		ip_sock_set_pktinfo(usk);
	rcu_assign_sk_user_data(usk, mn);
	write_lock_bh(&usk->sk_callback_lock);
	usk->sk_data_ready = mrt_udp_data_ready;
	write_unlock_bh(&usk->sk_callback_lock);
	/* what came while it was being set up */
	mrt_udp_data_ready(usk);
	return 0;
}

/* Closes tunnels s4 and s6 that are no longer published; under tun_lock. */
static void mrt_tunnel_release(struct socket *s4, struct socket *s6)
{
	/* Transmitters (BH, RCU) may still hold the old pointers. */
	synchronize_net();
	if (s6)
		udp_tunnel_sock_release(s6);
	if (s4)
		udp_tunnel_sock_release(s4);
}

/* The tunnels on udp_port, open already or opened now; under tun_lock,
 * with no socket using them.  A new port's are opened before the old
 * ones close, so that the netns never holds neither (if the new port is
 * taken, the old ones stay).
 */
static int mrt_tunnel_open_port(struct mrt_net *mn)
{
	__be16 port = htons(mrt_attr(mn, MRT_A_udp_port));
	struct socket *s4, *s6 = NULL, *o4 = mn->tun4, *o6 = mn->tun6;
	int err;

	if (o4 && mn->port == port)
		return 0;
	err = mrt_tunnel_open(mn, AF_INET, port, &s4);
	if (err)
		return err;
	if (ipv6_mod_enabled()) {
		err = mrt_tunnel_open(mn, AF_INET6, port, &s6);
		if (err) {
			udp_tunnel_sock_release(s4);
			return err;
		}
	}
	mn->port = port;
	WRITE_ONCE(mn->tun6, s6);
	WRITE_ONCE(mn->tun4, s4);
	if (o4)
		mrt_tunnel_release(o4, o6);
	return 0;
}

/* The tunnels hold udp_port for as long as the netns lives (opened when
 * it is made, or when mrt.ko is loaded), not only while it has mrt
 * sockets: an unprivileged local user who bound that UDP port in the
 * meantime would receive every mrt packet sent to this host (and the
 * keys of the SYNs).  A change of udp_port takes effect with the netns's
 * first mrt socket after it has none; if the port was taken when the
 * netns was made (by a socket older than mrt.ko), the first mrt socket
 * tries again.
 */
void mrt_tunnel_init(struct mrt_net *mn)
{
	int err;

	mutex_lock(&mn->tun_lock);
	err = mrt_tunnel_open_port(mn);
	mutex_unlock(&mn->tun_lock);
	if (err)
		pr_warn_ratelimited("mrt: UDP port %u of a namespace is taken (%d): its first mrt socket will try again\n",
				    mrt_attr(mn, MRT_A_udp_port), err);
}

void mrt_tunnel_exit(struct mrt_net *mn)
{
	struct socket *s4, *s6;

	mutex_lock(&mn->tun_lock);
	s4 = mn->tun4;
	s6 = mn->tun6;
	WRITE_ONCE(mn->tun4, NULL);
	WRITE_ONCE(mn->tun6, NULL);
	if (s4)
		mrt_tunnel_release(s4, s6);
	mutex_unlock(&mn->tun_lock);
}

/* With the netns's first mrt socket: the tunnels on udp_port. */
int mrt_tunnel_get(struct mrt_net *mn)
{
	int err = 0;

	mutex_lock(&mn->tun_lock);
	if (!mn->tun_users)
		err = mrt_tunnel_open_port(mn);
	if (!err)
		mn->tun_users++;
	mutex_unlock(&mn->tun_lock);
	return err;
}

static void mrt_tunnel_put(struct mrt_net *mn)
{
	mutex_lock(&mn->tun_lock);
	mn->tun_users--;
	mutex_unlock(&mn->tun_lock);
}

/* A socket's last reference went (mrt_sk_destruct(), maybe in softirq
 * context): its tunnel reference is put here, in process context.
 */
void mrt_tunnel_put_work(struct work_struct *w)
{
	struct mrt_net *mn = container_of(w, struct mrt_net, tun_work);

	while (atomic_dec_if_positive(&mn->tun_puts) >= 0)
		mrt_tunnel_put(mn);
}

struct sk_buff *mrt_alloc_ctl(unsigned int hlen)
{
	struct sk_buff *skb = alloc_skb(MRT_HEADROOM + hlen, GFP_ATOMIC);

	if (skb)
		skb_reserve(skb, MRT_HEADROOM);
	return skb;
}

/* A batch (a UDP GSO skb of mrt packets): its UDP checksum is left to
 * the device or to segmentation (CHECKSUM_PARTIAL, as UDP GSO requires);
 * udp_tunnel_xmit_skb() and its IPv6 form push the UDP header just
 * before skb->data and, for GSO, fill in only the pseudo-header sum.
 */
static void mrt_gso_csum(struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return;
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
	skb->csum_offset = offsetof(struct udphdr, check);
}

static int mrt_xmit4(struct mrt_net *mn, struct sk_buff *skb)
{
	struct mrt_xmit_cb *cb = MRT_XMIT_CB(skb);
	struct dst_cache *cache = cb->pdc ? &cb->pdc->dst : NULL;
	__be32 saddr = cb->saddr.s6_addr32[3];
	struct rtable *rt = NULL;
	struct socket *tun;
	struct flowi4 fl4;
	struct sock *usk;

	tun = READ_ONCE(mn->tun4);
	if (!tun)
		return -ENETDOWN;
	usk = tun->sk;
	if (cache)
		rt = dst_cache_get_ip4(cache, &saddr);
	if (!rt) {
		memset(&fl4, 0, sizeof(fl4));
		fl4.flowi4_proto = IPPROTO_UDP;
		fl4.daddr = cb->daddr.s6_addr32[3];
		fl4.saddr = cb->saddr.s6_addr32[3];
		fl4.flowi4_tos = RT_TOS(cb->tos);
		fl4.fl4_sport = cb->sport;
		fl4.fl4_dport = mn->port;
		rt = ip_route_output_key(mn->net, &fl4);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		saddr = fl4.saddr;
		if (cache)
			dst_cache_set_ip4(cache, &rt->dst, saddr);
	}
	skb_scrub_packet(skb, false);
	mrt_gso_csum(skb);
	udp_tunnel_xmit_skb(rt, usk, skb, saddr, cb->daddr.s6_addr32[3],
			    cb->tos, ip4_dst_hoplimit(&rt->dst), htons(IP_DF),
			    cb->sport, mn->port, false, false);
	return 0;
}

static int mrt_xmit6(struct mrt_net *mn, struct sk_buff *skb)
{
	struct mrt_xmit_cb *cb = MRT_XMIT_CB(skb);
	struct dst_cache *cache = cb->pdc ? &cb->pdc->dst : NULL;
	struct in6_addr saddr = cb->saddr, daddr = cb->daddr;
	struct dst_entry *dst = NULL;
	struct socket *tun;
	struct flowi6 fl6;
	struct sock *usk;
	u8 tos = cb->tos;
	__be16 sport = cb->sport;

	tun = READ_ONCE(mn->tun6);
	if (!tun)
		return -ENETDOWN;
	usk = tun->sk;
	if (cache)
		dst = dst_cache_get_ip6(cache, &saddr);
	if (!dst) {
		memset(&fl6, 0, sizeof(fl6));
		fl6.flowi6_proto = IPPROTO_UDP;
		fl6.daddr = daddr;
		fl6.saddr = saddr;
		fl6.fl6_sport = sport;
		fl6.fl6_dport = mn->port;
		dst = ipv6_stub->ipv6_dst_lookup_flow(mn->net, usk, &fl6, NULL);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		saddr = fl6.saddr;
		if (cache)
			dst_cache_set_ip6(cache, dst, &saddr);
	}
	skb_scrub_packet(skb, false);
	mrt_gso_csum(skb);
	return udp_tunnel6_xmit_skb(dst, usk, skb, dst->dev, &saddr, &daddr,
				    tos, ip6_dst_hoplimit(dst), 0, sport,
				    mn->port, false);
}

u32 mrt_route_mbps(struct mrt_net *mn, u8 family, const struct mrt_addr *to)
{
	struct dst_entry *dst;
	u32 mbps = 0;

	if (family == AF_INET) {
		struct flowi4 fl4 = {
			.flowi4_proto = IPPROTO_UDP,
			.daddr = to->a.s6_addr32[3],
			.fl4_dport = mn->port,
		};
		struct rtable *rt = ip_route_output_key(mn->net, &fl4);

		if (IS_ERR(rt))
			return 0;
		dst = &rt->dst;
	} else {
		struct flowi6 fl6 = {
			.flowi6_proto = IPPROTO_UDP,
			.daddr = to->a,
			.fl6_dport = mn->port,
		};
		struct socket *tun = READ_ONCE(mn->tun6);

		if (!tun)
			return 0;
		dst = ipv6_stub->ipv6_dst_lookup_flow(mn->net, tun->sk, &fl6, NULL);
		if (IS_ERR(dst))
			return 0;
	}
	rcu_read_lock();
	if (dst->dev)
		mbps = fabric_link_mbps(dst->dev);
	rcu_read_unlock();
	dst_release(dst);
	return mbps;
}

/* Data packets of one PDC that left the host, and when: their sending
 * PDC's RTT samples and timers run from then (mrt_snd_departed()).  A
 * batch of segs packets (PSNs psn on) was handed over at once: the
 * device serializes its segments one after another, so packet i of it
 * leaves i segments' serialization (seg bytes each at the destination's
 * link speed, if known) after the first.
 */
struct mrt_departed {
	struct mrt_pdc *pdc;
	unsigned int n;
	u32 psn[16];
	u16 segs[16];
	u32 seg[16];
	u64 at[16];
};

static void mrt_departed_flush(struct mrt_departed *dp)
{
	struct mrt_pdc *pdc = dp->pdc;
	unsigned int i, j;
	u32 mbps;

	if (!dp->n)
		return;
	spin_lock(&pdc->ms->lock);
	if (pdc->role == MRT_PDC_TX && !pdc->dead) {
		/* (the engine takes no sample from a stamp later than the
		 * ACK, if the rate is set below the device's)
		 */
		mbps = READ_ONCE(pdc->dest->cc.cfg.rate_mbps);
		for (i = 0; i < dp->n; i++)
			for (j = 0; j < dp->segs[i]; j++)
				mrt_snd_departed(&pdc->snd, dp->psn[i] + j, dp->at[i] +
						 (mbps ? div_u64((u64)j * dp->seg[i] * 8000,
								 mbps) : 0));
	}
	spin_unlock(&pdc->ms->lock);
	dp->n = 0;
}

/* The ACKs of skb (one, or a GSO skb of them, linear) waited since
 * skb->tstamp (pdc.c's mrt_send_ack()): their service time, as they leave
 * at now.
 */
static void mrt_ack_service(struct sk_buff *skb, u64 now)
{
	u64 since = ktime_to_ns(skb->tstamp);
	u16 st = min_t(u64, (now - min(now, since)) >> 6, U16_MAX);
	unsigned int off;

	for (off = 0; off + MRT_ACK_HDR_LEN <= skb_headlen(skb);
	     off += MRT_ACK_HDR_LEN)
		mrt_ack_set_service(skb->data + off, st);
	skb->tstamp = 0;
}

void mrt_xmit_queue(struct mrt_net *mn, struct sk_buff_head *q)
{
	struct mrt_departed dp = {};
	struct sk_buff *skb;
	u64 now = 0;
	int err;

	BUILD_BUG_ON(sizeof(struct mrt_xmit_cb) > sizeof_field(struct sk_buff, cb));
	while ((skb = __skb_dequeue(q))) {
		struct mrt_pdc *pdc = MRT_XMIT_CB(skb)->pdc;
		bool data = MRT_XMIT_CB(skb)->data;
		u32 psn = MRT_XMIT_CB(skb)->psn;
		unsigned int len = skb->len, segs = 1, seg = 0;

		if (skb_is_gso(skb)) {
			segs = skb_shinfo(skb)->gso_segs;
			seg = skb_shinfo(skb)->gso_size;
		}
		if (MRT_XMIT_CB(skb)->ack && skb->tstamp) {
			if (!now)
				now = ktime_get_ns();
			mrt_ack_service(skb, now);
		}

		if (MRT_XMIT_CB(skb)->family == AF_INET)
			err = mrt_xmit4(mn, skb);
		else
			err = mrt_xmit6(mn, skb);
		if (err) {
			/* A data packet's PDC learns it: when the retry
			 * budget runs out, its messages fail with this.
			 */
			if (pdc)
				WRITE_ONCE(pdc->xmit_err, err);
			mrt_stat(mn, MRT_S_ROUTE_ERRORS, 1);
			kfree_skb(skb);
			continue;
		}
		if (pdc)
			WRITE_ONCE(pdc->xmit_err, 0);
		mrt_stat(mn, MRT_S_PKTS_OUT, segs);
		if (segs > 1) {
			mrt_stat(mn, MRT_S_BATCHES_OUT, 1);
			mrt_stat(mn, MRT_S_BATCH_PKTS_OUT, segs);
		}
		mrt_stat(mn, MRT_S_BYTES_OUT, len);
		if (!data)
			continue;
		if (dp.pdc != pdc || dp.n == ARRAY_SIZE(dp.psn))
			mrt_departed_flush(&dp);
		dp.pdc = pdc;
		dp.psn[dp.n] = psn;
		dp.segs[dp.n] = segs;
		dp.seg[dp.n] = seg;
		dp.at[dp.n++] = ktime_get_ns();
	}
	mrt_departed_flush(&dp);
}

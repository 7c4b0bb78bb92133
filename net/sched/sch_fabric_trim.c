// SPDX-License-Identifier: GPL-2.0
/*
 * sch_fabric packet trimming: cut a UDP datagram to its first trim_size
 * bytes of IP datagram, and make what is left a valid datagram again.
 *
 * The model is the switch trimming of NDP (Handley et al., SIGCOMM 2017)
 * and Ultra Ethernet as SAI and SONiC expose it ("packet trimming", default
 * size 128 bytes, DSCP rewrite): the sender marks data packets trimmable
 * with a DSCP, and a switch that cannot admit one keeps its headers, gives
 * them a new DSCP and sends them ahead of the data.  Here a trimmed
 * datagram must pass the receiver's UDP checks, so
 *
 *   - IPv4: total length, DSCP (ECN bits kept), header checksum;
 *   - IPv6: payload length, DSCP (ECN bits kept);
 *   - UDP:  length, and the checksum over what is left, computed in
 *           software (the skb leaves as CHECKSUM_NONE).  An IPv4 datagram
 *           sent without a checksum (0) keeps none.
 *
 * Only plain UDP over IPv4 (not a fragment) or IPv6 (UDP as the first next
 * header) is trimmed; GSO packets were segmented before they got here.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>

#include "sch_fabric.h"

static u8 fab_dscp(struct sk_buff *skb)
{
	int off = skb_network_offset(skb);

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP):
		if (!pskb_may_pull(skb, off + sizeof(struct iphdr)))
			return 0xff;
		return ipv4_get_dsfield(ip_hdr(skb)) >> 2;
	case htons(ETH_P_IPV6):
		if (!pskb_may_pull(skb, off + sizeof(struct ipv6hdr)))
			return 0xff;
		return ipv6_get_dsfield(ipv6_hdr(skb)) >> 2;
	default:
		return 0xff;
	}
}

/* The packet carries one of the trimmable DSCPs. */
bool fab_trimmable(const struct fab_config *cfg, struct sk_buff *skb)
{
	u8 dscp = fab_dscp(skb);

	return dscp < 64 && (cfg->trim_dscp_mask & BIT_ULL(dscp));
}

/* A plain UDP datagram (IPv4 not a fragment, or IPv6 whose first next
 * header is UDP): its IP header's length and its IP length, as it says.
 */
static bool fab_plain_udp(struct sk_buff *skb, unsigned int *hlen,
			  unsigned int *iplen)
{
	int noff = skb_network_offset(skb);

	if (skb_protocol(skb, true) == htons(ETH_P_IPV6)) {
		if (!pskb_may_pull(skb, noff + sizeof(struct ipv6hdr)) ||
		    ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return false;
		*hlen = sizeof(struct ipv6hdr);
		*iplen = *hlen + ntohs(ipv6_hdr(skb)->payload_len);
	} else {
		const struct iphdr *iph;

		if (!pskb_may_pull(skb, noff + sizeof(struct iphdr)))
			return false;
		iph = ip_hdr(skb);
		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph) ||
		    iph->ihl < 5)
			return false;
		*hlen = iph->ihl * 4;
		*iplen = ntohs(iph->tot_len);
	}
	return true;
}

/* The IP length a trim here leaves. */
static unsigned int fab_trim_len(const struct fab_config *cfg, unsigned int hlen)
{
	return max_t(unsigned int, cfg->trim_size, hlen + sizeof(struct udphdr));
}

/* A header a port upstream trimmed: plain UDP (as fab_trim() cuts) with
 * trim_dscp (not 0, not trimmable here), exactly as long as a trim here
 * leaves a datagram, and that long in fact.  A fabric
 * serves trimmed headers first at every hop (NDP's and the UEC
 * simulator's switches queue a header-only packet with priority
 * wherever it arrives; a switch maps the trimmed DSCP to its priority
 * queue), so such a packet joins the header queue here too rather than
 * being dropped as data when this port is also full.
 */
bool fab_trimmed_header(const struct fab_config *cfg, struct sk_buff *skb)
{
	unsigned int iplen, hlen;

	/* trim_dscp 0 (best effort) or a trimmable one names no header */
	if (!cfg->trim_dscp || (cfg->trim_dscp_mask & BIT_ULL(cfg->trim_dscp)))
		return false;
	if (fab_dscp(skb) != cfg->trim_dscp || !fab_plain_udp(skb, &hlen, &iplen))
		return false;
	/* what it says it is, and what it is */
	return iplen == fab_trim_len(cfg, hlen) &&
	       skb->len - skb_network_offset(skb) == iplen;
}

static __sum16 fab_udp_csum(struct sk_buff *skb, bool v6, int uoff,
			    unsigned int ulen)
{
	__wsum csum = skb_checksum(skb, uoff, ulen, 0);
	__sum16 check;

	if (v6)
		check = csum_ipv6_magic(&ipv6_hdr(skb)->saddr,
					&ipv6_hdr(skb)->daddr, ulen,
					IPPROTO_UDP, csum);
	else
		check = csum_tcpudp_magic(ip_hdr(skb)->saddr,
					  ip_hdr(skb)->daddr, ulen,
					  IPPROTO_UDP, csum);
	return check ? check : CSUM_MANGLED_0;
}

/* Trims skb in place.  Returns 0, -EOPNOTSUPP when the packet is not one
 * this model trims (not plain UDP, or already no longer than trim_size),
 * or -ENOMEM.
 */
int fab_trim(const struct fab_config *cfg, struct sk_buff *skb)
{
	int noff = skb_network_offset(skb);
	unsigned int iplen, hlen, newlen;
	bool v6, had_csum;
	struct udphdr *uh;

	v6 = skb_protocol(skb, true) == htons(ETH_P_IPV6);
	if (!fab_plain_udp(skb, &hlen, &iplen))
		return -EOPNOTSUPP;
	newlen = fab_trim_len(cfg, hlen);
	if (iplen <= newlen || noff + iplen > skb->len)
		return -EOPNOTSUPP;

	if (skb_ensure_writable(skb, noff + hlen + sizeof(struct udphdr)) ||
	    pskb_trim(skb, noff + newlen))
		return -ENOMEM;

	uh = (struct udphdr *)(skb_network_header(skb) + hlen);
	had_csum = v6 || uh->check;
	uh->len = htons(newlen - hlen);
	if (v6) {
		ipv6_hdr(skb)->payload_len = htons(newlen - hlen);
		ipv6_change_dsfield(ipv6_hdr(skb), INET_ECN_MASK,
				    cfg->trim_dscp << 2);
	} else {
		struct iphdr *iph = ip_hdr(skb);

		iph->tot_len = htons(newlen);
		iph->tos = (iph->tos & INET_ECN_MASK) | (cfg->trim_dscp << 2);
		ip_send_check(iph);
	}
	uh->check = 0;
	if (had_csum)
		uh->check = fab_udp_csum(skb, v6, noff + hlen, newlen - hlen);
	skb->ip_summed = CHECKSUM_NONE;
	return 0;
}

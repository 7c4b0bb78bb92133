// SPDX-License-Identifier: GPL-2.0
/*
 * mrt_fault: a tc (clsact, direct-action) program for the faults netem
 * cannot express, per EV: for UDP packets whose source port (the EV) is a
 * key of mrt_fault_evs, drop them, mark them CE (IPv4 or IPv6, if they
 * are ECN-capable), or flip bits of one byte of the UDP payload (the mrt
 * header: "corrupt chosen header fields"), the UDP checksum kept right so
 * that the packet reaches mrt and is its parser's to refuse.  Every other
 * packet passes untouched.  Loaded, configured and read with bpftool
 * (tools/bpf/mrt_fault.sh wraps it; Documentation/networking/mrt.rst):
 *
 *   mrt_fault_evs    hash, key __u16 EV (host order), value struct fault
 *   mrt_fault_conf   array of __u32: [0] the UDP destination port to match
 *                    (mrt's udp_port; 0: any), so that other UDP from a
 *                    listed port passes
 *   mrt_fault_stats  array of __u64: [0] packets of a listed EV, [1]
 *                    dropped, [2] marked CE, [3] corrupted, [4] not
 *                    marked (not ECN-capable), [5] not corrupted (the
 *                    byte beyond the datagram)
 *
 * Built with clang -target bpf (make tools); the layout of struct fault
 * is the contract with mrt_fault.sh.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define F_DROP		1
#define F_CE		2
#define F_CORRUPT	4

struct fault {
	__u32 flags;		/* F_* */
	__u32 offset;		/* F_CORRUPT: the payload byte */
	__u32 mask;		/* its bits to flip (low 8 bits) */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, struct fault);
} mrt_fault_evs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} mrt_fault_conf SEC(".maps");

enum { S_SEEN, S_DROPPED, S_MARKED, S_CORRUPTED, S_NOT_ECT, S_SKIPPED, S_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, S_MAX);
	__type(key, __u32);
	__type(value, __u64);
} mrt_fault_stats SEC(".maps");

static __always_inline void count(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&mrt_fault_stats, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* CE in IPv4's TOS at nh, its header checksum kept right. */
static __always_inline int ce4(struct __sk_buff *skb, __u32 nh, struct iphdr *ip)
{
	__u16 old, new;

	if (!(ip->tos & 3))
		return -1;
	old = bpf_htons((__u16)ip->version << 12 | (__u16)ip->ihl << 8 | ip->tos);
	new = old | bpf_htons(3);
	if (bpf_l3_csum_replace(skb, nh + offsetof(struct iphdr, check), old, new, 2))
		return -1;
	return bpf_skb_store_bytes(skb, nh, &new, 2, 0);
}

/* CE in IPv6's traffic class: the low 2 bits of its first byte's low
 * nibble and the next byte's high nibble (bits 20-21 of the first word).
 */
static __always_inline int ce6(struct __sk_buff *skb, __u32 nh)
{
	__u8 b[2];

	if (bpf_skb_load_bytes(skb, nh, b, 2))
		return -1;
	if (!(b[1] & 0x30))
		return -1;
	b[1] |= 0x30;
	return bpf_skb_store_bytes(skb, nh, b, 2, 0);
}

SEC("tc")
int mrt_fault(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	__u32 nh = sizeof(*eth), l4;
	__u32 zero = 0, *port, ulen;
	struct fault *f;
	struct udphdr *udp;
	__u16 ev, w, nw;
	__u8 proto;
	int v6;

	if ((void *)(eth + 1) > data_end)
		return TC_ACT_OK;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = data + nh;

		if ((void *)(ip + 1) > data_end || ip->ihl < 5)
			return TC_ACT_OK;
		/* a fragment after the first has no UDP header */
		if (ip->frag_off & bpf_htons(0x1fff))
			return TC_ACT_OK;
		proto = ip->protocol;
		l4 = nh + ip->ihl * 4;
		v6 = 0;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = data + nh;

		if ((void *)(ip6 + 1) > data_end)
			return TC_ACT_OK;
		proto = ip6->nexthdr;
		l4 = nh + sizeof(*ip6);
		v6 = 1;
	} else {
		return TC_ACT_OK;
	}
	if (proto != IPPROTO_UDP)
		return TC_ACT_OK;
	udp = data + l4;
	if ((void *)(udp + 1) > data_end)
		return TC_ACT_OK;
	port = bpf_map_lookup_elem(&mrt_fault_conf, &zero);
	if (port && *port && bpf_ntohs(udp->dest) != *port)
		return TC_ACT_OK;
	ev = bpf_ntohs(udp->source);
	ulen = bpf_ntohs(udp->len);
	f = bpf_map_lookup_elem(&mrt_fault_evs, &ev);
	if (!f)
		return TC_ACT_OK;
	count(S_SEEN);
	if (f->flags & F_DROP) {
		count(S_DROPPED);
		return TC_ACT_SHOT;
	}
	if (f->flags & F_CE) {
		int err = v6 ? ce6(skb, nh) :
			       ce4(skb, nh, (struct iphdr *)(data + nh));

		count(err ? S_NOT_ECT : S_MARKED);
	}
	if (f->flags & F_CORRUPT) {
		/* the 16-bit word holding the byte, for the checksum; the
		 * byte inside the datagram, and the word inside the skb (an
		 * odd datagram's last byte cannot be had)
		 */
		__u32 off = l4 + sizeof(*udp) + (f->offset & ~1U);

		if (f->offset > 1024 || f->offset + sizeof(*udp) >= ulen ||
		    bpf_skb_load_bytes(skb, off, &w, 2)) {
			count(S_SKIPPED);
			return TC_ACT_OK;
		}
		nw = w ^ bpf_htons((f->offset & 1 ? 1 : 0x100) * (f->mask & 0xff));
		if (bpf_l4_csum_replace(skb, l4 + offsetof(struct udphdr, check), w, nw,
					BPF_F_MARK_MANGLED_0 | 2) ||
		    bpf_skb_store_bytes(skb, off, &nw, 2, 0))
			return TC_ACT_OK;
		count(S_CORRUPTED);
	}
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";

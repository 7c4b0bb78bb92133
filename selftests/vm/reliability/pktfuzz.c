// SPDX-License-Identifier: GPL-2.0
/*
 * pktfuzz: malformed and mutated mrt packets at a live receiver, beside a
 * transfer (selftests/vm/reliability/01_pktfuzz.sh).
 *
 *   pktfuzz --dst ADDR --src ADDR --count N [--seed S] [--port P]
 *           --foreign NS --sender NS --receiver NS --dev IF
 *
 * A transfer runs from the sender (netns --sender, address --src) to the
 * receiver (netns --receiver, address --dst).  pktfuzz captures its
 * packets in both directions (AF_PACKET on the sender's --dev; a GSO
 * train, which crosses a veth whole, as its packets) and sends
 * N packets, each one of:
 *
 *   random     random bytes, often behind a plausible first byte
 *   flip       a captured packet with 1 to 8 bits flipped
 *   trunc      a captured packet cut short
 *   extend     a captured packet with bytes appended
 *   field      a captured packet with one header field set to an edge
 *              value (0, 1, all ones, random)
 *   craft      a packet built with mrt_build() with random fields: PDCs
 *              no one has, SYNs for the receiver's endpoints, unknown
 *              codes, windows and penalties out of range
 *   replay     a captured sender->receiver packet, sent again unchanged
 *              from the sender's address
 *   replay_ack a captured receiver->sender packet (an ACK or NACK), sent
 *              again unchanged from the receiver's address to the sender
 *
 * All but the replays leave from the foreign netns (--foreign), a host
 * with an address of its own: none of them can pass for the live PDC's
 * peer, so the transfer may see replays of its own packets but never a
 * forged one (no transport without authentication survives a forgery from
 * its peer's address).
 *
 * Every packet is classified with the transport's own parser
 * (net/mrt/wire.c, mrt_parse()) before it goes, and the report gives the
 * count of each malformed reason per destination: the test holds the
 * receiver's malformed_* counters to them exactly, so the kernel's receive
 * path (its pulls, its header lengths) must agree with the pure parser on
 * every packet.  Output: one JSON object on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>

#include "../../../net/mrt/wire.h"

#define POOL		512
#define PKT_MAX		1500

enum kind { K_RANDOM, K_FLIP, K_TRUNC, K_EXTEND, K_FIELD, K_CRAFT, K_REPLAY,
	    K_REPLAY_ACK, K_COUNT };

static const char * const kind_names[K_COUNT] = {
	"random", "flip", "trunc", "extend", "field", "craft", "replay", "replay_ack",
};

/* Out of 100: how often each kind is drawn. */
static const unsigned int kind_weight[K_COUNT] = { 15, 20, 10, 5, 15, 15, 12, 8 };

struct pool {
	unsigned int n, next;
	unsigned short len[POOL];
	unsigned char pkt[POOL][PKT_MAX];
};

/* What went to one destination, by the parser's verdict. */
struct tally {
	unsigned long sent;
	unsigned long valid[MRT_TYPE_CTRL + 1];
	unsigned long bad[MRT_BAD_COUNT];
};

static struct pool to_rx, to_tx;	/* sender->receiver, receiver->sender */
static struct tally at_rx, at_tx;
static unsigned long kinds[K_COUNT], send_errors, captured, trains;
static unsigned long long rng_state;

static void die(const char *what)
{
	fprintf(stderr, "pktfuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

static const char usage_text[] =
	"usage: pktfuzz --dst ADDR --src ADDR --count N [--seed S] [--port P]\n"
	"               --foreign NS --sender NS --receiver NS --dev IF\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

/* splitmix64: the same stream for the same seed, on any machine. */
static unsigned long long rnd(void)
{
	unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

static void enter_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	if (setns(fd, CLONE_NEWNET))
		die("setns");
	close(fd);
}

struct dest {
	int fd;
	struct sockaddr_storage sa;
	socklen_t salen;
};

static void dest_init(struct dest *d, const char *ns, const char *addr, int port)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&d->sa;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&d->sa;
	int family = strchr(addr, ':') ? AF_INET6 : AF_INET;

	enter_netns(ns);
	memset(&d->sa, 0, sizeof(d->sa));
	if (family == AF_INET6) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		if (inet_pton(AF_INET6, addr, &s6->sin6_addr) != 1)
			usage();
		d->salen = sizeof(*s6);
	} else {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		if (inet_pton(AF_INET, addr, &s4->sin_addr) != 1)
			usage();
		d->salen = sizeof(*s4);
	}
	d->fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (d->fd < 0)
		die("socket");
}

static int cap_open(const char *ns, const char *dev)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET };
	int fd;

	enter_netns(ns);
	fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0)
		die("AF_PACKET socket");
	ll.sll_protocol = htons(ETH_P_ALL);
	ll.sll_ifindex = (int)if_nametoindex(dev);
	if (!ll.sll_ifindex)
		die(dev);
	if (bind(fd, (struct sockaddr *)&ll, sizeof(ll)))
		die("bind AF_PACKET");
	return fd;
}

/* The UDP payload of an IP packet to port, or NULL. */
static const unsigned char *udp_payload(const unsigned char *b, size_t len, int port,
					size_t *plen)
{
	size_t ihl, ulen;
	int proto;

	if (len < 20)
		return NULL;
	if (b[0] >> 4 == 4) {
		ihl = (b[0] & 15) * 4u;
		proto = b[9];
		if ((b[6] & 0x3f) || b[7])	/* a fragment */
			return NULL;
	} else if (b[0] >> 4 == 6 && len >= 40) {
		ihl = 40;
		proto = b[6];
	} else {
		return NULL;
	}
	if (proto != IPPROTO_UDP || len < ihl + 8)
		return NULL;
	b += ihl;
	len -= ihl;
	if ((b[2] << 8 | b[3]) != port)
		return NULL;
	/* (a GSO train's UDP length is the whole train's) */
	ulen = (size_t)(b[4] << 8 | b[5]);
	if (ulen < 8 || ulen > len || ulen - 8 > PKT_MAX)
		return NULL;
	*plen = ulen - 8;
	return b + 8;
}

static void pool_add(struct pool *p, const unsigned char *b, size_t len)
{
	memcpy(p->pkt[p->next], b, len);
	p->len[p->next] = (unsigned short)len;
	p->next = (p->next + 1) % POOL;
	if (p->n < POOL)
		p->n++;
}

/* The length of the first packet of a captured UDP payload, which may be
 * a GSO train's (mrt's batches and batched ACKs cross a veth whole, and
 * Linux 6.1's AF_PACKET gives no segment size for UDP GSO): every
 * segment of a train is a whole packet, so a payload that does not parse
 * whole but whose first packet does, at the length its header gives, is
 * cut there.  Anything else is taken whole.
 */
static size_t first_len(const unsigned char *b, size_t len)
{
	struct mrt_pkt p;
	size_t l;

	if (len < MRT_HDR_LEN || !mrt_parse(b, len, &p))
		return len;
	switch (b[0] & 15) {
	case MRT_TYPE_ACK:
		l = MRT_ACK_HDR_LEN;
		break;
	case MRT_TYPE_DATA:
		/* the header alone parses as trimmed, with its length */
		if (len < MRT_DATA_HDR_LEN || mrt_parse(b, MRT_DATA_HDR_LEN, &p))
			return len;
		l = MRT_DATA_HDR_LEN + p.data.payload_len + mrt_data_pad(p.data.payload_len);
		break;
	default:
		return len;
	}
	return l < len && !mrt_parse(b, l, &p) ? l : len;
}

/* Whatever the capture socket holds, into the pools (a train's packets
 * each on its own).
 */
static void cap_drain(int fd, int port)
{
	static unsigned char buf[65536];
	struct sockaddr_ll ll;
	socklen_t sl;
	const unsigned char *pl;
	size_t plen, seg, off;
	ssize_t n;

	for (;;) {
		sl = sizeof(ll);
		n = recvfrom(fd, buf, sizeof(buf), MSG_TRUNC, (struct sockaddr *)&ll, &sl);
		if (n < 0)
			return;
		if ((size_t)n > sizeof(buf))
			continue;
		pl = udp_payload(buf, (size_t)n, port, &plen);
		if (!pl)
			continue;
		seg = first_len(pl, plen);
		trains += seg < plen;
		for (off = 0; off < plen; off += seg) {
			captured++;
			pool_add(ll.sll_pkttype == PACKET_OUTGOING ? &to_rx : &to_tx,
				 pl + off, plen - off < seg ? plen - off : seg);
		}
	}
}

static const unsigned char *pick(unsigned short *len)
{
	struct pool *p = (below(3) && to_rx.n) || !to_tx.n ? &to_rx : &to_tx;
	unsigned int i = below(p->n);

	*len = p->len[i];
	return p->pkt[i];
}

/* An edge value of nbytes bytes, big-endian, at b. */
static void put_edge(unsigned char *b, unsigned int nbytes)
{
	const unsigned long long pick[] = { 0, 1, ~0ULL, 1ULL << below(nbytes * 8), rnd() };

	unsigned long long v = pick[below(ARRAY_SIZE(pick))];
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		b[nbytes - 1 - i] = (unsigned char)(v >> (8 * i));
}

/* One header field of the packet's type, set to an edge value. */
static void mutate_field(unsigned char *b, unsigned int len)
{
	/* (offset, size) of every field of each type's header */
	static const unsigned char common[][2] = { {0, 1}, {1, 1}, {2, 2}, {4, 2}, {6, 2},
						   {8, 4}, {12, 4} };
	static const unsigned char data[][2] = { {16, 4}, {20, 2}, {22, 2}, {24, 2}, {26, 2},
						 {28, 4}, {32, 4}, {36, 4} };
	static const unsigned char ack[][2] = { {16, 4}, {20, 4}, {24, 4}, {28, 4}, {32, 4},
						{36, 4}, {40, 2}, {42, 1}, {43, 1}, {44, 2},
						{46, 2} };
	static const unsigned char nack[][2] = { {16, 4}, {20, 1}, {21, 1}, {22, 2}, {24, 4},
						 {28, 4} };
	static const unsigned char ctrl[][2] = { {16, 1}, {17, 1}, {18, 2}, {20, 4} };
	static const struct {
		const unsigned char (*f)[2];
		unsigned int n;
	} by_type[] = {
		{ common, ARRAY_SIZE(common) },
		[MRT_TYPE_DATA] = { data, ARRAY_SIZE(data) },
		[MRT_TYPE_ACK] = { ack, ARRAY_SIZE(ack) },
		[MRT_TYPE_NACK] = { nack, ARRAY_SIZE(nack) },
		[MRT_TYPE_CTRL] = { ctrl, ARRAY_SIZE(ctrl) },
	};
	unsigned int t = 0, n, i;
	const unsigned char (*f)[2];

	if (len < MRT_HDR_LEN)
		return;
	if (below(3) && (b[0] & 15) < ARRAY_SIZE(by_type))
		t = b[0] & 15;
	f = by_type[t].f;
	n = by_type[t].n;
	i = below(n);
	if (f[i][0] + f[i][1] <= len)
		put_edge(b + f[i][0], f[i][1]);
}

/* A packet from mrt_build() with random fields, some in range. */
static unsigned int craft(unsigned char *b)
{
	struct mrt_pkt p = {
		.type = (u8)(1 + below(4)),
		.flags = (u8)(below(2) ? 0 : rnd()),
		.spdcid = (u16)(below(8) ? rnd() : 0),
		.dpdcid = (u16)(below(4) ? rnd() : 0),
		.ev = (u16)rnd(),
		.skey = (u32)(below(8) ? rnd() : 0),
		.dkey = (u32)(below(8) ? rnd() : 0),
	};
	unsigned int hl, plen = 0;

	switch (p.type) {
	case MRT_TYPE_DATA:
		if (!p.dpdcid)
			p.flags |= MRT_DATA_F_SYN;
		p.flags &= MRT_DATA_F_MASK;
		p.data.psn = (u32)rnd();
		p.data.start_psn = p.flags & MRT_DATA_F_SYN ?
				   p.data.psn - below(64) : 0;
		p.data.src_ep = (u16)rnd();
		/* the receiver's endpoints (mrtmsg.py's 7000) now and then */
		p.data.dst_ep = below(2) ? 7000 : (u16)rnd();
		p.data.msg_id = (u16)rnd();
		plen = below(4) ? below(1200) : 0;
		p.data.payload_len = (u16)(below(8) ? plen : rnd());
		p.data.msg_len = below(2) ? p.data.payload_len : (u32)rnd();
		p.data.msg_offset = below(2) ? 0 : below(p.data.msg_len + 1);
		break;
	case MRT_TYPE_ACK:
		p.flags &= MRT_ACK_F_MASK;
		p.ack.cack_psn = (u32)rnd();
		p.ack.ack_psn = p.ack.cack_psn + below(128);
		p.ack.sack_base_psn = p.ack.cack_psn;
		p.ack.sack_bitmap = rnd();
		p.ack.rcvd_bytes = (u32)rnd();
		p.ack.ooo_count = (u16)rnd();
		p.ack.rcv_cwnd_pen = (u8)below(140);
		p.ack.mpr = (u8)below(10);
		p.ack.service_time = (u16)rnd();
		break;
	case MRT_TYPE_NACK:
		p.flags &= MRT_NACK_F_MASK;
		p.nack.nack_psn = (u32)rnd();
		p.nack.nack_code = (u8)(below(2) ? below(18) : rnd());
		p.nack.rcvd_bytes = (u32)rnd();
		p.nack.payload = (u32)rnd();
		break;
	default:
		p.flags = below(8) ? 0 : p.flags;
		p.ctrl.ctl_type = (u8)below(8);
		p.ctrl.opaque = (u16)rnd();
		p.ctrl.psn = (u32)rnd();
	}
	hl = mrt_build(b, &p);
	/* trimmed, exact, or too long now and then */
	if (plen)
		plen = below(4) ? plen : below(plen + 8);
	memset(b + hl, 0x5a, plen);
	/* a short payload padded with zeros, mostly */
	if (p.type == MRT_TYPE_DATA && below(4)) {
		memset(b + hl + plen, 0, mrt_data_pad(plen));
		plen += mrt_data_pad(plen);
	}
	return hl + plen;
}

static void classify(struct tally *t, const unsigned char *b, unsigned int len)
{
	struct mrt_pkt p;
	int rc = mrt_parse(b, len, &p);

	t->sent++;
	if (rc)
		t->bad[mrt_bad_reason(rc)]++;
	else
		t->valid[p.type]++;
}

static void send_to(struct dest *d, struct tally *t, const unsigned char *b,
		    unsigned int len)
{
	if (sendto(d->fd, b, len, 0, (struct sockaddr *)&d->sa, d->salen) < 0) {
		send_errors++;
		return;
	}
	classify(t, b, len);
}

static enum kind draw(void)
{
	unsigned int r = below(100), k, acc = 0;

	for (k = 0; k < K_COUNT; k++) {
		acc += kind_weight[k];
		if (r < acc)
			return (enum kind)k;
	}
	return K_RANDOM;
}

static void tally_json(const char *name, const struct tally *t, int last)
{
	unsigned int i;

	printf("\"%s\": {\"sent\": %lu, ", name, t->sent);
	printf("\"valid\": {\"data\": %lu, \"ack\": %lu, \"nack\": %lu, \"ctrl\": %lu}, ",
	       t->valid[MRT_TYPE_DATA], t->valid[MRT_TYPE_ACK], t->valid[MRT_TYPE_NACK],
	       t->valid[MRT_TYPE_CTRL]);
	printf("\"malformed\": {");
	for (i = 0; i < MRT_BAD_COUNT; i++)
		printf("%s\"%s\": %lu", i ? ", " : "", mrt_malformed_names[i], t->bad[i]);
	printf("}}%s", last ? "" : ", ");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dst", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "port", required_argument, NULL, 'p' },
		{ "foreign", required_argument, NULL, 'f' },
		{ "sender", required_argument, NULL, 't' },
		{ "receiver", required_argument, NULL, 'r' },
		{ "dev", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dst = NULL, *src = NULL, *foreign = NULL, *sender = NULL;
	const char *receiver = NULL, *dev = NULL;
	unsigned long count = 0, i, seed = 1;
	struct dest fx, rp, ra;
	unsigned char b[PKT_MAX + 64];
	unsigned short len;
	const unsigned char *c;
	double t0, t1;
	int port = 4794, cap, o;
	unsigned int l, j;
	enum kind k;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (o == 'd')
			dst = optarg;
		else if (o == 's')
			src = optarg;
		else if (o == 'n')
			count = strtoul(optarg, NULL, 0);
		else if (o == 'S')
			seed = strtoul(optarg, NULL, 0);
		else if (o == 'p')
			port = atoi(optarg);
		else if (o == 'f')
			foreign = optarg;
		else if (o == 't')
			sender = optarg;
		else if (o == 'r')
			receiver = optarg;
		else if (o == 'i')
			dev = optarg;
		else
			usage();
	}
	if (!dst || !src || !count || !foreign || !sender || !receiver || !dev)
		usage();
	rng_state = seed;

	dest_init(&fx, foreign, dst, port);
	dest_init(&ra, receiver, src, port);
	dest_init(&rp, sender, dst, port);
	cap = cap_open(sender, dev);	/* last: stays in the sender's netns */

	/* the transfer's packets, both ways, before the first mutation */
	t0 = now_s();
	while ((to_rx.n < 16 || to_tx.n < 16) && now_s() - t0 < 60) {
		cap_drain(cap, port);
		usleep(10000);
	}
	if (to_rx.n < 16 || to_tx.n < 16) {
		fprintf(stderr, "pktfuzz: captured only %u and %u packets of the transfer on %s\n",
			to_rx.n, to_tx.n, dev);
		return 1;
	}

	t0 = now_s();
	for (i = 0; i < count; i++) {
		if (!(i & 63))
			cap_drain(cap, port);
		k = draw();
		kinds[k]++;
		switch (k) {
		case K_REPLAY:
			j = below(to_rx.n);
			send_to(&rp, &at_rx, to_rx.pkt[j], to_rx.len[j]);
			continue;
		case K_REPLAY_ACK:
			j = below(to_tx.n);
			send_to(&ra, &at_tx, to_tx.pkt[j], to_tx.len[j]);
			continue;
		case K_RANDOM:
			l = below(4) ? below(64) : below(PKT_MAX);
			for (j = 0; j < l; j++)
				b[j] = (unsigned char)rnd();
			if (l && below(2))
				b[0] = (unsigned char)(MRT_WIRE_VERSION << 4 | (1 + below(4)));
			break;
		case K_CRAFT:
			l = craft(b);
			break;
		default:
			c = pick(&len);
			memcpy(b, c, len);
			l = len;
			if (k == K_FLIP) {
				for (j = below(8) + 1; j && l; j--) {
					unsigned int bit = below(4) ? below(min(l, 40u) * 8) :
								      below(l * 8);

					b[bit / 8] ^= (unsigned char)(1 << (bit % 8));
				}
			} else if (k == K_TRUNC) {
				l = below(l);
			} else if (k == K_EXTEND) {
				for (j = below(16) + 1; j; j--)
					b[l++] = (unsigned char)rnd();
			} else {
				mutate_field(b, l);
			}
		}
		send_to(&fx, &at_rx, b, l);
	}
	t1 = now_s();
	cap_drain(cap, port);

	printf("{\"packets\": %lu, \"seconds\": %.3f, \"pps\": %.0f, \"seed\": %lu, ",
	       count, t1 - t0, (double)count / (t1 - t0 > 0 ? t1 - t0 : 1), seed);
	printf("\"captured\": %lu, \"trains\": %lu, \"send_errors\": %lu, \"kinds\": {",
	       captured, trains, send_errors);
	for (j = 0; j < K_COUNT; j++)
		printf("%s\"%s\": %lu", j ? ", " : "", kind_names[j], kinds[j]);
	printf("}, ");
	tally_json("receiver", &at_rx, 0);
	tally_json("sender", &at_tx, 1);
	printf("}\n");
	return 0;
}

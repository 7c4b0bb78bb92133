// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl sock show: the TCP sockets whose congestion control is one of
 * the modules', through sock_diag (the interface of ss).
 *
 * One SOCK_DIAG_BY_FAMILY dump per address family (AF_INET, AF_INET6) of
 * TCP sockets in every state but LISTEN and TIME_WAIT, asking for
 * INET_DIAG_INFO (struct tcp_info), INET_DIAG_CONG (the congestion
 * control's name) and the congestion control's own attribute.  Of those
 * idiag_ext has only 8 bits: INET_DIAG_BBRINFO (16) and INET_DIAG_DCTCPINFO
 * (9) cannot be asked for by their own bits, and are asked for as
 * INET_DIAG_VEGASINFO, as ss does and as the kernel's bbr and dctcp and the
 * modules' get_info() expect.  The modules answer in those attribute types
 * with their own layouts (struct fabric_nscc_info, fabric_swift_info,
 * fabric_dcqcn_info in include/uapi/linux/fabric.h), decoded here under
 * the header's names; ratios are printed as decimals, rates in bit/s.
 *
 * The kernel's struct tcp_info grows over time: each field is read only
 * if the attribute is long enough to hold it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include <linux/fabric.h>

#include "fabctl.h"

/* include/net/tcp_states.h, which is not uapi. */
enum {
	SK_TCP_ESTABLISHED = 1,
	SK_TCP_SYN_SENT,
	SK_TCP_SYN_RECV,
	SK_TCP_FIN_WAIT1,
	SK_TCP_FIN_WAIT2,
	SK_TCP_TIME_WAIT,
	SK_TCP_CLOSE,
	SK_TCP_CLOSE_WAIT,
	SK_TCP_LAST_ACK,
	SK_TCP_LISTEN,
	SK_TCP_CLOSING,
	SK_TCP_NEW_SYN_RECV,
	SK_TCP_MAX_STATES
};

/* ss's names. */
static const char *const tcp_state_names[SK_TCP_MAX_STATES] = {
	[SK_TCP_ESTABLISHED]	= "ESTAB",
	[SK_TCP_SYN_SENT]	= "SYN-SENT",
	[SK_TCP_SYN_RECV]	= "SYN-RECV",
	[SK_TCP_FIN_WAIT1]	= "FIN-WAIT-1",
	[SK_TCP_FIN_WAIT2]	= "FIN-WAIT-2",
	[SK_TCP_TIME_WAIT]	= "TIME-WAIT",
	[SK_TCP_CLOSE]		= "UNCONN",
	[SK_TCP_CLOSE_WAIT]	= "CLOSE-WAIT",
	[SK_TCP_LAST_ACK]	= "LAST-ACK",
	[SK_TCP_LISTEN]		= "LISTEN",
	[SK_TCP_CLOSING]	= "CLOSING",
	[SK_TCP_NEW_SYN_RECV]	= "SYN-RECV",
};

#define SOCK_STATES	(~(1U << SK_TCP_LISTEN | 1U << SK_TCP_TIME_WAIT))
#define SOCK_EXT	(1 << (INET_DIAG_INFO - 1) |		\
			 1 << (INET_DIAG_VEGASINFO - 1) |	\
			 1 << (INET_DIAG_CONG - 1))

enum sock_cc {
	CC_NSCC,
	CC_SWIFT,
	CC_DCQCN,
};

static const struct {
	const char *name;
	uint16_t attr;			/* the attribute of its info */
	size_t size;			/* the least length of it */
} sock_ccs[] = {
	[CC_NSCC]	= { "nscc", INET_DIAG_BBRINFO,
			    sizeof(struct fabric_nscc_info) },
	[CC_SWIFT]	= { "swift", INET_DIAG_BBRINFO,
			    sizeof(struct fabric_swift_info) },
	[CC_DCQCN]	= { "dcqcn", INET_DIAG_DCTCPINFO,
			    sizeof(struct fabric_dcqcn_info) },
};

#define SOCK_DIAG_MAX	INET_DIAG_BBRINFO

static const enum mnl_attr_data_type sock_policy[SOCK_DIAG_MAX + 1] = {
	[INET_DIAG_CONG]	= MNL_TYPE_NUL_STRING,
};

/*
 * The fields of struct tcp_info shown, all u32 but the pacing rate; a
 * field beyond the attribute's length (an older kernel's) is unknown.
 */
static const struct {
	const char *key;
	size_t off;
} tcpi_u32[] = {
	{ "snd_cwnd",	offsetof(struct tcp_info, tcpi_snd_cwnd) },
	{ "snd_mss",	offsetof(struct tcp_info, tcpi_snd_mss) },
	{ "rtt_us",	offsetof(struct tcp_info, tcpi_rtt) },
	{ "min_rtt_us",	offsetof(struct tcp_info, tcpi_min_rtt) },
};

#define TCPI_PACING_RATE	offsetof(struct tcp_info, tcpi_pacing_rate)

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return p > UINT64_MAX ? UINT64_MAX : (uint64_t)p;
}

/* "198.18.0.1:5201" or "[2001:db8::1]:5201". */
static void fmt_addr(char *buf, size_t size, int family, const __be32 *addr,
		     __be16 port)
{
	char a[INET6_ADDRSTRLEN];

	if (!inet_ntop(family, addr, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	snprintf(buf, size, family == AF_INET6 ? "[%s]:%u" : "%s:%u", a,
		 ntohs(port));
}

static void sock_tcp_info(struct kv_out *o, const struct nlattr *attr)
{
	const char *p = attr ? mnl_attr_get_payload(attr) : NULL;
	size_t len = attr ? mnl_attr_get_payload_len(attr) : 0;
	unsigned int i;
	uint64_t rate;
	uint32_t v;

	for (i = 0; i < ARRAY_SIZE(tcpi_u32); i++) {
		/* ~0: none yet (tcpi_min_rtt before the first sample) */
		if (len >= tcpi_u32[i].off + sizeof(v)) {
			memcpy(&v, p + tcpi_u32[i].off, sizeof(v));
			if (v != ~0U) {
				kv_u64(o, tcpi_u32[i].key, v);
				continue;
			}
		}
		kv_none(o, tcpi_u32[i].key);
	}
	/* Bytes per second; ~0: unlimited. */
	if (len >= TCPI_PACING_RATE + sizeof(rate)) {
		memcpy(&rate, p + TCPI_PACING_RATE, sizeof(rate));
		if (rate != ~0ULL) {
			kv_u64(o, "pacing_rate_bps", sat_mul(rate, 8));
			return;
		}
	}
	kv_none(o, "pacing_rate_bps");
}

static void sock_nscc(struct kv_out *o, const struct fabric_nscc_info *i)
{
	uint64_t rate = (uint64_t)i->rate_hi << 32 | i->rate_lo;
	unsigned __int128 wnd = (unsigned __int128)rate * i->base_rtt_us /
				1000000;

	kv_u64(o, "rate_bps", sat_mul(rate, 8));
	kv_u64(o, "base_rtt_us", i->base_rtt_us);
	kv_ratio(o, "delay_ratio", i->delay_ratio_q8, 256);
	kv_ratio(o, "window_ratio", i->window_ratio_q8, 256);
	kv_u64(o, "window_bytes", wnd > UINT64_MAX ? UINT64_MAX :
		(uint64_t)wnd);
}

static void sock_swift(struct kv_out *o, const struct fabric_swift_info *i)
{
	uint64_t rate = (uint64_t)i->rate_hi << 32 | i->rate_lo;

	kv_u64(o, "rate_bps", sat_mul(rate, 8));
	kv_u64(o, "target_us", i->target_us);
	kv_ratio(o, "window_pkts", i->window_q8, 256);
	kv_ratio(o, "delay_ratio", i->delay_ratio_q8, 256);
}

static void sock_dcqcn(struct kv_out *o, const struct fabric_dcqcn_info *i)
{
	kv_u64(o, "congested", i->congested);
	kv_ratio(o, "alpha", i->alpha_q10, 1024);
	kv_u64(o, "ce_delivered", i->ce_delivered);
	kv_u64(o, "segs_out", i->segs_out);
}

static int sock_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[SOCK_DIAG_MAX + 1], *info;
	union {
		struct fabric_nscc_info nscc;
		struct fabric_swift_info swift;
		struct fabric_dcqcn_info dcqcn;
	} cc;
	const struct inet_diag_msg *r;
	struct kv_out o = *(struct kv_out *)data;
	char addr[INET6_ADDRSTRLEN + 16];
	size_t len = mnl_nlmsg_get_payload_len(nlh);
	const char *cong, *state;
	unsigned int i;

	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY)
		return nl_bad_reply("sock_diag message type %u",
				    nlh->nlmsg_type);
	if (len < sizeof(*r))
		return nl_bad_reply("inet_diag_msg of %zu bytes", len);
	r = mnl_nlmsg_get_payload(nlh);
	if (r->idiag_family != AF_INET && r->idiag_family != AF_INET6)
		return nl_bad_reply("inet_diag_msg of family %u",
				    r->idiag_family);
	if (nl_parse((const char *)r + MNL_ALIGN(sizeof(*r)),
		     len - MNL_ALIGN(sizeof(*r)), sock_policy, SOCK_DIAG_MAX,
		     tb, "inet_diag_msg") < 0)
		return MNL_CB_ERROR;
	if (!tb[INET_DIAG_CONG])
		return MNL_CB_OK;
	cong = mnl_attr_get_str(tb[INET_DIAG_CONG]);
	for (i = 0; i < ARRAY_SIZE(sock_ccs); i++)
		if (!strcmp(cong, sock_ccs[i].name))
			break;
	if (i == ARRAY_SIZE(sock_ccs))
		return MNL_CB_OK;

	if (o.fc->json)
		json_begin_object(o.j);
	fmt_addr(addr, sizeof(addr), r->idiag_family, r->id.idiag_src,
		 r->id.idiag_sport);
	kv_str(&o, "local", addr);
	fmt_addr(addr, sizeof(addr), r->idiag_family, r->id.idiag_dst,
		 r->id.idiag_dport);
	kv_str(&o, "remote", addr);
	state = r->idiag_state < SK_TCP_MAX_STATES ?
		tcp_state_names[r->idiag_state] : NULL;
	if (state)
		kv_str(&o, "state", state);
	else
		kv_u64(&o, "state", r->idiag_state);
	kv_str(&o, "cc", cong);
	sock_tcp_info(&o, tb[INET_DIAG_INFO]);

	/* The module's own fields, if given (nscc: once it has a window). */
	info = tb[sock_ccs[i].attr];
	if (info && mnl_attr_get_payload_len(info) >= sock_ccs[i].size) {
		memcpy(&cc, mnl_attr_get_payload(info), sock_ccs[i].size);
		if (i == CC_NSCC)
			sock_nscc(&o, &cc.nscc);
		else if (i == CC_SWIFT)
			sock_swift(&o, &cc.swift);
		else
			sock_dcqcn(&o, &cc.dcqcn);
	}
	if (o.fc->json)
		json_end_object(o.j);
	else
		fputc('\n', o.fc->out);
	return MNL_CB_OK;
}

static int sock_dump(struct nl_sock *s, struct kv_out *o, uint8_t family)
{
	struct inet_diag_req_v2 *req;
	struct nlmsghdr *nlh;

	nlh = mnl_nlmsg_put_header(s->tx);
	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++s->seq;
	req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));
	req->sdiag_family = family;
	req->sdiag_protocol = IPPROTO_TCP;
	req->idiag_ext = SOCK_EXT;
	req->idiag_states = SOCK_STATES;
	return nl_talk(s, nlh, sock_cb, o);
}

static int sock_show(struct fabctl *fc, int argc, char **argv)
{
	struct kv_out o = { .fc = fc, .first = true };
	struct nl_sock s;
	struct json j;
	int ret;

	if (argc) {
		usage_error("sock show: unexpected argument \"%s\"", argv[0]);
		return FABCTL_EXIT_USAGE;
	}
	if (nl_open(&s, NETLINK_SOCK_DIAG) < 0) {
		nl_perror("sock_diag");
		return FABCTL_EXIT_ERROR;
	}
	json_init(&j, fc->out, fc->pretty);
	o.j = &j;
	if (fc->json)
		json_begin_array(&j);
	ret = sock_dump(&s, &o, AF_INET);
	/* A kernel without IPv6 has no AF_INET6 sockets to show. */
	if (!ret && sock_dump(&s, &o, AF_INET6) < 0 &&
	    nl_error() != EAFNOSUPPORT && nl_error() != ENOENT)
		ret = -1;
	nl_close(&s);
	if (ret < 0) {
		nl_perror("sock_diag");
		return FABCTL_EXIT_ERROR;
	}
	if (fc->json)
		json_end_array(&j);
	return FABCTL_EXIT_OK;
}

int cmd_sock(struct fabctl *fc, int argc, char **argv)
{
	/* "fabctl sock" alone is sock show. */
	if (!argc || !strcmp(argv[0], "show"))
		return sock_show(fc, argc ? argc - 1 : 0, argv + !!argc);
	usage_error("sock: unknown subcommand \"%s\" (show)", argv[0]);
	return FABCTL_EXIT_USAGE;
}

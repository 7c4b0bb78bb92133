// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl mrt dest show [ADDR] and fabctl mrt pdc show [LID]: the mrt
 * transport's destinations and PDCs, from the "mrt" generic netlink family
 * (include/uapi/linux/mrt_nl.h): a dump, or a do for the one named.
 * fabctl mrt ev show [ADDR]: the EVs of every destination, or of one (a
 * dump with a filter), as a table per destination followed by the deny
 * rules for it; fabctl mrt ev deny|allow ADDR EV|FIRST-LAST sets them
 * (MRT_NL_CMD_EV_SET) and fabctl mrt ev rules lists the namespace's rules.
 *
 * Each object is one line of "key value" pairs, as sock show prints, or
 * one JSON object in an array.  Keys are the attributes' names in
 * snake_case (the spec's, Documentation/netlink/specs/mrt.yaml), in the
 * order of the tables below, and only those the kernel sent: a sending
 * PDC has no cack_psn, a receiving one no una_psn, and without
 * CAP_NET_ADMIN a PDC has no lid, rid, PSNs, key or rkey (the kernel keeps
 * them from other users, and refuses pdc show LID).  Addresses print as
 * IPv4 when they are IPv4-mapped; role, state and family as names; a
 * PDC's key and rkey as 8 hex digits, a string in JSON too, as
 * /proc/net/mrt/pdcs prints them.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/mrt_nl.h>

#include "fabctl.h"

enum mrt_kind {
	K_U16,
	K_U32,
	K_U64,
	K_ADDR,
	K_ROLE,
	K_STATE,
	K_FAMILY,
	K_U8,
	K_EVSTATE,
	K_HEX32,
};

/* fabctl.h: monitor.c prints them too */
const char *const mrt_ev_states[MRT_EV_NSTATES] = {
	"good", "skip", "assumed_bad", "denied",
};

const char *const mrt_ev_whys[MRT_EV_NWHYS] = {
	"ecn", "trim", "credit", "losses", "rto", "probe", "deny", "allow",
};

struct mrt_field {
	uint16_t type;
	const char *key;
	enum mrt_kind kind;
};

static const struct mrt_field dest_fields[] = {
	{ MRT_NL_DEST_A_ADDR,		"addr",			K_ADDR },
	{ MRT_NL_DEST_A_REFS,		"refs",			K_U32 },
	{ MRT_NL_DEST_A_CWND_BYTES,	"cwnd_bytes",		K_U64 },
	{ MRT_NL_DEST_A_MAX_CWND_BYTES,	"max_cwnd_bytes",	K_U64 },
	{ MRT_NL_DEST_A_INFLIGHT_BYTES,	"inflight_bytes",	K_U64 },
	{ MRT_NL_DEST_A_BASE_RTT_NS,	"base_rtt_ns",		K_U64 },
	{ MRT_NL_DEST_A_AVG_DELAY_NS,	"avg_delay_ns",		K_U64 },
	{ MRT_NL_DEST_A_SRTT_US,	"srtt_us",		K_U32 },
	{ MRT_NL_DEST_A_RCV_CWND_PEN,	"rcv_cwnd_pen",		K_U32 },
	{ MRT_NL_DEST_A_QA_COUNT,	"qa_count",		K_U64 },
	{ MRT_NL_DEST_A_FI_COUNT,	"fi_count",		K_U64 },
	{ MRT_NL_DEST_A_WAITING,	"waiting",		K_U32 },
	{ MRT_NL_DEST_A_EV_COUNT,	"ev_count",		K_U16 },
	{ MRT_NL_DEST_A_EV_USABLE,	"ev_usable",		K_U16 },
	{ MRT_NL_DEST_A_EV_BASE,	"ev_base",		K_U16 },
	{ MRT_NL_DEST_A_OWN_EVS,	"own_evs",		K_U8 },
};

static const struct mrt_field ev_fields[] = {
	{ MRT_NL_EV_A_ADDR,		"addr",			K_ADDR },
	{ MRT_NL_EV_A_PORT,		"port",			K_U16 },
	{ MRT_NL_EV_A_STATE,		"state",		K_EVSTATE },
	{ MRT_NL_EV_A_USABLE,		"usable",		K_U16 },
	{ MRT_NL_EV_A_COUNT,		"count",		K_U16 },
	{ MRT_NL_EV_A_CREDIT,		"credit",		K_U16 },
	{ MRT_NL_EV_A_LOSS_RUN,		"loss_run",		K_U8 },
	{ MRT_NL_EV_A_PROBE_IN_US,	"probe_in_us",		K_U32 },
	{ MRT_NL_EV_A_PKTS,		"pkts",			K_U64 },
	{ MRT_NL_EV_A_ECN,		"ecn",			K_U64 },
	{ MRT_NL_EV_A_TRIMS,		"trims",		K_U64 },
	{ MRT_NL_EV_A_NACKS,		"nacks",		K_U64 },
	{ MRT_NL_EV_A_LOSSES,		"losses",		K_U64 },
	{ MRT_NL_EV_A_RTOS,		"rtos",			K_U64 },
	{ MRT_NL_EV_A_PROBES,		"probes",		K_U64 },
	{ MRT_NL_EV_A_CHANGES,		"changes",		K_U64 },
};

/* A deny rule: the same nest, three fields. */
static const struct mrt_field rule_fields[] = {
	{ MRT_NL_EV_A_ADDR,		"addr",			K_ADDR },
	{ MRT_NL_EV_A_PORT,		"port",			K_U16 },
	{ MRT_NL_EV_A_PORT_LAST,	"port_last",		K_U16 },
};

static const struct mrt_field pdc_fields[] = {
	{ MRT_NL_PDC_A_LID,		"lid",			K_U16 },
	{ MRT_NL_PDC_A_RID,		"rid",			K_U16 },
	{ MRT_NL_PDC_A_KEY,		"key",			K_HEX32 },
	{ MRT_NL_PDC_A_RKEY,		"rkey",			K_HEX32 },
	{ MRT_NL_PDC_A_ROLE,		"role",			K_ROLE },
	{ MRT_NL_PDC_A_STATE,		"state",		K_STATE },
	{ MRT_NL_PDC_A_FAMILY,		"family",		K_FAMILY },
	{ MRT_NL_PDC_A_LOCAL_ADDR,	"local_addr",		K_ADDR },
	{ MRT_NL_PDC_A_LOCAL_EP,	"local_ep",		K_U16 },
	{ MRT_NL_PDC_A_PEER_ADDR,	"peer_addr",		K_ADDR },
	{ MRT_NL_PDC_A_PEER_EP,		"peer_ep",		K_U16 },
	{ MRT_NL_PDC_A_EV,		"ev",			K_U16 },
	{ MRT_NL_PDC_A_RANGE,		"range",		K_U32 },
	{ MRT_NL_PDC_A_IDLE_MS,		"idle_ms",		K_U32 },
	{ MRT_NL_PDC_A_UNA_PSN,		"una_psn",		K_U32 },
	{ MRT_NL_PDC_A_NXT_PSN,		"nxt_psn",		K_U32 },
	{ MRT_NL_PDC_A_RTX_QUEUED,	"rtx_queued",		K_U32 },
	{ MRT_NL_PDC_A_MSGS_QUEUED,	"msgs_queued",		K_U32 },
	{ MRT_NL_PDC_A_SRTT_US,		"srtt_us",		K_U32 },
	{ MRT_NL_PDC_A_RTTVAR_US,	"rttvar_us",		K_U32 },
	{ MRT_NL_PDC_A_RTO_US,		"rto_us",		K_U32 },
	{ MRT_NL_PDC_A_CWND_BYTES,	"cwnd_bytes",		K_U64 },
	{ MRT_NL_PDC_A_INFLIGHT_BYTES,	"inflight_bytes",	K_U64 },
	{ MRT_NL_PDC_A_CACK_PSN,	"cack_psn",		K_U32 },
	{ MRT_NL_PDC_A_RCVD_BYTES,	"rcvd_bytes",		K_U64 },
	{ MRT_NL_PDC_A_OOO_PKTS,	"ooo_pkts",		K_U32 },
	{ MRT_NL_PDC_A_RCV_CWND_PEN,	"rcv_cwnd_pen",		K_U32 },
	{ MRT_NL_PDC_A_PKTS,		"pkts",			K_U64 },
	{ MRT_NL_PDC_A_MSGS,		"msgs",			K_U64 },
	{ MRT_NL_PDC_A_TRIMS,		"trims",		K_U64 },
	{ MRT_NL_PDC_A_ECN,		"ecn",			K_U64 },
	{ MRT_NL_PDC_A_RTX_SACK,	"rtx_sack",		K_U64 },
	{ MRT_NL_PDC_A_RTX_TRIM,	"rtx_trim",		K_U64 },
	{ MRT_NL_PDC_A_RTX_RTO,		"rtx_rto",		K_U64 },
	{ MRT_NL_PDC_A_RTO_EVENTS,	"rto_events",		K_U64 },
};

/* The top-level attributes; others (a newer kernel's) are ignored. */
static const enum mnl_attr_data_type mrt_top_policy[MRT_NL_A_MAX + 1] = {
	[MRT_NL_A_NETNS_INUM]	= MNL_TYPE_U32,
	[MRT_NL_A_DEST]		= MNL_TYPE_NESTED,
	[MRT_NL_A_PDC]		= MNL_TYPE_NESTED,
	[MRT_NL_A_EV]		= MNL_TYPE_NESTED,
};

/* One object kind: its command, nest and fields. */
struct mrt_obj {
	const char *name;		/* "dest", "pdc" */
	uint8_t cmd;
	uint16_t nest;
	uint16_t key;			/* the attribute a do names */
	uint16_t need;			/* one every object has, for everyone */
	const char *need_name;
	uint16_t max;			/* of the nest's attributes */
	const struct mrt_field *fields;
	size_t nfields;
	bool table;			/* text: a table (mrt_ev_row) */
};

static const struct mrt_obj mrt_dest = {
	.name = "dest", .cmd = MRT_NL_CMD_DEST_GET, .nest = MRT_NL_A_DEST,
	.key = MRT_NL_DEST_A_ADDR, .max = MRT_NL_DEST_A_MAX,
	.need = MRT_NL_DEST_A_ADDR, .need_name = "addr",
	.fields = dest_fields, .nfields = ARRAY_SIZE(dest_fields),
};

static const struct mrt_obj mrt_pdc = {
	.name = "pdc", .cmd = MRT_NL_CMD_PDC_GET, .nest = MRT_NL_A_PDC,
	.key = MRT_NL_PDC_A_LID, .max = MRT_NL_PDC_A_MAX,
	/* not lid: only CAP_NET_ADMIN gets the ids */
	.need = MRT_NL_PDC_A_ROLE, .need_name = "role",
	.fields = pdc_fields, .nfields = ARRAY_SIZE(pdc_fields),
};

static const struct mrt_obj mrt_ev = {
	.name = "ev", .cmd = MRT_NL_CMD_EV_GET, .nest = MRT_NL_A_EV,
	.key = MRT_NL_EV_A_PORT, .max = MRT_NL_EV_A_MAX,
	.need = MRT_NL_EV_A_PORT, .need_name = "port",
	.fields = ev_fields, .nfields = ARRAY_SIZE(ev_fields), .table = true,
};

static const struct mrt_obj mrt_rule = {
	.name = "rule", .cmd = MRT_NL_CMD_DENY_GET, .nest = MRT_NL_A_EV,
	.key = MRT_NL_EV_A_PORT, .max = MRT_NL_EV_A_MAX,
	.need = MRT_NL_EV_A_PORT, .need_name = "port",
	.fields = rule_fields, .nfields = ARRAY_SIZE(rule_fields),
};

/* above every nest's maximum */
#define MRT_NEST_MAX	63
_Static_assert(MRT_NEST_MAX >= (int)MRT_NL_PDC_A_MAX &&
	       MRT_NEST_MAX >= (int)MRT_NL_DEST_A_MAX &&
	       MRT_NEST_MAX >= (int)MRT_NL_EV_A_MAX, "MRT_NEST_MAX");

/* ev show, text: the destination of the table being printed. */
struct mrt_ev_table {
	bool open;
	struct in6_addr addr;
	unsigned int port;		/* the last row's */
	struct in6_addr *addrs;		/* those shown, for their rules */
	size_t naddrs;
};

struct mrt_ctx {
	struct fabctl *fc;
	struct json j;
	const struct mrt_obj *obj;
	uint16_t family;
	struct mrt_ev_table t;
	const struct in6_addr *only;	/* rules: of this address only */
	bool any;			/* rules: one was printed */
};

static const enum mnl_attr_data_type mnl_type[] = {
	[K_U16] = MNL_TYPE_U16, [K_U32] = MNL_TYPE_U32,
	[K_U64] = MNL_TYPE_U64, [K_ADDR] = MNL_TYPE_BINARY,
	[K_ROLE] = MNL_TYPE_U8, [K_STATE] = MNL_TYPE_U8,
	[K_FAMILY] = MNL_TYPE_U8, [K_U8] = MNL_TYPE_U8,
	[K_EVSTATE] = MNL_TYPE_U8, [K_HEX32] = MNL_TYPE_U32,
};

/* "198.18.0.2" for an IPv4-mapped address, else IPv6. */
void fmt_mrt_addr(char *buf, size_t size, const void *a16)
{
	const struct in6_addr *a = a16;

	if (IN6_IS_ADDR_V4MAPPED(a))
		inet_ntop(AF_INET, &a->s6_addr[12], buf, size);
	else
		inet_ntop(AF_INET6, a, buf, size);
}

static void put_field(struct kv_out *o, const struct mrt_field *f,
		      const struct nlattr *a)
{
	static const char *const roles[] = { "tx", "rx" };
	static const char *const states[] = { "syn", "open", "closed", "linger" };
	char buf[INET6_ADDRSTRLEN];
	uint8_t v8;

	switch (f->kind) {
	case K_HEX32:
		snprintf(buf, sizeof(buf), "%08x", mnl_attr_get_u32(a));
		kv_str(o, f->key, buf);
		break;
	case K_U16:
		kv_u64(o, f->key, mnl_attr_get_u16(a));
		break;
	case K_U32:
		kv_u64(o, f->key, mnl_attr_get_u32(a));
		break;
	case K_U64:
		kv_u64(o, f->key, mnl_attr_get_u64(a));
		break;
	case K_ADDR:
		fmt_mrt_addr(buf, sizeof(buf), mnl_attr_get_payload(a));
		kv_str(o, f->key, buf);
		break;
	case K_ROLE:
	case K_STATE:
		v8 = mnl_attr_get_u8(a);
		if (f->kind == K_ROLE && v8 < ARRAY_SIZE(roles))
			kv_str(o, f->key, roles[v8]);
		else if (f->kind == K_STATE && v8 < ARRAY_SIZE(states))
			kv_str(o, f->key, states[v8]);
		else
			kv_u64(o, f->key, v8);	/* a newer kernel's */
		break;
	case K_FAMILY:
		v8 = mnl_attr_get_u8(a);
		if (v8 == AF_INET || v8 == AF_INET6)
			kv_str(o, f->key, v8 == AF_INET ? "inet" : "inet6");
		else
			kv_u64(o, f->key, v8);
		break;
	case K_U8:
		kv_u64(o, f->key, mnl_attr_get_u8(a));
		break;
	case K_EVSTATE:
		v8 = mnl_attr_get_u8(a);
		if (v8 < ARRAY_SIZE(mrt_ev_states))
			kv_str(o, f->key, mrt_ev_states[v8]);
		else
			kv_u64(o, f->key, v8);
		break;
	}
}

static uint64_t nt_u64(const struct nlattr *a, enum mrt_kind k)
{
	if (!a)
		return 0;
	switch (k) {
	case K_U64:
		return mnl_attr_get_u64(a);
	case K_U32:
		return mnl_attr_get_u32(a);
	case K_U16:
		return mnl_attr_get_u16(a);
	default:
		return mnl_attr_get_u8(a);
	}
}

#define EV_HEAD	"%7s %-12s %6s %10s %8s %8s %8s %8s %6s %7s %8s\n"
#define EV_ROW	"%7u %-12s %6u %10llu %8llu %8llu %8llu %8llu %6llu %7llu %8llu\n"

/* ev show, text: one row, and a heading when the destination changes. */
static void mrt_ev_row(struct mrt_ctx *ctx, const struct nlattr **nt)
{
	const struct in6_addr *a = mnl_attr_get_payload(nt[MRT_NL_EV_A_ADDR]);
	struct mrt_ev_table *t = &ctx->t;
	FILE *out = ctx->fc->out;
	char buf[INET6_ADDRSTRLEN];
	uint8_t st;

	/* a new destination: another address, or the ports start again (a
	 * socket's own EV set at the same address)
	 */
	if (!t->open || memcmp(&t->addr, a, sizeof(*a)) ||
	    mnl_attr_get_u16(nt[MRT_NL_EV_A_PORT]) <= t->port) {
		struct in6_addr *n;
		size_t i;

		for (i = 0; i < t->naddrs; i++)
			if (!memcmp(&t->addrs[i], a, sizeof(*a)))
				break;
		n = i < t->naddrs ? t->addrs :
		    realloc(t->addrs, (t->naddrs + 1) * sizeof(*n));
		if (n && i == t->naddrs) {
			t->addrs = n;
			t->addrs[t->naddrs++] = *a;
		}
		fmt_mrt_addr(buf, sizeof(buf), a);
		fprintf(out, "%sdest %s usable %llu/%llu\n", t->open ? "\n" : "",
			buf,
			(unsigned long long)nt_u64(nt[MRT_NL_EV_A_USABLE], K_U16),
			(unsigned long long)nt_u64(nt[MRT_NL_EV_A_COUNT], K_U16));
		fprintf(out, EV_HEAD, "ev", "state", "credit", "pkts", "ecn",
			"trims", "nacks", "losses", "rtos", "probes", "changes");
		t->open = true;
		t->addr = *a;
	}
	t->port = mnl_attr_get_u16(nt[MRT_NL_EV_A_PORT]);
	st = nt[MRT_NL_EV_A_STATE] ? mnl_attr_get_u8(nt[MRT_NL_EV_A_STATE]) : 255;
	fprintf(out, EV_ROW, mnl_attr_get_u16(nt[MRT_NL_EV_A_PORT]),
		st < ARRAY_SIZE(mrt_ev_states) ? mrt_ev_states[st] : "?",
		(unsigned int)nt_u64(nt[MRT_NL_EV_A_CREDIT], K_U16),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_PKTS], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_ECN], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_TRIMS], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_NACKS], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_LOSSES], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_RTOS], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_PROBES], K_U64),
		(unsigned long long)nt_u64(nt[MRT_NL_EV_A_CHANGES], K_U64));
}

static int mrt_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRT_NL_A_MAX + 1], *nt[MRT_NEST_MAX + 1];
	enum mnl_attr_data_type policy[MRT_NEST_MAX + 1] = { 0 };
	struct mrt_ctx *ctx = data;
	const struct mrt_obj *obj = ctx->obj;
	struct kv_out o = { .fc = ctx->fc, .j = &ctx->j, .first = true };
	const void *attrs;
	size_t len, i;

	if (genl_attrs(nlh, ctx->family, &attrs, &len) < 0 ||
	    nl_parse(attrs, len, mrt_top_policy, MRT_NL_A_MAX, tb,
		     "mrt reply") < 0)
		return MNL_CB_ERROR;
	if (!tb[obj->nest])
		return nl_bad_reply("mrt %s reply without its nest", obj->name);
	for (i = 0; i < obj->nfields; i++)
		policy[obj->fields[i].type] = mnl_type[obj->fields[i].kind];
	if (nl_parse_nest(tb[obj->nest], policy, obj->max, nt, obj->name) < 0)
		return MNL_CB_ERROR;
	/* Every field is checked before the object's first is printed. */
	for (i = 0; i < obj->nfields; i++) {
		const struct nlattr *a = nt[obj->fields[i].type];

		if (a && obj->fields[i].kind == K_ADDR &&
		    mnl_attr_get_payload_len(a) != sizeof(struct in6_addr))
			return nl_bad_reply("mrt %s: %s of %u bytes", obj->name,
					    obj->fields[i].key,
					    mnl_attr_get_payload_len(a));
	}
	if (!nt[obj->need])
		return nl_bad_reply("mrt %s without its %s", obj->name,
				    obj->need_name);
	if (obj->nest == MRT_NL_A_EV && !nt[MRT_NL_EV_A_ADDR])
		return nl_bad_reply("mrt %s without its addr", obj->name);
	if (ctx->only && memcmp(mnl_attr_get_payload(nt[MRT_NL_EV_A_ADDR]),
				ctx->only, sizeof(*ctx->only)))
		return MNL_CB_OK;
	ctx->any = true;
	if (ctx->only && nt[MRT_NL_EV_A_PORT_LAST]) {
		fprintf(ctx->fc->out, "  %u-%u\n",
			mnl_attr_get_u16(nt[MRT_NL_EV_A_PORT]),
			mnl_attr_get_u16(nt[MRT_NL_EV_A_PORT_LAST]));
		return MNL_CB_OK;
	}
	if (obj->table && !ctx->fc->json) {
		mrt_ev_row(ctx, nt);
		return MNL_CB_OK;
	}
	if (ctx->fc->json)
		json_begin_object(&ctx->j);
	for (i = 0; i < obj->nfields; i++)
		if (nt[obj->fields[i].type])
			put_field(&o, &obj->fields[i], nt[obj->fields[i].type]);
	if (ctx->fc->json) {
		if (tb[MRT_NL_A_NETNS_INUM])
			json_kv_u64(&ctx->j, "netns_inum",
				    mnl_attr_get_u32(tb[MRT_NL_A_NETNS_INUM]));
		json_end_object(&ctx->j);
	} else {
		fputc('\n', ctx->fc->out);
	}
	return MNL_CB_OK;
}

/* ADDR as 16 bytes (IPv4 mapped); false if it is neither kind. */
static bool parse_addr(const char *s, struct in6_addr *a)
{
	struct in_addr v4;

	if (inet_pton(AF_INET6, s, a) == 1)
		return true;
	if (inet_pton(AF_INET, s, &v4) != 1)
		return false;
	memset(a, 0, sizeof(*a));
	a->s6_addr[10] = 0xff;
	a->s6_addr[11] = 0xff;
	memcpy(&a->s6_addr[12], &v4, sizeof(v4));
	return true;
}

static bool parse_lid(const char *s, uint16_t *lid)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 65535 || *s == '-')
		return false;
	*lid = v;
	return true;
}

/* The rules (DENY_GET) of the addresses ev show printed, as text lines. */
static int mrt_rules_text(struct fabctl *fc, struct nl_sock *s, uint16_t id,
			  const struct in6_addr *a)
{
	struct mrt_ctx ctx = { .fc = fc, .obj = &mrt_rule, .family = id,
			       .only = a };
	struct nlmsghdr *nlh;
	char buf[INET6_ADDRSTRLEN];
	FILE *real = fc->out;
	char *text = NULL;
	size_t len = 0;
	int ret;

	/* the kv lines go to a buffer, then under a heading */
	fc->out = open_memstream(&text, &len);
	if (!fc->out) {
		fc->out = real;
		return nl_fail(errno, "memory stream");
	}
	nlh = genl_req(s, id, MRT_NL_CMD_DENY_GET, MRT_GENL_VERSION, NLM_F_DUMP);
	ret = nl_talk(s, nlh, mrt_cb, &ctx);
	fclose(fc->out);
	fc->out = real;
	if (ret >= 0 && ctx.any) {
		fmt_mrt_addr(buf, sizeof(buf), a);
		fprintf(real, "deny rules of %s:\n%s", buf, text);
	}
	free(text);
	return ret;
}

/*
 * obj show [arg]: a dump, a do for the one arg names, or for ev a dump
 * with a filter.
 */
static int mrt_show(struct fabctl *fc, const struct mrt_obj *obj,
		    const char *arg)
{
	struct mrt_ctx ctx = { .fc = fc, .obj = obj };
	bool filtered = obj == &mrt_ev && arg;
	struct genl_family fam;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct in6_addr addr;
	struct nl_sock s;
	char what[32];
	uint16_t lid = 0;
	size_t i;
	int ret;

	if (arg && obj != &mrt_pdc && !parse_addr(arg, &addr)) {
		usage_error("mrt %s show: \"%s\" is not an IPv4 or IPv6 address",
			    obj->name, arg);
		return FABCTL_EXIT_USAGE;
	}
	if (arg && obj == &mrt_pdc && !parse_lid(arg, &lid)) {
		usage_error("mrt pdc show: \"%s\" is not a PDC id (1 to 65535)",
			    arg);
		return FABCTL_EXIT_USAGE;
	}
	if (genl_open(&s, MRT_GENL_NAME, NULL, &fam,
		      "is mrt.ko loaded? modprobe mrt") < 0)
		return FABCTL_EXIT_ERROR;
	ctx.family = fam.id;
	nlh = genl_req(&s, fam.id, obj->cmd, MRT_GENL_VERSION,
		       arg && !filtered ? NLM_F_ACK : NLM_F_DUMP);
	if (arg) {
		nest = mnl_attr_nest_start(nlh, obj->nest);
		if (obj == &mrt_pdc)
			mnl_attr_put_u16(nlh, obj->key, lid);
		else if (obj == &mrt_ev)
			mnl_attr_put(nlh, MRT_NL_EV_A_ADDR, sizeof(addr), &addr);
		else
			mnl_attr_put(nlh, obj->key, sizeof(addr), &addr);
		mnl_attr_nest_end(nlh, nest);
	}
	json_init(&ctx.j, fc->out, fc->pretty);
	if (fc->json)
		json_begin_array(&ctx.j);
	ret = nl_talk(&s, nlh, mrt_cb, &ctx);
	for (i = 0; ret >= 0 && !fc->json && i < ctx.t.naddrs; i++)
		ret = mrt_rules_text(fc, &s, fam.id, &ctx.t.addrs[i]);
	free(ctx.t.addrs);
	nl_close(&s);
	if (ret < 0) {
		snprintf(what, sizeof(what), "mrt %s show", obj->name);
		nl_perror(what);
		return FABCTL_EXIT_ERROR;
	}
	if (fc->json)
		json_end_array(&ctx.j);
	return FABCTL_EXIT_OK;
}

/* EV or FIRST-LAST, ports 0 to 65535. */
static bool parse_port(const char *s, char **end, uint16_t *port)
{
	unsigned long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || *end == s || v > 65535)
		return false;
	*port = v;
	return true;
}

static bool parse_range(const char *s, uint16_t *lo, uint16_t *hi)
{
	char *end;

	if (!parse_port(s, &end, lo))
		return false;
	if (!*end) {
		*hi = *lo;
		return true;
	}
	if (*end != '-' || !parse_port(end + 1, &end, hi) || *end)
		return false;
	return *hi >= *lo;
}

/* ev deny|allow ADDR EV|FIRST-LAST */
static int mrt_ev_set(struct fabctl *fc, bool deny, int argc, char **argv)
{
	const char *verb = deny ? "deny" : "allow";
	struct genl_family fam;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct in6_addr addr;
	struct nl_sock s;
	uint16_t lo, hi;
	char what[32];
	int ret;

	if (argc != 2) {
		usage_error(argc < 2 ? "mrt ev %s: say ADDR and EV or FIRST-LAST" :
			    "mrt ev %s: unexpected argument \"%s\"", verb,
			    argc < 2 ? "" : argv[2]);
		return FABCTL_EXIT_USAGE;
	}
	if (!parse_addr(argv[0], &addr)) {
		usage_error("mrt ev %s: \"%s\" is not an IPv4 or IPv6 address",
			    verb, argv[0]);
		return FABCTL_EXIT_USAGE;
	}
	if (!parse_range(argv[1], &lo, &hi)) {
		usage_error("mrt ev %s: \"%s\" is not an EV (a UDP port) or a range FIRST-LAST",
			    verb, argv[1]);
		return FABCTL_EXIT_USAGE;
	}
	if (genl_open(&s, MRT_GENL_NAME, NULL, &fam,
		      "is mrt.ko loaded? modprobe mrt") < 0)
		return FABCTL_EXIT_ERROR;
	nlh = genl_req(&s, fam.id, MRT_NL_CMD_EV_SET, MRT_GENL_VERSION,
		       NLM_F_ACK);
	nest = mnl_attr_nest_start(nlh, MRT_NL_A_EV);
	mnl_attr_put(nlh, MRT_NL_EV_A_ADDR, sizeof(addr), &addr);
	mnl_attr_put_u16(nlh, MRT_NL_EV_A_PORT, lo);
	mnl_attr_put_u16(nlh, MRT_NL_EV_A_PORT_LAST, hi);
	mnl_attr_put_u8(nlh, MRT_NL_EV_A_STATE,
			deny ? MRT_NL_EV_STATE_DENIED : MRT_NL_EV_STATE_GOOD);
	mnl_attr_nest_end(nlh, nest);
	ret = nl_talk(&s, nlh, NULL, NULL);
	nl_close(&s);
	if (ret < 0) {
		snprintf(what, sizeof(what), "mrt ev %s", verb);
		nl_perror(what);
		return FABCTL_EXIT_ERROR;
	}
	return FABCTL_EXIT_OK;
}

static int cmd_mrt_ev(struct fabctl *fc, int argc, char **argv)
{
	if (argc < 1) {
		usage_error("mrt ev: say show, deny, allow or rules");
		return FABCTL_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "deny") || !strcmp(argv[0], "allow"))
		return mrt_ev_set(fc, argv[0][0] == 'd', argc - 1, argv + 1);
	if (!strcmp(argv[0], "show") || !strcmp(argv[0], "rules")) {
		bool rules = argv[0][0] == 'r';

		if (argc > (rules ? 1 : 2)) {
			usage_error("mrt ev %s: unexpected argument \"%s\"",
				    argv[0], argv[rules ? 1 : 2]);
			return FABCTL_EXIT_USAGE;
		}
		return mrt_show(fc, rules ? &mrt_rule : &mrt_ev,
				argc == 2 ? argv[1] : NULL);
	}
	usage_error("mrt ev: unknown command \"%s\" (show, deny, allow or rules)",
		    argv[0]);
	return FABCTL_EXIT_USAGE;
}

int cmd_mrt(struct fabctl *fc, int argc, char **argv)
{
	const struct mrt_obj *obj;

	if (argc < 1) {
		usage_error("mrt: say dest, pdc or ev");
		return FABCTL_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "ev"))
		return cmd_mrt_ev(fc, argc - 1, argv + 1);
	if (!strcmp(argv[0], "dest")) {
		obj = &mrt_dest;
	} else if (!strcmp(argv[0], "pdc")) {
		obj = &mrt_pdc;
	} else {
		usage_error("mrt: unknown object \"%s\" (dest, pdc or ev)",
			    argv[0]);
		return FABCTL_EXIT_USAGE;
	}
	if (argc < 2 || strcmp(argv[1], "show")) {
		usage_error("mrt %s: say show", obj->name);
		return FABCTL_EXIT_USAGE;
	}
	if (argc > 3) {
		usage_error("mrt %s show: unexpected argument \"%s\"", obj->name,
			    argv[3]);
		return FABCTL_EXIT_USAGE;
	}
	return mrt_show(fc, obj, argc == 3 ? argv[2] : NULL);
}

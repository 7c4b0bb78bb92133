// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim's mrt endpoints (sim/mrtsim.h): a sending and a receiving PDC as
 * pdc.c runs them, on net/mrt/engine.c, with the simulator's packets and
 * time instead of skbs, sockets and hrtimers.  What pdc.c adds around the
 * engine (building the DATA header, the DSCPs, the probes, the ACK and
 * NACK a receiver sends) is repeated here in its few lines; the
 * decisions are the engine's.
 *
 * The NSCC core's calls are intercepted at link time (ld --wrap, the
 * Makefile's SIM_WRAP): each destination's core sees times from its own
 * start, as a ccreplay replay does, and a traced destination's calls are
 * written in ccreplay's format with the rows it must print.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/time64.h>

#include <net/fabric/nscc.h>

#include "../net/mrt/attr_desc.h"
#include "../net/mrt/engine.h"
#include "../tools/ccreplay/rows.h"
#include "mrtsim.h"
#include "internal.h"

/* mrt's attribute table, as net/mrt/main.c builds it */
#define MRT_ATTR(_name, _kind, _def, _lo, _hi, _unit, _help)		\
	MRT_ATTR_DESC(_name, _kind, _def, _lo, _hi, _unit, _help),
static const struct fabric_attr_desc mrt_descs[] = {
#include "../net/mrt/mrt_attrs.h"
};

#undef MRT_ATTR

#define MRT_ATTR(_name, _kind, _def, _lo, _hi, _unit, _help) A_##_name,
enum {
#include "../net/mrt/mrt_attrs.h"
	A_COUNT
};

#undef MRT_ATTR

struct sim_mrt_net {
	u32 v[A_COUNT];
	struct nscc_params np;
	struct mrt_snd_cfg cfg;
	u32 mss;
	bool trim;
};

/* A destination: what pdc.c's struct mrt_dest holds for the engine. */
struct sim_mrt_dest {
	struct nscc cc;
	struct mrt_evset evs;
	u64 t0;			/* its NSCC's start */
	/* its PDCs waiting for the window or an EV, oldest first */
	struct sim_mrt_snd *wait_head, *wait_tail;
	FILE *trace, *rows;
	u8 mem[];		/* the EV set */
};

/* Set once mrt endpoints run: every NSCC core of the process is then a
 * destination's (a run is of one endpoint kind).
 */
static bool mrt_run;
static u64 sim_now;

struct sim_mrt_net *sim_mrt_net_new(const char *const *mrt_sets, int nmrt,
				    const char *const *nscc_sets, int nnscc,
				    const char *flavour, bool trim, uint32_t mss,
				    char *err, size_t errlen)
{
	struct sim_mrt_net *net = calloc(1, sizeof(*net));
	const char *why = "";
	u32 f = NSCC_FLAVOUR_UET;
	unsigned int i;
	int k;

	if (!net) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < A_COUNT; i++)
		net->v[i] = mrt_descs[i].def;
	/* the endpoint's trimming: with -trim, data trimmable as DSCP 10
	 * (mrt.ko's trimmable_dscp), trimmed to 11; without, nothing
	 * trimmable, retransmissions neither
	 */
	if (trim)
		net->v[A_trim_dscp] = 11;
	else
		net->v[A_use_distinct_dscp_for_retransmits] = 0;
	for (k = 0; k < nmrt; k++) {
		if (!strncmp(mrt_sets[k], "mss=", 4)) {
			snprintf(err, errlen, "mss: the payload per packet is topology.mtu");
			goto fail;
		}
		if (sim_attr_apply(mrt_descs, A_COUNT, net->v, mrt_sets[k], err, errlen))
			goto fail;
	}
	if (!mrt_range_valid(net->v[A_max_psn_range])) {
		snprintf(err, errlen, "max_psn_range=%u: a power of two, 64..16384",
			 net->v[A_max_psn_range]);
		goto fail;
	}
	if (net->v[A_ev_base] + net->v[A_ev_count] > 65536) {
		snprintf(err, errlen, "ev_base + ev_count beyond port 65535");
		goto fail;
	}
	if (flavour && fabric_attr_parse(&nscc_attr_descs[NSCC_ATTR_flavour], flavour,
					 &f, &why)) {
		snprintf(err, errlen, "flavour %s: %s", flavour, why);
		goto fail;
	}
	nscc_params_init(&net->np, f);
	/* mrt's NSCC: trimming when the data is trimmable */
	NSCC_P(&net->np, trimming_enabled) = trim;
	for (k = 0; k < nnscc; k++)
		if (sim_attr_apply(nscc_attr_descs, NSCC_ATTR_COUNT, net->np.v,
				   nscc_sets[k], err, errlen))
			goto fail;
	if (nscc_params_check(&net->np, &why)) {
		snprintf(err, errlen, "nscc: %s", why);
		goto fail;
	}
	net->cfg.rto_min_us = net->v[A_rto_min_us];
	net->cfg.rto_max_us = net->v[A_rto_max_us];
	net->cfg.retry_budget = net->v[A_retry_budget];
	net->cfg.sack_loss_min_retx_pkts = net->v[A_sack_loss_min_retx_pkts];
	net->cfg.tx_batch_max_pkts = net->v[A_tx_batch_max_pkts];
	net->cfg.rack = net->v[A_rack_enabled];
	net->cfg.rack_reo_wnd_thou = net->v[A_rack_reo_wnd];
	net->mss = mss;
	net->trim = trim;
	mrt_run = true;
	return net;
fail:
	free(net);
	return NULL;
}

uint16_t sim_mrt_udp_port(const struct sim_mrt_net *net)
{
	return net->v[A_udp_port];
}

uint32_t sim_mrt_ev_count(const struct sim_mrt_net *net)
{
	return net->v[A_ev_count];
}

/* pdc.c's mrt_nominal() for IPv4 */
static u32 nominal(u32 payload)
{
	return 20 + 8 + MRT_DATA_HDR_LEN + payload + mrt_data_pad(payload);
}

/* A PDC half's key: the kernel's is random; here any non-zero value that
 * differs between PDCs will do (the simulation has no one to guess it).
 */
static u32 sim_key(u32 seed)
{
	u32 k = seed * 2654435761U ^ 0x5bd1e995;

	return k ? k : 1;
}

/* The cookie every sender has: the simulated hosts are taken to have
 * talked before (a kernel sender's first PDC to a host waits a round
 * trip for one; its next ones for 64 to 128 s do not).
 */
#define SIM_COOKIE	0xc00c1e

uint32_t sim_mrt_data_overhead(void)
{
	return nominal(0);
}

/* NSCC at link time: every destination's core runs on times from its
 * start; a traced one writes each call.
 */
static struct sim_mrt_dest *dest_of(struct nscc *n)
{
	_Static_assert(offsetof(struct sim_mrt_dest, cc) == 0, "cc first");
	return mrt_run ? (struct sim_mrt_dest *)n : NULL;
}

/* The time its core sees: from its start (not a destination: as is). */
static u64 rel(const struct sim_mrt_dest *d, u64 now)
{
	return d ? now - d->t0 : now;
}

static void rtt_kv(FILE *f, u64 rtt)
{
	if (rtt != NSCC_NO_RTT)
		fprintf(f, " rtt=%llu", (unsigned long long)rtt);
}

enum nscc_routine __wrap_nscc_on_ack(struct nscc *n, u64 now, const struct nscc_ack *a)
{
	struct sim_mrt_dest *d = dest_of(n);
	u64 t = rel(d, now);
	enum nscc_routine r = __real_nscc_on_ack(n, t, a);

	if (d && d->trace) {
		fprintf(d->trace, "%llu ack bytes=%llu", (unsigned long long)t,
			(unsigned long long)a->bytes);
		rtt_kv(d->trace, a->rtt_ns);
		fprintf(d->trace, " service=%llu ecn=%d pen=%u restore=%d\n",
			(unsigned long long)a->service_ns, a->ecn, a->pen, a->restore);
		ccr_row_nscc(d->rows, t, "ack", n);
	}
	return r;
}

static enum nscc_routine bytes_ev(struct nscc *n, const char *ev, u64 bytes,
				  enum nscc_routine (*fn)(struct nscc *, u64))
{
	struct sim_mrt_dest *d = dest_of(n);
	enum nscc_routine r = fn(n, bytes);

	if (d && d->trace) {
		u64 t = rel(d, sim_now);

		fprintf(d->trace, "%llu %s bytes=%llu\n", (unsigned long long)t, ev,
			(unsigned long long)bytes);
		ccr_row_nscc(d->rows, t, ev, n);
	}
	return r;
}

enum nscc_routine __wrap_nscc_on_cack(struct nscc *n, u64 bytes)
{
	return bytes_ev(n, "cack", bytes, __real_nscc_on_cack);
}

enum nscc_routine __wrap_nscc_on_loss(struct nscc *n, u64 bytes)
{
	return bytes_ev(n, "loss", bytes, __real_nscc_on_loss);
}

enum nscc_routine __wrap_nscc_on_send(struct nscc *n, u64 bytes)
{
	return bytes_ev(n, "send", bytes, __real_nscc_on_send);
}

static enum nscc_routine nack_ev(struct nscc *n, const char *ev, u64 now, u64 bytes,
				 u64 rtt,
				 enum nscc_routine (*fn)(struct nscc *, u64, u64, u64))
{
	struct sim_mrt_dest *d = dest_of(n);
	u64 t = rel(d, now);
	enum nscc_routine r = fn(n, t, bytes, rtt);

	if (d && d->trace) {
		fprintf(d->trace, "%llu %s bytes=%llu", (unsigned long long)t, ev,
			(unsigned long long)bytes);
		rtt_kv(d->trace, rtt);
		fprintf(d->trace, "\n");
		ccr_row_nscc(d->rows, t, ev, n);
	}
	return r;
}

enum nscc_routine __wrap_nscc_on_trim(struct nscc *n, u64 now, u64 bytes, u64 rtt)
{
	return nack_ev(n, "trim", now, bytes, rtt, __real_nscc_on_trim);
}

enum nscc_routine __wrap_nscc_on_nack(struct nscc *n, u64 now, u64 bytes, u64 rtt)
{
	return nack_ev(n, "nack", now, bytes, rtt, __real_nscc_on_nack);
}

/* A probe's answer: "probe bytes=0 rtt=", at the time of the last event */
void __wrap_nscc_on_probe_rtt(struct nscc *n, u64 rtt_ns)
{
	struct sim_mrt_dest *d = dest_of(n);
	u64 t = rel(d, sim_now);

	__real_nscc_on_probe_rtt(n, rtt_ns);
	if (d && d->trace) {
		fprintf(d->trace, "%llu probe bytes=0", (unsigned long long)t);
		rtt_kv(d->trace, rtt_ns);
		fprintf(d->trace, "\n");
		ccr_row_nscc(d->rows, t, "probe", n);
	}
}

struct sim_mrt_dest *sim_mrt_dest_new(struct sim_mrt_net *net, uint32_t seed,
				      uint64_t now, FILE *trace, FILE *rows)
{
	struct mrt_ev_params ep = {
		.skip_ecn = 1, .skip_trim = 4, .skip_max = 64,
	};
	struct sim_mrt_dest *d;
	unsigned int i;

	ep.base = net->v[A_ev_base];
	ep.count = net->v[A_ev_count];
	ep.policy = net->v[A_ev_policy];
	ep.bad_losses = net->v[A_ev_bad_losses];
	ep.probe_ns = (u64)net->v[A_rto_min_us] * NSEC_PER_USEC;
	ep.probe_max_ns = (u64)net->v[A_rto_max_us] * NSEC_PER_USEC;
	d = calloc(1, sizeof(*d) + mrt_evset_bytes(ep.count));
	if (!d || mrt_evset_init(&d->evs, &ep, d->mem, seed))
		abort();
	d->t0 = now;
	nscc_init(&d->cc, &net->np, nominal(net->mss), 0);
	if (trace) {
		d->trace = trace;
		d->rows = rows;
		fprintf(trace, "# replay: ccreplay --algo nscc --flavour %s --mtu %u",
			nscc_flavour_names[NSCC_P(&net->np, flavour)], d->cc.cfg.mtu);
		for (i = 0; i < NSCC_ATTR_COUNT; i++) {
			const char *name = fabric_attr_name_of(&nscc_attr_descs[i],
							       net->np.v[i]);

			if (i == NSCC_ATTR_flavour)
				continue;
			if (name)
				fprintf(trace, " --set %s=%s", nscc_attr_descs[i].name, name);
			else
				fprintf(trace, " --set %s=%u", nscc_attr_descs[i].name,
					net->np.v[i]);
		}
		fprintf(trace, "\n");
		fprintf(rows, "%s\n", CCR_NSCC_HEADER);
	}
	return d;
}

/* Sender */

struct sim_mrt_snd {
	struct sim_mrt_net *net;
	struct sim_mrt_dest *d;
	sim_mrt_emit_fn emit;
	void *ectx;
	sim_mrt_arm_fn arm_fn;
	void *user;
	bool waiting;			/* on d's waiters */
	struct sim_mrt_snd *wait_next;
	struct mrt_snd snd;
	u16 lid, rid;
	u32 key, rkey;
	u16 src_ep, dst_ep;
	bool syn;		/* no answer yet */
	int failed;
	u32 start_psn;
	u64 len, next_off;	/* the message, and what has a PSN */
	u64 *off;		/* [range]: each PSN's message offset */
	u64 timer_at;
	struct sim_mrt_snd_stats st;
	u64 *ev_bytes;		/* [ev_count] */
	u64 *bits;
};

static void lock_nop(void *ctx)
{
}

static void snd_acked(void *ctx, u32 psn)
{
}

static void snd_cc(void *ctx, enum nscc_routine r)
{
}

static void snd_sack_lost(void *ctx, u32 psn)
{
}

/* pdc.c's mrt_snd_resent(): total_rtx_sack counts retransmissions of
 * packets presumed lost from SACK gaps
 */
static void snd_resent(void *ctx, u32 psn, u8 cause, u8 tx_count)
{
	struct sim_mrt_snd *s = ctx;

	if (cause == MRT_RTX_SACK)
		s->st.rtx_sack++;
}

/* pdc.c's mrt_snd_blocked(): wait on the destination. */
static void snd_blocked(void *ctx)
{
	struct sim_mrt_snd *s = ctx;
	struct sim_mrt_dest *d = s->d;

	if (s->waiting)
		return;
	s->waiting = true;
	s->wait_next = NULL;
	if (d->wait_tail)
		d->wait_tail->wait_next = s;
	else
		d->wait_head = s;
	d->wait_tail = s;
}

static const struct mrt_snd_ops snd_ops = {
	.lock = lock_nop, .unlock = lock_nop, .acked = snd_acked,
	.cc = snd_cc, .sack_lost = snd_sack_lost, .blocked = snd_blocked,
	.resent = snd_resent,
};

struct sim_mrt_snd *sim_mrt_snd_new(struct sim_mrt_net *net,
				    struct sim_mrt_dest *d, uint16_t lid,
				    uint16_t src_ep, uint16_t dst_ep,
				    uint32_t start_psn, uint64_t len,
				    sim_mrt_emit_fn emit, void *ectx,
				    sim_mrt_arm_fn arm_fn, void *user)
{
	u32 range = net->v[A_max_psn_range];
	struct sim_mrt_snd *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->net = net;
	s->d = d;
	s->emit = emit;
	s->ectx = ectx;
	s->arm_fn = arm_fn;
	s->user = user;
	s->lid = lid;
	s->key = sim_key(start_psn);
	s->src_ep = src_ep;
	s->dst_ep = dst_ep;
	s->syn = true;
	s->start_psn = start_psn;
	s->len = len;
	s->off = calloc(range, sizeof(*s->off));
	s->ev_bytes = calloc(net->v[A_ev_count], sizeof(*s->ev_bytes));
	s->bits = calloc(2 * range / 64, sizeof(u64));
	if (!s->off || !s->ev_bytes || !s->bits ||
	    mrt_snd_init(&s->snd, start_psn, range,
			 calloc(range, sizeof(struct mrt_slot)),
			 calloc(range, sizeof(u32)), s->bits, s->bits + range / 64,
			 calloc(range, sizeof(u32))) || !s->snd.slots ||
	    !s->snd.rtxq || !s->snd.tx.ref)
		abort();
	mrt_snd_set_rack(&s->snd, calloc(d->evs.p.count, sizeof(*s->snd.rack)),
			 d->evs.p.count);
	if (!s->snd.rack)
		abort();
	return s;
}

/* pdc.c's ACKs, NACKs and probes: the engine's marking. */
static u8 ctl_tos(const struct sim_mrt_net *net)
{
	struct mrt_mark_cfg mc = {
		.data_dscp = net->v[A_data_dscp],
		.uet = NSCC_P(&net->np, flavour) == NSCC_FLAVOUR_UET,
	};

	return mrt_ctl_tos(&mc);
}

static u32 payload_of(const struct sim_mrt_snd *s, u64 off)
{
	u64 left = s->len - off;

	return left < s->net->mss ? left : s->net->mss;
}

/* pdc.c's mrt_data_build(): the DATA header of psn, and its DSCP. */
static void snd_emit_data(struct sim_mrt_snd *s, u32 psn, bool retx, u16 ev,
			  bool ar, sim_mrt_emit_fn emit, void *ctx)
{
	const u32 *v = s->net->v;
	u64 off = s->off[psn & (s->snd.range - 1)];
	u32 plen = payload_of(s, off);
	struct mrt_pkt p = {
		.type = MRT_TYPE_DATA,
		.spdcid = s->lid,
		.dpdcid = s->rid,
		.ev = ev,
		.skey = s->key,
		.dkey = s->rkey,
	};
	u8 hdr[MRT_DATA_HDR_LEN], tos;
	struct mrt_mark_cfg mc = {
		.data_dscp = v[A_data_dscp],
		.trimmable_dscp = v[A_trimmable_dscp],
		.retransmit_dscp = v[A_retransmit_dscp],
		.trimming = NSCC_P(&s->net->np, trimming_enabled),
		.distinct_retx = v[A_use_distinct_dscp_for_retransmits],
		.uet = NSCC_P(&s->net->np, flavour) == NSCC_FLAVOUR_UET,
	};
	bool trimmable;

	if (off == 0)
		p.flags |= MRT_DATA_F_SOM;
	if (off + plen == s->len)
		p.flags |= MRT_DATA_F_EOM;
	if (s->syn) {
		p.flags |= MRT_DATA_F_SYN;
		p.data.start_psn = s->start_psn;
		p.dpdcid = 0;
		p.dkey = SIM_COOKIE;
	}
	if (retx)
		p.flags |= MRT_DATA_F_RETX;
	if (ar || p.flags & MRT_DATA_F_EOM)
		p.flags |= MRT_DATA_F_AR;
	p.data.psn = psn;
	p.data.src_ep = s->src_ep;
	p.data.dst_ep = s->dst_ep;
	p.data.msg_id = 0;
	p.data.payload_len = plen;
	p.data.msg_offset = off;
	p.data.msg_len = s->len;
	/* pdc.c's marking: the engine's */
	tos = mrt_data_tos(&mc, retx, &trimmable);
	if (trimmable)
		p.flags |= MRT_DATA_F_TRIMMABLE;
	mrt_build(hdr, &p);
	s->st.pkts++;
	if (retx)
		s->st.retx++;
	s->ev_bytes[ev - v[A_ev_base]] += plen;
	emit(ctx, hdr, MRT_DATA_HDR_LEN, plen + mrt_data_pad(plen), ev, tos);
}

/* pdc.c's mrt_pdc_probe(): the probes due on the destination's EVs. */
static void snd_probe(struct sim_mrt_snd *s, u64 now, sim_mrt_emit_fn emit,
		      void *ctx)
{
	struct mrt_evset *evs = &s->d->evs;
	struct mrt_pkt p = {
		.type = MRT_TYPE_CTRL,
		.spdcid = s->lid,
		.dpdcid = s->rid,
		.skey = s->key,
		.dkey = s->rkey,
	};
	u8 hdr[MRT_CTRL_HDR_LEN];
	u64 next = U64_MAX;
	unsigned int n;
	int ev;

	if (!s->rid || evs->probe_next > now)
		goto arm;
	for (n = 0; n < 4; n++) {
		ev = mrt_ev_probe_due(evs, now, &next);
		if (ev < 0)
			break;
		p.ev = mrt_ev_port(evs, ev);
		p.ctrl.ctl_type = MRT_CTRL_PROBE;
		p.ctrl.opaque = ev;
		p.ctrl.psn = (u32)now;	/* pdc.c's: the send time */
		mrt_build(hdr, &p);
		s->st.probes++;
		emit(ctx, hdr, MRT_CTRL_HDR_LEN, 0, p.ev, ctl_tos(s->net));
	}
arm:
	next = evs->probe_next;
	if (s->rid && next != U64_MAX && (!s->timer_at || next < s->timer_at))
		s->timer_at = next > now ? next : now;
}

static void arm(struct sim_mrt_snd *s, u64 at)
{
	if (!s->timer_at || at < s->timer_at)
		s->timer_at = at;
}

/* mrt_snd_push()'s transmitting side.  A packet leaves once the next is
 * decided (or the push ends).
 */
struct push {
	struct sim_mrt_snd *s;
	sim_mrt_emit_fn emit;
	void *ctx;
	bool pending, ar;
	struct mrt_snd_tx tx;
};

static void push_flush(struct push *px)
{
	struct sim_mrt_snd *s = px->s;

	if (px->pending)
		snd_emit_data(s, px->tx.psn, px->tx.retx, mrt_ev_port(&s->d->evs, px->tx.ev),
			      px->ar, px->emit, px->ctx);
	px->pending = false;
	px->ar = false;
}

static u32 push_next_bytes(void *x)
{
	struct sim_mrt_snd *s = ((struct push *)x)->s;

	return s->next_off < s->len ? nominal(payload_of(s, s->next_off)) : 0;
}

static u32 push_queued(void *x)
{
	struct sim_mrt_snd *s = ((struct push *)x)->s;
	u32 mss = s->len > s->next_off ? payload_of(s, s->next_off) : 0;

	return mss ? (u32)min_t(u64, (s->len - s->next_off + mss - 1) / mss, U32_MAX) : 0;
}

static bool push_xmit(void *x, const struct mrt_snd_tx *tx)
{
	struct push *px = x;
	struct sim_mrt_snd *s = px->s;

	push_flush(px);
	if (!tx->retx) {
		s->off[tx->psn & (s->snd.range - 1)] = s->next_off;
		s->next_off += payload_of(s, s->next_off);
	}
	px->tx = *tx;
	px->pending = true;
	px->ar = tx->ar;
	return true;
}

static void push_arm(void *x, u64 at)
{
	arm(((struct push *)x)->s, at);
}

static const struct mrt_snd_xmit_ops push_ops = {
	.next_bytes = push_next_bytes,
	.queued = push_queued,
	.xmit = push_xmit,
	.arm = push_arm,
};

/* The timer's deadline to the simulator. */
static void snd_report(struct sim_mrt_snd *s)
{
	if (s->timer_at)
		s->arm_fn(s->user, s->timer_at);
}

static void snd_push(struct sim_mrt_snd *s, u64 now)
{
	struct mrt_snd_dest sd = { &s->d->cc, &s->d->evs };
	struct push px = { .s = s, .emit = s->emit, .ctx = s->ectx };
	enum mrt_snd_pick r;

	sim_now = now;
	if (s->failed)
		return;
	if (s->d->evs.usable < s->d->evs.p.count)
		snd_probe(s, now, s->emit, s->ectx);
	r = mrt_snd_push(&s->snd, &sd, now, s->syn, &s->net->cfg, &snd_ops, s, &push_ops,
			 &px);
	push_flush(&px);
	if (r == MRT_SND_EXHAUSTED)
		s->failed = 110;	/* ETIMEDOUT */
}

_Static_assert(SIM_MRT_DATA_HDR_LEN == MRT_DATA_HDR_LEN, "mrtsim.h's DATA header length");

int sim_mrt_data_ids(const uint8_t *hdr, unsigned int len, uint16_t *spdcid,
		     uint32_t *psn)
{
	struct mrt_pkt p;

	if (mrt_parse(hdr, len, &p) || p.type != MRT_TYPE_DATA)
		return -1;
	*spdcid = p.spdcid;
	*psn = p.data.psn;
	return 0;
}

void sim_mrt_snd_departed(struct sim_mrt_snd *s, uint32_t psn, uint64_t now)
{
	mrt_snd_departed(&s->snd, psn, now);
}

void sim_mrt_snd_push(struct sim_mrt_snd *s, uint64_t now)
{
	snd_push(s, now);
	snd_report(s);
}

/* pdc.c's mrt_dest_kick(): the destination's waiters may send now, at
 * most 64, oldest first, until one is blocked again.
 */
static void dest_kick(struct sim_mrt_dest *d, u64 now)
{
	unsigned int n = 64;
	struct sim_mrt_snd *s;

	while (n-- && (s = d->wait_head)) {
		d->wait_head = s->wait_next;
		if (!d->wait_head)
			d->wait_tail = NULL;
		s->waiting = false;
		snd_push(s, now);
		snd_report(s);
		if (s->waiting)
			break;
	}
}

void sim_mrt_snd_rx(struct sim_mrt_snd *s, const uint8_t *hdr,
		    unsigned int len, uint64_t now)
{
	struct mrt_snd_dest sd = { &s->d->cc, &s->d->evs };
	struct mrt_snd_ack_res res;
	struct mrt_pkt p;
	bool push = false;
	int ev;

	sim_now = now;
	if (s->failed || mrt_parse(hdr, len, &p) || p.dkey != s->key)
		return;
	/* the first answer names the peer's PDC and key (pdc.c's
	 * mrt_pdc_answer())
	 */
	if (s->syn && p.spdcid && p.type != MRT_TYPE_CTRL) {
		s->rid = p.spdcid;
		s->rkey = p.skey;
		s->syn = false;
	}
	if (p.spdcid && (p.spdcid != s->rid || p.skey != s->rkey))
		return;
	/* as pdc.c: a push after an ACK, a trim NACK or a probe's answer;
	 * after any answer the destination's waiters
	 */
	switch (p.type) {
	case MRT_TYPE_ACK:
		if (mrt_snd_ack(&s->snd, &sd, &p, now, &s->net->cfg, &snd_ops, s, &res))
			break;
		s->st.ecn += res.ecn;
		s->st.sack_false += res.false_lost;
		if (res.rack_at != U64_MAX)
			arm(s, res.rack_at);
		push = true;
		break;
	case MRT_TYPE_NACK:
		switch (mrt_snd_nack(&s->snd, &sd, &p, now, &s->net->cfg, &snd_ops, s)) {
		case MRT_SND_NACK_RETX:
			s->st.trims++;
			s->st.rtx_trim++;
			push = true;
			break;
		case MRT_SND_NACK_WINDOW:
			s->st.nacks++;
			push = true;
			break;
		case MRT_SND_NACK_WAIT:
			s->st.nacks++;
			arm(s, s->snd.wait_until);
			break;
		case MRT_SND_NACK_REFUSED:
			s->failed = 111;	/* ECONNREFUSED */
			break;
		case MRT_SND_NACK_RESET:
			s->failed = 104;	/* ECONNRESET */
			break;
		default:
			break;
		}
		break;
	case MRT_TYPE_CTRL:
		ev = mrt_ev_index(&s->d->evs, p.ev);
		if (p.ctrl.ctl_type == MRT_CTRL_PROBE_ACK && ev >= 0 &&
		    ev == p.ctrl.opaque) {
			/* pdc.c's: the answer's RTT for the base RTT */
			u64 rtt = mrt_ev_probe_ack(&s->d->evs, ev, p.ctrl.psn, now);

			if (rtt)
				nscc_on_probe_rtt(&s->d->cc, rtt);
			push = true;
		}
		break;
	}
	if (push)
		snd_push(s, now);
	snd_report(s);
	dest_kick(s->d, now);
}

void sim_mrt_snd_timer(struct sim_mrt_snd *s, uint64_t now)
{
	struct mrt_snd_dest sd = { &s->d->cc, &s->d->evs };
	struct mrt_snd_timer_res res;

	sim_now = now;
	s->timer_at = 0;
	if (s->failed)
		return;
	mrt_snd_timer(&s->snd, &sd, now, s->rid, &s->net->cfg, &snd_ops, s, &res);
	if (res.expired) {
		/* total_rto_events: timer expiries, one per packet */
		s->st.rto_events += res.expired;
		s->st.rtx_rto += res.expired;
	}
	snd_push(s, now);
	if (res.next != U64_MAX)
		arm(s, res.next);
	snd_report(s);
}

bool sim_mrt_snd_done(const struct sim_mrt_snd *s)
{
	return s->next_off == s->len && mrt_snd_idle(&s->snd);
}

int sim_mrt_snd_failed(const struct sim_mrt_snd *s)
{
	return s->failed;
}

void sim_mrt_snd_stats(const struct sim_mrt_snd *s, struct sim_mrt_snd_stats *st)
{
	*st = s->st;
	st->qa = s->d->cc.st.qa_count;
}

uint64_t sim_mrt_snd_ev_bytes(const struct sim_mrt_snd *s, unsigned int i)
{
	return i < s->net->v[A_ev_count] ? s->ev_bytes[i] : 0;
}

int sim_mrt_peek(const uint8_t *hdr, unsigned int len, uint16_t *pdcid)
{
	struct mrt_pkt p;

	if (mrt_parse(hdr, len, &p))
		return -1;
	switch (p.type) {
	case MRT_TYPE_DATA:
		*pdcid = p.spdcid;
		return SIM_MRT_TO_RCV_DATA;
	case MRT_TYPE_CTRL:
		*pdcid = p.dpdcid;
		return p.ctrl.ctl_type == MRT_CTRL_PROBE ? SIM_MRT_TO_RCV : SIM_MRT_TO_SND;
	default:
		*pdcid = p.dpdcid;
		return SIM_MRT_TO_SND;
	}
}

/* Receiver */

struct sim_mrt_sock {
	u64 rcvbuf, app_bps;
	u64 occ;		/* bytes in the buffer */
	u64 last;		/* ns: occ's time */
	struct sim_mrt_sock_stats st;
};

struct sim_mrt_sock *sim_mrt_sock_new(uint64_t rcvbuf, uint64_t app_bps)
{
	struct sim_mrt_sock *k = calloc(1, sizeof(*k));

	if (!k)
		abort();
	k->rcvbuf = rcvbuf ? rcvbuf : 1;
	k->app_bps = app_bps;
	return k;
}

void sim_mrt_sock_stats(const struct sim_mrt_sock *k, struct sim_mrt_sock_stats *st)
{
	*st = k->st;
}

/* The application has read what its rate allowed since the last look. */
static void sock_drain(struct sim_mrt_sock *k, u64 now)
{
	u64 read;

	if (!k->app_bps) {
		k->occ = 0;
	} else if (now > k->last) {
		read = fabric_muldiv(now - k->last, k->app_bps, 8 * NSEC_PER_SEC, false);
		k->occ = read >= k->occ ? 0 : k->occ - read;
	}
	k->last = now;
}

struct sim_mrt_rcv {
	struct sim_mrt_net *net;
	struct sim_mrt_sock *k;
	struct mrt_rx rx;
	bool init;
	u16 lid, rid;
	u32 key, rkey;
	u32 since_ack;
	u8 *got;		/* per mss-sized piece of the message */
	u64 len;
	u64 *bits;
};

struct sim_mrt_rcv *sim_mrt_rcv_new(struct sim_mrt_net *net, struct sim_mrt_sock *k,
				    uint16_t lid, uint16_t rid)
{
	struct sim_mrt_rcv *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	r->net = net;
	r->k = k;
	r->lid = lid;
	r->rid = rid;
	r->key = sim_key((u32)lid << 16 | rid);
	r->bits = calloc(net->v[A_max_psn_range] / 64, sizeof(u64));
	if (!r->bits)
		abort();
	return r;
}

/* pdc.c's mrt_send_nack() */
static void rcv_nack(struct sim_mrt_rcv *r, const struct mrt_pkt *p, u8 code,
		     u32 payload, sim_mrt_emit_fn emit, void *ctx)
{
	struct mrt_pkt n = {
		.type = MRT_TYPE_NACK,
		.spdcid = r->lid,
		.dpdcid = p->spdcid,
		.ev = p->ev,
		.skey = r->key,
		.dkey = p->skey,
	};
	u8 hdr[MRT_NACK_HDR_LEN];

	if (p->flags & MRT_DATA_F_RETX)
		n.flags |= MRT_NACK_F_RETX_ECHO;
	n.nack.nack_psn = p->data.psn;
	n.nack.nack_code = code;
	n.nack.payload = payload;
	n.nack.rcvd_bytes = nscc_rcvd_bytes_field(r->rx.rcvd_bytes);
	mrt_build(hdr, &n);
	emit(ctx, hdr, MRT_NACK_HDR_LEN, 0, p->ev, ctl_tos(r->net));
}

/* pdc.c's mrt_rcv_pen(): the penalty from the buffer's occupancy, in
 * either flavour (an mrc sender ignores it).
 */
static u8 rcv_pen(struct sim_mrt_rcv *r)
{
	u64 occ;

	occ = min_t(u64, r->k->occ * 1000 / r->k->rcvbuf, 1000);
	return nscc_receiver_penalty(&r->net->np, occ);
}

/* pdc.c's mrt_send_ack() */
static void rcv_ack(struct sim_mrt_rcv *r, const struct mrt_pkt *p, bool ce,
		    sim_mrt_emit_fn emit, void *ctx)
{
	struct mrt_pkt a = {
		.spdcid = r->lid,
		.dpdcid = r->rid,
		.ev = p->ev,
		.skey = r->key,
		.dkey = r->rkey,
	};
	u8 hdr[MRT_ACK_HDR_LEN], pen = rcv_pen(r);

	r->k->st.pen_acks += pen > 0;
	mrt_rx_ack_fill(&r->rx, p, ce, pen,
			NSCC_P(&r->net->np, restore_cwind_enable), 0, &a);
	mrt_build(hdr, &a);
	r->since_ack = 0;
	emit(ctx, hdr, MRT_ACK_HDR_LEN, 0, p->ev, ctl_tos(r->net));
}

void sim_mrt_rcv_data(struct sim_mrt_rcv *r, const uint8_t *hdr,
		      unsigned int len, uint8_t tos, uint16_t sport, uint64_t now,
		      sim_mrt_emit_fn emit, void *ctx, uint64_t *delivered,
		      uint64_t *dup)
{
	const u32 *v = r->net->v;
	u8 dscp = tos >> 2;
	bool ce = (tos & 3) == 3;
	struct mrt_pkt p;
	u64 piece;

	*delivered = 0;
	*dup = 0;
	if (mrt_parse(hdr, len, &p) || p.type != MRT_TYPE_DATA)
		return;
	/* pdc.c's checks: a packet to the PDC carries its key; a SYN, the
	 * cookie (every simulated sender has it: SIM_COOKIE) and, once the
	 * PDC is open, the key it opened with
	 */
	if (p.dpdcid ? p.dkey != r->key || p.skey != r->rkey :
	    p.dkey != SIM_COOKIE || (r->init && p.skey != r->rkey))
		return;
	if (!r->init) {
		if (!(p.flags & MRT_DATA_F_SYN))
			return;
		r->rkey = p.skey;
		mrt_rx_init(&r->rx, p.data.start_psn, v[A_max_psn_range], r->bits);
		r->len = p.data.msg_len;
		r->got = calloc(r->len / r->net->mss + 1, 1);
		if (!r->got)
			abort();
		r->init = true;
	}
	/* pdc.c's mrt_is_trim(): a trimmed packet is NACKed, not received */
	if (p.trimmed || (v[A_trim_dscp] && dscp == v[A_trim_dscp]) ||
	    (v[A_trim_lasthop_dscp] && dscp == v[A_trim_lasthop_dscp])) {
		rcv_nack(r, &p, v[A_trim_lasthop_dscp] && dscp == v[A_trim_lasthop_dscp] ?
			 MRT_NACK_TRIMMED_LASTHOP : MRT_NACK_TRIMMED, 0, emit, ctx);
		return;
	}
	/* pdc.c's mrt_rcv_room(), the engine's rule: a new packet in the
	 * window that does not fit is NACKed, but one at cack.  The
	 * simulated buffer counts payload bytes and its application reads
	 * them as they come (nothing waits whole, nothing is ever
	 * readable whole), so every PDC's packet at cack is taken as the
	 * kernel takes the one of the PDC with the oldest message, and a
	 * flow's message is never refused whole (the kernel refuses a
	 * message its buffer can never hold, MSG_TOO_BIG: a simulated
	 * receiver delivers a flow's bytes as they arrive).
	 */
	sock_drain(r->k, now);
	if (!mrt_psn_before(p.data.psn, r->rx.cack) &&
	    p.data.psn - r->rx.cack < r->rx.range && !mrt_rx_has(&r->rx, p.data.psn) &&
	    mrt_rx_room(r->k->occ, p.data.payload_len, r->k->rcvbuf, false,
			p.data.psn == r->rx.cack, 0, r->k->occ) != MRT_RX_ROOM_OK) {
		r->k->st.no_resource++;
		rcv_nack(r, &p, MRT_NACK_NO_RESOURCE, 0, emit, ctx);
		return;
	}
	switch (mrt_rx_accept(&r->rx, p.data.psn, nominal(p.data.payload_len))) {
	case MRT_RX_NEW:
		break;
	case MRT_RX_OOR:
		rcv_nack(r, &p, MRT_NACK_PSN_OOR_WINDOW, r->rx.range, emit, ctx);
		return;
	case MRT_RX_STRAY:
		return;
	default:
		rcv_ack(r, &p, ce, emit, ctx);
		return;
	}
	r->k->occ += p.data.payload_len;
	r->k->st.peak = max(r->k->st.peak, r->k->occ);
	piece = p.data.msg_offset / r->net->mss;
	if (r->got[piece])
		*dup = p.data.payload_len;
	else
		*delivered = p.data.payload_len;
	r->got[piece] = 1;
	if (mrt_rx_ack_at_once(&p, ce) || ++r->since_ack >= v[A_ack_every_pkts])
		rcv_ack(r, &p, ce, emit, ctx);
}

void sim_mrt_rcv_probe(struct sim_mrt_rcv *r, const uint8_t *hdr,
		       unsigned int len, sim_mrt_emit_fn emit, void *ctx)
{
	struct mrt_pkt p, a = { .type = MRT_TYPE_CTRL };
	u8 out[MRT_CTRL_HDR_LEN];

	if (mrt_parse(hdr, len, &p) || p.type != MRT_TYPE_CTRL ||
	    p.ctrl.ctl_type != MRT_CTRL_PROBE || p.dkey != r->key)
		return;
	a.spdcid = r->lid;
	a.dpdcid = p.spdcid;
	a.skey = r->key;
	a.dkey = p.skey;
	a.ev = p.ev;
	a.ctrl.ctl_type = MRT_CTRL_PROBE_ACK;
	a.ctrl.opaque = p.ctrl.opaque;
	a.ctrl.psn = p.ctrl.psn;
	mrt_build(out, &a);
	emit(ctx, out, MRT_CTRL_HDR_LEN, 0, p.ev, ctl_tos(r->net));
}

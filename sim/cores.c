// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim's C boundary to the congestion-control cores (sim/cores.h).
 * The cores are the kernel's files, built here as they are for ccreplay:
 * tools/include stands in for the kernel headers they include.
 */
#include <stdlib.h>
#include <string.h>

#include <net/fabric/dcqcn.h>
#include <net/fabric/nscc.h>
#include <net/fabric/swift.h>

#include "../tools/ccreplay/rows.h"
#include "cores.h"
#include "internal.h"

struct sim_cc {
	enum sim_cc_algo algo;
	FILE *trace;
	FILE *rows;
	union {
		struct nscc n;
		struct dcqcn d;
		struct swift s;
	};
	union {
		struct nscc_params np;
		struct dcqcn_params dp;
		struct swift_params sp;
	};
};

static const char * const algo_names[] = { "nscc", "dcqcn", "swift" };

int sim_attr_apply(const struct fabric_attr_desc *descs, unsigned int n, u32 *v,
		   const char *set, char *err, size_t errlen)
{
	const char *eq = strchr(set, '='), *why = "";
	unsigned int i;

	if (!eq) {
		snprintf(err, errlen, "%s: expected NAME=VALUE", set);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (strlen(descs[i].name) != (size_t)(eq - set) ||
		    strncmp(descs[i].name, set, eq - set))
			continue;
		if (fabric_attr_parse(&descs[i], eq + 1, &v[i], &why)) {
			snprintf(err, errlen, "%s: %s (range %u..%u)", set, why,
				 descs[i].min, descs[i].max);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "%s: no such attribute", set);
	return -1;
}

struct sim_cc *sim_cc_new(enum sim_cc_algo algo, const char *flavour,
			  const char *const *sets, int nsets, uint32_t mtu,
			  uint32_t init_milli, char *err, size_t errlen)
{
	const struct fabric_attr_desc *descs;
	struct sim_cc *c = calloc(1, sizeof(*c));
	const char *why = NULL;
	unsigned int n;
	u32 *v, f;
	int i;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->algo = algo;
	switch (algo) {
	case SIM_CC_NSCC:
		f = NSCC_FLAVOUR_UET;
		if (flavour && fabric_attr_parse(&nscc_attr_descs[NSCC_ATTR_flavour],
						 flavour, &f, &why)) {
			snprintf(err, errlen, "flavour %s: %s", flavour, why);
			goto fail;
		}
		nscc_params_init(&c->np, f);
		descs = nscc_attr_descs;
		n = NSCC_ATTR_COUNT;
		v = c->np.v;
		break;
	case SIM_CC_DCQCN:
		dcqcn_params_init(&c->dp);
		descs = dcqcn_attr_descs;
		n = DCQCN_ATTR_COUNT;
		v = c->dp.v;
		break;
	case SIM_CC_SWIFT:
		swift_params_init(&c->sp);
		descs = swift_attr_descs;
		n = SWIFT_ATTR_COUNT;
		v = c->sp.v;
		break;
	default:
		snprintf(err, errlen, "no algorithm %d", algo);
		goto fail;
	}
	for (i = 0; i < nsets; i++)
		if (sim_attr_apply(descs, n, v, sets[i], err, errlen))
			goto fail;
	switch (algo) {
	case SIM_CC_NSCC:
		if (nscc_params_check(&c->np, &why)) {
			snprintf(err, errlen, "nscc: %s", why);
			goto fail;
		}
		nscc_init(&c->n, &c->np, mtu, 0);
		break;
	case SIM_CC_DCQCN:
		dcqcn_init(&c->d, &c->dp);
		break;
	case SIM_CC_SWIFT:
		swift_init(&c->s, &c->sp, init_milli);
		break;
	}
	return c;
fail:
	free(c);
	return NULL;
}

void sim_cc_free(struct sim_cc *c)
{
	free(c);
}

/* The ccreplay command that replays this core's trace: every attribute
 * set explicitly, so that a change of a default cannot hide a difference.
 */
void sim_cc_trace(struct sim_cc *c, FILE *trace, FILE *rows)
{
	const struct fabric_attr_desc *descs;
	const u32 *v;
	unsigned int i, n;

	c->trace = trace;
	c->rows = rows;
	fprintf(trace, "# replay: ccreplay --algo %s", algo_names[c->algo]);
	switch (c->algo) {
	case SIM_CC_NSCC:
		descs = nscc_attr_descs;
		n = NSCC_ATTR_COUNT;
		v = c->np.v;
		fprintf(trace, " --flavour %s --mtu %u",
			nscc_flavour_names[NSCC_P(&c->np, flavour)], c->n.cfg.mtu);
		fprintf(rows, "%s\n", CCR_NSCC_HEADER);
		break;
	case SIM_CC_DCQCN:
		descs = dcqcn_attr_descs;
		n = DCQCN_ATTR_COUNT;
		v = c->dp.v;
		fprintf(rows, "%s\n", CCR_DCQCN_HEADER);
		break;
	default:
		descs = swift_attr_descs;
		n = SWIFT_ATTR_COUNT;
		v = c->sp.v;
		fprintf(trace, " --init-cwnd %llu",
			(unsigned long long)swift_cwnd_milli(&c->s));
		fprintf(rows, "%s\n", CCR_SWIFT_HEADER);
		break;
	}
	for (i = 0; i < n; i++) {
		const char *name = fabric_attr_name_of(&descs[i], v[i]);

		if (c->algo == SIM_CC_NSCC && i == NSCC_ATTR_flavour)
			continue;
		if (name)
			fprintf(trace, " --set %s=%s", descs[i].name, name);
		else
			fprintf(trace, " --set %s=%u", descs[i].name, v[i]);
	}
	fprintf(trace, "\n");
}

static void row(struct sim_cc *c, u64 t, const char *ev)
{
	switch (c->algo) {
	case SIM_CC_NSCC:
		ccr_row_nscc(c->rows, t, ev, &c->n);
		break;
	case SIM_CC_DCQCN:
		ccr_row_dcqcn(c->rows, t, ev, &c->d);
		break;
	case SIM_CC_SWIFT:
		ccr_row_swift(c->rows, t, ev, &c->s);
		break;
	}
}

static void rtt_kv(FILE *f, u64 rtt)
{
	if (rtt != SIM_NO_RTT)
		fprintf(f, " rtt=%llu", (unsigned long long)rtt);
}

int sim_nscc_ack(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt,
		 uint64_t service, bool ecn, uint8_t pen, bool restore)
{
	struct nscc_ack a = {
		.bytes = bytes, .rtt_ns = rtt, .service_ns = service,
		.ecn = ecn, .pen = pen, .restore = restore,
	};
	int r = nscc_on_ack(&c->n, t, &a);

	if (c->trace) {
		fprintf(c->trace, "%llu ack bytes=%llu", (unsigned long long)t,
			(unsigned long long)bytes);
		rtt_kv(c->trace, rtt);
		fprintf(c->trace, " service=%llu ecn=%d pen=%u restore=%d\n",
			(unsigned long long)service, ecn, pen, restore);
		row(c, t, "ack");
	}
	return r;
}

/* One of the events of a byte count and nothing else. */
static int bytes_event(struct sim_cc *c, u64 t, const char *ev, u64 bytes,
		       int r)
{
	if (c->trace) {
		fprintf(c->trace, "%llu %s bytes=%llu\n", (unsigned long long)t,
			ev, (unsigned long long)bytes);
		row(c, t, ev);
	}
	return r;
}

int sim_nscc_cack(struct sim_cc *c, uint64_t t, uint64_t bytes)
{
	return bytes_event(c, t, "cack", bytes, nscc_on_cack(&c->n, bytes));
}

int sim_nscc_loss(struct sim_cc *c, uint64_t t, uint64_t bytes)
{
	return bytes_event(c, t, "loss", bytes, nscc_on_loss(&c->n, bytes));
}

int sim_nscc_send(struct sim_cc *c, uint64_t t, uint64_t bytes)
{
	return bytes_event(c, t, "send", bytes, nscc_on_send(&c->n, bytes));
}

void sim_nscc_inflight(struct sim_cc *c, uint64_t t, int64_t bytes)
{
	if (c->n.inflight == bytes)
		return;
	c->n.inflight = bytes < 0 ? 0 : bytes;
	bytes_event(c, t, "inflight", c->n.inflight, 0);
}

static int nack_event(struct sim_cc *c, u64 t, const char *ev, u64 bytes,
		      u64 rtt, int r)
{
	if (c->trace) {
		fprintf(c->trace, "%llu %s bytes=%llu", (unsigned long long)t,
			ev, (unsigned long long)bytes);
		rtt_kv(c->trace, rtt);
		fprintf(c->trace, "\n");
		row(c, t, ev);
	}
	return r;
}

int sim_nscc_trim(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt)
{
	return nack_event(c, t, "trim", bytes, rtt,
			  nscc_on_trim(&c->n, t, bytes, rtt));
}

int sim_nscc_nack(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt)
{
	return nack_event(c, t, "nack", bytes, rtt,
			  nscc_on_nack(&c->n, t, bytes, rtt));
}

bool sim_nscc_can_send(const struct sim_cc *c, uint64_t bytes)
{
	return nscc_can_send(&c->n, bytes);
}

uint64_t sim_nscc_cwnd(const struct sim_cc *c)
{
	return c->n.cwnd;
}

uint64_t sim_nscc_max_wnd(const struct sim_cc *c)
{
	return c->n.max_wnd;
}

uint64_t sim_nscc_qa_count(const struct sim_cc *c)
{
	return c->n.st.qa_count;
}

bool sim_nscc_is_mrc(const struct sim_cc *c)
{
	return c->n.cfg.flavour == NSCC_FLAVOUR_MRC;
}

uint8_t sim_nscc_penalty(const struct sim_cc *c, uint32_t occupancy_milli)
{
	return nscc_receiver_penalty(&c->np, occupancy_milli);
}

/* As ccreplay runs a dcqcn event: the boundaries up to t first. */
static void dcqcn_event(struct sim_cc *c, u64 t, const char *ev, const char *key,
			u32 n)
{
	dcqcn_catch_up(&c->d, t, NULL, NULL);
	if (!strcmp(ev, "cnp"))
		dcqcn_on_cnp(&c->d, t, n);
	else if (!strcmp(ev, "tx"))
		dcqcn_on_tx(&c->d, n);
	if (c->trace) {
		fprintf(c->trace, "%llu %s", (unsigned long long)t, ev);
		if (key)
			fprintf(c->trace, " %s=%u", key, n);
		fprintf(c->trace, "\n");
		row(c, t, ev);
	}
}

void sim_dcqcn_tx(struct sim_cc *c, uint64_t t, uint32_t pkts)
{
	dcqcn_event(c, t, "tx", "pkts", pkts);
}

void sim_dcqcn_cnp(struct sim_cc *c, uint64_t t, uint32_t n)
{
	dcqcn_event(c, t, "cnp", "n", n);
}

void sim_dcqcn_tick(struct sim_cc *c, uint64_t t)
{
	dcqcn_event(c, t, "tick", NULL, 0);
}

uint64_t sim_dcqcn_rate_bps(const struct sim_cc *c)
{
	return (u64)c->d.rc_kbps * 1000;
}

uint64_t sim_dcqcn_next(const struct sim_cc *c)
{
	return c->d.next_run;
}

static void swift_trace(struct sim_cc *c, u64 t, const char *ev, u64 srtt)
{
	fprintf(c->trace, "%llu %s srtt=%llu", (unsigned long long)t, ev,
		(unsigned long long)srtt);
}

void sim_swift_ack(struct sim_cc *c, uint64_t t, uint64_t rtt, uint32_t acked,
		   uint64_t srtt, bool may_decrease)
{
	swift_on_ack(&c->s, t, rtt, acked, srtt, may_decrease);
	if (c->trace) {
		swift_trace(c, t, "ack", srtt);
		fprintf(c->trace, " rtt=%llu acked=%u nomd=%d\n",
			(unsigned long long)rtt, acked, !may_decrease);
		row(c, t, "ack");
	}
}

void sim_swift_rto(struct sim_cc *c, uint64_t t, uint64_t srtt)
{
	swift_on_rto(&c->s, t, srtt);
	if (c->trace) {
		swift_trace(c, t, "rto", srtt);
		fprintf(c->trace, "\n");
		row(c, t, "rto");
	}
}

void sim_swift_recovery(struct sim_cc *c, uint64_t t, uint64_t srtt)
{
	swift_on_recovery(&c->s, t, srtt);
	if (c->trace) {
		swift_trace(c, t, "recovery", srtt);
		fprintf(c->trace, "\n");
		row(c, t, "recovery");
	}
}

uint64_t sim_swift_cwnd_milli(const struct sim_cc *c)
{
	return swift_cwnd_milli(&c->s);
}

uint32_t sim_swift_pacing_gap_ns(const struct sim_cc *c)
{
	return c->s.pacing_gap;
}

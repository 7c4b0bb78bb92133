// SPDX-License-Identifier: GPL-2.0
/*
 * ccreplay --algo nscc: the NSCC core (net/nscc/nscc_core.c) over a trace.
 *
 * Events, the core's entry points (UET 1.0 section 3.6.13's OnACK,
 * OnNACK, OnInferredLoss and OnSend): ack is an ACK in the uet flavour
 * and a SACK in mrc; cack releases bytes only; trim is a trim NACK; nack
 * is any other NACK; loss is a presumed loss; send puts bytes in flight;
 * inflight sets the bytes in flight, as the TCP module does before each
 * ACK from TCP's own count (prior_in_flight) and fabsim's TCP with it.
 * Each key has the core's limit (include/net/fabric/nscc.h): bytes at
 * most NSCC_MAX_EVENT_BYTES, rtt and service at most NSCC_MAX_RTT_NS, pen
 * at most 127, ecn and restore 0 or 1.
 */
#include <stdio.h>
#include <string.h>

#include <net/fabric/nscc.h>

#include "ccreplay.h"
#include "rows.h"

static struct nscc_params nscc_p;
static struct nscc nscc_n;

static int nscc_defaults(const char *flavour, const char **why)
{
	u32 f = NSCC_FLAVOUR_UET;

	if (flavour && fabric_attr_parse(&nscc_attr_descs[NSCC_ATTR_flavour],
					 flavour, &f, why))
		return -EINVAL;
	nscc_params_init(&nscc_p, f);
	return 0;
}

static int nscc_start(const struct ccr_opts *o, const char **why)
{
	u32 hdr = NSCC_P(&nscc_p, flavour) == NSCC_FLAVOUR_MRC ?
		  NSCC_MRC_HDR_BYTES : NSCC_UET_HDR_BYTES;

	if (nscc_params_check(&nscc_p, why))
		return -EINVAL;
	nscc_init(&nscc_n, &nscc_p, o->mtu ? o->mtu : 4096 + hdr, 0);
	return 0;
}

static int nscc_event(struct ccr_event *ev, const char **why)
{
	struct nscc_ack a = { .rtt_ns = NSCC_NO_RTT };
	u64 ecn = 0, pen = 0, restore = 0, bytes = 0;
	const char *e = ev->name;
	int r;

	r = ccr_get_max(ev, "bytes", &bytes, NSCC_MAX_EVENT_BYTES, why);
	if (!r)
		*why = "missing bytes=";
	if (r <= 0)
		return -EINVAL;
	/* Only ack, trim, nack and probe take rtt=: the others leave it
	 * unused.
	 */
	if ((!strcmp(e, "ack") || !strcmp(e, "trim") || !strcmp(e, "nack") ||
	     !strcmp(e, "probe")) &&
	    ccr_get_max(ev, "rtt", &a.rtt_ns, NSCC_MAX_RTT_NS, why) < 0)
		return -EINVAL;
	if (!strcmp(e, "ack")) {
		if (ccr_get_max(ev, "service", &a.service_ns, NSCC_MAX_RTT_NS,
				why) < 0 ||
		    ccr_get_max(ev, "ecn", &ecn, 1, why) < 0 ||
		    ccr_get_max(ev, "pen", &pen, NSCC_PEN_MAX, why) < 0 ||
		    ccr_get_max(ev, "restore", &restore, 1, why) < 0)
			return -EINVAL;
		a.bytes = bytes;
		a.ecn = ecn;
		a.pen = pen;
		a.restore = restore;
		nscc_on_ack(&nscc_n, ev->t_ns, &a);
	} else if (!strcmp(e, "cack")) {
		nscc_on_cack(&nscc_n, bytes);
	} else if (!strcmp(e, "trim")) {
		nscc_on_trim(&nscc_n, ev->t_ns, bytes, a.rtt_ns);
	} else if (!strcmp(e, "nack")) {
		nscc_on_nack(&nscc_n, ev->t_ns, bytes, a.rtt_ns);
	} else if (!strcmp(e, "loss")) {
		nscc_on_loss(&nscc_n, bytes);
	} else if (!strcmp(e, "probe")) {
		if (a.rtt_ns != NSCC_NO_RTT)
			nscc_on_probe_rtt(&nscc_n, a.rtt_ns);
	} else if (!strcmp(e, "send")) {
		nscc_on_send(&nscc_n, bytes);
	} else if (!strcmp(e, "inflight")) {
		nscc_n.inflight = (s64)bytes;
	} else {
		*why = "unknown event (ack, cack, trim, nack, loss, probe, send, inflight)";
		return -EINVAL;
	}
	return 0;
}

static void nscc_print(const struct ccr_event *ev)
{
	ccr_row_nscc(stdout, ev->t_ns, ev->name, &nscc_n);
}

const struct ccr_algo ccr_algo_nscc = {
	.name = "nscc",
	.header = CCR_NSCC_HEADER,
	.events_help =
		"  ack bytes= [rtt=] [ecn=] [pen=] [restore=] [service=]\n"
		"  cack bytes=   trim bytes= [rtt=]   nack bytes= [rtt=]\n"
		"  loss bytes=   send bytes=   inflight bytes=\n"
		"  probe bytes=0 rtt=   (a reliability probe's answer)\n",
	.limits_help =
		"  bytes=                   <= 1099511627776 (2^40)\n"
		"  rtt=, service=           <= 10^12 ns (1000 s)\n"
		"  pen=                     <= 127\n"
		"  ecn=, restore=           0 or 1\n",
	.descs = nscc_attr_descs,
	.nattrs = NSCC_ATTR_COUNT,
	.values = nscc_p.v,
	.defaults = nscc_defaults,
	.start = nscc_start,
	.event = nscc_event,
	.print = nscc_print,
};

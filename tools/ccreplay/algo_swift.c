// SPDX-License-Identifier: GPL-2.0
/*
 * ccreplay --algo swift: the Swift core (net/swift/swift_core.c) over a
 * trace.  Events:
 *   ack rtt=NS acked=N [srtt=NS] [nomd=1]   an ACK of N packets with delay NS
 *   rto [srtt=NS]                           a retransmission timeout
 *   recovery [srtt=NS]                      fast recovery starts
 * srtt, which paces decreases and sets the pacing gap, follows the RTT
 * samples as TCP's does (7/8 old + 1/8 new, the first sample as is)
 * unless an event gives it.  nomd=1 marks a sample unfit for a decrease
 * (TCP: a delayed ACK or retransmitted data).  rtt and srtt are at most
 * SWIFT_MAX_DELAY_NS (1000 s), acked at most 2^32 - 1, nomd 0 or 1.
 */
#include <stdio.h>
#include <string.h>

#include <net/fabric/swift.h>

#include "ccreplay.h"
#include "rows.h"

static struct swift_params swift_p;
static struct swift swift_s;
static u64 swift_srtt;

static int swift_defaults(const char *flavour, const char **why)
{
	if (flavour) {
		*why = "swift has no flavours";
		return -EINVAL;
	}
	swift_params_init(&swift_p);
	return 0;
}

static int swift_start(const struct ccr_opts *o, const char **why)
{
	swift_init(&swift_s, &swift_p, o->init_cwnd ? o->init_cwnd : 10000);
	swift_srtt = 0;
	return 0;
}

static int swift_event(struct ccr_event *ev, const char **why)
{
	u64 rtt, acked = 1, srtt, nomd = 0;
	int given;

	given = ccr_get_max(ev, "srtt", &srtt, SWIFT_MAX_DELAY_NS, why);
	if (given < 0)
		return -EINVAL;
	if (!strcmp(ev->name, "ack")) {
		int r = ccr_get_max(ev, "rtt", &rtt, SWIFT_MAX_DELAY_NS, why);

		if (!r) {
			*why = "missing rtt=";
			return -EINVAL;
		}
		if (r < 0 || ccr_get_max(ev, "acked", &acked, U32_MAX, why) < 0 ||
		    ccr_get_max(ev, "nomd", &nomd, 1, why) < 0)
			return -EINVAL;
		swift_srtt = swift_srtt ? (7 * swift_srtt + rtt) / 8 : rtt;
		swift_on_ack(&swift_s, ev->t_ns, rtt, acked,
			     given ? srtt : swift_srtt, !nomd);
	} else if (!strcmp(ev->name, "rto")) {
		swift_on_rto(&swift_s, ev->t_ns, given ? srtt : swift_srtt);
	} else if (!strcmp(ev->name, "recovery")) {
		swift_on_recovery(&swift_s, ev->t_ns, given ? srtt : swift_srtt);
	} else {
		*why = "unknown event (ack, rto, recovery)";
		return -EINVAL;
	}
	return 0;
}

static void swift_print(const struct ccr_event *ev)
{
	ccr_row_swift(stdout, ev->t_ns, ev->name, &swift_s);
}

const struct ccr_algo ccr_algo_swift = {
	.name = "swift",
	.header = CCR_SWIFT_HEADER,
	.events_help =
		"  ack rtt=NS acked=N [srtt=NS] [nomd=1]   rto [srtt=NS]   recovery [srtt=NS]\n",
	.limits_help =
		"  rtt=, srtt=              <= 10^12 ns (1000 s)\n"
		"  acked=                   <= 4294967295 (2^32 - 1)\n"
		"  nomd=                    0 or 1\n",
	.descs = swift_attr_descs,
	.nattrs = SWIFT_ATTR_COUNT,
	.values = swift_p.v,
	.defaults = swift_defaults,
	.start = swift_start,
	.event = swift_event,
	.print = swift_print,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * ccreplay --algo dcqcn: the DCQCN core (net/dcqcn/dcqcn_core.c) over a
 * trace.  Each event first replays the control-loop boundaries that have
 * passed by its time with the core's dcqcn_catch_up(), the TCP module's
 * own (so after DCQCN_MAX_CATCHUP silent boundaries the episode is closed
 * at line rate, as in the kernel), then:
 *   cnp [n=K]    K CNPs arrive (default 1)
 *   tx [pkts=N]  N data packets are sent (default 1)
 *   tick         nothing more: only the catch-up
 * K and N are at most 2^32 - 1, the core's u32 counts.
 */
#include <stdio.h>
#include <string.h>

#include <net/fabric/dcqcn.h>

#include "ccreplay.h"
#include "rows.h"

static struct dcqcn_params dcqcn_p;
static struct dcqcn dcqcn_d;

static int dcqcn_defaults(const char *flavour, const char **why)
{
	if (flavour) {
		*why = "dcqcn has no flavours";
		return -EINVAL;
	}
	dcqcn_params_init(&dcqcn_p);
	return 0;
}

static int dcqcn_start(const struct ccr_opts *o, const char **why)
{
	dcqcn_init(&dcqcn_d, &dcqcn_p);
	return 0;
}

static int dcqcn_event(struct ccr_event *ev, const char **why)
{
	bool cnp = !strcmp(ev->name, "cnp"), tx = !strcmp(ev->name, "tx");
	u64 n = 1;

	if (!cnp && !tx && strcmp(ev->name, "tick")) {
		*why = "unknown event (cnp, tx, tick)";
		return -EINVAL;
	}
	if ((cnp && ccr_get_max(ev, "n", &n, U32_MAX, why) < 0) ||
	    (tx && ccr_get_max(ev, "pkts", &n, U32_MAX, why) < 0))
		return -EINVAL;
	dcqcn_catch_up(&dcqcn_d, ev->t_ns, NULL, NULL);
	if (cnp)
		dcqcn_on_cnp(&dcqcn_d, ev->t_ns, n);
	else if (tx)
		dcqcn_on_tx(&dcqcn_d, n);
	return 0;
}

static void dcqcn_print(const struct ccr_event *ev)
{
	ccr_row_dcqcn(stdout, ev->t_ns, ev->name, &dcqcn_d);
}

const struct ccr_algo ccr_algo_dcqcn = {
	.name = "dcqcn",
	.header = CCR_DCQCN_HEADER,
	.events_help =
		"  cnp [n=K]   tx [pkts=N]   tick   (each first runs the loop up to its time)\n",
	.limits_help =
		"  n=, pkts=                <= 4294967295 (2^32 - 1, the core's counts)\n",
	.descs = dcqcn_attr_descs,
	.nattrs = DCQCN_ATTR_COUNT,
	.values = dcqcn_p.v,
	.defaults = dcqcn_defaults,
	.start = dcqcn_start,
	.event = dcqcn_event,
	.print = dcqcn_print,
};

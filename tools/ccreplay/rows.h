/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccreplay's output rows, one per event: the state a core is left in.
 * Shared by ccreplay and fabsim (sim/cores.c), which writes the same rows
 * as it runs a core so that a replay of its trace can be compared byte
 * for byte.
 */
#ifndef _CCREPLAY_ROWS_H
#define _CCREPLAY_ROWS_H

#include <stdio.h>

#include <net/fabric/dcqcn.h>
#include <net/fabric/nscc.h>
#include <net/fabric/swift.h>

#define CCR_NSCC_HEADER \
	"t_ns event cwnd max_wnd inflight base_rtt_ns avg_delay_ns qa_count fi_count"
#define CCR_DCQCN_HEADER "t_ns event rate_mbps target_mbps alpha rcount congested"
#define CCR_SWIFT_HEADER "t_ns event cwnd_milli target_ns pacing_gap_ns"

static inline void ccr_row_nscc(FILE *f, u64 t, const char *ev,
				const struct nscc *n)
{
	fprintf(f, "%llu %s %llu %llu %lld %llu %llu %llu %llu\n",
		(unsigned long long)t, ev,
		(unsigned long long)n->cwnd, (unsigned long long)n->max_wnd,
		(long long)n->inflight, (unsigned long long)n->base_rtt,
		(unsigned long long)nscc_avg_delay(n),
		(unsigned long long)n->st.qa_count,
		(unsigned long long)n->st.fi_count);
}

static inline void ccr_row_dcqcn(FILE *f, u64 t, const char *ev,
				 const struct dcqcn *d)
{
	u64 alpha = ((u64)d->alpha * 1000000 + (1 << 15)) >> 16;

	fprintf(f, "%llu %s %u.%03u %u.%03u %llu.%06llu %d %u\n",
		(unsigned long long)t, ev,
		d->rc_kbps / 1000, d->rc_kbps % 1000,
		d->rt_kbps / 1000, d->rt_kbps % 1000,
		(unsigned long long)(alpha / 1000000),
		(unsigned long long)(alpha % 1000000), d->rcount, d->congested);
}

static inline void ccr_row_swift(FILE *f, u64 t, const char *ev,
				 const struct swift *s)
{
	fprintf(f, "%llu %s %llu %u %u\n", (unsigned long long)t, ev,
		(unsigned long long)swift_cwnd_milli(s), swift_target(s),
		s->pacing_gap);
}

#endif /* _CCREPLAY_ROWS_H */

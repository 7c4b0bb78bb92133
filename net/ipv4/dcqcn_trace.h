/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoint of tcp_dcqcn: one event per run of the rate-control loop,
 * catch-up runs included.  Read it with
 *   echo 1 > /sys/kernel/tracing/events/dcqcn/dcqcn_run/enable
 * or bpftrace -e 'tracepoint:dcqcn:dcqcn_run { ... }'.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dcqcn

#if !defined(_TRACE_DCQCN_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DCQCN_H

#include <linux/tracepoint.h>
#include <net/sock.h>
#include <net/fabric/dcqcn.h>

/* Phase names from the enum's list (include/net/fabric/dcqcn.h), exported
 * with TRACE_DEFINE_ENUM for perf and trace-cmd.
 */
#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);
DCQCN_PHASES
#undef EM
#undef EMe
#define EM(a, b)	{ a, #b },
#define EMe(a, b)	{ a, #b }

#define dcqcn_show_phase(p)	__print_symbolic(p, DCQCN_PHASES)

TRACE_EVENT(dcqcn_run,
	    TP_PROTO(const struct sock *sk, const struct dcqcn *d, u64 t_ns),
	    TP_ARGS(sk, d, t_ns),
	    TP_STRUCT__entry(__field(u64, t_ns)
			     __field(u32, rate_kbps)
			     __field(u32, target_kbps)
			     __field(u32, alpha_milli)
			     __field(s32, rcount)
			     __field(int, phase)
			     __field(u16, sport)
			     __field(u16, dport)
			     __field(u8, congested)),
	    TP_fast_assign(__entry->t_ns = t_ns;
			   __entry->rate_kbps = d->rc_kbps;
			   __entry->target_kbps = d->rt_kbps;
			   __entry->alpha_milli = ((u64)d->alpha * 1000) >> 16;
			   __entry->rcount = d->rcount;
			   __entry->phase = d->last_phase;
			   __entry->sport = sk->sk_num;
			   __entry->dport = ntohs(sk->sk_dport);
			   __entry->congested = d->congested),
	    TP_printk("sport=%u dport=%u t_ns=%llu phase=%s rate_kbps=%u target_kbps=%u alpha_milli=%u rcount=%d congested=%u",
		      __entry->sport, __entry->dport, __entry->t_ns,
		      dcqcn_show_phase(__entry->phase), __entry->rate_kbps,
		      __entry->target_kbps, __entry->alpha_milli,
		      __entry->rcount, __entry->congested)
);

#endif /* _TRACE_DCQCN_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE dcqcn_trace
#include <trace/define_trace.h>

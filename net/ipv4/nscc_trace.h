/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint of tcp_nscc: one event per window update, with the routine
 * the core took.  Read it with
 *   echo 1 > /sys/kernel/tracing/events/nscc/nscc_update/enable
 * or bpftrace -e 'tracepoint:nscc:nscc_update { ... }'.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nscc

#if !defined(_TRACE_NSCC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_NSCC_H

#include <linux/tracepoint.h>
#include <net/sock.h>
#include <net/fabric/nscc.h>

/* The routine names from the enum's own list (include/net/fabric/nscc.h):
 * TRACE_DEFINE_ENUM exports each value so that perf and trace-cmd resolve
 * the names too, not only the kernel's own trace output.
 */
#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);
NSCC_ROUTINES
#undef EM
#undef EMe
#define EM(a, b)	{ a, #b },
#define EMe(a, b)	{ a, #b }

#define nscc_show_routine(r)	__print_symbolic(r, NSCC_ROUTINES)

TRACE_EVENT(nscc_update,
	    TP_PROTO(const struct sock *sk, const struct nscc *n, int routine,
		     u32 cwnd_pkts),
	    TP_ARGS(sk, n, routine, cwnd_pkts),
	    TP_STRUCT__entry(__field(u64, cwnd)
			     __field(u64, max_wnd)
			     __field(s64, inflight)
			     __field(u64, base_rtt_ns)
			     __field(u64, avg_delay_ns)
			     __field(u64, delay_ns)
			     __field(u64, min_rtt_ns)
			     __field(u32, cwnd_pkts)
			     __field(u8, base_misfit)
			     __field(u32, mtu)
			     __field(u32, cfg_base_rtt_ns)
			     __field(u32, target_ns)
			     __field(u32, rate_mbps)
			     __field(int, routine)
			     __field(u16, sport)
			     __field(u16, dport)),
	    TP_fast_assign(__entry->cwnd = n->cwnd;
			   __entry->max_wnd = n->max_wnd;
			   __entry->inflight = n->inflight;
			   __entry->base_rtt_ns = n->base_rtt;
			   __entry->avg_delay_ns = nscc_avg_delay(n);
			   __entry->delay_ns = n->last_delay;
			   /* TCP's min RTT; ~0 (none yet) reads as 0 */
			   __entry->min_rtt_ns = tcp_min_rtt(tcp_sk(sk));
			   __entry->min_rtt_ns = __entry->min_rtt_ns == ~0U ? 0 :
				__entry->min_rtt_ns * NSEC_PER_USEC;
			   /* as tcp_nscc_check_base() counts it */
			   __entry->base_misfit = __entry->min_rtt_ns >=
				(u64)n->cfg.cfg_base_rtt * TCP_NSCC_MISFIT_RATIO;
			   __entry->cwnd_pkts = cwnd_pkts;
			   __entry->mtu = n->cfg.mtu;
			   __entry->cfg_base_rtt_ns = n->cfg.cfg_base_rtt;
			   __entry->target_ns = n->cfg.target;
			   __entry->rate_mbps = n->cfg.rate_mbps;
			   __entry->routine = routine;
			   __entry->sport = sk->sk_num;
			   __entry->dport = ntohs(sk->sk_dport)),
	    TP_printk("sport=%u dport=%u routine=%s cwnd=%llu cwnd_pkts=%u mtu=%u max_wnd=%llu inflight=%lld base_rtt_ns=%llu avg_delay_ns=%llu delay_ns=%llu min_rtt_ns=%llu base_misfit=%d cfg_base_rtt_ns=%u target_ns=%u rate_mbps=%u",
		      __entry->sport, __entry->dport,
		      nscc_show_routine(__entry->routine),
		      __entry->cwnd, __entry->cwnd_pkts, __entry->mtu,
		      __entry->max_wnd, __entry->inflight, __entry->base_rtt_ns,
		      __entry->avg_delay_ns, __entry->delay_ns, __entry->min_rtt_ns,
		      __entry->base_misfit, __entry->cfg_base_rtt_ns,
		      __entry->target_ns, __entry->rate_mbps)
);

#endif /* _TRACE_NSCC_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE nscc_trace
#include <trace/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoint of tcp_swift: one event per window update (ACK, timeout,
 * fast recovery).  Read it with
 *   echo 1 > /sys/kernel/tracing/events/swift/swift_update/enable
 * or bpftrace -e 'tracepoint:swift:swift_update { ... }'.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM swift

#if !defined(_TRACE_SWIFT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SWIFT_H

#include <linux/tracepoint.h>
#include <net/sock.h>
#include <net/fabric/swift.h>

/* Decision names from the enum's list (include/net/fabric/swift.h),
 * exported with TRACE_DEFINE_ENUM for perf and trace-cmd.
 */
#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);
SWIFT_DECISIONS
#undef EM
#undef EMe
#define EM(a, b)	{ a, #b },
#define EMe(a, b)	{ a, #b }

#define swift_show_decision(d)	__print_symbolic(d, SWIFT_DECISIONS)

TRACE_EVENT(swift_update,
	    TP_PROTO(const struct sock *sk, const struct swift *s, u32 srtt_us),
	    TP_ARGS(sk, s, srtt_us),
	    TP_STRUCT__entry(__field(u64, cwnd_milli)
			     __field(u32, delay_ns)
			     __field(u32, target_ns)
			     __field(u32, pacing_gap_ns)
			     __field(u32, srtt_us)
			     __field(int, decision)
			     __field(u16, sport)
			     __field(u16, dport)),
	    TP_fast_assign(__entry->cwnd_milli = swift_cwnd_milli(s);
			   __entry->delay_ns = s->last_delay;
			   __entry->target_ns = s->last_target;
			   __entry->pacing_gap_ns = s->pacing_gap;
			   __entry->srtt_us = srtt_us;
			   __entry->decision = s->last_decision;
			   __entry->sport = sk->sk_num;
			   __entry->dport = ntohs(sk->sk_dport)),
	    TP_printk("sport=%u dport=%u decision=%s cwnd_milli=%llu delay_ns=%u target_ns=%u pacing_gap_ns=%u srtt_us=%u",
		      __entry->sport, __entry->dport,
		      swift_show_decision(__entry->decision),
		      __entry->cwnd_milli, __entry->delay_ns,
		      __entry->target_ns, __entry->pacing_gap_ns,
		      __entry->srtt_us)
);

#endif /* _TRACE_SWIFT_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE swift_trace
#include <trace/define_trace.h>

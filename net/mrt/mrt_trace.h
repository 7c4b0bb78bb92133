/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrt's tracepoints (mrt:*): packets out and in, ACKs and NACKs,
 * retransmissions with their cause, timer expiries, PDC states, NSCC's
 * updates under nscc:nscc_update's field names, and the spec's RTT
 * monitor (trigger_logging_on_rtt_enable).  Each names the PDC by its
 * local id (lid), as /proc/net/mrt/pdcs lists it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrt

#if !defined(_TRACE_MRT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MRT_H

#include <linux/tracepoint.h>
#include <net/fabric/nscc.h>

#include "mrt.h"

#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);
NSCC_ROUTINES
MRT_RTX_CAUSES
MRT_PDC_STATES
MRT_EV_STATES
MRT_EV_CAUSES
#undef EM
#undef EMe
#define EM(a, b)	{ a, #b },
#define EMe(a, b)	{ a, #b }
#define mrt_show_routine(r)	__print_symbolic(r, NSCC_ROUTINES)
#define mrt_show_cause(r)	__print_symbolic(r, MRT_RTX_CAUSES)
#define mrt_show_state(r)	__print_symbolic(r, MRT_PDC_STATES)
#define mrt_show_ev_state(r)	__print_symbolic(r, MRT_EV_STATES)
#define mrt_show_ev_why(r)	__print_symbolic(r, MRT_EV_CAUSES)

TRACE_EVENT(mrt_tx,
	    TP_PROTO(const struct mrt_pdc *pdc, u32 psn, u32 len, u8 flags),
	    TP_ARGS(pdc, psn, len, flags),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u16, ev)
			     __field(u32, psn)
			     __field(u32, len)
			     __field(u8, flags)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->ev = pdc->ev;
			   __entry->psn = psn;
			   __entry->len = len;
			   __entry->flags = flags),
	    TP_printk("lid=%u psn=%u len=%u flags=0x%x ev=%u", __entry->lid,
		      __entry->psn, __entry->len, __entry->flags, __entry->ev)
);

TRACE_EVENT(mrt_rx,
	    TP_PROTO(const struct mrt_pdc *pdc, u32 psn, u32 len, int verdict,
		     bool ce),
	    TP_ARGS(pdc, psn, len, verdict, ce),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u32, psn)
			     __field(u32, len)
			     __field(u32, cack)
			     __field(int, verdict)
			     __field(u8, ce)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->psn = psn;
			   __entry->len = len;
			   __entry->cack = pdc->rx.cack;
			   __entry->verdict = verdict;
			   __entry->ce = ce),
	    TP_printk("lid=%u psn=%u len=%u cack=%u verdict=%s ce=%u",
		      __entry->lid, __entry->psn, __entry->len, __entry->cack,
		      __print_symbolic(__entry->verdict, { MRT_RX_NEW, "new" },
				       { MRT_RX_DUP, "dup" }, { MRT_RX_OLD, "old" },
				       { MRT_RX_OOR, "oor" },
				       { MRT_RX_STRAY, "stray" }),
		      __entry->ce)
);

TRACE_EVENT(mrt_ack,
	    TP_PROTO(const struct mrt_pdc *pdc, const struct mrt_ack *a,
		     u8 flags, u64 newly_bytes, u64 rtt_ns),
	    TP_ARGS(pdc, a, flags, newly_bytes, rtt_ns),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u32, cack)
			     __field(u32, ack_psn)
			     __field(u32, sack_base)
			     __field(u64, sack_bitmap)
			     __field(u32, una)
			     __field(u32, nxt)
			     __field(u64, newly_bytes)
			     __field(u64, rtt_ns)
			     __field(u8, pen)
			     __field(u8, flags)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->cack = a->cack_psn;
			   __entry->ack_psn = a->ack_psn;
			   __entry->sack_base = a->sack_base_psn;
			   __entry->sack_bitmap = a->sack_bitmap;
			   __entry->una = pdc->snd.tx.una;
			   __entry->nxt = pdc->snd.tx.nxt;
			   __entry->newly_bytes = newly_bytes;
			   __entry->rtt_ns = rtt_ns == NSCC_NO_RTT ? 0 : rtt_ns;
			   __entry->pen = a->rcv_cwnd_pen;
			   __entry->flags = flags),
	    TP_printk("lid=%u cack=%u ack_psn=%u sack_base=%u sack_bitmap=0x%llx una=%u nxt=%u newly_bytes=%llu rtt_ns=%llu pen=%u flags=0x%x",
		      __entry->lid, __entry->cack, __entry->ack_psn,
		      __entry->sack_base, __entry->sack_bitmap, __entry->una,
		      __entry->nxt, __entry->newly_bytes, __entry->rtt_ns,
		      __entry->pen, __entry->flags)
);

TRACE_EVENT(mrt_nack,
	    TP_PROTO(const struct mrt_pdc *pdc, u32 psn, u8 code, u8 flags),
	    TP_ARGS(pdc, psn, code, flags),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u32, psn)
			     __field(u8, code)
			     __field(u8, flags)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->psn = psn;
			   __entry->code = code;
			   __entry->flags = flags),
	    TP_printk("lid=%u psn=%u code=%s flags=0x%x", __entry->lid,
		      __entry->psn,
		      __print_symbolic(__entry->code,
				       { MRT_NACK_TRIMMED, "trimmed" },
				       { MRT_NACK_TRIMMED_LASTHOP, "trimmed_lasthop" },
				       { MRT_NACK_NO_RESOURCE, "no_resource" },
				       { MRT_NACK_PSN_OOR_WINDOW, "psn_oor_window" },
				       { MRT_NACK_INV_DPDCID, "inv_dpdcid" },
				       { MRT_NACK_NO_ENDPOINT, "no_endpoint" },
				       { MRT_NACK_CLOSING, "closing" }),
		      __entry->flags)
);

TRACE_EVENT(mrt_retransmit,
	    TP_PROTO(const struct mrt_pdc *pdc, u32 psn, int cause, u8 tx_count),
	    TP_ARGS(pdc, psn, cause, tx_count),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u32, psn)
			     __field(int, cause)
			     __field(u8, tx_count)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->psn = psn;
			   __entry->cause = cause;
			   __entry->tx_count = tx_count),
	    TP_printk("lid=%u psn=%u cause=%s tx_count=%u", __entry->lid,
		      __entry->psn, mrt_show_cause(__entry->cause),
		      __entry->tx_count)
);

TRACE_EVENT(mrt_rto,
	    TP_PROTO(const struct mrt_pdc *pdc, u32 expired, u32 rto_us),
	    TP_ARGS(pdc, expired, rto_us),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u32, expired)
			     __field(u32, rto_us)
			     __field(u32, una)
			     __field(u32, nxt)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->expired = expired;
			   __entry->rto_us = rto_us;
			   __entry->una = pdc->snd.tx.una;
			   __entry->nxt = pdc->snd.tx.nxt),
	    TP_printk("lid=%u expired=%u rto_us=%u una=%u nxt=%u", __entry->lid,
		      __entry->expired, __entry->rto_us, __entry->una,
		      __entry->nxt)
);

TRACE_EVENT(mrt_pdc_state,
	    TP_PROTO(const struct mrt_pdc *pdc, int err),
	    TP_ARGS(pdc, err),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u16, rid)
			     __field(u16, peer_ep)
			     __field(u8, role)
			     __field(int, state)
			     __field(int, err)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->rid = pdc->rid;
			   __entry->peer_ep = pdc->peer_ep;
			   __entry->role = pdc->role;
			   __entry->state = pdc->state;
			   __entry->err = err;
			   memcpy(__entry->peer, &pdc->peer.a, 16)),
	    TP_printk("lid=%u rid=%u role=%s state=%s peer=%pI6c peer_ep=%u err=%d",
		      __entry->lid, __entry->rid,
		      __entry->role == MRT_PDC_TX ? "tx" : "rx",
		      mrt_show_state(__entry->state), __entry->peer,
		      __entry->peer_ep, __entry->err)
);

/* An EV of a destination changed state (ev: its UDP source port; usable:
 * the destination's EVs GOOD or SKIP after it).
 */
TRACE_EVENT(mrt_ev_state,
	    TP_PROTO(const struct mrt_dest *d, unsigned int i, u8 from, u8 to,
		     u8 why),
	    TP_ARGS(d, i, from, to, why),
	    TP_STRUCT__entry(__array(u8, dest, 16)
			     __field(u16, ev)
			     __field(u16, usable)
			     __field(u16, count)
			     __field(u8, from)
			     __field(u8, to)
			     __field(u8, why)),
	    TP_fast_assign(memcpy(__entry->dest, &d->addr.a, 16);
			   __entry->ev = mrt_ev_port(&d->evs, i);
			   __entry->usable = d->evs.usable;
			   __entry->count = d->evs.p.count;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->why = why),
	    TP_printk("dest=%pI6c ev=%u %s -> %s why=%s usable=%u/%u",
		      __entry->dest, __entry->ev, mrt_show_ev_state(__entry->from),
		      mrt_show_ev_state(__entry->to), mrt_show_ev_why(__entry->why),
		      __entry->usable, __entry->count)
);

/* nscc:nscc_update's fields, for the destination of a PDC. */
TRACE_EVENT(mrt_nscc_update,
	    TP_PROTO(const struct mrt_pdc *pdc, const struct nscc *n, int routine),
	    TP_ARGS(pdc, n, routine),
	    TP_STRUCT__entry(__field(u64, cwnd)
			     __field(u64, max_wnd)
			     __field(s64, inflight)
			     __field(u64, base_rtt_ns)
			     __field(u64, avg_delay_ns)
			     __field(u64, delay_ns)
			     __field(u32, cwnd_pkts)
			     __field(u32, mtu)
			     __field(u32, cfg_base_rtt_ns)
			     __field(u32, target_ns)
			     __field(u32, rate_mbps)
			     __field(int, routine)
			     __field(u16, lid)
			     __array(u8, dest, 16)),
	    TP_fast_assign(__entry->cwnd = n->cwnd;
			   __entry->max_wnd = n->max_wnd;
			   __entry->inflight = n->inflight;
			   __entry->base_rtt_ns = n->base_rtt;
			   __entry->avg_delay_ns = nscc_avg_delay(n);
			   __entry->delay_ns = n->last_delay;
			   __entry->mtu = n->cfg.mtu;
			   __entry->cwnd_pkts = n->cfg.mtu ?
				div_u64(n->cwnd, n->cfg.mtu) : 0;
			   __entry->cfg_base_rtt_ns = n->cfg.cfg_base_rtt;
			   __entry->target_ns = n->cfg.target;
			   __entry->rate_mbps = n->cfg.rate_mbps;
			   __entry->routine = routine;
			   __entry->lid = pdc->lid;
			   memcpy(__entry->dest, &pdc->peer.a, 16)),
	    TP_printk("lid=%u dest=%pI6c routine=%s cwnd=%llu cwnd_pkts=%u mtu=%u max_wnd=%llu inflight=%lld base_rtt_ns=%llu avg_delay_ns=%llu delay_ns=%llu cfg_base_rtt_ns=%u target_ns=%u rate_mbps=%u",
		      __entry->lid, __entry->dest,
		      mrt_show_routine(__entry->routine), __entry->cwnd,
		      __entry->cwnd_pkts, __entry->mtu, __entry->max_wnd,
		      __entry->inflight, __entry->base_rtt_ns,
		      __entry->avg_delay_ns, __entry->delay_ns,
		      __entry->cfg_base_rtt_ns, __entry->target_ns,
		      __entry->rate_mbps)
);

/* The UET page's monitor: once an RTT on a PDC reaches
 * trigger_logging_on_rtt_threshold_ns, or a receiver penalty
 * trigger_logging_on_cwind_pen_threshold, a row for each of the PDC's
 * packets: a data packet sent (ack 0, its PSN, no RTT) and an ACK received
 * (ack 1, the PSN it answers, its RTT sample or 0), with the window and
 * the last receiver penalty.
 */
TRACE_EVENT(mrt_rtt_log,
	    TP_PROTO(const struct mrt_pdc *pdc, bool ack, u32 psn, u64 rtt_ns,
		     u64 cwnd, u8 pen),
	    TP_ARGS(pdc, ack, psn, rtt_ns, cwnd, pen),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u8, ack)
			     __field(u32, psn)
			     __field(u64, rtt_ns)
			     __field(u64, cwnd)
			     __field(u8, pen)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->ack = ack;
			   __entry->psn = psn;
			   __entry->rtt_ns = rtt_ns;
			   __entry->cwnd = cwnd;
			   __entry->pen = pen),
	    TP_printk("lid=%u ack=%u psn=%u rtt_ns=%llu cwnd=%llu rcv_cwnd_pen=%u",
		      __entry->lid, __entry->ack, __entry->psn, __entry->rtt_ns,
		      __entry->cwnd, __entry->pen)
);

#undef EM
#undef EMe
#endif /* _TRACE_MRT_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE mrt_trace
#include <trace/define_trace.h>

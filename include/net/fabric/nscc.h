/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC, Network Signal-based Congestion Control (Ultra Ethernet 1.0
 * section 3.6.13): the pure algorithm core.
 *
 * One core, two flavours, so that what the pages share is written once
 * (see Documentation/networking/nscc.rst, "Design decisions"):
 *   mrc - driven by SACKs: no ECN, no multiplicative decrease, no receiver
 *         penalty, presumed losses from SACK gaps, CanSend is
 *         inflight < cwnd (the "Scala MRC NIC" page);
 *   uet - driven by ACKs: ECN echo and multiplicative decrease, receiver
 *         penalty, base-RTT hysteresis of 1 us, Quick Adapt's delay trigger
 *         on the average, CanSend is inflight + size <= cwnd (the "Scala
 *         UET NIC" page).
 *
 * The core knows nothing of sockets or packets.  Callers feed it events in
 * nominal bytes (the IP datagram of a packet, which sender and receiver
 * must count alike or the bytes in flight drift) and nanoseconds, and
 * read back the window.  Time only moves through the "now" arguments.
 *
 * include/net/fabric/nscc_attrs.h is the single table of user-facing knobs.  The
 * TCP module turns it into module parameters and per-netns sysctls, and
 * ccreplay into --set keys, all under the same names.
 */
#ifndef _NET_FABRIC_NSCC_H
#define _NET_FABRIC_NSCC_H

#include <net/fabric/attr.h>

/*
 * Enum lists: one EM(value, name) row per value, EMe() for the last.  Each
 * list makes the enum, the core's names array and, in the tracepoint
 * header, TRACE_DEFINE_ENUM and __print_symbolic, so the four cannot
 * disagree and perf and trace-cmd print names (include/trace/events/sock.h
 * does the same).  A user defines EM and EMe, expands the list, and
 * undefines them.
 */
#define NSCC_FLAVOURS				\
	EM(NSCC_FLAVOUR_MRC, mrc)		\
	EMe(NSCC_FLAVOUR_UET, uet)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum nscc_flavour { NSCC_FLAVOURS NSCC_FLAVOUR_COUNT };
#undef EM
#undef EMe

/* Nominal header bytes per flavour on the NICs the spec pages describe. */
#define NSCC_MRC_HDR_BYTES	60
#define NSCC_UET_HDR_BYTES	88

enum nscc_attr_id {
#define NSCC_ATTR(name, kind, def, lo, hi, unit, help) NSCC_ATTR_##name,
#include <net/fabric/nscc_attrs.h>
#undef NSCC_ATTR
	NSCC_ATTR_COUNT
};

/* User-facing attribute values, indexed by enum nscc_attr_id. */
struct nscc_params {
	u32 v[NSCC_ATTR_COUNT];
};

#define NSCC_P(p, name) ((p)->v[NSCC_ATTR_##name])

/* The routine an event took; also the tracepoint's "routine" field. */
#define NSCC_ROUTINES							\
	EM(NSCC_R_NONE, none)		/* no RTT sample: bytes released */ \
	EM(NSCC_R_PROPORTIONAL, proportional)				\
	EM(NSCC_R_FAST, fast)						\
	EM(NSCC_R_FAIR, fair)						\
	EM(NSCC_R_MD, md)		/* multiplicative decrease ran */ \
	EM(NSCC_R_HOLD, hold)		/* ECN below target, or rx-limited */ \
	EM(NSCC_R_QA, qa)		/* Quick Adapt fired */		\
	EM(NSCC_R_QA_IGNORE, qa_ignore)	/* in Quick Adapt's ignore phase */ \
	EM(NSCC_R_TRIM, trim)		/* trim NACK shrank the window */ \
	EM(NSCC_R_NACK, nack)		/* other NACK: bytes released */ \
	EM(NSCC_R_LOSS, loss)		/* presumed loss */		\
	EM(NSCC_R_CACK, cack)		/* cumulative ACK: bytes released */ \
	EM(NSCC_R_SEND, send)						\
	EMe(NSCC_R_DISABLED, disabled)	/* nscc_enable is 0 */

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum nscc_routine { NSCC_ROUTINES NSCC_R_COUNT };
#undef EM
#undef EMe

/* Constants derived once per window from the parameters, in integer and
 * Q16 fixed point.
 */
struct nscc_cfg {
	u8 flavour;
	bool trimming;
	bool disable_qa;
	bool override_max;
	bool pass_through;
	bool enable;
	bool auto_base;		/* config_base_rtt_ns 0: learnt from samples */
	u8 qa_gate;
	u32 mtu;		/* nominal full packet, bytes: the gains' MTU */
	u32 cfg_base_rtt;	/* ns; also the adjust period */
	u32 target;		/* target queueing delay, ns */
	u32 margin;		/* fast-increase margin, ns */
	u32 qa_threshold;	/* ns; U32_MAX when trimming */
	u32 rate_mbps;		/* data_rate_mbps; 0 is the fallback */
	u64 adjust_bytes;	/* 8 nominal packets */
	u64 alpha_q;		/* Q16 bytes per ns per acked byte */
	u64 fi_q;		/* Q16 bytes (fair increase per window) */
	u64 fis_q;		/* Q16 (fast increase bytes per acked byte) */
	u64 eta;		/* bytes */
	u32 gamma_q;		/* Q16 */
	u32 mdjump_q;		/* Q16 */
	u32 dalpha_q;		/* Q16 */
};

/* Counters, as the spec pages' records show them. */
struct nscc_stats {
	u64 acks;		/* ACKs or SACKs processed */
	u64 rtt_samples;
	u64 qa_count;		/* total_qa_count / num_quick_adapt */
	u64 fi_count;		/* total_fi_count: fast-increase steps */
	u64 md_count;		/* multiplicative decreases that cut */
	u64 ecn_acks;		/* ECN-echo ACKs with an RTT sample */
	u64 trims;		/* trim NACKs received */
	u64 nacks;		/* other NACKs */
	u64 losses;		/* presumed losses (SACK gap or timer) */
	u64 penalties;		/* ACKs carrying a receiver penalty */
	u64 fulfills;		/* pending increase applied */
	u64 etas;		/* additive term added */
	u64 base_learnt;	/* auto: samples that set the config base RTT */
};

struct nscc {
	struct nscc_cfg cfg;
	struct nscc_params p;	/* what it started with, for nscc_cfg_*() */
	u64 cwnd;		/* bytes */
	u64 max_wnd;		/* bytes */
	s64 inflight;		/* bytes; may go slightly negative */
	u64 saved_cwnd;		/* receiver penalty; 0 = none saved */
	u64 base_rtt;		/* ns; only falls */
	u64 auto_srtt;		/* ns, auto base: smoothed samples; 0: none */
	u64 delay_ref;		/* ns; what delay samples are measured from */
	s64 avg_q;		/* average queueing delay, Q16 ns */
	u64 achieved_bytes;	/* acked in the current QA window */
	u64 received_bytes;	/* acked since the last fulfill */
	u64 fi_bytes;		/* acked near zero delay (fast-increase entry) */
	u64 inc_q;		/* pending increase, Q16 bytes^2 */
	u64 bytes_to_ignore;
	u64 bytes_ignored;
	u64 qa_endtime;		/* ns */
	u64 last_adjust;	/* ns; last time eta was added */
	u64 last_dec;		/* ns; last multiplicative decrease */
	u64 last_delay;		/* ns; the latest delay sample */
	bool qa_open;		/* the first observation window has opened */
	bool trigger_qa;	/* a trim arrived since QA last fired */
	bool fast;		/* fast increase engaged */
	bool base_measured;	/* uet: a sample has lowered the base RTT */
	bool base_learnt;	/* auto: a sample has set the config base RTT */
	bool max_stale;		/* mrc: a probe lowered the base RTT; the max
				 * window follows at the next sample
				 */
	struct nscc_stats st;
};

/* An ACK (uet) or SACK (mrc) and what it carries. */
struct nscc_ack {
	u64 bytes;		/* newly received/acked nominal bytes */
	u64 rtt_ns;		/* NSCC_NO_RTT if the ACK gives no sample */
	u64 service_ns;		/* receiver service time, taken off the RTT */
	bool ecn;		/* ECN echo (uet only) */
	u8 pen;			/* receiver penalty 0..127 (uet only) */
	bool restore;		/* receiver's restore flag (uet only) */
};

#define NSCC_NO_RTT	U64_MAX
#define NSCC_PEN_MAX	127

/*
 * What the core is made for, per event (ccreplay refuses more): bytes up
 * to 2^40 (1 TiB), no less than the largest window the attributes allow
 * (6e11 bytes from rate x RTT; 10^6 packets of ccreplay's largest 2^20-byte
 * --mtu is just under 2^40), and small enough that Q16 byte products stay
 * within 64 bits; an RTT or service time up to 10^12 ns (1000 s), far from
 * NSCC_NO_RTT and from wrapping when the base RTT's hysteresis is added.
 * The core's own sums saturate (in-flight bytes at +-2^62), so no number
 * of events can overflow them.
 */
#define NSCC_MAX_EVENT_BYTES	BIT_ULL(40)
#define NSCC_MAX_RTT_NS		1000000000000ULL

extern const char * const nscc_flavour_names[NSCC_FLAVOUR_COUNT];
extern const struct fabric_attr_desc nscc_attr_descs[NSCC_ATTR_COUNT];
extern const char * const nscc_routine_names[NSCC_R_COUNT];

void nscc_params_init(struct nscc_params *p, enum nscc_flavour flavour);
int nscc_params_check(const struct nscc_params *p, const char **why);
/*
 * Starts n with a copy of p.  Two attribute values follow the path:
 * data_rate_mbps 0 is the link's speed, which the caller knows and puts
 * in p (the TCP module: the egress device's); a 0 that reaches the core
 * is FABRIC_LINK_MBPS_FALLBACK.  config_base_rtt_ns 0: the lowest value
 * of a smoothed RTT (gain 1/8, as TCP's srtt) is the config base RTT, and
 * the target, BDP, max window, gains and increase period follow it, each
 * lower value deriving them again as nscc_init() would have for it; until
 * the first sample, the spec's default (6 us) stands in.
 */
void nscc_init(struct nscc *n, const struct nscc_params *p, u32 mtu, u64 now);
/*
 * The nominal packet changed (a path MTU or MSS change, or a socket that
 * started before its MSS was known): what scales with it is derived again
 * from the parameters n was started with, as nscc_init() would; the
 * window keeps its bytes within the new bounds; the rest of the state
 * (base RTT, average delay, Quick Adapt and increase clocks) stays.
 */
void nscc_set_mtu(struct nscc *n, u32 mtu);
/*
 * An RTT measured outside the ACKs (TCP: the handshake's) for an
 * automatic config base RTT, taken as an ACK's sample would be; no effect
 * with a configured one.  Returns true when it was taken.
 */
bool nscc_offer_base_rtt(struct nscc *n, u64 rtt_ns);

enum nscc_routine nscc_on_ack(struct nscc *n, u64 now,
			      const struct nscc_ack *a);
enum nscc_routine nscc_on_cack(struct nscc *n, u64 bytes);
enum nscc_routine nscc_on_trim(struct nscc *n, u64 now, u64 bytes,
			       u64 rtt_ns);
enum nscc_routine nscc_on_nack(struct nscc *n, u64 now, u64 bytes,
			       u64 rtt_ns);
enum nscc_routine nscc_on_loss(struct nscc *n, u64 bytes);
/*
 * A reliability probe's answer, an RTT sample offered to the base RTT
 * alone.  MRC: "A base RTT lowered by a probe response takes effect on the
 * max window at the next such sample" (a SACK's or NACK's); UET: as any
 * sample is, under the same rule.
 */
void nscc_on_probe_rtt(struct nscc *n, u64 rtt_ns);
enum nscc_routine nscc_on_send(struct nscc *n, u64 bytes);
bool nscc_can_send(const struct nscc *n, u64 bytes);
/*
 * The MRC page's cumulative-ACK request: a data packet asks for one when,
 * as its bytes join the flight (bytes: what it adds, 0 for a packet still
 * counted), the window has less than one nominal packet of room or is
 * smaller than 4,095 bytes.
 */
bool nscc_ask_ack(const struct nscc *n, u64 bytes);

/* Receiver side (uet): penalty 0..127 for a pool occupancy in thousandths. */
u8 nscc_receiver_penalty(const struct nscc_params *p, u32 occupancy_milli);

/*
 * The destination's Rcvd_Bytes (UET 1.0 section 3.6.13.8-9):
 * the receiver reports its cumulative nominal bytes in a 24-bit field of
 * 256-byte units, rounded up; the sender takes the difference from the
 * last field it saw, modulo 2^24, and ignores one that is not positive.
 */
#define NSCC_RCVD_BYTES_MASK	0xffffffU

static inline u32 nscc_rcvd_bytes_field(u64 bytes)
{
	return ((bytes + 255) >> 8) & NSCC_RCVD_BYTES_MASK;
}

static inline u64 nscc_newly_rcvd(u32 last_field, u32 field)
{
	u32 d = (field - last_field) & NSCC_RCVD_BYTES_MASK;

	return d && d < (NSCC_RCVD_BYTES_MASK + 1) / 2 ? (u64)d << 8 : 0;
}

static inline u64 nscc_avg_delay(const struct nscc *n)
{
	return n->avg_q > 0 ? (u64)n->avg_q >> 16 : 0;
}

#endif /* _NET_FABRIC_NSCC_H */

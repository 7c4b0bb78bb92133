/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrt's entropy values (EVs), pure C (no skbs, sockets or timers): one
 * destination's set of EVs (UDP source ports ev_base .. ev_base +
 * ev_count - 1), the choice of an EV for each packet at transmit time,
 * and each EV's profile state as the MRC article describes it:
 *
 *   GOOD         usable;
 *   SKIP         recent congestion on it (an ECN echo or a trim NACK
 *                charged to it): passed over while a credit drains, one
 *                per pass, then GOOD again;
 *   ASSUMED_BAD  an RTO that shows the path losing packets (the engine's
 *                judgement), or ev_bad_losses losses in a row: no data;
 *                probed with exponential backoff, GOOD on a probe's answer;
 *   DENIED       set by an administrator only, never undone here, never
 *                probed; allow() makes it GOOD.
 *
 * Policies: MRT_EV_RR visits the EVs in a permuted round robin (a stride
 * coprime with the count, so that neighbouring ports, which a switch's
 * hash may map alike, are not sent back to back) and takes the first
 * usable one; MRT_EV_REPS first reuses EVs whose last answer was clean, in
 * the order those answers came (REPS's recycling), and falls back to the
 * round robin.  Every state change goes through the caller's note()
 * callback (counters, tracepoint, netlink event).  The caller owns memory
 * and locking; the same file builds into mrt.ko, the unit tests and the
 * simulator.
 */
#ifndef _MRT_EV_H
#define _MRT_EV_H

#include <net/fabric/core.h>

/* EVs per destination: MRC's guidance puts the useful set at one or two
 * windows of packets, with little gain beyond about 100.
 */
#define MRT_EV_COUNT_MAX	256U

#define MRT_EV_STATES				\
	EM(MRT_EV_GOOD, good)			\
	EM(MRT_EV_SKIP, skip)			\
	EM(MRT_EV_ASSUMED_BAD, assumed_bad)	\
	EMe(MRT_EV_DENIED, denied)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_ev_state { MRT_EV_STATES };
#undef EM
#undef EMe

/* Why a state changed (note()'s why). */
#define MRT_EV_CAUSES				\
	EM(MRT_EV_WHY_ECN, ecn)			\
	EM(MRT_EV_WHY_TRIM, trim)		\
	EM(MRT_EV_WHY_CREDIT, credit)		\
	EM(MRT_EV_WHY_LOSSES, losses)		\
	EM(MRT_EV_WHY_RTO, rto)			\
	EM(MRT_EV_WHY_PROBE, probe)		\
	EM(MRT_EV_WHY_DENY, deny)		\
	EMe(MRT_EV_WHY_ALLOW, allow)

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum mrt_ev_why { MRT_EV_CAUSES };
#undef EM
#undef EMe

enum mrt_ev_policy {
	MRT_EV_RR,
	MRT_EV_REPS,
};

struct mrt_ev_params {
	u16 base;		/* ev_base: the first UDP source port */
	u16 count;		/* ev_count: 1 .. MRT_EV_COUNT_MAX */
	u8 policy;		/* enum mrt_ev_policy */
	u8 bad_losses;		/* ev_bad_losses: losses in a row to BAD; 0: never */
	u16 skip_ecn;		/* SKIP credit per ECN echo */
	u16 skip_trim;		/* per trim NACK */
	u16 skip_max;		/* the credit's cap */
	u64 probe_ns;		/* the first probe's wait */
	u64 probe_max_ns;	/* the backoff's cap */
};

struct mrt_ev_stats {
	u64 pkts;		/* data packets sent on it */
	u64 ecn;		/* ECN echoes charged to it */
	u64 trims;		/* trim NACKs */
	u64 nacks;		/* other NACKs */
	u64 losses;		/* presumed losses (SACK gap) */
	u64 rtos;		/* timer expiries */
	u64 probes;		/* probes sent */
	u64 changes;		/* state changes */
};

struct mrt_ev {
	u8 state;		/* enum mrt_ev_state */
	u8 losses;		/* in a row, since its last clean answer */
	u8 probe_shift;		/* ASSUMED_BAD: the backoff */
	bool queued;		/* REPS: on the recycle queue */
	u16 credit;		/* SKIP: passes left */
	u64 probe_at;		/* ASSUMED_BAD: the next probe, ns */
	u64 probe_sent;		/* ASSUMED_BAD: the last probe's send time */
	bool probe_out;		/* ... which no answer has matched yet */
	struct mrt_ev_stats st;
};

struct mrt_evset {
	struct mrt_ev_params p;
	/* Called on every state change of EV i (an index; the port is
	 * p.base + i).
	 */
	void (*note)(void *ctx, unsigned int i, u8 from, u8 to, u8 why);
	void *ctx;
	u32 rr;			/* the round robin's position */
	u16 step;		/* its stride, coprime with the count */
	u16 usable;		/* EVs GOOD or SKIP */
	u64 probe_next;		/* no probe is due before this */
	u16 q_head;		/* REPS: the recycle queue, a ring of count */
	u16 q_len;
	u16 *queue;		/* [count] */
	struct mrt_ev *ev;	/* [count] */
};

/* Bytes the caller gives mrt_evset_init() for count EVs: ev then queue. */
static inline unsigned int mrt_evset_bytes(u16 count)
{
	return count * (sizeof(struct mrt_ev) + sizeof(u16));
}

/* 0, or -1 if the parameters are not valid (base 0, count 0 or too many,
 * ports beyond 65535, an unknown policy).  mem: mrt_evset_bytes(count), any
 * contents.  seed varies the order between sets.
 */
int mrt_evset_init(struct mrt_evset *s, const struct mrt_ev_params *p,
		   void *mem, u32 seed);

static inline u16 mrt_ev_port(const struct mrt_evset *s, unsigned int i)
{
	return s->p.base + i;
}

/* The index of port, or -1 if it is not one of the set's. */
static inline int mrt_ev_index(const struct mrt_evset *s, u16 port)
{
	u16 i = port - s->p.base;

	return i < s->p.count ? i : -1;
}

/* The EV for the next packet: not avoid (an index, or -1 for none) while
 * another is usable; GOOD first, else the SKIP one with the least credit
 * (congestion alone never stops a destination).  With none usable, the
 * ASSUMED_BAD one whose probe is the most overdue (the packet is its
 * probe, and its timer runs on: a destination that is down fails by the
 * retry budget, not by waiting); -1 only if every EV is DENIED.  Counts
 * the packet on it.
 */
int mrt_ev_pick(struct mrt_evset *s, int avoid);

/* Feedback charged to EV i (the EV a packet was sent on). */
void mrt_ev_ack(struct mrt_evset *s, unsigned int i, bool ecn);
void mrt_ev_trim(struct mrt_evset *s, unsigned int i);
void mrt_ev_nack(struct mrt_evset *s, unsigned int i);
void mrt_ev_loss(struct mrt_evset *s, unsigned int i, u64 now);
void mrt_ev_rto(struct mrt_evset *s, unsigned int i, u64 now);
/* A probe of EV i was answered at now, the answer echoing stamp (the low
 * 32 bits of the probe's send time): the EV is GOOD again.  Returns the
 * RTT, from the send time kept here, if the answer is that of EV i's last
 * probe and the first to it (stamp matches, now is later), else 0: an
 * answer names its probe but never sets its RTT.
 */
u64 mrt_ev_probe_ack(struct mrt_evset *s, unsigned int i, u32 stamp, u64 now);

/* An ASSUMED_BAD EV whose probe is due at now (its next probe is then
 * scheduled, the wait doubled up to probe_max_ns), or -1; *next: the
 * earliest probe time still ahead, U64_MAX if none (also kept in
 * probe_next, so that a caller can skip the call before it).
 */
int mrt_ev_probe_due(struct mrt_evset *s, u64 now, u64 *next);

/* The administrator's: DENIED, or back to GOOD from DENIED (0), or -1 if
 * allow() finds the EV not DENIED.
 */
void mrt_ev_deny(struct mrt_evset *s, unsigned int i);
int mrt_ev_allow(struct mrt_evset *s, unsigned int i);

#endif /* _MRT_EV_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN as the Scala RoCE NIC's "Congestion control" page defines it (a
 * DCQCN-style loop, "The rate control loop"): the pure rate-control core.
 *
 * An episode starts with the CNP that finds the flow at line rate.  From
 * then the loop runs every half control interval, alternating reduction
 * and increase halves; each run updates the congestion estimate alpha from
 * the interval's CNPs and packets; reductions cut (fast recovery) or step
 * the target down (additive phase); increases halve the gap to the target,
 * raising the target by the additive step in the additive phase; while
 * CNPs continue only every (NCLPI + 1)-th increase half increases; the
 * increase that brings the rate within the end gap of line rate ends the
 * episode (episode_end_gap_mbps: the page's 0.1 Gbps at any line rate;
 * or episode_end_gap_ppm of line rate, when set).
 *
 * Time only moves through explicit calls: dcqcn_catch_up() replays the
 * boundaries that passed since the caller's last event ("catch-up": the
 * same runs at the same instants as a timer, without one), in order and
 * bounded, before the caller accounts new CNPs; dcqcn_step() runs a
 * single one.  Rates are kb/s; alpha is Q16.  The state fits in
 * icsk_ca_priv.
 */
#ifndef _NET_FABRIC_DCQCN_H
#define _NET_FABRIC_DCQCN_H

#include <net/fabric/attr.h>

enum dcqcn_attr_id {
#define DCQCN_ATTR(name, kind, def, lo, hi, unit, help) DCQCN_ATTR_##name,
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR
	DCQCN_ATTR_COUNT
};

struct dcqcn_params {
	u32 v[DCQCN_ATTR_COUNT];
};

#define DCQCN_P(p, name) ((p)->v[DCQCN_ATTR_##name])

/*
 * The floor is never below this absolute rate (kb/s, 1 Mbit/s), nor above
 * line rate: with minimum_rate_percentage 0 the rate would otherwise reach
 * 0, which TCP's pacing reads as "no pacing", so the most congested flow
 * would send unpaced.
 */
#define DCQCN_MIN_RATE_KBPS	1000U
/*
 * The smallest episode-end gap (kb/s), which a small episode_end_gap_ppm
 * can go below.  An increase halves the integer gap to line rate rounding
 * it up, so a gap of 1 kb/s stays 1 kb/s: the strict "<" needs 2 for the
 * episode to end.
 */
#define DCQCN_MIN_END_GAP_KBPS	2U
/* Catch-up bound: past this many boundaries the episode has ended. */
#define DCQCN_MAX_CATCHUP	4096U
/* dcqcn_catch_up(): set in its result when it closed the episode. */
#define DCQCN_CATCHUP_LIMIT	0x80000000U

/* What a run of the loop did (the tracepoint's "phase"): one EM(value,
 * name) row each, EMe() for the last; the list makes the enum,
 * dcqcn_phase_names[] and the tracepoint's symbols (dcqcn_trace.h).
 */
#define DCQCN_PHASES							\
	EM(DCQCN_RUN_START, start)	/* the reduction starting an episode */ \
	EM(DCQCN_RUN_CUT, cut)		/* fast-recovery reduction */	\
	EM(DCQCN_RUN_AI_DOWN, ai_down)	/* additive phase: target - step */ \
	EM(DCQCN_RUN_NO_CNP, no_cnp)	/* reduction half without CNPs */ \
	EM(DCQCN_RUN_FR_UP, fr_up)	/* fast-recovery increase */	\
	EM(DCQCN_RUN_AI_UP, ai_up)	/* additive increase */		\
	EM(DCQCN_RUN_HOLD, hold)	/* increase held back by CNPs */ \
	EMe(DCQCN_RUN_END, end)		/* the increase ending the episode */

#define EM(a, b)	a,
#define EMe(a, b)	a,
enum dcqcn_phase { DCQCN_PHASES DCQCN_RUN_COUNT };
#undef EM
#undef EMe

struct dcqcn {
	u64 next_run;		/* ns: the next half-interval boundary */
	u32 line_kbps;
	u32 floor_kbps;		/* never below DCQCN_MIN_RATE_KBPS */
	u32 end_gap_kbps;	/* the episode ends strictly within this */
	u32 rc_kbps;		/* current rate */
	u32 rt_kbps;		/* target rate */
	u32 step_kbps;		/* additive step, fixed per episode */
	u32 half_ns;
	u32 alpha;		/* Q16 congestion estimate */
	u32 cnp_cnt;		/* CNPs in the current interval */
	u32 pkt_cnt;		/* packets sent in the current interval */
	s32 rcount;		/* recovery count */
	u32 w;			/* Q16 weight of a new interval, <= 65536 */
	u16 fra;
	u16 nais;
	u16 nclpi;
	u16 itrp;		/* thousandths */
	u32 cnp_inc_halves;
	u8 congested;
	u8 next_is_reduce;
	u8 enable;
	u8 last_phase;		/* enum dcqcn_phase of the last run */
};

extern const struct fabric_attr_desc dcqcn_attr_descs[DCQCN_ATTR_COUNT];
extern const char * const dcqcn_phase_names[DCQCN_RUN_COUNT];

void dcqcn_params_init(struct dcqcn_params *p);
void dcqcn_init(struct dcqcn *d, const struct dcqcn_params *p);

/* Runs the boundary that elapsed by now, if any: returns true if it ran. */
bool dcqcn_step(struct dcqcn *d, u64 now);

/*
 * Replays, in order, every boundary that has passed by now, calling
 * run(d, t, ctx) after each (t: that run's boundary) unless run is NULL.
 * After DCQCN_MAX_CATCHUP of them the episode has long ended (at the
 * defaults, an episode that starts at the floor is back at line rate
 * after about 900 additive increases, two boundaries each, and a dozen
 * halvings of the gap) and is closed at line rate.  Returns the number
 * of runs, ORed with DCQCN_CATCHUP_LIMIT if it closed the episode.  The
 * TCP module and ccreplay both catch up through it, so they behave the
 * same.
 */
unsigned int dcqcn_catch_up(struct dcqcn *d, u64 now,
			    void (*run)(const struct dcqcn *d, u64 t, void *ctx),
			    void *ctx);

/* Counts packets sent (data packets only). */
void dcqcn_on_tx(struct dcqcn *d, u32 pkts);
/* Counts n CNPs that arrived at now; the first one outside an episode
 * starts an episode and runs its reduction at once.  Returns true then.
 */
bool dcqcn_on_cnp(struct dcqcn *d, u64 now, u32 n);
/* The episode is over after a long silence: back to line rate. */
void dcqcn_end_episode(struct dcqcn *d);

#endif /* _NET_FABRIC_DCQCN_H */

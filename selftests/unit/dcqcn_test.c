// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of the DCQCN core (include/net/fabric/dcqcn.h).
 *
 * Written from the Scala RoCE NIC's "Congestion control" page ("The rate
 * control loop" and its "Worked example"), from the choices the project
 * takes where the page is silent (Documentation/networking/dcqcn.rst,
 * "Design decisions"), and from vectors that an independent
 * floating-point model of the loop computed, not from the
 * implementation: they are the independent check of
 * net/dcqcn/dcqcn_core.c.  The vectors, at 400 Gb/s with every attribute
 * at its default and an initial alpha of 1.0:
 *  - "first CNP": one CNP after 100 packets, at t = 0, starts an episode;
 *  - "recovery": then no more CNPs and no sends until the episode ends;
 *  - "marking": persistent marking, 10 packets and one CNP an interval;
 *  - "AI down", "AI down to FR", "below FRA": reductions while in
 *    additive increase;
 *  - "floor cut": a cut that the floor stops;
 *  - "replay": the next event comes late, and catching up to it equals
 *    a timer.
 *
 * Conventions: rates in kb/s, times in ns, alpha in Q16.  An event at time
 * t first catches up to t (every boundary at or before t runs), then counts
 * the packets sent, then the CNPs: an ACK's CNPs arrive after the
 * boundaries it replays.  The model's float values are checked within
 * 0.01 % (want / 10000 + 1 kb/s); alpha within a Q16 unit or two where the
 * core's Q16 arithmetic (F = floor(65536 cnp / pkts), one truncation per
 * run) cannot reach the float value.  Preconditions of the additive-phase
 * and floor vectors are set by writing the fields of struct dcqcn
 * directly after an episode has started.
 */
#include <string.h>

#include <net/fabric/dcqcn.h>

#include "tap.h"

#define Q16		65536ll
#define US		1000ull			/* ns */
#define LINE		400000000u		/* 400 Gb/s in kb/s */
#define STEP		4000000u		/* 4 Gb/s */
#define FLOOR		40000000u		/* 40 Gb/s */

/* ------------------------------------------------------------------ */
/* Helpers */

static void setup_with(struct dcqcn *d, const struct dcqcn_params *p)
{
	memset(d, 0, sizeof(*d));
	dcqcn_init(d, p);
}

static void setup(struct dcqcn *d)
{
	struct dcqcn_params p;

	dcqcn_params_init(&p);
	setup_with(d, &p);
}

/* Catches up to t: runs every boundary at or before t; returns how many. */
static int advance(struct dcqcn *d, u64 t)
{
	int n = 0;

	while (dcqcn_step(d, t))
		n++;
	return n;
}

/* An event at t: catch up, then pkts sent, then cnps arrived. */
static bool event(struct dcqcn *d, u64 t, u32 pkts, u32 cnps)
{
	advance(d, t);
	if (pkts)
		dcqcn_on_tx(d, pkts);
	return cnps ? dcqcn_on_cnp(d, t, cnps) : false;
}

/* A rate in kb/s within 0.01 % of the vector's value in Gb/s. */
static void rate_near(u64 got, double gbps, const char *name)
{
	long long want = (long long)(gbps * 1e6 + 0.5);

	TAP_NEAR(got, want, want / 10000 + 1, "%s", name);
}

/* alpha (Q16) near the vector's float value. */
static void alpha_near(u32 got, double a, long long tol, const char *name)
{
	TAP_NEAR(got, (long long)(a * Q16 + 0.5), tol, "%s", name);
}

static const char *pname(unsigned int ph)
{
	if (ph < DCQCN_RUN_COUNT && dcqcn_phase_names[ph])
		return dcqcn_phase_names[ph];
	return "?";
}

/* One test point: what the last run of the loop did. */
static void phase_is(const struct dcqcn *d, enum dcqcn_phase want,
		     const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (!tap_ok(d->last_phase == want, "%s", name))
		tap_diag("got phase %u (%s), want %u (%s)", d->last_phase,
			 pname(d->last_phase), want, pname(want));
}

static bool is_increase(const struct dcqcn *d)
{
	return d->last_phase == DCQCN_RUN_FR_UP ||
	       d->last_phase == DCQCN_RUN_AI_UP ||
	       d->last_phase == DCQCN_RUN_END;
}

/* "first CNP": 100 packets sent since the last clear, one CNP at t = 0. */
static bool d1_start(struct dcqcn *d)
{
	setup(d);
	return event(d, 0, 100, 1);
}

/*
 * The marking of "marking": in each interval [45k, 45k + 45) us the flow
 * sends 10 packets and gets one CNP, both at 45k + 10 us.  Plays every
 * such event at or before until (from *next on), then catches up to
 * until.
 */
static void d3_play(struct dcqcn *d, u64 *next, u64 until)
{
	while (*next <= until) {
		event(d, *next, 10, 1);
		*next += 45 * US;
	}
	advance(d, until);
}

/* Starts an episode (defaults unless p), then puts in a reduction half. */
static void inject(struct dcqcn *d, const struct dcqcn_params *p, u32 rc,
		   u32 rt, s32 rcount, u32 alpha, u64 next_reduce)
{
	if (p)
		setup_with(d, p);
	else
		setup(d);
	event(d, 0, 100, 1);
	d->rc_kbps = rc;
	d->rt_kbps = rt;
	d->rcount = rcount;
	d->alpha = alpha;
	d->next_is_reduce = 1;
	d->next_run = next_reduce;
}

/* ------------------------------------------------------------------ */
/* Attributes and the spec page's worked example */

static void t_defaults(void)
{
	struct dcqcn_params p;
	struct dcqcn d;

	dcqcn_params_init(&p);
	TAP_EQ(DCQCN_P(&p, enable_ecn), 1, "defaults: EnableECN true");
	TAP_EQ(DCQCN_P(&p, data_rate_mbps), 400000,
	       "defaults: DataRate 400 Gb/s");
	TAP_EQ(DCQCN_P(&p, control_interval_ns), 45000,
	       "defaults: ControlIntervalDurationNs 45000");
	TAP_EQ(DCQCN_P(&p, congestion_probability_weight), 500,
	       "defaults: CongestionProbabilityWeight 0.5");
	TAP_EQ(DCQCN_P(&p, fast_recovery_attempt), 3,
	       "defaults: FastRecoveryAttempt 3");
	TAP_EQ(DCQCN_P(&p, initial_target_rate_percentage), 900,
	       "defaults: InitialTargetRatePercentage 0.90");
	TAP_EQ(DCQCN_P(&p, number_active_increase_steps), 10,
	       "defaults: NumberActiveIncreaseSteps 10");
	TAP_EQ(DCQCN_P(&p, num_of_control_loops_per_increase), 5,
	       "defaults: NumOfControlLoopsPerIncrease 5");
	TAP_EQ(DCQCN_P(&p, minimum_rate_percentage), 100,
	       "defaults: MinimumRatePercentage 0.10");
	TAP_EQ(DCQCN_P(&p, initial_alpha), 1000,
	       "defaults: initial alpha 1.0 (the paper's)");
	TAP_EQ(DCQCN_P(&p, episode_end_gap_mbps), 100,
	       "defaults: the episode ends within 0.1 Gbps of line rate");
	TAP_EQ(DCQCN_P(&p, episode_end_gap_ppm), 0,
	       "defaults: no end gap in ppm of line rate (the Mbit/s one holds)");

	setup_with(&d, &p);
	TAP_EQ(d.line_kbps, LINE, "init: line rate 400 Gb/s");
	TAP_EQ(d.rc_kbps, LINE, "init: a queue pair starts at line rate");
	TAP_EQ(d.rt_kbps, LINE, "init: target rate at line rate");
	TAP_EQ(d.floor_kbps, FLOOR, "init: floor 0.10 x 400 = 40 Gb/s");
	TAP_EQ(d.end_gap_kbps, 100000, "init: end gap 0.1 Gb/s = 100000 kb/s");
	TAP_EQ(d.alpha, Q16, "init: alpha 1.0 (Q16 65536)");
	TAP_EQ(d.congested, 0, "init: not congested");
	tap_ok(!dcqcn_step(&d, 1000000 * US),
	       "init: no loop runs while not congested");
	TAP_EQ(d.rc_kbps, LINE, "init: line rate kept without CNPs");
}

static void t_worked_example(void)
{
	struct dcqcn d;
	u64 gap0, b, last = 0;
	int n, bad;

	d1_start(&d);
	TAP_EQ(d.half_ns, 22500,
	       "worked example: loop period 45 / 2 = 22.5 us");
	TAP_EQ(d.rt_kbps, LINE,
	       "worked example: target at the start = rate at the start 400");
	TAP_EQ(d.step_kbps, STEP,
	       "worked example: additive step 400 x (1 - 0.90) / 10 = 4 Gb/s");
	TAP_EQ(d.floor_kbps, FLOOR, "worked example: floor 400 x 0.10 = 40");
	TAP_EQ(d.next_run, 22500,
	       "worked example: the loop runs again 22.5 us after the start");

	gap0 = LINE - d.rc_kbps;
	advance(&d, 22500);
	phase_is(&d, DCQCN_RUN_FR_UP, "worked example: 1st increase is FR");
	advance(&d, 45000);
	TAP_EQ(d.next_run, 67500,
	       "worked example: reduction and increase halves alternate");
	advance(&d, 67500);
	phase_is(&d, DCQCN_RUN_FR_UP, "worked example: 2nd increase is FR");
	advance(&d, 112500);
	phase_is(&d, DCQCN_RUN_FR_UP, "worked example: 3rd increase is FR");
	TAP_NEAR(d.rc_kbps, LINE - gap0 / 8, (LINE - gap0 / 8) / 10000 + 1,
		 "worked example: seven eighths recovered after three increases");
	TAP_EQ(d.rt_kbps, LINE, "worked example: FR leaves the target alone");
	advance(&d, 157500);
	phase_is(&d, DCQCN_RUN_AI_UP, "worked example: 4th increase is AI");
	TAP_EQ(d.rt_kbps, LINE,
	       "worked example: AI target capped at line rate 400");

	/* With no CNPs, an increase every 45 us until the episode ends. */
	d1_start(&d);
	n = 0;
	bad = 0;
	for (b = 22500; d.congested && b <= 1000 * US; b += 22500) {
		if (!dcqcn_step(&d, b))
			bad++;
		else if (is_increase(&d) != (b % 45000 == 22500))
			bad++;
		else
			n += is_increase(&d);
		last = b;
	}
	TAP_EQ(bad, 0,
	       "worked example: without CNPs every increase half increases");
	TAP_EQ(n, 10, "worked example: ten increases, 22.5 + 45k us");
	TAP_EQ(last, 427500, "worked example: the last one at 427.5 us");
	TAP_EQ(d.congested, 0,
	       "worked example: the episode ends within 0.1 Gb/s of 400");
}

/* ------------------------------------------------------------------ */
/* "first CNP" and "recovery": episode start, then no further CNPs */

static void t_d1(void)
{
	struct dcqcn d;

	tap_ok(d1_start(&d), "first CNP: starts an episode (returns true)");
	TAP_EQ(d.congested, 1, "first CNP: congested");
	TAP_EQ(d.rt_kbps, LINE, "first CNP: RT 400");
	TAP_EQ(d.step_kbps, STEP, "first CNP: step 4 Gb/s");
	TAP_EQ(d.floor_kbps, FLOOR, "first CNP: floor 40 Gb/s");
	/* F_q = 655; (32768 x 65536 + 32768 x 655) >> 16 = 33095 */
	TAP_NEAR(d.alpha, 33095, 1, "first CNP: alpha 0.505 (Q16 33095)");
	/* 400000000 - floor(400000000 x 33095 / 2^17) */
	TAP_EQ(d.rc_kbps, 299002076,
	       "first CNP: RC 299002076 kb/s (kernel units)");
	rate_near(d.rc_kbps, 299.0, "first CNP: RC 299 Gb/s within 0.01%");
	TAP_EQ(d.rcount, 0, "first CNP: rcount 0");
	TAP_EQ(d.cnp_cnt, 0, "first CNP: CNP count cleared");
	TAP_EQ(d.pkt_cnt, 0, "first CNP: packet count cleared");
	TAP_EQ(d.next_run, 22500, "first CNP: next run at 22.5 us");
	TAP_EQ(d.next_is_reduce, 0, "first CNP: next run is an increase half");
	phase_is(&d, DCQCN_RUN_START, "first CNP: phase: episode start");
}

static const struct {
	u64 t;
	enum dcqcn_phase ph;
	double rc;
	s32 rcount;
	const char *name;
} d2_rows[] = {
	{ 22500, DCQCN_RUN_FR_UP, 349.5, 1, "recovery 22.5 us" },
	{ 45000, DCQCN_RUN_NO_CNP, 349.5, 1, "recovery 45 us" },
	{ 67500, DCQCN_RUN_FR_UP, 374.75, 2, "recovery 67.5 us" },
	{ 112500, DCQCN_RUN_FR_UP, 387.375, 3, "recovery 112.5 us" },
	{ 157500, DCQCN_RUN_AI_UP, 393.6875, 4, "recovery 157.5 us" },
	{ 202500, DCQCN_RUN_AI_UP, 396.84375, 5, "recovery 202.5 us" },
	{ 247500, DCQCN_RUN_AI_UP, 398.421875, 6, "recovery 247.5 us" },
	{ 292500, DCQCN_RUN_AI_UP, 399.2109375, 7, "recovery 292.5 us" },
	{ 337500, DCQCN_RUN_AI_UP, 399.60546875, 8, "recovery 337.5 us" },
	{ 382500, DCQCN_RUN_AI_UP, 399.802734375, 9, "recovery 382.5 us" },
};

static void t_d2(void)
{
	char name[96];
	struct dcqcn d;
	unsigned int i;

	d1_start(&d);
	for (i = 0; i < ARRAY_SIZE(d2_rows); i++) {
		advance(&d, d2_rows[i].t);
		snprintf(name, sizeof(name), "%s phase %s", d2_rows[i].name,
			 pname(d2_rows[i].ph));
		phase_is(&d, d2_rows[i].ph, name);
		snprintf(name, sizeof(name), "%s RC %.12g", d2_rows[i].name,
			 d2_rows[i].rc);
		rate_near(d.rc_kbps, d2_rows[i].rc, name);
		snprintf(name, sizeof(name), "%s RT 400", d2_rows[i].name);
		TAP_EQ(d.rt_kbps, LINE, "%s", name);
		snprintf(name, sizeof(name), "%s rcount %d", d2_rows[i].name,
			 d2_rows[i].rcount);
		TAP_EQ(d.rcount, d2_rows[i].rcount, "%s", name);
		if (d2_rows[i].t == 45000)
			alpha_near(d.alpha, 0.12625, 1,
				   "recovery 45 us alpha 0.12625");
	}
	TAP_EQ(d.step_kbps, STEP, "recovery: step still 4 Gb/s");

	advance(&d, 427499);
	TAP_EQ(d.congested, 1,
	       "recovery: still congested just before 427.5 us");
	rate_near(d.rc_kbps, 399.802734375,
		  "recovery: gap 0.197 >= 0.1: RC 399.802734375 until 427.5 us");
	tap_ok(dcqcn_step(&d, 427500), "recovery 427.5 us runs");
	phase_is(&d, DCQCN_RUN_END, "recovery 427.5 us phase end");
	TAP_EQ(d.rc_kbps, LINE, "recovery 427.5 us RC = line rate 400");
	TAP_EQ(d.rt_kbps, LINE, "recovery 427.5 us RT 400");
	TAP_EQ(d.rcount, 10, "recovery 427.5 us rcount 10");
	TAP_EQ(d.congested, 0, "recovery 427.5 us episode ends");
	TAP_EQ(d.cnp_cnt + d.pkt_cnt, 0,
	       "recovery: counters cleared at episode end");
	tap_ok(d.alpha < 10,
	       "recovery: alpha 0.505 x 2^-19 afterwards (Q16 %u < 10)",
	       d.alpha);
	tap_ok(!dcqcn_step(&d, 1000000 * US),
	       "recovery: the loop stops after the end");
	TAP_EQ(d.rc_kbps, LINE, "recovery: line rate kept after the end");
}

/*
 * A new episode after "recovery": alpha is never reset between episodes
 * (it is still 0.505 x 2^-19), and counts are cleared only after
 * reduction halves and at an episode's end, so the counts since the end
 * of the last episode (200 packets) feed the start: F = 1/200,
 * alpha = 0.5 x 9.63e-7 + 0.0025 = 0.00250048,
 * RC = 400 x (1 - 0.00125024) = 399.499904.
 */
static void t_second_episode(void)
{
	struct dcqcn d;

	d1_start(&d);
	advance(&d, 500 * US);
	event(&d, 600 * US, 120, 0);
	tap_ok(event(&d, 1000 * US, 80, 1),
	       "2nd episode: the next CNP starts a new episode");
	TAP_EQ(d.rt_kbps, LINE, "2nd episode: RT = rate at its start 400");
	TAP_EQ(d.step_kbps, STEP, "2nd episode: step 4 Gb/s");
	alpha_near(d.alpha, 0.00250048, 2,
		   "2nd episode: alpha 0.0025 (not reset; 200 packets count)");
	rate_near(d.rc_kbps, 399.499904, "2nd episode: RC 399.499904");
	TAP_EQ(d.next_run, 1022500,
	       "2nd episode: grid anchored at its start (1022.5 us)");
	TAP_EQ(d.next_is_reduce, 0, "2nd episode: next run an increase half");
}

/* ------------------------------------------------------------------ */
/* "marking": persistent marking */

static void t_d3(void)
{
	static const struct {
		u64 t;
		double rc;
		double alpha;
		const char *name;
	} cuts[] = {
		{ 45000, 268.913125, 0.20125, "marking 45 us FR cut" },
		{ 90000, 252.064037, 0.1253125, "marking 90 us FR cut" },
		{ 135000, 238.663289, 0.106328, "marking 135 us FR cut" },
		{ 180000, 226.541338, 0.101582, "marking 180 us FR cut" },
		{ 225000, 215.169472, 0.100396, "marking 225 us FR cut" },
	};
	struct dcqcn d, c;
	u64 next = 10 * US;
	char name[96];
	unsigned int i;

	d1_start(&d);
	d3_play(&d, &next, 22500);
	phase_is(&d, DCQCN_RUN_HOLD, "marking 22.5 us increase half held (1)");
	TAP_EQ(d.rc_kbps, 299002076, "marking 22.5 us RC unchanged");
	/* F_q = 6553 (0.1): alpha 0.3025 and later values within 2 Q16 */
	alpha_near(d.alpha, 0.3025, 2, "marking 22.5 us alpha 0.3025");
	TAP_EQ(d.cnp_cnt, 1,
	       "marking: increase half does not clear the CNP count");
	TAP_EQ(d.pkt_cnt, 10,
	       "marking: increase half does not clear the packets");
	c = d;		/* a probe on a copy: the vector has one CNP here */
	tap_ok(!dcqcn_on_cnp(&c, 30 * US, 1) && c.congested &&
	       c.cnp_cnt == 2 && c.rc_kbps == d.rc_kbps,
	       "marking: a CNP in an episode is counted and starts nothing");

	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		d3_play(&d, &next, cuts[i].t);
		snprintf(name, sizeof(name), "%s phase", cuts[i].name);
		phase_is(&d, DCQCN_RUN_CUT, name);
		snprintf(name, sizeof(name), "%s RC %.9g", cuts[i].name,
			 cuts[i].rc);
		rate_near(d.rc_kbps, cuts[i].rc, name);
		snprintf(name, sizeof(name), "%s alpha %g", cuts[i].name,
			 cuts[i].alpha);
		alpha_near(d.alpha, cuts[i].alpha, 2, name);
		if (i < ARRAY_SIZE(cuts) - 1) {
			d3_play(&d, &next, cuts[i].t + 22500);
			snprintf(name, sizeof(name),
				 "marking %llu.5 us increase half held (%u)",
				 (unsigned long long)cuts[i].t / 1000 + 22,
				 i + 2);
			phase_is(&d, DCQCN_RUN_HOLD, name);
		}
	}
	TAP_EQ(d.rcount, 0, "marking 225 us rcount 0");
	TAP_EQ(d.cnp_cnt + d.pkt_cnt, 0,
	       "marking: reduction half clears the counts");

	d3_play(&d, &next, 247500);
	phase_is(&d, DCQCN_RUN_FR_UP,
		 "marking 247.5 us 6th CNP-seeing increase half increases (FR)");
	rate_near(d.rc_kbps, 307.584736, "marking 247.5 us RC 307.584736");
	TAP_EQ(d.rcount, 1, "marking 247.5 us rcount 1");
	TAP_EQ(d.rt_kbps, LINE, "marking 247.5 us RT 400");
	d3_play(&d, &next, 270000);
	phase_is(&d, DCQCN_RUN_CUT, "marking 270 us FR cut (rcount 1 < 3)");
	rate_near(d.rc_kbps, 292.190293, "marking 270 us RC 292.190293");
	alpha_near(d.alpha, 0.100099, 2, "marking 270 us alpha 0.100099");
	TAP_EQ(d.rcount, 0, "marking 270 us rcount 0");
	TAP_EQ(d.rt_kbps, LINE, "marking 270 us RT stays 400");
}

/* Spec page: at most one increase every 6 x 45 = 270 us while CNPs last. */
static void t_d3_long(void)
{
	u64 next = 10 * US, b, first = 0, last = 0, min_gap = ~0ull;
	bool floor_ok = true, all_ran = true;
	struct dcqcn d;
	int n = 0;

	d1_start(&d);
	for (b = 22500; b <= 2700 * US; b += 22500) {
		d3_play(&d, &next, b - 1);
		all_ran &= dcqcn_step(&d, b);
		floor_ok &= d.rc_kbps >= FLOOR;
		if (!is_increase(&d))
			continue;
		n++;
		if (last && b - last < min_gap)
			min_gap = b - last;
		if (!first)
			first = b;
		last = b;
	}
	tap_ok(all_ran && d.congested,
	       "long marking: a run at each boundary to 2700 us, still congested");
	TAP_EQ(first, 247500, "long marking: first increase at 247.5 us");
	TAP_EQ(n, 10,
	       "long marking: 10 increases in 2700 us (one per 270 us)");
	TAP_EQ(min_gap, 270000,
	       "long marking: increases 270 us apart or more while CNPs last");
	tap_ok(floor_ok, "long marking: RC never below the floor");
}

/* ------------------------------------------------------------------ */
/* "AI down", "AI down to FR", "below FRA": reductions in additive increase
 * (state injected, alpha 0.5)
 */

static void t_d4(void)
{
	struct dcqcn d;

	/* 50 packets and 1 CNP before the reduction half: F = 0.02 */
	inject(&d, NULL, 380000000, 390000000, 4, Q16 / 2, 45 * US);
	TAP_EQ(d.step_kbps, STEP,
	       "AI reductions: step 4 Gb/s from the episode start");
	event(&d, 30 * US, 50, 1);
	advance(&d, 45 * US);
	phase_is(&d, DCQCN_RUN_AI_DOWN,
		 "AI down: reduction in AI steps RT down");
	alpha_near(d.alpha, 0.26, 2,
		   "AI down: alpha 0.5 x 0.5 + 0.5 x 0.02 = 0.26");
	rate_near(d.rt_kbps, 386, "AI down: RT 390 - 4 = 386");
	rate_near(d.rc_kbps, 383,
		  "AI down: RC (380 + 386) / 2 = 383: reduction raises RC");
	TAP_EQ(d.rcount, 3, "AI down: rcount 3 (still AI)");
	advance(&d, 67500);
	phase_is(&d, DCQCN_RUN_AI_UP, "AI down: next increase half is AI");
	alpha_near(d.alpha, 0.13, 2, "AI down: alpha 0.13");
	rate_near(d.rt_kbps, 390, "AI down: RT min(400, 386 + 4) = 390");
	rate_near(d.rc_kbps, 386.5, "AI down: RC (383 + 390) / 2 = 386.5");
	TAP_EQ(d.rcount, 4, "AI down: rcount 4");

	inject(&d, NULL, 383000000, 386000000, 3, Q16 / 2, 90 * US);
	event(&d, 80 * US, 50, 1);
	advance(&d, 90 * US);
	phase_is(&d, DCQCN_RUN_AI_DOWN,
		 "AI down to FR: reduction at rcount 3 = FRA is AI");
	rate_near(d.rt_kbps, 382, "AI down to FR: RT 386 - 4 = 382");
	rate_near(d.rc_kbps, 382.5,
		  "AI down to FR: RC (383 + 382) / 2 = 382.5");
	TAP_EQ(d.rcount, 2, "AI down to FR: rcount 2: back in FR");
	advance(&d, 112500);
	phase_is(&d, DCQCN_RUN_FR_UP,
		 "AI down to FR: next increase half is FR");
	rate_near(d.rt_kbps, 382, "AI down to FR: FR increase leaves RT 382");
	rate_near(d.rc_kbps, 382.25,
		  "AI down to FR: RC (382.5 + 382) / 2 = 382.25");
	TAP_EQ(d.rcount, 3, "AI down to FR: rcount 3");
	event(&d, 130 * US, 50, 1);
	advance(&d, 135 * US);
	alpha_near(d.alpha, 0.075, 2,
		   "AI down to FR: alpha 0.065 + 0.01 = 0.075");
	phase_is(&d, DCQCN_RUN_AI_DOWN,
		 "AI down to FR: rcount 3 >= 3: AI reduction again");
	rate_near(d.rt_kbps, 378, "AI down to FR: RT 382 - 4 = 378");
	rate_near(d.rc_kbps, 380.125,
		  "AI down to FR: RC (382.25 + 378) / 2 = 380.125");
	TAP_EQ(d.rcount, 2, "AI down to FR: rcount 2");

	/* alpha 0.26 = Q16 17039 */
	inject(&d, NULL, 382500000, 382000000, 2, 17039, 45 * US);
	event(&d, 30 * US, 50, 1);
	advance(&d, 45 * US);
	phase_is(&d, DCQCN_RUN_CUT, "below FRA: the reduction is an FR cut");
	alpha_near(d.alpha, 0.14, 2, "below FRA: alpha 0.13 + 0.01 = 0.14");
	rate_near(d.rc_kbps, 355.725,
		  "below FRA: RC 382.5 x (1 - 0.07) = 355.725");
	TAP_EQ(d.rcount, 0, "below FRA: rcount 0");
	rate_near(d.rt_kbps, 382, "below FRA: RT stays 382");
}

/* ------------------------------------------------------------------ */
/* "floor cut": the floor bounds the current rate only, not the target */

static void t_d5_floor(void)
{
	struct dcqcn_params p;
	struct dcqcn d;

	dcqcn_params_init(&p);
	DCQCN_P(&p, data_rate_mbps) = 100000;
	inject(&d, &p, 15000000, 60000000, 0, Q16, 45 * US);
	TAP_EQ(d.line_kbps, 100000000, "floor cut: line rate 100 Gb/s");
	TAP_EQ(d.floor_kbps, 10000000, "floor cut: floor 0.10 x 100 = 10 Gb/s");
	event(&d, 30 * US, 2, 2);
	advance(&d, 45 * US);
	phase_is(&d, DCQCN_RUN_CUT, "floor cut: the reduction is an FR cut");
	alpha_near(d.alpha, 1.0, 1, "floor cut: alpha 1 (F = 2 / 2)");
	TAP_EQ(d.rc_kbps, 10000000,
	       "floor cut: RC 15 x 0.5 = 7.5 -> floor 10 Gb/s");
	TAP_EQ(d.rt_kbps, 60000000, "floor cut: RT stays 60");
	TAP_EQ(d.rcount, 0, "floor cut: rcount 0");

	/* AI-phase reduction: RT may go below the floor, RC may not. */
	inject(&d, &p, 10500000, 10200000, 3, Q16 / 2, 45 * US);
	TAP_EQ(d.step_kbps, 1000000, "floor: step 100 x 0.1 / 10 = 1 Gb/s");
	event(&d, 30 * US, 50, 1);
	advance(&d, 45 * US);
	phase_is(&d, DCQCN_RUN_AI_DOWN, "floor: AI reduction");
	TAP_EQ(d.rt_kbps, 9200000, "floor: RT 10.2 - 1 = 9.2, below the floor");
	TAP_EQ(d.rc_kbps, 10000000, "floor: RC (10.5 + 9.2) / 2 = 9.85 -> 10");
	TAP_EQ(d.rcount, 2, "floor: rcount 2");
}

/* ------------------------------------------------------------------ */
/* "replay": catch-up equals the timer */

static bool same_state(const struct dcqcn *a, const struct dcqcn *b,
		       const char *name)
{
	const struct {
		const char *f;
		u64 a, b;
	} v[] = {
		{ "next_run", a->next_run, b->next_run },
		{ "line_kbps", a->line_kbps, b->line_kbps },
		{ "floor_kbps", a->floor_kbps, b->floor_kbps },
		{ "rc_kbps", a->rc_kbps, b->rc_kbps },
		{ "rt_kbps", a->rt_kbps, b->rt_kbps },
		{ "step_kbps", a->step_kbps, b->step_kbps },
		{ "half_ns", a->half_ns, b->half_ns },
		{ "alpha", a->alpha, b->alpha },
		{ "cnp_cnt", a->cnp_cnt, b->cnp_cnt },
		{ "pkt_cnt", a->pkt_cnt, b->pkt_cnt },
		{ "rcount", (u64)(s64)a->rcount, (u64)(s64)b->rcount },
		{ "w", a->w, b->w },
		{ "fra", a->fra, b->fra },
		{ "nais", a->nais, b->nais },
		{ "nclpi", a->nclpi, b->nclpi },
		{ "itrp", a->itrp, b->itrp },
		{ "cnp_inc_halves", a->cnp_inc_halves, b->cnp_inc_halves },
		{ "congested", a->congested, b->congested },
		{ "next_is_reduce", a->next_is_reduce, b->next_is_reduce },
		{ "enable", a->enable, b->enable },
		{ "last_phase", a->last_phase, b->last_phase },
	};
	bool same = true;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		same &= v[i].a == v[i].b;
	if (!tap_ok(same, "%s", name)) {
		for (i = 0; i < ARRAY_SIZE(v); i++)
			if (v[i].a != v[i].b)
				tap_diag("%s: %llu vs %llu", v[i].f,
					 (unsigned long long)v[i].a,
					 (unsigned long long)v[i].b);
	}
	return same;
}

static void t_d6(void)
{
	struct dcqcn timer, lazy;
	bool ran = true;
	u64 b;
	int n;

	/* The timer of "recovery": each boundary run at its own time. */
	d1_start(&timer);
	for (b = 22500; b <= 90000; b += 22500)
		ran &= dcqcn_step(&timer, b) && !dcqcn_step(&timer, b);
	tap_ok(ran,
	       "replay: the timer runs once at each of 22.5, 45, 67.5, 90 us");

	d1_start(&lazy);
	TAP_EQ(advance(&lazy, 100 * US), 4,
	       "replay: the event at 100 us replays 22.5, 45, 67.5, 90 us");
	rate_near(lazy.rc_kbps, 374.75, "replay: RC 374.75");
	alpha_near(lazy.alpha, 0.0315625, 1, "replay: alpha 0.0315625");
	TAP_EQ(lazy.rcount, 2, "replay: rcount 2");
	TAP_EQ(lazy.next_run, 112500, "replay: next boundary at 112.5 us");
	TAP_EQ(lazy.next_is_reduce, 0,
	       "replay: next boundary is an increase half");
	same_state(&lazy, &timer,
		   "replay: state equals the timer's at 90 us, field by field");

	/* A long silence: the catch-up plays the rest of the episode. */
	n = advance(&lazy, 1000000 * US);
	TAP_EQ(n, 15,
	       "replay: catch-up to 1 s: 15 more runs, 112.5 to 427.5 us");
	for (b = 112500; timer.congested && b <= 1000 * US; b += 22500)
		dcqcn_step(&timer, b);
	TAP_EQ(lazy.congested, 0, "replay: catch-up ends the episode");
	same_state(&lazy, &timer,
		   "replay: after the episode, catch-up equals timer");
}

/* ------------------------------------------------------------------ */
/* Boundaries, and the choices where the page is silent */

/*
 * Strict "< 0.1 Gb/s" at 25, 100 and 400 Gb/s: an FR increase from RC to
 * (RC + line) / 2 that leaves exactly 0.1 Gb/s to line rate goes on; one
 * that leaves 99999 kb/s ends the episode.
 */
static void t_end_gap(void)
{
	static const u32 rates[] = { 25000, 100000, 400000 };	/* Mb/s */
	struct dcqcn_params p;
	struct dcqcn d;
	unsigned int i;
	u32 line;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		dcqcn_params_init(&p);
		DCQCN_P(&p, data_rate_mbps) = rates[i];
		line = rates[i] * 1000;

		setup_with(&d, &p);
		event(&d, 0, 100, 1);
		d.rc_kbps = line - 200000;
		advance(&d, 22500);
		phase_is(&d, DCQCN_RUN_FR_UP,
			 "end gap %u Gb/s: a gap of 100000 kb/s is an FR increase",
			 rates[i] / 1000);
		TAP_EQ(d.rc_kbps, line - 100000,
		       "end gap %u Gb/s: RC line - 100000 kb/s", rates[i] / 1000);
		TAP_EQ(d.congested, 1,
		       "end gap %u Gb/s: exactly 0.1 Gb/s: episode goes on",
		       rates[i] / 1000);

		setup_with(&d, &p);
		event(&d, 0, 100, 1);
		d.rc_kbps = line - 199998;
		advance(&d, 22500);
		phase_is(&d, DCQCN_RUN_END,
			 "end gap %u Gb/s: 99999 kb/s: the increase ends it",
			 rates[i] / 1000);
		TAP_EQ(d.rc_kbps, line,
		       "end gap %u Gb/s: 99999 kb/s: RC = line rate",
		       rates[i] / 1000);
		TAP_EQ(d.congested, 0,
		       "end gap %u Gb/s: 99999 kb/s: episode over",
		       rates[i] / 1000);
	}
}

/* The additive step is fixed when the episode begins. */
static void t_step_fixed(void)
{
	struct dcqcn d;

	d1_start(&d);
	d.rc_kbps = 200000000;
	d.rt_kbps = 200000000;
	d.rcount = 3;
	advance(&d, 22500);
	phase_is(&d, DCQCN_RUN_AI_UP, "step fixed: AI increase");
	TAP_EQ(d.step_kbps, STEP, "step fixed: still 4 Gb/s after RC/RT moved");
	rate_near(d.rt_kbps, 204, "step fixed: RT 200 + 4 (not + 2) = 204");
	rate_near(d.rc_kbps, 202, "step fixed: RC (200 + 204) / 2 = 202");
}

/* NumOfControlLoopsPerIncrease 0: every CNP-seeing increase half increases. */
static void t_nclpi_zero(void)
{
	struct dcqcn_params p;
	struct dcqcn d;
	u64 next = 10 * US, b;
	int n = 0, bad = 0;

	dcqcn_params_init(&p);
	DCQCN_P(&p, num_of_control_loops_per_increase) = 0;
	setup_with(&d, &p);
	event(&d, 0, 100, 1);
	for (b = 22500; b <= 270 * US; b += 22500) {
		d3_play(&d, &next, b - 1);
		if (!dcqcn_step(&d, b))
			bad++;
		if (b % 45000 == 22500) {
			n += is_increase(&d);
			if (b == 22500)
				rate_near(d.rc_kbps, 349.5,
					  "NCLPI 0: 22.5 us RC (299 + 400) / 2");
		}
	}
	TAP_EQ(bad, 0, "NCLPI 0: a run at every boundary");
	TAP_EQ(n, 6, "NCLPI 0: all six CNP-seeing increase halves increase");
}

/*
 * The NCLPI counter is reset only at the episode start (the page's
 * "every sixth such half" counts from there, clean halves between): CNPs
 * in the intervals at 10, 55, 100 us (held 1-3), none in [135, 180) (the
 * clean half at 157.5 increases), CNPs again at 190, 235, 280 us: held 4
 * and 5, and the 6th CNP-seeing half, 292.5 us, increases.
 */
static void t_nclpi_count(void)
{
	struct dcqcn d;

	d1_start(&d);
	event(&d, 10 * US, 10, 1);
	event(&d, 55 * US, 10, 1);
	event(&d, 100 * US, 10, 1);
	advance(&d, 112500);
	phase_is(&d, DCQCN_RUN_HOLD, "NCLPI count: 112.5 us held (3)");
	advance(&d, 157500);
	phase_is(&d, DCQCN_RUN_FR_UP, "NCLPI count: clean 157.5 us increases");
	event(&d, 190 * US, 10, 1);
	advance(&d, 202500);
	phase_is(&d, DCQCN_RUN_HOLD, "NCLPI count: 202.5 us held (4)");
	event(&d, 235 * US, 10, 1);
	advance(&d, 247500);
	phase_is(&d, DCQCN_RUN_HOLD, "NCLPI count: 247.5 us held (5)");
	event(&d, 280 * US, 10, 1);
	advance(&d, 292500);
	phase_is(&d, DCQCN_RUN_FR_UP,
		 "NCLPI count: 292.5 us, 6th since the start, increases");
}

/* EnableECN false: CNPs are ignored, the rate stays at line rate. */
static void t_ecn_off(void)
{
	struct dcqcn_params p;
	struct dcqcn d;
	bool never = true, line = true;
	u64 t;

	dcqcn_params_init(&p);
	DCQCN_P(&p, enable_ecn) = 0;
	setup_with(&d, &p);
	for (t = 0; t <= 1000 * US; t += 10 * US) {
		never &= !event(&d, t, 10, 3);
		never &= !d.congested;
		line &= d.rc_kbps == LINE;
	}
	tap_ok(never, "ECN off: no CNP starts an episode");
	tap_ok(line, "ECN off: the rate never leaves line rate");
	tap_ok(!dcqcn_step(&d, 2000 * US), "ECN off: the loop never runs");
}

static void t_misc(void)
{
	struct dcqcn d;

	setup(&d);
	dcqcn_on_tx(&d, 100);
	tap_ok(!dcqcn_on_cnp(&d, 0, 0) && !d.congested,
	       "no CNP (n = 0): no episode");
	TAP_EQ(d.pkt_cnt, 100, "not congested: packets keep counting");

	d1_start(&d);
	advance(&d, 30 * US);
	dcqcn_on_tx(&d, 5);
	dcqcn_end_episode(&d);
	TAP_EQ(d.congested, 0, "end_episode: not congested");
	TAP_EQ(d.rc_kbps, LINE, "end_episode: back to line rate");
	TAP_EQ(d.rt_kbps, LINE, "end_episode: target at line rate");
	TAP_EQ(d.cnp_cnt + d.pkt_cnt, 0, "end_episode: counts cleared");
	tap_ok(!dcqcn_step(&d, 1000 * US), "end_episode: the loop stops");
}

/*
 * The largest NCLPI (65535): while CNPs continue, the 65536th increase half
 * that saw CNPs increases.  The counter must hold 65536 (it once wrapped
 * at 16 bits and never increased).
 */
static void t_nclpi_max(void)
{
	struct dcqcn_params p;
	struct dcqcn d;
	u32 ups = 0, halves = 0;
	u64 t;

	dcqcn_params_init(&p);
	DCQCN_P(&p, num_of_control_loops_per_increase) = 65535;
	setup_with(&d, &p);
	dcqcn_on_tx(&d, 100);
	dcqcn_on_cnp(&d, 0, 1);
	for (t = 22500; halves < 65536; t += 22500) {
		dcqcn_on_cnp(&d, t - 1, 1);
		dcqcn_step(&d, t);
		if (t % 45000 == 22500) {
			halves++;
			ups += d.last_phase != DCQCN_RUN_HOLD;
		}
	}
	TAP_EQ(ups, 1,
	       "NCLPI 65535: the 65536th CNP-seeing increase half increases");
}

/* ------------------------------------------------------------------ */
/* Fixed bugs: end gap, absolute minimum, floor, FRA 0, catch-up */

/* What "recovery" did at a line rate, end gap and ppm of d1_recovery(). */
struct d1_end {
	u32 gap;	/* end_gap_kbps */
	s32 rcount;	/* of the increase that ended it; 0 if none did */
	u64 t;		/* when it ended (ns) */
	bool ai;	/* an additive increase came first */
	u64 gap_end;	/* the gap to line rate that the ending increase left */
	u64 gap_min;	/* the least gap an increase left with the episode on */
	bool cut_within;	/* the first cut left RC within the gap, congested */
};

/*
 * Plays "first CNP" at a line rate of mbps, then no CNPs until it ends
 * (gap_mbps 0, ppm 0: those attributes at their defaults).  Every
 * increase moves RC halfway to the target, which stays at line rate here,
 * so an increase from RC leaves line - (RC + line) / 2 to line rate.
 */
static struct d1_end d1_recovery(u32 mbps, u32 gap_mbps, u32 ppm)
{
	struct d1_end r = { .gap_min = U64_MAX };
	struct dcqcn_params p;
	struct dcqcn d;
	u64 b, line = (u64)mbps * 1000, left;
	u32 rc;

	dcqcn_params_init(&p);
	DCQCN_P(&p, data_rate_mbps) = mbps;
	if (gap_mbps)
		DCQCN_P(&p, episode_end_gap_mbps) = gap_mbps;
	if (ppm)
		DCQCN_P(&p, episode_end_gap_ppm) = ppm;
	setup_with(&d, &p);
	r.gap = d.end_gap_kbps;
	event(&d, 0, 100, 1);
	r.cut_within = d.congested && line - d.rc_kbps < r.gap;
	for (b = 22500; d.congested && b <= 100000 * US; b += 22500) {
		rc = d.rc_kbps;
		dcqcn_step(&d, b);
		if (!is_increase(&d))
			continue;
		left = line - (rc + line) / 2;
		r.ai |= d.last_phase == DCQCN_RUN_AI_UP;
		if (d.last_phase == DCQCN_RUN_END) {
			r.rcount = d.rcount;
			r.t = b;
			r.gap_end = left;
		} else {
			r.gap_min = min(r.gap_min, left);
		}
	}
	return r;
}

/*
 * The page's rule at every line rate: "when an increase brings the current
 * rate within 0.1 Gbps of line rate, the episode ends".  "recovery" (one
 * CNP after 100 packets cuts to 74.75 %, then no more CNPs, an increase
 * every 45 us, each halving the gap to line rate, 25.25 % of it) ends at
 * the first increase that leaves less than 0.1 Gb/s, and not one later:
 * every earlier increase left at least 0.1 Gb/s.  The independent float
 * model: the gap after k increases is 0.2525 x line / 2^k, below 0.1 Gb/s
 * first at k = 6 at 25 Gb/s (0.0986; 0.197 at k = 5), k = 8 at 100 Gb/s
 * and k = 10 at 400 Gb/s (the worked example's 427.5 us); at 1 Gb/s at
 * k = 2 (63 Mb/s; 126 at k = 1); at 400 Mb/s the first increase (299 to
 * 349.5 Mb/s) already ends it, before additive increase.  At 100 Mb/s the
 * cut leaves 25 Mb/s to line rate, within 0.1 Gb/s, but only an increase
 * ends an episode: it ends 22.5 us later at the first one.
 */
static void t_end_gap_page(void)
{
	static const struct {
		u32 mbps;
		s32 rcount;
	} want[] = {
		{ 25000, 6 }, { 100000, 8 }, { 400000, 10 },
		{ 1000, 2 }, { 400, 1 }, { 100, 1 },
	};
	struct d1_end r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		r = d1_recovery(want[i].mbps, 0, 0);
		TAP_EQ(r.gap, 100000,
		       "page's end gap: %u Mb/s: 0.1 Gb/s = 100000 kb/s",
		       want[i].mbps);
		TAP_EQ(r.rcount, want[i].rcount,
		       "page's end gap: %u Mb/s: recovery ends at increase %d",
		       want[i].mbps, want[i].rcount);
		TAP_EQ(r.t, 22500 + 45000 * (want[i].rcount - 1),
		       "page's end gap: %u Mb/s: at %.1f us", want[i].mbps,
		       22.5 + 45 * (want[i].rcount - 1));
		tap_ok(r.gap_end < 100000,
		       "page's end gap: %u Mb/s: that increase left %llu kb/s, within 0.1 Gb/s",
		       want[i].mbps, (unsigned long long)r.gap_end);
		tap_ok(r.gap_min >= 100000,
		       "page's end gap: %u Mb/s: not one increase later (earlier ones left >= 0.1 Gb/s)",
		       want[i].mbps);
		TAP_EQ(r.ai, want[i].rcount > 3,
		       "page's end gap: %u Mb/s: additive increase %s", want[i].mbps,
		       want[i].rcount > 3 ? "came first" : "never came");
	}
	r = d1_recovery(100, 0, 0);
	tap_ok(r.cut_within,
	       "page's end gap: 100 Mb/s: the cut left it within 0.1 Gb/s, the episode went on");

	/* The gap in Mbit/s is an attribute: 1 Gb/s at 400 Gb/s ends the
	 * recovery at k = 7 (101 / 2^7 = 0.789 Gb/s; 1.58 at k = 6).
	 */
	r = d1_recovery(400000, 1000, 0);
	TAP_EQ(r.gap, 1000000, "end gap mbps: 1000 Mb/s = 1000000 kb/s");
	TAP_EQ(r.rcount, 7, "end gap mbps: 1 Gb/s at 400 Gb/s ends at increase 7");
	tap_ok(r.gap_end < 1000000 && r.gap_min >= 1000000,
	       "end gap mbps: and not one increase earlier or later");
}

/*
 * The option: a nonzero episode_end_gap_ppm makes the end gap that share
 * of line rate instead of episode_end_gap_mbps.  250 ppm is the page's
 * 0.1 Gb/s at 400 Gb/s ("recovery" ends at rcount 10, as with the
 * default), 6250 kb/s at 25 Gb/s and 100 kb/s at 400 Mb/s, where the
 * page's 0.1 Gb/s ends it at the first increase: with the ppm gap every
 * line rate recovers in ten increases, through additive increase.
 */
static void t_end_gap_ppm(void)
{
	static const struct {
		u32 mbps, gap;
	} want[] = {
		{ 400000, 100000 }, { 100000, 25000 }, { 25000, 6250 },
		{ 1000, 250 }, { 400, 100 },
	};
	struct d1_end r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		r = d1_recovery(want[i].mbps, 0, 250);
		TAP_EQ(r.gap, want[i].gap,
		       "end gap ppm: %u Mb/s x 250 ppm = %u kb/s", want[i].mbps,
		       want[i].gap);
		TAP_EQ(r.rcount, 10,
		       "end gap ppm: %u Mb/s ends at rcount 10, like 400 Gb/s",
		       want[i].mbps);
		tap_ok(r.ai, "end gap ppm: %u Mb/s reaches additive increase",
		       want[i].mbps);
		tap_ok(r.gap_end < r.gap && r.gap_min >= r.gap,
		       "end gap ppm: %u Mb/s: strictly within it, not one increase later",
		       want[i].mbps);
	}
	/* A ppm gap replaces the Mbit/s one, whatever that says. */
	r = d1_recovery(400, 1000, 250);
	TAP_EQ(r.gap, 100, "end gap ppm: set, episode_end_gap_mbps is not used");
	/* 1 Gb/s x 1 ppm = 1 kb/s: a halved integer gap stops at 1 kb/s, so
	 * the gap is at least 2 kb/s, or the episode could never end.
	 */
	r = d1_recovery(1000, 0, 1);
	TAP_EQ(r.gap, DCQCN_MIN_END_GAP_KBPS, "end gap ppm: at least 2 kb/s");
	tap_ok(r.rcount > 0, "end gap ppm: the smallest gap still ends the episode");
}

/*
 * minimum_rate_percentage 0: the floor is DCQCN_MIN_RATE_KBPS, not 0.
 * CNPs every 10 us for 100 ms and no increase in that time (NCLPI 65535):
 * with FRA 3 every reduction is a cut (the rate halves each interval and
 * once stuck at 1 kb/s); with FRA 0 the reductions after the first step
 * the target down to 0 and the rate halfway to it (it once reached 0).
 */
static void t_min_rate(void)
{
	struct dcqcn_params p;
	u32 lowest = LINE;
	struct dcqcn d;
	int fra;
	u64 t;

	for (fra = 0; fra <= 3; fra += 3) {
		dcqcn_params_init(&p);
		DCQCN_P(&p, minimum_rate_percentage) = 0;
		DCQCN_P(&p, fast_recovery_attempt) = fra;
		DCQCN_P(&p, num_of_control_loops_per_increase) = 65535;
		setup_with(&d, &p);
		TAP_EQ(d.floor_kbps, DCQCN_MIN_RATE_KBPS,
		       "min rate: FRA %d floor 1 Mb/s with minimum_rate_percentage 0",
		       fra);
		lowest = LINE;
		for (t = 0; t <= 100000 * US; t += 10 * US) {
			event(&d, t, 1, 1);
			lowest = min(lowest, d.rc_kbps);
		}
		TAP_EQ(lowest, DCQCN_MIN_RATE_KBPS,
		       "min rate: FRA %d many CNPs bring the rate to 1 Mb/s, never below",
		       fra);
	}
	dcqcn_params_init(&p);
	DCQCN_P(&p, minimum_rate_percentage) = 0;
	DCQCN_P(&p, data_rate_mbps) = 1;
	setup_with(&d, &p);
	TAP_EQ(d.floor_kbps, 1000, "min rate: never above line rate (1 Mb/s)");
}

/*
 * The floor bounds every change of the current rate: after the floor
 * vector's additive-phase reduction the target is 9.2 Gb/s, below the
 * 10 Gb/s floor, and the next (fast recovery) increase moves halfway
 * toward it, to 9.6: it must stay at 10.
 */
static void t_floor_increase(void)
{
	struct dcqcn_params p;
	struct dcqcn d;

	dcqcn_params_init(&p);
	DCQCN_P(&p, data_rate_mbps) = 100000;
	inject(&d, &p, 10500000, 10200000, 3, Q16 / 2, 45 * US);
	event(&d, 30 * US, 50, 1);
	advance(&d, 45 * US);
	TAP_EQ(d.rt_kbps, 9200000,
	       "floor on increases: RT 9.2 below the floor");
	advance(&d, 67500);
	phase_is(&d, DCQCN_RUN_FR_UP, "floor on increases: FR increase");
	TAP_EQ(d.rc_kbps, 10000000,
	       "floor on increases: (10 + 9.2) / 2 = 9.6 -> floor 10 Gb/s");
	TAP_EQ(d.rt_kbps, 9200000, "floor on increases: RT stays 9.2");
}

/* fast_recovery_attempt 0: the episode still begins with a cut. */
static void t_fra_zero(void)
{
	struct dcqcn_params p;
	struct dcqcn d;

	dcqcn_params_init(&p);
	DCQCN_P(&p, fast_recovery_attempt) = 0;
	setup_with(&d, &p);
	tap_ok(event(&d, 0, 100, 1), "FRA 0: the first CNP starts an episode");
	phase_is(&d, DCQCN_RUN_START, "FRA 0: the episode begins with a cut");
	TAP_EQ(d.rc_kbps, 299002076,
	       "FRA 0: RC 299002076 kb/s, as after the first CNP");
	TAP_EQ(d.rt_kbps, LINE, "FRA 0: RT stays 400 (no additive step down)");
	TAP_EQ(d.rcount, 0, "FRA 0: rcount 0");
	advance(&d, 22500);
	phase_is(&d, DCQCN_RUN_AI_UP, "FRA 0: the first increase is additive");
	event(&d, 30 * US, 50, 1);
	advance(&d, 45 * US);
	phase_is(&d, DCQCN_RUN_AI_DOWN,
		 "FRA 0: a later reduction at rcount 1 >= 0 is additive");
}

struct catch_up_log {
	unsigned int runs;
	u64 first, last;
	bool in_order;
	const struct dcqcn *d;
};

static void catch_up_cb(const struct dcqcn *d, u64 t, void *ctx)
{
	struct catch_up_log *l = ctx;

	if (!l->runs)
		l->first = t;
	else
		l->in_order &= t == l->last + d->half_ns;
	l->in_order &= d == l->d;
	l->last = t;
	l->runs++;
}

/* dcqcn_catch_up(): the bounded catch-up of the module and ccreplay. */
static void t_catch_up(void)
{
	struct catch_up_log l = { .in_order = true };
	struct dcqcn d, timer;
	unsigned int r;
	u64 b;

	/* As in "replay", 100 us replays 4 boundaries, a callback after each. */
	d1_start(&d);
	l.d = &d;
	r = dcqcn_catch_up(&d, 100 * US, catch_up_cb, &l);
	TAP_EQ(r, 4, "catch_up: replay to 100 us: 4 runs, no limit");
	tap_ok(l.runs == 4 && l.first == 22500 && l.last == 90000 && l.in_order,
	       "catch_up: callback at 22.5, 45, 67.5, 90 us (got %u, %llu..%llu)",
	       l.runs, (unsigned long long)l.first,
	       (unsigned long long)l.last);
	r = dcqcn_catch_up(&d, 1000000 * US, NULL, NULL);
	TAP_EQ(r, 15, "catch_up: to 1 s, 15 more runs and the natural end");
	phase_is(&d, DCQCN_RUN_END, "catch_up: the last run ended the episode");
	d1_start(&timer);
	for (b = 22500; timer.congested; b += 22500)
		dcqcn_step(&timer, b);
	same_state(&d, &timer, "catch_up: equals the timer, field by field");
	TAP_EQ(dcqcn_catch_up(&d, 2000000 * US, NULL, NULL), 0,
	       "catch_up: nothing to run outside an episode");

	/*
	 * A long recovery: the target at the 40 Gb/s floor and a 10 Mb/s
	 * step take 36000 additive increases back to line rate.  The bound
	 * closes the episode after 4096 boundaries, at line rate.
	 */
	d1_start(&d);
	d.rc_kbps = FLOOR;
	d.rt_kbps = FLOOR;
	d.step_kbps = 10000;
	d.rcount = 3;
	timer = d;
	r = dcqcn_catch_up(&timer, 22500ull * DCQCN_MAX_CATCHUP - 1, NULL, NULL);
	tap_ok(r == DCQCN_MAX_CATCHUP - 1 && timer.congested,
	       "catch_up: 4095 boundaries, no limit, still congested (%#x)", r);
	memset(&l, 0, sizeof(l));
	l.in_order = true;
	l.d = &d;
	r = dcqcn_catch_up(&d, 1000000000 * US, catch_up_cb, &l);
	TAP_EQ(r, DCQCN_MAX_CATCHUP | DCQCN_CATCHUP_LIMIT,
	       "catch_up: 4096 runs, then the limit");
	tap_ok(l.runs == DCQCN_MAX_CATCHUP && l.first == 22500 &&
	       l.last == 22500ull * DCQCN_MAX_CATCHUP && l.in_order,
	       "catch_up: a callback per run, the last at 4096 x 22.5 us");
	TAP_EQ(d.congested, 0, "catch_up: the limit ends the episode");
	TAP_EQ(d.rc_kbps, LINE, "catch_up: the limit returns to line rate");
	TAP_EQ(d.rt_kbps, LINE, "catch_up: target at line rate");
	/* Per call: 4095 and then 1 more boundary are no limit. */
	r = dcqcn_catch_up(&timer, 22500ull * DCQCN_MAX_CATCHUP, NULL, NULL);
	tap_ok(r == 1 && timer.congested,
	       "catch_up: the bound counts per call (1 more run, still congested)");
}

/* data_rate_mbps 0 outside the kernel is the fallback link speed. */
static void t_rate_auto(void)
{
	struct dcqcn_params p;
	struct dcqcn d;

	dcqcn_params_init(&p);
	DCQCN_P(&p, data_rate_mbps) = 0;
	setup_with(&d, &p);
	TAP_EQ(d.line_kbps, FABRIC_LINK_MBPS_FALLBACK * 1000ull,
	       "rate 0: line rate is the fallback link speed");
	TAP_EQ(d.rc_kbps, d.line_kbps, "rate 0: and the flow starts at it");
}

int main(void)
{
	tap_header();

	t_defaults();
	t_worked_example();
	t_d1();
	t_d2();
	t_second_episode();
	t_d3();
	t_d3_long();
	t_d4();
	t_d5_floor();
	t_d6();
	t_end_gap();
	t_step_fixed();
	t_nclpi_zero();
	t_nclpi_max();
	t_nclpi_count();
	t_ecn_off();
	t_misc();
	t_end_gap_page();
	t_end_gap_ppm();
	t_min_rate();
	t_floor_increase();
	t_fra_zero();
	t_catch_up();
	t_rate_auto();

	return tap_finish();
}

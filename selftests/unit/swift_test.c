// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of the Swift core (include/net/fabric/swift.h).
 *
 * Written from Swift (Kumar et al., SIGCOMM 2020): Algorithm 1 and the
 * target-delay formula, in the form Google's Isekai and csg-htsim both
 * implement; from the choices the project takes (see
 * Documentation/networking/swift.rst, "Design decisions"): the Isekai
 * defaults, a strict "<" for the decrease timestamp, srtt for the
 * once-per-RTT guard, Q16 windows; and from the vectors S1-S6, which an
 * independent floating-point model computed; not from the
 * implementation: they are the independent check of
 * net/swift/swift_core.c.
 *
 * Conventions: windows in Q16 packets (s.cwnd) or thousandths of a packet,
 * times and delays in ns.  The model's float values are checked within
 * 0.01 % (want / 10000 + 1); the Q16 arithmetic is checked exactly or
 * within a Q16 unit.  Windows for a vector are put in place by writing
 * s.cwnd (and s.t_last_decrease) directly after swift_init().
 *
 * Constants at the Isekai defaults (base 25 us, 1 us a hop, fs_range
 * 100 us, fs_min_cwnd 0.1, fs_max_cwnd 256):
 *   alpha = 100 / (1 / sqrt(0.1) - 1 / sqrt(256)) = 100 / 3.099778
 *         = 32.260378 us,  beta = -alpha / 16 = -2.016274 us
 *   target = 25 + hops x 1 + clamp(alpha / sqrt(cwnd) + beta, 0, 100) us
 */
#include <string.h>

#include <net/fabric/swift.h>

#include "tap.h"

#define Q16		65536ll
#define US		1000ull			/* ns */
#define SRTT		(40 * US)		/* S4, S6 */
#define MSS		1448ull			/* S4, bytes */
#define MAX_Q16		(256 * Q16)		/* max_cwnd 256 */

/* ------------------------------------------------------------------ */
/* Helpers */

/* A window in packets as Q16, rounded to nearest. */
static long long q16(double pkts)
{
	return (long long)(pkts * Q16 + 0.5);
}

/* A value in ns (from a vector's value in us), rounded to nearest. */
static long long ns(double us)
{
	return (long long)(us * 1000.0 + 0.5);
}

static void setup_with(struct swift *s, const struct swift_params *p,
		       u32 cwnd_milli)
{
	memset(s, 0, sizeof(*s));
	swift_init(s, p, cwnd_milli);
}

/* Defaults with hops set; the window put at exactly cwnd_q16. */
static void setup(struct swift *s, u32 hops, u32 cwnd_q16)
{
	struct swift_params p;

	swift_params_init(&p);
	SWIFT_P(&p, hops) = hops;
	setup_with(s, &p, 10000);
	s->cwnd = cwnd_q16;
}

/* The window within 0.01 % of the vector's float value. */
static void cwnd_near(const struct swift *s, double pkts, const char *name)
{
	long long want = q16(pkts);

	TAP_NEAR(s->cwnd, want, want / 10000 + 1, "%s", name);
}

/* A time (ns) within 0.01 % of the vector's value in us. */
static void ns_near(u64 got, double us, const char *name)
{
	long long want = ns(us);

	TAP_NEAR(got, want, want / 10000 + 1, "%s", name);
}

/* min_cwnd 0.01 packet: 0.01 x 65536 = 655.36, so Q16 655 or 656. */
static bool is_min_cwnd(u32 cwnd)
{
	return cwnd == 655 || cwnd == 656;
}

static void min_cwnd_is(const struct swift *s, const char *name)
{
	if (!tap_ok(is_min_cwnd(s->cwnd), "%s", name))
		tap_diag("got Q16 %u, want 655 or 656 (0.01 x 65536 = 655.36)",
			 s->cwnd);
}

static const char *dname(unsigned int d)
{
	if (d < SWIFT_DECISION_COUNT && swift_decision_names[d])
		return swift_decision_names[d];
	return "?";
}

/* One test point: the decision returned, also kept in last_decision. */
static void decision_is(const struct swift *s, enum swift_decision got,
			enum swift_decision want, const char *name)
{
	if (!tap_ok(got == want && s->last_decision == want, "%s", name))
		tap_diag("got %u (%s), last_decision %u (%s), want %u (%s)",
			 got, dname(got), s->last_decision,
			 dname(s->last_decision), want, dname(want));
}

/* ------------------------------------------------------------------ */
/* Attributes (the Isekai defaults) and the derived constants */

static void t_defaults(void)
{
	struct swift_params p;
	struct swift s;

	swift_params_init(&p);
	TAP_EQ(SWIFT_P(&p, base_target_ns), 25000, "defaults: base target 25 us");
	TAP_EQ(SWIFT_P(&p, per_hop_ns), 1000, "defaults: 1 us per hop");
	TAP_EQ(SWIFT_P(&p, hops), 1, "defaults: hops 1");
	TAP_EQ(SWIFT_P(&p, fs_range_ns), 100000, "defaults: fs_range 100 us");
	TAP_EQ(SWIFT_P(&p, fs_min_cwnd), 100, "defaults: fs_min_cwnd 0.1");
	TAP_EQ(SWIFT_P(&p, fs_max_cwnd), 256000, "defaults: fs_max_cwnd 256");
	TAP_EQ(SWIFT_P(&p, ai), 1000, "defaults: ai 1.0");
	TAP_EQ(SWIFT_P(&p, beta), 800, "defaults: beta 0.8");
	TAP_EQ(SWIFT_P(&p, max_mdf), 500, "defaults: max_mdf 0.5");
	TAP_EQ(SWIFT_P(&p, min_cwnd), 10, "defaults: min_cwnd 0.01");
	TAP_EQ(SWIFT_P(&p, max_cwnd), 256000, "defaults: max_cwnd 256");
	TAP_EQ(SWIFT_P(&p, retx_reset_threshold), 3,
	       "defaults: retx reset threshold 3");

	setup_with(&s, &p, 10000);
	TAP_EQ(s.cwnd, 10 * Q16, "init: 10 packets = Q16 655360");
	TAP_EQ(swift_cwnd_milli(&s), 10000, "init: cwnd_milli 10000");
	TAP_EQ(s.target_base, 26000, "init: target base 25 + 1 x 1 = 26 us");
	TAP_EQ(s.t_last_decrease, 0, "init: t_last_decrease 0");
	TAP_EQ(s.retx_cnt, 0, "init: retx_cnt 0");
}

static void t_constants(void)
{
	struct swift s;

	setup(&s, 3, 16 * Q16);
	/* alpha 32260.378 ns, beta -2016.274 ns: within 1 ns (and 0.01 %) */
	TAP_NEAR(s.fs_alpha, 32260, 1, "constants: alpha 32.260378 us (ns)");
	TAP_NEAR(s.fs_beta, -2016, 1, "constants: beta -2.016274 us (ns)");
	TAP_EQ(s.target_base, 28000, "constants: target base 25 + 3 x 1 = 28 us");
}

/* ------------------------------------------------------------------ */
/* S1: target delay */

static void t_s1(void)
{
	static const struct {
		u32 milli;
		u32 hops;
		double us;
		const char *name;
	} rows[] = {
		{ 16000, 3, 34.048821, "S1 cwnd 16 hops 3: target 34.048821 us" },
		{ 20000, 3, 33.197366, "S1 cwnd 20 hops 3: target 33.197366 us" },
		{ 10000, 3, 36.185354, "S1 cwnd 10 hops 3: target 36.185354 us" },
		{ 1000, 0, 55.244105, "S1 cwnd 1 hops 0: target 55.244105 us" },
		/* the flow-scaling term is fs_range at fs_min_cwnd ... */
		{ 100, 3, 128.0, "S1 cwnd 0.1 (fs_min) hops 3: term 100: 128 us" },
		/* ... and 0 at fs_max_cwnd */
		{ 256000, 3, 28.0, "S1 cwnd 256 (fs_max) hops 3: term 0: 28 us" },
		/* S2's second window */
		{ 500, 3, 71.606791, "S1 cwnd 0.5 hops 3: target 71.606791 us" },
	};
	struct swift_params p;
	struct swift s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		swift_params_init(&p);
		SWIFT_P(&p, hops) = rows[i].hops;
		setup_with(&s, &p, rows[i].milli);
		ns_near(swift_target(&s), rows[i].us, rows[i].name);
	}

	/* 144.27 - 2.02 = 142.25 us > fs_range: clamped, exactly 128 us */
	setup(&s, 3, q16(0.05));
	TAP_EQ(swift_target(&s), 128000,
	       "S1 cwnd 0.05 hops 3: term 142.25 > 100, clamp: 128 us");

	/* 1.020160 - 2.016274 < 0: the term is 0, exactly 28 us */
	swift_params_init(&p);
	SWIFT_P(&p, hops) = 3;
	SWIFT_P(&p, max_cwnd) = 1000000;
	setup_with(&s, &p, 1000000);
	TAP_EQ(s.cwnd, 1000 * Q16, "S1 cwnd 1000 (max_cwnd raised) in place");
	TAP_EQ(swift_target(&s), 28000,
	       "S1 cwnd 1000 hops 3: term < 0 -> 0: 28 us");
	setup(&s, 3, 1000 * Q16);
	TAP_EQ(swift_target(&s), 28000,
	       "S1 cwnd 1000 hops 3 (s.cwnd set): term < 0 -> 0: 28 us");

	/*
	 * Q16 (alpha 32260, beta -2016): cwnd 16, sqrt 262144,
	 * 32260 x 65536 / 262144 - 2016 = 6049; cwnd 20, sqrt 293085,
	 * floor(2114191360 / 293085) - 2016 = 5197.
	 */
	setup(&s, 3, 16 * Q16);
	TAP_EQ(swift_target(&s), 34049, "S1 Q16 cwnd 16 hops 3: 34049 ns");
	setup(&s, 3, 20 * Q16);
	TAP_EQ(swift_target(&s), 33197, "S1 Q16 cwnd 20 hops 3: 33197 ns");
}

/* Flow scaling off unless fs_min_cwnd < fs_max_cwnd: target = base + hops */
static void t_fs_disabled(void)
{
	static const u32 fs_min[] = { 256000, 300000 };
	static const double wins[] = { 0.05, 1.0, 16.0, 256.0 };
	struct swift_params p;
	struct swift s;
	unsigned int i, j;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(fs_min); i++) {
		swift_params_init(&p);
		SWIFT_P(&p, hops) = 3;
		SWIFT_P(&p, fs_min_cwnd) = fs_min[i];
		setup_with(&s, &p, 10000);
		ok = true;
		for (j = 0; j < ARRAY_SIZE(wins); j++) {
			s.cwnd = q16(wins[j]);
			if (swift_target(&s) != 28000) {
				ok = false;
				tap_diag("cwnd %g: target %u, want 28000",
					 wins[j], swift_target(&s));
			}
		}
		tap_ok(ok, "fs off (fs_min_cwnd %u >= 256000): 28 us at 0.05 to 256",
		       fs_min[i]);
	}
}

/* ------------------------------------------------------------------ */
/* S2: additive increase (delay 20 us < target) */

static void t_s2(void)
{
	enum swift_decision d;
	struct swift s;

	setup(&s, 3, 10 * Q16);
	ns_near(swift_target(&s), 36.185354, "S2 cwnd 10: target 36.185 us");
	d = swift_on_ack(&s, 1000 * US, 20 * US, 2, SRTT, true);
	decision_is(&s, d, SWIFT_AI, "S2 cwnd 10, 2 acked: AI");
	/* 655360 + floor(65536 x 2 x 65536 / 655360) = 668467 */
	TAP_NEAR(s.cwnd, 668467, 1, "S2 cwnd 10 + 1 x 2 / 10 = 10.2 (Q16 668467)");
	TAP_EQ(swift_cwnd_milli(&s), 10200, "S2 cwnd 10.2 = 10200 milli");
	TAP_EQ(s.t_last_decrease, 0, "S2 an increase leaves t_last_decrease");

	setup(&s, 3, Q16 / 2);
	ns_near(swift_target(&s), 71.606791, "S2 cwnd 0.5: target 71.607 us");
	d = swift_on_ack(&s, 1000 * US, 20 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_AI, "S2 cwnd 0.5, 1 acked: AI");
	TAP_NEAR(s.cwnd, 3 * Q16 / 2, 1, "S2 cwnd 0.5 + 1 x 1 = 1.5 (Q16 98304)");
	TAP_EQ(s.pacing_gap, 0, "S2 cwnd 1.5 >= 1: no pacing gap");
}

/*
 * The AI formula switches at exactly one packet: below, +ai per acked
 * packet; at or above, +ai / cwnd per acked packet.  The two agree at 1,
 * so the switch shows just below it: 1 - 2^-16 with 2 acked gives
 * 65535 + 2 x 65536 = 196607 (the other formula would give 65535 +
 * floor(2 x 2^32 / 65535) = 196609).
 */
static void t_ai_switch(void)
{
	struct swift_params p;
	struct swift s;

	setup(&s, 3, Q16 - 1);
	swift_on_ack(&s, 1000 * US, 20 * US, 2, SRTT, true);
	TAP_EQ(s.cwnd, 196607,
	       "AI switch: cwnd 1 - 2^-16, 2 acked: + ai per packet = Q16 196607");

	setup(&s, 3, q16(0.9));
	swift_on_ack(&s, 1000 * US, 20 * US, 1, SRTT, true);
	cwnd_near(&s, 1.9, "AI switch: cwnd 0.9, 1 acked: 0.9 + 1 = 1.9");

	setup(&s, 3, Q16);
	swift_on_ack(&s, 1000 * US, 20 * US, 1, SRTT, true);
	TAP_EQ(s.cwnd, 2 * Q16, "AI switch: cwnd exactly 1, 1 acked: 1 + 1 / 1 = 2");

	setup(&s, 3, q16(1.25));
	swift_on_ack(&s, 1000 * US, 20 * US, 1, SRTT, true);
	cwnd_near(&s, 2.05, "AI switch: cwnd 1.25, 1 acked: 1.25 + 1 / 1.25 = 2.05");

	/* ai is a parameter: 2.0 at cwnd 4 with 2 acked: 4 + 2 x 2 / 4 = 5 */
	swift_params_init(&p);
	SWIFT_P(&p, hops) = 3;
	SWIFT_P(&p, ai) = 2000;
	setup_with(&s, &p, 4000);
	swift_on_ack(&s, 1000 * US, 20 * US, 2, SRTT, true);
	cwnd_near(&s, 5.0, "AI ai 2.0: cwnd 4, 2 acked: 4 + 2 x 2 / 4 = 5");
}

/* ------------------------------------------------------------------ */
/* S3: multiplicative decrease (cwnd 20, hops 3, target 33.197366 us) */

static void t_s3(void)
{
	enum swift_decision d;
	struct swift s;

	/* (60 - 33.197366) / 60 = 0.446711; 1 - 0.8 x 0.446711 = 0.642632 */
	setup(&s, 3, 20 * Q16);
	d = swift_on_ack(&s, 1000 * US, 60 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "S3 delay 60: MD");
	cwnd_near(&s, 12.852631, "S3 delay 60: cwnd 20 x 0.642632 = 12.852631");
	TAP_EQ(s.t_last_decrease, 1000 * US, "S3 delay 60: t_last_decrease = now");
	TAP_EQ(s.pacing_gap, 0, "S3 cwnd 12.85 >= 1: no pacing gap");

	/* 1 - 0.8 x 0.834013 = 0.332790 < 0.5: factor 1 - max_mdf */
	setup(&s, 3, 20 * Q16);
	d = swift_on_ack(&s, 1000 * US, 200 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "S3 delay 200: MD");
	cwnd_near(&s, 10.0, "S3 delay 200: factor floored at 0.5: cwnd 10");
	TAP_EQ(s.t_last_decrease, 1000 * US, "S3 delay 200: t_last_decrease = now");

	/* within srtt of the last decrease: unchanged, timestamp kept */
	setup(&s, 3, 20 * Q16);
	s.t_last_decrease = 990 * US;
	s.decreased = 1;
	d = swift_on_ack(&s, 1000 * US, 200 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_HOLD, "S3 delay 200 within srtt: hold");
	TAP_EQ(s.cwnd, 20 * Q16, "S3 delay 200 within srtt: cwnd stays 20");
	TAP_EQ(s.t_last_decrease, 990 * US,
	       "S3 delay 200 within srtt: t_last_decrease not refreshed");
}

/*
 * delay == target is not below target: no AI, and the MD factor is
 * 1 - 0.8 x 0 = 1, so the window stays and (strict <) the decrease
 * timestamp does not move; one ns below target is AI.
 */
static void t_at_target(void)
{
	enum swift_decision d;
	struct swift s;
	u32 t;

	setup(&s, 3, 20 * Q16);
	t = swift_target(&s);
	d = swift_on_ack(&s, 1000 * US, t, 1, SRTT, true);
	tap_ok(d != SWIFT_AI, "delay == target: not an increase (got %s)",
	       dname(d));
	TAP_EQ(s.cwnd, 20 * Q16, "delay == target: factor 1, cwnd stays 20");
	TAP_EQ(s.t_last_decrease, 0,
	       "delay == target: unchanged window, t_last_decrease stays (strict <)");

	setup(&s, 3, 20 * Q16);
	d = swift_on_ack(&s, 1000 * US, t - 1, 1, SRTT, true);
	decision_is(&s, d, SWIFT_AI, "delay == target - 1 ns: AI");
	cwnd_near(&s, 20.05, "delay == target - 1 ns: 20 + 1 / 20 = 20.05");
}

/* ------------------------------------------------------------------ */
/* S4: pacing below one packet, gap = srtt / cwnd */

static void t_s4(void)
{
	enum swift_decision d;
	struct swift s;
	u64 gap;

	/* 0.5 -> 0.25 by a max_mdf cut (delay 1000 us vs target 71.6 us) */
	setup(&s, 3, Q16 / 2);
	d = swift_on_ack(&s, 1000 * US, 1000 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "S4 cwnd 0.5, delay 1000 us: MD");
	TAP_NEAR(s.cwnd, Q16 / 4, 1, "S4 cwnd 0.5 x 0.5 = 0.25");
	ns_near(s.pacing_gap, 160.0, "S4 cwnd 0.25 srtt 40 us: gap 160 us");
	gap = s.pacing_gap;
	if (gap)
		TAP_NEAR(MSS * 1000000000ull / gap, 9050000, 905,
			 "S4 cwnd 0.25: 1448 B per gap = 9050000 B/s");
	else
		tap_ok(0, "S4 cwnd 0.25: 1448 B per gap = 9050000 B/s");

	/* a sample that keeps the window recomputes the same gap */
	d = swift_on_ack(&s, 1010 * US, 1000 * US, 1, SRTT, false);
	decision_is(&s, d, SWIFT_NO_MD, "S4 cwnd 0.25, unfit sample: no MD");
	ns_near(s.pacing_gap, 160.0, "S4 cwnd 0.25 kept: gap 160 us");

	/*
	 * min_cwnd 0.01 (by the RTO reset): gap 40 / 0.01 = 4000 us.  Q16
	 * holds 0.01 as 655 or 656 (655.36), i.e. 4002.2 or 3996.1 us: the
	 * vector's value within 0.1 %, and srtt x 65536 / cwnd within 1 ns.
	 */
	setup(&s, 3, 8 * Q16);
	s.retx_cnt = 2;
	d = swift_on_rto(&s, 1000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO_RESET, "S4 3rd RTO: reset to min_cwnd");
	min_cwnd_is(&s, "S4 cwnd 0.01 (Q16 655 or 656)");
	TAP_NEAR(s.pacing_gap, 4000000, 4000, "S4 cwnd 0.01: gap 4000 us (0.1 %)");
	TAP_NEAR(s.pacing_gap, SRTT * Q16 / (s.cwnd ? s.cwnd : 1), 1,
		 "S4 cwnd 0.01: gap = srtt x 65536 / cwnd_q16");
	gap = s.pacing_gap;
	if (gap)
		TAP_NEAR(MSS * 1000000000ull / gap, 362000, 362,
			 "S4 cwnd 0.01: 1448 B per gap = 362000 B/s (0.1 %)");
	else
		tap_ok(0, "S4 cwnd 0.01: 1448 B per gap = 362000 B/s");

	/* one packet or more: no gap */
	setup(&s, 3, 2 * Q16);
	d = swift_on_ack(&s, 1000 * US, 1000 * US, 1, SRTT, true);
	TAP_EQ(s.cwnd, Q16, "S4 cwnd 2 x 0.5 = exactly 1");
	TAP_EQ(s.pacing_gap, 0, "S4 cwnd exactly 1: gap 0");
	setup(&s, 3, Q16 / 4);
	s.pacing_gap = 123;
	swift_on_ack(&s, 1000 * US, 20 * US, 1, SRTT, true);
	cwnd_near(&s, 1.25, "S4 cwnd 0.25 + 1 = 1.25");
	TAP_EQ(s.pacing_gap, 0, "S4 cwnd 1.25: gap back to 0");
}

/* ------------------------------------------------------------------ */
/* S5: retransmission timeouts (cwnd 8, can_decrease at each) */

static void t_s5(void)
{
	enum swift_decision d;
	struct swift s, c;

	setup(&s, 3, 8 * Q16);
	d = swift_on_rto(&s, 1000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO, "S5 RTO #1: cut");
	TAP_EQ(s.retx_cnt, 1, "S5 RTO #1: retx 1");
	TAP_NEAR(s.cwnd, 4 * Q16, 1, "S5 RTO #1: 8 x 0.5 = 4");
	TAP_EQ(s.t_last_decrease, 1000 * US, "S5 RTO #1: t_last_decrease = now");

	d = swift_on_rto(&s, 2000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO, "S5 RTO #2: cut");
	TAP_EQ(s.retx_cnt, 2, "S5 RTO #2: retx 2");
	TAP_NEAR(s.cwnd, 2 * Q16, 1, "S5 RTO #2: 4 x 0.5 = 2");

	d = swift_on_rto(&s, 3000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO_RESET, "S5 RTO #3: retx 3 >= 3: reset");
	TAP_EQ(s.retx_cnt, 3, "S5 RTO #3: retx 3");
	min_cwnd_is(&s, "S5 RTO #3: min_cwnd 0.01 (Q16 655 or 656)");
	TAP_EQ(s.t_last_decrease, 3000 * US, "S5 RTO #3: t_last_decrease = now");
	TAP_NEAR(s.pacing_gap, SRTT * 100, 4000,
		 "S5 RTO #3: gap 100 x srtt (0.1 %)");

	/* any ACK afterwards: below target, above target, unfit */
	c = s;
	swift_on_ack(&c, 4000 * US, 20 * US, 1, SRTT, true);
	TAP_EQ(c.retx_cnt, 0, "S5 ACK below target afterwards: retx 0");
	c = s;
	swift_on_ack(&c, 3010 * US, 1000 * US, 1, SRTT, true);
	TAP_EQ(c.retx_cnt, 0, "S5 ACK above target (held) afterwards: retx 0");
	c = s;
	swift_on_ack(&c, 4000 * US, 1000 * US, 1, SRTT, false);
	TAP_EQ(c.retx_cnt, 0, "S5 unfit ACK afterwards: retx 0");

	/* the 4th RTO keeps min_cwnd; the unchanged window keeps the stamp */
	d = swift_on_rto(&s, 3010 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO_RESET, "S5 RTO #4: still reset");
	min_cwnd_is(&s, "S5 RTO #4: min_cwnd");
	TAP_EQ(s.t_last_decrease, 3000 * US,
	       "S5 RTO #4: window unchanged, t_last_decrease stays");
}

/* The RTO cut is gated by the once-per-RTT guard; the reset is not. */
static void t_rto_guard(void)
{
	struct swift_params p;
	enum swift_decision d;
	struct swift s;

	setup(&s, 3, 8 * Q16);
	swift_on_rto(&s, 1000 * US, SRTT);
	d = swift_on_rto(&s, 1010 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO, "RTO guard: #2 within srtt: RTO");
	TAP_EQ(s.retx_cnt, 2, "RTO guard: #2 counted");
	TAP_NEAR(s.cwnd, 4 * Q16, 1, "RTO guard: #2 within srtt: cwnd stays 4");
	TAP_EQ(s.t_last_decrease, 1000 * US, "RTO guard: #2 keeps the stamp");
	d = swift_on_rto(&s, 1020 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO_RESET,
		    "RTO guard: #3 within srtt still resets");
	min_cwnd_is(&s, "RTO guard: #3: min_cwnd");

	/* htsim's threshold 5: the third RTO gives 1, the fifth min_cwnd */
	swift_params_init(&p);
	SWIFT_P(&p, hops) = 3;
	SWIFT_P(&p, retx_reset_threshold) = 5;
	setup_with(&s, &p, 8000);
	swift_on_rto(&s, 1000 * US, SRTT);
	swift_on_rto(&s, 2000 * US, SRTT);
	d = swift_on_rto(&s, 3000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO, "RTO threshold 5: #3 is a cut");
	TAP_NEAR(s.cwnd, Q16, 1, "RTO threshold 5: #3: 8 / 2 / 2 / 2 = 1");
	swift_on_rto(&s, 4000 * US, SRTT);
	TAP_NEAR(s.cwnd, Q16 / 2, 1, "RTO threshold 5: #4: 0.5");
	d = swift_on_rto(&s, 5000 * US, SRTT);
	decision_is(&s, d, SWIFT_RTO_RESET, "RTO threshold 5: #5 resets");
	min_cwnd_is(&s, "RTO threshold 5: #5: min_cwnd");
}

/* ------------------------------------------------------------------ */
/* S6: once-per-RTT guard (srtt 40 us), strict < for the stamp */

static void t_s6(void)
{
	enum swift_decision d;
	struct swift s, c;
	u32 before;

	setup(&s, 3, 20 * Q16);
	d = swift_on_ack(&s, 100 * US, 60 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "S6 100 us: MD");
	cwnd_near(&s, 12.852631, "S6 100 us: cwnd 12.852631 (as S3)");
	TAP_EQ(s.t_last_decrease, 100 * US, "S6 100 us: t_last_decrease 100 us");

	before = s.cwnd;
	d = swift_on_ack(&s, 120 * US, 60 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_HOLD, "S6 120 us: 20 < 40: no MD (hold)");
	TAP_EQ(s.cwnd, before, "S6 120 us: cwnd unchanged");
	TAP_EQ(s.t_last_decrease, 100 * US,
	       "S6 120 us: t_last_decrease stays 100 us (strict <)");

	c = s;
	d = swift_on_ack(&c, 140 * US - 1, 60 * US, 1, SRTT, true);
	decision_is(&c, d, SWIFT_HOLD, "S6 139.999 us: 39.999 < 40: hold");
	c = s;
	d = swift_on_ack(&c, 140 * US, 60 * US, 1, SRTT, true);
	decision_is(&c, d, SWIFT_MD, "S6 140 us: 40 >= 40: MD allowed");

	/*
	 * target at 12.852631: 32.260378 / 3.585056 - 2.016274 + 28 =
	 * 34.982295 us; factor 1 - 0.8 x 25.017705 / 60 = 0.666431
	 */
	d = swift_on_ack(&s, 141 * US, 60 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "S6 141 us: 41 >= 40: MD allowed");
	cwnd_near(&s, 8.565387, "S6 141 us: cwnd 12.852631 x 0.666431 = 8.565387");
	TAP_EQ(s.t_last_decrease, 141 * US, "S6 141 us: t_last_decrease 141 us");
}

/* ------------------------------------------------------------------ */
/* Fast recovery, unfit samples, bounds */

static void t_recovery(void)
{
	enum swift_decision d;
	struct swift s;

	setup(&s, 3, 8 * Q16);
	s.retx_cnt = 2;
	d = swift_on_recovery(&s, 1000 * US, SRTT);
	decision_is(&s, d, SWIFT_RECOVERY, "recovery: decision recovery");
	TAP_NEAR(s.cwnd, 4 * Q16, 1, "recovery: 8 x (1 - 0.5) = 4");
	TAP_EQ(s.retx_cnt, 0, "recovery: retx reset to 0");
	TAP_EQ(s.t_last_decrease, 1000 * US, "recovery: t_last_decrease = now");

	s.retx_cnt = 1;
	d = swift_on_recovery(&s, 1020 * US, SRTT);
	decision_is(&s, d, SWIFT_RECOVERY, "recovery within srtt: recovery");
	TAP_NEAR(s.cwnd, 4 * Q16, 1, "recovery within srtt: cwnd stays 4");
	TAP_EQ(s.retx_cnt, 0, "recovery within srtt: retx reset to 0");
	TAP_EQ(s.t_last_decrease, 1000 * US,
	       "recovery within srtt: t_last_decrease stays");

	swift_on_recovery(&s, 1040 * US, SRTT);
	TAP_NEAR(s.cwnd, 2 * Q16, 1, "recovery srtt later: 4 x 0.5 = 2");
	TAP_EQ(s.t_last_decrease, 1040 * US, "recovery srtt later: stamp moves");

	/* recovery and MD share the guard */
	swift_on_ack(&s, 1050 * US, 1000 * US, 1, SRTT, true);
	TAP_NEAR(s.cwnd, 2 * Q16, 1,
		 "MD within srtt of a recovery cut: held at 2");
}

static void t_may_decrease(void)
{
	enum swift_decision d;
	struct swift s;

	setup(&s, 3, 20 * Q16);
	d = swift_on_ack(&s, 1000 * US, 200 * US, 1, SRTT, false);
	decision_is(&s, d, SWIFT_NO_MD, "unfit sample above target: no MD");
	TAP_EQ(s.cwnd, 20 * Q16, "unfit sample above target: cwnd stays 20");
	TAP_EQ(s.t_last_decrease, 0, "unfit sample above target: stamp stays");
	d = swift_on_ack(&s, 1010 * US, 20 * US, 2, SRTT, false);
	decision_is(&s, d, SWIFT_AI, "unfit sample below target: AI");
	cwnd_near(&s, 20.1, "unfit sample below target: 20 + 2 / 20 = 20.1");
	d = swift_on_ack(&s, 1020 * US, 200 * US, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "fit sample afterwards: MD");
	tap_ok(s.cwnd < q16(20.1), "fit sample afterwards: the window shrinks");
}

static void t_bounds(void)
{
	struct swift_params p;
	struct swift s;

	setup(&s, 3, MAX_Q16);
	swift_on_ack(&s, 1000 * US, 20 * US, 100, SRTT, true);
	TAP_EQ(s.cwnd, MAX_Q16, "max: AI at 256 stays 256");
	setup(&s, 3, q16(255.9));
	swift_on_ack(&s, 1000 * US, 20 * US, 1000, SRTT, true);
	TAP_EQ(s.cwnd, MAX_Q16, "max: AI from 255.9 (+3.9) clamped to 256");

	setup(&s, 3, q16(0.015));
	swift_on_ack(&s, 1000 * US, 1000 * US, 1, SRTT, true);
	min_cwnd_is(&s, "min: MD 0.015 x 0.5 = 0.0075 clamped to 0.01");
	TAP_EQ(s.t_last_decrease, 1000 * US, "min: the clamped cut is a decrease");
	swift_on_ack(&s, 2000 * US, 1000 * US, 1, SRTT, true);
	min_cwnd_is(&s, "min: MD at min_cwnd stays min_cwnd");
	TAP_EQ(s.t_last_decrease, 1000 * US,
	       "min: MD at min_cwnd, window unchanged: stamp stays");
	setup(&s, 3, q16(0.012));
	swift_on_rto(&s, 1000 * US, SRTT);
	min_cwnd_is(&s, "min: RTO 0.012 x 0.5 = 0.006 clamped to 0.01");
	setup(&s, 3, q16(0.012));
	swift_on_recovery(&s, 1000 * US, SRTT);
	min_cwnd_is(&s, "min: recovery 0.012 x 0.5 clamped to 0.01");

	/* other bounds: min 0.5, max 4 */
	swift_params_init(&p);
	SWIFT_P(&p, hops) = 3;
	SWIFT_P(&p, min_cwnd) = 500;
	SWIFT_P(&p, max_cwnd) = 4000;
	setup_with(&s, &p, 4000);
	swift_on_ack(&s, 1000 * US, 20 * US, 8, SRTT, true);
	TAP_EQ(s.cwnd, 4 * Q16, "max 4: AI at 4 stays 4");
	s.cwnd = q16(0.8);
	swift_on_ack(&s, 2000 * US, 1000 * US, 1, SRTT, true);
	TAP_NEAR(s.cwnd, Q16 / 2, 1, "min 0.5: MD 0.8 x 0.5 = 0.4 clamped to 0.5");
	s.retx_cnt = 2;
	swift_on_rto(&s, 3000 * US, SRTT);
	TAP_NEAR(s.cwnd, Q16 / 2, 1, "min 0.5: RTO reset to min_cwnd 0.5");
}

/* ------------------------------------------------------------------ */
/* A long mixed run: the invariants of Algorithm 1 at every event */

static u32 lcg(u32 *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void t_sweep(void)
{
	bool bounds = true, guard = true, stamp = true, dir = true;
	bool retx = true, gap = true, mdf = true;
	u32 x = 1, prev, target, i, r;
	bool hit_max = false, hit_min = false;
	u64 now = 0, prev_t, delay, srtt;
	enum swift_decision d;
	struct swift s;
	int n[SWIFT_DECISION_COUNT] = { 0 };

	setup(&s, 3, 10 * Q16);
	for (i = 0; i < 40000; i++) {
		/* per 4000 events: 1500 quiet, 2400 busy, 100 outage */
		bool quiet = i % 4000 < 1500;
		bool outage = i % 4000 >= 3900;

		prev = s.cwnd;
		prev_t = s.t_last_decrease;
		srtt = (20 + lcg(&x) % 41) * US;
		now += lcg(&x) % (30 * US);
		r = lcg(&x) % 100;
		target = swift_target(&s);
		if (outage || (!quiet && r < 3)) {
			d = swift_on_rto(&s, now, srtt);
		} else if (!quiet && r < 6) {
			d = swift_on_recovery(&s, now, srtt);
			retx &= s.retx_cnt == 0;
		} else {
			delay = quiet ? (5 + lcg(&x) % 20) * US :
				(10 + lcg(&x) % 400) * US;
			d = swift_on_ack(&s, now, delay, 1 + lcg(&x) % 64, srtt,
					 lcg(&x) % 8 != 0);
			retx &= s.retx_cnt == 0;
			/* below target never shrinks, above never grows */
			if (delay < target)
				dir &= d == SWIFT_AI && s.cwnd >= prev;
			else
				dir &= d != SWIFT_AI && s.cwnd <= prev;
			/* one MD takes at most max_mdf */
			if (d == SWIFT_MD)
				mdf &= s.cwnd + 1 >= prev / 2;
		}
		n[d < SWIFT_DECISION_COUNT ? d : 0]++;
		bounds &= (is_min_cwnd(s.cwnd) || s.cwnd > 656) &&
			  s.cwnd <= MAX_Q16;
		hit_max |= s.cwnd == MAX_Q16;
		hit_min |= is_min_cwnd(s.cwnd);
		/* shrinking needs srtt since the last decrease (or the reset) */
		if (s.cwnd < prev && d != SWIFT_RTO_RESET)
			guard &= now - prev_t >= srtt;
		/* the stamp moves exactly when the window shrinks */
		stamp &= s.cwnd < prev ? s.t_last_decrease == now :
			 s.t_last_decrease == prev_t;
		gap &= s.cwnd >= Q16 ? s.pacing_gap == 0 :
		       (s.pacing_gap + 1 >= srtt * Q16 / s.cwnd &&
			s.pacing_gap <= srtt * Q16 / s.cwnd + 1);
	}
	tap_diag("sweep: ai %d md %d hold %d no_md %d rto %d rto_reset %d recovery %d",
		 n[SWIFT_AI], n[SWIFT_MD], n[SWIFT_HOLD], n[SWIFT_NO_MD],
		 n[SWIFT_RTO], n[SWIFT_RTO_RESET], n[SWIFT_RECOVERY]);
	tap_ok(hit_max && hit_min && n[SWIFT_HOLD] && n[SWIFT_NO_MD] &&
	       n[SWIFT_RTO_RESET],
	       "sweep: reaches max_cwnd, min_cwnd, hold, no_md and the reset");
	tap_ok(bounds, "sweep: window always within [min_cwnd, max_cwnd]");
	tap_ok(dir, "sweep: below target AI and no shrink, else no growth");
	tap_ok(mdf, "sweep: an MD takes at most max_mdf");
	tap_ok(guard, "sweep: decreases at least srtt apart (except the reset)");
	tap_ok(stamp, "sweep: t_last_decrease moves iff the window shrinks");
	tap_ok(retx, "sweep: retx_cnt 0 after every ACK and recovery");
	tap_ok(gap, "sweep: gap srtt / cwnd below one packet, else 0");
}

/*
 * The once-per-srtt guard compares signed times: a sample stamped before
 * the last decrease (TCP's per-ACK clock may trail the clock that stamped
 * a fast-recovery cut) is within srtt, so it cannot cut again.
 */
static void t_guard_signed(void)
{
	struct swift s;
	u32 cwnd;

	setup(&s, 3, 64 * Q16);
	swift_on_recovery(&s, 1000 * US, SRTT);
	cwnd = s.cwnd;
	TAP_EQ(swift_on_ack(&s, 1000 * US - 5, 200 * US, 1, SRTT, true), SWIFT_HOLD,
	       "guard: a sample stamped before the last decrease is held");
	TAP_EQ(s.cwnd, cwnd, "guard: no second cut on the same ACK (32 packets)");
}

/* Flow-scaling constants stay signed when alpha saturates. */
static void t_fs_extreme(void)
{
	struct swift_params p;
	struct swift s;

	swift_params_init(&p);
	SWIFT_P(&p, fs_min_cwnd) = 10;
	SWIFT_P(&p, fs_max_cwnd) = 11;
	SWIFT_P(&p, fs_range_ns) = 1000000000;
	setup_with(&s, &p, 10000);
	tap_ok(s.fs_beta <= 0, "extreme flow scaling: beta stays <= 0 (%d)", s.fs_beta);
	tap_ok(swift_target(&s) <= s.target_base + 1000000000ULL,
	       "extreme flow scaling: the target stays within fs_range");
}

/*
 * A zero delay at a zero target (base_target_ns, fs_range_ns and hops 0)
 * is not below the target, and its excess is 0: no decrease, and no
 * division by the delay (it once died of SIGFPE here).
 */
static void t_zero_delay(void)
{
	struct swift_params p;
	enum swift_decision d;
	struct swift s;

	swift_params_init(&p);
	SWIFT_P(&p, base_target_ns) = 0;
	SWIFT_P(&p, fs_range_ns) = 0;
	SWIFT_P(&p, hops) = 0;
	setup_with(&s, &p, 10000);
	s.auto_base = 0;	/* a base of 0 itself, not the path's */
	TAP_EQ(swift_target(&s), 0, "zero delay: the target is 0");
	d = swift_on_ack(&s, 1000 * US, 0, 1, SRTT, true);
	tap_ok(d != SWIFT_AI, "zero delay: 0 is not below a 0 target (got %s)",
	       dname(d));
	TAP_EQ(s.cwnd, 10 * Q16, "zero delay: no excess, no decrease (10)");
	TAP_EQ(s.decreased, 0, "zero delay: no decrease timestamp");
	d = swift_on_ack(&s, 2000 * US, 1, 1, SRTT, true);
	decision_is(&s, d, SWIFT_MD, "zero delay: 1 ns above a 0 target is MD");
	cwnd_near(&s, 5, "zero delay: 1 ns over 1 ns, 1 - 0.8 < 0.5: cut to 5");
}

/*
 * The additive increase's Q16 quotient is taken in 128 bits: ai 1000
 * packets per RTT and 4294968 packets acked at a window of 10 is
 * ai x acked just above 2^48 in Q16, whose << 16 once wrapped (to an
 * increase of about 70 packets); the window must reach max_cwnd.
 */
static void t_ai_wide(void)
{
	struct swift_params p;
	struct swift s;

	swift_params_init(&p);
	SWIFT_P(&p, ai) = 1000000;
	setup_with(&s, &p, 10000);
	swift_on_ack(&s, 1000 * US, 1, 4294968, SRTT, true);
	TAP_EQ(s.cwnd, MAX_Q16,
	       "wide AI: 10 + 1000 x 4294968 / 10 -> max_cwnd 256");
}

/*
 * base_target_ns 0 follows the path: the base of the target is the lowest
 * delay sample fit for a decrease (a delayed ACK or retransmitted data is
 * not), plus the hop terms; before one, the hop terms alone.  A configured
 * base ignores offers.
 */
static void t_auto_base(void)
{
	struct swift_params p;
	struct swift s;
	u32 sm;

	swift_params_init(&p);
	SWIFT_P(&p, base_target_ns) = 0;
	SWIFT_P(&p, hops) = 3;
	setup_with(&s, &p, 10000);
	TAP_EQ(s.target_base, 3000, "auto: before a sample, the hop terms alone");
	TAP_EQ(swift_on_ack(&s, 1000, 80 * US, 1, SRTT, true), SWIFT_AI,
	       "auto: the sample is judged against the new target: below it");
	TAP_EQ(s.target_base, 83000, "auto: the first sample (80 us) + 3 hops");
	tap_ok(s.last_target >= 83000, "auto: the target includes it (%u)",
	       s.last_target);
	swift_on_ack(&s, 2000, 50 * US, 1, SRTT, false);
	TAP_EQ(s.target_base, 83000, "auto: a sample unfit for a decrease is not taken");
	swift_on_ack(&s, 3000, 90 * US, 1, SRTT, true);
	sm = 80000 + (90000 - 80000) / 8;
	TAP_EQ(s.target_base, 83000,
	       "auto: a higher sample raises the smoothed delay (%u), not the base", sm);
	swift_on_ack(&s, 4000, 20 * US, 1, SRTT, true);
	sm = sm - (sm - 20000) / 8;
	TAP_EQ(s.target_base, sm + 3000,
	       "auto: a lower one lowers the smoothed delay, 1/8 of the way (%u)", sm);
	sm = sm - (sm - 10000) / 8;
	tap_ok(swift_offer_base_rtt(&s, 10 * US) && s.target_base == sm + 3000,
	       "auto: an offered RTT counts as a sample");
	TAP_EQ(s.last_target, swift_target(&s),
	       "auto: an offer updates the target shown (ss -ti, the tracepoint)");
	tap_ok(!swift_offer_base_rtt(&s, 0), "auto: a delay of 0 is not taken");

	swift_params_init(&p);
	setup_with(&s, &p, 10000);
	tap_ok(!swift_offer_base_rtt(&s, 1 * US) && s.target_base == 26000,
	       "auto off: a configured base (25 us + 1 hop) ignores offers");
}

int main(void)
{
	tap_header();

	t_defaults();
	t_constants();
	t_s1();
	t_fs_disabled();
	t_s2();
	t_ai_switch();
	t_s3();
	t_at_target();
	t_s4();
	t_s5();
	t_rto_guard();
	t_s6();
	t_recovery();
	t_may_decrease();
	t_bounds();
	t_sweep();
	t_guard_signed();
	t_fs_extreme();
	t_zero_delay();
	t_ai_wide();
	t_auto_base();

	return tap_finish();
}

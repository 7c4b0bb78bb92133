// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests of the NSCC core (include/net/fabric/nscc.h).
 *
 * Written from the spec pages (the Scala MRC NIC and Scala UET NIC
 * "Congestion control" pages, "Worked example: the defaults"), from UET
 * 1.0 section 3.6.13, from the choices the project takes where they leave
 * room (Documentation/networking/nscc.rst, "Design decisions") and from
 * the test vectors V1-V14, which an independent exact-arithmetic model of
 * the spec computed; not from the implementation: they are the
 * independent check of net/nscc/nscc_core.c.
 *
 * Conventions shared by the vectors: the window is created at t = 0 (so
 * last_adjust and last_dec start at 0), the ACKs/SACKs come at t = 100,
 * 200, ... ns, the base RTT is config_base_rtt (6000 ns) so a delay sample
 * d is sent as rtt = 6000 + d, and Quick Adapt is held closed (an
 * observation window already open that ends far in the future) unless the
 * vector is about Quick Adapt.  Preconditions are set by writing the fields
 * of struct nscc directly after nscc_init().
 *
 * V14 (receiver Rcvd_Bytes rounding to 256-byte units) tests the field
 * helpers of include/net/fabric/nscc.h, which the transport uses.
 */
#include <string.h>

#include <net/fabric/nscc.h>

#include "tap.h"

#define MRC_MTU		4156u	/* 4096 + 60: the IP datagram */
#define UET_MTU		4184u	/* 4096 + 88 */
#define BASE		6000u	/* config_base_rtt_ns at the defaults */
#define QA_FAR		1000000000000000ull	/* "far in the future", ns */
#define Q16		65536ull

/* ------------------------------------------------------------------ */
/* Helpers */

static void init_with(struct nscc *n, const struct nscc_params *p, u32 mtu)
{
	memset(n, 0, sizeof(*n));
	nscc_init(n, p, mtu, 0);
}

static void setup(struct nscc *n, struct nscc_params *p,
		  enum nscc_flavour f, u32 mtu)
{
	nscc_params_init(p, f);
	init_with(n, p, mtu);
}

/* Hold Quick Adapt closed: a window is open and ends far in the future. */
static void hold_qa(struct nscc *n)
{
	n->qa_open = true;
	n->qa_endtime = QA_FAR;
}

static enum nscc_routine ack_full(struct nscc *n, u64 now, u64 bytes,
				  u64 rtt, bool ecn, u8 pen, bool restore)
{
	struct nscc_ack a = {
		.bytes = bytes,
		.rtt_ns = rtt,
		.service_ns = 0,
		.ecn = ecn,
		.pen = pen,
		.restore = restore,
	};

	return nscc_on_ack(n, now, &a);
}

/* A plain SACK/ACK: no ECN echo, no penalty. */
static enum nscc_routine sack(struct nscc *n, u64 now, u64 bytes, u64 rtt)
{
	return ack_full(n, now, bytes, rtt, false, 0, false);
}

static enum nscc_routine ecn_ack(struct nscc *n, u64 now, u64 bytes, u64 rtt)
{
	return ack_full(n, now, bytes, rtt, true, 0, false);
}

static const char *rname(enum nscc_routine r)
{
	if ((unsigned int)r < NSCC_R_COUNT && nscc_routine_names[r])
		return nscc_routine_names[r];
	return "?";
}

/* One test point: the routine an event took. */
static void route_is(enum nscc_routine got, enum nscc_routine want,
		     const char *name)
{
	if (!tap_ok(got == want, "%s", name))
		tap_diag("got routine %d (%s), want %d (%s)", (int)got,
			 rname(got), (int)want, rname(want));
}

/* One test point: lo <= got <= hi. */
static void in_range(u64 got, u64 lo, u64 hi, const char *name)
{
	if (!tap_ok(got >= lo && got <= hi, "%s", name))
		tap_diag("got %llu, want %llu..%llu", (unsigned long long)got,
			 (unsigned long long)lo, (unsigned long long)hi);
}

/* Q16 value rounded to the nearest integer. */
static u64 q16_round(u64 q)
{
	return (q + Q16 / 2) >> 16;
}

/* ------------------------------------------------------------------ */
/* The spec pages' worked examples and the derived constants */

static void worked_example_mrc(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	TAP_EQ(NSCC_P(&p, flavour), NSCC_FLAVOUR_MRC,
	       "mrc params: flavour is mrc");
	TAP_EQ(NSCC_P(&p, trimming_enabled), 1,
	       "mrc params: trimming on by default (page default)");
	TAP_EQ(n.cfg.mtu, MRC_MTU, "mrc: nominal packet 4156");
	TAP_EQ(n.max_wnd, 450000, "mrc: max window 1.5 x BDP = 450000");
	TAP_EQ(n.cwnd, 450000, "mrc: starting window is the max window");
	TAP_EQ(n.base_rtt, BASE, "mrc: base RTT starts at ConfigBaseRTT 6000");
	TAP_EQ(n.cfg.cfg_base_rtt, BASE, "mrc: adjust period 6000 ns");
	TAP_EQ(n.cfg.target, 4500,
	       "mrc: target 4500 ns (0.75 x 6000, trimming)");
	TAP_EQ(n.cfg.margin, 1000, "mrc: fast-increase margin 1000 ns");
	TAP_EQ(n.cfg.qa_threshold, U32_MAX,
	       "mrc: no QA delay trigger with trimming (qa_threshold U32_MAX)");
	TAP_EQ(n.cfg.adjust_bytes, 33248,
	       "mrc: 8-packet rule 8 x 4156 = 33248");
	TAP_EQ(n.cfg.eta, 623, "mrc: eta 0.15 x 4156 = 623");
	TAP_NEAR(n.cfg.alpha_q, 181578, 1,
		 "mrc: alpha_q 181578 (Q16, 2.770667 B/ns)");
	TAP_EQ(q16_round(n.cfg.fi_q), 20780, "mrc: fi 5 x 4156 = 20780 B");
	TAP_EQ(n.cfg.fis_q, 16384, "mrc: fi_scale 0.25 (fis_q 16384)");
	TAP_EQ(n.inflight, 0, "mrc: nothing in flight at creation");
	tap_ok(!n.qa_open, "mrc: no QA observation window open at creation");

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, override_spec_max_congestion_window) = 1;
	init_with(&n, &p, MRC_MTU);
	TAP_EQ(n.max_wnd, 444692,
	       "mrc override: max window 107 x 4156 = 444692");
	TAP_EQ(n.cwnd, 444692, "mrc override: starting window 444692");

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, trimming_enabled) = 0;
	init_with(&n, &p, MRC_MTU);
	TAP_EQ(n.cfg.target, 6000, "mrc trimming off: target 6000 ns");
	TAP_EQ(n.cfg.qa_threshold, 24000,
	       "mrc trimming off: QA delay threshold 24000 ns");

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, override_spec_target_queue_delay) = 1;
	NSCC_P(&p, target_queue_delay_ns) = 3000;
	init_with(&n, &p, MRC_MTU);
	TAP_EQ(n.cfg.target, 3000, "mrc target override: target 3000 ns");

	/* Scaling check: the MRC defaults on a 200 Gb/s link halve the gains. */
	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, data_rate_mbps) = 200000;
	init_with(&n, &p, MRC_MTU);
	TAP_EQ(n.max_wnd, 225000, "mrc 200G: max window 225000");
	TAP_EQ(q16_round(n.cfg.fi_q), 10390, "mrc 200G: fi 10390 B (half)");
	TAP_EQ(n.cfg.fis_q, 8192, "mrc 200G: fi_scale 0.125 (fis_q 8192)");
	/* 311.7 exactly; truncating or rounding fixed point both allowed */
	in_range(n.cfg.eta, 311, 312, "mrc 200G: eta 311.7 -> 311..312");
	TAP_NEAR(n.cfg.alpha_q, 90789, 1,
		 "mrc 200G: alpha_q 90789 (1.385333 B/ns)");
}

/*
 * MRC worked example, "after the base RTT drops": base 1000 ns gives a max
 * window of 75000, an observation window of 1000 + 4500 = 5500 ns and a QA
 * byte threshold of 75000 >> 3 = 9375.  Returns the routine of a SACK at
 * t = 6000 that closes the first window with @achieved bytes acknowledged
 * in it (a trim has arrived, so trigger_qa is set).
 */
static enum nscc_routine base_1000_qa(struct nscc *n, u64 achieved)
{
	struct nscc_params p;

	setup(n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n->inflight = 100000;
	sack(n, 100, MRC_MTU, 1000);
	n->trigger_qa = true;
	n->achieved_bytes = achieved - MRC_MTU;
	return sack(n, 6000, MRC_MTU, 1000);
}

static void worked_example_mrc_base_drop(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.inflight = 100000;
	sack(&n, 100, MRC_MTU, 1000);
	TAP_EQ(n.base_rtt, 1000, "mrc base drop: base RTT 1000");
	TAP_EQ(n.max_wnd, 75000,
	       "mrc base drop: max window 75 B/ns x 1000 = 75000");
	TAP_EQ(n.cwnd, 75000, "mrc base drop: window clamped to 75000");
	TAP_EQ(n.qa_endtime, 100 + 5500,
	       "mrc base drop: observation window 5.5 us (qa_endtime 5600)");
	TAP_EQ(n.cfg.target, 4500, "mrc base drop: target stays 4500");

	route_is(base_1000_qa(&n, 9374), NSCC_R_QA,
		 "mrc base drop: QA fires with 9374 < 9375 acked");
	TAP_EQ(n.cwnd, 9374, "mrc base drop: QA sets window 9374");
	tap_ok(base_1000_qa(&n, 9375) != NSCC_R_QA && n.st.qa_count == 0,
	       "mrc base drop: QA does not fire with 9375 acked");
}

static void worked_example_uet(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	TAP_EQ(NSCC_P(&p, flavour), NSCC_FLAVOUR_UET,
	       "uet params: flavour is uet");
	TAP_EQ(NSCC_P(&p, trimming_enabled), 0,
	       "uet params: trimming off by default (page default)");
	TAP_EQ(n.cfg.mtu, UET_MTU, "uet: nominal packet 4184");
	TAP_EQ(n.max_wnd, 450000, "uet: max window 450000");
	TAP_EQ(n.cwnd, 450000, "uet: starting window is the max window");
	TAP_EQ(n.cfg.target, 6000, "uet: target 6000 ns (trimming off)");
	TAP_EQ(n.cfg.qa_threshold, 24000, "uet: QA delay threshold 24000 ns");
	TAP_EQ(n.cfg.adjust_bytes, 33472,
	       "uet: 8-packet rule 8 x 4184 = 33472");
	/* 627.6 exactly; an integer path that truncates gives 627 */
	in_range(n.cfg.eta, 627, 628,
		 "uet: eta 0.15 x 4184 = 627.6 -> 627..628");
	TAP_NEAR(n.cfg.alpha_q, 182801, 1,
		 "uet: alpha_q 182801 (Q16, 2.789333 B/ns)");
	TAP_EQ(q16_round(n.cfg.fi_q), 20920, "uet: fi 5 x 4184 = 20920 B");
	TAP_EQ(n.cfg.fis_q, 16384, "uet: fi_scale 0.25 (fis_q 16384)");

	/* The first observation window opens on the first ACK: 6 + 6 us. */
	n.inflight = 100000;
	sack(&n, 100, UET_MTU, BASE);
	TAP_EQ(n.qa_endtime, 100 + 12000,
	       "uet: first observation window 12 us (qa_endtime 12100)");

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, override_spec_max_congestion_window) = 1;
	init_with(&n, &p, UET_MTU);
	TAP_EQ(n.max_wnd, 447688,
	       "uet override: max window 107 x 4184 = 447688");
	TAP_EQ(n.cwnd, 447688, "uet override: starting window 447688");

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, trimming_enabled) = 1;
	init_with(&n, &p, UET_MTU);
	TAP_EQ(n.cfg.target, 4500, "uet trimming on: target 4500 ns");
	TAP_EQ(n.cfg.qa_threshold, U32_MAX,
	       "uet trimming on: no QA delay trigger (qa_threshold U32_MAX)");
	n.inflight = 100000;
	sack(&n, 100, UET_MTU, BASE);
	TAP_EQ(n.qa_endtime, 100 + 10500,
	       "uet trimming on: observation window 10.5 us");
}

/* ------------------------------------------------------------------ */
/* V1-V3: the increases (MRC defaults) */

static void v1_proportional(void)
{
	struct nscc_params p;
	struct nscc n;
	bool all_prop = true;
	int k;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 200000;
	n.inflight = 200000;

	/* d = 1500: in [margin, target), so proportional, never fast */
	for (k = 1; k <= 8; k++)
		all_prop &= sack(&n, 100 * k, MRC_MTU, BASE + 1500) ==
			    NSCC_R_PROPORTIONAL;
	TAP_EQ(n.cwnd, 200000,
	       "V1 8-packet rule: 33248 received (not > 33248) applies none");
	all_prop &= sack(&n, 900, MRC_MTU, BASE + 1500) == NSCC_R_PROPORTIONAL;
	tap_ok(all_prop, "V1 proportional: all nine SACKs take proportional");
	/* inc_q = 9 x 181578 x 4156 x 3000; / (200000 << 16) = 1554 */
	TAP_EQ(n.cwnd, 201554, "V1 proportional: cwnd 201554");
	TAP_EQ(n.inflight, 200000 - 9 * MRC_MTU,
	       "V1 proportional: inflight released by 9 x 4156");
	TAP_EQ(n.received_bytes, 0, "V1 proportional: received reset by apply");
	TAP_EQ(n.inc_q, 0, "V1 proportional: pending increase consumed");
	/* last_adjust moves only when eta is added */
	TAP_EQ(n.last_adjust, 0,
	       "V1 byte-triggered apply adds no eta, last_adjust stays 0");
	TAP_EQ(n.st.etas, 0, "V1 proportional: no additive term (t < 6000)");
	TAP_EQ(n.st.acks, 9, "V1 proportional: st.acks 9");
	TAP_EQ(n.st.rtt_samples, 9, "V1 proportional: st.rtt_samples 9");
	TAP_EQ(n.st.fulfills, 1, "V1 proportional: st.fulfills 1");
}

/* The 8-packet rule is strict: one byte over 33248 applies the increase. */
static void v1_eight_packet_rule(void)
{
	struct nscc_params p;
	struct nscc n;
	int k;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 200000;
	n.inflight = 200000;
	for (k = 1; k <= 8; k++)
		sack(&n, 100 * k, MRC_MTU, BASE + 1500);
	sack(&n, 900, 1, BASE + 1500);
	/*
	 * received 33249 > 33248: inc_q = (8 x 4156 + 1) x 181578 x 3000,
	 * / (200000 << 16) = 1381 (exact 1381.83).
	 */
	TAP_EQ(n.cwnd, 201381,
	       "V1 8-packet rule: 33249 received applies, cwnd 201381");
}

static void v2_fair(void)
{
	struct nscc_params p;
	struct nscc n;
	bool all_fair = true;
	int k;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 200000;
	n.inflight = 200000;
	/* d = 5000 >= target 4500 */
	for (k = 1; k <= 9; k++)
		all_fair &= sack(&n, 100 * k, MRC_MTU, BASE + 5000) ==
			    NSCC_R_FAIR;
	tap_ok(all_fair, "V2 fair: all nine SACKs take fair increase");
	/* 9 x 20780 x 4156 / 200000 = 3886.28 */
	TAP_EQ(n.cwnd, 203886, "V2 fair: cwnd 203886");
}

/* Ceiling: an apply never takes the window above the max window. */
static void v2_fair_capped(void)
{
	struct nscc_params p;
	struct nscc n;
	int k;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 449000;
	n.inflight = 449000;
	for (k = 1; k <= 9; k++)
		sack(&n, 100 * k, MRC_MTU, BASE + 5000);
	/* 449000 + 1731 would pass the max window */
	TAP_EQ(n.cwnd, 450000,
	       "ceiling: fair apply capped at max window 450000");
}

static void v3_fast(void)
{
	struct nscc_params p;
	struct nscc n, m;
	bool ok = true;
	int k;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 40000;
	n.inflight = 200000;

	/* d = 500 < margin: counts toward fast increase */
	for (k = 1; k <= 9; k++)
		ok &= sack(&n, 100 * k, MRC_MTU, BASE + 500) ==
		      NSCC_R_PROPORTIONAL;
	tap_ok(ok, "V3 fast: SACKs 1-9 proportional (fi bytes <= cwnd)");
	/* 9 x 181578 x 4156 x 4000 / (40000 << 16) = 10363 */
	TAP_EQ(n.cwnd, 50363, "V3 fast: byte-triggered apply, cwnd 50363");

	ok = true;
	for (k = 10; k <= 12; k++)
		ok &= sack(&n, 100 * k, MRC_MTU, BASE + 500) ==
		      NSCC_R_PROPORTIONAL;
	tap_ok(ok, "V3 fast: SACKs 10-12 proportional (49872 <= 50363)");
	TAP_EQ(n.st.fi_count, 0, "V3 fast: no fast step before SACK 13");

	route_is(sack(&n, 1300, MRC_MTU, BASE + 500), NSCC_R_FAST,
		 "V3 fast: SACK 13 engages fast increase (54028 > 50363)");
	TAP_EQ(n.cwnd, 51402, "V3 fast: SACK 13 cwnd 51402 (+1039)");
	route_is(sack(&n, 1400, MRC_MTU, BASE + 500), NSCC_R_FAST,
		 "V3 fast: SACK 14 fast");
	TAP_EQ(n.cwnd, 52441, "V3 fast: SACK 14 cwnd 52441");
	TAP_EQ(n.st.fi_count, 2, "V3 fast: st.fi_count 2 (SACKs 13 and 14)");
	tap_ok(n.fast, "V3 fast: fast increase engaged");

	/* A sample at or above the target leaves fast increase alone. */
	m = n;
	route_is(sack(&m, 1500, MRC_MTU, BASE + 5000), NSCC_R_FAIR,
		 "V3 fast: d 5000 >= target takes fair");
	tap_ok(m.fast, "V3 fast: fair SACK keeps fast increase engaged");
	route_is(sack(&m, 1600, MRC_MTU, BASE + 500), NSCC_R_FAST,
		 "V3 fast: next SACK below margin is fast again");
	TAP_EQ(m.cwnd, 52441 + 1039, "V3 fast: after fair, cwnd 53480");

	/* A sample in [margin, target) ends it and clears the count. */
	m = n;
	route_is(sack(&m, 1500, MRC_MTU, BASE + 2000), NSCC_R_PROPORTIONAL,
		 "V3 fast: d 2000 in [margin, target) is proportional");
	tap_ok(!m.fast, "V3 fast: d in [margin, target) ends fast increase");
	TAP_EQ(m.fi_bytes, 0, "V3 fast: d in [margin, target) zeroes fi count");
	TAP_EQ(m.cwnd, 52441, "V3 fast: proportional SACK leaves cwnd pending");
}

/* Ceiling: fast increase does not pass the max window. */
static void v3_fast_capped(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 449500;
	n.inflight = 449500;
	n.fast = true;
	n.fi_bytes = 500000;
	route_is(sack(&n, 100, MRC_MTU, BASE), NSCC_R_FAST,
		 "ceiling: engaged fast increase step");
	TAP_EQ(n.cwnd, 450000, "ceiling: fast increase capped at 450000");
}

/* Additive term: the period test is now - last_adjust >= 6000 (the spec's
 * ">=", where the reference simulator has ">").
 */
static void eta_period(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 300000;
	n.inflight = 300000;
	sack(&n, 5999, MRC_MTU, BASE + 500);
	TAP_EQ(n.cwnd, 300000, "eta: nothing applied at t 5999");
	sack(&n, 6000, MRC_MTU, BASE + 500);
	/* 2 x 181578 x 4156 x 4000 / (300000 << 16) = 307, + eta 623 */
	TAP_EQ(n.cwnd, 300930, "eta: applied with eta at t 6000, cwnd 300930");
	TAP_EQ(n.last_adjust, 6000, "eta: last_adjust 6000");
	TAP_EQ(n.st.etas, 1, "eta: st.etas 1");
}

/* ------------------------------------------------------------------ */
/* V4, V5: multiplicative decrease (UET, target 6000) */

/*
 * An ECN-marked ACK at t = 10000 whose sample equals @avg, with the average
 * already at @avg: the EWMA leaves it at @avg exactly, so MD sees @avg.
 * last_dec = 0 is more than a base RTT ago; last_adjust = now keeps the
 * additive term out.
 */
static enum nscc_routine md_ack(struct nscc *n, u64 cwnd, u64 avg)
{
	struct nscc_params p;

	setup(n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	hold_qa(n);
	n->cwnd = cwnd;
	n->inflight = cwnd;
	n->avg_q = (s64)(avg << 16);
	n->last_dec = 0;
	n->last_adjust = 10000;
	return ecn_ack(n, 10000, UET_MTU, BASE + avg);
}

static void v4_md(void)
{
	struct nscc n;

	route_is(md_ack(&n, 300000, 9000), NSCC_R_MD,
		 "V4 md: marked ACK with d >= target takes MD");
	/* exact 220000; Q16 gamma 52429 (0.8 rounded up) gives 220001 */
	in_range(n.cwnd, 220000, 220001, "V4 md: cwnd 220000..220001");
	TAP_EQ(n.st.md_count, 1, "V4 md: st.md_count 1");
	TAP_EQ(n.last_dec, 10000, "V4 md: last_dec set to now");
	TAP_EQ(n.st.ecn_acks, 1, "V4 md: st.ecn_acks 1");

	md_ack(&n, 300000, 6500);
	/* factor 61/65: 281538.46; Q16 path 281538 */
	TAP_NEAR(n.cwnd, 281538, 1, "V4 md: avg 6500 gives cwnd 281538");
}

static void v5_md_floor(void)
{
	struct nscc n;

	md_ack(&n, 300000, 30000);
	/* 1 - 0.8 x 24000 / 30000 = 0.36 < max_md_jump 0.5 */
	TAP_EQ(n.cwnd, 150000, "V5 md floor: cwnd 150000 (max_md_jump 0.5)");

	/* A second marked ACK within a base RTT: no cut, fast state cleared. */
	n.fast = true;
	n.fi_bytes = 50000;
	route_is(ecn_ack(&n, 11000, UET_MTU, BASE + 30000), NSCC_R_MD,
		 "V5 md: second marked ACK within base RTT takes MD");
	TAP_EQ(n.cwnd, 150000, "V5 md: no second cut within base RTT");
	TAP_EQ(n.st.md_count, 1, "V5 md: st.md_count still 1");
	tap_ok(!n.fast, "V5 md: MD without cut clears fast increase");
	TAP_EQ(n.fi_bytes, 0, "V5 md: MD without cut zeroes fi count");

	/* More than a base RTT after the cut, it cuts again. */
	n.last_adjust = 17000;
	ecn_ack(&n, 17000, UET_MTU, BASE + 30000);
	TAP_EQ(n.cwnd, 75000, "V5 md: cuts again after a base RTT, 75000");
	TAP_EQ(n.st.md_count, 2, "V5 md: st.md_count 2");

	/* Floor: never below one nominal packet. */
	md_ack(&n, 6000, 30000);
	TAP_EQ(n.cwnd, UET_MTU, "floor: MD of 6000 gives one packet 4184");

	/*
	 * Marked, sample d = 6000 >= target, but the average (0 -> 1500) is
	 * not above the target: MD runs but does not cut.
	 */
	md_ack(&n, 300000, 0);
	n.cwnd = 300000;
	n.avg_q = 0;
	n.last_adjust = 20000;
	route_is(ecn_ack(&n, 20000, UET_MTU, BASE + 6000), NSCC_R_MD,
		 "md: marked, d >= target, avg 1500 below target: routine MD");
	TAP_EQ(n.cwnd, 300000, "md: avg below target, no cut");
	TAP_EQ(n.st.md_count, 0, "md: avg below target, md_count 0");
}

/* Flavour: what an ECN echo does. */
static void ecn_flavours(void)
{
	struct nscc_params p;
	struct nscc n;

	/* uet: marked with d < target: no window change */
	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	hold_qa(&n);
	n.cwnd = 300000;
	n.inflight = 300000;
	route_is(ecn_ack(&n, 100, UET_MTU, BASE + 3000), NSCC_R_HOLD,
		 "uet: marked ACK below target holds");
	TAP_EQ(n.cwnd, 300000, "uet: marked ACK below target leaves cwnd");
	TAP_EQ(n.inc_q, 0, "uet: marked ACK below target adds no increase");

	/* mrc: ECN ignored, never MD, even with a high average */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 300000;
	n.inflight = 300000;
	n.avg_q = (s64)(30000ull << 16);
	n.last_adjust = 10000;
	route_is(ecn_ack(&n, 10000, MRC_MTU, BASE + 30000), NSCC_R_FAIR,
		 "mrc: ECN echo ignored, d >= target takes fair");
	TAP_EQ(n.cwnd, 300000, "mrc: no multiplicative decrease");
	TAP_EQ(n.st.md_count, 0, "mrc: st.md_count 0");
}

/* ------------------------------------------------------------------ */
/* V6 and the Quick Adapt triggers */

/*
 * Quick Adapt check on a SACK at t = 2000 closing an observation window that
 * ended at 1000.  The SACK reports @b bytes and is counted into the window
 * before the check (the spec counts an ACK's bytes first), so @achieved
 * is the window's total with it; inflight is 300000 after it.  @avg is the
 * average before the SACK and @d its delay sample.
 */
static enum nscc_routine qa_try(struct nscc *n, const struct nscc_params *p,
				u32 mtu, u64 b, u64 achieved, bool trigger,
				u64 avg, u64 d)
{
	init_with(n, p, mtu);
	n->cwnd = 200000;
	n->inflight = 300000 + b;
	n->qa_open = true;
	n->qa_endtime = 1000;
	n->trigger_qa = trigger;
	n->achieved_bytes = achieved - b;
	n->avg_q = (s64)(avg << 16);
	return sack(n, 2000, b, BASE + d);
}

static void v6_quick_adapt(void)
{
	struct nscc_params p;
	struct nscc n;

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	route_is(qa_try(&n, &p, MRC_MTU, MRC_MTU, 40000, true, 0, 0),
		 NSCC_R_QA, "V6 qa: fires with 40000 acked and a trim");
	TAP_EQ(n.cwnd, 40000, "V6 qa: cwnd 40000");
	TAP_EQ(n.bytes_to_ignore, 300000, "V6 qa: bytes_to_ignore 300000");
	TAP_EQ(n.bytes_ignored, 0, "V6 qa: bytes_ignored 0");
	TAP_EQ(n.qa_endtime, 2000 + 10500,
	       "V6 qa: next window ends now + 10500");
	tap_ok(!n.trigger_qa, "V6 qa: trigger cleared");
	TAP_EQ(n.achieved_bytes, 0, "V6 qa: achieved bytes reset");
	TAP_EQ(n.st.qa_count, 1, "V6 qa: st.qa_count 1");

	route_is(qa_try(&n, &p, MRC_MTU, MRC_MTU, 56249, true, 0, 0),
		 NSCC_R_QA, "V6 qa: fires with 56249 < 56250 acked");
	TAP_EQ(n.cwnd, 56249, "V6 qa: cwnd 56249");

	tap_ok(qa_try(&n, &p, MRC_MTU, MRC_MTU, 56250, true, 0, 0) !=
	       NSCC_R_QA, "V6 qa: 56250 acked does not fire (strict <)");
	TAP_EQ(n.cwnd, 200000, "V6 qa: no fire leaves cwnd 200000");
	TAP_EQ(n.st.qa_count, 0, "V6 qa: no fire, st.qa_count 0");
	TAP_EQ(n.qa_endtime, 2000 + 10500,
	       "V6 qa: no fire still opens next window");
	TAP_EQ(n.achieved_bytes, 0,
	       "V6 qa: no fire still resets achieved bytes");
	tap_ok(n.trigger_qa, "V6 qa: no fire keeps the trim trigger");

	qa_try(&n, &p, MRC_MTU, 1000, 1000, true, 0, 0);
	TAP_EQ(n.cwnd, MRC_MTU,
	       "floor: QA with 1000 acked gives one packet 4156");

	/* mrc with trimming: a huge delay sample is no trigger */
	tap_ok(qa_try(&n, &p, MRC_MTU, MRC_MTU, 40000, false, 0, 100000) !=
	       NSCC_R_QA, "mrc trimming: delay sample never triggers QA");

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, disable_quick_adapt) = 1;
	tap_ok(qa_try(&n, &p, MRC_MTU, MRC_MTU, 40000, true, 0, 0) !=
	       NSCC_R_QA && n.cwnd == 200000,
	       "disable_quick_adapt: QA never fires");
}

/*
 * The QA delay trigger with trimming off: mrc tests the one sample, uet the
 * average, as each page says.  Threshold 24000 ns.
 */
static void qa_delay_trigger(void)
{
	struct nscc_params p;
	struct nscc n;

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, trimming_enabled) = 0;
	route_is(qa_try(&n, &p, MRC_MTU, MRC_MTU, 40000, false, 0, 25000),
		 NSCC_R_QA, "mrc trimming off: sample 25000 > 24000 fires QA");
	TAP_EQ(n.cwnd, 40000,
	       "mrc trimming off: delay-triggered QA cwnd 40000");
	/* average 40000 -> 30000 after a d = 0 sample; the sample is 0 */
	tap_ok(qa_try(&n, &p, MRC_MTU, MRC_MTU, 40000, false, 40000, 0) !=
	       NSCC_R_QA, "mrc trimming off: high average, low sample: no QA");

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	route_is(qa_try(&n, &p, UET_MTU, UET_MTU, 40000, false, 40000, 0),
		 NSCC_R_QA, "uet: average 30000 > 24000 fires QA (low sample)");
	TAP_EQ(n.cwnd, 40000, "uet: delay-triggered QA cwnd 40000");
	/* average 0 -> 7500 after a d = 30000 sample */
	tap_ok(qa_try(&n, &p, UET_MTU, UET_MTU, 40000, false, 0, 30000) !=
	       NSCC_R_QA, "uet: high sample, average 7500: no QA");
}

/* ------------------------------------------------------------------ */
/* V7, V7b: receiver penalty (UET: cap at the bytes in flight, subtract) */

/* cwnd 200000, inflight 184184; an ACK of 4184 leaves 180000 in flight. */
static enum nscc_routine pen_try(struct nscc *n, u8 pen, u64 rtt)
{
	struct nscc_params p;

	setup(n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	hold_qa(n);
	n->cwnd = 200000;
	n->inflight = 184184;
	return ack_full(n, 100, UET_MTU, rtt, false, pen, false);
}

static void v7_penalty(void)
{
	struct nscc_params p;
	struct nscc n;

	route_is(pen_try(&n, 1, BASE), NSCC_R_HOLD,
		 "V7 penalty: penalised ACK is receiver-limited (hold)");
	TAP_EQ(n.inflight, 180000, "V7 penalty: inflight 180000");
	TAP_EQ(n.cwnd, 179968, "V7 penalty: pen 1, cwnd 180000 - 32 = 179968");
	TAP_EQ(n.saved_cwnd, 200000, "V7 penalty: saved_cwnd 200000");
	TAP_EQ(n.st.penalties, 1, "V7 penalty: st.penalties 1");

	pen_try(&n, 64, BASE);
	TAP_EQ(n.cwnd, 177908, "V7 penalty: pen 64, cwnd 177908");
	pen_try(&n, 127, BASE);
	TAP_EQ(n.cwnd, 175849, "V7 penalty: pen 127, cwnd 175849");

	/* The penalty runs before the RTT-validity return. */
	pen_try(&n, 64, NSCC_NO_RTT);
	TAP_EQ(n.cwnd, 177908, "V7 penalty: applies without an RTT sample");

	/* Saved once per episode. */
	pen_try(&n, 64, BASE);
	ack_full(&n, 200, UET_MTU, BASE, false, 64, false);
	TAP_EQ(n.saved_cwnd, 200000,
	       "V7 penalty: second pen ACK keeps saved 200000");
	/* min(177908, 175816) - 2092 */
	TAP_EQ(n.cwnd, 173724, "V7 penalty: second pen 64 ACK, cwnd 173724");

	/* Restore on pen 0 with the restore flag. */
	pen_try(&n, 64, BASE);
	ack_full(&n, 200, UET_MTU, NSCC_NO_RTT, false, 0, false);
	TAP_EQ(n.cwnd, 177908,
	       "V7 penalty: pen 0 without restore flag keeps cwnd");
	ack_full(&n, 300, UET_MTU, NSCC_NO_RTT, false, 0, true);
	TAP_EQ(n.cwnd, 200000,
	       "V7 penalty: pen 0 with restore flag restores 200000");
	TAP_EQ(n.saved_cwnd, 0, "V7 penalty: restore clears saved_cwnd");

	/* A restored window is clamped to the max window. */
	pen_try(&n, 64, BASE);
	n.saved_cwnd = 500000;
	ack_full(&n, 200, UET_MTU, BASE, false, 0, true);
	TAP_EQ(n.cwnd, 450000,
	       "V7 penalty: restore clamped to max window 450000");

	/* Receiver-limited blocks fair increase. */
	route_is(pen_try(&n, 64, BASE + 7000), NSCC_R_HOLD,
		 "V7 penalty: d >= target, receiver-limited holds");
	TAP_EQ(n.inc_q, 0,
	       "V7 penalty: no fair increase while receiver-limited");

	/* mrc has no receiver penalty. */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.cwnd = 200000;
	n.inflight = 184184;
	route_is(ack_full(&n, 100, MRC_MTU, BASE, false, 64, false),
		 NSCC_R_PROPORTIONAL, "mrc: penalty ignored, proportional");
	TAP_EQ(n.cwnd, 200000, "mrc: penalty leaves cwnd 200000");
	TAP_EQ(n.saved_cwnd, 0, "mrc: penalty saves nothing");
}

/*
 * V7b: one RTT of pen 64 on a full window of 10 x 4096 (MTU 4096).  With
 * the UET page's inflight cap, cwnd tracks inflight - 2048 and collapses
 * to one MTU; decrement-only semantics would give 20480 instead.
 */
static void v7b_penalty_collapse(void)
{
	struct nscc_params p;
	struct nscc n;
	bool track = true, blocked = true;
	u64 k;

	setup(&n, &p, NSCC_FLAVOUR_UET, 4096);
	hold_qa(&n);
	n.cwnd = 40960;
	n.inflight = 40960;
	for (k = 1; k <= 9; k++) {
		s64 infl = 40960 - 4096 * (s64)k;
		u64 want = infl - 2048 > 4096 ? (u64)(infl - 2048) : 4096;

		ack_full(&n, 100 * k, 4096, BASE, false, 64, false);
		track &= n.inflight == infl && n.cwnd == want;
		blocked &= !nscc_can_send(&n, 4096);
	}
	tap_ok(track,
	       "V7b collapse: cwnd = max(inflight - 2048, 4096) for ACKs 1-9");
	tap_ok(blocked, "V7b collapse: CanSend false after ACKs 1-9");
	TAP_EQ(n.cwnd, 4096, "V7b collapse: cwnd 4096 (one MTU) after ACK 9");

	ack_full(&n, 1000, 4096, BASE, false, 64, false);
	TAP_EQ(n.cwnd, 4096, "V7b collapse: ACK 10 keeps the 4096 floor");
	TAP_EQ(n.inflight, 0, "V7b collapse: inflight 0 after ACK 10");
	tap_ok(nscc_can_send(&n, 4096),
	       "V7b collapse: CanSend one MTU when empty");
	TAP_EQ(n.saved_cwnd, 40960, "V7b collapse: saved_cwnd 40960");
}

/* ------------------------------------------------------------------ */
/* V8: trim NACKs and presumed losses (MRC) */

static void trim_setup(struct nscc *n, u64 cwnd)
{
	struct nscc_params p;

	setup(n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(n);
	n->cwnd = cwnd;
	n->inflight = 100000;
}

static void v8_trim(void)
{
	struct nscc_params p;
	struct nscc n;

	trim_setup(&n, 100000);
	route_is(nscc_on_trim(&n, 100, MRC_MTU, NSCC_NO_RTT), NSCC_R_TRIM,
		 "V8 trim: routine trim");
	TAP_EQ(n.inflight, 95844, "V8 trim: inflight 95844");
	TAP_EQ(n.cwnd, 95844, "V8 trim: cwnd 95844");
	tap_ok(n.trigger_qa, "V8 trim: trigger_qa set");
	TAP_EQ(nscc_avg_delay(&n), 1500,
	       "V8 trim: ConfigBaseRTT folded into avg, 0 -> 1500");
	TAP_EQ(n.bytes_ignored, MRC_MTU, "V8 trim: bytes_ignored += 4156");
	TAP_EQ(n.st.trims, 1, "V8 trim: st.trims 1");

	trim_setup(&n, 5000);
	nscc_on_trim(&n, 100, MRC_MTU, NSCC_NO_RTT);
	TAP_EQ(n.cwnd, MRC_MTU, "floor: trim of cwnd 5000 gives 4156");

	/* The NACK's RTT sample is offered to the base RTT. */
	trim_setup(&n, 100000);
	nscc_on_trim(&n, 100, MRC_MTU, 5200);
	TAP_EQ(n.base_rtt, 5200, "V8 trim: RTT sample lowers base to 5200");
	TAP_EQ(n.max_wnd, 390000, "V8 trim: max window 390000");

	/* The first trim opens the first observation window, cannot fire. */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 100000;
	n.inflight = 100000;
	route_is(nscc_on_trim(&n, 100, MRC_MTU, NSCC_NO_RTT), NSCC_R_TRIM,
		 "V8 trim: first trim shrinks, no QA");
	TAP_EQ(n.cwnd, 95844, "V8 trim: first trim, cwnd 95844");
	tap_ok(n.qa_open && n.qa_endtime == 100 + 10500,
	       "V8 trim: first trim opens the QA window (ends 10600)");

	/* Ignore phase: trims leave the window alone. */
	trim_setup(&n, 100000);
	n.bytes_to_ignore = 100000;
	n.bytes_ignored = 0;
	route_is(nscc_on_trim(&n, 100, MRC_MTU, NSCC_NO_RTT), NSCC_R_QA_IGNORE,
		 "V8 trim: ignored during QA ignore phase");
	TAP_EQ(n.cwnd, 100000, "V8 trim: ignored trim leaves cwnd 100000");
	TAP_EQ(n.bytes_ignored, MRC_MTU, "V8 trim: ignored trim counts 4156");

	/* A trim after the window ended fires QA instead of shrinking. */
	trim_setup(&n, 100000);
	n.qa_endtime = 1000;
	n.achieved_bytes = 20000;
	route_is(nscc_on_trim(&n, 2000, MRC_MTU, NSCC_NO_RTT), NSCC_R_QA,
		 "V8 trim: trim after window end fires QA");
	TAP_EQ(n.cwnd, 20000, "V8 trim: QA from trim sets cwnd 20000");
	TAP_EQ(n.bytes_to_ignore, 95844,
	       "V8 trim: QA from trim ignores inflight 95844");
	TAP_EQ(n.st.qa_count, 1, "V8 trim: QA from trim, st.qa_count 1");
}

static void v8_loss(void)
{
	struct nscc n;

	trim_setup(&n, 6000);
	route_is(nscc_on_loss(&n, MRC_MTU), NSCC_R_LOSS,
		 "V8 loss: routine loss");
	TAP_EQ(n.cwnd, MRC_MTU, "V8 loss: floor, cwnd 6000 -> 4156");
	TAP_EQ(n.inflight, 95844, "V8 loss: inflight -= 4156");
	TAP_EQ(n.bytes_ignored, MRC_MTU, "V8 loss: bytes_ignored += 4156");
	TAP_EQ(n.st.losses, 1, "V8 loss: st.losses 1");

	/* Quick Adapt does not run on a presumed loss. */
	trim_setup(&n, 100000);
	n.qa_endtime = 1000;
	n.trigger_qa = true;
	n.achieved_bytes = 0;
	nscc_on_loss(&n, MRC_MTU);
	TAP_EQ(n.cwnd, 95844, "V8 loss: shrinks by 4156, cwnd 95844");
	TAP_EQ(n.st.qa_count, 0, "V8 loss: no Quick Adapt on a loss");
}

/* ------------------------------------------------------------------ */
/* V9: base RTT */

static void v9_base_rtt(void)
{
	const struct nscc_ack svc = {
		.bytes = MRC_MTU, .rtt_ns = 12000, .service_ns = 6500,
	};
	struct nscc_params p;
	struct nscc n;
	u64 alpha;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	alpha = n.cfg.alpha_q;
	route_is(sack(&n, 100, MRC_MTU, 5200), NSCC_R_PROPORTIONAL,
		 "V9 mrc: SACK rtt 5200 proportional (d 0)");
	TAP_EQ(n.base_rtt, 5200, "V9 mrc: base RTT 5200");
	TAP_EQ(n.max_wnd, 390000, "V9 mrc: max window 390000");
	TAP_EQ(n.cwnd, 390000, "V9 mrc: cwnd 450000 clamped to 390000");
	tap_ok(n.cfg.target == 4500 && n.cfg.alpha_q == alpha,
	       "V9 mrc: target and gains unchanged");
	sack(&n, 200, MRC_MTU, 5500);
	TAP_EQ(n.base_rtt, 5200, "V9 mrc: higher sample 5500 leaves base 5200");
	TAP_EQ(n.max_wnd, 390000, "V9 mrc: higher sample leaves max 390000");
	sack(&n, 300, MRC_MTU, 5199);
	TAP_EQ(n.base_rtt, 5199, "V9 mrc: any lower sample (5199) lowers base");
	TAP_EQ(n.max_wnd, 389925, "V9 mrc: max window 75 x 5199 = 389925");

	/* The RTT sample is rtt - service time. */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	nscc_on_ack(&n, 100, &svc);
	TAP_EQ(n.base_rtt, 5500, "V9 mrc: sample is rtt 12000 - service 6500");

	/* mrc override: the max window never follows the base RTT. */
	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	NSCC_P(&p, override_spec_max_congestion_window) = 1;
	init_with(&n, &p, MRC_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	sack(&n, 100, MRC_MTU, 1000);
	TAP_EQ(n.base_rtt, 1000, "V9 mrc override: base RTT 1000");
	TAP_EQ(n.max_wnd, 444692, "V9 mrc override: max window stays 444692");

	/* uet: lower only if more than 1 us below; base = rtt + 1 us */
	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	sack(&n, 100, UET_MTU, 4500);
	TAP_EQ(n.base_rtt, 5500, "V9 uet: sample 4500 gives base 5500");
	TAP_EQ(n.max_wnd, 412500, "V9 uet: max window 412500");
	TAP_EQ(n.cwnd, 412500, "V9 uet: cwnd clamped to 412500");
	TAP_EQ(n.cfg.target, 6000, "V9 uet: target stays 6000");
	/* samples measured from the RTT that lowered the base (4500) */
	sack(&n, 200, UET_MTU, 7500);
	TAP_EQ(nscc_avg_delay(&n), 750,
	       "V9 uet: delay measured from 4500, avg 0.25 x 3000 = 750");

	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	sack(&n, 100, UET_MTU, 5200);
	TAP_EQ(n.base_rtt, 6000, "V9 uet: sample 5200 leaves base 6000");
	TAP_EQ(n.max_wnd, 450000, "V9 uet: sample 5200 leaves max 450000");
	TAP_EQ(n.avg_q, 0, "V9 uet: negative delay sample clamped to 0");
	/* uet lowers the base only if > 1 us below: exactly 1 us does not */
	sack(&n, 200, UET_MTU, 5000);
	TAP_EQ(n.base_rtt, 6000,
	       "V9 uet: sample 5000 (1 us below) leaves base");
	/* ... and the delay reference: 8000 is d = 2000, avg 500 */
	sack(&n, 300, UET_MTU, 8000);
	TAP_EQ(nscc_avg_delay(&n), 500,
	       "V9 uet: delay still measured from 6000 after sample 5000");

	/* uet override applies only until the first lowering. */
	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, override_spec_max_congestion_window) = 1;
	init_with(&n, &p, UET_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	sack(&n, 100, UET_MTU, 4500);
	TAP_EQ(n.max_wnd, 412500,
	       "V9 uet override: lowered base re-derives max 412500");
}

/* ------------------------------------------------------------------ */
/* V10, V11 */

static void v10_ewma(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	n.inflight = 100000;
	sack(&n, 100, MRC_MTU, BASE + 2000);
	TAP_EQ(nscc_avg_delay(&n), 500, "V10 ewma: sample 2000, avg 500");
	sack(&n, 200, MRC_MTU, BASE + 4000);
	TAP_EQ(nscc_avg_delay(&n), 1375, "V10 ewma: sample 4000, avg 1375");
	sack(&n, 300, MRC_MTU, BASE + 8000);
	TAP_EQ(nscc_avg_delay(&n), 3031, "V10 ewma: sample 8000, avg 3031");
	TAP_EQ(n.avg_q, 198656000, "V10 ewma: avg_q exactly 3031.25 in Q16");
}

static void v11_first_sack(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 300000;
	n.inflight = 300000;
	route_is(sack(&n, 6500, MRC_MTU, 6500), NSCC_R_PROPORTIONAL,
		 "V11 first SACK: proportional");
	/* 153 (181578 x 4156 x 4000 / (300000 << 16)) + eta 623 */
	TAP_EQ(n.cwnd, 300776, "V11 first SACK: cwnd 300776");
	TAP_EQ(n.last_adjust, 6500, "V11 first SACK: last_adjust 6500");
	TAP_EQ(n.st.etas, 1, "V11 first SACK: st.etas 1");
	tap_ok(n.qa_open, "V11 first SACK: QA window opened");
	TAP_EQ(n.qa_endtime, 17000, "V11 first SACK: qa_endtime 17000");

	/* QA cannot fire before the first window ends. */
	n.trigger_qa = true;
	tap_ok(sack(&n, 16999, MRC_MTU, 6500) != NSCC_R_QA &&
	       n.st.qa_count == 0,
	       "V11: no QA before the first window ends (t 16999)");
	/* the spec's now >= qa_endtime; 2 x 4156 acked in the window */
	route_is(sack(&n, 17000, MRC_MTU, 6500), NSCC_R_QA,
		 "V11: QA fires at t 17000 (now >= qa_endtime)");
	TAP_EQ(n.cwnd, 8312, "V11: QA window counted 8312 acked bytes");

	/* The very first SACK only opens a window, even with a trigger. */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.inflight = 300000;
	n.trigger_qa = true;
	tap_ok(sack(&n, 100, MRC_MTU, BASE) != NSCC_R_QA &&
	       n.st.qa_count == 0 && n.cwnd == 450000,
	       "first SACK cannot fire QA");
}

/* ------------------------------------------------------------------ */
/* V12: ignore phase */

static void v12_setup(struct nscc *n, enum nscc_flavour f, u32 mtu)
{
	struct nscc_params p;

	setup(n, &p, f, mtu);
	hold_qa(n);
	n->cwnd = 300000;
	n->inflight = 300000;
	n->bytes_to_ignore = 100000;
	n->bytes_ignored = 0;
	n->avg_q = (s64)(9000ull << 16);
	n->inc_q = 1000ull << 16;
	n->received_bytes = 10000;
	n->last_adjust = 10000;
}

static void v12_ignore(void)
{
	struct nscc n;

	v12_setup(&n, NSCC_FLAVOUR_UET, UET_MTU);
	route_is(ecn_ack(&n, 10000, UET_MTU, BASE + 9000), NSCC_R_QA_IGNORE,
		 "V12 ignore: marked ACK d >= target swallowed");
	TAP_EQ(n.cwnd, 300000, "V12 ignore: no MD");
	TAP_EQ(n.st.md_count, 0, "V12 ignore: st.md_count 0");
	TAP_EQ(n.inc_q, 0, "V12 ignore: pending increase zeroed");
	TAP_EQ(n.received_bytes, 0, "V12 ignore: received_bytes zeroed");
	TAP_EQ(n.bytes_ignored, UET_MTU,
	       "V12 ignore: bytes_ignored grows by b");

	v12_setup(&n, NSCC_FLAVOUR_UET, UET_MTU);
	route_is(ecn_ack(&n, 10000, UET_MTU, BASE + 1000), NSCC_R_QA_IGNORE,
		 "V12 ignore: marked ACK below target swallowed too");

	v12_setup(&n, NSCC_FLAVOUR_UET, UET_MTU);
	route_is(sack(&n, 10000, UET_MTU, BASE + 9000), NSCC_R_FAIR,
		 "V12 ignore: unmarked ACK processed normally (fair)");
	TAP_EQ(n.bytes_ignored, UET_MTU, "V12 ignore: unmarked ACK counted");

	/* bytes_ignored counts this ACK first: 95816 + 4184 ends the phase */
	v12_setup(&n, NSCC_FLAVOUR_UET, UET_MTU);
	n.bytes_ignored = 100000 - UET_MTU;
	route_is(ecn_ack(&n, 10000, UET_MTU, BASE + 9000), NSCC_R_MD,
		 "V12 ignore: phase over once 100000 bytes counted, MD");
	in_range(n.cwnd, 220000, 220001,
		 "V12 ignore: MD after phase, 220000..220001");

	/* mrc: never marked, so the ignore branch never swallows a SACK */
	v12_setup(&n, NSCC_FLAVOUR_MRC, MRC_MTU);
	route_is(ecn_ack(&n, 10000, MRC_MTU, BASE + 9000), NSCC_R_FAIR,
		 "V12 mrc: ignore phase never swallows a SACK");
}

/* ------------------------------------------------------------------ */
/* V13: receiver penalty mapping (thresholds in thousandths) */

static void v13_penalty_map(void)
{
	struct nscc_params p;

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	TAP_EQ(nscc_receiver_penalty(&p, 0), 0, "V13 map: occupancy 0 -> 0");
	TAP_EQ(nscc_receiver_penalty(&p, 249), 0, "V13 map: 249 -> 0");
	TAP_EQ(nscc_receiver_penalty(&p, 250), 0, "V13 map: 250 -> 0");
	TAP_EQ(nscc_receiver_penalty(&p, 500), 63, "V13 map: 500 -> 63");
	TAP_EQ(nscc_receiver_penalty(&p, 600), 88, "V13 map: 600 -> 88");
	TAP_EQ(nscc_receiver_penalty(&p, 740), 124, "V13 map: 740 -> 124");
	TAP_EQ(nscc_receiver_penalty(&p, 750), 127, "V13 map: 750 -> 127");
	TAP_EQ(nscc_receiver_penalty(&p, 1000), 127, "V13 map: 1000 -> 127");
}

/* ------------------------------------------------------------------ */
/* CanSend, send/CACK/NACK/no-sample events, switches */

static void t_can_send(void)
{
	struct nscc_params p;
	struct nscc n;

	/* mrc: inflight < cwnd, the packet's size is not part of it */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 10000;
	n.inflight = 9999;
	tap_ok(nscc_can_send(&n, MRC_MTU), "mrc can_send: 9999 < 10000 sends");
	n.inflight = 10000;
	tap_ok(!nscc_can_send(&n, MRC_MTU), "mrc can_send: 10000 not < 10000");

	/* uet: inflight + size <= cwnd */
	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	n.cwnd = 10000;
	n.inflight = 5816;
	tap_ok(nscc_can_send(&n, UET_MTU),
	       "uet can_send: 5816 + 4184 <= 10000");
	n.inflight = 5817;
	tap_ok(!nscc_can_send(&n, UET_MTU),
	       "uet can_send: 5817 + 4184 > 10000");

	/* PassThrough: the window is computed but does not limit sending */
	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, pass_through) = 1;
	init_with(&n, &p, UET_MTU);
	n.cwnd = 10000;
	n.inflight = 20000;
	tap_ok(nscc_can_send(&n, UET_MTU),
	       "pass_through: can_send always true");
}

static void events(void)
{
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	route_is(nscc_on_send(&n, MRC_MTU), NSCC_R_SEND, "send: routine send");
	TAP_EQ(n.inflight, MRC_MTU, "send: inflight += 4156");

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 200000;
	n.inflight = 10000;
	route_is(nscc_on_cack(&n, MRC_MTU), NSCC_R_CACK, "cack: routine cack");
	TAP_EQ(n.inflight, 5844, "cack: releases 4156 from inflight");
	tap_ok(n.cwnd == 200000 && n.achieved_bytes == 0 &&
	       n.received_bytes == 0,
	       "cack: only releases bytes (cwnd, achieved, received kept)");

	route_is(sack(&n, 100, MRC_MTU, NSCC_NO_RTT), NSCC_R_NONE,
		 "no RTT sample: routine none");
	TAP_EQ(n.inflight, 5844 - MRC_MTU, "no RTT sample: inflight released");
	TAP_EQ(n.achieved_bytes, MRC_MTU, "no RTT sample: counted in achieved");
	TAP_EQ(n.cwnd, 200000, "no RTT sample: cwnd unchanged");
	tap_ok(!n.qa_open, "no RTT sample: no QA window opened");

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 200000;
	n.inflight = 10000;
	route_is(nscc_on_nack(&n, 100, MRC_MTU, 5200), NSCC_R_NACK,
		 "nack: routine nack");
	TAP_EQ(n.inflight, 5844, "nack: releases 4156 from inflight");
	TAP_EQ(n.base_rtt, 5200, "nack: RTT sample lowers base to 5200");
	TAP_EQ(n.max_wnd, 390000, "nack: max window re-derived 390000");
	TAP_EQ(n.cwnd, 200000, "nack: cwnd unchanged");
	tap_ok(!n.trigger_qa && n.avg_q == 0 && n.st.nacks == 1,
	       "nack: no QA trigger, no delay sample, st.nacks 1");

	/*
	 * MRC page: only a SACK with a sample lowers a window above a fallen
	 * max window ("never above the max window except briefly after the
	 * max window falls").
	 */
	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.inflight = 10000;
	nscc_on_nack(&n, 100, MRC_MTU, 5200);
	TAP_EQ(n.cwnd, 450000, "nack mrc: cwnd 450000 left above max 390000");
	sack(&n, 200, MRC_MTU, 5200);
	TAP_EQ(n.cwnd, 390000,
	       "nack mrc: next SACK with a sample clamps to 390000");
}

/* NSCCEnable 0 (uet page): no routines; the window stays at the max window. */
static void t_disabled(void)
{
	struct nscc_params p;
	struct nscc n;

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, nscc_enable) = 0;
	init_with(&n, &p, UET_MTU);
	n.inflight = 100000;
	n.last_dec = 0;
	route_is(ecn_ack(&n, 10000, UET_MTU, BASE + 30000), NSCC_R_DISABLED,
		 "disabled: ACK routine disabled");
	TAP_EQ(n.cwnd, 450000, "disabled: marked ACK leaves max window");
	TAP_EQ(nscc_avg_delay(&n), 0, "disabled: average not computed");
	nscc_on_loss(&n, UET_MTU);
	nscc_on_trim(&n, 10100, UET_MTU, NSCC_NO_RTT);
	TAP_EQ(n.cwnd, 450000, "disabled: loss and trim leave max window");
	TAP_EQ(n.st.qa_count, 0, "disabled: no Quick Adapt");
	sack(&n, 10200, UET_MTU, 4500);
	TAP_EQ(n.cwnd, 412500, "disabled: window follows a lower base RTT");
}

static void t_params_check(void)
{
	struct nscc_params p;
	const char *why;

	nscc_params_init(&p, NSCC_FLAVOUR_MRC);
	why = NULL;
	TAP_EQ(nscc_params_check(&p, &why), 0, "params_check: mrc defaults ok");
	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	TAP_EQ(nscc_params_check(&p, &why), 0, "params_check: uet defaults ok");

	NSCC_P(&p, receiver_congestion_low_threshold) = 800;
	why = NULL;
	tap_ok(nscc_params_check(&p, &why) < 0 && why && *why,
	       "params_check: low 800 > high 750 rejected with a reason");

	/*
	 * Per-attribute ranges (the min/max columns of nscc_attrs.h) are not
	 * tested here: the header does not say whether nscc_params_check()
	 * or the attribute layer enforces them.
	 */
}

/*
 * V14: one 4184-byte packet reports 17 units, so the sender releases 4352
 * (168 bytes of over-credit); two report 33 units, 8448; 255, 256 and 257
 * bytes report 1, 1 and 2.  The field wraps at 2^24 units and a stale
 * (not newer) field releases nothing.
 */
static void v14_rcvd_bytes(void)
{
	TAP_EQ(nscc_rcvd_bytes_field(4184), 17, "V14 one 4184 B packet: 17 units");
	TAP_EQ(nscc_newly_rcvd(0, 17), 4352, "V14 the sender releases 4352 (168 over)");
	TAP_EQ(nscc_rcvd_bytes_field(8368), 33, "V14 two packets: 33 units");
	TAP_EQ(nscc_newly_rcvd(0, 33), 8448, "V14 two packets release 8448");
	TAP_EQ(nscc_rcvd_bytes_field(255), 1, "V14 255 B: 1 unit");
	TAP_EQ(nscc_rcvd_bytes_field(256), 1, "V14 256 B: 1 unit");
	TAP_EQ(nscc_rcvd_bytes_field(257), 2, "V14 257 B: 2 units");
	TAP_EQ(nscc_newly_rcvd(0xfffffe, 1), 3 * 256, "V14 the field wraps at 2^24 units");
	TAP_EQ(nscc_newly_rcvd(33, 17), 0, "V14 a stale field releases nothing");
	TAP_EQ(nscc_newly_rcvd(33, 33), 0, "V14 a repeated field releases nothing");
}

/*
 * Sums of event bytes saturate instead of overflowing the signed in-flight
 * count (undefined behaviour): 2^22 + 1 sends of NSCC_MAX_EVENT_BYTES
 * (2^40) pass 2^62 and stop there; 2^23 + 1 losses of as much stop at
 * -2^62.  The count then moves normally again.
 */
static void t_inflight_saturates(void)
{
	struct nscc_params p;
	bool mono = true;
	struct nscc n;
	u32 i;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	for (i = 0; i <= 1u << 22; i++) {
		s64 prev = n.inflight;

		nscc_on_send(&n, NSCC_MAX_EVENT_BYTES);
		mono &= n.inflight >= prev;
	}
	TAP_EQ(n.inflight, 1ll << 62, "inflight: sends saturate at 2^62");
	tap_ok(mono, "inflight: and never wrap on the way");
	for (i = 0; i <= 1u << 23; i++)
		nscc_on_loss(&n, NSCC_MAX_EVENT_BYTES);
	TAP_EQ(n.inflight, -(1ll << 62), "inflight: releases saturate at -2^62");
	nscc_on_send(&n, U64_MAX);
	TAP_EQ(n.inflight, 0, "inflight: one huge send adds at most 2^62");
	nscc_on_cack(&n, 4156);
	TAP_EQ(n.inflight, -4156, "inflight: then counts bytes as before");
}

/*
 * A socket whose nominal packet changes after it started (a BPF program at
 * connect runs before the MSS is known; the peer's MSS and path MTU
 * changes come later): nscc_set_mtu() derives what scales with the packet
 * exactly as nscc_init() would have, keeps the window's bytes within the
 * new bounds, and leaves the measured state alone.
 */
static void t_set_mtu(void)
{
	struct nscc_params p;
	struct nscc n, fresh;

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, override_spec_max_congestion_window) = 1;
	NSCC_P(&p, max_congestion_window_pkts) = 20;
	nscc_init(&n, &p, 576, 0);
	nscc_init(&fresh, &p, 1500, 0);
	TAP_EQ(n.max_wnd, 20 * 576, "set_mtu: 20 packets of 576 before");
	n.base_rtt = 4321;
	n.cwnd = 5000;
	nscc_set_mtu(&n, 1500);
	tap_ok(n.cfg.mtu == 1500 && n.cfg.alpha_q == fresh.cfg.alpha_q &&
	       n.cfg.fi_q == fresh.cfg.fi_q && n.cfg.eta == fresh.cfg.eta &&
	       n.cfg.fis_q == fresh.cfg.fis_q &&
	       n.cfg.adjust_bytes == fresh.cfg.adjust_bytes &&
	       n.max_wnd == fresh.max_wnd,
	       "set_mtu: gains, adjust period and max window as a 1500 start");
	TAP_EQ(n.cwnd, 5000, "set_mtu: the window keeps its bytes");
	TAP_EQ(n.base_rtt, 4321, "set_mtu: the measured base RTT stays");
	nscc_set_mtu(&n, 9000);
	TAP_EQ(n.cwnd, 9000, "set_mtu: a window below one new packet is one packet");
	n.cwnd = n.max_wnd;
	nscc_set_mtu(&n, 1000);
	TAP_EQ(n.cwnd, 20 * 1000, "set_mtu: and one above the new max window is the max");
}

/* A max window that followed the measured base RTT keeps following it
 * through a change of the nominal packet, in both flavours.
 */
static void t_set_mtu_base_rtt(void)
{
	enum nscc_flavour f;

	for (f = NSCC_FLAVOUR_MRC; f <= NSCC_FLAVOUR_UET; f++) {
		struct nscc_params p;
		struct nscc n;
		u64 learnt;

		nscc_params_init(&p, f);
		nscc_init(&n, &p, 4156, 0);
		hold_qa(&n);
		ack_full(&n, 1000, 4156, 3000, false, 0, false);
		learnt = n.max_wnd;
		tap_ok(learnt < 450000, "set_mtu %s: a 3 us sample lowered the max window (%llu)",
		       nscc_flavour_names[f], (unsigned long long)learnt);
		nscc_set_mtu(&n, 1400);
		TAP_EQ(n.max_wnd, learnt, "set_mtu %s: the max window still follows the base RTT",
		       nscc_flavour_names[f]);
	}
}

/* Every constant derived from the config base RTT equals a fresh start's. */
static bool same_derived(const struct nscc *n, const struct nscc *fresh)
{
	return n->cfg.cfg_base_rtt == fresh->cfg.cfg_base_rtt &&
	       n->cfg.target == fresh->cfg.target &&
	       n->cfg.alpha_q == fresh->cfg.alpha_q &&
	       n->cfg.fi_q == fresh->cfg.fi_q &&
	       n->cfg.fis_q == fresh->cfg.fis_q &&
	       n->cfg.eta == fresh->cfg.eta &&
	       n->max_wnd == fresh->max_wnd;
}

/*
 * config_base_rtt_ns 0 (the project's "follow the path" setting, beside
 * the spec's value): the spec's 6 us stands in until an RTT sample comes;
 * the samples move a smoothed RTT (gain 1/8, the first one starts it),
 * and its lowest value is the config base RTT, with the target, BDP, max
 * window, gains and increase period derived as a start at that value
 * would; the first starts the window at the max window; a value above the
 * lowest changes nothing.
 */
static void t_auto_base(void)
{
	enum nscc_flavour f;

	for (f = NSCC_FLAVOUR_MRC; f <= NSCC_FLAVOUR_UET; f++) {
		const char *fl = nscc_flavour_names[f];
		struct nscc_params p, q;
		struct nscc n, fresh;
		u64 sm;

		nscc_params_init(&p, f);
		NSCC_P(&p, config_base_rtt_ns) = 0;
		NSCC_P(&p, data_rate_mbps) = 10000;
		init_with(&n, &p, 1500);
		q = p;
		NSCC_P(&q, config_base_rtt_ns) = BASE;
		init_with(&fresh, &q, 1500);
		tap_ok(n.cfg.auto_base && same_derived(&n, &fresh),
		       "auto %s: before a sample, the spec's 6 us stands in", fl);
		hold_qa(&n);

		ack_full(&n, 100, 1500, 50000, false, 0, false);
		NSCC_P(&q, config_base_rtt_ns) = 50000;
		init_with(&fresh, &q, 1500);
		tap_ok(same_derived(&n, &fresh),
		       "auto %s: a first sample of 50 us derives all as a 50 us start", fl);
		TAP_EQ(n.max_wnd, 10000ull * 50000 / 8000 * 3 / 2,
		       "auto %s: max window 1.5 x 10 Gbit/s x 50 us", fl);
		TAP_EQ(n.cfg.target, f == NSCC_FLAVOUR_MRC ? 37500 : 50000,
		       "auto %s: target from the learnt base (mrc traps: 0.75 x)", fl);
		TAP_EQ(n.cwnd, n.max_wnd, "auto %s: the window starts at the new max", fl);
		TAP_EQ(n.cfg.qa_threshold, f == NSCC_FLAVOUR_MRC ? U32_MAX : 200000,
		       "auto %s: Quick Adapt's threshold is 4 x the base (off when trapping)",
		       fl);
		TAP_EQ(n.cfg.margin, 8333, "auto %s: the margin keeps its 1/6 of the base", fl);
		TAP_EQ(n.base_rtt, 50000, "auto %s: base RTT is the sample", fl);
		TAP_EQ(n.last_delay, 0, "auto %s: the learning sample has no delay", fl);

		ack_full(&n, 200, 1500, 60000, false, 0, false);
		sm = 50000 + 10000 / 8;
		tap_ok(same_derived(&n, &fresh) && n.base_rtt == 50000,
		       "auto %s: a higher sample (smoothed %llu) changes nothing", fl,
		       (unsigned long long)sm);
		TAP_EQ(n.last_delay, 10000, "auto %s: and is 10 us of delay", fl);

		ack_full(&n, 300, 1500, 30000, false, 0, false);
		sm -= (sm - 30000) / 8;
		NSCC_P(&q, config_base_rtt_ns) = sm;
		init_with(&fresh, &q, 1500);
		tap_ok(same_derived(&n, &fresh) && n.base_rtt == sm && n.delay_ref == sm,
		       "auto %s: a 30 us sample brings the smoothed RTT to %llu: all derived again",
		       fl, (unsigned long long)sm);
		tap_ok(n.cwnd <= n.max_wnd, "auto %s: the window within the new max", fl);
		TAP_EQ(n.st.base_learnt, 2, "auto %s: two samples set the base", fl);
		tap_ok(!nscc_offer_base_rtt(&n, 0) && n.cfg.cfg_base_rtt == sm,
		       "auto %s: a sample of 0 (all service time) is not taken", fl);
		sm -= (sm - 10000) / 8;
		tap_ok(nscc_offer_base_rtt(&n, 10000) && n.cfg.cfg_base_rtt == sm,
		       "auto %s: an offered RTT counts as a sample (%llu)", fl,
		       (unsigned long long)sm);
	}
}

/* Under a learnt base no raw sample moves the base RTT or the delay
 * reference apart from the config base: 200 samples of 40 us after a
 * first of 46.25 us bring all three down together, to within the
 * smoothing's truncation of 40 us, in both flavours.
 */
static void t_auto_raw(void)
{
	enum nscc_flavour f;
	int i;

	for (f = NSCC_FLAVOUR_MRC; f <= NSCC_FLAVOUR_UET; f++) {
		struct nscc_params p;
		struct nscc n;
		bool apart = false;

		nscc_params_init(&p, f);
		NSCC_P(&p, config_base_rtt_ns) = 0;
		init_with(&n, &p, 1500);
		hold_qa(&n);
		ack_full(&n, 100, 1500, 46250, false, 0, false);
		for (i = 0; i < 200; i++) {
			ack_full(&n, 200 + i * 100, 1500, 40000, false, 0, false);
			apart |= n.base_rtt != n.cfg.cfg_base_rtt ||
				 n.delay_ref != n.base_rtt || n.base_measured;
		}
		tap_ok(!apart && n.base_rtt >= 40000 && n.base_rtt < 40008,
		       "auto %s: base RTT, delay reference and config base move together (%llu)",
		       nscc_flavour_names[f], (unsigned long long)n.base_rtt);
	}
}

/* An offered RTT does nothing to a configured base; 0 as the rate is the
 * fallback speed (a caller that knows the link fills it in).
 */
static void t_auto_off(void)
{
	struct nscc_params p;
	struct nscc n;

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	init_with(&n, &p, 1500);
	tap_ok(!n.cfg.auto_base && !nscc_offer_base_rtt(&n, 3000) &&
	       n.cfg.cfg_base_rtt == BASE && n.base_rtt == BASE,
	       "auto off: an offered RTT leaves a configured base alone");
	NSCC_P(&p, data_rate_mbps) = 0;
	init_with(&n, &p, 1500);
	TAP_EQ(n.cfg.rate_mbps, FABRIC_LINK_MBPS_FALLBACK,
	       "rate 0 outside the kernel: the fallback link speed");
	TAP_EQ(n.max_wnd, (u64)FABRIC_LINK_MBPS_FALLBACK * BASE / 8000 * 3 / 2,
	       "rate 0: the max window from the fallback speed");

	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, config_base_rtt_ns) = 0;
	NSCC_P(&p, override_spec_target_queue_delay) = 1;
	NSCC_P(&p, target_queue_delay_ns) = 7777;
	init_with(&n, &p, 1500);
	hold_qa(&n);
	ack_full(&n, 100, 1500, 90000, false, 0, false);
	tap_ok(n.cfg.cfg_base_rtt == 90000 && n.cfg.target == 7777,
	       "auto: an overridden target stays the override");

	/* Beyond the attribute's 1 s: the config base stops there, but the
	 * base RTT is the sample, and a lower sample above 1 s still counts.
	 */
	nscc_params_init(&p, NSCC_FLAVOUR_UET);
	NSCC_P(&p, config_base_rtt_ns) = 0;
	init_with(&n, &p, 1500);
	tap_ok(nscc_offer_base_rtt(&n, 3000000000ull) &&
	       n.cfg.cfg_base_rtt == 1000000000 && n.base_rtt == 3000000000ull,
	       "auto: a 3 s sample: config base 1 s, base RTT 3 s");
	tap_ok(nscc_offer_base_rtt(&n, 2000000000ull) &&
	       n.base_rtt == 3000000000ull - 1000000000ull / 8,
	       "auto: a lower 2 s sample still lowers the smoothed base, above 1 s");
}

/* Reliability probes' answers (nscc_on_probe_rtt()), and the ACK
 * request rule (nscc_ask_ack()).
 */
static void t_probe_rtt(void)
{
	struct nscc_ack a = { .bytes = MRC_MTU, .rtt_ns = 7000 };
	struct nscc_params p;
	struct nscc n;

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	hold_qa(&n);
	nscc_on_probe_rtt(&n, 3000);
	tap_ok(n.base_rtt == 3000 && n.max_wnd == 450000,
	       "MRC: a probe's RTT lowers the base RTT, the max window stays (450,000)");
	nscc_on_probe_rtt(&n, 4000);
	tap_ok(n.base_rtt == 3000, "MRC: the base RTT never rises");
	nscc_on_ack(&n, 1000, &a);
	tap_ok(n.base_rtt == 3000 && n.max_wnd == 225000 && n.cwnd <= 225000,
	       "MRC: the lowered base RTT takes effect on the max window at the next sample (225,000)");

	setup(&n, &p, NSCC_FLAVOUR_UET, UET_MTU);
	nscc_on_probe_rtt(&n, 3000);
	tap_ok(n.base_rtt == 4000 && n.max_wnd == 300000 && n.cwnd <= 300000,
	       "UET: a probe's sample as any other: 3 us lowers the base to 3 + 1 us, the max window at once");

	setup(&n, &p, NSCC_FLAVOUR_MRC, MRC_MTU);
	n.cwnd = 4094;
	n.inflight = 0;
	tap_ok(nscc_ask_ack(&n, 0),
	       "MRC: a window below 4,095 bytes: every packet asks for a cumulative ACK");
	n.cwnd = 3 * MRC_MTU;
	n.inflight = MRC_MTU;
	tap_ok(!nscc_ask_ack(&n, MRC_MTU),
	       "MRC: one nominal packet of room left after this one: no ACK request");
	tap_ok(nscc_ask_ack(&n, MRC_MTU + 1),
	       "MRC: less than one nominal packet of room: an ACK request");
}

int main(void)
{
	tap_header();

	worked_example_mrc();
	worked_example_mrc_base_drop();
	worked_example_uet();
	v1_proportional();
	v1_eight_packet_rule();
	v2_fair();
	v2_fair_capped();
	v3_fast();
	v3_fast_capped();
	eta_period();
	v4_md();
	v5_md_floor();
	ecn_flavours();
	v6_quick_adapt();
	qa_delay_trigger();
	v7_penalty();
	v7b_penalty_collapse();
	v8_trim();
	v8_loss();
	v9_base_rtt();
	v10_ewma();
	v11_first_sack();
	v12_ignore();
	v13_penalty_map();
	v14_rcvd_bytes();
	t_can_send();
	events();
	t_disabled();
	t_params_check();
	t_inflight_saturates();
	t_set_mtu();
	t_set_mtu_base_rtt();
	t_auto_base();
	t_auto_raw();
	t_auto_off();
	t_probe_rtt();

	return tap_finish();
}

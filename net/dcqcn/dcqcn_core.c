// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN core: the rate-control loop of the Scala RoCE NIC's "Congestion
 * control" page (a DCQCN-style loop, not the paper's), as an exact state
 * machine.  Where the page is silent it takes these choices (see
 * Documentation/networking/dcqcn.rst, "Design decisions"): initial alpha
 * from an attribute (1.0, as in the paper), never reset between episodes;
 * alpha updated before the cut, as the paper's authors' simulator does;
 * counts cleared after each reduction half and at the episode's end, so
 * the run that starts an episode sees every packet since the last one
 * ended; the NCLPI counter reset at episode start only (the page's "every
 * sixth such half"); the episode ends strictly within the end gap; the
 * floor applies to the current rate only; additive-phase reductions are
 * literal: the current rate moves halfway to the new target, which raises
 * it when that target is above it.
 *
 * The end gap is the page's 0.1 Gbps at every line rate
 * (episode_end_gap_mbps, 100).  Beyond the page: as an option it scales
 * with line rate instead (episode_end_gap_ppm, 0 by default: off; 250 is
 * the page's gap at 400 Gbps), so slow links still recover through
 * additive increase; the floor is never below DCQCN_MIN_RATE_KBPS, so the
 * rate never reaches 0; the floor bounds every change of the current rate,
 * increases included (additive-phase reductions may take the target below
 * it, and an increase moves halfway to the target).
 *
 * Pure C, no clock: dcqcn_catch_up() replays the boundaries that have
 * elapsed, in order and bounded, instead of a timer (a per-socket timer
 * would take most of icsk_ca_priv and its own locking, and the replay
 * gives the same runs at the same instants); it is the TCP module's and
 * ccreplay's one catch-up.  Rates in kb/s (u32 holds 3.2 Tb/s), alpha Q16.
 *
 * References: Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015 (the paper this loop departs from); the
 * Scala RoCE NIC's "Congestion control" page, "The rate control loop".
 */
#include <net/fabric/dcqcn.h>

#define Q16_ONE		BIT_ULL(16)

#define DCQCN_NAMES_U32		NULL
#define DCQCN_NAMES_BOOL	NULL

const struct fabric_attr_desc dcqcn_attr_descs[DCQCN_ATTR_COUNT] = {
#define DCQCN_ATTR(name, kind, def, lo, hi, unit, help) \
	[DCQCN_ATTR_##name] = FABRIC_ATTR_DESC(name, kind, def, lo, hi, unit, help, \
					       DCQCN_NAMES_##kind),
#include <net/fabric/dcqcn_attrs.h>
#undef DCQCN_ATTR
};

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
const char * const dcqcn_phase_names[DCQCN_RUN_COUNT] = { DCQCN_PHASES };
#undef EM
#undef EMe

void dcqcn_params_init(struct dcqcn_params *p)
{
	unsigned int i;

	for (i = 0; i < DCQCN_ATTR_COUNT; i++)
		p->v[i] = dcqcn_attr_descs[i].def;
}

void dcqcn_init(struct dcqcn *d, const struct dcqcn_params *p)
{
	/* 0 is the link's speed, which a caller that knows it puts in p */
	u64 line = (u64)(DCQCN_P(p, data_rate_mbps) ?:
			 FABRIC_LINK_MBPS_FALLBACK) * 1000;
	u64 floor = div_u64(line * DCQCN_P(p, minimum_rate_percentage), 1000);
	u32 ppm = DCQCN_P(p, episode_end_gap_ppm);
	u64 gap;

	/* episode_end_gap_mbps x 1000 kb/s at every line rate (100: the
	 * page's 0.1 Gbps); a ppm gap, if set, is line x ppm / 10^6 instead.
	 */
	if (ppm)
		gap = div_u64(line * ppm, 1000000);
	else
		gap = (u64)DCQCN_P(p, episode_end_gap_mbps) * 1000;

	*d = (struct dcqcn){ 0 };
	d->line_kbps = line;
	d->floor_kbps = max(floor, min_t(u64, DCQCN_MIN_RATE_KBPS, line));
	d->end_gap_kbps = max_t(u64, gap, DCQCN_MIN_END_GAP_KBPS);
	d->rc_kbps = d->line_kbps;
	d->rt_kbps = d->line_kbps;
	d->half_ns = max_t(u32, DCQCN_P(p, control_interval_ns) / 2, 1);
	d->w = fabric_muldiv(DCQCN_P(p, congestion_probability_weight),
			     Q16_ONE, 1000, true);
	d->alpha = fabric_muldiv(DCQCN_P(p, initial_alpha), Q16_ONE, 1000, true);
	d->fra = DCQCN_P(p, fast_recovery_attempt);
	d->itrp = DCQCN_P(p, initial_target_rate_percentage);
	d->nais = max_t(u32, DCQCN_P(p, number_active_increase_steps), 1);
	d->nclpi = DCQCN_P(p, num_of_control_loops_per_increase);
	d->enable = DCQCN_P(p, enable_ecn);
}

/* Every change of the current rate goes through here: never below the
 * floor while congested, whether a reduction or an increase made it.
 */
static void dcqcn_set_rc(struct dcqcn *d, u64 rate)
{
	d->rc_kbps = max_t(u64, rate, d->floor_kbps);
}

static void dcqcn_clear_counts(struct dcqcn *d)
{
	d->cnp_cnt = 0;
	d->pkt_cnt = 0;
}

/* alpha = (1 - w) alpha + w F, F = CNPs / packets of the interval (<= 1). */
static void dcqcn_update_alpha(struct dcqcn *d)
{
	u64 f;

	if (d->pkt_cnt)
		f = min_t(u64, div_u64((u64)d->cnp_cnt << 16, d->pkt_cnt),
			  Q16_ONE);
	else
		f = d->cnp_cnt ? Q16_ONE : 0;
	d->alpha = ((Q16_ONE - d->w) * d->alpha + d->w * f) >> 16;
}

static enum dcqcn_phase dcqcn_reduce(struct dcqcn *d, bool start)
{
	enum dcqcn_phase ph = DCQCN_RUN_NO_CNP;

	if (d->cnp_cnt) {
		/* The episode's first reduction is a cut even when
		 * fast_recovery_attempt is 0 (rcount 0 >= FRA).
		 */
		if (!start && d->rcount >= d->fra) {
			/* Additive phase: step the target down, meet halfway. */
			d->rt_kbps -= min(d->rt_kbps, d->step_kbps);
			dcqcn_set_rc(d, ((u64)d->rc_kbps + d->rt_kbps) / 2);
			d->rcount--;
			ph = DCQCN_RUN_AI_DOWN;
		} else {
			/* Episode start or fast recovery: cut by alpha / 2. */
			u64 cut = ((u64)d->rc_kbps * d->alpha) >> 17;

			dcqcn_set_rc(d, d->rc_kbps - cut);
			d->rcount = 0;
			ph = start ? DCQCN_RUN_START : DCQCN_RUN_CUT;
		}
	}
	dcqcn_clear_counts(d);
	return ph;
}

static enum dcqcn_phase dcqcn_increase(struct dcqcn *d)
{
	bool up = !d->cnp_cnt;

	if (!up && ++d->cnp_inc_halves == (u32)d->nclpi + 1) {
		up = true;
		d->cnp_inc_halves = 0;
	}
	if (!up)
		return DCQCN_RUN_HOLD;
	if (d->rcount >= d->fra)
		d->rt_kbps = min_t(u64, (u64)d->rt_kbps + d->step_kbps,
				   d->line_kbps);
	dcqcn_set_rc(d, ((u64)d->rc_kbps + d->rt_kbps) / 2);
	d->rcount++;
	if (d->line_kbps - d->rc_kbps < d->end_gap_kbps) {
		dcqcn_end_episode(d);
		return DCQCN_RUN_END;
	}
	return d->rcount > d->fra ? DCQCN_RUN_AI_UP : DCQCN_RUN_FR_UP;
}

/* One run of the loop at time t (a boundary, or the episode's start). */
static void dcqcn_run(struct dcqcn *d, u64 t, bool start)
{
	enum dcqcn_phase ph;

	dcqcn_update_alpha(d);
	if (d->next_is_reduce)
		ph = dcqcn_reduce(d, start);
	else
		ph = dcqcn_increase(d);
	d->last_phase = ph;
	if (ph == DCQCN_RUN_END)
		return;
	d->next_is_reduce = !d->next_is_reduce;
	d->next_run = t + d->half_ns;
}

bool dcqcn_step(struct dcqcn *d, u64 now)
{
	if (!d->congested || now < d->next_run)
		return false;
	dcqcn_run(d, d->next_run, false);
	return true;
}

unsigned int dcqcn_catch_up(struct dcqcn *d, u64 now,
			    void (*run)(const struct dcqcn *d, u64 t, void *ctx),
			    void *ctx)
{
	unsigned int n = 0;
	u64 t = d->next_run;

	while (n < DCQCN_MAX_CATCHUP && dcqcn_step(d, now)) {
		if (run)
			run(d, t, ctx);
		t = d->next_run;
		n++;
	}
	if (n == DCQCN_MAX_CATCHUP && d->congested) {
		dcqcn_end_episode(d);
		n |= DCQCN_CATCHUP_LIMIT;
	}
	return n;
}

void dcqcn_on_tx(struct dcqcn *d, u32 pkts)
{
	d->pkt_cnt = min_t(u64, (u64)d->pkt_cnt + pkts, U32_MAX);
}

bool dcqcn_on_cnp(struct dcqcn *d, u64 now, u32 n)
{
	if (!d->enable || !n)
		return false;
	d->cnp_cnt = min_t(u64, (u64)d->cnp_cnt + n, U32_MAX);
	if (d->congested)
		return false;
	d->congested = 1;
	d->rt_kbps = d->rc_kbps;
	d->step_kbps = div_u64((u64)d->rt_kbps * (1000 - d->itrp),
			       1000 * (u32)d->nais);
	d->rcount = 0;
	d->cnp_inc_halves = 0;
	d->next_is_reduce = 1;
	dcqcn_run(d, now, true);
	return true;
}

void dcqcn_end_episode(struct dcqcn *d)
{
	d->rc_kbps = d->line_kbps;
	d->rt_kbps = d->line_kbps;
	d->congested = 0;
	dcqcn_clear_counts(d);
}

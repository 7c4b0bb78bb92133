// SPDX-License-Identifier: GPL-2.0
/*
 * mrt's EV sets and EV profile states (ev.h describes them).  Pure C.
 */
#include <linux/string.h>

#include "ev.h"

static u32 mrt_gcd(u32 a, u32 b)
{
	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int mrt_evset_init(struct mrt_evset *s, const struct mrt_ev_params *p,
		   void *mem, u32 seed)
{
	unsigned int i;
	u32 step;

	if (!p->base || !p->count || p->count > MRT_EV_COUNT_MAX ||
	    (u32)p->base + p->count > 65536 || p->policy > MRT_EV_REPS)
		return -1;
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->ev = mem;
	s->queue = (u16 *)(s->ev + p->count);
	memset(s->ev, 0, p->count * sizeof(*s->ev));
	for (i = 0; i < p->count; i++)
		s->ev[i].state = MRT_EV_GOOD;
	s->usable = p->count;
	s->probe_next = U64_MAX;
	/* A stride near the golden ratio of the count, coprime with it, so
	 * that consecutive picks land far apart.
	 */
	step = (p->count * 618U) / 1000U | 1;
	while (mrt_gcd(step, p->count) != 1)
		step++;
	s->step = step % p->count ? step % p->count : 1;
	s->rr = seed % p->count;
	return 0;
}

static bool mrt_ev_usable(u8 state)
{
	return state == MRT_EV_GOOD || state == MRT_EV_SKIP;
}

static void mrt_ev_set(struct mrt_evset *s, unsigned int i, u8 to, u8 why)
{
	struct mrt_ev *e = &s->ev[i];
	u8 from = e->state;

	if (from == to)
		return;
	if (mrt_ev_usable(from) && !mrt_ev_usable(to))
		s->usable--;
	else if (!mrt_ev_usable(from) && mrt_ev_usable(to))
		s->usable++;
	e->state = to;
	e->st.changes++;
	if (to != MRT_EV_SKIP)
		e->credit = 0;
	if (s->note)
		s->note(s->ctx, i, from, to, why);
}

/* The next EV of the permuted order; rr stays below the count, so that a
 * pass of count picks is a whole permutation (rr * step mod count would
 * not be across the wrap of a u32).
 */
static unsigned int mrt_ev_rr(struct mrt_evset *s)
{
	unsigned int i = (s->rr * s->step) % s->p.count;

	if (++s->rr == s->p.count)
		s->rr = 0;
	return i;
}

/* REPS: the oldest EV whose last answer was clean and that is GOOD and
 * not avoid, taken off the queue (the others before it leave it too:
 * their answer is no longer the latest news), or -1.
 */
static int mrt_ev_recycled(struct mrt_evset *s, int avoid)
{
	while (s->q_len) {
		unsigned int i = s->queue[s->q_head];

		s->q_head = (s->q_head + 1) % s->p.count;
		s->q_len--;
		s->ev[i].queued = false;
		if (s->ev[i].state == MRT_EV_GOOD && (int)i != avoid)
			return i;
	}
	return -1;
}

int mrt_ev_pick(struct mrt_evset *s, int avoid)
{
	unsigned int n, i;
	int skip = -1;

	if (!s->usable) {
		/* Every EV ASSUMED_BAD (or DENIED): the destination is down
		 * or unreachable.  Data goes on the most overdue bad EV, so
		 * that it is its probe, its timer keeps running and the
		 * retry budget can fail it; only DENIED EVs never carry.
		 */
		for (i = 0; i < s->p.count; i++)
			if (s->ev[i].state == MRT_EV_ASSUMED_BAD &&
			    (skip < 0 || s->ev[i].probe_at < s->ev[skip].probe_at))
				skip = i;
		if (skip < 0)
			return -1;
		i = skip;
		goto out;
	}
	if (s->usable == 1)
		avoid = -1;
	if (s->p.policy == MRT_EV_REPS) {
		int r = mrt_ev_recycled(s, avoid);

		if (r >= 0) {
			i = r;
			goto out;
		}
	}
	/* Round robin: each SKIP EV passed over spends one credit. */
	for (n = 0; n < s->p.count; n++) {
		struct mrt_ev *e;

		i = mrt_ev_rr(s);
		e = &s->ev[i];
		if ((int)i == avoid)
			continue;
		if (e->state == MRT_EV_SKIP) {
			/* passed over once per credit; the last pass makes it
			 * GOOD (credit 0: the best fallback)
			 */
			if (!--e->credit)
				mrt_ev_set(s, i, MRT_EV_GOOD, MRT_EV_WHY_CREDIT);
			if (skip < 0 || e->credit < s->ev[skip].credit)
				skip = i;
			continue;
		}
		if (e->state == MRT_EV_GOOD)
			goto out;
	}
	if (skip < 0) {
		if (avoid < 0)
			return -1;
		i = avoid;	/* the one usable EV left */
	} else {
		i = skip;
	}
out:
	s->ev[i].st.pkts++;
	return i;
}

static void mrt_ev_skip(struct mrt_evset *s, unsigned int i, u16 credit,
			u8 why)
{
	struct mrt_ev *e = &s->ev[i];

	if (!mrt_ev_usable(e->state) || !credit)
		return;
	e->credit = min_t(u32, (u32)e->credit + credit,
			  s->p.skip_max ? s->p.skip_max : U16_MAX);
	mrt_ev_set(s, i, MRT_EV_SKIP, why);
}

void mrt_ev_ack(struct mrt_evset *s, unsigned int i, bool ecn)
{
	struct mrt_ev *e = &s->ev[i];

	if (ecn) {
		e->st.ecn++;
		mrt_ev_skip(s, i, s->p.skip_ecn, MRT_EV_WHY_ECN);
		return;
	}
	e->losses = 0;
	if (s->p.policy == MRT_EV_REPS && e->state == MRT_EV_GOOD &&
	    !e->queued) {
		s->queue[(s->q_head + s->q_len) % s->p.count] = i;
		s->q_len++;
		e->queued = true;
	}
}

void mrt_ev_trim(struct mrt_evset *s, unsigned int i)
{
	s->ev[i].st.trims++;
	mrt_ev_skip(s, i, s->p.skip_trim, MRT_EV_WHY_TRIM);
}

void mrt_ev_nack(struct mrt_evset *s, unsigned int i)
{
	s->ev[i].st.nacks++;
}

static void mrt_ev_bad(struct mrt_evset *s, unsigned int i, u64 now, u8 why)
{
	struct mrt_ev *e = &s->ev[i];

	if (!mrt_ev_usable(e->state))
		return;
	e->probe_out = false;
	e->probe_shift = 0;
	e->probe_at = now + s->p.probe_ns;
	s->probe_next = min(s->probe_next, e->probe_at);
	mrt_ev_set(s, i, MRT_EV_ASSUMED_BAD, why);
}

void mrt_ev_loss(struct mrt_evset *s, unsigned int i, u64 now)
{
	struct mrt_ev *e = &s->ev[i];

	e->st.losses++;
	if (e->losses < U8_MAX)
		e->losses++;
	if (s->p.bad_losses && e->losses >= s->p.bad_losses)
		mrt_ev_bad(s, i, now, MRT_EV_WHY_LOSSES);
}

void mrt_ev_rto(struct mrt_evset *s, unsigned int i, u64 now)
{
	s->ev[i].st.rtos++;
	mrt_ev_bad(s, i, now, MRT_EV_WHY_RTO);
}

u64 mrt_ev_probe_ack(struct mrt_evset *s, unsigned int i, u32 stamp, u64 now)
{
	struct mrt_ev *e = &s->ev[i];
	u64 rtt = 0;

	if (e->state != MRT_EV_ASSUMED_BAD)
		return 0;
	if (e->probe_out && (u32)e->probe_sent == stamp && now > e->probe_sent)
		rtt = now - e->probe_sent;
	e->probe_out = false;
	e->losses = 0;
	e->probe_shift = 0;
	mrt_ev_set(s, i, MRT_EV_GOOD, MRT_EV_WHY_PROBE);
	return rtt;
}

int mrt_ev_probe_due(struct mrt_evset *s, u64 now, u64 *next)
{
	unsigned int i;
	int due = -1;

	struct mrt_ev *e;
	u64 wait;

	/* the most overdue first */
	for (i = 0; i < s->p.count; i++) {
		e = &s->ev[i];
		if (e->state == MRT_EV_ASSUMED_BAD && e->probe_at <= now &&
		    (due < 0 || e->probe_at < s->ev[due].probe_at))
			due = i;
	}
	if (due >= 0) {
		e = &s->ev[due];
		e->st.probes++;
		e->probe_sent = now;
		e->probe_out = true;
		if (e->probe_shift < 20)
			e->probe_shift++;
		wait = s->p.probe_ns << e->probe_shift;
		e->probe_at = now + min(wait, s->p.probe_max_ns);
	}
	*next = U64_MAX;
	for (i = 0; i < s->p.count; i++)
		if (s->ev[i].state == MRT_EV_ASSUMED_BAD)
			*next = min(*next, s->ev[i].probe_at);
	s->probe_next = *next;
	return due;
}

void mrt_ev_deny(struct mrt_evset *s, unsigned int i)
{
	mrt_ev_set(s, i, MRT_EV_DENIED, MRT_EV_WHY_DENY);
}

int mrt_ev_allow(struct mrt_evset *s, unsigned int i)
{
	if (s->ev[i].state != MRT_EV_DENIED)
		return -1;
	s->ev[i].losses = 0;
	mrt_ev_set(s, i, MRT_EV_GOOD, MRT_EV_WHY_ALLOW);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * microbench - nanoseconds per ACK event of each congestion-control core,
 * next to a minimal Reno-style window update compiled the same way, so
 * that each core's cost shows as a ratio to Reno's.
 *
 *   microbench [--events N] [--reps R] [--json]
 *
 * Design.  One synthetic trace is generated before any timing, from a
 * fixed-seed xorshift64* generator, so every run and every algorithm sees
 * the same events in the same arrays.  An event is a time (1 to 3 us after
 * the previous one), an RTT sample (an 80 us base plus a queueing delay:
 * a slow random walk over 0..160 us and up to 16 us of jitter), 1 to 3
 * packets acked, and an ECN echo whose probability rises with the queueing
 * delay, RED-like, from 0 at 40 us to 1/2 at 160 us.  The walk sweeps the
 * delay across the cores' targets dozens of times per trace, so each core
 * takes its increase, decrease and hold paths in changing proportions, not
 * one branch throughout.  The trace is open loop: the windows do not feed
 * back into it.
 *
 * Each algorithm has one per-event function, noinline, taking its state by
 * pointer and the event by pointer: the Reno baseline, and the adapters
 * that drive a core the way the TCP modules and tools/ccreplay do
 * (nscc and nscc_mrc: nscc_on_send() then nscc_on_ack(); dcqcn: catch up
 * with dcqcn_step(), dcqcn_on_tx(), and dcqcn_on_cnp() on an ECN echo;
 * swift: swift_on_ack() with a 7/8 EWMA srtt kept here).  The cores run
 * on a VM-like path: NSCC at 10 Gb/s with a 100 us config base RTT, DCQCN
 * at 1 Gb/s, Swift with a 100 us base target; the rest are defaults.
 *
 * Each per-event function ends by adding the resulting window to a
 * checksum in its state.  The checksum is printed, so no update can be
 * optimised away, and it must be the same in every pass (the cores are
 * deterministic), which is checked.  The cores are separate translation
 * units, as in the modules, so their entry points are real calls, as in
 * the kernel.
 *
 * Timing: CLOCK_MONOTONIC around the whole loop over the trace.  After one
 * untimed warm-up pass per algorithm, the repetitions are interleaved
 * (each repetition runs every algorithm once) so slow drift of the machine
 * spreads over all algorithms alike.  Reported: the median ns per event,
 * the min and max over the repetitions, and the median's ratio to Reno's.
 * State is re-initialised outside the timed region before each pass.
 *
 * Built from the repository root with the three cores, as the unit tests
 * are:
 *   gcc -std=gnu11 -O2 -Iinclude -DBENCH_CFLAGS='"-std=gnu11 -O2"' \
 *       -o bench/microbench THIS_FILE net/nscc/nscc_core.c \
 *       net/dcqcn/dcqcn_core.c net/swift/swift_core.c
 * BENCH_CFLAGS only labels the output, as a string literal or bare flags.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <net/fabric/dcqcn.h>
#include <net/fabric/nscc.h>
#include <net/fabric/swift.h>

/*
 * The kernel's noinline, which userspace lacks; with GCC noipa as well, so
 * the per-event functions are neither cloned for the trace's constants nor
 * analysed across the call.  bench_attr() only spells __attribute__.
 */
#define bench_attr(...)		__attribute__((__VA_ARGS__))
#ifdef __has_attribute
#if __has_attribute(__noipa__)
#define noinline		bench_attr(__noinline__, __noipa__)
#endif
#endif
#ifndef noinline
#define noinline		bench_attr(__noinline__)
#endif

#define BENCH_STR2(...)		#__VA_ARGS__
#define BENCH_STR(...)		BENCH_STR2(__VA_ARGS__)
#ifdef BENCH_CFLAGS
#define BENCH_CFLAGS_TEXT	BENCH_STR(BENCH_CFLAGS)
#else
#define BENCH_CFLAGS_TEXT	"unknown"
#endif

#define DEF_EVENTS	2000000ULL
#define MAX_EVENTS	1000000000ULL
#define DEF_REPS	5UL
#define MAX_REPS	1000UL
#define SEED		0x2545f4914f6cdd1dULL

/* The synthetic trace. */
#define TR_BASE_RTT	80000U		/* ns */
#define TR_WALK_MAX	160000U		/* ns: queueing level's range */
#define TR_WALK_STEP	1000U		/* ns: level moves +-this per event */
#define TR_JITTER	16000U		/* ns */
#define TR_ECN_LO	40000U		/* ns: no marks below */
#define TR_ECN_HI	160000U		/* ns: mark probability 1/2 from here */

/* A VM-like link for NSCC and DCQCN. */
#define NSCC_RATE_MBPS	10000U
#define NSCC_BASE_RTT	100000U
#define DCQCN_RATE_MBPS	1000U
/*
 * Swift's default 25 us base target is a hardware fabric's; against this
 * trace's 80 us base RTT it would pin the window at its 0.01-packet floor.
 * The VM-like path's own base target puts it in its working range.
 */
#define SWIFT_BASE_TARGET 100000U	/* ns */
#define SWIFT_INIT_MILLI 10000U		/* TCP's initial window, 10 packets */

struct bench_ev {
	u64 t_ns;
	u32 rtt_ns;
	u16 pkts;
	u8 ecn;
};

struct bench_trace {
	struct bench_ev *ev;
	size_t n;
	u64 ecn_events;
	u64 rtt_sum;
};

struct bench_reno {
	u32 cwnd;		/* packets */
	u32 ssthresh;
	u32 cwnd_cnt;
	u64 hold_until;		/* ns: no halving before this */
	u64 sum;
};

struct bench_nscc {
	struct nscc n;
	u32 mtu;		/* nominal packet, bytes */
	u64 sum;
};

struct bench_dcqcn {
	struct dcqcn d;
	u64 sum;
};

struct bench_swift {
	struct swift s;
	u64 srtt;		/* ns */
	u64 sum;
};

union bench_state {
	struct bench_reno reno;
	struct bench_nscc nscc;
	struct bench_dcqcn dcqcn;
	struct bench_swift swift;
};

struct bench_algo {
	const char *name;
	void (*init)(union bench_state *st);
	u64 (*run)(union bench_state *st, const struct bench_ev *ev, size_t n);
};

struct bench_result {
	double median;
	double min;
	double max;
	u64 checksum;
};

/* ------------------------------------------------------------------ */
/* The trace */

static u64 xorshift64s(u64 *s)
{
	u64 x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n), n small: the high bits, by multiply and shift. */
static u32 rnd_below(u64 *s, u32 n)
{
	return (u32)(((xorshift64s(s) >> 32) * n) >> 32);
}

static void trace_fill(struct bench_trace *tr)
{
	u64 s = SEED, t = 0;
	u32 level = 0;
	size_t i;

	tr->ecn_events = 0;
	tr->rtt_sum = 0;
	for (i = 0; i < tr->n; i++) {
		struct bench_ev *e = &tr->ev[i];
		u32 q, p;

		/* The level walks, reflected at its bounds. */
		if (rnd_below(&s, 2)) {
			level += TR_WALK_STEP;
			if (level > TR_WALK_MAX)
				level = 2 * TR_WALK_MAX - level;
		} else {
			level = level >= TR_WALK_STEP ? level - TR_WALK_STEP :
				TR_WALK_STEP - level;
		}
		q = level + rnd_below(&s, TR_JITTER + 1);
		t += 1000 + rnd_below(&s, 2001);

		/* Mark probability in 1/65536: 0 at TR_ECN_LO, 1/2 at TR_ECN_HI. */
		p = q <= TR_ECN_LO ? 0 :
		    q >= TR_ECN_HI ? 32768 :
		    (u32)((u64)(q - TR_ECN_LO) * 32768 / (TR_ECN_HI - TR_ECN_LO));

		e->t_ns = t;
		e->rtt_ns = TR_BASE_RTT + q;
		e->pkts = 1 + rnd_below(&s, 3);
		e->ecn = rnd_below(&s, 65536) < p;
		tr->ecn_events += e->ecn;
		tr->rtt_sum += e->rtt_ns;
	}
}

/* ------------------------------------------------------------------ */
/* Per-event functions and their loops */

static void bench_reno_init(union bench_state *st)
{
	st->reno = (struct bench_reno){ .cwnd = 10, .ssthresh = U32_MAX };
}

/*
 * Slow start, then one packet per window; an ECN echo halves the window,
 * at most once per RTT (the echo's own RTT sample).
 */
static noinline void bench_reno_event(struct bench_reno *r,
				      const struct bench_ev *e)
{
	u32 acked = e->pkts;

	if (e->ecn && e->t_ns >= r->hold_until) {
		r->ssthresh = max(r->cwnd / 2, 2U);
		r->cwnd = r->ssthresh;
		r->cwnd_cnt = 0;
		r->hold_until = e->t_ns + e->rtt_ns;
	} else if (r->cwnd < r->ssthresh) {
		r->cwnd += acked;
	} else {
		r->cwnd_cnt += acked;
		if (r->cwnd_cnt >= r->cwnd) {
			r->cwnd_cnt -= r->cwnd;
			r->cwnd++;
		}
	}
	r->sum += r->cwnd;
}

static void bench_nscc_start(struct bench_nscc *b, enum nscc_flavour f)
{
	struct nscc_params p;

	nscc_params_init(&p, f);
	NSCC_P(&p, data_rate_mbps) = NSCC_RATE_MBPS;
	NSCC_P(&p, config_base_rtt_ns) = NSCC_BASE_RTT;
	b->mtu = 4096 + (f == NSCC_FLAVOUR_MRC ? NSCC_MRC_HDR_BYTES :
			 NSCC_UET_HDR_BYTES);
	nscc_init(&b->n, &p, b->mtu, 0);
	b->sum = 0;
}

static void bench_nscc_uet_init(union bench_state *st)
{
	bench_nscc_start(&st->nscc, NSCC_FLAVOUR_UET);
}

static void bench_nscc_mrc_init(union bench_state *st)
{
	bench_nscc_start(&st->nscc, NSCC_FLAVOUR_MRC);
}

/* The bytes go out, then their ACK (a SACK in mrc, which ignores ecn). */
static noinline void bench_nscc_event(struct bench_nscc *b,
				      const struct bench_ev *e)
{
	struct nscc_ack a = {
		.bytes = (u64)e->pkts * b->mtu,
		.rtt_ns = e->rtt_ns,
		.ecn = e->ecn,
	};

	nscc_on_send(&b->n, a.bytes);
	nscc_on_ack(&b->n, e->t_ns, &a);
	b->sum += b->n.cwnd;
}

static void bench_dcqcn_init(union bench_state *st)
{
	struct dcqcn_params p;

	dcqcn_params_init(&p);
	DCQCN_P(&p, data_rate_mbps) = DCQCN_RATE_MBPS;
	dcqcn_init(&st->dcqcn.d, &p);
	st->dcqcn.sum = 0;
}

/* Catch up with the loop's boundaries, count the packet, then the CNP. */
static noinline void bench_dcqcn_event(struct bench_dcqcn *b,
				       const struct bench_ev *e)
{
	while (dcqcn_step(&b->d, e->t_ns))
		;
	dcqcn_on_tx(&b->d, 1);
	if (e->ecn)
		dcqcn_on_cnp(&b->d, e->t_ns, 1);
	b->sum += b->d.rc_kbps;
}

static void bench_swift_init(union bench_state *st)
{
	struct swift_params p;

	swift_params_init(&p);
	SWIFT_P(&p, base_target_ns) = SWIFT_BASE_TARGET;
	swift_init(&st->swift.s, &p, SWIFT_INIT_MILLI);
	st->swift.srtt = 0;
	st->swift.sum = 0;
}

/* srtt as TCP's: 7/8 old + 1/8 new, the first sample as is. */
static noinline void bench_swift_event(struct bench_swift *b,
				       const struct bench_ev *e)
{
	b->srtt = b->srtt ? (7 * b->srtt + e->rtt_ns) / 8 : e->rtt_ns;
	swift_on_ack(&b->s, e->t_ns, e->rtt_ns, e->pkts, b->srtt, true);
	b->sum += b->s.cwnd;
}

/*
 * One loop per algorithm, the same but for the direct call, so call
 * overhead is equal for all and no indirect branch is measured.
 */
static u64 bench_reno_loop(union bench_state *st,
			   const struct bench_ev *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bench_reno_event(&st->reno, &ev[i]);
	return st->reno.sum;
}

static u64 bench_nscc_loop(union bench_state *st,
			   const struct bench_ev *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bench_nscc_event(&st->nscc, &ev[i]);
	return st->nscc.sum;
}

static u64 bench_dcqcn_loop(union bench_state *st,
			    const struct bench_ev *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bench_dcqcn_event(&st->dcqcn, &ev[i]);
	return st->dcqcn.sum;
}

static u64 bench_swift_loop(union bench_state *st,
			    const struct bench_ev *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bench_swift_event(&st->swift, &ev[i]);
	return st->swift.sum;
}

static const struct bench_algo bench_algos[] = {
	{ "reno",	bench_reno_init,	bench_reno_loop },
	{ "nscc",	bench_nscc_uet_init,	bench_nscc_loop },
	{ "nscc_mrc",	bench_nscc_mrc_init,	bench_nscc_loop },
	{ "dcqcn",	bench_dcqcn_init,	bench_dcqcn_loop },
	{ "swift",	bench_swift_init,	bench_swift_loop },
};

#define NALGOS	ARRAY_SIZE(bench_algos)

/* ------------------------------------------------------------------ */
/* Timing */

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* One pass of algorithm a over the trace; returns ns, sets *sum. */
static u64 bench_pass(const struct bench_algo *a, const struct bench_trace *tr,
		      u64 *sum)
{
	union bench_state st;
	u64 t0, t1;

	a->init(&st);
	t0 = now_ns();
	*sum = a->run(&st, tr->ev, tr->n);
	t1 = now_ns();
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v[0..n) and returns its median. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int bench_all(const struct bench_trace *tr, unsigned long reps,
		     struct bench_result *res)
{
	double *ns = calloc(NALGOS * reps, sizeof(*ns));
	unsigned long r;
	size_t i;
	u64 sum;

	if (!ns)
		return -1;
	for (i = 0; i < NALGOS; i++)
		bench_pass(&bench_algos[i], tr, &res[i].checksum);
	for (r = 0; r < reps; r++) {
		for (i = 0; i < NALGOS; i++) {
			u64 t = bench_pass(&bench_algos[i], tr, &sum);

			if (sum != res[i].checksum) {
				fprintf(stderr,
					"microbench: %s: checksum %llu in repetition %lu, %llu in the warm-up\n",
					bench_algos[i].name,
					(unsigned long long)sum, r + 1,
					(unsigned long long)res[i].checksum);
				free(ns);
				return -1;
			}
			ns[i * reps + r] = (double)t / tr->n;
		}
	}
	for (i = 0; i < NALGOS; i++) {
		double *v = &ns[i * reps];

		res[i].median = median(v, reps);
		res[i].min = v[0];
		res[i].max = v[reps - 1];
	}
	free(ns);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Output */

/* The text of BENCH_CFLAGS: a string literal's quotes come off. */
static void cflags_text(char *buf, size_t size)
{
	const char *s = BENCH_CFLAGS_TEXT;
	size_t len = strlen(s);

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	snprintf(buf, size, "%.*s", (int)len, s);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_json(const struct bench_trace *tr, unsigned long reps,
		       const char *cflags, const struct bench_result *res)
{
	size_t i;

	printf("{\"events\": %zu, \"reps\": %lu, \"compiler\": ", tr->n, reps);
	json_string(__VERSION__);
	printf(", \"cflags\": ");
	json_string(cflags);
	printf(", \"results\": [");
	for (i = 0; i < NALGOS; i++) {
		printf("%s{\"algo\": \"%s\", ", i ? ", " : "",
		       bench_algos[i].name);
		printf("\"ns_per_event\": %.3f, \"min\": %.3f, \"max\": %.3f, ",
		       res[i].median, res[i].min, res[i].max);
		printf("\"ratio_to_reno\": %.3f, \"checksum\": %llu}",
		       res[i].median / res[0].median,
		       (unsigned long long)res[i].checksum);
	}
	printf("]}\n");
}

static void print_table(const struct bench_trace *tr, unsigned long reps,
			const char *cflags, const struct bench_result *res)
{
	size_t i;

	printf("%zu events (ECN echo on %.1f%%, mean RTT %.1f us), %lu reps, median of reps\n",
	       tr->n, 100.0 * tr->ecn_events / tr->n,
	       tr->rtt_sum / 1000.0 / tr->n, reps);
	printf("compiler %s, cflags %s\n\n", __VERSION__, cflags);
	printf("%-10s %12s %10s %10s %14s %20s\n", "algo", "ns_per_event",
	       "min", "max", "ratio_to_reno", "checksum");
	for (i = 0; i < NALGOS; i++)
		printf("%-10s %12.2f %10.2f %10.2f %14.2f %20llu\n",
		       bench_algos[i].name, res[i].median, res[i].min,
		       res[i].max, res[i].median / res[0].median,
		       (unsigned long long)res[i].checksum);
}

/* ------------------------------------------------------------------ */

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: microbench [--events N] [--reps R] [--json]\n\n"
		"Nanoseconds per ACK event of each congestion-control core (nscc, nscc_mrc,\n"
		"dcqcn, swift) over one synthetic trace, next to a minimal Reno-style window\n"
		"update compiled the same way; ratio_to_reno is each median over Reno's.\n\n"
		"  --events N   events in the trace (default %llu, at most %llu)\n"
		"  --reps R     timed passes per algorithm, median reported (default %lu, at most %lu)\n"
		"  --json       one JSON object on stdout instead of the table\n"
		"  --help       this text\n",
		DEF_EVENTS, MAX_EVENTS, DEF_REPS, MAX_REPS);
}

/* A decimal number in [1, max], or exit 2. */
static unsigned long long parse_num(const char *opt, const char *s,
				    unsigned long long max)
{
	unsigned long long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > max)
			break;
	}
	if (p == s || *p || !v || v > max) {
		fprintf(stderr,
			"microbench: %s wants a number from 1 to %llu, not '%s'\n",
			opt, max, s);
		exit(2);
	}
	return v;
}

/* Long options only; values above any char tell them from a bad "-x". */
enum { OPT_EVENTS = 256, OPT_REPS, OPT_JSON, OPT_HELP };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 }
	};
	struct bench_result res[NALGOS];
	struct bench_trace tr = { .n = DEF_EVENTS };
	unsigned long reps = DEF_REPS;
	bool json = false;
	char cflags[512];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case OPT_EVENTS:
			tr.n = parse_num("--events", optarg, MAX_EVENTS);
			break;
		case OPT_REPS:
			reps = parse_num("--reps", optarg, MAX_REPS);
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_HELP:
			print_help(stdout);
			return 0;
		case ':':
			fprintf(stderr, "microbench: %s needs a value (see --help)\n",
				argv[optind - 1]);
			return 2;
		default:
			if (optopt > 0 && optopt < OPT_EVENTS)
				fprintf(stderr, "microbench: unknown option -%c (see --help)\n",
					optopt);
			else
				fprintf(stderr, "microbench: bad option %s (see --help)\n",
					argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "microbench: unexpected argument %s (see --help)\n",
			argv[optind]);
		return 2;
	}

	tr.ev = calloc(tr.n, sizeof(*tr.ev));
	if (!tr.ev) {
		fprintf(stderr, "microbench: no memory for %zu events\n", tr.n);
		return 1;
	}
	trace_fill(&tr);
	if (bench_all(&tr, reps, res)) {
		free(tr.ev);
		return 1;
	}
	cflags_text(cflags, sizeof(cflags));
	if (json)
		print_json(&tr, reps, cflags, res);
	else
		print_table(&tr, reps, cflags, res);
	free(tr.ev);
	return 0;
}

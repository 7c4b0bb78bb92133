/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccreplay: replay a trace of congestion signals through an algorithm core.
 * The driver (ccreplay.c) reads the trace and the options; each algorithm
 * (algo_*.c) names its attributes, parses its events and prints its row.
 */
#ifndef _CCREPLAY_H
#define _CCREPLAY_H

#include <net/fabric/attr.h>

#define CCR_MAX_KV	16
/*
 * The largest event time, 10^18 ns (about 31.7 years): the cores add
 * intervals and RTTs to the time (DCQCN's next boundary, NSCC's Quick
 * Adapt window), which must not wrap.  A larger time stops the replay.
 */
#define CCR_MAX_TIME_NS	1000000000000000000ULL

/* One "key=value" of a trace line; value is a u64 decimal. */
struct ccr_kv {
	const char *key;
	u64 val;
	bool used;
};

struct ccr_event {
	u64 t_ns;
	const char *name;
	struct ccr_kv kv[CCR_MAX_KV];
	int nkv;
};

/* Command-line options beyond the attributes; 0 means the default. */
struct ccr_opts {
	u32 mtu;		/* nscc: nominal packet, bytes */
	u32 init_cwnd;		/* swift: starting window, thousandths */
};

struct ccr_algo {
	const char *name;
	const char *header;		/* output header line */
	const char *events_help;	/* for --help */
	const char *limits_help;	/* for --help: each key's limit */
	const struct fabric_attr_desc *descs;
	unsigned int nattrs;
	u32 *values;			/* indexed like descs */
	/* Page defaults for a flavour (NULL: the algorithm has none). */
	int (*defaults)(const char *flavour, const char **why);
	/* Builds the algorithm state from values and the options. */
	int (*start)(const struct ccr_opts *o, const char **why);
	/* Runs one event; returns 0 or -EINVAL with *why set. */
	int (*event)(struct ccr_event *ev, const char **why);
	void (*print)(const struct ccr_event *ev);
};

extern const struct ccr_algo ccr_algo_nscc;
extern const struct ccr_algo ccr_algo_dcqcn;
extern const struct ccr_algo ccr_algo_swift;

/* Takes key from ev (marking it used); returns false if absent. */
bool ccr_get(struct ccr_event *ev, const char *key, u64 *val);
/*
 * Takes key from ev like ccr_get(), refusing a value above max (the
 * core's limit for it): returns 1 (taken), 0 (absent: *val untouched) or
 * -EINVAL with *why naming the key, the value and the limit.
 */
int ccr_get_max(struct ccr_event *ev, const char *key, u64 *val, u64 max,
		const char **why);

#endif /* _CCREPLAY_H */

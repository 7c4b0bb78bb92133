/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccreplay: replay a trace of congestion signals through an algorithm core.
 * The driver (ccreplay.c) reads the trace and the options; each algorithm
 * (algo_*.c) names its attributes, parses its events and prints its row.
 */
#ifndef _CCREPLAY_H
#define _CCREPLAY_H

#include <net/fabric_attr.h>

#define CCR_MAX_KV	16

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

#endif /* _CCREPLAY_H */

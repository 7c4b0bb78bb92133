/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_fabric, a switch egress port: the netlink attributes of TCA_OPTIONS
 * and the xstats of "tc -s", shared by the kernel module
 * (net/sched/sch_fabric*.c) and the tc plugin (tools/tc/q_fabric.c).
 *
 * The uapi pkt_sched.h of an installed kernel cannot grow, so the kind
 * keeps its own header.  Append only: never renumber or reorder.
 */
#ifndef _UAPI_LINUX_FABRIC_SCHED_H
#define _UAPI_LINUX_FABRIC_SCHED_H

#include <linux/types.h>

enum {
	TCA_FABRIC_UNSPEC,
	TCA_FABRIC_PAD,
	TCA_FABRIC_RATE,	/* u64, bits per second; 0: no rate limit */
	TCA_FABRIC_LIMIT,	/* u32, bytes: data queue */
	TCA_FABRIC_ECN_MIN,	/* u32, bytes of data backlog */
	TCA_FABRIC_ECN_MAX,	/* u32, bytes; 0: no ECN marking */
	TCA_FABRIC_ECN_PROB,	/* u32, percent marked at ECN_MAX */
	TCA_FABRIC_TRIM_AT,	/* u32, bytes of data backlog; 0: no trimming */
	TCA_FABRIC_TRIM_SIZE,	/* u32, bytes of IP datagram kept */
	TCA_FABRIC_TRIM_DSCP,	/* u32, DSCP of trimmed packets, 0..63 */
	TCA_FABRIC_TRIM_DSCP_MASK,	/* u64, bit d: DSCP d is trimmable */
	TCA_FABRIC_TRIM_LIMIT,	/* u32, bytes: header queue */
	TCA_FABRIC_CLEAR_STATS,	/* flag: zero the xstats counters and
				 * histograms, not the queues (on create,
				 * nothing to clear); never dumped
				 */
	__TCA_FABRIC_MAX
};

#define TCA_FABRIC_MAX (__TCA_FABRIC_MAX - 1)

/*
 * Queueing delay histogram: bucket 0 counts packets that waited less than
 * 1 us, bucket i (1 <= i < last) those that waited [2^(i-1), 2^i) us, and
 * the last bucket everything longer.
 */
#define TC_FABRIC_DELAY_BUCKETS	32

/*
 * The fine histogram, log-linear in nanoseconds as HdrHistogram is: every
 * power of two from 8 ns on is cut into TC_FABRIC_FINE_SUB (8) buckets of
 * equal width, so a bucket is at most 1/8 (12.5 %) of its lower bound
 * wide.  Bucket b < 8 holds the delays of b ns; bucket b = 8 g + s
 * (1 <= g <= 33, 0 <= s < 8) holds [2^(g+2) + s 2^(g-1), 2^(g+2) +
 * (s + 1) 2^(g-1)) ns; the last (272) holds 2^36 ns (68.7 s) and more.
 */
#define TC_FABRIC_FINE_SUB	8
#define TC_FABRIC_FINE_GROUPS	34
#define TC_FABRIC_FINE_BUCKETS	(TC_FABRIC_FINE_SUB * TC_FABRIC_FINE_GROUPS + 1)

struct tc_fabric_xstats {
	__u64 ecn_marked;	/* ECT packets marked CE */
	__u64 trimmed;		/* packets cut to trim_size */
	__u64 trim_dropped;	/* a header (trimmed here or upstream)
				 * dropped: header queue full
				 */
	__u64 drop_limit;	/* dropped: data queue full */
	__u64 untrimmable;	/* trimmable DSCP above trim_at, but not UDP
				 * or already short: handled as data
				 */
	__u64 drop_change;	/* dropped by a change that shrank a limit */
	__u64 max_backlog;	/* bytes, data and header queues together */
	__u64 data_backlog;	/* bytes now */
	__u64 hdr_backlog;	/* bytes now */
	__u64 hdr_packets;	/* packets now in the header queue */
	__u64 delay_count;	/* packets in the histogram */
	__u64 delay_sum_ns;
	__u64 delay_max_ns;
	__u64 delay_hist[TC_FABRIC_DELAY_BUCKETS];
	/* Appended: a window of the fine histogram.  delay_fine_len __u64
	 * counts follow, delay_fine_offset bytes from the start of the
	 * xstats (so fields can still be appended here); count i is that of
	 * fine bucket delay_fine_first + i.  The packets below the window
	 * and above it are counted in delay_fine_below and delay_fine_above,
	 * so that everything adds up to delay_count.  The window holds at
	 * most TC_FABRIC_FINE_WINDOW buckets (4 powers of two): from the
	 * lowest bucket with packets on, or, if the 99.9th percentile's
	 * bucket lies beyond that reach, the 4 powers of two up to it.
	 * It is small because a qdisc notification carries the xstats twice
	 * (TCA_STATS_APP and TCA_XSTATS) in one NLMSG_GOODSIZE message,
	 * sometimes for two qdiscs.
	 */
	__u64 delay_fine_below;
	__u64 delay_fine_above;
	__u32 delay_fine_first;
	__u16 delay_fine_len;
	__u16 delay_fine_offset;
};

#define TC_FABRIC_FINE_WINDOW	32

/* The xstats before the fine histogram: what an older module dumps. */
#define TC_FABRIC_XSTATS_V1_LEN	\
	__builtin_offsetof(struct tc_fabric_xstats, delay_fine_below)

/*
 * The bucket of a delay of ns nanoseconds in the fine histogram.  The
 * lower bound of bucket b is tc_fabric_fine_lo(b), its upper bound
 * (excluded) that of b + 1; the last bucket holds everything from its
 * lower bound on.
 */
static __inline__ __u32 tc_fabric_fine_bucket(__u64 ns)
{
	__u32 e;

	if (ns < TC_FABRIC_FINE_SUB)
		return (__u32)ns;
	e = 63 - __builtin_clzll(ns);	/* 2^e <= ns < 2^(e + 1), e >= 3 */
	if (e >= TC_FABRIC_FINE_GROUPS + 2)
		return TC_FABRIC_FINE_BUCKETS - 1;
	return TC_FABRIC_FINE_SUB * (e - 2) + (__u32)((ns >> (e - 3)) & 7);
}

static __inline__ __u64 tc_fabric_fine_lo(__u32 b)
{
	__u32 g = b / TC_FABRIC_FINE_SUB, s = b % TC_FABRIC_FINE_SUB;

	if (!g)
		return s;
	return (1ULL << (g + 2)) + ((__u64)s << (g - 1));
}

#endif /* _UAPI_LINUX_FABRIC_SCHED_H */

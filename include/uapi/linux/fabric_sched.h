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
	__TCA_FABRIC_MAX
};

#define TCA_FABRIC_MAX (__TCA_FABRIC_MAX - 1)

/*
 * Queueing delay histogram: bucket 0 counts packets that waited less than
 * 1 us, bucket i (1 <= i < last) those that waited [2^(i-1), 2^i) us, and
 * the last bucket everything longer.
 */
#define TC_FABRIC_DELAY_BUCKETS	32

struct tc_fabric_xstats {
	__u64 ecn_marked;	/* ECT packets marked CE */
	__u64 trimmed;		/* packets cut to trim_size */
	__u64 trim_dropped;	/* trimmed, then dropped: header queue full */
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
};

#endif /* _UAPI_LINUX_FABRIC_SCHED_H */

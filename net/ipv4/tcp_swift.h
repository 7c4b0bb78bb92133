/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_swift private interfaces: its per-netns counters (in
 * /proc/net/swift_stat and the fabric netlink family).
 */
#ifndef _TCP_SWIFT_H
#define _TCP_SWIFT_H

#include <net/fabric/module.h>
#include <net/fabric/swift.h>

/* Per-netns counters, shown in /proc/net/swift_stat. */
enum tcp_swift_stat {
	TCP_SWIFT_STAT_SOCKETS,
	TCP_SWIFT_STAT_DECREASES,	/* multiplicative decreases that cut */
	TCP_SWIFT_STAT_TIMEOUTS,	/* retransmission timeouts */
	TCP_SWIFT_STAT_PACED_ENTRIES,	/* windows that fell below a packet */
	TCP_SWIFT_STAT_PACED_ACKS,	/* ACKs taken below one packet */
	TCP_SWIFT_STAT_BASE_LEARNT,	/* base_target_ns 0: samples that lowered it */
	TCP_SWIFT_STAT_DECISION,	/* + enum swift_decision */
	TCP_SWIFT_STAT_COUNT = TCP_SWIFT_STAT_DECISION + SWIFT_DECISION_COUNT
};

#endif /* _TCP_SWIFT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabsim's C boundary: the kernel's congestion-control cores
 * (net/nscc, net/dcqcn, net/swift), compiled unchanged as C, behind
 * opaque handles that C++ can hold.  The cores' own headers use GNU C
 * and kernel macros (min(), max()) that do not belong next to C++, so
 * nothing of them crosses this line.
 *
 * Every entry point is one of ccreplay's events (tools/ccreplay): with a
 * trace attached (sim_cc_trace()) each call is written as the trace line
 * ccreplay reads, and the row ccreplay would print after it goes to a
 * second file, so a replay of the first must reproduce the second byte
 * for byte.  Times are nanoseconds from the core's start.
 */
#ifndef FABSIM_CORES_H
#define FABSIM_CORES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_NO_RTT	UINT64_MAX

enum sim_cc_algo { SIM_CC_NSCC, SIM_CC_DCQCN, SIM_CC_SWIFT };

struct sim_cc;

/* A core of algo with its page's defaults (nscc: of flavour, "uet" or
 * "mrc"; NULL: uet), then each of sets[] ("name=value", the attribute's
 * sysctl name) applied, checked as the kernel checks them.  mtu: nscc's
 * nominal packet; init_milli: swift's first window in thousandths of a
 * packet.  NULL with err filled on a bad name or value.
 */
struct sim_cc *sim_cc_new(enum sim_cc_algo algo, const char *flavour,
			  const char *const *sets, int nsets, uint32_t mtu,
			  uint32_t init_milli, char *err, size_t errlen);
void sim_cc_free(struct sim_cc *c);

/* From now on each call is a line of trace (ccreplay's input; the first
 * line, a comment, holds the command that replays it) and a row of rows
 * (what ccreplay prints).
 */
void sim_cc_trace(struct sim_cc *c, FILE *trace, FILE *rows);

/* nscc: ccreplay --algo nscc's events.  Each returns the core's routine
 * (enum nscc_routine).
 */
int sim_nscc_ack(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt,
		 uint64_t service, bool ecn, uint8_t pen, bool restore);
int sim_nscc_cack(struct sim_cc *c, uint64_t t, uint64_t bytes);
int sim_nscc_trim(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt);
int sim_nscc_nack(struct sim_cc *c, uint64_t t, uint64_t bytes, uint64_t rtt);
int sim_nscc_loss(struct sim_cc *c, uint64_t t, uint64_t bytes);
int sim_nscc_send(struct sim_cc *c, uint64_t t, uint64_t bytes);
/* What the kernel's TCP glue does before each ACK: the bytes in flight
 * are TCP's count (prior_in_flight), not the core's own.
 */
void sim_nscc_inflight(struct sim_cc *c, uint64_t t, int64_t bytes);
bool sim_nscc_can_send(const struct sim_cc *c, uint64_t bytes);
uint64_t sim_nscc_cwnd(const struct sim_cc *c);
uint64_t sim_nscc_max_wnd(const struct sim_cc *c);
uint64_t sim_nscc_qa_count(const struct sim_cc *c);
bool sim_nscc_is_mrc(const struct sim_cc *c);
/* The receiver penalty (0..127) for a buffer occupancy in thousandths,
 * by nscc's receiver attributes.
 */
uint8_t sim_nscc_penalty(const struct sim_cc *c, uint32_t occupancy_milli);

/* dcqcn: catch up to t (every half-interval boundary before it), then
 * the event; the rate after it.
 */
void sim_dcqcn_tx(struct sim_cc *c, uint64_t t, uint32_t pkts);
void sim_dcqcn_cnp(struct sim_cc *c, uint64_t t, uint32_t n);
void sim_dcqcn_tick(struct sim_cc *c, uint64_t t);
uint64_t sim_dcqcn_rate_bps(const struct sim_cc *c);
/* ns: the next half-interval boundary (when the rate may change) */
uint64_t sim_dcqcn_next(const struct sim_cc *c);

/* swift: delays and srtt in ns; the window in thousandths of a packet */
void sim_swift_ack(struct sim_cc *c, uint64_t t, uint64_t rtt, uint32_t acked,
		   uint64_t srtt, bool may_decrease);
void sim_swift_rto(struct sim_cc *c, uint64_t t, uint64_t srtt);
void sim_swift_recovery(struct sim_cc *c, uint64_t t, uint64_t srtt);
uint64_t sim_swift_cwnd_milli(const struct sim_cc *c);
uint32_t sim_swift_pacing_gap_ns(const struct sim_cc *c);

#ifdef __cplusplus
}
#endif

#endif /* FABSIM_CORES_H */

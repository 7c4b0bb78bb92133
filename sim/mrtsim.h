/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabsim's C boundary to mrt: the kernel's protocol engine
 * (net/mrt/engine.c), wire codec, PSN windows, EV sets and the NSCC core,
 * compiled unchanged, behind opaque handles for the C++ side (sim/mrt.cc),
 * which owns the packets, the timers and the UDP sockets.
 *
 * A sender is one PDC sending one message (a flow's bytes) to a peer; a
 * receiver is the peer's PDC.  Every packet is a real mrt header
 * (mrt_build()) before a payload the C++ side only counts.  Packets to
 * send come out through an emit callback.  Times are the simulator's, in
 * nanoseconds.
 */
#ifndef FABSIM_MRTSIM_H
#define FABSIM_MRTSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest mrt header (an ACK's). */
#define SIM_MRT_HDR_MAX	48	/* MRT_DATA_MIN_LEN: a padded data packet's bytes */

/* A packet to send: hdr (hlen bytes) then payload bytes of payload, from
 * UDP source port sport, with the IP TOS tos (DSCP << 2 | ECN).
 */
typedef void (*sim_mrt_emit_fn)(void *ctx, const uint8_t *hdr, unsigned int hlen,
				unsigned int payload, uint16_t sport, uint8_t tos);

struct sim_mrt_net;
struct sim_mrt_dest;
struct sim_mrt_snd;
struct sim_mrt_rcv;

/* The run's attributes: mrt's (net/mrt/mrt_attrs.h names) and nscc's,
 * "name=value" each; flavour uet or mrc; trim: data is sent trimmable
 * (trimmable_dscp and trim_dscp then default to 10 and 11, as
 * check.conf's switches trim DSCP 10 to 11); mss: payload bytes per packet.
 * NULL with err filled on a bad name or value.
 */
struct sim_mrt_net *sim_mrt_net_new(const char *const *mrt_sets, int nmrt,
				    const char *const *nscc_sets, int nnscc,
				    const char *flavour, bool trim, uint32_t mss,
				    char *err, size_t errlen);
uint16_t sim_mrt_udp_port(const struct sim_mrt_net *net);
uint32_t sim_mrt_ev_count(const struct sim_mrt_net *net);
/* Bytes on the wire above a data packet's payload: IP, UDP, mrt. */
uint32_t sim_mrt_data_overhead(void);

/* The state of one destination (NSCC and its EVs), made at now; with
 * trace/rows, its NSCC's calls are written as ccreplay's input and rows.
 */
struct sim_mrt_dest *sim_mrt_dest_new(struct sim_mrt_net *net, uint32_t seed,
				      uint64_t now, FILE *trace, FILE *rows);

/* A sender's timer: its earliest deadline is now at (ns), for the
 * sender made with user.
 */
typedef void (*sim_mrt_arm_fn)(void *user, uint64_t at);

/* A sending PDC (local id lid) of len bytes to a peer PDC it learns from
 * the first answer (its key: from start_psn); its packets go out through
 * emit(ectx, ...) and its
 * timer through arm(user, ...), also when another PDC of its destination
 * wakes it (the destination's waiters, as mrt_dest_kick()).
 */
struct sim_mrt_snd *sim_mrt_snd_new(struct sim_mrt_net *net,
				    struct sim_mrt_dest *d, uint16_t lid,
				    uint16_t src_ep, uint16_t dst_ep,
				    uint32_t start_psn, uint64_t len,
				    sim_mrt_emit_fn emit, void *ectx,
				    sim_mrt_arm_fn arm, void *user);
/* Sends what it may. */
void sim_mrt_snd_push(struct sim_mrt_snd *s, uint64_t now);
/* mrt's DATA header, bytes (wire.h's MRT_DATA_HDR_LEN) */
#define SIM_MRT_DATA_HDR_LEN	40

/* The mrt DATA packet whose headers (from mrt's header on) are hdr, of
 * len bytes: its sender's PDC id and PSN; -1 if it is not one.
 */
int sim_mrt_data_ids(const uint8_t *hdr, unsigned int len, uint16_t *spdcid,
		     uint32_t *psn);
/* s's packet psn finished serializing onto the host's link at now:
 * pdc.c's departure stamp (mrt_snd_departed()).
 */
void sim_mrt_snd_departed(struct sim_mrt_snd *s, uint32_t psn, uint64_t now);
/* An ACK, NACK or probe answer for it (hdr: at least the header's bytes,
 * len: the datagram's), then the destination's waiters.
 */
void sim_mrt_snd_rx(struct sim_mrt_snd *s, const uint8_t *hdr,
		    unsigned int len, uint64_t now);
/* Its timer fired. */
void sim_mrt_snd_timer(struct sim_mrt_snd *s, uint64_t now);
/* Every byte acknowledged; failed: the PDC gave up (its errno) */
bool sim_mrt_snd_done(const struct sim_mrt_snd *s);
int sim_mrt_snd_failed(const struct sim_mrt_snd *s);

struct sim_mrt_snd_stats {
	uint64_t pkts, retx, rtx_sack, sack_false, rtx_trim, rtx_rto, rto_events;
	uint64_t trims, ecn, nacks, probes;
	uint64_t qa;
};

void sim_mrt_snd_stats(const struct sim_mrt_snd *s, struct sim_mrt_snd_stats *st);
/* Data bytes (payload) sent on EV i, first transmissions and again. */
uint64_t sim_mrt_snd_ev_bytes(const struct sim_mrt_snd *s, unsigned int i);

/* A peek at a datagram's header: whom it is for, and the PDC id that
 * names it (a DATA packet's source PDC; the others' destination PDC);
 * -1: malformed.
 */
enum { SIM_MRT_TO_RCV_DATA, SIM_MRT_TO_RCV, SIM_MRT_TO_SND };

int sim_mrt_peek(const uint8_t *hdr, unsigned int len, uint16_t *pdcid);

/* A host's receiving socket: a receive buffer of rcvbuf bytes that the
 * application reads at app_bps (0: at once, so it never fills).  Its
 * occupancy gives the ACKs' receiver penalty (uet) and a packet that does
 * not fit is NACKed NO_RESOURCE, as mrt.ko's socket does.
 */
struct sim_mrt_sock;
struct sim_mrt_sock *sim_mrt_sock_new(uint64_t rcvbuf, uint64_t app_bps);

struct sim_mrt_sock_stats {
	uint64_t pen_acks;		/* ACKs that carried a penalty */
	uint64_t no_resource;		/* NACKed: the buffer was full */
	uint64_t peak;			/* bytes */
};

void sim_mrt_sock_stats(const struct sim_mrt_sock *k, struct sim_mrt_sock_stats *st);

/* The receiving PDC lid, on socket k, for a sender's PDC rid. */
struct sim_mrt_rcv *sim_mrt_rcv_new(struct sim_mrt_net *net, struct sim_mrt_sock *k,
				    uint16_t lid, uint16_t rid);
/* A data packet (tos: as it arrived, DSCP and ECN).  *delivered: the
 * payload bytes that reached the message for the first time; *dup: bytes
 * of it that had reached it before (never, if the PSN window works).
 */
void sim_mrt_rcv_data(struct sim_mrt_rcv *r, const uint8_t *hdr,
		      unsigned int len, uint8_t tos, uint16_t sport, uint64_t now,
		      sim_mrt_emit_fn emit, void *ctx, uint64_t *delivered,
		      uint64_t *dup);
/* A probe for receiving PDC r: answered on its EV. */
void sim_mrt_rcv_probe(struct sim_mrt_rcv *r, const uint8_t *hdr,
		       unsigned int len, sim_mrt_emit_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* FABSIM_MRTSIM_H */

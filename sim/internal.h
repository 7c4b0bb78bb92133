/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabsim's C side, internal (C only).
 */
#ifndef FABSIM_INTERNAL_H
#define FABSIM_INTERNAL_H

#include <stddef.h>

#include <net/fabric/attr.h>
#include <net/fabric/nscc.h>

/* "name=value" into v[] by descs (sim/cores.c): 0, or -1 with err filled. */
int sim_attr_apply(const struct fabric_attr_desc *descs, unsigned int n, u32 *v,
		   const char *set, char *err, size_t errlen);

/*
 * The NSCC core's entry points as fabsim links them (ld --wrap, the
 * Makefile's SIM_WRAP): a call of nscc_on_X() reaches __wrap_nscc_on_X()
 * (sim/mrtsim.c), which calls the core's own, __real_nscc_on_X().
 */
enum nscc_routine __real_nscc_on_ack(struct nscc *n, u64 now, const struct nscc_ack *a);
enum nscc_routine __real_nscc_on_cack(struct nscc *n, u64 bytes);
enum nscc_routine __real_nscc_on_trim(struct nscc *n, u64 now, u64 bytes, u64 rtt);
enum nscc_routine __real_nscc_on_nack(struct nscc *n, u64 now, u64 bytes, u64 rtt);
enum nscc_routine __real_nscc_on_loss(struct nscc *n, u64 bytes);
enum nscc_routine __real_nscc_on_send(struct nscc *n, u64 bytes);
enum nscc_routine __wrap_nscc_on_ack(struct nscc *n, u64 now, const struct nscc_ack *a);
enum nscc_routine __wrap_nscc_on_cack(struct nscc *n, u64 bytes);
enum nscc_routine __wrap_nscc_on_trim(struct nscc *n, u64 now, u64 bytes, u64 rtt);
enum nscc_routine __wrap_nscc_on_nack(struct nscc *n, u64 now, u64 bytes, u64 rtt);
enum nscc_routine __wrap_nscc_on_loss(struct nscc *n, u64 bytes);
enum nscc_routine __wrap_nscc_on_send(struct nscc *n, u64 bytes);
void __real_nscc_on_probe_rtt(struct nscc *n, u64 rtt_ns);
void __wrap_nscc_on_probe_rtt(struct nscc *n, u64 rtt_ns);

#endif /* FABSIM_INTERNAL_H */

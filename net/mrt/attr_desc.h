/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What builds a descriptor of one of mrt's attributes from its row of
 * mrt_attrs.h (or nscc_attrs.h): the value names of its enum kinds.  One
 * header for the module's table (net/mrt/main.c) and the userspace builds
 * of it (the attribute fuzzer, fabsim).
 */
#ifndef _MRT_ATTR_DESC_H
#define _MRT_ATTR_DESC_H

#include <net/fabric/attr.h>
#include <net/fabric/nscc.h>

#include "engine.h"
#include "ev.h"

#define FABRIC_ATTR_KIND_EV_POLICY	FABRIC_ATTR_ENUM
#define FABRIC_ATTR_FLAGS_EV_POLICY	0
#define FABRIC_ATTR_KIND_TRIM		FABRIC_ATTR_ENUM
#define FABRIC_ATTR_FLAGS_TRIM		0

#define MRT_NAMES_U32		NULL
#define MRT_NAMES_LIMIT		NULL
#define MRT_NAMES_BOOL		NULL
#define MRT_NAMES_FLAVOUR	nscc_flavour_names
#define MRT_NAMES_EV_POLICY	mrt_ev_policy_names
#define MRT_NAMES_TRIM		mrt_trim_names

/* ev_policy's values, enum mrt_ev_policy (net/mrt/ev.h). */
static const char * const mrt_ev_policy_names[] = {
	[MRT_EV_RR] = "rr",
	[MRT_EV_REPS] = "reps",
};

/* mrt's trimming_enabled: 0 and 1 are numbers, MRT_TRIM_AUTO a name. */
static const char * const mrt_trim_names[] = {
	[MRT_TRIM_AUTO] = "auto",
};

#define MRT_ATTR_DESC(name, kind, def, lo, hi, unit, help)		\
	FABRIC_ATTR_DESC(name, kind, def, lo, hi, unit, help, MRT_NAMES_##kind)

#endif /* _MRT_ATTR_DESC_H */

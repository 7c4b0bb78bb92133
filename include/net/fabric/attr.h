/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribute descriptors: one table per module describes each user-facing
 * knob once (name, kind, default, range, help).  From it the kernel side
 * (net/fabric/, declared in include/net/fabric/module.h) makes module
 * parameters, per-netns sysctls and the fabric generic netlink family's
 * attributes; userspace tools (ccreplay --set) parse the same names with
 * the same rules.
 *
 * Names are the spec pages' attribute names in snake_case with the unit in
 * the name; fractions are thousandths.  The table is an X-macro list of the
 * algorithm's (e.g. include/net/fabric/nscc_attrs.h), so the
 * descriptor array, the value array's indices and the module parameters
 * cannot drift apart.
 *
 * This header is pure C, shared by kernel and userspace (tools/include
 * supplies the few kernel headers it needs to userspace builds).
 */
#ifndef _NET_FABRIC_ATTR_H
#define _NET_FABRIC_ATTR_H

#include <net/fabric/core.h>

#include <linux/errno.h>
#include <linux/string.h>

enum fabric_attr_kind {
	FABRIC_ATTR_U32,	/* a number in the unit its name ends with */
	FABRIC_ATTR_BOOL,	/* 0 or 1 */
	FABRIC_ATTR_ENUM,	/* written and read by name; a number also works */
};

/*
 * Flags of an attribute (struct fabric_attr_desc.flags; the same bits as
 * the uapi's enum fabric_attr_flags).
 *
 * FABRIC_ATTR_F_LIMIT: a resource limit, a number whose larger values let
 * a namespace make the kernel hold more (PDCs, message bytes, a PSN
 * window, an idle PDC's lifetime).  In a network namespace owned by a user
 * namespace other than the initial one, no write may raise a limit above
 * init_net's value of it, and a new such namespace starts each limit at
 * the smaller of the module parameter and init_net's value
 * (net/fabric/attr.c).  Module parameters, which are global, are not
 * affected.
 */
#define FABRIC_ATTR_F_LIMIT	BIT(0)

struct fabric_attr_desc {
	const char *name;
	const char *help;
	const char * const *names;	/* FABRIC_ATTR_ENUM: value names */
	const char *unit;		/* "ns", "Mbit/s", "thousandths", ... */
	u32 def;
	u32 min;
	u32 max;
	u8 kind;
	u8 flags;			/* FABRIC_ATTR_F_* */
};

/*
 * The kinds as the X-macro lists spell them, each with its flags, so that
 * a row stays one row and marking it is one word: LIMIT is a U32 that is
 * a resource limit.  A table that uses a kind with enum names defines its
 * <TABLE>_NAMES_<kind> too (net/mrt/attr_desc.h).
 */
#define FABRIC_ATTR_KIND_U32		FABRIC_ATTR_U32
#define FABRIC_ATTR_KIND_BOOL		FABRIC_ATTR_BOOL
#define FABRIC_ATTR_KIND_FLAVOUR	FABRIC_ATTR_ENUM
#define FABRIC_ATTR_KIND_LIMIT		FABRIC_ATTR_U32

#define FABRIC_ATTR_FLAGS_U32		0
#define FABRIC_ATTR_FLAGS_BOOL		0
#define FABRIC_ATTR_FLAGS_FLAVOUR	0
#define FABRIC_ATTR_FLAGS_LIMIT		FABRIC_ATTR_F_LIMIT

/* Builds one struct fabric_attr_desc from an X-macro row. */
#define FABRIC_ATTR_DESC(_name, _kind, _def, _lo, _hi, _unit, _help, _names) \
	{								\
		.name = #_name, .help = _help, .names = (_names),	\
		.unit = (_unit),					\
		.def = (_def), .min = (_lo), .max = (_hi),		\
		.kind = FABRIC_ATTR_KIND_##_kind,			\
		.flags = FABRIC_ATTR_FLAGS_##_kind,			\
	}

/*
 * Parses text (a decimal number, or for an enum one of its names) into *val
 * and checks the range.  Returns 0, or -EINVAL with *why set to a message
 * fit for a user (a value out of range is EINVAL too, as sysctls report
 * it).  Trailing newlines (from echo) are accepted.
 */
static inline int fabric_attr_parse(const struct fabric_attr_desc *d,
				    const char *s, u32 *val, const char **why)
{
	size_t len = strlen(s);
	u64 v = 0;
	size_t i;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!len) {
		*why = "empty value";
		return -EINVAL;
	}
	if (d->kind == FABRIC_ATTR_ENUM && d->names) {
		for (i = 0; i <= d->max; i++) {
			if (d->names[i] && strlen(d->names[i]) == len &&
			    !strncmp(d->names[i], s, len)) {
				*val = i;
				return 0;
			}
		}
	}
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			*why = d->kind == FABRIC_ATTR_ENUM ?
			       "not one of the value names" :
			       "not a decimal number";
			return -EINVAL;
		}
		v = v * 10 + (u64)(s[i] - '0');
		if (v > U32_MAX) {
			*why = "value out of range";
			return -EINVAL;
		}
	}
	if (v < d->min || v > d->max) {
		*why = "value out of range";
		return -EINVAL;
	}
	*val = (u32)v;
	return 0;
}

/* The text form of a value: the name for an enum, else NULL (a number). */
static inline const char *fabric_attr_name_of(const struct fabric_attr_desc *d,
					      u32 val)
{
	if (d->kind == FABRIC_ATTR_ENUM && d->names && val <= d->max)
		return d->names[val];
	return NULL;
}

#endif /* _NET_FABRIC_ATTR_H */

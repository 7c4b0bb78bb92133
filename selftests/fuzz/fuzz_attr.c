// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the attribute parser every write goes through
 * (fabric_attr_parse(), include/net/fabric/attr.h: sysctls, module
 * parameters, the netlink text form, ccreplay --set), over every
 * attribute of every table (nscc, dcqcn, swift, mrt).  The first byte
 * picks the attribute; the rest, up to a NUL, is the text.  Against a
 * plain reference: a decimal number or, for an enum, one of its names,
 * trailing newlines and spaces allowed, within [min, max]; a refusal says
 * why; what is accepted prints back (a name or decimal) to text that
 * parses to the same value.
 */
#include <stdbool.h>
#include <string.h>

#include <net/fabric/attr.h>
#include <net/fabric/dcqcn.h>
#include <net/fabric/nscc.h>
#include <net/fabric/swift.h>

#include "../../net/mrt/attr_desc.h"
#include "fuzz.h"

/* mrt's table as net/mrt/main.c builds it */
#define MRT_ATTR(_name, _kind, _def, _lo, _hi, _unit, _help)		\
	MRT_ATTR_DESC(_name, _kind, _def, _lo, _hi, _unit, _help),

static const struct fabric_attr_desc mrt_descs[] = {
#include "../../net/mrt/mrt_attrs.h"
};

#undef MRT_ATTR

static const struct {
	const struct fabric_attr_desc *d;
	unsigned int n;
} tables[] = {
	{ nscc_attr_descs, NSCC_ATTR_COUNT },
	{ dcqcn_attr_descs, DCQCN_ATTR_COUNT },
	{ swift_attr_descs, SWIFT_ATTR_COUNT },
	{ mrt_descs, ARRAY_SIZE(mrt_descs) },
};

/* The reference: 1 and *val, or 0. */
static int ref_parse(const struct fabric_attr_desc *d, const char *s, u32 *val)
{
	size_t len = strlen(s), i;
	unsigned long long v = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!len)
		return 0;
	if (d->kind == FABRIC_ATTR_ENUM && d->names)
		for (i = 0; i <= d->max; i++)
			if (d->names[i] && strlen(d->names[i]) == len &&
			    !memcmp(d->names[i], s, len)) {
				*val = (u32)i;
				return 1;
			}
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned long long)(s[i] - '0');
		if (v > 0xffffffffULL)
			return 0;
	}
	if (v < d->min || v > d->max)
		return 0;
	*val = (u32)v;
	return 1;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static unsigned int total;
	const struct fabric_attr_desc *d;
	const char *why = NULL, *name;
	char text[256], back[64];
	unsigned int i, pick;
	u32 v = 0xdeadbeef, w = 0, r = 0;
	int rc, ok;

	if (!total)
		for (i = 0; i < ARRAY_SIZE(tables); i++)
			total += tables[i].n;
	if (!size)
		return 0;
	pick = data[0] % total;
	for (i = 0; pick >= tables[i].n; i++)
		pick -= tables[i].n;
	d = &tables[i].d[pick];
	size = size - 1 < sizeof(text) - 1 ? size - 1 : sizeof(text) - 1;
	memcpy(text, data + 1, size);
	text[size] = '\0';

	rc = fabric_attr_parse(d, text, &v, &why);
	ok = ref_parse(d, text, &r);
	FUZZ_ASSERT(rc == 0 || rc == -EINVAL, "%s: rc %d", d->name, rc);
	FUZZ_ASSERT((rc == 0) == ok, "%s \"%s\": parser %d, reference %d", d->name,
		    text, rc, ok);
	if (rc) {
		FUZZ_ASSERT(why && *why, "%s: a refusal without a reason", d->name);
		FUZZ_ASSERT(v == 0xdeadbeef, "%s: a refusal wrote the value", d->name);
		return 0;
	}
	FUZZ_ASSERT(v == r && v >= d->min && v <= d->max,
		    "%s \"%s\": %u, reference %u, range %u..%u", d->name, text,
		    v, r, d->min, d->max);
	name = fabric_attr_name_of(d, v);
	if (name)
		snprintf(back, sizeof(back), "%s", name);
	else
		snprintf(back, sizeof(back), "%u", v);
	FUZZ_ASSERT(!fabric_attr_parse(d, back, &w, &why) && w == v,
		    "%s: %u prints as \"%s\", which parses to %u", d->name, v, back, w);
	return 0;
}

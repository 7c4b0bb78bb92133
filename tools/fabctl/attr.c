// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl attr show [MODULE [NAME]] and fabctl attr set MODULE NAME=VALUE...
 *
 * show collects every reply (FABRIC_CMD_ATTR_GET: a dump, or with NAME a
 * do) into rows, copying what it keeps, then prints them: as a table whose
 * columns are as wide as their widest cell, or as a JSON array.  An enum
 * is printed by name, from the FABRIC_ATTR_A_ENUM_NAMES the reply carries,
 * and a limit (FABRIC_ATTR_FLAG_LIMIT) is marked "(limit)".
 *
 * set sends one FABRIC_CMD_ATTR_SET with a FABRIC_A_ATTR nest (NAME, TEXT)
 * per argument and waits for the ACK: the kernel applies all or none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fabric.h>

#include "fabctl.h"

/* Enum values beyond this many names are printed as numbers. */
#define ATTR_ENUM_MAX	256

const enum mnl_attr_data_type fabric_policy[FABRIC_A_MAX + 1] = {
	[FABRIC_A_MODULE]	= MNL_TYPE_NUL_STRING,
	[FABRIC_A_ATTR]		= MNL_TYPE_NESTED,
	[FABRIC_A_STAT]		= MNL_TYPE_NESTED,
	[FABRIC_A_NETNS_INUM]	= MNL_TYPE_U32,
};

const enum mnl_attr_data_type fabric_attr_policy[FABRIC_ATTR_A_MAX + 1] = {
	[FABRIC_ATTR_A_NAME]		= MNL_TYPE_NUL_STRING,
	[FABRIC_ATTR_A_VALUE]		= MNL_TYPE_U32,
	[FABRIC_ATTR_A_DEFAULT]		= MNL_TYPE_U32,
	[FABRIC_ATTR_A_GLOBAL]		= MNL_TYPE_U32,
	[FABRIC_ATTR_A_MIN_VALUE]	= MNL_TYPE_U32,
	[FABRIC_ATTR_A_MAX_VALUE]	= MNL_TYPE_U32,
	[FABRIC_ATTR_A_KIND]		= MNL_TYPE_U8,
	[FABRIC_ATTR_A_UNIT]		= MNL_TYPE_NUL_STRING,
	[FABRIC_ATTR_A_HELP]		= MNL_TYPE_NUL_STRING,
	[FABRIC_ATTR_A_ENUM_NAMES]	= MNL_TYPE_NESTED,
	[FABRIC_ATTR_A_OLD]		= MNL_TYPE_U32,
	[FABRIC_ATTR_A_TEXT]		= MNL_TYPE_NUL_STRING,
	[FABRIC_ATTR_A_FLAGS]		= MNL_TYPE_U32,
};

/* The u32 attributes a row keeps, in the order of enum attr_num. */
enum attr_num {
	NUM_VALUE,
	NUM_DEFAULT,
	NUM_GLOBAL,
	NUM_MIN,
	NUM_MAX,
	NUM_COUNT
};

static const uint16_t attr_num_type[NUM_COUNT] = {
	[NUM_VALUE]	= FABRIC_ATTR_A_VALUE,
	[NUM_DEFAULT]	= FABRIC_ATTR_A_DEFAULT,
	[NUM_GLOBAL]	= FABRIC_ATTR_A_GLOBAL,
	[NUM_MIN]	= FABRIC_ATTR_A_MIN_VALUE,
	[NUM_MAX]	= FABRIC_ATTR_A_MAX_VALUE,
};

struct attr_row {
	char *module;
	char *name;
	char *unit;			/* "" if the reply has none */
	char *help;			/* "" if the reply has none */
	char **enum_names;		/* [i]: the name of value i, or NULL */
	unsigned int nenum;
	int kind;			/* FABRIC_KIND_*, or -1: none given */
	int64_t flags;			/* FABRIC_ATTR_FLAG_*, or -1: none given */
	uint32_t netns_inum;		/* 0: none given */
	uint32_t num[NUM_COUNT];
	bool has[NUM_COUNT];
};

struct attr_rows {
	struct attr_row *v;
	size_t n, cap;
	uint16_t family;
};

static void attr_row_free(struct attr_row *r)
{
	unsigned int i;

	free(r->module);
	free(r->name);
	free(r->unit);
	free(r->help);
	for (i = 0; i < r->nenum; i++)
		free(r->enum_names[i]);
	free(r->enum_names);
}

static void attr_rows_free(struct attr_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++)
		attr_row_free(&rows->v[i]);
	free(rows->v);
}

static int enum_name_cb(const struct nlattr *attr, void *data)
{
	struct attr_row *r = data;
	uint16_t type = mnl_attr_get_type(attr);
	unsigned int i;
	char **names;

	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return nl_bad_reply("enum name %u of attribute %s", type,
				    r->name);
	/* Type i + 1 names value i; 0 is no value's. */
	if (!type || type > ATTR_ENUM_MAX)
		return 0;
	if (type > r->nenum) {
		names = realloc(r->enum_names, type * sizeof(*names));
		if (!names)
			return nl_fail(ENOMEM, "out of memory");
		for (i = r->nenum; i < type; i++)
			names[i] = NULL;
		r->enum_names = names;
		r->nenum = type;
	}
	free(r->enum_names[type - 1]);
	r->enum_names[type - 1] = strdup(mnl_attr_get_str(attr));
	if (!r->enum_names[type - 1])
		return nl_fail(ENOMEM, "out of memory");
	return 0;
}

static char *dup_attr_str(const struct nlattr *attr)
{
	return strdup(attr ? mnl_attr_get_str(attr) : "");
}

static int attr_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[FABRIC_A_MAX + 1], *at[FABRIC_ATTR_A_MAX + 1];
	struct attr_rows *rows = data;
	const struct nlattr *names;
	struct attr_row *r;
	const void *attrs;
	size_t len;
	int i;

	if (genl_attrs(nlh, rows->family, &attrs, &len) < 0 ||
	    nl_parse(attrs, len, fabric_policy, FABRIC_A_MAX, tb,
		     "FABRIC_CMD_ATTR_GET") < 0)
		return MNL_CB_ERROR;
	if (!tb[FABRIC_A_MODULE] || !tb[FABRIC_A_ATTR])
		return nl_bad_reply("FABRIC_CMD_ATTR_GET without FABRIC_A_MODULE or FABRIC_A_ATTR");
	if (nl_parse_nest(tb[FABRIC_A_ATTR], fabric_attr_policy,
			  FABRIC_ATTR_A_MAX, at, "FABRIC_A_ATTR") < 0)
		return MNL_CB_ERROR;
	if (!at[FABRIC_ATTR_A_NAME])
		return nl_bad_reply("FABRIC_A_ATTR without FABRIC_ATTR_A_NAME");

	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 64;
		struct attr_row *v = realloc(rows->v, cap * sizeof(*v));

		if (!v)
			return nl_fail(ENOMEM, "out of memory");
		rows->v = v;
		rows->cap = cap;
	}
	r = &rows->v[rows->n++];
	memset(r, 0, sizeof(*r));
	r->module = dup_attr_str(tb[FABRIC_A_MODULE]);
	r->name = dup_attr_str(at[FABRIC_ATTR_A_NAME]);
	r->unit = dup_attr_str(at[FABRIC_ATTR_A_UNIT]);
	r->help = dup_attr_str(at[FABRIC_ATTR_A_HELP]);
	if (!r->module || !r->name || !r->unit || !r->help)
		return nl_fail(ENOMEM, "out of memory");
	if (tb[FABRIC_A_NETNS_INUM])
		r->netns_inum = mnl_attr_get_u32(tb[FABRIC_A_NETNS_INUM]);
	r->kind = at[FABRIC_ATTR_A_KIND] ?
		  mnl_attr_get_u8(at[FABRIC_ATTR_A_KIND]) : -1;
	r->flags = -1;
	if (at[FABRIC_ATTR_A_FLAGS])
		r->flags = mnl_attr_get_u32(at[FABRIC_ATTR_A_FLAGS]);
	for (i = 0; i < NUM_COUNT; i++) {
		if (!at[attr_num_type[i]])
			continue;
		r->num[i] = mnl_attr_get_u32(at[attr_num_type[i]]);
		r->has[i] = true;
	}
	names = at[FABRIC_ATTR_A_ENUM_NAMES];
	if (names && nl_walk(mnl_attr_get_payload(names),
			     mnl_attr_get_payload_len(names), enum_name_cb, r,
			     "FABRIC_ATTR_A_ENUM_NAMES") < 0)
		return MNL_CB_ERROR;
	return MNL_CB_OK;
}

static const char *attr_kind_name(int kind)
{
	switch (kind) {
	case FABRIC_KIND_U32:
		return "u32";
	case FABRIC_KIND_BOOL:
		return "bool";
	case FABRIC_KIND_ENUM:
		return "enum";
	default:
		return "unknown";
	}
}

/* A resource limit (held to the initial namespace's in a user namespace's). */
static bool attr_limit(const struct attr_row *r)
{
	return r->flags >= 0 && (r->flags & FABRIC_ATTR_FLAG_LIMIT);
}

/* An enum value's name, or NULL: print the number. */
static const char *attr_enum_name(const struct attr_row *r, uint32_t v)
{
	if (r->kind != FABRIC_KIND_ENUM || v >= r->nenum)
		return NULL;
	return r->enum_names[v];
}

/* The text of num[i]: an enum's name, or the number; "-" if absent. */
static const char *attr_text(const struct attr_row *r, enum attr_num i,
			     char *buf, size_t size)
{
	const char *name;

	if (!r->has[i])
		return "-";
	name = attr_enum_name(r, r->num[i]);
	if (name)
		return name;
	snprintf(buf, size, "%u", r->num[i]);
	return buf;
}

enum attr_col {
	COL_MODULE,
	COL_NAME,
	COL_VALUE,
	COL_UNIT,
	COL_DEFAULT,
	COL_RANGE,
	COL_GLOBAL,
	COL_LIMIT,
	COL_HELP,
	COL_COUNT
};

/*
 * One row of the table.  The cells point into the row or into the
 * buffers here (an enum name longer than a buffer is cut, never overrun).
 */
struct attr_cells {
	const char *cell[COL_COUNT];
	char value[FABRIC_ATTR_NAME_MAX];
	char def[FABRIC_ATTR_NAME_MAX + 16];
	char range[2 * FABRIC_ATTR_NAME_MAX + 16];
	char global[FABRIC_ATTR_NAME_MAX + 16];
};

static void attr_cells(const struct attr_row *r, struct attr_cells *c)
{
	char a[16], b[16];

	c->cell[COL_MODULE] = r->module;
	c->cell[COL_NAME] = r->name;
	snprintf(c->value, sizeof(c->value), "%s",
		 attr_text(r, NUM_VALUE, a, sizeof(a)));
	c->cell[COL_VALUE] = c->value;
	c->cell[COL_UNIT] = r->unit[0] ? r->unit : "-";
	snprintf(c->def, sizeof(c->def), "default %s",
		 attr_text(r, NUM_DEFAULT, a, sizeof(a)));
	c->cell[COL_DEFAULT] = c->def;
	if (r->has[NUM_MIN] && r->has[NUM_MAX])
		snprintf(c->range, sizeof(c->range), "range %s..%s",
			 attr_text(r, NUM_MIN, a, sizeof(a)),
			 attr_text(r, NUM_MAX, b, sizeof(b)));
	else
		snprintf(c->range, sizeof(c->range), "range -");
	c->cell[COL_RANGE] = c->range;
	/* The module parameter, only where this namespace differs from it. */
	c->global[0] = '\0';
	if (r->has[NUM_GLOBAL] &&
	    (!r->has[NUM_VALUE] || r->num[NUM_GLOBAL] != r->num[NUM_VALUE]))
		snprintf(c->global, sizeof(c->global), "(global %s)",
			 attr_text(r, NUM_GLOBAL, a, sizeof(a)));
	c->cell[COL_GLOBAL] = c->global;
	c->cell[COL_LIMIT] = attr_limit(r) ? "(limit)" : "";
	c->cell[COL_HELP] = r->help;
}

static int attr_print_text(FILE *f, const struct attr_rows *rows)
{
	size_t width[COL_COUNT] = { 0 }, i, len;
	struct attr_cells *cells;
	int c, last;

	if (!rows->n)
		return 0;
	cells = calloc(rows->n, sizeof(*cells));
	if (!cells)
		return -1;
	for (i = 0; i < rows->n; i++) {
		attr_cells(&rows->v[i], &cells[i]);
		for (c = 0; c < COL_COUNT; c++) {
			len = strlen(cells[i].cell[c]);
			if (len > width[c])
				width[c] = len;
		}
	}
	for (i = 0; i < rows->n; i++) {
		const char *const *cell = cells[i].cell;

		/* No padding after the last cell that has text. */
		for (last = COL_HELP; last > COL_RANGE; last--)
			if (cell[last][0])
				break;
		for (c = 0; c < last; c++)
			if (width[c])
				fprintf(f, "%-*s ", (int)width[c], cell[c]);
		fprintf(f, "%s\n", cell[last]);
	}
	free(cells);
	return 0;
}

static void attr_print_json(struct json *j, const struct attr_row *r)
{
	static const char *const keys[NUM_COUNT] = {
		[NUM_VALUE] = "value", [NUM_DEFAULT] = "default",
		[NUM_GLOBAL] = "global", [NUM_MIN] = "min", [NUM_MAX] = "max",
	};
	const char *name;
	unsigned int i;

	json_begin_object(j);
	json_kv_string(j, "module", r->module);
	json_kv_string(j, "name", r->name);
	if (r->has[NUM_VALUE]) {
		json_kv_u64(j, "value", r->num[NUM_VALUE]);
		name = attr_enum_name(r, r->num[NUM_VALUE]);
		if (name)
			json_kv_string(j, "value_name", name);
	}
	json_kv_string(j, "unit", r->unit);
	for (i = NUM_DEFAULT; i < NUM_COUNT; i++)
		if (r->has[i])
			json_kv_u64(j, keys[i], r->num[i]);
	json_kv_string(j, "kind", attr_kind_name(r->kind));
	if (r->flags >= 0)
		json_kv_raw(j, "limit", attr_limit(r) ? "true" : "false");
	json_kv_string(j, "help", r->help);
	if (r->netns_inum)
		json_kv_u64(j, "netns_inum", r->netns_inum);
	if (r->kind == FABRIC_KIND_ENUM) {
		json_key(j, "enum_names");
		json_begin_array(j);
		for (i = 0; i < r->nenum; i++) {
			if (r->enum_names[i])
				json_string(j, r->enum_names[i]);
			else
				json_null(j);
		}
		json_end_array(j);
	}
	json_end_object(j);
}

static int attr_show(struct fabctl *fc, int argc, char **argv)
{
	struct attr_rows rows = { 0 };
	struct genl_family fam;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nl_sock s;
	struct json j;
	size_t i;
	int ret;

	if (argc > 2) {
		usage_error("attr show: unexpected argument \"%s\"", argv[2]);
		return FABCTL_EXIT_USAGE;
	}
	if (fabric_open(&s, &fam, false) < 0)
		return FABCTL_EXIT_ERROR;
	rows.family = fam.id;
	nlh = genl_req(&s, fam.id, FABRIC_CMD_ATTR_GET, FABRIC_GENL_VERSION,
		       argc == 2 ? NLM_F_ACK : NLM_F_DUMP);
	if (argc >= 1)
		mnl_attr_put_strz(nlh, FABRIC_A_MODULE, argv[0]);
	if (argc == 2) {
		nest = mnl_attr_nest_start(nlh, FABRIC_A_ATTR);
		mnl_attr_put_strz(nlh, FABRIC_ATTR_A_NAME, argv[1]);
		mnl_attr_nest_end(nlh, nest);
	}
	ret = nl_talk(&s, nlh, attr_show_cb, &rows);
	nl_close(&s);
	if (ret < 0) {
		nl_perror("attr show");
		attr_rows_free(&rows);
		return FABCTL_EXIT_ERROR;
	}
	if (fc->json) {
		json_init(&j, fc->out, fc->pretty);
		json_begin_array(&j);
		for (i = 0; i < rows.n; i++)
			attr_print_json(&j, &rows.v[i]);
		json_end_array(&j);
	} else if (attr_print_text(fc->out, &rows) < 0) {
		fprintf(stderr, "fabctl: attr show: out of memory\n");
		ret = -1;
	}
	attr_rows_free(&rows);
	return ret < 0 ? FABCTL_EXIT_ERROR : FABCTL_EXIT_OK;
}

static int attr_set(struct fabctl *fc, int argc, char **argv)
{
	const char *module, *arg, *eq;
	struct genl_family fam;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char name[FABRIC_ATTR_NAME_MAX];
	struct nl_sock s;
	int i, ret;

	if (!argc) {
		usage_error("attr set: no MODULE given");
		return FABCTL_EXIT_USAGE;
	}
	if (argc < 2) {
		usage_error("attr set %s: no NAME=VALUE given", argv[0]);
		return FABCTL_EXIT_USAGE;
	}
	module = argv[0];
	/* Checked before anything is sent: a bad argument changes nothing. */
	for (i = 1; i < argc; i++) {
		arg = argv[i];
		eq = strchr(arg, '=');
		if (!eq || eq == arg) {
			fprintf(stderr,
				"fabctl: attr set %s: \"%s\": expected NAME=VALUE\n",
				module, arg);
			return FABCTL_EXIT_ERROR;
		}
		if ((size_t)(eq - arg) >= FABRIC_ATTR_NAME_MAX) {
			fprintf(stderr,
				"fabctl: attr set %s: \"%.*s\": names are at most %d characters\n",
				module, (int)(eq - arg), arg,
				FABRIC_ATTR_NAME_MAX - 1);
			return FABCTL_EXIT_ERROR;
		}
		if (strlen(eq + 1) >= FABRIC_ATTR_TEXT_MAX) {
			fprintf(stderr,
				"fabctl: attr set %s: \"%s\": values are at most %d characters\n",
				module, arg, FABRIC_ATTR_TEXT_MAX - 1);
			return FABCTL_EXIT_ERROR;
		}
	}
	if (fabric_open(&s, &fam, false) < 0)
		return FABCTL_EXIT_ERROR;
	nlh = genl_req(&s, fam.id, FABRIC_CMD_ATTR_SET, FABRIC_GENL_VERSION,
		       NLM_F_ACK);
	ret = mnl_attr_put_strz_check(nlh, NL_BUF_SIZE, FABRIC_A_MODULE,
				      module) ? 0 : -1;
	for (i = 1; i < argc && !ret; i++) {
		arg = argv[i];
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
		nest = mnl_attr_nest_start_check(nlh, NL_BUF_SIZE,
						 FABRIC_A_ATTR);
		if (!nest ||
		    !mnl_attr_put_strz_check(nlh, NL_BUF_SIZE,
					     FABRIC_ATTR_A_NAME, name) ||
		    !mnl_attr_put_strz_check(nlh, NL_BUF_SIZE,
					     FABRIC_ATTR_A_TEXT, eq + 1))
			ret = -1;
		else
			mnl_attr_nest_end(nlh, nest);
	}
	if (ret) {
		fprintf(stderr,
			"fabctl: attr set: too many NAME=VALUE arguments for one request\n");
		nl_close(&s);
		return FABCTL_EXIT_ERROR;
	}
	ret = nl_talk(&s, nlh, NULL, NULL);
	nl_close(&s);
	if (ret < 0) {
		nl_perror("attr set");
		return FABCTL_EXIT_ERROR;
	}
	return FABCTL_EXIT_OK;
}

int cmd_attr(struct fabctl *fc, int argc, char **argv)
{
	/* "fabctl attr" alone is attr show, as "ip addr" is. */
	if (!argc || !strcmp(argv[0], "show"))
		return attr_show(fc, argc ? argc - 1 : 0, argv + !!argc);
	if (!strcmp(argv[0], "set"))
		return attr_set(fc, argc - 1, argv + 1);
	usage_error("attr: unknown subcommand \"%s\" (show, set)", argv[0]);
	return FABCTL_EXIT_USAGE;
}

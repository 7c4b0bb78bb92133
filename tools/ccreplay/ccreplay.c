// SPDX-License-Identifier: GPL-2.0
/*
 * ccreplay - run a congestion-control core over a trace of signals.
 *
 *   ccreplay --algo nscc|dcqcn|swift [--flavour mrc|uet] [--mtu BYTES]
 *            [--init-cwnd MILLI] [--set NAME=VALUE ...] < TRACE
 *
 * TRACE has one event per line, "T_NS EVENT [key=value ...]", with '#'
 * starting a comment.  Time must not go backwards.  One output row per
 * event, after a header line.  NAME is the attribute's sysctl name; the
 * same parser as the kernel's sysctls checks it (include/net/fabric/attr.h).
 * Any bad line stops the replay with its line number and exit status 1,
 * among them a value beyond what the core takes (see --help: "Limits").
 *
 * The cores are the kernel modules' own source files, compiled unchanged.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccreplay.h"

static const struct ccr_algo *const ccr_algos[] = {
	&ccr_algo_nscc,
	&ccr_algo_dcqcn,
	&ccr_algo_swift,
};

bool ccr_get(struct ccr_event *ev, const char *key, u64 *val)
{
	int i;

	for (i = 0; i < ev->nkv; i++) {
		if (!strcmp(ev->kv[i].key, key)) {
			ev->kv[i].used = true;
			*val = ev->kv[i].val;
			return true;
		}
	}
	return false;
}

int ccr_get_max(struct ccr_event *ev, const char *key, u64 *val, u64 max,
		const char **why)
{
	static char msg[128];
	u64 v;

	if (!ccr_get(ev, key, &v))
		return 0;
	if (v > max) {
		snprintf(msg, sizeof(msg), "%s=%llu is above the limit %llu",
			 key, (unsigned long long)v, (unsigned long long)max);
		*why = msg;
		return -EINVAL;
	}
	*val = v;
	return 1;
}

static void print_usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
		"usage: ccreplay --algo NAME [--flavour F] [--mtu BYTES] [--set NAME=VALUE ...] < TRACE\n"
		"       ccreplay --algo NAME --list\n\n"
		"Replays a trace of congestion signals through an algorithm core and prints\n"
		"one row per event.  Trace lines: \"T_NS EVENT [key=value ...]\"; '#' comments.\n\n"
		"  --algo NAME      the algorithm:");
	for (i = 0; i < ARRAY_SIZE(ccr_algos); i++)
		fprintf(f, " %s", ccr_algos[i]->name);
	fprintf(f,
		"\n  --flavour F      start from flavour F's spec-page defaults (nscc: mrc, uet)\n"
		"  --mtu BYTES      nominal packet size (default: 4096 payload + the flavour's headers)\n"
		"  --set NAME=VAL   set an attribute (its sysctl name); repeatable, applied in order\n"
		"  --list           list the attributes with their defaults, ranges and meaning\n\n"
		"Events of each algorithm:\n");
	for (i = 0; i < ARRAY_SIZE(ccr_algos); i++)
		fprintf(f, " %s:\n%s", ccr_algos[i]->name,
			ccr_algos[i]->events_help);
	fprintf(f,
		"\nLimits: what the cores take without overflow.  A value above its limit\n"
		"stops the replay with \"ccreplay: line N: ...\" and exit status 1.\n"
		"  T_NS                     <= 10^18 ns (about 31.7 years)\n");
	for (i = 0; i < ARRAY_SIZE(ccr_algos); i++)
		fprintf(f, " %s:\n%s", ccr_algos[i]->name,
			ccr_algos[i]->limits_help);
}

static const struct ccr_algo *find_algo(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ccr_algos); i++)
		if (!strcmp(ccr_algos[i]->name, name))
			return ccr_algos[i];
	return NULL;
}

static void list_attrs(const struct ccr_algo *a)
{
	unsigned int i;

	for (i = 0; i < a->nattrs; i++) {
		const struct fabric_attr_desc *d = &a->descs[i];
		const char *name = fabric_attr_name_of(d, a->values[i]);

		if (name)
			printf("%-36s %-8s", d->name, name);
		else
			printf("%-36s %-8u", d->name, a->values[i]);
		printf(" %-13s [%u..%u] %s\n", d->unit && *d->unit ? d->unit : "-",
		       d->min, d->max, d->help);
	}
}

static int apply_set(const struct ccr_algo *a, const char *arg)
{
	const char *eq = strchr(arg, '='), *why = "";
	unsigned int i;

	if (!eq) {
		fprintf(stderr, "ccreplay: --set %s: expected NAME=VALUE\n", arg);
		return -EINVAL;
	}
	for (i = 0; i < a->nattrs; i++) {
		const struct fabric_attr_desc *d = &a->descs[i];

		if (strlen(d->name) != (size_t)(eq - arg) ||
		    strncmp(d->name, arg, eq - arg))
			continue;
		if (fabric_attr_parse(d, eq + 1, &a->values[i], &why)) {
			fprintf(stderr, "ccreplay: --set %s: %s (range %u..%u)\n",
				arg, why, d->min, d->max);
			return -EINVAL;
		}
		return 0;
	}
	fprintf(stderr, "ccreplay: --set %s: no attribute %.*s in %s (see --list)\n",
		arg, (int)(eq - arg), arg, a->name);
	return -EINVAL;
}

static int parse_u64(const char *s, u64 *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno || *end) ? -EINVAL : 0;
}

/* Splits one trace line into ev; returns 1 for an event, 0 for none. */
static int parse_line(char *line, struct ccr_event *ev, const char **why)
{
	char *tok, *save, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	tok = strtok_r(line, " \t\r\n", &save);
	if (!tok)
		return 0;
	if (parse_u64(tok, &ev->t_ns)) {
		*why = "the first field must be the time in ns";
		return -EINVAL;
	}
	if (ev->t_ns > CCR_MAX_TIME_NS) {
		*why = "the time is above the limit 10^18 ns";
		return -EINVAL;
	}
	ev->name = strtok_r(NULL, " \t\r\n", &save);
	if (!ev->name) {
		*why = "missing event name";
		return -EINVAL;
	}
	ev->nkv = 0;
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		char *eq = strchr(tok, '=');
		struct ccr_kv *kv = &ev->kv[ev->nkv];

		if (ev->nkv == CCR_MAX_KV) {
			*why = "too many key=value fields";
			return -EINVAL;
		}
		if (!eq || eq == tok) {
			*why = "expected key=value";
			return -EINVAL;
		}
		*eq = '\0';
		kv->key = tok;
		kv->used = false;
		if (parse_u64(eq + 1, &kv->val)) {
			*why = "value is not a non-negative decimal integer";
			return -EINVAL;
		}
		ev->nkv++;
	}
	return 1;
}

static int replay(const struct ccr_algo *a, FILE *in)
{
	char line[1024];
	unsigned long lineno = 0;
	u64 last_t = 0;

	printf("%s\n", a->header);
	while (fgets(line, sizeof(line), in)) {
		struct ccr_event ev;
		const char *why = "";
		int i, rc;

		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			fprintf(stderr, "ccreplay: line %lu: line too long\n", lineno);
			return 1;
		}
		rc = parse_line(line, &ev, &why);
		if (rc == 0)
			continue;
		if (rc == 1 && ev.t_ns < last_t) {
			why = "time goes backwards";
			rc = -EINVAL;
		}
		if (rc == 1)
			rc = a->event(&ev, &why);
		for (i = 0; rc == 1 || rc == 0 ? i < ev.nkv : 0; i++) {
			if (!ev.kv[i].used) {
				fprintf(stderr, "ccreplay: line %lu: key %s= is not valid for %s\n",
					lineno, ev.kv[i].key, ev.name);
				return 1;
			}
		}
		if (rc < 0) {
			fprintf(stderr, "ccreplay: line %lu: %s\n", lineno, why);
			return 1;
		}
		last_t = ev.t_ns;
		a->print(&ev);
	}
	if (ferror(in)) {
		perror("ccreplay: read");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "algo", required_argument, NULL, 'a' },
		{ "flavour", required_argument, NULL, 'f' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "init-cwnd", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *algo = NULL, *flavour = NULL, *why = "";
	struct ccr_opts o = { 0 };
	const struct ccr_algo *a;
	bool list = false;
	char **sets;
	int nsets = 0, c, i;
	u64 v;

	sets = calloc(argc, sizeof(*sets));
	if (!sets)
		return 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			algo = optarg;
			break;
		case 'f':
			flavour = optarg;
			break;
		case 'm':
			if (parse_u64(optarg, &v) || v < 64 || v > 1 << 20) {
				fprintf(stderr, "ccreplay: --mtu %s: expected 64..1048576 bytes\n",
					optarg);
				return 2;
			}
			o.mtu = v;
			break;
		case 'c':
			if (parse_u64(optarg, &v) || v < 1 || v > 65535000) {
				fprintf(stderr,
					"ccreplay: --init-cwnd %s: expected 1..65535000 thousandths\n",
					optarg);
				return 2;
			}
			o.init_cwnd = v;
			break;
		case 's':
			sets[nsets++] = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind < argc || !algo) {
		fprintf(stderr, optind < argc ? "ccreplay: unexpected argument %s\n" :
			"ccreplay: --algo is required%s\n",
			optind < argc ? argv[optind] : "");
		print_usage(stderr);
		return 2;
	}
	a = find_algo(algo);
	if (!a) {
		fprintf(stderr, "ccreplay: unknown algorithm %s (see --help)\n", algo);
		return 2;
	}
	if (a->defaults(flavour, &why)) {
		fprintf(stderr, "ccreplay: --flavour %s: %s\n", flavour, why);
		return 2;
	}
	for (i = 0; i < nsets; i++)
		if (apply_set(a, sets[i]))
			return 2;
	if (list) {
		list_attrs(a);
		return 0;
	}
	if (a->start(&o, &why)) {
		fprintf(stderr, "ccreplay: %s\n", why);
		return 2;
	}
	free(sets);
	return replay(a, stdin);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fabctl - show and set the fabric modules' attributes, counters and
 * sockets over netlink.
 *
 *   fabctl [-j] [-p] [-n NETNS] attr show [MODULE [NAME]]
 *   fabctl [-j] [-p] [-n NETNS] attr set MODULE NAME=VALUE [NAME=VALUE...]
 *   fabctl [-j] [-p] [-n NETNS] stats [MODULE]
 *   fabctl [-j] [-n NETNS] monitor
 *   fabctl [-j] [-p] [-n NETNS] sock show
 *   fabctl [-j] [-p] [-n NETNS] mrt dest show [ADDR]
 *   fabctl [-j] [-p] [-n NETNS] mrt pdc show [LID]
 *   fabctl [-j] [-p] [-n NETNS] mrt ev show [ADDR]
 *   fabctl [-n NETNS] mrt ev deny|allow ADDR EV|FIRST-LAST
 *   fabctl [-j] [-p] [-n NETNS] mrt ev rules
 *
 * Design.  fabctl is a thin client of two netlink interfaces and keeps no
 * knowledge of the modules: names, units, ranges, help and enum names all
 * come from the kernel, so a module or attribute added there shows here
 * unchanged.
 *
 *  - The "fabric" generic netlink family (include/uapi/linux/fabric.h,
 *    the contract): attr, stats and monitor.  The family id and the
 *    "events" group id come from the controller (CTRL_CMD_GETFAMILY); a
 *    missing family is the one error fabctl explains itself.  A value is
 *    sent as text (FABRIC_ATTR_A_TEXT): the kernel parses it with its
 *    sysctl parser, so enum names and range checks are the kernel's, and
 *    so is the error message (extack) fabctl prints.
 *  - The "mrt" generic netlink family (include/uapi/linux/mrt_nl.h) of
 *    mrt.ko: mrt dest, pdc and ev, and monitor's EV events.
 *  - sock_diag (NETLINK_SOCK_DIAG): sock show dumps TCP sockets and keeps
 *    those whose congestion control is one of the modules', decoding the
 *    module's own INET_DIAG_BBRINFO or INET_DIAG_DCTCPINFO payload.
 *
 * Files: main.c (options, -n, dispatch), nl.c (every message and
 * attribute is validated there before a command reads it; replies are
 * never trusted for lengths), json.c (the JSON writer), attr.c, stats.c,
 * monitor.c, sock.c, mrt.c (one command each).
 *
 * Output: every command but monitor writes into a memory stream that
 * reaches stdout only if the command succeeds, so that an error in the
 * middle of a dump never leaves half a table or half a JSON document.
 * monitor writes each event as it comes and flushes it.
 *
 * Exit status: 0 success, 1 an error (the kernel's or fabctl's, including
 * a NAME=VALUE argument without '='), 2 a command line fabctl cannot parse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/fabric.h>

#include "fabctl.h"

#define NETNS_RUN_DIR	"/var/run/netns"

static const char usage_text[] =
	"usage: fabctl [-j] [-p] [-n NETNS] attr show [MODULE [NAME]]\n"
	"       fabctl [-j] [-p] [-n NETNS] attr set MODULE NAME=VALUE [NAME=VALUE...]\n"
	"       fabctl [-j] [-p] [-n NETNS] stats [MODULE]\n"
	"       fabctl [-j] [-n NETNS] monitor\n"
	"       fabctl [-j] [-p] [-n NETNS] sock show\n"
	"       fabctl [-j] [-p] [-n NETNS] mrt dest show [ADDR]\n"
	"       fabctl [-j] [-p] [-n NETNS] mrt pdc show [LID]\n"
	"       fabctl [-j] [-p] [-n NETNS] mrt ev show [ADDR]\n"
	"       fabctl [-n NETNS] mrt ev deny|allow ADDR EV|FIRST-LAST\n"
	"       fabctl [-j] [-p] [-n NETNS] mrt ev rules\n"
	"       fabctl -V | -h | help\n";

static void print_help(void)
{
	fputs(usage_text, stdout);
	fputs("\n"
	      "Shows and sets the attributes of the fabric modules (tcp_nscc, tcp_dcqcn,\n"
	      "tcp_swift, mrt) per network namespace, shows their counters, follows\n"
	      "attribute changes, shows the TCP sockets that run one of them, and the mrt\n"
	      "transport's destinations, PDCs and EVs (deny and allow EVs too).\n"
	      "\n"
	      "Commands:\n"
	      "  attr show [MODULE [NAME]]   attributes: value, unit, default, range, limit,\n"
	      "                              help\n"
	      "  attr set MODULE NAME=VALUE  set attributes (all or none); VALUE as for sysctl\n"
	      "  stats [MODULE]              the modules' counters\n"
	      "  monitor                     print attribute changes and mrt EV state\n"
	      "                              changes until interrupted\n"
	      "  sock show                   TCP sockets on nscc, swift or dcqcn\n"
	      "  mrt dest show [ADDR]        mrt destinations: NSCC window, RTTs, penalty\n"
	      "  mrt pdc show [LID]          mrt PDCs: state, RTO, counters; their ids,\n"
	      "                              PSNs and keys (and LID) need CAP_NET_ADMIN\n"
	      "  mrt ev show [ADDR]          mrt EVs per destination: state, credit, counters\n"
	      "  mrt ev deny ADDR EV|A-B     deny EVs (UDP source ports) to ADDR until allowed\n"
	      "  mrt ev allow ADDR EV|A-B    lift a deny\n"
	      "  mrt ev rules                the namespace's deny rules\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json          JSON output (monitor: one object per line)\n"
	      "  -p, --pretty        indent the JSON output\n"
	      "  -n, --netns NETNS   run in network namespace NETNS (" NETNS_RUN_DIR "/NETNS,\n"
	      "                      or a path such as /proc/PID/ns/net)\n"
	      "  -V, --version       print the version and exit\n"
	      "  -h, --help          print this help and exit\n"
	      "\n"
	      "Exit status: 0 success, 1 error, 2 command-line usage error.\n"
	      "See fabctl(8).\n", stdout);
}

/* Prints "fabctl: MESSAGE" and the usage to stderr; exit status 2 follows. */
void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("fabctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
}

/* q / one as a decimal with three digits, rounded: "0.500". */
char *fmt_ratio(char *buf, size_t size, uint64_t q, uint64_t one)
{
	unsigned __int128 m = ((unsigned __int128)q * 1000 + one / 2) / one;

	snprintf(buf, size, "%llu.%03u", (unsigned long long)(m / 1000),
		 (unsigned int)(m % 1000));
	return buf;
}

/*
 * Like ip -n: NETNS is a name under /var/run/netns, or with a '/' a path.
 * Done before any socket is opened, so that every socket is in NETNS.
 */
static int enter_netns(const char *netns)
{
	char path[PATH_MAX];
	int fd, n;

	if (!*netns) {
		fprintf(stderr, "fabctl: -n: empty network namespace name\n");
		return -1;
	}
	if (strchr(netns, '/'))
		n = snprintf(path, sizeof(path), "%s", netns);
	else
		n = snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, netns);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		fprintf(stderr, "fabctl: -n %s: name too long\n", netns);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr,
			"fabctl: network namespace \"%s\": cannot open %s: %s\n",
			netns, path, strerror(errno));
		return -1;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		fprintf(stderr,
			"fabctl: network namespace \"%s\": cannot enter %s: %s\n",
			netns, path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int run_command(struct fabctl *fc, int argc, char **argv)
{
	const char *cmd = argv[0];

	if (!strcmp(cmd, "attr"))
		return cmd_attr(fc, argc - 1, argv + 1);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(fc, argc - 1, argv + 1);
	if (!strcmp(cmd, "sock"))
		return cmd_sock(fc, argc - 1, argv + 1);
	if (!strcmp(cmd, "mrt"))
		return cmd_mrt(fc, argc - 1, argv + 1);
	usage_error("unknown command \"%s\" (see fabctl help)", cmd);
	return FABCTL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "netns", required_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct fabctl fc = { .out = stdout };
	const char *netns = NULL;
	char *buf = NULL;
	size_t size = 0;
	int c, rc;

	opterr = 0;
	/* '+': options end at the command, as with ip. */
	while ((c = getopt_long(argc, argv, "+:jpn:Vh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			fc.json = true;
			break;
		case 'p':
			fc.pretty = true;
			break;
		case 'n':
			netns = optarg;
			break;
		case 'V':
			printf("fabctl %s (fabric netlink family \"%s\" version %d)\n",
			       FABCTL_VERSION, FABRIC_GENL_NAME,
			       FABRIC_GENL_VERSION);
			return FABCTL_EXIT_OK;
		case 'h':
			print_help();
			return FABCTL_EXIT_OK;
		case ':':
			usage_error("option %s needs an argument",
				    argv[optind - 1]);
			return FABCTL_EXIT_USAGE;
		default:
			usage_error("unknown option %s", argv[optind - 1]);
			return FABCTL_EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc) {
		usage_error("no command given");
		return FABCTL_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help")) {
		print_help();
		return FABCTL_EXIT_OK;
	}
	if (netns && enter_netns(netns) < 0)
		return FABCTL_EXIT_ERROR;

	if (!strcmp(argv[0], "monitor")) {
		rc = cmd_monitor(&fc, argc - 1, argv + 1);
	} else {
		fc.out = open_memstream(&buf, &size);
		if (!fc.out) {
			perror("fabctl: open_memstream");
			return FABCTL_EXIT_ERROR;
		}
		rc = run_command(&fc, argc, argv);
		if (fclose(fc.out)) {
			perror("fabctl: output");
			rc = FABCTL_EXIT_ERROR;
		}
		if (rc == FABCTL_EXIT_OK && size)
			fwrite(buf, 1, size, stdout);
		free(buf);
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("fabctl: write");
		return FABCTL_EXIT_ERROR;
	}
	return rc;
}

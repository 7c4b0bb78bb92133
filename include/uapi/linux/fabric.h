/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "fabric" generic netlink family: the attributes and counters of
 * every module registered with fabric.ko (tcp_nscc, tcp_dcqcn, tcp_swift,
 * and the transport after them), per network namespace.
 *
 * Documentation/networking/control.rst describes the commands and the
 * permission model (reads are open to all, as sysctls are; a set needs
 * CAP_NET_ADMIN over the namespace); Documentation/netlink/specs/fabric.yaml is the same
 * family in the ynl genetlink format (a host test checks the two agree).
 * This header is append-only: values are never renumbered or reused.
 *
 * Every value is fixed width.  Attribute values are u32: numbers in the
 * unit their name ends with (fractions in thousandths), 0 or 1 for a
 * bool, the index of a name for an enum.
 */
#ifndef _UAPI_LINUX_FABRIC_H
#define _UAPI_LINUX_FABRIC_H

#include <linux/types.h>

#define FABRIC_GENL_NAME		"fabric"
#define FABRIC_GENL_VERSION		1
#define FABRIC_GENL_MCGRP_EVENTS	"events"

/* Longest module name and attribute name, NUL included. */
#define FABRIC_MODULE_NAME_MAX		16
#define FABRIC_ATTR_NAME_MAX		64
/* Longest text value (FABRIC_ATTR_A_TEXT), NUL included. */
#define FABRIC_ATTR_TEXT_MAX		32

enum fabric_cmd {
	FABRIC_CMD_UNSPEC,
	/*
	 * do: one attribute, FABRIC_A_MODULE + FABRIC_A_ATTR with
	 * FABRIC_ATTR_A_NAME; dump: every attribute of every module, or of
	 * FABRIC_A_MODULE if given.  One reply message per attribute:
	 * FABRIC_A_MODULE, FABRIC_A_NETNS_INUM and a FABRIC_A_ATTR nest with
	 * every FABRIC_ATTR_A_* but OLD and TEXT.
	 */
	FABRIC_CMD_ATTR_GET,
	/*
	 * do: FABRIC_A_MODULE and one or more FABRIC_A_ATTR nests, each with
	 * FABRIC_ATTR_A_NAME and either FABRIC_ATTR_A_VALUE or
	 * FABRIC_ATTR_A_TEXT.  The values are checked one by one (range) and
	 * together (the module's rules across attributes); all are applied or
	 * none is.  Needs CAP_NET_ADMIN in the user namespace owning the
	 * network namespace; if that is not the initial user namespace, a
	 * set that raises a limit (FABRIC_ATTR_FLAG_LIMIT) above the initial
	 * network namespace's value is refused with EPERM.  Each value that
	 * changed is notified.
	 */
	FABRIC_CMD_ATTR_SET,
	/*
	 * do: the counters of FABRIC_A_MODULE; dump: of every module, or of
	 * FABRIC_A_MODULE if given.  One
	 * message per module: FABRIC_A_MODULE, FABRIC_A_NETNS_INUM and one
	 * FABRIC_A_STAT nest per counter.
	 */
	FABRIC_CMD_STATS_GET,
	/*
	 * Notification on the "events" group of the namespace: an attribute
	 * changed, by netlink or sysctl.  FABRIC_A_MODULE, FABRIC_A_NETNS_INUM,
	 * and FABRIC_A_ATTR with NAME, VALUE (the new value) and OLD.
	 */
	FABRIC_CMD_ATTR_NTF,

	__FABRIC_CMD_MAX,
	FABRIC_CMD_MAX = __FABRIC_CMD_MAX - 1
};

/* Top-level attributes. */
enum fabric_a {
	FABRIC_A_UNSPEC,
	FABRIC_A_MODULE,	/* string: "nscc", "dcqcn", "swift" */
	FABRIC_A_ATTR,		/* nest: FABRIC_ATTR_A_* */
	FABRIC_A_STAT,		/* nest: FABRIC_STAT_A_* */
	FABRIC_A_NETNS_INUM,	/* u32: the namespace's inode (/proc/PID/ns/net) */

	__FABRIC_A_MAX,
	FABRIC_A_MAX = __FABRIC_A_MAX - 1
};

/* The kinds of attribute value (FABRIC_ATTR_A_KIND). */
enum fabric_attr_kind_uapi {
	FABRIC_KIND_U32,	/* a number in FABRIC_ATTR_A_UNIT */
	FABRIC_KIND_BOOL,	/* 0 or 1 */
	FABRIC_KIND_ENUM,	/* the index of one of FABRIC_ATTR_A_ENUM_NAMES */
};

/* The flags of an attribute (FABRIC_ATTR_A_FLAGS), bits. */
enum fabric_attr_flags {
	/*
	 * A resource limit (a larger value lets the namespace make the kernel
	 * hold more): in a network namespace owned by a user namespace other
	 * than the initial one, a set may not raise it above the initial
	 * network namespace's value (EPERM), and a new such namespace starts
	 * it at most there.
	 */
	FABRIC_ATTR_FLAG_LIMIT = 1 << 0,
};

/* Inside FABRIC_A_ATTR. */
enum fabric_attr_a {
	FABRIC_ATTR_A_UNSPEC,
	FABRIC_ATTR_A_NAME,	/* string: its sysctl and module parameter name */
	FABRIC_ATTR_A_VALUE,	/* u32: this namespace's value */
	FABRIC_ATTR_A_DEFAULT,	/* u32: the spec's default (the table's) */
	FABRIC_ATTR_A_GLOBAL,	/* u32: the module parameter, new namespaces' start */
	FABRIC_ATTR_A_MIN_VALUE, /* u32: the smallest value accepted */
	FABRIC_ATTR_A_MAX_VALUE, /* u32: the largest value accepted */
	FABRIC_ATTR_A_KIND,	/* u8: enum fabric_attr_kind_uapi */
	FABRIC_ATTR_A_UNIT,	/* string: "ns", "Mbit/s", "thousandths", ... */
	FABRIC_ATTR_A_HELP,	/* string: one line */
	FABRIC_ATTR_A_ENUM_NAMES, /* nest of strings, type i + 1 names value i,
				   * one per value from 0 to MAX_VALUE
				   */
	FABRIC_ATTR_A_OLD,	/* u32: in FABRIC_CMD_ATTR_NTF, the value before */
	FABRIC_ATTR_A_TEXT,	/* string: in FABRIC_CMD_ATTR_SET, a value as text */
	FABRIC_ATTR_A_FLAGS,	/* u32: enum fabric_attr_flags, bits */

	__FABRIC_ATTR_A_MAX,
	FABRIC_ATTR_A_MAX = __FABRIC_ATTR_A_MAX - 1
};

/* Inside FABRIC_A_STAT. */
enum fabric_stat_a {
	FABRIC_STAT_A_UNSPEC,
	FABRIC_STAT_A_NAME,	/* string: as in /proc/net/<module>_stat */
	FABRIC_STAT_A_VALUE,	/* u64 */
	FABRIC_STAT_A_PAD,	/* pad: aligns VALUE (nla_put_u64_64bit) */

	__FABRIC_STAT_A_MAX,
	FABRIC_STAT_A_MAX = __FABRIC_STAT_A_MAX - 1
};

/*
 * Socket state through sock_diag.  A TCP socket on one of the modules'
 * congestion controls answers an inet_diag request whose idiag_ext has
 * the INET_DIAG_VEGASINFO bit (idiag_ext has 8 bits: the types above 8
 * are asked for through that one, as ss does) with the attribute type
 * below (INET_DIAG_BBRINFO or INET_DIAG_DCTCPINFO, so that ss, which
 * knows only those layouts, still prints a rate and a base RTT), holding
 * the module's own layout.  INET_DIAG_CONG names the module; fabctl sock
 * show decodes each field under the names here.  All fields are host
 * byte order; "q8" values are ratios times 256.
 */

/* "nscc", in INET_DIAG_BBRINFO (20 bytes; ss shows bw and mrtt). */
struct fabric_nscc_info {
	__u32	rate_lo;		/* window / base RTT, bytes per second */
	__u32	rate_hi;
	__u32	base_rtt_us;		/* the base RTT NSCC runs against */
	__u32	delay_ratio_q8;		/* average queueing delay / target */
	__u32	window_ratio_q8;	/* window / max window */
};

/* "swift", in INET_DIAG_BBRINFO (20 bytes). */
struct fabric_swift_info {
	__u32	rate_lo;		/* window x MSS / srtt, bytes per second */
	__u32	rate_hi;
	__u32	target_us;		/* the target delay of the last update */
	__u32	window_q8;		/* window in packets, times 256 */
	__u32	delay_ratio_q8;		/* last delay / target */
};

/* "dcqcn", in INET_DIAG_DCTCPINFO (16 bytes). */
struct fabric_dcqcn_info {
	__u16	enabled;		/* always 1 */
	__u16	congested;		/* an episode is running */
	__u32	alpha_q10;		/* congestion estimate, 1024 = 1.0 */
	__u32	ce_delivered;		/* packets delivered with CE (tcp_info's) */
	__u32	segs_out;		/* data segments sent */
};

#endif /* _UAPI_LINUX_FABRIC_H */

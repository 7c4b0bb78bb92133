#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sends sch_fabric requests that tc cannot produce, and prints the
kernel's answer: "errno=N msg=..." (the extack message, if any).

  nlraw.py IFNAME unknown-attr     TCA_OPTIONS with an attribute type 99
  nlraw.py IFNAME no-nested-flag   TCA_OPTIONS without NLA_F_NESTED
  nlraw.py IFNAME short-u32        TCA_FABRIC_LIMIT with 2 bytes
"""
import socket
import struct
import sys

RTM_NEWQDISC = 36
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 0x1, 0x4, 0x200, 0x400
NLA_F_NESTED = 0x8000
TCA_KIND, TCA_OPTIONS = 1, 2
TCA_FABRIC_LIMIT = 3
SOL_NETLINK, NETLINK_EXT_ACK = 270, 11
NLMSGERR_ATTR_MSG = 1


def attr(typ, payload):
    a = struct.pack("HH", 4 + len(payload), typ) + payload
    return a + bytes((4 - len(a) % 4) % 4)


def main():
    ifname, case = sys.argv[1], sys.argv[2]
    ifindex = socket.if_nametoindex(ifname)
    if case == "unknown-attr":
        opts = attr(TCA_OPTIONS | NLA_F_NESTED, attr(99, struct.pack("I", 1)))
    elif case == "no-nested-flag":
        opts = attr(TCA_OPTIONS, attr(TCA_FABRIC_LIMIT, struct.pack("I", 100000)))
    elif case == "short-u32":
        opts = attr(TCA_OPTIONS | NLA_F_NESTED, attr(TCA_FABRIC_LIMIT, b"\x01\x02"))
    else:
        sys.exit(f"unknown case {case}")
    body = struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, 0, 0xFFFFFFFF, 0)
    body += attr(TCA_KIND, b"fabric\0") + opts
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL
    msg = struct.pack("IHHII", 16 + len(body), RTM_NEWQDISC, flags, 1, 0) + body

    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    s.send(msg)
    resp = s.recv(65536)
    _, typ, rflags, _, _ = struct.unpack("IHHII", resp[:16])
    err = -struct.unpack("i", resp[16:20])[0]
    text = ""
    # The echoed request is cut to its header when NLM_F_CAPPED is set.
    off = 20 + (16 if rflags & 0x100 else len(msg))
    while off + 4 <= len(resp):
        alen, atyp = struct.unpack("HH", resp[off:off + 4])
        if alen < 4:
            break
        if atyp == NLMSGERR_ATTR_MSG:
            text = resp[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    print(f"errno={err} msg={text}")


if __name__ == "__main__":
    main()

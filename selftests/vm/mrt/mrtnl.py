#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw requests to the "mrt" generic netlink family that fabctl never
sends, for the EV commands (include/uapi/linux/mrt_nl.h):

  mrtnl.py err CASE...  one request per case, in order; prints a line
                        "errno=N msg=TEXT" for each, N the kernel's answer
                        (0: accepted), TEXT its extack
  mrtnl.py cap ADDR     fills the namespace's deny rules for ADDR to the
                        cap (256, disjoint single ports from 1000 on), checks
                        that one more is refused with ENOSPC and that an
                        allow of the whole span leaves none; prints
                        "rules=N refused=ERRNO after=M"
"""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ctl"))
from genl import Genl, nla  # noqa: E402

NLA_F_NESTED = 0x8000
CMD_DEST_GET, CMD_PDC_GET, CMD_EV_GET, CMD_EV_SET, CMD_EV_NTF, CMD_DENY_GET = 1, 2, 3, 4, 5, 6
A_NETNS_INUM, A_DEST, A_PDC, A_EV = 1, 2, 3, 4
EV_ADDR, EV_PORT, EV_PORT_LAST, EV_STATE, EV_PKTS = 2, 3, 4, 5, 13
GOOD, SKIP, BAD, DENIED = 0, 1, 2, 3


class MrtGenl(Genl):
    def __init__(self):
        super().__init__()
        self.family = self.resolve("mrt")


def addr(text):
    if ":" in text:
        return socket.inet_pton(socket.AF_INET6, text)
    return bytes(10) + b"\xff\xff" + socket.inet_pton(socket.AF_INET, text)


def u8(v):
    return struct.pack("B", v)


def u16(v):
    return struct.pack("H", v)


def ev(*parts):
    return nla(A_EV | NLA_F_NESTED, b"".join(parts))


A = addr("198.18.99.1")
CASES = {
    "set-no-ev": (CMD_EV_SET, b"", False),
    "set-no-addr": (CMD_EV_SET, ev(nla(EV_PORT, u16(1)), nla(EV_STATE, u8(DENIED))), False),
    "set-no-port": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_STATE, u8(DENIED))), False),
    "set-no-state": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_PORT, u16(1))), False),
    "set-skip": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_PORT, u16(1)),
                                nla(EV_STATE, u8(SKIP))), False),
    "set-state-4": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_PORT, u16(1)),
                                   nla(EV_STATE, u8(4))), False),
    "set-range": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_PORT, u16(9)),
                                 nla(EV_PORT_LAST, u16(8)), nla(EV_STATE, u8(DENIED))), False),
    "set-short-addr": (CMD_EV_SET, ev(nla(EV_ADDR, A[:4]), nla(EV_PORT, u16(1)),
                                      nla(EV_STATE, u8(DENIED))), False),
    "set-counter": (CMD_EV_SET, ev(nla(EV_ADDR, A), nla(EV_PORT, u16(1)),
                                   nla(EV_STATE, u8(DENIED)),
                                   nla(EV_PKTS, struct.pack("Q", 5))), False),
    "get-no-addr": (CMD_EV_GET, ev(), True),
    "get-no-dest": (CMD_EV_GET, ev(nla(EV_ADDR, A)), True),
    "deny-get-attr": (CMD_DENY_GET, nla(A_NETNS_INUM, struct.pack("I", 1)), True),
}


def rules(g, a):
    """The namespace's deny rules of address a."""
    flags = 0x1 | 0x4 | 0x300
    seq = g.send(g.family, flags, CMD_DENY_GET, b"")
    n = 0
    for typ, payload, _ in g.replies(seq):
        if typ in (2, 3):
            break
        n += a in payload
    return n


def cap(g, text):
    a = addr(text)
    base = 1000
    for i in range(256):
        err, msg = g.request(CMD_EV_SET, ev(nla(EV_ADDR, a), nla(EV_PORT, u16(base + 2 * i)),
                                            nla(EV_STATE, u8(DENIED))))
        if err:
            break
    full = rules(g, a)
    refused, msg = g.request(CMD_EV_SET, ev(nla(EV_ADDR, a), nla(EV_PORT, u16(base + 600)),
                                            nla(EV_STATE, u8(DENIED))))
    g.request(CMD_EV_SET, ev(nla(EV_ADDR, a), nla(EV_PORT, u16(base)),
                             nla(EV_PORT_LAST, u16(base + 600)), nla(EV_STATE, u8(GOOD))))
    print(f"rules={full} refused={refused} msg={msg} after={rules(g, a)}")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "err" and all(c in CASES for c in sys.argv[2:]):
        g = MrtGenl()
        for name in sys.argv[2:]:
            cmd, body, dump = CASES[name]
            err, msg = g.request(cmd, body, dump=dump)
            print(f"errno={err} msg={msg}")
    elif len(sys.argv) == 3 and sys.argv[1] == "cap":
        cap(MrtGenl(), sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

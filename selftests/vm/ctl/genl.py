#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw requests to the "fabric" generic netlink family that fabctl never
sends: malformed, incomplete or of the wrong type, and a fuzzer of them.

  genl.py err CASE...      one request per case, in order; prints a line
                           "errno=N msg=TEXT" for each, where N is the
                           kernel's answer (0: accepted) and TEXT its
                           extended-ACK message (one process for all: a
                           python start costs a second under TCG)
  genl.py fuzz N SEED      N malformed requests (random commands, random
                           attributes, truncated and unterminated nests,
                           oversized strings, wrong types); every ATTR_SET
                           among them carries at least one defect, so none
                           may be accepted.  Prints a summary line; exits 1
                           if any ATTR_SET was accepted or a reply was
                           missing.

The numbers are those of include/uapi/linux/fabric.h.
"""
import os
import random
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
SOL_NETLINK, NETLINK_EXT_ACK = 270, 11
NLMSGERR_ATTR_MSG = 1

CMD_ATTR_GET, CMD_ATTR_SET, CMD_STATS_GET, CMD_ATTR_NTF = 1, 2, 3, 4
A_MODULE, A_ATTR, A_STAT, A_NETNS_INUM = 1, 2, 3, 4
ATTR_NAME, ATTR_VALUE, ATTR_TEXT = 1, 2, 12
ATTR_A_MAX = 13


def nla(typ, payload):
    a = struct.pack("HH", 4 + len(payload), typ) + payload
    return a + bytes((4 - len(a) % 4) % 4)


def s(text):
    return text.encode() + b"\0"


def u32(v):
    return struct.pack("I", v & 0xFFFFFFFF)


class Genl:
    def __init__(self, family="fabric"):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.settimeout(10)
        self.seq = 0
        self.family = self.resolve(family)

    def send(self, typ, flags, cmd, body, version=1):
        self.seq += 1
        payload = struct.pack("BBH", cmd, version, 0) + body
        hdr = struct.pack("IHHII", 16 + len(payload), typ, flags, self.seq, 0)
        self.sock.send(hdr + payload)
        return self.seq

    def replies(self, seq):
        """Yields (type, payload, flags) of every reply to seq, up to the
        error/ACK or the end of a dump."""
        while True:
            data = self.sock.recv(1 << 16)
            off = 0
            while off + 16 <= len(data):
                ln, typ, flags, rseq, _ = struct.unpack("IHHII", data[off:off + 16])
                if ln < 16:
                    raise RuntimeError("short netlink header")
                body = data[off + 16:off + ln]
                off += (ln + 3) & ~3
                if rseq != seq:
                    continue
                yield typ, body, flags
                if typ in (NLMSG_ERROR, NLMSG_DONE):
                    return

    def request(self, cmd, body, dump=False):
        """(errno, extack message): errno 0 for an ACK or a full dump."""
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
        seq = self.send(self.family, flags, cmd, body)
        for typ, payload, rflags in self.replies(seq):
            if typ == NLMSG_DONE:
                err = -struct.unpack("i", payload[:4])[0] if len(payload) >= 4 else 0
                return err, ext_msg(payload, 4)
            if typ == NLMSG_ERROR:
                err = -struct.unpack("i", payload[:4])[0]
                # The echoed request is cut to its header when capped.
                echoed = 16 if rflags & 0x100 else struct.unpack("I", payload[4:8])[0]
                return err, ext_msg(payload, 4 + echoed)
        raise RuntimeError("no final reply")

    def resolve(self, name):
        seq = self.send(GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY,
                        nla(CTRL_ATTR_FAMILY_NAME, s(name)), version=2)
        for typ, payload, _ in self.replies(seq):
            if typ == NLMSG_ERROR:
                sys.exit(f"genl.py: no {name} family (errno "
                         f"{-struct.unpack('i', payload[:4])[0]})")
            off = 4
            while off + 4 <= len(payload):
                alen, atyp = struct.unpack("HH", payload[off:off + 4])
                if alen < 4:
                    break
                if atyp == CTRL_ATTR_FAMILY_ID:
                    return struct.unpack("H", payload[off + 4:off + 6])[0]
                off += (alen + 3) & ~3
        sys.exit("genl.py: no family id in the reply")


def ext_msg(payload, off):
    while off + 4 <= len(payload):
        alen, atyp = struct.unpack("HH", payload[off:off + 4])
        if alen < 4:
            break
        if atyp == NLMSGERR_ATTR_MSG:
            return payload[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    return ""


def attr_nest(*parts):
    return nla(A_ATTR | NLA_F_NESTED, b"".join(parts))


CASES = {
    # ATTR_SET without FABRIC_A_MODULE.
    "set-no-module": (CMD_ATTR_SET, attr_nest(nla(ATTR_NAME, s("gamma")),
                                              nla(ATTR_VALUE, u32(700)))),
    # ATTR_SET with nothing to set.
    "set-no-attr": (CMD_ATTR_SET, nla(A_MODULE, s("nscc"))),
    # A nest without its name.
    "set-no-name": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                    attr_nest(nla(ATTR_VALUE, u32(700)))),
    # A u32 of 2 bytes.
    "set-short-value": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                        attr_nest(nla(ATTR_NAME, s("gamma")),
                                  nla(ATTR_VALUE, b"\x01\x02"))),
    # A string where a u32 belongs.
    "set-string-value": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                         attr_nest(nla(ATTR_NAME, s("gamma")),
                                   nla(ATTR_VALUE, s("7000")))),
    # A u32 where a string belongs (four bytes, none of them NUL).
    "set-u32-name": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                     attr_nest(nla(ATTR_NAME, u32(0x41414141)),
                               nla(ATTR_VALUE, u32(700)))),
    # An attribute type the family does not have, inside the nest.
    "set-unknown-nested": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                           attr_nest(nla(ATTR_NAME, s("gamma")),
                                     nla(ATTR_VALUE, u32(700)),
                                     nla(99, u32(1)))),
    # An attribute type the family does not have, at the top.
    "set-unknown-top": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) + nla(60, u32(1)) +
                        attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700)))),
    # A value and a text for one attribute.
    "set-both": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                 attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700)),
                           nla(ATTR_TEXT, s("700")))),
    # Out of range as a number (the text path is fabctl's).
    "set-range": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                  attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(1001)))),
    # The same attribute twice in one set.
    "set-twice": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                  attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700))) +
                  attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(600)))),
    # Two names in one nest (the parser would keep the last: refused).
    "set-nest-twice": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
                       attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700)),
                                 nla(ATTR_NAME, s("delay_alpha")))),
    # A module name longer than any.
    "set-long-module": (CMD_ATTR_SET, nla(A_MODULE, s("n" * 100)) +
                        attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700)))),
    # A set that is fine: the control case.
    "set-ok": (CMD_ATTR_SET, nla(A_MODULE, s("nscc")) +
               attr_nest(nla(ATTR_NAME, s("gamma")), nla(ATTR_VALUE, u32(700)))),
    # ATTR_GET (do) without the attribute, and with a nest without a name.
    "get-no-attr": (CMD_ATTR_GET, nla(A_MODULE, s("nscc"))),
    "get-no-name": (CMD_ATTR_GET, nla(A_MODULE, s("nscc")) + attr_nest()),
    "get-unknown-module": (CMD_ATTR_GET, nla(A_MODULE, s("nope")) +
                           attr_nest(nla(ATTR_NAME, s("gamma")))),
    # A command the family does not have.
    "unknown-cmd": (77, b""),
    # A notification sent as a request.
    "ntf-as-request": (CMD_ATTR_NTF, nla(A_MODULE, s("nscc"))),
}


def err_case(g, name):
    cmd, body = CASES[name]
    err, msg = g.request(cmd, body)
    print(f"errno={err} msg={msg}")


NAMES = ["gamma", "delay_alpha", "flavour", "data_rate_mbps", "ai", "beta",
         "enable_ecn", "hops", "nope", "", "x" * 70]
MODULES = ["nscc", "dcqcn", "swift", "nope", "", "n" * 20]


def rnd_bytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def rnd_attr(r, depth=0):
    """Any attribute: a random type, payload and length."""
    typ = r.choice([0, 1, 2, 3, 4, 5, 12, 13, 99, 0x7FFF])
    if r.random() < 0.3 and depth < 3:
        inner = b"".join(rnd_attr(r, depth + 1) for _ in range(r.randint(0, 4)))
        return nla(typ | NLA_F_NESTED, inner)
    kind = r.randint(0, 4)
    if kind == 0:
        payload = u32(r.getrandbits(32))
    elif kind == 1:
        payload = s(r.choice(NAMES + MODULES))
    elif kind == 2:
        payload = rnd_bytes(r, r.randint(0, 9))
    elif kind == 3:
        payload = b"A" * r.randint(60, 300)
    else:
        payload = s(r.choice(NAMES)).rstrip(b"\0")	# unterminated
    return nla(typ, payload)


def defect_nest(r):
    """A FABRIC_A_ATTR nest that no correct set contains."""
    name = nla(ATTR_NAME, s(r.choice(NAMES[:8])))
    val = nla(ATTR_VALUE, u32(r.randint(0, 2000)))
    d = r.randint(0, 9)
    if d == 0:
        return attr_nest(val)					# no name
    if d == 1:
        return attr_nest(name, nla(ATTR_VALUE, rnd_bytes(r, r.choice([0, 1, 2, 3, 5, 8]))))
    if d == 2:
        return attr_nest(name, val, rnd_attr(r))		# extra attribute
    if d == 3:
        return attr_nest(nla(ATTR_NAME, s(r.choice(["nope", "", "x" * 70]))), val)
    if d == 4:
        return attr_nest(name, val, nla(ATTR_TEXT, s("1")))	# both
    if d == 5:
        return attr_nest(name)					# no value
    if d == 6:
        return attr_nest(name, nla(ATTR_VALUE, u32(0xFFFFFFFF)))	# out of range
    if d == 7:
        return attr_nest(name, nla(ATTR_TEXT, s(r.choice(["", "x", "-1", "99999999999",
                                                           "1" * 40]))))
    if d == 8:
        # Truncated: the nest says it is longer than it is.
        n = attr_nest(name, val)
        return struct.pack("HH", len(n) + 8, A_ATTR | NLA_F_NESTED) + n[4:]
    return nla(A_ATTR, name + val)				# not flagged nested


def fuzz(g, n, seed):
    r = random.Random(seed)
    seen = {}
    accepted_sets = 0
    for i in range(n):
        kind = r.random()
        if kind < 0.6:
            cmd = CMD_ATTR_SET
            parts = [nla(A_MODULE, s(r.choice(MODULES)))] if r.random() < 0.9 else []
            parts += [defect_nest(r)]
            parts += [r.choice([defect_nest(r), rnd_attr(r)]) for _ in range(r.randint(0, 3))]
            r.shuffle(parts)
            body = b"".join(parts)
        else:
            cmd = r.choice([0, CMD_ATTR_GET, CMD_STATS_GET, CMD_ATTR_NTF, 5, 200])
            body = b"".join(rnd_attr(r) for _ in range(r.randint(0, 5)))
        if r.random() < 0.1 and body:
            body = body[:r.randint(0, len(body) - 1)]	# cut anywhere
        dump = cmd in (CMD_ATTR_GET, CMD_STATS_GET) and r.random() < 0.3
        try:
            err, _ = g.request(cmd, body, dump=dump)
        except (socket.timeout, RuntimeError) as e:
            print(f"genl.py: request {i} (cmd {cmd}): {e}")
            return 1
        seen[err] = seen.get(err, 0) + 1
        if cmd == CMD_ATTR_SET and err == 0:
            accepted_sets += 1
            print(f"genl.py: request {i}: a defective ATTR_SET was accepted: {body.hex()}")
    summary = " ".join(f"{os.strerror(e) if e else 'ok'}={c}" for e, c in sorted(seen.items()))
    print(f"requests={n} accepted_sets={accepted_sets} {summary}")
    return 1 if accepted_sets else 0


def main():
    g = Genl()
    if len(sys.argv) >= 3 and sys.argv[1] == "err":
        for name in sys.argv[2:]:
            err_case(g, name)
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "fuzz":
        return fuzz(g, int(sys.argv[2]), sys.argv[3])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())

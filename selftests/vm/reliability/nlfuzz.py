#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Netlink fuzzer of the project's control plane, for 02_nlfuzz.sh.

  nlfuzz.py genl SPEC N SEED     the generic netlink family that the YNL
                                 spec SPEC describes (Documentation/netlink/
                                 specs/*.yaml)
  nlfuzz.py qdisc IFNAME N SEED  sch_fabric's options through rtnetlink, at
                                 the fabric qdisc at IFNAME's root

Each of the N messages is random within the spec: an operation of the
family or none, do or dump, any version; the operation's attributes and
others, each of the right type with a random or edge value, of the wrong
length or type, nests of nests, nests without NLA_F_NESTED, attributes of
no set, a message cut anywhere.  The qdisc mode does the same with the
TCA_FABRIC_* attributes and their types (include/uapi/linux/fabric_sched.h)
inside TCA_OPTIONS, as a change, a replace or an exclusive create, under
the right kind or a wrong one.

What the kernel must do: answer every request (an ACK, an error or a whole
dump within 10 s), and change nothing when it refuses one.  The fuzzer
snapshots what the messages can change (fabric: every attribute of every
module, an attr-get dump; mrt: the EV deny rules and states, deny-get and
ev-get dumps; qdisc: the kind, handle and options of every qdisc on the
device) before the run and after every accepted set (which may change it),
and compares it with the last snapshot after every refused set (and one
in 50 of the other refused messages, and the last): a difference is a
refused message that changed something.  Prints one JSON line; exits 1 on
a violation.
"""
import json
import os
import random
import socket
import struct
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ctl"))
sys.path.insert(0, os.path.join(HERE, "..", "fabric"))
from genl import Genl, NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP, NLA_F_NESTED  # noqa: E402
from fabnl import Rtnl, attr, attrs, RTM_NEWQDISC, RTM_GETQDISC, TCA_KIND, TCA_OPTIONS  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
TC_H_ROOT = 0xFFFFFFFF
INTS = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "s8": 1, "s16": 2, "s32": 4, "s64": 8}
SAMPLE = 50


def edge(r, size):
    bits = 8 * size
    return r.choice([0, 1, 2, (1 << bits) - 1, (1 << (bits - 1)), (1 << (bits - 1)) - 1,
                     r.getrandbits(bits), r.randint(0, 2000), r.randint(0, 65535) % (1 << bits)])


def int_payload(r, size, checks):
    if checks and r.random() < 0.5:
        lo, hi = checks.get("min", 0), checks.get("max", (1 << 8 * size) - 1)
        v = r.choice([lo, hi, max(lo - 1, 0), hi + 1, r.randint(lo, hi)])
    else:
        v = edge(r, size)
    return (v & ((1 << 8 * size) - 1)).to_bytes(size, "little")


def junk(r):
    return bytes(r.getrandbits(8) for _ in range(r.choice([0, 1, 2, 3, 5, 7, 8, 9, 16, 17,
                                                           r.randint(0, 300)])))


class Gen:
    """Random attributes from a table of sets: {set: {type_number: (name,
    type, checks, nested_set)}}."""

    def __init__(self, sets, strings):
        self.sets = sets
        self.strings = strings

    def value(self, r, typ, checks, nested, depth):
        if r.random() < 0.12:
            return junk(r), False                   # any length, any bytes
        if typ in INTS:
            return int_payload(r, INTS[typ], checks), False
        if typ == "string":
            s = r.choice(self.strings + ["", "x" * r.randint(1, 400)]).encode()
            return s + (b"" if r.random() < 0.1 else b"\0"), False
        if typ == "binary":
            n = (checks or {}).get("exact-len")
            if n and r.random() < 0.7:
                if n == 16 and r.random() < 0.6:   # an address of the test's
                    return r.choice([socket.inet_pton(socket.AF_INET6, "::ffff:198.18.0.2"),
                                     socket.inet_pton(socket.AF_INET6, "2001:db8::2"),
                                     bytes(16)]), False
                return bytes(r.getrandbits(8) for _ in range(n)), False
            return junk(r), False
        if typ == "flag":
            return (b"" if r.random() < 0.8 else junk(r)), False
        if typ in ("nest", "indexed-array") and nested and depth < 3:
            return self.attrs(r, nested, depth + 1), r.random() < 0.9
        return junk(r), r.random() < 0.3

    def one(self, r, setname, depth=0, want=None):
        table = self.sets[setname]
        if want is not None and want in table:
            num = want
        elif r.random() < 0.9 and table:
            num = r.choice(list(table))
        else:
            num = r.choice([0, max(table, default=0) + 1, 60, 0x3FFF, r.getrandbits(14)])
        name, typ, checks, nested = table.get(num, ("?", "binary", None, None))
        payload, nest_flag = self.value(r, typ, checks, nested, depth)
        return attr(num | (NLA_F_NESTED if nest_flag else 0), payload)

    def attrs(self, r, setname, depth=0, wanted=()):
        out = [self.one(r, setname, depth, w) for w in wanted if r.random() < 0.85]
        out += [self.one(r, setname, depth) for _ in range(r.choice([0, 0, 1, 1, 2, 3, 6]))]
        r.shuffle(out)
        return b"".join(out)


def spec_sets(spec):
    sets = {}
    for s in spec["attribute-sets"]:
        table, num = {}, 0
        for a in s["attributes"]:
            num = a.get("value", num)
            table[num] = (a["name"], a["type"], a.get("checks"), a.get("nested-attributes"))
            num += 1
        sets[s["name"]] = table
    return sets


def spec_ops(spec):
    ops, num = [], 0
    for op in spec["operations"]["list"]:
        num = op.get("value", num)
        ops.append((num, op))
        num += 1
    return ops


def cut(r, body):
    if body and r.random() < 0.08:
        return body[:r.randint(0, len(body) - 1)]
    return body


# --- what the messages may change -----------------------------------------

def dump_payloads(g, cmd):
    seq = g.send(g.family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, cmd, b"")
    out = []
    for typ, payload, _ in g.replies(seq):
        if typ > 3:
            out.append(payload.hex())
    return out


def genl_fuzz(spec_path, n, seed):
    spec = yaml.safe_load(open(spec_path))
    family = spec["name"]
    sets, ops = spec_sets(spec), spec_ops(spec)
    top = ops[1][1]["attribute-set"]
    modules = ["nscc", "dcqcn", "swift", "mrt"]
    names = modules + ["nope", "n" * 20]
    for m in modules:
        d = f"/proc/sys/net/{m}"
        if os.path.isdir(d):
            names += os.listdir(d)
    gen = Gen(sets, names)
    g = Genl(family)
    # what a set may change: every attribute of every module (fabric), the
    # EV deny rules and states (mrt)
    gets = [num for num, op in ops if op["name"] in ("attr-get", "deny-get", "ev-get")]

    def snapshot():
        return [dump_payloads(g, c) for c in gets]

    r = random.Random(seed)
    state = snapshot()
    seen, accepted, checked, bad = {}, 0, 0, []
    for i in range(n):
        num, op = r.choice(ops) if r.random() < 0.92 else (r.randint(0, 255), {})
        dump = "dump" in op and r.random() < 0.4 or r.random() < 0.03
        wanted = []
        for k in ("do", "dump"):
            req = (op.get(k) or {}).get("request") or {}
            for a in req.get("attributes", []):
                wanted += [n2 for n2, t in sets[top].items() if t[0] == a]
        body = cut(r, gen.attrs(r, op.get("attribute-set", top), wanted=wanted))
        version = spec.get("version", 1) if r.random() < 0.95 else r.randint(0, 255)
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
        if r.random() < 0.03:
            flags |= r.choice([NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE, 0x8000])
        seq = g.send(g.family, flags, num, body, version=version)
        err = None
        try:
            for typ, payload, _ in g.replies(seq):
                if typ in (2, 3):
                    err = -struct.unpack("i", payload[:4])[0] if len(payload) >= 4 else 0
        except (socket.timeout, RuntimeError) as e:
            print(json.dumps({"family": family, "error": f"request {i} (cmd {num}): {e}"}))
            return 1
        seen[err] = seen.get(err, 0) + 1
        mutating = not op or op["name"].endswith("-set")
        if err == 0 and mutating:
            accepted += 1
            state = snapshot()
        elif err and (mutating or i % SAMPLE == 0 or i == n - 1):
            checked += 1
            now = snapshot()
            if now != state:
                bad.append({"request": i, "cmd": num, "errno": err, "body": body.hex()})
                state = now
    print(json.dumps({"family": family, "messages": n, "seed": seed, "accepted_sets": accepted,
                      "refusals_checked": checked, "changed_by_refused": bad[:5],
                      "answers": {os.strerror(e) if e else "ok": c
                                  for e, c in sorted(seen.items(), key=lambda x: x[0] or 0)}}))
    return 1 if bad else 0


# --- sch_fabric -------------------------------------------------------------

def fabric_sched_sets():
    """The TCA_FABRIC_* enum and the type each comment names."""
    table, num, inside = {}, 0, False
    with open(os.path.join(TOP, "include/uapi/linux/fabric_sched.h")) as f:
        for line in f:
            s = line.strip()
            if s.startswith("enum") and "{" in s:
                inside = True
                num = 0
                continue
            if not inside:
                continue
            if s.startswith("}"):
                break
            if not s.startswith("TCA_FABRIC_") or s.startswith("__"):
                continue
            name = s.split(",")[0].split("=")[0].strip()
            typ = "binary"
            for t in ("u64", "u32", "u16", "u8", "flag"):
                if f"/* {t}" in s:
                    typ = t
            table[num] = (name, typ, None, None)
            num += 1
    if not table:
        sys.exit("nlfuzz.py: no TCA_FABRIC_* enum in fabric_sched.h")
    return {"fabric": table}


def qdisc_fuzz(ifname, n, seed):
    ifindex = socket.if_nametoindex(ifname)
    gen = Gen(fabric_sched_sets(), ["fabric"])
    nl = Rtnl()
    nl.s.settimeout(10)

    def snapshot():
        body = struct.pack("BxxxiIII", socket.AF_UNSPEC, 0, 0, 0, 0)
        out = []
        for m in nl.request(RTM_GETQDISC, NLM_F_DUMP, body):
            idx, handle, parent = struct.unpack_from("iII", m, 4)
            if idx != ifindex:
                continue
            a = attrs(m[20:])
            out.append((handle, parent, a.get(TCA_KIND, b"").hex(),
                        a.get(TCA_OPTIONS, b"").hex()))
        return sorted(out)

    r = random.Random(seed)
    state = snapshot()
    if not any(bytes.fromhex(k)[:7] == b"fabric\0" for _, _, k, _ in state):
        sys.exit(f"nlfuzz.py: no fabric qdisc on {ifname}")
    seen, accepted, checked, bad = {}, 0, 0, []
    for i in range(n):
        flags = r.choice([0, 0, 0, NLM_F_CREATE | NLM_F_REPLACE, NLM_F_CREATE | NLM_F_EXCL,
                          NLM_F_REPLACE])
        parent = TC_H_ROOT if r.random() < 0.9 else r.getrandbits(32)
        handle = 0 if r.random() < 0.8 else r.getrandbits(32)
        kind = b"fabric\0" if r.random() < 0.92 else r.choice([b"fabric", b"fabricx\0",
                                                                b"fabri\0", b""])
        opts = gen.attrs(r, "fabric")
        body = struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, handle, parent, 0)
        body += attr(TCA_KIND, kind) if kind or r.random() < 0.5 else b""
        if r.random() < 0.95:
            body += attr(TCA_OPTIONS | (NLA_F_NESTED if r.random() < 0.9 else 0), opts)
        body = cut(r, body)
        try:
            nl.request(RTM_NEWQDISC, NLM_F_ACK | flags, body)
            err = 0
        except OSError as e:
            err = e.errno
        except socket.timeout as e:
            print(json.dumps({"qdisc": ifname, "error": f"request {i}: {e}"}))
            return 1
        seen[err] = seen.get(err, 0) + 1
        if err == 0:
            accepted += 1
            state = snapshot()
        else:
            checked += 1
            now = snapshot()
            if now != state:
                bad.append({"request": i, "errno": err, "body": body.hex()})
                state = now
    print(json.dumps({"qdisc": ifname, "messages": n, "seed": seed, "accepted": accepted,
                      "refusals_checked": checked, "changed_by_refused": bad[:5],
                      "answers": {os.strerror(e) if e else "ok": c
                                  for e, c in sorted(seen.items())}}))
    return 1 if bad else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "genl":
        return genl_fuzz(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    if len(sys.argv) == 5 and sys.argv[1] == "qdisc":
        return qdisc_fuzz(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())

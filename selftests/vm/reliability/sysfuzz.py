#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Random strings to every attribute's sysctl (and module parameter), for
03_sysfuzz.sh.

  sysfuzz.py N SEED [--params]

For each attribute of nscc, dcqcn, swift and mrt (its range, kind and enum
names from `fabctl -j attr show`), N writes to /proc/sys/net/MODULE/NAME in
the current netns, and with --params to /sys/module/MODULE/parameters/NAME
(restored afterwards): numbers in and out of range, at the edges, with
leading zeros, signs, hex, spaces, newlines and NULs inside, enum names
right and nearly right, random bytes, nothing, and strings past the
32-byte limit.

Each write is held to a model of the kernel's text path (proc_dostring()
keeps what comes before a NUL or newline; fabric_attr_parse() strips
trailing spaces and newlines and takes a decimal number within the range,
or an enum's name; a sysctl write of 32 bytes or more is refused whole):
  - what the model refuses, the kernel refuses with EINVAL, and the value
    reads back unchanged;
  - what the model accepts, the kernel takes with exactly the model's
    value, or refuses with EINVAL (a rule across attributes, e.g. a low
    threshold above a high one) leaving it unchanged.
Afterwards every sysctl reads what fabctl reports.  Prints one JSON line;
exits 1 on any violation (the first ten printed).

The model is that of a namespace the initial user namespace owns (03_sysfuzz
makes it with ip netns add), written by its root: there no limit is held to
the initial namespace's value (in one another user namespace owns, a raise
above it is EPERM: ctl/03_perm checks that).
"""
import errno
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FABCTL = os.path.join(HERE, "..", "..", "..", "tools", "fabctl", "fabctl")
MODULES = {"nscc": "tcp_nscc", "dcqcn": "tcp_dcqcn", "swift": "tcp_swift", "mrt": "mrt"}
TEXT_MAX = 32           # FABRIC_ATTR_TEXT_MAX: a sysctl write this long is refused
U32_MAX = (1 << 32) - 1


def attrs():
    out = []
    for m in MODULES:
        rows = json.loads(subprocess.check_output([FABCTL, "-j", "attr", "show", m]))
        for r in rows:
            out.append((m, r["name"], r["min"], r["max"], r.get("enum_names")))
    return out


def parse(text, lo, hi, names):
    """fabric_attr_parse(): the value, or None."""
    s = text.rstrip(b"\n ")
    if not s:
        return None
    if names:
        for i, n in enumerate(names):
            if n is not None and i <= hi and n.encode() == s:
                return i
    if not all(48 <= c <= 57 for c in s):
        return None
    v = 0
    for c in s:
        v = v * 10 + c - 48
        if v > U32_MAX:
            return None
    return v if lo <= v <= hi else None


def model(data, lo, hi, names, sysctl):
    """('keep',) for a write that changes nothing and succeeds, ('set', v),
    or ('refuse', errno)."""
    if sysctl:
        if len(data) >= TEXT_MAX:
            return ("refuse", errno.EINVAL)
        if not data:
            return ("keep",)
        cut = len(data)
        for stop in (b"\0", b"\n"):
            i = data.find(stop)
            if i >= 0:
                cut = min(cut, i)
        text = data[:cut]
    else:
        text = data[:4096].split(b"\0")[0]     # sysfs: a page at most
    v = parse(text, lo, hi, names)
    return ("refuse", errno.EINVAL) if v is None else ("set", v)


def form(v, names):
    if names and v < len(names) and names[v] is not None:
        return names[v]
    return str(v)


def gen(r, lo, hi, names):
    k = r.randint(0, 15)
    if k == 0:
        return str(r.randint(lo, hi)).encode()
    if k == 1:
        return str(r.choice([lo - 1, hi + 1, U32_MAX, U32_MAX + 1, 10 ** r.randint(10, 40),
                             -1, -r.randint(0, hi)])).encode()
    if k == 2:
        return b"0" * r.randint(1, 40) + str(r.randint(lo, hi)).encode()
    if k == 3:
        return r.choice([b"+", b"-", b" ", b"\t", b"0x", b"0"]) + str(r.randint(lo, hi)).encode()
    if k == 4:
        return str(r.randint(lo, hi)).encode() + r.choice([b"\n", b" ", b"  \n", b"\n\n",
                                                           b"\t", b"x", b"\r\n", b".5"])
    if k == 5:
        return str(r.randint(lo, hi)).encode() + r.choice([b"\n", b"\0"]) + \
            bytes(r.getrandbits(8) for _ in range(r.randint(0, 20)))
    if k == 6 and names:
        n = r.choice([x for x in names if x] or ["x"])
        return r.choice([n, n.upper(), n[:-1], n + "x", n + "\n", " " + n, n + " "]).encode()
    if k == 7:
        return b""
    if k == 8:
        return bytes(r.getrandbits(8) for _ in range(r.randint(1, 40)))
    if k == 9:
        return b"9" * r.choice([TEXT_MAX - 2, TEXT_MAX - 1, TEXT_MAX, TEXT_MAX + 1, 100, 5000])
    if k == 10:
        return b"%d %d" % (r.randint(lo, hi), r.randint(lo, hi))
    if k == 11:
        return str(r.randint(0, 2 * hi + 2)).encode()
    if k == 12:
        return r.choice([b"\n", b" ", b"\0", b"\0" + str(lo).encode(), b"\n" + str(lo).encode()])
    return str(r.choice([lo, hi, lo + 1, hi - 1, (lo + hi) // 2])).encode()


def read(path):
    with open(path, "rb") as f:
        return f.read().rstrip(b"\n").decode()


def write(path, data):
    fd = os.open(path, os.O_WRONLY)
    try:
        n = os.write(fd, data)
        return 0 if n == len(data) else -1
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def main():
    n, seed = int(sys.argv[1]), sys.argv[2]
    params = "--params" in sys.argv[3:]
    r = random.Random(seed)
    table = attrs()
    targets = [(f"/proc/sys/net/{m}/{name}", True, lo, hi, names)
               for m, name, lo, hi, names in table]
    saved = {}
    if params:
        for m, name, lo, hi, names in table:
            p = f"/sys/module/{MODULES[m]}/parameters/{name}"
            if os.path.exists(p) and os.access(p, os.W_OK):
                targets.append((p, False, lo, hi, names))
                saved[p] = read(p)
    stats = {"writes": 0, "accepted": 0, "refused": 0, "refused_by_rule": 0, "targets": len(targets)}
    bad = []
    try:
        for i in range(n):
            for path, sysctl, lo, hi, names in targets:
                data = gen(r, lo, hi, names)
                if not sysctl and not data:
                    continue            # sysfs hands no empty write to the module
                before = read(path)
                err = write(path, data)
                after = read(path)
                want = model(data, lo, hi, names, sysctl)
                stats["writes"] += 1
                ok = True
                if want[0] == "refuse":
                    ok = err == want[1] and after == before
                    stats["refused"] += 1
                elif want[0] == "keep":
                    ok = err == 0 and after == before
                    stats["accepted"] += 1
                elif err == 0:
                    ok = after == form(want[1], names)
                    stats["accepted"] += 1
                else:
                    ok = err == errno.EINVAL and after == before
                    stats["refused_by_rule"] += 1
                if not ok:
                    bad.append({"path": path, "wrote": data[:64].hex(), "errno": err,
                                "before": before, "after": after, "model": list(want)})
    finally:
        for p, v in saved.items():
            write(p, v.encode())
    # netlink and sysctl agree on every value afterwards
    for m in MODULES:
        for row in json.loads(subprocess.check_output([FABCTL, "-j", "attr", "show", m])):
            got = read(f"/proc/sys/net/{m}/{row['name']}")
            if got != row.get("value_name", str(row["value"])):
                bad.append({"path": f"{m}.{row['name']}", "sysctl": got,
                            "netlink": row.get("value_name", row["value"])})
    stats["violations"] = len(bad)
    print(json.dumps(stats))
    for b in bad[:10]:
        print(json.dumps(b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mrt message flows for the benchmark's incast (bench/run.py): a server
that times each whole message it receives, and clients that send their
messages at an agreed wall-clock time.

  mrtflows.py server ADDR EP --count N [--timeout S] [--rcvbuf B] [--ready F]
                     [--idle S] [--times]
  mrtflows.py client ADDR EP --count N --size S --start-at NS [--sndbuf B]
                     [--seconds S]

Each prints one JSON object on stdout.  The server's: msgs, bytes, bad
(messages of the wrong length or content), first_ns and last_ns (wall
clock, time.time_ns(), when the first and the last message was read
whole), and per_peer (messages per sender address); with --times also
times_ns, each message's (the multipath bench's completions over time).
With --idle the server ends, successfully, once no message came for that
long after the first (for a timed client, whose count is a bound).  A
client's: start_ns, end_ns (its last sendmsg returned), sent, errors
(error-queue reports; a benchmark message that cannot be delivered is a
failed case); with --seconds it stops sending after that long.
Every message is SIZE bytes: an 8-byte sequence number, then a pattern
the server checks.
"""
import argparse
import json
import os
import select
import socket
import struct
import sys
import time

SOCK_RDM = 4
IPPROTO_MRT = 253
SOL_MRT = 253
MRT_CONFIRM = 3


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def pattern(size):
    return bytes(i & 0xff for i in range(size))


def server(a):
    s = socket.socket(family(a.addr), SOCK_RDM, IPPROTO_MRT)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.rcvbuf)
    s.bind((a.addr, a.ep))
    if a.ready:
        open(a.ready, "w").close()
    buf = bytearray(max(a.max_size, 16))
    body = None
    out = {"msgs": 0, "bytes": 0, "bad": 0, "first_ns": None, "last_ns": None,
           "per_peer": {}}
    times = []
    deadline = time.monotonic() + a.timeout
    idle = False
    while out["msgs"] < a.count:
        left = deadline - time.monotonic()
        if a.idle and out["msgs"]:
            left = min(left, a.idle)
        if left <= 0 or not select.select([s], [], [], left)[0]:
            idle = bool(a.idle and out["msgs"])
            break
        n, peer = s.recvfrom_into(buf)
        now = time.time_ns()
        if a.times:
            times.append(now)
        if out["first_ns"] is None:
            out["first_ns"] = now
        out["last_ns"] = now
        out["msgs"] += 1
        out["bytes"] += n
        out["per_peer"][peer[0]] = out["per_peer"].get(peer[0], 0) + 1
        if body is None or len(body) != n - 8:
            body = pattern(max(n - 8, 0))
        if n != a.size or buf[8:n] != body:
            out["bad"] += 1
    if a.times:
        out["times_ns"] = times
    json.dump(out, sys.stdout)
    print()
    return 0 if out["msgs"] == a.count or idle else 1


def client(a):
    s = socket.socket(family(a.addr), SOCK_RDM, IPPROTO_MRT)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, a.sndbuf)
    s.setsockopt(SOL_MRT, MRT_CONFIRM, 1)
    body = pattern(a.size - 8)
    wait = (a.start_at - time.time_ns()) / 1e9
    if wait > 0:
        time.sleep(wait)
    start = time.time_ns()
    stop = start + int(a.seconds * 1e9) if a.seconds else None
    sent = 0
    for i in range(a.count):
        if stop and time.time_ns() >= stop:
            break
        s.sendto(struct.pack("!Q", i) + body, (a.addr, a.ep))
        sent += 1
    end = time.time_ns()
    # Every message confirmed or failed: the error queue says which.
    done, errors = 0, []
    deadline = time.monotonic() + a.timeout
    p = select.poll()
    p.register(s, select.POLLERR)
    while done < sent and time.monotonic() < deadline:
        if not p.poll(1000):
            continue
        try:
            _, anc, _, _ = s.recvmsg(64, 512, socket.MSG_ERRQUEUE)
        except BlockingIOError:
            continue
        for level, kind, data in anc:
            if len(data) < 16:
                continue
            err, origin = struct.unpack_from("=IB", data)
            done += 1
            if err:
                errors.append(os.strerror(err))
    json.dump({"start_ns": start, "end_ns": end, "sent": sent,
               "confirmed": done - len(errors), "errors": errors}, sys.stdout)
    print()
    return 0 if done == sent and not errors else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["server", "client"])
    ap.add_argument("addr")
    ap.add_argument("ep", type=int)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--size", type=int, default=1 << 20)
    ap.add_argument("--max-size", type=int, default=1 << 20)
    ap.add_argument("--start-at", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--rcvbuf", type=int, default=64 << 20)
    ap.add_argument("--sndbuf", type=int, default=16 << 20)
    ap.add_argument("--ready")
    ap.add_argument("--idle", type=float, default=0)
    ap.add_argument("--times", action="store_true")
    ap.add_argument("--seconds", type=float, default=0)
    a = ap.parse_args()
    return server(a) if a.mode == "server" else client(a)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP bursts with a chosen TOS/traffic class, and a receiver that records
what arrived, for the sch_fabric selftests.

  udpburst.py send ADDR PORT --count N --size BYTES [--tos T] [--seconds S]
                   [--prefill K --prefill-tos T2] [--gso SEG]
      sends N datagrams of BYTES payload (the first 4 bytes: a sequence
      number), as fast as it can or spread over S seconds; with --prefill,
      first K datagrams with TOS T2 and sequence number 0xffffffff; with
      --gso, each send is one UDP GSO buffer cut into SEG-byte datagrams
      (UDP_SEGMENT); with --while-exists F, not N datagrams but until F is
      gone (a flood at most 600 s times the environment's WAIT_SCALE).
      Prints "sent=N seconds=T", T the time the sends took.
  udpburst.py recv ADDR PORT [--idle S] [--expect N] [--while-exists F]
      receives until S seconds pass without a datagram (or N arrive; with
      --while-exists, not before F is gone, and at most 600 s times the
      environment's WAIT_SCALE) and
      prints one JSON object: {"packets", "sizes": {size: n}, "tos": {tos: n},
      "seqs": [[seq, size, tos], ...] in arrival order}.

The kernel verifies UDP checksums before a datagram reaches the socket, so
every datagram the receiver reports passed them.
"""
import argparse
import json
import os
import socket
import struct
import sys
import time

UDP_SEGMENT = 103  # linux/udp.h


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def send(a):
    fam = family(a.addr)
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, a.tos)
    else:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, a.tos)
    pad = bytes(max(a.size - 4, 0))
    if a.gso:
        s.setsockopt(socket.SOL_UDP, UDP_SEGMENT, a.gso)
    if a.prefill:
        # Builds a standing queue first, with another TOS (seq 0xffffffff).
        opt = (socket.IPPROTO_IPV6, socket.IPV6_TCLASS) if fam == socket.AF_INET6 \
            else (socket.IPPROTO_IP, socket.IP_TOS)
        s.setsockopt(*opt, a.prefill_tos)
        for _ in range(a.prefill):
            try:
                s.sendto(b"\xff\xff\xff\xff" + pad, (a.addr, a.port))
            except OSError:
                pass
        s.setsockopt(*opt, a.tos)
    gap = a.seconds / a.count if a.seconds and not a.while_exists else 0
    start = time.monotonic()
    end = start + 600 * int(os.environ.get("WAIT_SCALE", "1"))
    i = 0
    while a.while_exists or i < a.count:
        if a.while_exists and i % 64 == 0 and \
                (not os.path.exists(a.while_exists) or time.monotonic() > end):
            break
        if gap:
            delay = start + i * gap - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        try:
            s.sendto(struct.pack("!I", i & 0xffffffff) + pad, (a.addr, a.port))
        except OSError:
            pass  # a full queue may refuse a datagram: that is the test
        i += 1
    print(f"sent={i} seconds={time.monotonic() - start:.6f}", flush=True)


def recv(a):
    fam = family(a.addr)
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVTCLASS, 1)
    else:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
    s.bind((a.addr, a.port))
    print("ready", file=sys.stderr, flush=True)
    s.settimeout(a.first)
    seqs, sizes, toss = [], {}, {}
    end = time.monotonic() + 600 * int(os.environ.get("WAIT_SCALE", "1"))
    while a.expect is None or len(seqs) < a.expect:
        try:
            data, anc, _, _ = s.recvmsg(65536, socket.CMSG_SPACE(4))
        except socket.timeout:
            if a.while_exists and os.path.exists(a.while_exists) and \
                    time.monotonic() < end:
                s.settimeout(0.1)
                continue
            break
        s.settimeout(a.idle)
        tos = -1
        for level, typ, cdata in anc:
            if typ in (getattr(socket, "IP_TOS", 1), getattr(socket, "IPV6_TCLASS", 67)):
                tos = cdata[0] if len(cdata) == 1 else struct.unpack("i", cdata[:4])[0]
        seq = struct.unpack("!I", data[:4])[0] if len(data) >= 4 else -1
        seqs.append([seq, len(data), tos])
        sizes[len(data)] = sizes.get(len(data), 0) + 1
        toss[tos] = toss.get(tos, 0) + 1
    print(json.dumps({"packets": len(seqs), "sizes": sizes, "tos": toss, "seqs": seqs}))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["send", "recv"])
    p.add_argument("addr")
    p.add_argument("port", type=int)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--size", type=int, default=1000)
    p.add_argument("--tos", type=lambda x: int(x, 0), default=0)
    p.add_argument("--seconds", type=float, default=0)
    p.add_argument("--prefill", type=int, default=0)
    p.add_argument("--prefill-tos", type=lambda x: int(x, 0), default=0)
    p.add_argument("--idle", type=float, default=1.0)
    p.add_argument("--first", type=float, default=10.0)
    p.add_argument("--expect", type=int)
    p.add_argument("--while-exists")
    p.add_argument("--gso", type=int, default=0)
    a = p.parse_args()
    (send if a.mode == "send" else recv)(a)


if __name__ == "__main__":
    sys.exit(main())

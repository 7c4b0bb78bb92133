#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""TCP flows for the benchmark, with per-flow byte clocks.

  flows.py server ADDR PORT [--bin-ms MS]
      Accepts any number of connections (one thread each) until SIGTERM.
      For each connection, when it ends, prints one JSON line:
        {"peer": ..., "first_ns", "last_ns", "bytes", "bin_ns", "bin0", "bins": [...]}
      bins[i] = bytes received in [bin0 + i*bin_ns, bin0 + (i+1)*bin_ns),
      times from CLOCK_REALTIME (shared by every netns of one machine).
      It acknowledges the end of each connection with one byte.
  flows.py client ADDR PORT --cc CC (--bytes N | --seconds S) [--start-at NS]
                 [--sample-after S] [--notsent-lowat BYTES]
      Waits until CLOCK_REALTIME reaches NS, sends, and prints one JSON line:
        {"cc", "start_ns", "end_ns", "bytes", "retrans", "min_rtt_us",
         "srtt_us": [...]}
      end_ns is when the server acknowledged the last byte; min_rtt_us is
      TCP's minimum RTT of the connection; srtt_us holds TCP's smoothed RTT
      every 20 ms or more from S seconds after the start (with
      --sample-after; the sends are then 64 KiB each).  --notsent-lowat
      keeps at most BYTES unsent in the socket (TCP_NOTSENT_LOWAT), so a
      timed flow under a slow algorithm does not leave megabytes queued
      in its send buffer to drain after the time is up.
"""
import argparse
import json
import os
import signal
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "selftests", "lib"))
import tcpconnect  # noqa: E402

BUF = 1 << 20
TCP_NOTSENT_LOWAT = 25  # linux/tcp.h
LOCK = threading.Lock()


def now():
    return time.time_ns()


def serve_conn(conn, peer, bin_ns):
    first = last = None
    total = 0
    bins = []
    bin0 = 0
    while True:
        data = conn.recv(BUF)
        t = now()
        if not data:
            break
        if first is None:
            first = t
            bin0 = t - t % bin_ns
        i = (t - bin0) // bin_ns
        if i >= len(bins):
            bins.extend([0] * (i + 1 - len(bins)))
        bins[i] += len(data)
        total += len(data)
        last = t
    try:
        conn.sendall(b"k")
    except OSError:
        pass
    conn.close()
    rec = {"peer": peer[0], "first_ns": first, "last_ns": last, "bytes": total,
           "bin_ns": bin_ns, "bin0": bin0, "bins": bins}
    with LOCK:
        print(json.dumps(rec), flush=True)


def server(a):
    fam = socket.AF_INET6 if ":" in a.addr else socket.AF_INET
    ls = socket.socket(fam, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((a.addr, a.port))
    ls.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("ready", file=sys.stderr, flush=True)
    while True:
        conn, peer = ls.accept()
        threading.Thread(target=serve_conn, args=(conn, peer, a.bin_ms * 1000000),
                         daemon=True).start()


def info_u32(s, off):
    """One u32 of Linux 6.1's struct tcp_info at byte offset off."""
    info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
    return struct.unpack_from("I", info, off)[0] if len(info) >= off + 4 else -1


def retrans(s):
    return info_u32(s, 100)  # tcpi_total_retrans


def client(a):
    s = tcpconnect.connect(a.addr, a.port, a.cc, 20)
    if a.notsent_lowat:
        s.setsockopt(socket.IPPROTO_TCP, TCP_NOTSENT_LOWAT, a.notsent_lowat)
    if a.start_at:
        wait = (a.start_at - now()) / 1e9
        if wait > 0:
            time.sleep(wait)
    chunk = 1 << 16 if a.sample_after is not None else BUF
    buf = bytes(chunk)
    start = now()
    sent = 0
    srtt = []
    t_sample = start + int((a.sample_after or 0) * 1e9)

    def sample():
        nonlocal t_sample
        if a.sample_after is not None and now() >= t_sample:
            srtt.append(info_u32(s, 68))  # tcpi_rtt
            t_sample = now() + 20000000
    if a.bytes:
        while sent < a.bytes:
            n = min(chunk, a.bytes - sent)
            s.sendall(buf[:n])
            sent += n
            sample()
    else:
        end = start + int(a.seconds * 1e9)
        while now() < end:
            s.sendall(buf)
            sent += chunk
            sample()
    min_rtt = info_u32(s, 148)  # tcpi_min_rtt
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    rec = {"cc": a.cc, "start_ns": start, "end_ns": now(), "bytes": sent,
           "retrans": retrans(s), "min_rtt_us": min_rtt, "srtt_us": srtt}
    s.close()
    print(json.dumps(rec), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["server", "client"])
    p.add_argument("addr")
    p.add_argument("port", type=int)
    p.add_argument("--cc", default="cubic")
    p.add_argument("--bytes", type=int)
    p.add_argument("--seconds", type=float)
    p.add_argument("--start-at", type=int, default=0)
    p.add_argument("--sample-after", type=float)
    p.add_argument("--notsent-lowat", type=int)
    p.add_argument("--bin-ms", type=int, default=50)
    a = p.parse_args()
    if a.mode == "client" and (a.bytes is None) == (a.seconds is None):
        p.error("client needs exactly one of --bytes, --seconds")
    (server if a.mode == "server" else client)(a)


if __name__ == "__main__":
    sys.exit(main())

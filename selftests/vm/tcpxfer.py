#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bulk TCP transfer with an end-to-end digest, for the VM selftests.

  tcpxfer.py server ADDR PORT [--cc NAME] [--info F]  prints "bytes=N sha256=H"
  tcpxfer.py client ADDR PORT (--bytes N | --seconds S | --while-exists PATH)
                     [--cc NAME] [--seed S]          prints "bytes=N sha256=H cc=NAME"

--flows N runs N flows from one process (a python process costs about a
second to start in the VM), on ports PORT to PORT+N-1, the client's flow i
with the stream of seed S+i; each result line then starts with "port=P ",
in port order, once every flow has ended.  --info needs a single flow.

--while-exists PATH sends until PATH is removed (at most --seconds, default
600 s times the environment's WAIT_SCALE): a test holds a flow open for as
long as its checks take, however slow the machine, and ends it cleanly
(digests still match) with "rm PATH".
--sndbuf BYTES caps the client's send buffer, so that a slow flow has
little left to drain when it ends.

Client options for the congestion-control tests:
  --cc-in-connect NAME    set NAME while the SYN is out (non-blocking connect)
  --switch-cc NAME        setsockopt(TCP_CONGESTION, NAME) after
  --switch-after BYTES    this many bytes (default 1 MiB)
  --info FILE             JSON lines of TCP_INFO (cc, state, ecn, mss, cwnd,
                          unacked, rtt_us, pacing_rate, sport): after connect,
  --info-every BYTES      then every BYTES (default 1 MiB), and at the end;
                          the first line has "state_at_cc" with
                          --cc-in-connect
The server's --info FILE is one such line for the accepted connection.

The client sends a deterministic pseudo-random stream and prints its digest;
the server prints the digest of what arrived.  Equal lines mean the data
arrived intact.  The congestion control is set with TCP_CONGESTION on the
socket, and the client reports the one the kernel actually used.
"""
import argparse
import hashlib
import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tcpconnect  # noqa: E402

CHUNK = 1 << 16


def stream(seed):
    """Yields 64 KiB blocks of a deterministic stream."""
    block = hashlib.sha256(seed.encode()).digest() * (CHUNK // 32)
    n = 0
    while True:
        yield block[n % 251:] + block[:n % 251]
        n += 1


def set_cc(sock, cc):
    if cc:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())


def serve(args, ls):
    """Receives one connection on listening socket ls; returns its line."""
    conn, _ = ls.accept()
    ls.close()
    if args.info:
        with open(args.info, "w") as info:
            info.write(json.dumps(tcpconnect.tcp_info(conn)) + "\n")
    h, total = hashlib.sha256(), 0
    while True:
        buf = conn.recv(1 << 20)
        if not buf:
            break
        h.update(buf)
        total += len(buf)
    conn.close()
    return f"bytes={total} sha256={h.hexdigest()}"


def server(args):
    fam = socket.AF_INET6 if ":" in args.addr else socket.AF_INET
    socks = []
    for port in range(args.port, args.port + args.flows):
        ls = socket.socket(fam, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        set_cc(ls, args.cc)
        ls.bind((args.addr, port))
        ls.listen(1)
        socks.append(ls)
    print("listening", flush=True)
    return run_flows(args, lambda i: serve(args, socks[i]))


def send(args, port, seed):
    """Sends one flow to port; returns its line."""
    first = {}
    if args.cc_in_connect:
        s, first["state_at_cc"] = tcpconnect.connect_cc_in_syn_sent(
            args.addr, port, args.cc_in_connect, 10)
    else:
        s = tcpconnect.connect(args.addr, port, args.cc, 10)
    if args.sndbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, args.sndbuf)
    info = open(args.info, "w") if args.info else None

    def sample(extra=None):
        if info:
            d = tcpconnect.tcp_info(s)
            d.update(extra or {})
            info.write(json.dumps(d) + "\n")
            info.flush()

    sample(first)
    next_info = args.info_every
    switched = not args.switch_cc
    cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
    cc = cc.split(b"\0")[0].decode()
    h, total = hashlib.sha256(), 0
    end = time.monotonic() + args.seconds if args.seconds else None
    for block in stream(seed):
        if not switched and total >= args.switch_after:
            sample({"before_switch": True})
            set_cc(s, args.switch_cc)
            sample({"after_switch": True})
            switched = True
        if total >= next_info:
            sample()
            next_info += args.info_every
        if args.bytes is not None:
            if total >= args.bytes:
                break
            block = block[:args.bytes - total]
        elif time.monotonic() >= end:
            break
        elif args.while_exists and not os.path.exists(args.while_exists):
            break
        s.sendall(block)
        h.update(block)
        total += len(block)
    sample()
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    s.close()
    if info:
        info.close()
    return f"bytes={total} sha256={h.hexdigest()} cc={cc}"


def client(args):
    if args.flows == 1:
        return run_flows(args, lambda i: send(args, args.port, args.seed))
    return run_flows(args, lambda i: send(args, args.port + i, f"{args.seed}+{i}"))


def run_flows(args, flow):
    """Runs flow(i) for each of the --flows, in threads when there are
    several, and prints their lines in port order; any flow's failure
    fails the process (its exit status is 1)."""
    if args.flows == 1:
        print(flow(0), flush=True)
        return 0
    lines, errors = [None] * args.flows, []

    def run(i):
        try:
            lines[i] = flow(i)
        except Exception as e:  # noqa: BLE001 -- reported, and fails the run
            errors.append(f"port {args.port + i}: {e!r}")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(args.flows)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, line in enumerate(lines):
        if line is not None:
            print(f"port={args.port + i} {line}", flush=True)
    for e in errors:
        print(f"tcpxfer: {e}", file=sys.stderr, flush=True)
    return 1 if errors else 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["server", "client"])
    p.add_argument("addr")
    p.add_argument("port", type=int)
    p.add_argument("--cc")
    p.add_argument("--bytes", type=int)
    p.add_argument("--seconds", type=float)
    p.add_argument("--seed", default="fabric")
    p.add_argument("--while-exists")
    p.add_argument("--cc-in-connect")
    p.add_argument("--switch-cc")
    p.add_argument("--switch-after", type=int, default=1 << 20)
    p.add_argument("--info")
    p.add_argument("--info-every", type=int, default=1 << 20)
    p.add_argument("--flows", type=int, default=1,
                   help="N flows on ports PORT..PORT+N-1 from this one process")
    p.add_argument("--sndbuf", type=int, help="client: SO_SNDBUF (no autotuning), so "
                   "that a flow ends soon after --while-exists's file goes")
    args = p.parse_args()
    if args.while_exists and args.seconds is None:
        # a bound on a hold file left behind, not a duration: the test's
        # waits while the flows run scale with WAIT_SCALE, so this does too
        args.seconds = 600 * int(os.environ.get("WAIT_SCALE", "1"))
    if args.mode == "client" and (args.bytes is None) == (args.seconds is None):
        p.error("client needs exactly one of --bytes, --seconds, --while-exists")
    if args.flows < 1 or (args.flows > 1 and args.info):
        p.error("--flows needs N >= 1, and --info a single flow")
    return (server if args.mode == "server" else client)(args)


if __name__ == "__main__":
    sys.exit(main())

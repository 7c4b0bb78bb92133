#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarises the nscc:nscc_update tracepoint, one block per flow.

  trace_summary.py TRACE_FILE [--width N]

For each sender port: the number of window updates, the window (min,
median, max) in bytes and packets, the base RTT and average queueing delay
reached, how often each routine ran, and a one-line plot of the window over
time (each column is the mean window of that slice of the run).
"""
import argparse
import re
import statistics
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"\s(\d+\.\d+): nscc_update: (.*)$")
BARS = " .:-=+*#%@"


def parse(path):
    flows = defaultdict(list)
    with open(path) as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            kv = dict(x.split("=", 1) for x in m.group(2).split())
            kv["t"] = float(m.group(1))
            flows[(kv["sport"], kv["dport"])].append(kv)
    return flows


def sparkline(ev, top, width):
    t0, t1 = ev[0]["t"], ev[-1]["t"]
    span = max(t1 - t0, 1e-9)
    cols = [[] for _ in range(width)]
    for e in ev:
        i = min(int((e["t"] - t0) / span * width), width - 1)
        cols[i].append(int(e["cwnd"]))
    out = []
    for c in cols:
        if not c:
            out.append(" ")
            continue
        v = sum(c) / len(c) / top
        out.append(BARS[min(int(v * (len(BARS) - 1) + 0.5), len(BARS) - 1)])
    return "".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trace")
    p.add_argument("--width", type=int, default=64)
    args = p.parse_args()
    flows = parse(args.trace)
    if not flows:
        print("no nscc_update events in the trace")
        return 1
    for (sport, dport), ev in sorted(flows.items(), key=lambda kv: -len(kv[1])):
        if len(ev) < 20:
            continue  # a receiver's socket: it sends no data to be ACKed
        w = [int(e["cwnd"]) for e in ev]
        mtu = int(ev[-1]["mtu"])
        top = max(int(e["max_wnd"]) for e in ev)
        r = Counter(e["routine"] for e in ev)
        dur = ev[-1]["t"] - ev[0]["t"]
        print(f"flow {sport} -> {dport}: {len(ev)} updates over {dur:.2f} s")
        print(f"  window  min {min(w)}  median {int(statistics.median(w))}  max {max(w)} bytes"
              f"  ({min(w) // mtu}..{max(w) // mtu} packets of {mtu} B; max window {top})")
        print(f"  base RTT {int(ev[-1]['base_rtt_ns']) / 1000:.1f} us, "
              f"average queueing delay at the end {int(ev[-1]['avg_delay_ns']) / 1000:.1f} us")
        print("  routines " + ", ".join(f"{k} {v}" for k, v in r.most_common()))
        top = sorted(w)[len(w) * 99 // 100]  # the start at max window would flatten the rest
        print(f"  window |{sparkline(ev, top, args.width)}| 0..{top} B (p99) over time")
    return 0


if __name__ == "__main__":
    sys.exit(main())

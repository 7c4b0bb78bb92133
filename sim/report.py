#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make sim's report: each scenario's runs side by side, beside the
line-rate ideal, with the issue's bars, and three plots per scenario
(queue over time at the watched port, flow 0's window over time, the FCT
CDF).  A run's numbers come from its summary.json, flows.csv, queue.csv
and core.rows (scripts/sim)."""

import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(d):
    s = json.load(open(os.path.join(d, "summary.json")))
    flows = list(csv.DictReader(open(os.path.join(d, "flows.csv"))))
    queue = list(csv.DictReader(open(os.path.join(d, "queue.csv"))))
    rows = []
    p = os.path.join(d, "core.rows")
    if os.path.exists(p):
        with open(p) as f:
            head = f.readline().split()
            for line in f:
                v = line.split()
                if len(v) == len(head):
                    rows.append(dict(zip(head, v)))
    return s, flows, queue, rows


def window(rows):
    """(t_us, window in kB) from a core's rows, whatever the algorithm."""
    out = []
    for r in rows:
        t = int(r["t_ns"]) / 1000
        if "cwnd" in r:
            out.append((t, int(r["cwnd"]) / 1000))
        elif "cwnd_milli" in r:
            out.append((t, int(r["cwnd_milli"]) / 1000 * 4.136))
        elif "rate_mbps" in r:
            out.append((t, float(r["rate_mbps"]) / 1000))
    return out


def plots(out, name, runs):
    fig, ax = plt.subplots(1, 3, figsize=(16, 4.2))
    for ep, (s, flows, queue, rows) in runs.items():
        ports = sorted({q["port"] for q in queue})
        if ports:
            p = ports[0]
            pts = [(int(q["t_ns"]) / 1000, int(q["backlog_bytes"]) / 1000)
                   for q in queue if q["port"] == p]
            ax[0].step([t for t, _ in pts], [b for _, b in pts], where="post",
                       label=f"{ep} ({p})", lw=0.8)
        w = window(rows)
        if w:
            ax[1].plot([t for t, _ in w], [x for _, x in w], label=ep, lw=0.8)
        fct = sorted(int(f["fct_ns"]) / 1000 for f in flows if int(f["fct_ns"]))
        if fct:
            ax[2].plot(fct, [(i + 1) / len(fct) for i in range(len(fct))],
                       label=ep, lw=1)
    ax[0].set(title="queue at the watched port", xlabel="us", ylabel="kB")
    ax[1].set(title="flow 0's window (dcqcn: rate, Gbit/s)", xlabel="us since its start",
              ylabel="kB")
    ax[2].set(title="FCT CDF", xlabel="us", ylabel="fraction of flows")
    for a in ax:
        a.grid(alpha=0.3)
        a.legend(fontsize=7)
    fig.tight_layout()
    png = f"{name}.png"
    fig.savefig(os.path.join(out, png), dpi=90)
    plt.close(fig)
    return png


def main():
    out = sys.argv[1]
    scen = sys.argv[2:]
    md = ["# fabsim report", "",
          "Each scenario's runs (sim/scenarios, Documentation/simulation.rst).  "
          "Times in microseconds; *ideal* is the workload at line rate (no host "
          "sends or receives faster than its link, plus the longest path's "
          "latency); slowdown is a flow's FCT over its ideal alone on its path.", ""]
    bars = []
    for path in scen:
        name = os.path.basename(path)[:-5]
        d = os.path.join(out, name)
        if not os.path.isdir(d):
            continue
        runs = {}
        for ep in sorted(os.listdir(d)):
            if os.path.exists(os.path.join(d, ep, "summary.json")):
                runs[ep] = load(os.path.join(d, ep))
        if not runs:
            continue
        first = next(iter(runs.values()))[0]
        md += [f"## {name}", "",
               f"{first['hosts']} hosts, {first['flows']} flows, "
               f"{first['bytes']} bytes; ideal completion "
               f"{first['ideal_last_us']:.1f} us.", "",
               "| endpoint | done | last (x ideal) | FCT p50 / p99 / max | slowdown p50 / p99 "
               "| peak queue kB (port) | drops | trims | ECN marks | RTOs | QA | max stall "
               "| wall s | us/hop | Mevents/s |",
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for ep, (s, flows, queue, rows) in runs.items():
            ideal = s["ideal_last_us"] or 1
            md.append(
                f"| {ep} | {s['flows'] - s['incomplete']}/{s['flows']} "
                f"| {s['last_done_us']:.1f} ({s['last_done_us'] / ideal:.3f}) "
                f"| {s['fct_p50_us']:.1f} / {s['fct_p99_us']:.1f} / {s['fct_max_us']:.1f} "
                f"| {s['slowdown_p50']:.2f} / {s['slowdown_p99']:.2f} "
                f"| {s['peak_queue_bytes'] / 1000:.0f} ({s['peak_queue_port']}) "
                f"| {s['drops']} | {s['trims']} | {s['ecn_marks']} | {s['rtos']} "
                f"| {s['quick_adapts']} | {s['max_gap_us']:.1f} "
                f"| {s['wall_s']:.2f} | {s['wall_us_per_hop']:.2f} "
                f"| {s['events_per_s'] / 1e6:.2f} |")
        md += ["", f"![{name}]({plots(out, name, runs)})", ""]

        # the bars, reported, never enforced
        for ep, (s, *_rest) in runs.items():
            if s["hosts"] <= 128:
                bars.append((f"{name} {ep}: at most 10 us wall per packet-hop",
                             s["wall_us_per_hop"] <= 10, f"{s['wall_us_per_hop']:.2f} us"))
            if s["hosts"] >= 1024:
                bars.append((f"{name} {ep}: under 2 minutes", s["wall_s"] < 120,
                             f"{s['wall_s']:.1f} s"))
        m = runs.get("mrt-nscc-trim")
        t = runs.get("tcp-dctcp")
        if m and t and name[0] in "123":
            bars.append((f"{name}: mrt-nscc-trim beats tcp-dctcp on p99 FCT",
                         m[0]["fct_p99_us"] < t[0]["fct_p99_us"],
                         f"{m[0]['fct_p99_us']:.1f} vs {t[0]['fct_p99_us']:.1f} us"))
            bars.append((f"{name}: mrt-nscc-trim beats tcp-dctcp on max FCT",
                         m[0]["fct_max_us"] < t[0]["fct_max_us"],
                         f"{m[0]['fct_max_us']:.1f} vs {t[0]['fct_max_us']:.1f} us"))
        if m and "incast" in name:
            s = m[0]
            bars.append((f"{name}: mrt-nscc-trim within 5 % of the line-rate ideal, no RTO",
                         s["last_done_us"] <= 1.05 * s["ideal_last_us"] and s["rtos"] == 0,
                         f"{s['last_done_us'] / s['ideal_last_us']:.3f} x ideal, "
                         f"{s['rtos']} RTOs"))
    md += ["## Bars", "", "| bar | met | figure |", "|---|---|---|"]
    md += [f"| {b} | {'yes' if ok else '**no**'} | {fig} |" for b, ok, fig in bars]
    open(os.path.join(out, "report.md"), "w").write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()

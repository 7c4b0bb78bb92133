#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's host side: from the guest's raw results (bench/run.py)
and the core microbenchmark (bench/microbench) to

  PREFIX.json          everything: configuration, versions, every run, the
                       medians with their min-max spread, the microbenchmark
  PREFIX.md            the tables
  PREFIX-goodput.png   goodput / line rate per algorithm and flow count
  PREFIX-p99.png       p99 queueing delay per algorithm and flow count
  PREFIX-nscc.png      one nscc run: each flow's window and the port's queue
  PREFIX-failover.png  mrt over four paths: each path's Mbit/s through a
                       path's failure and repair
  PREFIX-mrt-incast.png  mrt's incast with and without trimming: the
                       senders' windows and the port's queue

  report.py --raw RAW.json --micro MICRO.json --versions VERSIONS.json --out PREFIX
"""
import argparse
import json
import math
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402,F401


def spread(vals):
    """median, min, max of the values that exist (None if none)."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals),
            "n": len(vals)}


LONG_KEYS = ["goodput_frac", "goodput_mbit", "ss_goodput_frac", "p50_us", "p99_us", "p999_us",
             "ss_p50_us", "ss_p99_us", "ss_p999_us", "jain", "drops", "ss_drops", "retrans"]


def summarise(raw):
    cases = sorted({r["case"] for r in raw["runs"]},
                   key=lambda c: (c[:4] != "long", int(c[4:]) if c[4:].isdigit() else 0, c))
    keys = {"long": LONG_KEYS,
            "incast": ["completion_ms", "p99_us", "p999_us", "drops", "retrans"],
            "join": ["reach_ms", "newcomer_mbit"],
            "ordinary": ["goodput_mbit", "srtt_p50_us", "min_rtt_us", "retrans"],
            "cost": ["goodput_mbit", "retrans"]}
    out = {}
    for algo in raw["algos"] + raw.get("ordinary", []):
        out.setdefault(algo, {})
        for case in cases:
            runs = [r for r in raw["runs"] if r["algo"] == algo and r["case"] == case]
            if not runs:
                continue
            kind = "long" if case.startswith("long") else case
            out[algo][case] = {k: spread([r.get(k) for r in runs]) for k in keys[kind]}
            out[algo][case]["host_busy"] = sum(bool(r.get("host_busy")) for r in runs)
            if kind == "join":
                out[algo][case]["never"] = sum(r.get("reach_ms") is None for r in runs)
    cubic = out.get("cubic", {}).get("ordinary", {}).get("goodput_mbit")
    for algo in out:
        c = out[algo].get("ordinary")
        if c and cubic and c["goodput_mbit"]:
            c["ratio_to_cubic"] = c["goodput_mbit"]["median"] / cubic["median"]
    return cases, out


def vs_dctcp(summ, algo, case):
    """algo's steady state against dctcp's in one long case: goodput (as
    fractions of the line) and the ratios of the queueing-delay medians."""
    a, d = summ.get(algo, {}).get(case), summ.get("dctcp", {}).get(case)
    if not a or not d:
        return None
    out = {}
    for k in ("ss_goodput_frac", "ss_p50_us", "ss_p99_us"):
        if a.get(k) and d.get(k) and d[k]["median"]:
            out[k] = a[k]["median"] / d[k]["median"] if k != "ss_goodput_frac" else \
                a[k]["median"] - d[k]["median"]
    return out


def fmt(s, scale=1.0, digits=0, pct=False):
    if s is None:
        return "n/a"
    f = (lambda v: f"{100 * v * scale:.{digits}f}%") if pct else \
        (lambda v: f"{v * scale:.{digits}f}")
    if s["n"] == 1 or s["min"] == s["max"]:
        return f(s["median"])
    return f"{f(s['median'])} ({f(s['min'])}-{f(s['max'])})"


def us3(v):
    """Microseconds to three significant digits (the fine buckets' 12.5 %),
    rounded up: the figures are upper bounds."""
    for digits, scale in ((2, 100), (1, 10)):
        if v < 10 ** (3 - digits):
            return f"{math.ceil(v * scale - 1e-9) / scale:.{digits}f}"
    return f"{math.ceil(v - 1e-9):.0f}"


def delay(s):
    """Delay bounds from the histogram: an upper bound, "< N us"."""
    if s is None:
        return "n/a"
    if s["n"] == 1 or s["min"] == s["max"]:
        return f"< {us3(s['median'])}"
    return f"< {us3(s['median'])} ({us3(s['min'])}-{us3(s['max'])})"


def mrt_summary(mrt):
    """The medians of mrt's runs, by (case, algo, mtu)."""
    keys = ["goodput_mbit", "msgs_per_sec", "p50_us", "p99_us", "p999_us", "completion_ms",
            "ideal_ms", "vs_ideal", "total_nack_trimmed_rx", "port_trimmed",
            "total_rto_events", "rtx_trim", "total_rtx_sack", "rtx_rto", "total_qa_count",
            "drops", "retrans", "late_ms"]
    out = {}
    for r in mrt["runs"]:
        out.setdefault((r["case"], r["algo"], r.get("mtu")), []).append(r)
    return {k: {key: spread([r.get(key) for r in rs]) for key in keys}
            for k, rs in out.items()}


def mrt_markdown(raw, base):
    mrt = raw["mrt"]
    s = mrt_summary(mrt)
    ln = ["\n## mrt, the transport\n",
          "The ordinary path (a plain veth, no rate limit, so the VM's CPU is the "
          "bottleneck) at MTU 1500 (mss 1400) and 9000 (mss 8900): TCP cubic and nscc "
          "(data_rate_mbps=0 config_base_rtt_ns=0) streaming, against mrt streaming "
          "1 MiB messages with `tools/mrtperf` (data_rate_mbps=0 config_base_rtt_ns=0 "
          "rto_min_us=20000); mrt's rate of 64-byte messages, a `send()` each and "
          f"with `sendmmsg()`/`recvmmsg()` of {mrt.get('mmsg', 64)} (`mrtperf -b`), and "
          "its ping-pong latency "
          "for 4 KiB messages, beside TCP's request-response of 4 KiB (`mrtperf --tcp`, "
          f"TCP_NODELAY, cubic).  Below {mrt['profile_below']:g} of cubic's goodput, a "
          "CPU profile of the VM follows.\n",
          "| MTU | cubic (Mbit/s) | nscc auto (Mbit/s) | mrt 1 MiB (Mbit/s) | mrt / cubic "
          "| mrt 64 B (msgs/s) | mrt 64 B sendmmsg (msgs/s) "
          "| ping-pong 4 KiB p50 / p99 (us) | TCP request-response 4 KiB p50 / p99 (us) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for o in mrt["ordinary"]:
        m = o["mtu"]
        g = s.get(("mrt_goodput", "mrt", m), {})
        c = s.get(("tcp_goodput", "cubic", m), {})
        n = s.get(("tcp_goodput", "nscc auto", m), {})
        r = s.get(("mrt_rate64", "mrt", m), {})
        rm = s.get(("mrt_rate64_mmsg", "mrt", m), {})
        p = s.get(("mrt_pingpong", "mrt", m), {})
        tp = s.get(("tcp_pingpong", "tcp", m), {})
        ratio = o.get("ratio_to_cubic")
        ln.append(f"| {m} | {fmt(c.get('goodput_mbit'))} | {fmt(n.get('goodput_mbit'))} "
                  f"| {fmt(g.get('goodput_mbit'))} "
                  f"| {'n/a' if ratio is None else f'{ratio:.2f}'} "
                  f"| {fmt(r.get('msgs_per_sec'))} "
                  f"| {fmt(rm.get('msgs_per_sec'))} "
                  f"| {fmt(p.get('p50_us'))} / {fmt(p.get('p99_us'))} "
                  f"| {fmt(tp.get('p50_us'))} / {fmt(tp.get('p99_us'))} |")
    cpu = [r for r in mrt["runs"] if r["case"] == "cpu_per_gb"]
    if cpu:
        ln.append("\nBatches and the CPU a gigabyte costs (issue 36): one stream each, "
                  "the VM's busy CPU time (`/proc/stat`, both CPUs, sender and receiver "
                  "together) over the bytes moved; mrt at its defaults (32 EVs: a batch "
                  "is at most an EV's share of the window), with one EV (a single "
                  "path's setting: batches up to `tx_batch_max_pkts`) and with batches "
                  "off.  Packets per skb: data packets over the skbs the sender handed "
                  "the stack; ACKs per skb likewise at the receiver.\n")
        ln.append("| MTU | sender | goodput (Mbit/s) | CPU s per GB | softirq / system "
                  "| data packets per skb | ACKs per skb |")
        ln.append("|---|---|---|---|---|---|---|")
        def num(v, digits=0):
            return "n/a" if v is None else f"{v:.{digits}f}"
        for r in cpu:
            ln.append(f"| {r['mtu']} | {r['algo']} | {num(r['goodput_mbit'])} "
                      f"| {num(r['cpu_s_per_gb'], 2)} "
                      f"| {100 * r['softirq']:.0f} % / {100 * r['system']:.0f} % "
                      f"| {num(r.get('pkts_per_skb'), 2)} "
                      f"| {num(r.get('acks_per_skb'), 2)} |")
    n = mrt["incast_msgs"]
    ln.append(f"\nIncast: {mrt['senders']} senders x {n} message{'s' if n != 1 else ''} "
              "of 1 MiB "
              "at once to one receiver through the port (its rate and ECN thresholds as "
              f"above, its buffer {mrt.get('incast_limit', 0) // 1024} KB so that the "
              "incast overflows it), with trimming (data trimmable, the port trims to "
              "128 bytes above three quarters of its buffer) and without (it drops at "
              "its limit).  The TCP incast above moves as many bytes per sender, through "
              "the 1 MB buffer.  "
              "Last byte: from the common start to the last message read whole; ideal: "
              "the bytes at the port's rate plus one path RTT; late start: how long after "
              "the common start the last sender began (python under TCG), which the last "
              "byte includes.  Counters are the senders' (`/proc/net/mrt/snmp`).\n")
    ln.append("| case | last byte (ms) | ideal (ms) | ratio | late start (ms) | port trims "
              "| trim NACKs | RTOs | rtx trim / sack / rto | Quick Adapt | port drops "
              "| p99 queue (us) |")
    ln.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for case, name in (("mrt_incast_trim", "with trimming"),
                       ("mrt_incast_notrim", "without trimming")):
        x = s.get((case, "mrt", None))
        if not x:
            continue
        ln.append(f"| {name} | {fmt(x['completion_ms'], digits=1)} "
                  f"| {fmt(x['ideal_ms'], digits=1)} | {fmt(x['vs_ideal'], digits=2)} "
                  f"| {fmt(x['late_ms'])} "
                  f"| {fmt(x['port_trimmed'])} | {fmt(x['total_nack_trimmed_rx'])} "
                  f"| {fmt(x['total_rto_events'])} | {fmt(x['rtx_trim'])} / "
                  f"{fmt(x['total_rtx_sack'])} / {fmt(x['rtx_rto'])} "
                  f"| {fmt(x['total_qa_count'])} | {fmt(x['drops'])} "
                  f"| {delay(x['p99_us'])} |")
    if mrt.get("timeseries"):
        ln.append(f"\n![mrt incast: windows and queue]({base}-mrt-incast.png)")
    for o in mrt["ordinary"]:
        prof = o.get("profile")
        if prof:
            split = ", ".join(f"{k} {100 * v:.0f} %" for k, v in prof["cpu_split"].items()
                              if v >= 0.01)
            ln.append(f"\nWhere the VM's CPU goes while mrt streams at MTU {o['mtu']}: "
                      f"{split} (`/proc/stat` over the stream).  Functions with at "
                      "least 1 % of the timer interrupt's samples "
                      f"({prof.get('samples', 0)}, idle included; a kprobe on its entry "
                      "records the interrupted instruction, since `perf`'s cpu-clock "
                      "samples fall on the idle loop under TCG):\n")
            ln.append("```")
            ln += prof["perf"]
            ln.append("```")
    return ln


def fi_markdown(raw):
    fi = raw["libfabric"]
    ln = ["\n## libfabric: fi_pingpong over mrt and over sockets\n",
          "Debian's `fi_pingpong -e rdm` on the ordinary path, over the mrt provider "
          "(`tools/libfabric`, net.mrt data_rate_mbps=0 config_base_rtt_ns=0 "
          "rto_min_us=20000, mss 1400 or 8900), over libfabric's own `sockets` provider "
          "(TCP) and, for context, its `tcp` provider (`tcp;ofi_rxm`), in the same VM run, "
          "at MTU 1500 and 9000.  Latency: the median over the "
          "runs of fi_pingpong's mean time per transfer (one way) of "
          f"{fi['lat_iters']} round trips of 4 KiB; bandwidth: the median MB/s of runs of "
          f"{fi['bw_iters']} round trips of 1 MiB.\n",
          "| MTU | provider | 4 KiB (us per transfer) | 1 MiB (MB/s) |", "|---|---|---|---|"]
    by = {(x["prov"], x["mtu"]): x for x in fi["summary"]}
    for x in fi["summary"]:
        ln.append(f"| {x['mtu']} | {x['prov']} | {x['lat_4k_us']:.1f} | "
                  f"{x['bw_1m_mb_s']:.0f} |")
    for mtu in sorted({x["mtu"] for x in fi["summary"]}):
        m, k = by.get(("mrt", mtu)), by.get(("sockets", mtu))
        if m and k:
            ln.append(f"\nMTU {mtu}, mrt against sockets: latency "
                      f"{m['lat_4k_us'] / k['lat_4k_us']:.3f}x (below 1 is better), "
                      f"bandwidth {m['bw_1m_mb_s'] / k['bw_1m_mb_s']:.2f}x (above 1 is better).")
    return ln


def mp_markdown(raw, base):
    mp = raw["multipath"]
    cap = mp["rate_mbit"] * mp["paths"]
    ln = ["\n## mrt multipath\n",
          f"The tests' topology (`multipath_topo {mp['paths']}`: S - R - W1..W{mp['paths']} - D, "
          f"R's route hashed on L4): each path a sch_fabric port `{mp['port']}`, "
          f"{cap} Mbit/s in all.  mrt attributes {mp['attrs']}.  Goodput: mrtperf's 64 KiB "
          "messages for mrt, four flows.py flows for TCP (where the router's hash puts "
          "them: a forwarded TCP packet keeps its socket's random L4 hash, so the "
          "path shares say how they fell).\n",
          "| sender | goodput (Mbit/s) | of the four paths | path shares |",
          "|---|---|---|---|"]
    for kind in ("mrt-spray", "mrt-one-ev", "tcp-cubic", "tcp-nscc"):
        runs = [r for r in mp["runs"] if r["case"] == "mp_goodput" and r["algo"] == kind]
        if not runs:
            continue
        g = spread([r["goodput_mbit"] for r in runs])
        f = spread([r["goodput_frac"] for r in runs])
        shares = runs[len(runs) // 2]["path_share"]
        ln.append(f"| {kind} | {fmt(g)} | {fmt(f, digits=2)} | "
                  f"{' / '.join(f'{x:.2f}' for x in shares)} |")
    fo = [r for r in mp["runs"] if r["case"] == "mp_failover"]
    if fo:
        ln.append(f"\nFailover: mrt spraying {mp['msg_bytes'] // 1024} KiB messages; path 2 "
                  f"blackholed (netem loss 100 %) at {fo[0]['fail_s']} s and repaired at "
                  f"{fo[0]['repair_s']} s.  With the path down, goodput from 0.5 s after the "
                  "failure to the repair against the three paths left (the project's goal "
                  "0.9, this issue's bar 0.7); the first message completed after the "
                  "failure, and the longest gap between completions in the 3 s after it.  "
                  "Every message arrived once, intact (or the case fails).\n")
        ln.append("| healthy (Mbit/s) | one path down (Mbit/s) | of the three left "
                  "| repaired (Mbit/s) | first message after (ms) | longest gap (ms) "
                  "| EVs to ASSUMED_BAD | probed GOOD | RTOs |")
        ln.append("|---|---|---|---|---|---|---|---|---|")
        sp = {k: spread([r.get(k) for r in fo]) for k in
              ("healthy_mbit", "down_mbit", "down_frac_of_left", "back_mbit",
               "first_after_ms", "stall_ms", "ev_to_assumed_bad", "ev_probed_good",
               "total_rto_events")}
        ln.append(f"| {fmt(sp['healthy_mbit'])} | {fmt(sp['down_mbit'])} | "
                  f"{fmt(sp['down_frac_of_left'], digits=2)} | {fmt(sp['back_mbit'])} | "
                  f"{fmt(sp['first_after_ms'], digits=1)} | {fmt(sp['stall_ms'], digits=1)} | "
                  f"{fmt(sp['ev_to_assumed_bad'])} | {fmt(sp['ev_probed_good'])} | "
                  f"{fmt(sp['total_rto_events'])} |")
        ln.append(f"\n![per-path Mbit/s through a failure]({base}-failover.png)")
    return ln


def mrt_incast_plot(raw, path):
    ts = raw["mrt"]["timeseries"]
    cases = [c for c in ("mrt_incast_trim", "mrt_incast_notrim") if c in ts]
    fig, axes = plt.subplots(2, len(cases), figsize=(5 * len(cases), 5), sharex="col",
                             squeeze=False)
    for j, case in enumerate(cases):
        w, q = ts[case]["window"], ts[case]["queue"]
        a1, a2 = axes[0][j], axes[1][j]
        for lid in sorted({p[2] for p in w}):
            pts = [p for p in w if p[2] == lid]
            a1.plot([p[0] for p in pts], [p[1] / 1000 for p in pts], lw=0.7)
        a1.set_title(f"{'with' if case.endswith('_trim') else 'without'} trimming: "
                     f"{len({p[2] for p in w})} senders' windows")
        a1.set_ylabel("window (kB)")
        a1.grid(alpha=0.3)
        a2.plot([p[0] for p in q], [p[1] / 1000 for p in q], lw=0.8, color="tab:red")
        a2.set_ylabel("port backlog (kB)")
        a2.set_xlabel(f"time from the start (s); the queue in {len(q)} samples of tc "
                      "(50 ms apart at best: tc is slow under TCG)")
        a2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def failover_plot(raw, path):
    fo = [r for r in raw["multipath"]["runs"] if r["case"] == "mp_failover"][0]
    fig, ax = plt.subplots(figsize=(8, 4))
    pts = fo["paths"]
    for i in range(1, len(pts[0])):
        ax.plot([p[0] for p in pts], [p[i] for p in pts], lw=0.9, label=f"path {i}")
    ax.axvline(fo["fail_s"], color="k", ls="--", lw=0.8)
    ax.axvline(fo["repair_s"], color="k", ls=":", lw=0.8)
    ax.text(fo["fail_s"], ax.get_ylim()[1] * 0.95, " path 2 fails", fontsize=8)
    ax.text(fo["repair_s"], ax.get_ylim()[1] * 0.95, " repaired", fontsize=8)
    ax.set_xlabel("time from the start (s), 100 ms bins")
    ax.set_ylabel("Mbit/s sent by each path's port")
    ax.set_title("mrt spraying over four paths: a failure and a repair")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def markdown(raw, cases, summ, micro, versions, prefix):
    base = os.path.basename(prefix)
    longs = [c for c in cases if c.startswith("long")]
    ln = []
    ln.append(f"# Benchmark {base}{' (QUICK)' if raw['quick'] else ''}\n")
    ln.append(f"Port: `{raw['port']}` ({raw.get('rate_why', '')}); "
              f"{raw['reps']} run(s) per case, medians with (min-max); long-lived flows "
              f"run {raw['seconds']:.0f} s; \"steady\" leaves out their first "
              f"{raw.get('steady_after_s', 0.5)} s.  Queueing delays are upper bounds "
              f"from the port's fine histogram (12.5 % buckets).\n")
    if raw.get("calibration"):
        ln.append("Calibration (one dctcp flow per rate): the VM's own delay is the "
                  "flow's srtt less the port's queueing delay and the minimum RTT.\n")
        ln.append("| rate (Mbit/s) | srtt (us) | port p50 (us) | min RTT (us) "
                  "| path RTT under load (us) | VM's own delay (us) |")
        ln.append("|---|---|---|---|---|---|")
        for m in raw["calibration"]:
            ln.append(f"| {m['rate_mbit']} | {m['srtt_us']} | < {us3(m['port_p50_us'])} "
                      f"| {m['min_rtt_us']} | {m['path_rtt_us']:.0f} "
                      f"| {m['vm_delay_us']:.0f} |")
        ln.append("")
    ln.append("Sizing, from the loaded path:\n")
    for r in raw.get("sizing", []):
        ln.append(f"- {r}")
    ln.append("\nAttributes set:\n")
    for algo, attrs in raw["attributes"].items():
        ln.append(f"- {algo}: " + ", ".join(f"`{k}={v}`" for k, v in attrs.items()))
    ln.append("")
    ln.append("Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + "\n")
    late = max((r.get("late_ms") or 0 for r in raw["runs"]), default=0)
    ln.append(f"Flows meant to start together started at most {late:.0f} ms apart.")
    if raw.get("host_load"):
        busy = raw.get("busy_runs", [])
        still = sum(bool(r.get("host_busy")) for r in raw["runs"])
        cpus = [r["host_cpus"] for r in raw["runs"] if r.get("host_cpus") is not None]
        ln.append(f"Host CPU use outside QEMU per case: median {statistics.median(cpus):.2f}, "
                  f"at most {max(cpus):.2f} CPUs; {len(busy)} attempt(s) ran again for a "
                  f"busy host (above {raw['host_busy_cpus']} CPUs), {still} kept busy "
                  f"after two retries.\n" if cpus else "")
    else:
        ln.append("Host CPU use was not recorded (run outside scripts/bench).\n")

    ln.append("## Each algorithm against dctcp\n")
    ln.append("Steady state.  Goodput in points of the line rate against dctcp's "
              "(the comparison holds at equal goodput: within a few points), and "
              "the queueing delay as a multiple of dctcp's.\n")
    ln.append("| algorithm | " + " | ".join(f"{c[4:]} flow(s): goodput, p50, p99 x dctcp"
                                           for c in longs) + " |")
    ln.append("|---|" + "---|" * len(longs))
    for algo in raw["algos"]:
        if algo == "dctcp":
            continue
        cells = []
        for c in longs:
            v = vs_dctcp(summ, algo, c)
            if not v:
                cells.append("n/a")
                continue
            g = v.get("ss_goodput_frac")
            cells.append(f"{'n/a' if g is None else f'{100 * g:+.0f}'} pt, "
                         f"{v.get('ss_p50_us', float('nan')):.2f}, "
                         f"{v.get('ss_p99_us', float('nan')):.2f}")
        ln.append(f"| {algo} | " + " | ".join(cells) + " |")
    ln.append("")
    for case in longs:
        n = case[4:]
        ln.append(f"## {n} long-lived flow{'s' if n != '1' else ''}\n")
        ln.append("| algorithm | goodput / line: steady, whole | queue p50 (us): steady, whole "
                  "| p99 (us): steady, whole | p99.9 (us): steady, whole | Jain | drops "
                  "| retransmits |")
        ln.append("|---|---|---|---|---|---|---|---|")
        for algo in raw["algos"]:
            s = summ[algo].get(case)
            if not s:
                continue
            ln.append(f"| {algo} | {fmt(s['ss_goodput_frac'], pct=True)}, "
                      f"{fmt(s['goodput_frac'], pct=True)} "
                      f"| {delay(s['ss_p50_us'])}, {delay(s['p50_us'])} "
                      f"| {delay(s['ss_p99_us'])}, {delay(s['p99_us'])} "
                      f"| {delay(s['ss_p999_us'])}, {delay(s['p999_us'])} "
                      f"| {fmt(s['jain'], digits=3)} "
                      f"| {fmt(s['drops'])} | {fmt(s['retrans'])} |")
        ln.append("")
    ln.append(f"## Incast: {raw['senders']} senders x {raw['incast_bytes'] >> 20} MiB\n")
    ln.append("| algorithm | last byte (ms) | queue p99 (us) | queue p99.9 (us) | drops "
              "| retransmits |")
    ln.append("|---|---|---|---|---|---|")
    for algo in raw["algos"]:
        s = summ[algo].get("incast")
        if s:
            ln.append(f"| {algo} | {fmt(s['completion_ms'], digits=1)} | {delay(s['p99_us'])} "
                      f"| {delay(s['p999_us'])} | {fmt(s['drops'])} | {fmt(s['retrans'])} |")
    ln.append("\n## A flow joins two others\n")
    ln.append("Time from the newcomer's first byte until a 50 ms interval at 80% or more "
              "of its fair share (a third of what the three flows delivered while it ran); "
              "\"never\" counts runs where it did not.\n")
    ln.append("| algorithm | time to fair share (ms) | never | newcomer's mean (Mbit/s) |")
    ln.append("|---|---|---|---|")
    for algo in raw["algos"]:
        s = summ[algo].get("join")
        if s:
            ln.append(f"| {algo} | {fmt(s['reach_ms'])} | {s['never']} "
                      f"| {fmt(s['newcomer_mbit'])} |")
    if raw.get("ordinary"):
        ln.append("\n## The ordinary path: a plain veth to a cubic receiver\n")
        ln.append("One flow, no rate limit (the VM's CPU is the bottleneck), to a receiver "
                  "that delays ACKs; each algorithm at the spec's defaults and at the "
                  "settings that follow the path (nscc `data_rate_mbps=0 "
                  "config_base_rtt_ns=0`, swift `base_target_ns=0`, dcqcn "
                  "`data_rate_mbps=0`).  srtt: the median of TCP's smoothed RTT every "
                  "20 ms after the first 0.5 s.\n")
        ln.append("| algorithm | goodput (Mbit/s) | ratio to cubic | srtt (us) "
                  "| min RTT (us) | retransmits |")
        ln.append("|---|---|---|---|---|---|")
        for name in raw["ordinary"]:
            s = summ.get(name, {}).get("ordinary")
            if s:
                r = s.get("ratio_to_cubic")
                ln.append(f"| {name} | {fmt(s['goodput_mbit'])} | "
                          f"{'n/a' if r is None else f'{r:.2f}'} | {fmt(s['srtt_p50_us'])} "
                          f"| {fmt(s['min_rtt_us'])} | {fmt(s['retrans'])} |")
    if raw.get("mrt"):
        ln += mrt_markdown(raw, base)
    if raw.get("libfabric"):
        ln += fi_markdown(raw)
    if raw.get("multipath"):
        ln += mp_markdown(raw, base)
    if micro:
        ln.append(f"\n## Core microbenchmark ({micro['events']} events, median of "
                  f"{micro['reps']}; {micro.get('compiler', '')})\n")
        ln.append("| core | ns per ACK event | ratio to a Reno update |")
        ln.append("|---|---|---|")
        for r in micro["results"]:
            ln.append(f"| {r['algo']} | {r['ns_per_event']:.1f} ({r['min']:.1f}-{r['max']:.1f}) "
                      f"| {r['ratio_to_reno']:.1f} |")
    if raw["runs"]:
        ln.append(f"\n![goodput]({base}-goodput.png)\n![p99 queueing delay]({base}-p99.png)")
    if raw.get("timeseries"):
        ln.append(f"![nscc window and queue]({base}-nscc.png)")
    return "\n".join(ln) + "\n"


def bars(raw, cases, summ, key, ylabel, title, path, scale=1.0, log=False):
    longs = [c for c in cases if c.startswith("long")]
    algos = raw["algos"]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(len(longs), 1)
    for j, case in enumerate(longs):
        med, lo, hi, xs = [], [], [], []
        for i, algo in enumerate(algos):
            s = summ[algo].get(case, {}).get(key)
            if not s:
                continue
            xs.append(i + (j - (len(longs) - 1) / 2) * width)
            med.append(s["median"] * scale)
            lo.append((s["median"] - s["min"]) * scale)
            hi.append((s["max"] - s["median"]) * scale)
        ax.bar(xs, med, width, yerr=[lo, hi], capsize=2, label=f"{case[4:]} flow(s)")
    ax.set_xticks(range(len(algos)))
    ax.set_xticklabels(algos)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if log and any(p.get_height() > 0 for p in ax.patches):
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def timeseries(raw, path):
    ts = raw["timeseries"]
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(8, 5), sharex=True)
    for sport in sorted({p[2] for p in ts["window"]}):
        pts = [p for p in ts["window"] if p[2] == sport]
        a1.plot([p[0] for p in pts], [p[1] / 1000 for p in pts], lw=0.8,
                label=f"flow :{sport}")
    ws = sorted(p[1] / 1000 for p in ts["window"])
    a1.set_ylim(0, 1.2 * ws[len(ws) * 99 // 100])  # the first max window would flatten it
    a1.set_ylabel("window (kB); the start, at max window, is cut off")
    a1.set_title(f"{ts['algo']}, {ts['flows']} flows: window and queue")
    a1.legend(fontsize=8)
    a1.grid(alpha=0.3)
    a2.plot([q[0] for q in ts["queue"]], [q[1] / 1000 for q in ts["queue"]], lw=0.8,
            color="tab:red")
    a2.set_ylabel("port backlog (kB)")
    a2.set_xlabel("time from the flows' start (s); window from the tracepoint, "
                  "queue sampled every 50 ms")
    a2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--micro")
    ap.add_argument("--versions")
    ap.add_argument("--out", required=True, help="path prefix of the outputs")
    a = ap.parse_args()
    if os.path.abspath(a.out + ".json") == os.path.abspath(a.raw):
        ap.error(f"--out {a.out} would write {a.raw}, the raw results it reads")
    with open(a.raw) as f:
        raw = json.load(f)
    micro = versions = None
    if a.micro:
        with open(a.micro) as f:
            micro = json.load(f)
    if a.versions:
        with open(a.versions) as f:
            versions = json.load(f)
    versions = versions or {}
    cases, summ = summarise(raw)
    doc = {"config": {k: v for k, v in raw.items()
                      if k not in ("runs", "timeseries", "mrt", "multipath", "libfabric")},
           "mrt": raw.get("mrt"), "multipath": raw.get("multipath"),
           "libfabric": raw.get("libfabric"),
           "versions": versions, "summary": summ, "microbench": micro, "runs": raw["runs"],
           "timeseries": raw.get("timeseries")}
    with open(a.out + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    with open(a.out + ".md", "w") as f:
        f.write(markdown(raw, cases, summ, micro, versions, a.out))
    if raw.get("mrt") and raw["mrt"].get("timeseries"):
        mrt_incast_plot(raw, a.out + "-mrt-incast.png")
    if raw.get("multipath") and any(r["case"] == "mp_failover"
                                     for r in raw["multipath"]["runs"]):
        failover_plot(raw, a.out + "-failover.png")
    if not raw["runs"]:             # --cases mrt alone: no other plots
        print(f"report: {a.out}.md and {a.out}.json")
        return 0
    bars(raw, cases, summ, "ss_goodput_frac", "goodput / line rate (steady state)",
         "Goodput", a.out + "-goodput.png", scale=1.0)
    bars(raw, cases, summ, "ss_p99_us", "p99 queueing delay (ms, steady, histogram bound)",
         "Queueing delay at the port, p99", a.out + "-p99.png", scale=1e-3, log=True)
    if raw.get("timeseries") and raw["timeseries"]["window"]:
        timeseries(raw, a.out + "-nscc.png")
    print(f"report: {a.out}.md, {a.out}.json and plots")
    return 0


if __name__ == "__main__":
    sys.exit(main())

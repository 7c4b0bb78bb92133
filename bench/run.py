#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's guest side: congestion controls side by side on one
switch port, in one VM (scripts/bench runs it through scripts/vm-run).

Topology (Documentation/benchmarks.rst): senders S1..S8, each on its own
veth to the switch netns R, whose port toward the receiver B is a
sch_fabric qdisc at --rate-mbit with ECN thresholds sized from the
measured base RTT.  For the cost scenario, a plain veth pair C -- D.

Scenarios, for every algorithm, --reps times each:
  long      N long-lived flows (N = 1, 2, 8): goodput / line rate, the
            port's queueing delay p50 and p99 (its per-packet histogram),
            Jain's fairness index, drops, retransmissions;
  incast    8 senders x --incast-bytes at once: completion time of the
            last byte, p99 queueing delay, drops;
  join      2 flows run; a third joins and later leaves: the time the
            newcomer takes to reach 80% of its fair share (1/3 of line);
  cost      one flow over the plain veth pair, no rate limit (CPU-bound).

Prints progress on stderr and writes one JSON document (--out).  It never
judges a figure; any case that cannot run raises and the run fails.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOWS = os.path.join(TOP, "bench", "flows.py")
TC_ENV = dict(os.environ, TC_LIB_DIR=os.path.join(TOP, "tools", "tc"))
ALGOS = ["cubic", "dctcp", "bbr", "nscc", "dcqcn", "swift"]
MODULES = {"dctcp": "tcp_dctcp", "bbr": "tcp_bbr", "nscc": "tcp_nscc",
           "dcqcn": "tcp_dcqcn", "swift": "tcp_swift"}
NSENDERS = 8
RX = "198.18.100.1"
# Flows start together at a time this far ahead: python and ip netns exec
# take up to a second or two to start under TCG.
LEAD_NS = int(3e9)


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def sh(*cmd, ns=None, check=True, env=None, capture=True):
    if ns:
        cmd = ("ip", "netns", "exec", ns) + cmd
    r = subprocess.run(cmd, capture_output=capture, text=True, env=env)
    if check and r.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def sysctl(ns, key, val):
    sh("sysctl", "-qw", f"{key}={val}", ns=ns)


class Topo:
    def __init__(self, rate_mbit):
        self.rate_mbit = rate_mbit
        self.tag = f"b{os.getpid()}"
        self.senders = [f"{self.tag}s{i}" for i in range(1, NSENDERS + 1)]
        self.r, self.b = f"{self.tag}r", f"{self.tag}b"
        self.c, self.d = f"{self.tag}c", f"{self.tag}d"
        self.all = self.senders + [self.r, self.b, self.c, self.d]

    def link(self, ns1, if1, a1, ns2, if2, a2, sub):
        sh("ip", "link", "add", if1, "netns", ns1, "type", "veth", "peer", "name", if2,
           "netns", ns2)
        for ns, ifn, a in ((ns1, if1, a1), (ns2, if2, a2)):
            sh("ip", "-n", ns, "addr", "add", f"198.18.{sub}.{a}/24", "dev", ifn)
            sh("ip", "-n", ns, "link", "set", ifn, "up")

    def build(self):
        for ns in self.all:
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        self.link(self.b, "b0", 1, self.r, "rb", 2, 100)
        sh("ip", "-n", self.b, "route", "add", "default", "via", "198.18.100.2", "quickack", "1")
        for i, ns in enumerate(self.senders, 1):
            self.link(ns, "s0", 1, self.r, f"r{i}", 2, i)
            sh("ip", "-n", ns, "route", "add", "default", "via", f"198.18.{i}.2")
        sysctl(self.r, "net.ipv4.ip_forward", 1)
        self.link(self.c, "c0", 1, self.d, "d0", 2, 200)
        sh("ip", "-n", self.d, "route", "change", "198.18.200.0/24", "dev", "d0", "quickack", "1")

    def destroy(self):
        for ns in self.all:
            subprocess.run(["ip", "netns", "pids", ns], capture_output=True)
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True,
                                  text=True).stdout.split()
            for p in pids:
                try:
                    os.kill(int(p), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def port(self, opts):
        subprocess.run(["tc", "-n", self.r, "qdisc", "del", "dev", "rb", "root"],
                       capture_output=True, env=TC_ENV)
        sh("tc", "-n", self.r, "qdisc", "add", "dev", "rb", "root", "fabric", *opts.split(),
           env=TC_ENV)

    def port_stats(self):
        out = sh("tc", "-n", self.r, "-s", "-j", "qdisc", "show", "dev", "rb", env=TC_ENV)
        return next(q for q in json.loads(out) if q.get("kind") == "fabric")


def base_rtt_us(topo):
    """Minimum of 200 TCP request/response round trips from S1 to B."""
    code = ("import socket,sys,time\n"
            "s=socket.create_connection((sys.argv[1],7999)); best=1e9\n"
            "s.setsockopt(socket.IPPROTO_TCP,socket.TCP_NODELAY,1)\n"
            "for _ in range(200):\n"
            " t=time.perf_counter(); s.sendall(b'x'); s.recv(1)\n"
            " best=min(best,time.perf_counter()-t)\n"
            "print(best*1e6)\n")
    srv = ("import socket\n"
           "l=socket.socket(); l.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
           "l.bind(('198.18.100.1',7999)); l.listen(1); c,_=l.accept()\n"
           "c.setsockopt(socket.IPPROTO_TCP,socket.TCP_NODELAY,1)\n"
           "while True:\n"
           " d=c.recv(1)\n"
           " if not d: break\n"
           " c.sendall(d)\n")
    p = subprocess.Popen(["ip", "netns", "exec", topo.b, "python3", "-c", srv])
    try:
        time.sleep(0.5)
        return float(sh("python3", "-c", code, RX, ns=topo.senders[0]))
    finally:
        p.wait(timeout=10)


def set_algo(topo, algo, attrs, cost_attrs):
    for ns in topo.senders + [topo.b, topo.c, topo.d]:
        sysctl(ns, "net.ipv4.tcp_congestion_control", algo)
        use = cost_attrs if ns in (topo.c, topo.d) else attrs
        for k, v in use.get(algo, {}).items():
            sysctl(ns, k, v)


def late_ms(res, start):
    """How late the last flow started after the common start, in ms."""
    return max(0.0, (max(c["start_ns"] for c in res) - start) / 1e6)


class Server:
    """flows.py server in B (or D); records one JSON line per connection."""

    def __init__(self, ns, addr, port):
        self.out = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen(["ip", "netns", "exec", ns, "python3", FLOWS, "server",
                                   addr, str(port)], stdout=self.out,
                                  stderr=subprocess.PIPE, text=True)
        if self.p.stderr.readline().strip() != "ready":
            raise RuntimeError("flow server did not start")

    def stop(self, expect):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            self.out.seek(0)
            recs = [json.loads(line) for line in self.out if line.strip()]
            if len(recs) >= expect:
                break
            time.sleep(0.1)
        self.p.terminate()
        self.p.wait(timeout=10)
        if len(recs) < expect:
            raise RuntimeError(f"flow server saw {len(recs)} of {expect} flows")
        return recs


def clients(specs):
    """specs: [(ns, addr, port, args...)]: runs them, returns their JSON."""
    procs = [subprocess.Popen(["ip", "netns", "exec", ns, "python3", FLOWS, "client",
                               addr, str(port)] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for ns, addr, port, *args in specs]
    out = []
    for p in procs:
        o, e = p.communicate(timeout=120)
        if p.returncode:
            raise RuntimeError(f"flow client failed: {e.strip()}")
        out.append(json.loads(o))
    return out


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if xs and any(xs) else 0.0


def qdelay(st):
    """Queueing-delay percentiles: upper bounds from the fine histogram (12.5 %
    buckets), or the power-of-two ones from an older module."""
    def fine(key):
        ns = st.get(f"delay_fine_{key}_ns")
        return ns / 1000 if ns is not None else st.get(f"delay_{key}_us")
    return {"p50_us": fine("p50"), "p99_us": fine("p99"), "p999_us": fine("p999"),
            "drops": st.get("drop_limit", 0) + st.get("trim_dropped", 0),
            "ecn_marked": st.get("ecn_marked", 0), "max_backlog": st.get("max_backlog")}


def run_long(topo, algo, n, secs, port_opts, sampler=None):
    topo.port(port_opts)
    srv = Server(topo.b, RX, 6000)
    start = time.time_ns() + LEAD_NS
    if sampler:
        sampler.start(time.monotonic() + LEAD_NS / 1e9)
    res = clients([(topo.senders[i], RX, 6000, "--cc", algo, "--seconds", str(secs),
                    "--start-at", str(start)) for i in range(n)])
    if sampler:
        sampler.stop()
    recs = srv.stop(n)
    rates = [r["bytes"] * 8 / max(r["last_ns"] - r["first_ns"], 1) * 1e3 for r in recs]
    first = min(r["first_ns"] for r in recs)
    last = max(r["last_ns"] for r in recs)
    total = sum(r["bytes"] for r in recs) * 8 / max(last - first, 1) * 1e3
    out = {"goodput_mbit": total, "goodput_frac": total / topo.rate_mbit,
           "jain": jain(rates), "flow_mbit": rates,
           "retrans": sum(c["retrans"] for c in res), "late_ms": late_ms(res, start)}
    out.update(qdelay(topo.port_stats()))
    return out


def run_incast(topo, algo, nbytes, port_opts):
    topo.port(port_opts)
    srv = Server(topo.b, RX, 6100)
    start = time.time_ns() + LEAD_NS
    res = clients([(ns, RX, 6100, "--cc", algo, "--bytes", str(nbytes),
                    "--start-at", str(start)) for ns in topo.senders])
    srv.stop(len(topo.senders))
    out = {"completion_ms": (max(c["end_ns"] for c in res) - start) / 1e6,
           "retrans": sum(c["retrans"] for c in res), "late_ms": late_ms(res, start)}
    out.update(qdelay(topo.port_stats()))
    return out


def run_join(topo, algo, secs, port_opts):
    """Two flows for secs; a third joins at secs/3 and leaves at 2 secs/3.

    Its fair share is a third of what the three flows together delivered
    while it ran (the VM may not fill the line): the time is from its
    first byte to the end of the first 50 ms bin at 80% of that or more.
    """
    topo.port(port_opts)
    srv = Server(topo.b, RX, 6200)
    start = time.time_ns() + LEAD_NS
    join = start + int(secs / 3 * 1e9)
    specs = [(topo.senders[i], RX, 6200, "--cc", algo, "--seconds", str(secs),
              "--start-at", str(start)) for i in range(2)]
    specs.append((topo.senders[2], RX, 6200, "--cc", algo, "--seconds", str(secs / 3),
                  "--start-at", str(join)))
    res = clients(specs)
    recs = srv.stop(3)
    new = min(recs, key=lambda r: abs(r["first_ns"] - res[2]["start_ns"]))
    lo, hi = new["first_ns"], new["last_ns"]
    total = 0
    for r in recs:
        for i, b in enumerate(r["bins"]):
            t = r["bin0"] + i * r["bin_ns"]
            if lo <= t and t + r["bin_ns"] <= hi:
                total += b
    fair = total * 8 / max(hi - lo, 1) * 1e3 / 3
    t_reach = None
    for i, b in enumerate(new["bins"]):
        if b * 8 / new["bin_ns"] * 1e3 >= 0.8 * fair:
            t_reach = (new["bin0"] + (i + 1) * new["bin_ns"] - new["first_ns"]) / 1e6
            break
    return {"reach_ms": t_reach, "fair_mbit": fair,
            "newcomer_mbit": new["bytes"] * 8 / max(hi - lo, 1) * 1e3,
            "late_ms": late_ms(res[:2], start)}


def run_cost(topo, algo, secs):
    srv = Server(topo.d, "198.18.200.2", 6300)
    res = clients([(topo.c, "198.18.200.2", 6300, "--cc", algo, "--seconds", str(secs))])
    recs = srv.stop(1)
    r = recs[0]
    return {"goodput_mbit": r["bytes"] * 8 / max(r["last_ns"] - r["first_ns"], 1) * 1e3,
            "retrans": res[0]["retrans"]}


class Sampler:
    """The port's backlog every 50 ms, and the nscc tracepoint, for one run."""

    TRACE = "/sys/kernel/tracing"

    def __init__(self, topo):
        self.topo, self.queue, self.stop_ev = topo, [], threading.Event()

    def start(self, t0):
        """t0: the flows' common start, CLOCK_MONOTONIC seconds."""
        with open(f"{self.TRACE}/trace_clock", "w") as f:
            f.write("mono")
        with open(f"{self.TRACE}/trace", "w") as f:
            f.write("")
        with open(f"{self.TRACE}/buffer_size_kb", "w") as f:
            f.write("8192")
        with open(f"{self.TRACE}/events/nscc/nscc_update/enable", "w") as f:
            f.write("1")
        self.t0 = t0
        self.th = threading.Thread(target=self.loop, daemon=True)
        self.th.start()

    def loop(self):
        while not self.stop_ev.is_set():
            st = self.topo.port_stats()
            self.queue.append([round(time.monotonic() - self.t0, 3),
                               st.get("data_backlog", 0) + st.get("hdr_backlog", 0)])
            time.sleep(0.05)

    def stop(self):
        self.stop_ev.set()
        self.th.join()
        with open(f"{self.TRACE}/events/nscc/nscc_update/enable", "w") as f:
            f.write("0")

    def window(self):
        """(t_s, cwnd_bytes, sport) of the senders' updates, at most 4000."""
        pts = []
        with open(f"{self.TRACE}/trace") as f:
            for line in f:
                if "nscc_update:" not in line:
                    continue
                head, _, body = line.partition("nscc_update:")
                t = float(head.split()[-1].rstrip(":"))
                kv = dict(x.split("=", 1) for x in body.split())
                pts.append((t, int(kv["cwnd"]), int(kv["sport"]), int(kv["dport"])))
        pts = [p for p in pts if p[3] == 6000]
        step = max(1, len(pts) // 4000)
        return [[round(t - self.t0, 4), c, s] for t, c, s, _ in pts[::step]]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rate-mbit", type=int, default=400)
    a = ap.parse_args()
    reps = 1 if a.quick else 3
    secs = 2.0 if a.quick else 4.0
    ns_list = [1, 2] if a.quick else [1, 2, 8]
    incast_bytes = (1 if a.quick else 2) << 20

    for m in ["sch_fabric"] + list(MODULES.values()):
        sh("modprobe", m)
    allowed = sh("sysctl", "-n", "net.ipv4.tcp_allowed_congestion_control").split()
    sysctl(None, "net.ipv4.tcp_allowed_congestion_control",
           " ".join(dict.fromkeys(allowed + ALGOS)))

    topo = Topo(a.rate_mbit)
    topo.destroy()
    topo.build()
    try:
        rtt = base_rtt_us(topo)
        bdp = int(a.rate_mbit * 1e6 / 8 * rtt / 1e6)
        k = max(bdp, 15000)
        port_opts = (f"rate {a.rate_mbit}mbit limit 1mb ecn_min {k}b ecn_max {3 * k}b "
                     f"ecn_prob 20")
        base_ns = max(int(rtt * 1000), 20000)
        # The senders' NICs are veths (about 10 Gbit/s): NSCC's max window is
        # 1.5 x that rate x the measured base RTT.  DCQCN's line rate is the
        # port's, so that its floor (10%) lies below the bottleneck.
        attrs = {
            "nscc": {"net.nscc.flavour": "uet", "net.nscc.data_rate_mbps": 10000,
                     "net.nscc.config_base_rtt_ns": 2 * base_ns,
                     "net.nscc.quick_adapt_threshold_ns": 8 * base_ns},
            "dcqcn": {"net.dcqcn.data_rate_mbps": a.rate_mbit},
            "swift": {"net.swift.base_target_ns": 2 * base_ns + 50000, "net.swift.hops": 1},
        }
        # The cost case has no bottleneck: line rates are the veth's.
        cost_attrs = {
            "nscc": dict(attrs["nscc"], **{"net.nscc.data_rate_mbps": 100000}),
            "dcqcn": {"net.dcqcn.data_rate_mbps": 100000},
            "swift": attrs["swift"],
        }
        log(f"base RTT {rtt:.1f} us, BDP {bdp} B, port: {port_opts}")
        doc = {"quick": a.quick, "reps": reps, "seconds": secs, "rate_mbit": a.rate_mbit,
               "base_rtt_us": rtt, "port": port_opts, "attributes": attrs,
               "cost_attributes": cost_attrs,
               "senders": NSENDERS, "incast_bytes": incast_bytes, "kernel": os.uname().release,
               "algos": ALGOS, "runs": []}
        for algo in ALGOS:
            set_algo(topo, algo, attrs, cost_attrs)
            for rep in range(reps):
                for n in ns_list:
                    sampler = Sampler(topo) if (algo == "nscc" and n == 2 and rep == 0) else None
                    r = run_long(topo, algo, n, secs, port_opts, sampler)
                    doc["runs"].append({"algo": algo, "case": f"long{n}", "rep": rep, **r})
                    if sampler:
                        doc["timeseries"] = {"algo": algo, "flows": 2,
                                             "window": sampler.window(),
                                             "queue": [q for q in sampler.queue
                                                       if q[0] >= -0.1]}
                    log(f"{algo} long{n} rep {rep}: {r['goodput_mbit']:.0f} Mbit/s, "
                        f"p99 < {r['p99_us']} us")
                r = run_incast(topo, algo, incast_bytes, port_opts)
                doc["runs"].append({"algo": algo, "case": "incast", "rep": rep, **r})
                log(f"{algo} incast rep {rep}: {r['completion_ms']:.1f} ms")
                r = run_join(topo, algo, 2 * secs if not a.quick else 3.0, port_opts)
                doc["runs"].append({"algo": algo, "case": "join", "rep": rep, **r})
                log(f"{algo} join rep {rep}: {r['reach_ms']} ms")
                r = run_cost(topo, algo, 2.0 if a.quick else 3.0)
                doc["runs"].append({"algo": algo, "case": "cost", "rep": rep, **r})
                log(f"{algo} cost rep {rep}: {r['goodput_mbit']:.0f} Mbit/s")
        with open(a.out, "w") as f:
            json.dump(doc, f, indent=1)
    finally:
        topo.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())

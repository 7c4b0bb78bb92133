#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's guest side: congestion controls side by side on one
switch port, in one VM (scripts/bench runs it through scripts/vm-run).

Topology (Documentation/benchmarks.rst): senders S1..S8, each on its own
veth to the switch netns R, whose port toward the receiver B is a
sch_fabric qdisc; an "ordinary path", a plain veth pair O -- P.

First the port's rate is chosen and the path measured (calibrate()): for
each candidate rate, one dctcp flow through the port; the VM's own delay
outside the port is the flow's srtt less the port's queueing delay and
the path's minimum RTT.  The rate is the highest whose VM delay is at
most --vm-delay-max-pkts packet times; the loaded path RTT there (srtt less the port's
queueing) sizes the ECN thresholds and every algorithm's attributes
(sizing()), all printed in the report.

Scenarios, for every algorithm, --reps times each:
  long      N long-lived flows (N = 1, 2, 8): goodput / line rate, the
            port's queueing delay p50, p99 and p99.9 (its per-packet
            histogram), Jain's fairness index, drops, retransmissions;
            for the whole run and for the steady state (the first 0.5 s
            left out: the port's counters are cleared then);
  incast    8 senders x --incast-bytes at once: completion time of the
            last byte, p99 queueing delay, drops;
  join      2 flows run; a third joins and later leaves: the time the
            newcomer takes to reach 80% of its fair share (1/3 of line);
  ordinary  one flow over the plain veth pair to a cubic receiver that
            delays ACKs, each algorithm at the spec's defaults and at the
            settings that follow the path (data_rate_mbps=0, ...).

The host's CPU use outside QEMU is read from --host-load (written by
scripts/bench) around every case; a case during which the host was busy
is run again, up to twice, and the busy attempts are kept apart.

Prints progress on stderr and writes one JSON document (--out).  It never
judges a figure; any case that cannot run raises and the run fails.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOWS = os.path.join(TOP, "bench", "flows.py")
TC_ENV = dict(os.environ, TC_LIB_DIR=os.path.join(TOP, "tools", "tc"))
# The rows of the report: name -> the TCP congestion control it runs.
# nscc runs in both flavours: mrc (delay only, no ECN; its max window
# override holds) and uet (ECN; its max window follows the measured base
# RTT, as the UET page says): Documentation/benchmarks.rst.
VARIANTS = {"cubic": "cubic", "dctcp": "dctcp", "bbr": "bbr", "nscc-mrc": "nscc",
            "nscc-uet": "nscc", "dcqcn": "dcqcn", "swift": "swift"}
ALGOS = list(VARIANTS)
MODULES = {"dctcp": "tcp_dctcp", "bbr": "tcp_bbr", "nscc": "tcp_nscc",
           "dcqcn": "tcp_dcqcn", "swift": "tcp_swift"}
NSCC_FLAVOUR = "/sys/module/tcp_nscc/parameters/flavour"
# Candidate port rates, highest first (Mbit/s), and the VM's own delay
# outside the port, in packet times at the port's rate, above which a
# rate is not used: the VM then holds no more packets outside the port
# than a modest ECN threshold does inside it.
RATES = [400, 200, 150, 100]
VM_DELAY_MAX_PKTS = 10
# CPUs' worth of host time outside QEMU above which a case is run again.
HOST_BUSY_CPUS = 0.3
# The steady state leaves out the flows' first 0.5 s.
STEADY_NS = int(0.5e9)
MTU = 1500
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
        self.o, self.p = f"{self.tag}o", f"{self.tag}p"
        self.all = self.senders + [self.r, self.b, self.o, self.p]

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
        # The ordinary path: no quickack, the receiver runs cubic.
        self.link(self.o, "o0", 1, self.p, "p0", 2, 201)

    def destroy(self):
        destroy_ns(self.all)

    def port(self, opts):
        subprocess.run(["tc", "-n", self.r, "qdisc", "del", "dev", "rb", "root"],
                       capture_output=True, env=TC_ENV)
        sh("tc", "-n", self.r, "qdisc", "add", "dev", "rb", "root", "fabric", *opts.split(),
           env=TC_ENV)

    def port_stats(self):
        out = sh("tc", "-n", self.r, "-s", "-j", "qdisc", "show", "dev", "rb", env=TC_ENV)
        return next(q for q in json.loads(out) if q.get("kind") == "fabric")

    def clear_stats(self):
        sh("tc", "-n", self.r, "qdisc", "change", "dev", "rb", "root", "fabric",
           "clear_stats", env=TC_ENV)


class HostLoad:
    """The host's CPU time outside QEMU, from the file scripts/bench
    rewrites every 0.5 s: "TOTAL OTHER NCPU", clock ticks of all CPUs and
    of everything but QEMU since boot."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path) as f:
                total, other, ncpu = (int(x) for x in f.read().split())
            return total, other, ncpu
        except (OSError, ValueError, TypeError):
            return None

    @staticmethod
    def cpus(a, b):
        """CPUs' worth of host time outside QEMU between two reads."""
        if not a or not b or b[0] <= a[0]:
            return None
        return round((b[1] - a[1]) / (b[0] - a[0]) * b[2], 3)


def set_algo(topo, name, attrs):
    """Every sender and the receiver on the variant's congestion control
    with its attributes; nscc's flavour also as the module parameter,
    which decides whether the handshake asks for ECN."""
    cc = VARIANTS.get(name, name)
    a = attrs.get(name, {})
    if cc == "nscc":
        with open(NSCC_FLAVOUR, "w") as f:
            f.write(a.get("net.nscc.flavour", "uet"))
    for ns in topo.senders + [topo.b]:
        sysctl(ns, "net.ipv4.tcp_congestion_control", cc)
        for k, v in a.items():
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


def clients(specs, timeout=120):
    """specs: [(ns, addr, port, args...)]: runs them, returns their JSON."""
    procs = [subprocess.Popen(["ip", "netns", "exec", ns, "python3", FLOWS, "client",
                               addr, str(port)] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for ns, addr, port, *args in specs]
    out = []
    for p in procs:
        o, e = p.communicate(timeout=timeout)
        if p.returncode:
            raise RuntimeError(f"flow client failed: {e.strip()}")
        out.append(json.loads(o))
    return out


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if xs and any(xs) else 0.0


def ranges(st):
    """The fine histogram's ranges as (upper bound ns, packets); the packets
    below and above the window (clipped) count at their range's bound."""
    return [(r["hi_ns"], r["packets"]) for r in st.get("delay_fine_hist") or []]


def pct_us(rs, permille):
    """An upper bound (us) of the permille-th percentile of (bound, packets)
    ranges, or None without packets: every packet counts at its range's
    upper bound, so each percentile is at least the true one."""
    total = sum(n for _, n in rs)
    if not total:
        return None
    need = -(-total * permille // 1000)
    cum = 0
    for hi, n in sorted(rs):
        cum += n
        if cum >= need:
            return hi / 1000
    return sorted(rs)[-1][0] / 1000


def qdelay(st, first=None):
    """Queueing delay and port counters of one snapshot; with first (the
    snapshot taken before the counters were cleared), the steady state is
    st and the whole run both together."""
    whole = ranges(st) + (ranges(first) if first else [])
    out = {"p50_us": pct_us(whole, 500), "p99_us": pct_us(whole, 990),
           "p999_us": pct_us(whole, 999),
           "drops": sum(x.get("drop_limit", 0) + x.get("trim_dropped", 0)
                        for x in (st, first) if x),
           "ecn_marked": sum(x.get("ecn_marked", 0) for x in (st, first) if x),
           "max_backlog": max(x.get("max_backlog", 0) for x in (st, first) if x)}
    if first:
        rs = ranges(st)
        out.update({"ss_p50_us": pct_us(rs, 500), "ss_p99_us": pct_us(rs, 990),
                    "ss_p999_us": pct_us(rs, 999),
                    "ss_drops": st.get("drop_limit", 0) + st.get("trim_dropped", 0)})
    return out


class Clear:
    """At CLOCK_REALTIME ns t: a snapshot of the port (the first part of
    the run), then its counters cleared, so that the end's snapshot is the
    steady state."""

    def __init__(self, topo, t):
        self.topo, self.t, self.first = topo, t, None
        self.th = threading.Thread(target=self.run, daemon=True)
        self.th.start()

    def run(self):
        time.sleep(max(0.0, (self.t - time.time_ns()) / 1e9))
        self.first = self.topo.port_stats()
        self.topo.clear_stats()

    def join(self):
        self.th.join(timeout=30)
        if self.first is None:
            raise RuntimeError("the port's counters were not cleared")
        return self.first


def steady_mbit(recs, t0):
    """Goodput (Mbit/s) of the flows together over the 50 ms bins that lie
    wholly between t0 and the first flow's last byte."""
    end = min(r["last_ns"] for r in recs)
    total = 0
    for r in recs:
        for i, b in enumerate(r["bins"]):
            t = r["bin0"] + i * r["bin_ns"]
            if t >= t0 and t + r["bin_ns"] <= end:
                total += b
    bin_ns = recs[0]["bin_ns"]
    span = (end - t0) // bin_ns * bin_ns
    return total * 8 / span * 1e3 if span > 0 else None


def run_long(topo, algo, n, secs, port_opts, sampler=None):
    topo.port(port_opts)
    srv = Server(topo.b, RX, 6000)
    # eight clients take more than the lead to start under TCG
    start = time.time_ns() + (2 * LEAD_NS if n > 2 else LEAD_NS)
    clear = Clear(topo, start + STEADY_NS)
    if sampler:
        sampler.start(time.monotonic() + (start - time.time_ns()) / 1e9)
    res = clients([(topo.senders[i], RX, 6000, "--cc", VARIANTS[algo], "--seconds",
                    str(secs), "--start-at", str(start)) for i in range(n)])
    if sampler:
        sampler.stop()
    recs = srv.stop(n)
    first_part = clear.join()
    rates = [r["bytes"] * 8 / max(r["last_ns"] - r["first_ns"], 1) * 1e3 for r in recs]
    first = min(r["first_ns"] for r in recs)
    last = max(r["last_ns"] for r in recs)
    total = sum(r["bytes"] for r in recs) * 8 / max(last - first, 1) * 1e3
    ss = steady_mbit(recs, start + STEADY_NS)
    out = {"goodput_mbit": total, "goodput_frac": total / topo.rate_mbit,
           "ss_goodput_mbit": ss, "ss_goodput_frac": ss / topo.rate_mbit if ss else None,
           "jain": jain(rates), "flow_mbit": rates,
           "retrans": sum(c["retrans"] for c in res), "late_ms": late_ms(res, start)}
    out.update(qdelay(topo.port_stats(), first_part))
    return out


def run_incast(topo, algo, nbytes, port_opts):
    topo.port(port_opts)
    srv = Server(topo.b, RX, 6100)
    # eight clients to start: twice the lead of the others
    start = time.time_ns() + 2 * LEAD_NS
    res = clients([(ns, RX, 6100, "--cc", VARIANTS[algo], "--bytes", str(nbytes),
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
    cc = VARIANTS[algo]
    specs = [(topo.senders[i], RX, 6200, "--cc", cc, "--seconds", str(secs),
              "--start-at", str(start)) for i in range(2)]
    specs.append((topo.senders[2], RX, 6200, "--cc", cc, "--seconds", str(secs / 3),
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


# The ordinary path: each algorithm as a new user meets it (the spec's
# defaults) and at the settings that follow the path, next to Linux's own.
ORDINARY = [
    ("cubic", "cubic", {}), ("dctcp", "dctcp", {}), ("bbr", "bbr", {}),
    ("nscc", "nscc spec defaults", {}),
    ("nscc", "nscc auto", {"net.nscc.data_rate_mbps": 0, "net.nscc.config_base_rtt_ns": 0}),
    ("swift", "swift spec defaults", {}),
    ("swift", "swift auto", {"net.swift.base_target_ns": 0}),
    ("dcqcn", "dcqcn spec defaults", {}),
    ("dcqcn", "dcqcn auto", {"net.dcqcn.data_rate_mbps": 0}),
]


ORD_KEYS = sorted({k for _, _, a in ORDINARY for k in a})
ORD_DEFAULTS = {}


def set_ordinary(topo, cc, attrs):
    """O sends under cc, at the module defaults (read from O before the
    first change: a new netns starts from the module parameters) with
    attrs on top; P runs cubic.  nscc's module flavour is its default,
    uet, as a new user has it."""
    if not ORD_DEFAULTS:
        for k in ORD_KEYS:
            ORD_DEFAULTS[k] = sh("sysctl", "-n", k, ns=topo.o).strip()
    with open(NSCC_FLAVOUR, "w") as f:
        f.write("uet")
    for k, v in dict(ORD_DEFAULTS, **attrs).items():
        sysctl(topo.o, k, v)
    sysctl(topo.o, "net.ipv4.tcp_congestion_control", cc)
    sysctl(topo.p, "net.ipv4.tcp_congestion_control", "cubic")


def run_ordinary(topo, cc, secs):
    srv = Server(topo.p, "198.18.201.2", 6300)
    # At the spec's defaults swift crawls (its window of 0.01 packets, one
    # packet per 100 RTTs): little unsent data, and time to drain it.
    res = clients([(topo.o, "198.18.201.2", 6300, "--cc", cc, "--seconds", str(secs),
                    "--sample-after", "0.5", "--notsent-lowat", "32768")], timeout=600)
    r = srv.stop(1)[0]
    srtt = sorted(res[0]["srtt_us"])
    return {"goodput_mbit": r["bytes"] * 8 / max(r["last_ns"] - r["first_ns"], 1) * 1e3,
            "retrans": res[0]["retrans"], "min_rtt_us": res[0]["min_rtt_us"],
            "srtt_p50_us": srtt[len(srtt) // 2] if srtt else None}


# mrt, the transport (Documentation/benchmarks.rst, "mrt"): on the
# ordinary path against TCP, and an incast through the port.
MRTPERF = os.path.join(TOP, "tools", "mrtperf", "mrtperf")
MRTFLOWS = os.path.join(TOP, "bench", "mrtflows.py")
# Like the tests' mrt_tune: the window follows the path (the link's speed,
# a base RTT learnt from samples), and a retransmission floor of 20 ms
# above the VM's jitter.
MRT_AUTO = {"data_rate_mbps": 0, "config_base_rtt_ns": 0, "rto_min_us": 20000}
# The defaults MRT_BATCH_VARIANTS' attributes go back to.
MRT_DEFAULTS = {"ev_count": 32, "tx_batch_max_pkts": 8}
MRT_COUNTERS = ["total_nack_trimmed_rx", "total_rto_events", "rtx_trim", "total_rtx_sack",
                "rtx_rto", "total_qa_count", "data_pkts_out", "msgs_failed"]
# The incast's port buffer (bytes): shallow enough that 8 senders overflow it.
MRT_INCAST_LIMIT = 65536
# Below this ratio of mrt's goodput to cubic's, the report has a profile.
MRT_PROFILE_BELOW = 0.8
# messages a sendmmsg() or recvmmsg() call in the 64-byte rate with batches
MRT_MMSG = 64


def mrt_set(nss, attrs):
    for ns in nss:
        for k, v in attrs.items():
            sysctl(ns, f"net.mrt.{k}", v)


def mrt_snmp(ns):
    out = {}
    for line in sh("cat", "/proc/net/mrt/snmp", ns=ns).splitlines():
        k, _, v = line.partition(" ")
        if v.strip().isdigit():
            out[k] = int(v)
    return out


def mrtperf(ns, *args):
    out = sh(MRTPERF, *args, "-j", ns=ns)
    return json.loads(out.strip().splitlines()[-1])


class MrtperfServer:
    def __init__(self, ns, addr, ep, bufsz, batch=1, tcp=False):
        self.p = subprocess.Popen(["ip", "netns", "exec", ns, MRTPERF, "-s", "-B", addr,
                                   "-p", str(ep), "-w", str(bufsz), "-b", str(batch)] +
                                  (["--tcp"] if tcp else []),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not self.p.stdout.readline().startswith("mrtperf: listening"):
            raise RuntimeError(f"mrtperf server did not start: {self.p.stderr.read()}")

    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=10)


def cpu_split():
    """The VM's CPU time so far, from /proc/stat, in clock ticks."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:8]]
    return dict(zip(["user", "nice", "system", "idle", "iowait", "irq", "softirq"], v))


TRACEFS = "/sys/kernel/tracing"
# The timer interrupt's entry, whose pt_regs (%di) hold the interrupted
# instruction pointer (pt_regs.ip, offset 128 on x86-64).
PROF_PROBE = "p:fabric_prof __sysvec_apic_timer_interrupt pc=+128(%di):x64"


def tracefs_add(text):
    """Appends a line to kprobe_events (os.open: Python's append mode
    seeks to the end first, which tracefs refuses)."""
    fd = os.open(os.path.join(TRACEFS, "kprobe_events"), os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def tick_profile(ns, args):
    """Where the VM's CPU goes while mrtperf runs args: the split of
    /proc/stat (user, system, softirq, idle) over the run, and a profile
    sampled by the timer interrupt: a kprobe on its entry records the
    interrupted instruction pointer, a hist trigger counts them by symbol
    (module code included), folded here into functions with their share
    of all samples (idle included).  perf's cpu-clock samples fall on the
    idle loop under TCG, the timer interrupt's do not."""
    ev = os.path.join(TRACEFS, "events", "kprobes", "fabric_prof")
    tracefs_add(PROF_PROBE + "\n")
    trig = "hist:keys=pc.sym:vals=hitcount:sort=hitcount.descending:size=8192"
    try:
        with open(os.path.join(ev, "trigger"), "w") as f:
            f.write(trig)
        a = cpu_split()
        mrtperf(ns, *args)
        b = cpu_split()
        with open(os.path.join(ev, "hist")) as f:
            hist = f.read()
        with open(os.path.join(ev, "trigger"), "w") as f:
            f.write("!" + trig)
    finally:
        tracefs_add("-:kprobes/fabric_prof\n")
    funcs, total, module = {}, 0, 0
    for line in hist.splitlines():
        m = re.match(r"\{ pc: \[[0-9a-f]+\] (\S+)\s*(\[\w+\])?\s*\} hitcount:\s*(\d+)", line)
        if not m:
            continue
        name = m.group(1).split("+")[0] + (" " + m.group(2) if m.group(2) else "")
        if name.startswith("0x"):
            name = "(user space)"
        n = int(m.group(3))
        funcs[name] = funcs.get(name, 0) + n
        total += n
        module += n if m.group(2) == "[mrt]" else 0
    top = sorted(funcs.items(), key=lambda kv: -kv[1])
    lines = [f"{100 * n / total:6.1f} %  {name}" for name, n in top
             if total and n / total >= 0.01]
    if total:
        lines.append(f"{100 * module / total:6.1f} %  (all of mrt.ko)")
    ticks = max(sum(b.values()) - sum(a.values()), 1)
    split = {k: round((b[k] - a[k]) / ticks, 3) for k in a}
    return {"cpu_split": split, "samples": total, "perf": lines[:30]}


# What batches do, and the CPU a gigabyte costs (issue 36): one stream each
# of TCP cubic and of mrt at its defaults, with one EV (a single path's
# setting: batches up to tx_batch_max_pkts) and with batches off.
MRT_BATCH_VARIANTS = (("defaults", {}), ("ev_count 1", {"ev_count": 1}),
                      ("tx_batch_max_pkts 1", {"tx_batch_max_pkts": 1}))


def cpu_busy(a, b):
    """Busy clock ticks between two cpu_split()s, and their split."""
    d = {k: b[k] - a[k] for k in a}
    total = sum(d.values()) or 1
    busy = total - d["idle"] - d["iowait"]
    return busy, {k: v / total for k, v in d.items()}


def mrt_batch_cpu(topo, doc, load, peer, mtu, secs):
    hz = os.sysconf("SC_CLK_TCK")
    out = []

    def cubic():
        a = cpu_split()
        r = run_ordinary(topo, "cubic", secs)
        busy, split = cpu_busy(a, cpu_split())
        return dict(r, busy=busy, split=split)
    set_ordinary(topo, "cubic", {})
    r = measure(doc, load, f"mrt cpu: tcp cubic mtu {mtu}", cubic)
    gb = r["goodput_mbit"] * secs / 8e3
    out.append({"case": "cpu_per_gb", "algo": "cubic", "mtu": mtu,
                "goodput_mbit": r["goodput_mbit"], "cpu_s_per_gb": r["busy"] / hz / gb,
                "softirq": r["split"]["softirq"], "system": r["split"]["system"],
                "host_busy": r["host_busy"]})
    for name, attrs in MRT_BATCH_VARIANTS:
        mrt_set([topo.o, topo.p], attrs)
        try:
            def stream():
                b0 = {ns: mrt_snmp(ns) for ns in (topo.o, topo.p)}
                a = cpu_split()
                r = mrtperf(topo.o, "-c", peer, "-p", "7100", "-n", "100000",
                            "-l", str(1 << 20), "-t", str(secs), "-w", str(64 << 20))
                busy, split = cpu_busy(a, cpu_split())
                b1 = {ns: mrt_snmp(ns) for ns in (topo.o, topo.p)}
                d = {ns: {k: b1[ns].get(k, 0) - b0[ns].get(k, 0) for k in b1[ns]}
                     for ns in b1}
                return dict(r, busy=busy, split=split, d=d)
            r = measure(doc, load, f"mrt cpu: mrt {name} mtu {mtu}", stream)
        finally:
            mrt_set([topo.o, topo.p], {k: MRT_DEFAULTS[k] for k in attrs})
        snd, rcv = r["d"][topo.o], r["d"][topo.p]
        gbit = r["goodput_gbps"]
        gb = gbit * secs / 8
        out.append({"case": "cpu_per_gb", "algo": f"mrt {name}", "mtu": mtu,
                    "goodput_mbit": gbit * 1e3,
                    "cpu_s_per_gb": r["busy"] / hz / gb if gb else None,
                    "softirq": r["split"]["softirq"], "system": r["split"]["system"],
                    # data packets per skb the sender handed the stack
                    "pkts_per_skb": snd.get("data_pkts_out", 0) /
                    max(snd.get("data_pkts_out", 0) - snd.get("gso_batch_pkts_out", 0) +
                        snd.get("gso_batches_out", 0), 1),
                    "acks_per_skb": rcv.get("acks_out", 0) /
                    max(rcv.get("acks_out", 0) - rcv.get("gso_batch_pkts_out", 0) +
                        rcv.get("gso_batches_out", 0), 1),
                    "batches": snd.get("gso_batches_out", 0),
                    "data_pkts": snd.get("data_pkts_out", 0),
                    "ack_trains": snd.get("gso_trains_in", 0),
                    "acks": snd.get("acks_in", 0),
                    "host_busy": r["host_busy"]})
        log(f"mrt bench: cpu: mrt {name} mtu {mtu}: {gbit * 1e3:.0f} Mbit/s, "
            f"{out[-1]['cpu_s_per_gb'] or 0:.2f} CPU s/GB, {out[-1]['batches']} batches "
            f"of {out[-1]['data_pkts']} packets")
    log(f"mrt bench: cpu: tcp cubic mtu {mtu}: {out[0]['cpu_s_per_gb']:.2f} CPU s/GB")
    return out


def run_mrt_ordinary(topo, mtu, secs, reps, doc, load):
    """Over the ordinary path at MTU mtu: TCP cubic and nscc (auto) against
    mrt streaming 1 MiB messages; mrt's 64-byte message rate and its
    4 KiB ping-pong latency."""
    for ns, dev in ((topo.o, "o0"), (topo.p, "p0")):
        sh("ip", "-n", ns, "link", "set", dev, "mtu", str(mtu))
    mss = 8900 if mtu >= 9000 else 1400
    mrt_set([topo.o, topo.p], dict(MRT_AUTO, mss=mss))
    peer = "198.18.201.2"
    runs = []
    try:
        for cc, name, extra in (("cubic", "cubic", {}), ORDINARY[4]):
            set_ordinary(topo, cc, extra)
            for rep in range(reps):
                r = measure(doc, load, f"mrt: tcp {name} mtu {mtu}", run_ordinary, topo, cc,
                            secs)
                runs.append({"case": "tcp_goodput", "algo": name, "mtu": mtu, "rep": rep,
                             "goodput_mbit": r["goodput_mbit"], "retrans": r["retrans"],
                             "host_busy": r["host_busy"]})
                log(f"mrt bench: tcp {name} mtu {mtu}: {r['goodput_mbit']:.0f} Mbit/s")
        srv = MrtperfServer(topo.p, peer, 7100, 64 << 20)
        # sendmmsg() and recvmmsg(), MRT_MMSG messages a call
        srv_mm = MrtperfServer(topo.p, peer, 7101, 64 << 20, MRT_MMSG)
        # TCP's request-response, the ping-pong's yardstick (mrtperf --tcp)
        srv_tcp = MrtperfServer(topo.p, peer, 7102, 0, tcp=True)
        try:
            # Each kind's repetitions together, the streams first: a
            # destination outlives a run by pdc_idle_ms, and one whose
            # base RTT was learnt from 64-byte messages (12 us in the VM
            # against some 400 us for a full packet) has a max window of
            # a few packets, which halved the next stream's goodput
            # (Documentation/benchmarks.rst, "Latest results").
            for rep in range(reps):
                def stream():
                    return mrtperf(topo.o, "-c", peer, "-p", "7100", "-n", "100000",
                                   "-l", str(1 << 20), "-t", str(secs), "-w", str(64 << 20))
                r = measure(doc, load, f"mrt stream mtu {mtu}", stream)
                runs.append({"case": "mrt_goodput", "algo": "mrt", "mtu": mtu, "rep": rep,
                             "goodput_mbit": r["goodput_gbps"] * 1e3, "msgs": r["received"],
                             "host_busy": r["host_busy"]})
                log(f"mrt bench: mrt 1 MiB mtu {mtu}: {r['goodput_gbps'] * 1e3:.0f} Mbit/s")
            runs += mrt_batch_cpu(topo, doc, load, peer, mtu, secs)
            # the profile with the streams too: after the 64-byte runs the
            # destination's window would be theirs
            mrt = statistics.median(x["goodput_mbit"] for x in runs
                                    if x["case"] == "mrt_goodput")
            cubic = statistics.median(x["goodput_mbit"] for x in runs
                                      if x["case"] == "tcp_goodput" and x["algo"] == "cubic")
            profile = None
            if mrt < MRT_PROFILE_BELOW * cubic:
                profile = tick_profile(topo.o, ["-c", peer, "-p", "7100", "-n", "100000",
                                                "-l", str(1 << 20), "-t", "3",
                                                "-w", str(64 << 20)])
            def repeat(case, algo, label, keys, *args):
                """reps runs of mrtperf -c peer args, each kept as case."""
                for rep in range(reps):
                    r = measure(doc, load, f"{label} mtu {mtu}", mrtperf, topo.o, "-c", peer,
                                *args)
                    runs.append({"case": case, "algo": algo, "mtu": mtu, "rep": rep,
                                 **{k: r[k] for k in keys}, "host_busy": r["host_busy"]})
                    log(f"mrt bench: {label} mtu {mtu}: " +
                        ", ".join(f"{k} {r[k]:.0f}" for k in keys))
            rate = ("-n", "10000000", "-l", "64", "-t", str(min(secs, 3.0)),
                    "-w", str(64 << 20))
            pp = ("--pingpong", "-n", "1000", "-l", "4096")
            pp_keys = ("p50_us", "p99_us", "p999_us")
            repeat("mrt_rate64", "mrt", "mrt 64 B", ("msgs_per_sec",), "-p", "7100", *rate)
            repeat("mrt_rate64_mmsg", "mrt", "mrt 64 B sendmmsg", ("msgs_per_sec",),
                   "-p", "7101", *rate, "-b", str(MRT_MMSG))
            repeat("mrt_pingpong", "mrt", "mrt ping-pong 4 KiB", pp_keys, "-p", "7100", *pp)
            set_ordinary(topo, "cubic", {})
            repeat("tcp_pingpong", "tcp", "tcp ping-pong 4 KiB", pp_keys,
                   "-p", "7102", "--tcp", *pp)
        finally:
            srv.stop()
            srv_mm.stop()
            srv_tcp.stop()
    finally:
        for ns, dev in ((topo.o, "o0"), (topo.p, "p0")):
            sh("ip", "-n", ns, "link", "set", dev, "mtu", str(MTU))
    return runs, {"mtu": mtu, "ratio_to_cubic": mrt / cubic if cubic else None,
                  "profile": profile}


def run_mrt_incast(topo, nmsgs, port_opts, trim, path_us, sampler=None):
    """Each of the senders sends nmsgs 1 MiB messages to B at once, through
    the port, whose buffer is MRT_INCAST_LIMIT; with trim, data is
    trimmable and the port trims above three quarters of it.  The last message's arrival against the line-rate ideal,
    and the senders' trims, RTOs and retransmissions."""
    # A shallow buffer, so that the incast overflows it: drops without
    # trimming, trims from three quarters of it with.
    opts = port_opts.replace("limit 1mb", f"limit {MRT_INCAST_LIMIT}b")
    if trim:
        opts += (f" trim_at {MRT_INCAST_LIMIT * 3 // 4}b trim_size 128 trim_dscp 11 "
                 "trim_dscp_in 10")
    topo.port(opts)
    # mrt's defaults mark data trimmable (trimming_enabled auto: mrc) and
    # retransmissions too (use_distinct_dscp_for_retransmits, DSCP 10):
    # the case without trimming turns both off
    mrt_set(topo.senders, {"trimming_enabled": 1 if trim else 0,
                           "use_distinct_dscp_for_retransmits": 1 if trim else 0})
    mrt_set([topo.b], {"trim_dscp": 11})
    before = {ns: mrt_snmp(ns) for ns in topo.senders}
    n = nmsgs * len(topo.senders)
    with tempfile.TemporaryDirectory() as d:
        ready = os.path.join(d, "ready")
        srv = subprocess.Popen(["ip", "netns", "exec", topo.b, "python3", MRTFLOWS, "server",
                                RX, "7200", "--count", str(n), "--timeout", "120",
                                "--ready", ready],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(ready):
            if time.monotonic() > deadline or srv.poll() is not None:
                srv.kill()
                raise RuntimeError("mrt incast server did not start")
            time.sleep(0.05)
        # eight python clients to start under TCG: a longer lead than
        # flows.py's (they have been 2 s late with twice LEAD_NS)
        start = time.time_ns() + 4 * LEAD_NS
        if sampler:
            sampler.start(time.monotonic() + (start - time.time_ns()) / 1e9)
        procs = [subprocess.Popen(["ip", "netns", "exec", ns, "python3", MRTFLOWS, "client",
                                   RX, "7200", "--count", str(nmsgs), "--start-at",
                                   str(start)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for ns in topo.senders]
        cli = []
        for p in procs:
            o, e = p.communicate(timeout=180)
            if p.returncode:
                srv.kill()
                raise RuntimeError(f"mrt incast client failed: {o.strip()} {e.strip()}")
            cli.append(json.loads(o))
        o, e = srv.communicate(timeout=180)
        if sampler:
            sampler.stop()
        if srv.returncode:
            raise RuntimeError(f"mrt incast server failed: {o.strip()} {e.strip()}")
        res = json.loads(o)
    if res["bad"]:
        raise RuntimeError(f"mrt incast: {res['bad']} messages arrived damaged")
    after = {ns: mrt_snmp(ns) for ns in topo.senders}
    cnt = {c: sum(after[ns].get(c, 0) - before[ns].get(c, 0) for ns in topo.senders)
           for c in MRT_COUNTERS}
    total = res["bytes"]
    ideal_ms = total * 8 / (topo.rate_mbit * 1e6) * 1e3 + path_us / 1e3
    done_ms = (res["last_ns"] - start) / 1e6
    out = {"completion_ms": done_ms, "ideal_ms": ideal_ms, "vs_ideal": done_ms / ideal_ms,
           "bytes": total, "msgs": res["msgs"], "late_ms": late_ms(cli, start),
           "port_trimmed": topo.port_stats().get("trimmed"), **cnt}
    out.update(qdelay(topo.port_stats()))
    return out


def run_mrt(topo, doc, load, reps, secs, port_opts, path_us, nmsgs):
    """Every mrt case: the ordinary path at MTU 1500 and 9000, then the
    incast with and without trimming."""
    mrt = {"runs": [], "ordinary": [], "incast_msgs": nmsgs, "senders": NSENDERS,
           "attrs": dict(MRT_AUTO), "profile_below": MRT_PROFILE_BELOW,
           "mmsg": MRT_MMSG}
    for mtu in (MTU, 9000):
        runs, summ = run_mrt_ordinary(topo, mtu, secs, reps, doc, load)
        mrt["runs"] += runs
        mrt["ordinary"].append(summ)
    mrt_set(topo.senders, {"data_rate_mbps": topo.rate_mbit,
                           "config_base_rtt_ns": int(path_us * 1000), "rto_min_us": 20000})
    mrt["incast_limit"] = MRT_INCAST_LIMIT
    mrt["incast_attrs"] = {"data_rate_mbps": topo.rate_mbit,
                           "config_base_rtt_ns": int(path_us * 1000), "rto_min_us": 20000,
                           "trimming_enabled": "1 (with trimming), else 0",
                           "use_distinct_dscp_for_retransmits": "1 (with trimming), else 0",
                           "receiver trim_dscp": 11}
    for trim in (True, False):
        case = "mrt_incast_trim" if trim else "mrt_incast_notrim"
        for rep in range(reps):
            sampler = MrtSampler(topo) if rep == 0 else None
            r = measure(doc, load, case, run_mrt_incast, topo, nmsgs, port_opts, trim,
                        path_us, sampler)
            mrt["runs"].append({"case": case, "algo": "mrt", "rep": rep, **r})
            if sampler:
                mrt.setdefault("timeseries", {})[case] = {
                    "window": sampler.window(),
                    "queue": [q for q in sampler.queue if q[0] >= -0.1]}
            log(f"mrt bench: {case} rep {rep}: {r['completion_ms']:.1f} ms "
                f"(ideal {r['ideal_ms']:.1f}), {r['total_nack_trimmed_rx']} trim NACKs, "
                f"{r['total_rto_events']} RTOs")
    return mrt


# libfabric (Documentation/benchmarks.rst, "libfabric"): Debian's
# fi_pingpong over the mrt provider (tools/libfabric) against the same tool
# over libfabric's own sockets provider (TCP), and for context its tcp
# provider (tcp;ofi_rxm for RDM), on the ordinary path, in the same VM run
# and at MTU 1500 and 9000.  fi_pingpong prints the mean time per transfer (one way) of
# a run and its MB/s; the latency figure is the median over the runs of
# 4 KiB means, the bandwidth that of 1 MiB runs.
FI_PROVIDERS = ("mrt", "sockets", "tcp")
FI_LAT_ITERS = 200
FI_BW_ITERS = 50


def fi_pingpong(topo, prov, size, iters):
    """One fi_pingpong run of iters round trips of size bytes, server on
    P, client on O; its last line parsed."""
    def env(dev):
        return dict(os.environ, FI_PROVIDER_PATH=os.path.join(TOP, "tools", "libfabric"),
                    FI_MRT_IFACE=dev, FI_SOCKETS_IFACE=dev)
    args = ["fi_pingpong", "-p", prov, "-e", "rdm", "-S", str(size), "-I", str(iters)]
    srv = subprocess.Popen(["ip", "netns", "exec", topo.p] + args, env=env("p0"),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 20
        while not sh("ss", "-Hltn", "sport = :47592", ns=topo.p).strip():
            if time.time() > deadline or srv.poll() is not None:
                raise RuntimeError(f"fi_pingpong -p {prov} server did not start")
            time.sleep(0.05)
        out = sh(*args, "198.18.201.2", ns=topo.o, env=env("o0"))
        srv.wait(timeout=60)
    finally:
        if srv.poll() is None:
            srv.kill()
            srv.wait()
    last = [ln.split() for ln in out.splitlines() if ln.strip()][-1]
    # bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec
    return {"mb_per_s": float(last[5]), "usec_per_xfer": float(last[6])}


def run_libfabric(topo, doc, load, reps):
    """fi_pingpong's 4 KiB latency and 1 MiB bandwidth, mrt against
    sockets, at MTU 1500 and 9000 (mrt's mss 1400 and 8900)."""
    runs = []
    try:
        for mtu in (MTU, 9000):
            for ns, dev in ((topo.o, "o0"), (topo.p, "p0")):
                sh("ip", "-n", ns, "link", "set", dev, "mtu", str(mtu))
            mrt_set([topo.o, topo.p], dict(MRT_AUTO, mss=8900 if mtu >= 9000 else 1400))
            for prov in FI_PROVIDERS:
                for rep in range(max(reps, 3)):
                    r = measure(doc, load, f"fi_pingpong {prov} 4 KiB mtu {mtu}", fi_pingpong,
                                topo, prov, 4096, FI_LAT_ITERS)
                    runs.append({"case": "fi_lat", "prov": prov, "mtu": mtu, "rep": rep, **r})
                    log(f"libfabric: {prov} 4 KiB mtu {mtu}: {r['usec_per_xfer']:.1f} us "
                        "per transfer")
                    r = measure(doc, load, f"fi_pingpong {prov} 1 MiB mtu {mtu}", fi_pingpong,
                                topo, prov, 1 << 20, FI_BW_ITERS)
                    runs.append({"case": "fi_bw", "prov": prov, "mtu": mtu, "rep": rep, **r})
                    log(f"libfabric: {prov} 1 MiB mtu {mtu}: {r['mb_per_s']:.0f} MB/s")
    finally:
        for ns, dev in ((topo.o, "o0"), (topo.p, "p0")):
            sh("ip", "-n", ns, "link", "set", dev, "mtu", str(MTU))
        mrt_set([topo.o, topo.p], {"mss": 1400})
    summ = []
    for mtu in (MTU, 9000):
        for prov in FI_PROVIDERS:
            sel = [x for x in runs if x["prov"] == prov and x["mtu"] == mtu]
            summ.append({"prov": prov, "mtu": mtu,
                         "lat_4k_us": statistics.median(x["usec_per_xfer"] for x in sel
                                                        if x["case"] == "fi_lat"),
                         "bw_1m_mb_s": statistics.median(x["mb_per_s"] for x in sel
                                                         if x["case"] == "fi_bw")})
    return {"runs": runs, "summary": summ, "lat_iters": FI_LAT_ITERS, "bw_iters": FI_BW_ITERS,
            "attrs": dict(MRT_AUTO)}


# Multipath (Documentation/benchmarks.rst, "mrt multipath"): the tests'
# topology (selftests/vm/lib.sh multipath_topo: S - R - W1..W4 - D, R's
# route hashed on L4), each path a sch_fabric port of MP_RATE Mbit/s
# marking ECN, so that the four ports, not the VM, are the bottleneck.
MP_PATHS = 4
MP_RATE = 50
MP_PORT = f"rate {MP_RATE}mbit limit 256kb ecn_min 16kb ecn_max 48kb"
MP_DST = "198.18.30.1"
MRT_MP = {"data_rate_mbps": 1000, "config_base_rtt_ns": 0, "rto_min_us": 20000,
          "pdc_idle_ms": 60000, "ev_count": 32}
MP_MSG = 262144
# Each path's transmitted bytes, read in its switch's namespace.
PATH_READER = ("import sys, time\n"
               "f = open('/sys/class/net/wd/statistics/tx_bytes')\n"
               "while True:\n"
               "    f.seek(0)\n"
               "    print(time.time_ns(), f.read().strip(), flush=True)\n"
               "    time.sleep(0.05)\n")


def destroy_ns(nss):
    for ns in nss:
        pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True,
                              text=True).stdout.split()
        for p in pids:
            try:
                os.kill(int(p), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


class MpTopo:
    """multipath_topo's namespaces, built by lib.sh itself (the recipe the
    tests and users share), kept after its shell exits."""

    def build(self):
        names = ["S", "R", "D"] + [f"W{i}" for i in range(1, MP_PATHS + 1)]
        out = sh("bash", "-c", f"source {TOP}/selftests/vm/lib.sh && trap - EXIT && "
             f"multipath_topo {MP_PATHS} >&2 && declare -p {' '.join(names)}")
        self.ns = {}
        for line in out.splitlines():
            k, _, v = line.split(" ", 2)[2].partition("=")
            self.ns[k] = v.strip('"')
        if set(self.ns) != set(names):
            raise RuntimeError(f"multipath_topo gave {out!r}")
        self.s, self.d = self.ns["S"], self.ns["D"]
        self.w = [self.ns[f"W{i}"] for i in range(1, MP_PATHS + 1)]
        for i in range(MP_PATHS):
            self.port(i, MP_PORT)

    def destroy(self):
        destroy_ns(getattr(self, "ns", {}).values())

    def port(self, i, opts):
        sh("tc", "-n", self.w[i], "qdisc", "replace", "dev", "wd", "root", "fabric",
           *opts.split(), env=TC_ENV)

    def fail(self, i):
        sh("tc", "-n", self.w[i], "qdisc", "replace", "dev", "wd", "root", "netem", "loss",
           "100%")


class PathBytes:
    """Each path's bytes every 50 ms, from a reader in each switch."""

    def __init__(self, topo):
        self.files = [tempfile.TemporaryFile(mode="w+") for _ in topo.w]
        self.procs = [subprocess.Popen(["ip", "netns", "exec", w, "python3", "-c", PATH_READER],
                                       stdout=f, text=True)
                      for w, f in zip(topo.w, self.files)]

    def stop(self):
        for p in self.procs:
            p.terminate()
            p.wait(timeout=10)
        out = []
        for f in self.files:
            f.seek(0)
            out.append([[int(x) for x in line.split()] for line in f if len(line.split()) == 2])
        return out

    @staticmethod
    def between(series, t0, t1):
        """Bytes each path sent from t0 to t1 (ns), from its samples."""
        def at(ser, t):
            prev = ser[0][1] if ser else 0
            for ts, b in ser:
                if ts > t:
                    break
                prev = b
            return prev
        return [at(ser, t1) - at(ser, t0) for ser in series]


def mp_wait_ready(path, proc, what):
    deadline = time.monotonic() + 30
    while not os.path.exists(path):
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError(f"{what} did not start")
        time.sleep(0.05)


def run_mp_goodput(topo, kind, secs):
    """One transfer of secs over the four paths: mrt spraying over
    ev_count 32 EVs, mrt on one EV, or TCP cubic or nscc with four flows
    (one per path if the hash spreads their ports so; the per-path bytes
    show whether it did)."""
    if kind.startswith("mrt"):
        mrt_set([topo.s, topo.d], dict(MRT_MP, ev_count=32 if kind == "mrt-spray" else 1))
    paths = PathBytes(topo)
    time.sleep(1.5)                 # the readers start under TCG
    if kind.startswith("mrt"):
        srv = subprocess.Popen(["ip", "netns", "exec", topo.d, MRTPERF, "-s", "-B", MP_DST,
                                "-p", "7300"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        if not srv.stdout.readline().startswith("mrtperf: listening"):
            raise RuntimeError(f"mrtperf server did not start: {srv.stderr.read()}")
        t0 = time.time_ns()
        try:
            r = json.loads(sh(MRTPERF, "-c", MP_DST, "-p", "7300", "-l", "65536", "-n",
                              "100000000", "-t", str(secs), "-j", ns=topo.s))
        finally:
            srv.terminate()
            srv.wait(timeout=10)
        t1 = time.time_ns()
        goodput = r["goodput_gbps"] * 1e3
    else:
        cc = kind.split("-")[1]
        if cc == "nscc":
            for ns in (topo.s, topo.d):
                sysctl(ns, "net.nscc.data_rate_mbps", 0)
                sysctl(ns, "net.nscc.config_base_rtt_ns", 0)
        srv = Server(topo.d, MP_DST, 6500)
        start = time.time_ns() + LEAD_NS
        t0 = start
        res = clients([(topo.s, MP_DST, 6500, "--cc", cc, "--seconds", str(secs),
                        "--start-at", str(start), "--notsent-lowat", "131072")
                       for _ in range(MP_PATHS)])
        srv.stop(MP_PATHS)
        t1 = time.time_ns()
        goodput = sum(r["bytes"] * 8 / ((r["end_ns"] - r["start_ns"]) / 1e9) for r in res) / 1e6
    per = PathBytes.between(paths.stop(), t0, t1)
    total = sum(per) or 1
    return {"goodput_mbit": goodput, "capacity_mbit": MP_RATE * MP_PATHS,
            "goodput_frac": goodput / (MP_RATE * MP_PATHS),
            "path_share": [round(b / total, 3) for b in per]}


def run_mp_failover(topo, secs):
    """mrt spraying (ev_count 32) for secs; path 2 fails at a third of it
    and is repaired at two thirds.  Goodput while it is down as a fraction
    of the three paths left (from 0.5 s after the failure to the repair),
    the time from the failure to the first message completed after it, the
    longest gap between completions around it, and each path's Mbit/s
    over time."""
    mrt_set([topo.s, topo.d], MRT_MP)
    before = mrt_snmp(topo.s)
    paths = PathBytes(topo)
    with tempfile.TemporaryDirectory() as d:
        ready = os.path.join(d, "ready")
        srv = subprocess.Popen(["ip", "netns", "exec", topo.d, "python3", MRTFLOWS, "server",
                                MP_DST, "7301", "--count", "1000000000", "--size",
                                str(MP_MSG), "--max-size", str(MP_MSG), "--idle", "5",
                                "--times", "--timeout", str(secs + 60), "--ready", ready],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        mp_wait_ready(ready, srv, "mrt failover server")
        start = time.time_ns() + LEAD_NS
        cli = subprocess.Popen(["ip", "netns", "exec", topo.s, "python3", MRTFLOWS, "client",
                                MP_DST, "7301", "--count", "1000000000", "--size",
                                str(MP_MSG), "--seconds", str(secs), "--sndbuf",
                                str(4 << 20), "--start-at", str(start)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fail_ns, repair_ns = start + int(secs / 3 * 1e9), start + int(2 * secs / 3 * 1e9)
        time.sleep(max(0, (fail_ns - time.time_ns()) / 1e9))
        topo.fail(1)
        fail_ns = time.time_ns()
        time.sleep(max(0, (repair_ns - time.time_ns()) / 1e9))
        topo.port(1, MP_PORT)
        repair_ns = time.time_ns()
        o, e = cli.communicate(timeout=secs + 120)
        if cli.returncode:
            srv.kill()
            raise RuntimeError(f"mrt failover client failed: {o.strip()} {e.strip()}")
        c = json.loads(o)
        o, e = srv.communicate(timeout=120)
        if srv.returncode:
            raise RuntimeError(f"mrt failover server failed: {e.strip()}")
        res = json.loads(o)
    series = paths.stop()
    if res["bad"] or res["msgs"] != c["sent"] or c["errors"]:
        raise RuntimeError(f"mrt failover: sent {c['sent']}, received {res['msgs']}, "
                           f"{res['bad']} damaged, errors {c['errors']}")
    times = res["times_ns"]

    def goodput(t0, t1):
        n = sum(1 for t in times if t0 <= t < t1)
        return n * MP_MSG * 8 / ((t1 - t0) / 1e9) / 1e6 if t1 > t0 else None

    after = [t for t in times if t >= fail_ns]
    near = [fail_ns] + [t for t in times if fail_ns <= t < fail_ns + int(3e9)]
    gaps = [b - a for a, b in zip(near, near[1:])]
    healthy = goodput(start + int(0.5e9), fail_ns)
    down = goodput(fail_ns + int(0.5e9), repair_ns)
    back = goodput(repair_ns + int(1e9), c["end_ns"])
    cnt = {k: mrt_snmp(topo.s).get(k, 0) - before.get(k, 0) for k in
           ("ev_to_assumed_bad", "ev_probed_good", "probes_out", "rtx_rto",
            "total_rto_events", "rtx_sack", "msgs_failed")}
    # each path's Mbit/s in 100 ms bins from the start
    bins = []
    t = start
    while t < c["end_ns"] + int(0.5e9):
        per = PathBytes.between(series, t, t + int(1e8))
        bins.append([round((t - start) / 1e9, 2)] + [round(b * 8 / 1e5, 1) for b in per])
        t += int(1e8)
    return {"msgs": res["msgs"], "healthy_mbit": healthy, "down_mbit": down,
            "back_mbit": back, "healthy_frac": healthy / (MP_RATE * MP_PATHS) if healthy else None,
            "down_frac_of_left": down / (MP_RATE * (MP_PATHS - 1)) if down else None,
            "first_after_ms": (after[0] - fail_ns) / 1e6 if after else None,
            "stall_ms": max(gaps) / 1e6 if gaps else None,
            "fail_s": round((fail_ns - start) / 1e9, 2),
            "repair_s": round((repair_ns - start) / 1e9, 2), "paths": bins, **cnt}


def run_multipath(doc, load, reps, secs):
    """Every multipath case on one topology."""
    topo = MpTopo()
    out = {"rate_mbit": MP_RATE, "paths": MP_PATHS, "port": MP_PORT, "attrs": dict(MRT_MP),
           "msg_bytes": MP_MSG, "runs": []}
    try:
        topo.build()
        for kind in ("mrt-spray", "mrt-one-ev", "tcp-cubic", "tcp-nscc"):
            for rep in range(reps):
                r = measure(doc, load, f"multipath {kind}", run_mp_goodput, topo, kind, secs)
                out["runs"].append({"case": "mp_goodput", "algo": kind, "rep": rep, **r})
                log(f"multipath {kind} rep {rep}: {r['goodput_mbit']:.0f} Mbit/s of "
                    f"{r['capacity_mbit']}, path shares {r['path_share']}")
        for rep in range(reps):
            r = measure(doc, load, "multipath failover", run_mp_failover, topo, 3 * secs)
            out["runs"].append({"case": "mp_failover", "algo": "mrt", "rep": rep, **r})
            log(f"multipath failover rep {rep}: {r['down_mbit']} Mbit/s with a path down "
                f"({r['down_frac_of_left']} of the rest), first message {r['first_after_ms']} "
                f"ms after the failure, longest gap {r['stall_ms']} ms")
    finally:
        topo.destroy()
    return out


def calibrate(topo, rates, secs):
    """One dctcp flow through the port at each rate (ECN from 250 us of the
    rate): its srtt (median of samples after 0.5 s), the port's steady
    queueing delay p50, TCP's minimum RTT; the VM's own delay is srtt less
    both.  Returns the measurements, highest rate first."""
    set_algo(topo, "dctcp", {})
    out = []
    for rate in rates:
        topo.rate_mbit = rate
        k = max(int(rate * 1e6 / 8 * 250e-6), 2 * MTU)
        topo.port(f"rate {rate}mbit limit 1mb ecn_min {k}b ecn_max {3 * k}b ecn_prob 20")
        srv = Server(topo.b, RX, 6400)
        start = time.time_ns() + LEAD_NS
        clear = Clear(topo, start + STEADY_NS)
        res = clients([(topo.senders[0], RX, 6400, "--cc", "dctcp", "--seconds", str(secs),
                        "--start-at", str(start), "--sample-after", "0.5")])[0]
        srv.stop(1)
        clear.join()
        q = qdelay(topo.port_stats())
        srtt = sorted(res["srtt_us"])
        if not srtt or q["p50_us"] is None:
            raise RuntimeError(f"calibration at {rate} Mbit/s measured nothing")
        m = {"rate_mbit": rate, "srtt_us": srtt[len(srtt) // 2], "min_rtt_us": res["min_rtt_us"],
             "port_p50_us": q["p50_us"]}
        m["path_rtt_us"] = max(m["srtt_us"] - m["port_p50_us"], m["min_rtt_us"])
        m["vm_delay_us"] = m["path_rtt_us"] - m["min_rtt_us"]
        log(f"calibration {rate} Mbit/s: srtt {m['srtt_us']} us, port p50 < {q['p50_us']:.0f} us, "
            f"min RTT {m['min_rtt_us']} us: the VM's own delay {m['vm_delay_us']:.0f} us")
        out.append(m)
    return out


def sizing(rate, path_us):
    """The port's options and each algorithm's attributes for a port of
    rate Mbit/s on a path of path_us (its RTT under load, without the
    port's queue), and the rules, as the report prints them."""
    bdp = int(rate * 1e6 / 8 * path_us / 1e6)
    k = max(bdp, 2 * MTU)
    port = f"rate {rate}mbit limit 1mb ecn_min {k}b ecn_max {3 * k}b ecn_prob 20"
    base_ns = int(path_us * 1000)
    # nscc: the target is the config base RTT (trimming off); at the
    # target the loaded RTT is twice the path's.  Its max window: 1.5 x
    # the BDP at that RTT, as the pages take 1.5 x the BDP at the base.
    nscc_max_pkts = -(-int(1.5 * rate * 1e6 / 8 * 2 * path_us / 1e6) // MTU)
    nscc = {"net.nscc.data_rate_mbps": rate, "net.nscc.config_base_rtt_ns": base_ns,
            "net.nscc.quick_adapt_threshold_ns": 4 * base_ns,
            "net.nscc.override_spec_max_congestion_window": 1,
            "net.nscc.max_congestion_window_pkts": max(nscc_max_pkts, 2)}
    attrs = {
        "nscc-mrc": dict({"net.nscc.flavour": "mrc"}, **nscc),
        "nscc-uet": dict({"net.nscc.flavour": "uet"}, **nscc),
        "dcqcn": {"net.dcqcn.data_rate_mbps": rate, "net.dcqcn.episode_end_gap_ppm": 250},
        "swift": {"net.swift.base_target_ns": base_ns, "net.swift.hops": 1},
    }
    rules = [
        f"path RTT under load {path_us:.0f} us (the calibration flow's srtt less the "
        f"port's queueing delay); BDP {bdp} B at {rate} Mbit/s",
        f"port: ECN marking from one BDP of the loaded path ({k} B, at least two "
        f"packets) to three, 20 % at three; 1 MB buffer",
        f"nscc: data_rate_mbps the port's rate; config_base_rtt_ns the loaded path RTT "
        f"({base_ns} ns), so the target is that RTT; quick_adapt_threshold_ns four times "
        f"it (the spec's 24 us over 6 us); max window {max(nscc_max_pkts, 2)} packets, "
        f"1.5 x the BDP at twice the path RTT (override_spec_max_congestion_window: "
        f"it holds in mrc; uet replaces it once it measures a lower base RTT, which "
        f"the VM's idle RTT always is)",
        "dcqcn: data_rate_mbps the port's rate, so its floor (10 %) lies below the "
        "bottleneck; episode_end_gap_ppm 250, an end gap of 250 ppm of that rate (the "
        "page's 0.1 Gbit/s at 400 Gbit/s; its fixed 0.1 Gbit/s would end every episode "
        "at its first increase at the port's rate); TCP bursts of 61 us of its rate "
        "(the module's sk_pacing_shift)",
        f"swift: base_target_ns the loaded path RTT ({base_ns} ns), one hop",
        "cubic, dctcp, bbr: Linux's defaults",
    ]
    return port, attrs, rules


class Sampler:
    """The port's backlog every 50 ms, and the nscc tracepoint, for one run."""

    TRACE = "/sys/kernel/tracing"
    EVENT = "nscc/nscc_update"

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
        with open(f"{self.TRACE}/events/{self.EVENT}/enable", "w") as f:
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
        with open(f"{self.TRACE}/events/{self.EVENT}/enable", "w") as f:
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


class MrtSampler(Sampler):
    """The port's backlog every 50 ms and mrt's NSCC updates
    (mrt:mrt_nscc_update, each sender's window by its PDC), for one mrt
    incast."""

    EVENT = "mrt/mrt_nscc_update"

    def window(self):
        """(t_s, cwnd_bytes, lid) of the senders' updates, at most 4000."""
        pts = []
        with open(f"{self.TRACE}/trace") as f:
            for line in f:
                if "mrt_nscc_update:" not in line:
                    continue
                head, _, body = line.partition("mrt_nscc_update:")
                t = float(head.split()[-1].rstrip(":"))
                kv = dict(x.split("=", 1) for x in body.split() if "=" in x)
                pts.append((t, int(kv["cwnd"]), int(kv["lid"])))
        step = max(1, len(pts) // 4000)
        return [[round(t - self.t0, 4), c, lid] for t, c, lid in pts[::step]]


def save(doc, path):
    """The results so far, in path.partial: a run that fails leaves them
    there, and only a complete run becomes path."""
    with open(path + ".partial", "w") as f:
        json.dump(doc, f, indent=1)


def measure(doc, load, what, fn, *args):
    """fn(*args) with the host's CPU use outside QEMU around it; run again,
    up to twice, while the host was busy (the busy attempts go to
    doc["busy_runs"]).  Returns the last attempt, marked host_busy if it
    was busy too."""
    for attempt in range(3):
        a = load.read()
        r = fn(*args)
        cpus = HostLoad.cpus(a, load.read())
        r["host_cpus"] = cpus
        r["host_busy"] = cpus is not None and cpus > HOST_BUSY_CPUS
        if not r["host_busy"] or attempt == 2:
            save(doc, doc["out"])
            return r
        log(f"{what}: the host used {cpus} CPUs outside QEMU; again")
        doc["busy_runs"].append(dict(r, case=what, attempt=attempt))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rate-mbit", type=int, help="the port's rate (default: calibrated)")
    ap.add_argument("--vm-delay-max-pkts", type=float, default=VM_DELAY_MAX_PKTS)
    ap.add_argument("--host-load", default="", help="scripts/bench's host load file")
    ap.add_argument("--cases", default="long,incast,join,ordinary,mrt,libfabric,multipath",
                    help="comma-separated cases to run (default: all)")
    a = ap.parse_args()
    reps = 1 if a.quick else 3
    secs = 2.0 if a.quick else 4.0
    ns_list = [1, 2] if a.quick else [1, 2, 8]
    incast_bytes = (1 if a.quick else 2) << 20
    load = HostLoad(a.host_load)
    cases = set(a.cases.split(","))

    for m in ["sch_fabric", "mrt"] + list(MODULES.values()):
        sh("modprobe", m)
    # mrt's socket buffers (64 MiB) go up to these
    sysctl(None, "net.core.rmem_max", 67108864)
    sysctl(None, "net.core.wmem_max", 67108864)
    allowed = sh("sysctl", "-n", "net.ipv4.tcp_allowed_congestion_control").split()
    sysctl(None, "net.ipv4.tcp_allowed_congestion_control",
           " ".join(dict.fromkeys(allowed + list(MODULES) + ["cubic"])))

    topo = Topo(a.rate_mbit or RATES[0])
    topo.destroy()
    topo.build()
    try:
        if cases & {"long", "incast", "join", "mrt"}:
            cal = calibrate(topo, [a.rate_mbit] if a.rate_mbit else RATES, 2.0)
        else:
            cal = [{"rate_mbit": a.rate_mbit or RATES[-1], "srtt_us": 0, "min_rtt_us": 0,
                    "port_p50_us": 0, "path_rtt_us": 100.0, "vm_delay_us": 0.0}]
        for m in cal:
            m["vm_delay_pkts"] = m["vm_delay_us"] * m["rate_mbit"] / 8 / MTU
        fit = [m for m in cal if m["vm_delay_pkts"] <= a.vm_delay_max_pkts]
        chosen = fit[0] if fit else cal[-1]
        rate = chosen["rate_mbit"]
        topo.rate_mbit = rate
        port_opts, attrs, rules = sizing(rate, chosen["path_rtt_us"])
        if a.rate_mbit:
            why = f"{rate} Mbit/s, given (--rate-mbit)"
        elif fit:
            why = (f"{rate} Mbit/s, the highest rate at which the VM's own delay "
                   f"({chosen['vm_delay_us']:.0f} us, {chosen['vm_delay_pkts']:.1f} packet "
                   f"times) is at most {a.vm_delay_max_pkts:g} packet times")
        else:
            why = f"{rate} Mbit/s, the lowest tried: no rate kept the VM's own delay low"
        log(f"port {why}; {port_opts}")
        for r in rules:
            log(f"sizing: {r}")
        doc = {"quick": a.quick, "reps": reps, "seconds": secs, "rate_mbit": rate,
               "rate_why": why, "calibration": cal, "path_rtt_us": chosen["path_rtt_us"],
               "min_rtt_us": chosen["min_rtt_us"], "port": port_opts, "attributes": attrs,
               "sizing": rules, "steady_after_s": STEADY_NS / 1e9,
               "host_busy_cpus": HOST_BUSY_CPUS, "host_load": bool(load.read()),
               "senders": NSENDERS, "incast_bytes": incast_bytes, "kernel": os.uname().release,
               "algos": ALGOS, "ordinary": [name for _, name, _ in ORDINARY],
               "runs": [], "busy_runs": [], "out": a.out}
        for algo in ALGOS if cases & {"long", "incast", "join"} else []:
            set_algo(topo, algo, attrs)
            for rep in range(reps):
                for n in ns_list if "long" in cases else []:
                    sampler = Sampler(topo) if (algo == "nscc-mrc" and n == 2 and
                                                rep == 0) else None
                    r = measure(doc, load, f"{algo} long{n}", run_long, topo, algo, n, secs,
                                port_opts, sampler)
                    doc["runs"].append({"algo": algo, "case": f"long{n}", "rep": rep, **r})
                    if sampler:
                        doc["timeseries"] = {"algo": algo, "flows": 2,
                                             "window": sampler.window(),
                                             "queue": [q for q in sampler.queue
                                                       if q[0] >= -0.1]}
                    log(f"{algo} long{n} rep {rep}: {r['goodput_mbit']:.0f} Mbit/s, "
                        f"steady p99 < {r['ss_p99_us']} us")
                if "incast" in cases:
                    r = measure(doc, load, f"{algo} incast", run_incast, topo, algo,
                                incast_bytes, port_opts)
                    doc["runs"].append({"algo": algo, "case": "incast", "rep": rep, **r})
                    log(f"{algo} incast rep {rep}: {r['completion_ms']:.1f} ms")
                if "join" in cases:
                    r = measure(doc, load, f"{algo} join", run_join, topo, algo,
                                2 * secs if not a.quick else 3.0, port_opts)
                    doc["runs"].append({"algo": algo, "case": "join", "rep": rep, **r})
                    log(f"{algo} join rep {rep}: {r['reach_ms']} ms")
        for cc, name, extra in ORDINARY if "ordinary" in cases else []:
            set_ordinary(topo, cc, extra)
            for rep in range(reps):
                r = measure(doc, load, f"ordinary {name}", run_ordinary, topo, cc,
                            2.0 if a.quick else 3.0)
                doc["runs"].append({"algo": name, "case": "ordinary", "rep": rep, **r})
                log(f"ordinary path, {name} rep {rep}: {r['goodput_mbit']:.0f} Mbit/s, "
                    f"srtt {r['srtt_p50_us']} us")
        if "mrt" in cases:
            doc["mrt"] = run_mrt(topo, doc, load, reps, 2.0 if a.quick else 3.0, port_opts,
                                 chosen["path_rtt_us"], incast_bytes >> 20)
        if "libfabric" in cases:
            doc["libfabric"] = run_libfabric(topo, doc, load, reps)
        if "multipath" in cases:
            doc["multipath"] = run_multipath(doc, load, reps, 2.0 if a.quick else 3.0)
        with open(NSCC_FLAVOUR, "w") as f:
            f.write("uet")
        del doc["out"]
        with open(a.out, "w") as f:
            json.dump(doc, f, indent=1)
        os.unlink(a.out + ".partial")
    finally:
        topo.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())

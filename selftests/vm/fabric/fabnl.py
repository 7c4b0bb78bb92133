#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sch_fabric over rtnetlink, without tc: changes and stats snapshots fast
enough (tens of microseconds each) to look at what the qdisc does between
two of them, where a tc process (tens of milliseconds under TCG) cannot.

  fabnl.py ratecheck IFNAME RATE_BITS PKT_BYTES [--watch-ms MS]
      Changes the rate of IFNAME's root fabric qdisc to RATE_BITS and
      checks, on every snapshot for MS milliseconds, that the port sent no
      more than a new rate allows since just before the change:
          packets sent <= 2 + elapsed x RATE_BITS / (8 x PKT_BYTES)
      (the head may leave at once; elapsed is measured from before the
      change message to after each snapshot, so it only overstates the
      allowance).  PKT_BYTES is the smallest packet queued, as the qdisc
      counts it.  Exit 1 on a violation, 2 if there was no queue to drain.
  fabnl.py snapshots IFNAME COUNT
      Takes COUNT stats snapshots and checks that each one's delay
      histograms (the power-of-two one and the fine window after it) add
      up to its delay_count.  Exit 1 on a torn one, 2 if the histogram did
      not move during the run (no load to race with).
"""
import argparse
import socket
import struct
import sys
import time

RTM_NEWQDISC, RTM_GETQDISC = 36, 38
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLA_F_NESTED = 0x8000
TCA_KIND, TCA_OPTIONS, TCA_STATS2 = 1, 2, 7
TCA_STATS_BASIC, TCA_STATS_QUEUE, TCA_STATS_APP = 1, 3, 4
TCA_FABRIC_RATE = 2
TC_H_ROOT = 0xFFFFFFFF
# struct tc_fabric_xstats: 13 counters, then the histogram, then the fine
# window: below (u64), above (u64), first (u32), len (u16), offset (u16) of
# the len counts.
XSTATS_DELAY_COUNT, XSTATS_HIST, HIST_BUCKETS = 10, 13, 32
XSTATS_FINE_AT = (XSTATS_HIST + HIST_BUCKETS) * 8


def attr(typ, payload):
    a = struct.pack("HH", 4 + len(payload), typ) + payload
    return a + bytes((4 - len(a) % 4) % 4)


def attrs(buf):
    out, off = {}, 0
    while off + 4 <= len(buf):
        alen, typ = struct.unpack_from("HH", buf, off)
        if alen < 4:
            break
        out[typ & 0x3FFF] = buf[off + 4:off + alen]
        off += (alen + 3) & ~3
    return out


class Rtnl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               socket.NETLINK_ROUTE)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.seq = 0

    def request(self, typ, flags, body):
        self.seq += 1
        self.s.send(struct.pack("IHHII", 16 + len(body), typ,
                                flags | NLM_F_REQUEST, self.seq, 0) + body)
        msgs = []
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                mlen, mtyp, _, mseq, _ = struct.unpack_from("IHHII", data, off)
                payload = data[off + 16:off + mlen]
                off += (mlen + 3) & ~3
                if mseq != self.seq:
                    continue
                if mtyp == NLMSG_ERROR:
                    err = -struct.unpack_from("i", payload)[0]
                    if err:
                        raise OSError(err, f"netlink error {err}")
                    return msgs
                if mtyp == NLMSG_DONE:
                    return msgs
                msgs.append(payload)

    def change_rate(self, ifindex, rate):
        body = struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, 0, TC_H_ROOT, 0)
        body += attr(TCA_KIND, b"fabric\0")
        body += attr(TCA_OPTIONS | NLA_F_NESTED,
                     attr(TCA_FABRIC_RATE, struct.pack("Q", rate)))
        self.request(RTM_NEWQDISC, NLM_F_ACK, body)

    def stats(self, ifindex):
        body = struct.pack("BxxxiIII", socket.AF_UNSPEC, 0, 0, 0, 0)
        for m in self.request(RTM_GETQDISC, NLM_F_DUMP, body):
            idx = struct.unpack_from("i", m, 4)[0]
            a = attrs(m[20:])
            if idx != ifindex or a.get(TCA_KIND, b"")[:6] != b"fabric":
                continue
            st = attrs(a[TCA_STATS2])
            nbytes, packets = struct.unpack_from("QI", st[TCA_STATS_BASIC])
            qlen, backlog = struct.unpack_from("II", st[TCA_STATS_QUEUE])
            app = st[TCA_STATS_APP]
            xs = struct.unpack_from(f"<{XSTATS_FINE_AT // 8}Q", app)
            below, above, _, n, off = struct.unpack_from("<QQIHH", app, XSTATS_FINE_AT)
            if len(app) != off + 8 * n:
                raise SystemExit(f"xstats of {len(app)} bytes, the window says {n} counts at {off}")
            fine = (below, above) + struct.unpack_from(f"<{n}Q", app, off)
            return {"bytes": nbytes, "packets": packets, "qlen": qlen,
                    "backlog": backlog, "xstats": xs, "fine": fine}
        raise SystemExit(f"no fabric qdisc on ifindex {ifindex}")


def ratecheck(a):
    nl, ifindex = Rtnl(), socket.if_nametoindex(a.ifname)
    before = nl.stats(ifindex)
    if before["qlen"] < 3:
        print(f"no queue to drain (qlen {before['qlen']})")
        return 2
    per_s = a.rate / (8 * a.pkt_bytes)
    t0 = time.monotonic()
    nl.change_rate(ifindex, a.rate)
    worst, n = None, 0
    while True:
        st = nl.stats(ifindex)
        t = time.monotonic()
        sent = st["packets"] - before["packets"]
        allowed = 2 + (t - t0) * per_s
        n += 1
        if worst is None or sent - allowed > worst[0] - worst[1]:
            worst = (sent, allowed, t - t0)
        if sent > allowed or not st["qlen"] or t - t0 > a.watch_ms / 1000:
            break
    print(f"queue {before['qlen']} packets; {n} snapshots; closest to the limit: "
          f"{worst[0]} sent by {worst[2] * 1e3:.3f} ms, {worst[1]:.1f} allowed; "
          f"left in the queue {st['qlen']}")
    return 1 if sent > allowed else 0


def snapshots(a):
    nl, ifindex = Rtnl(), socket.if_nametoindex(a.ifname)
    torn, first, last = 0, None, None
    for _ in range(a.count):
        st = nl.stats(ifindex)
        xs, fine = st["xstats"], st["fine"]
        hist = xs[XSTATS_HIST:XSTATS_HIST + HIST_BUCKETS]
        if sum(hist) != xs[XSTATS_DELAY_COUNT] or sum(fine) != xs[XSTATS_DELAY_COUNT]:
            torn += 1
        first = xs[XSTATS_DELAY_COUNT] if first is None else first
        last = xs[XSTATS_DELAY_COUNT]
    print(f"{a.count} snapshots, delay_count {first} -> {last}, torn {torn}")
    if torn:
        return 1
    return 0 if last > first else 2


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("ratecheck")
    r.add_argument("ifname")
    r.add_argument("rate", type=int)
    r.add_argument("pkt_bytes", type=int)
    r.add_argument("--watch-ms", type=float, default=200)
    s = sub.add_parser("snapshots")
    s.add_argument("ifname")
    s.add_argument("count", type=int)
    a = p.parse_args()
    return ratecheck(a) if a.cmd == "ratecheck" else snapshots(a)


if __name__ == "__main__":
    sys.exit(main())

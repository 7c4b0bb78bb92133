#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile mrt peers and local users for 16_hostile.sh: plain UDP and raw
sockets in the attacker's own namespace, bounded in count and time.  Each
mode prints one JSON line.

  mrtattack.py synflood DST EP --count N [--ids K] [--while-exists F]
        SYNs from spoofed sources in 198.18.128.0/17 (a raw socket, IPv4),
        each a new PDC of one of K ids, without a cookie or with a guessed
        one, until N have gone or F is gone
  mrtattack.py peer SRC DST EP MODE [--rcvbuf B] [--count N]
        a peer that answers (bound to SRC and the mrt port): it takes the
        victim's cookie and opens PDCs, then
          fresh     N (up to 1000) messages of two packets, only the first of each
                    sent, in PSN order (the PSN window moves on while
                    every message stays partial), their ids chosen to
                    share one bucket of an unkeyed hash
          huge      one message of 16 MiB, in 1-byte packets
          dribble   one message of B/2 bytes (B: the victim's buffer) in
                    1-byte packets, in order
          stale     two PDCs with the same id, one after the other, each
                    with a whole message (a new first PSN and key: a new
                    PDC, never captured by the first)
  mrtattack.py forge SRC DST --data LID RID PSN | --ack LID RID PSN
                    | --nack LID | --syn-ack LID [--count N]
        packets from a local user who knows a PDC's ids and PSNs but not
        its keys: DATA into a receiving PDC, ACKs and CLOSING or
        INV_DPDCID NACKs to a sending one, the first answer of a PDC in
        SYN (all with guessed keys)
  mrtattack.py nonunicast DST...
        a SYN to each address (broadcast, multicast) from SRC's socket
  mrtattack.py send DST EP
        sendmsg() and connect() of an mrt socket to DST: the errno

Answers are counted by type and NACK code in "rx".
"""
import argparse
import json
import os
import random
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrtfuzz as m  # noqa: E402

PORT = 4794
NACK_CODES = {0x01: 'trimmed', 0x0a: 'no_resource', 0x0b: 'oor', 0x0e: 'inv_dpdcid',
              0x0f: 'no_endpoint', 0x10: 'closing', 0xc0: 'cookie', 0xc1: 'msg_too_big'}


def parse(pkt):
    """The fields of an answer that a peer needs (a small parser of its
    own, so that the kernel's is not taken on trust)."""
    if len(pkt) < 16 or pkt[0] >> 4 != m.VERSION:
        return None
    typ = pkt[0] & 15
    flags, spdcid, dpdcid, ev, skey, dkey = struct.unpack('>BHHHII', pkt[1:16])
    a = {'type': typ, 'flags': flags, 'spdcid': spdcid, 'dpdcid': dpdcid, 'skey': skey,
         'dkey': dkey}
    if typ == m.ACK and len(pkt) >= 48:
        a['cack'], a['ack_psn'] = struct.unpack('>II', pkt[16:24])
    elif typ == m.NACK and len(pkt) >= 32:
        a['psn'], a['code'] = struct.unpack('>IB', pkt[16:21])
        a['payload'] = struct.unpack('>I', pkt[28:32])[0]
    return a


class Peer:
    """One PDC of a peer that answers, over a UDP socket bound to the mrt
    port of its own address."""

    def __init__(self, sock, dst, ep, rx, src_ep=9000):
        self.s, self.dst, self.ep, self.rx = sock, dst, ep, rx
        self.src_ep = src_ep
        self.cookie = 0

    def open(self, lid=None):
        self.lid = lid or random.randrange(1, 65536)
        self.key = random.randrange(1, 1 << 32)
        self.start = self.psn = random.randrange(1 << 32)
        self.rid = self.rkey = 0
        self.msg_id = 0

    def send(self, payload_len, off, mlen, flags, msg_id=None, plen=None):
        syn = not self.rid
        f = flags | (m.SYN if syn else 0)
        pkt = m.data(psn=self.psn, src_ep=self.src_ep, dst_ep=self.ep,
                     msg_id=self.msg_id if msg_id is None else msg_id,
                     plen=payload_len, off=off, mlen=mlen, flags=f,
                     start=self.start if syn else 0, spdcid=self.lid,
                     dpdcid=0 if syn else self.rid, skey=self.key,
                     dkey=self.cookie if syn else self.rkey, ev=50000)
        self.s.sendto(pkt, (self.dst, PORT))
        self.psn = (self.psn + 1) & 0xffffffff

    def answers(self, wait):
        """Reads what came, for up to wait seconds after the last."""
        got = []
        while True:
            r, _, _ = select.select([self.s], [], [], wait)
            if not r:
                return got
            a = parse(self.s.recv(2048))
            if not a:
                continue
            key = 'ack' if a['type'] == m.ACK else NACK_CODES.get(a.get('code'), 'other')
            self.rx[key] = self.rx.get(key, 0) + 1
            got.append(a)
            wait = min(wait, 0.2)

    def handshake(self, deadline):
        """A whole one-packet message as a SYN, until it is ACKed: the
        first without a cookie brings one, the next opens the PDC."""
        while time.monotonic() < deadline:
            self.psn = self.start
            self.send(100, 0, 100, m.SOM | m.EOM)
            for a in self.answers(1.0):
                if a['dkey'] != self.key:
                    continue
                if a['type'] == m.NACK and a['code'] == 0xc0:
                    self.cookie = a['payload']
                elif a['type'] == m.ACK:
                    self.rid, self.rkey = a['spdcid'], a['skey']
                    self.psn = (self.start + 1) & 0xffffffff
                    self.msg_id = 1
                    return True
        return False


def colliding_ids(n):
    """n message ids that one bucket of hash_32(id, 6), the unkeyed hash
    mrt's messages once had, would hold."""
    out, want, i = [], None, 0
    while len(out) < n:
        h = (i * 0x61C88647 & 0xffffffff) >> 26
        if want is None:
            want = h
        if h == want:
            out.append(i)
        i += 1
    return out


def peer(a):
    rx = {}
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.src, PORT))
    p = Peer(s, a.dst, a.ep, rx)
    deadline = time.monotonic() + a.timeout
    out = {'mode': a.mode, 'rx': rx, 'sent': 0}
    p.open()
    out['opened'] = p.handshake(deadline)
    if not out['opened']:
        print(json.dumps(out))
        return
    if a.mode == 'fresh':
        # at most the 1024 ids that one of 64 buckets holds
        for mid in colliding_ids(min(a.count, 1000)):
            p.send(1400, 0, 2800, m.SOM, msg_id=mid)
            out['sent'] += 1
            if out['sent'] % 32 == 0:
                p.answers(0)
    elif a.mode in ('huge', 'dribble'):
        mlen = 16 << 20 if a.mode == 'huge' else a.rcvbuf // 2
        for off in range(min(a.count, mlen)):
            p.send(1, off, mlen, m.SOM if off == 0 else 0)
            out['sent'] += 1
            if out['sent'] % 32 == 0:
                p.answers(0)
    elif a.mode == 'stale':
        first = (p.lid, p.key, p.start)
        p.send(300, 0, 300, m.SOM | m.EOM)
        out['sent'] += 1
        p.answers(0.5)
        p.open(lid=first[0])
        out['reopened'] = p.handshake(deadline)
        p.send(300, 0, 300, m.SOM | m.EOM)
        out['sent'] += 1
        out['lid'] = p.lid
        out['starts'] = [first[2], p.start]
    p.answers(1.0)
    print(json.dumps(out))


def ip4_udp(src, dst, sport, payload):
    udp = struct.pack('>HHHH', sport, PORT, 8 + len(payload), 0) + payload
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    return ip + udp


def synflood(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    rnd = random.Random(a.seed)
    ids = [rnd.randrange(1, 65536) for _ in range(a.ids)]
    sent, t0 = 0, time.monotonic()
    end = t0 + a.timeout
    while sent < a.count and time.monotonic() < end:
        if a.while_exists and sent % 256 == 0 and not os.path.exists(a.while_exists):
            break
        src = '198.18.%d.%d' % (rnd.randrange(128, 256), rnd.randrange(1, 255))
        start = rnd.randrange(1 << 32)
        pkt = m.data(psn=start, dst_ep=a.ep, flags=m.SOM | m.EOM | m.SYN, start=start,
                     spdcid=ids[sent % len(ids)], dpdcid=0, skey=rnd.randrange(1, 1 << 32),
                     dkey=rnd.randrange(1 << 32) if sent % 2 else 0, plen=100, mlen=100)
        s.sendto(ip4_udp(src, a.dst, rnd.randrange(49152, 65536), pkt), (a.dst, 0))
        sent += 1
    print(json.dumps({'sent': sent, 'seconds': round(time.monotonic() - t0, 3)}))


def forge(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.src, 0))
    rnd = random.Random(a.seed)
    sent = 0
    for i in range(a.count):
        guess = rnd.randrange(1, 1 << 32)
        if a.data:
            lid, rid, psn = a.data
            # the bytes a legitimate message would have, but forged: a
            # message the server would count (and check) if it arrived
            pkt = m.data(psn=(psn + i) & 0xffffffff, src_ep=a.src_ep, dst_ep=a.ep,
                         msg_id=rnd.randrange(65536), plen=200, mlen=200,
                         flags=m.SOM | m.EOM, spdcid=rid, dpdcid=lid,
                         skey=guess, dkey=rnd.randrange(1, 1 << 32), payload=b'F' * 200)
        elif a.ack:
            lid, rid, psn = a.ack
            pkt = m.ack(cack=psn, ack_psn=psn, base=psn, bitmap=(1 << 64) - 1, spdcid=rid,
                        dpdcid=lid, skey=guess, dkey=rnd.randrange(1, 1 << 32))
        elif a.nack is not None:
            pkt = m.nack(psn=rnd.randrange(1 << 32), code=(0x10, 0x0e)[i % 2],
                         spdcid=0 if i % 2 else 1, skey=0 if i % 2 else guess,
                         dpdcid=a.nack, dkey=rnd.randrange(1, 1 << 32))
        else:
            pkt = m.ack(cack=0, ack_psn=0, spdcid=rnd.randrange(1, 65536), dpdcid=a.syn_ack,
                        skey=guess, dkey=rnd.randrange(1, 1 << 32))
        s.sendto(pkt, (a.dst, PORT))
        sent += 1
        time.sleep(0.001)
    print(json.dumps({'sent': sent}))


def nonunicast(a):
    out = {}
    for dst in a.dsts:
        fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
        s = socket.socket(fam, socket.SOCK_DGRAM)
        if fam == socket.AF_INET:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        host, _, ifname = dst.partition('%')
        pkt = m.data(psn=1, dst_ep=a.ep, flags=m.SOM | m.EOM | m.SYN, start=1, dpdcid=0,
                     dkey=0)
        try:
            s.sendto(pkt, (dst, PORT) if fam == socket.AF_INET else
                     (host, PORT, 0, socket.if_nametoindex(ifname) if ifname else 0))
            out[dst] = 'sent'
        except OSError as e:
            out[dst] = e.strerror
    print(json.dumps(out))


def send(a):
    """What an mrt socket's sendmsg() and connect() say to each address."""
    out = {}
    for dst in a.dsts:
        fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
        host, _, ifname = dst.partition('%')
        addr = (host, a.ep) if fam == socket.AF_INET else \
               (host, a.ep, 0, socket.if_nametoindex(ifname) if ifname else 0)
        r = {}
        for op in ('sendmsg', 'connect'):
            s = socket.socket(fam, socket.SOCK_RDM, 253)
            try:
                if op == 'sendmsg':
                    s.sendto(b'x' * 10, addr)
                else:
                    s.connect(addr)
                r[op] = 'ok'
            except OSError as e:
                r[op] = os.strerror(e.errno)
            s.close()
        out[dst] = r
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    f = sub.add_parser('synflood')
    f.add_argument('dst')
    f.add_argument('ep', type=int)
    f.add_argument('--count', type=int, default=10000)
    f.add_argument('--ids', type=int, default=6000)
    f.add_argument('--seed', type=int, default=1)
    f.add_argument('--timeout', type=float, default=120)
    f.add_argument('--while-exists')
    f = sub.add_parser('peer')
    f.add_argument('src')
    f.add_argument('dst')
    f.add_argument('ep', type=int)
    f.add_argument('mode', choices=['fresh', 'huge', 'dribble', 'stale'])
    f.add_argument('--count', type=int, default=1000)
    f.add_argument('--rcvbuf', type=int, default=262144)
    f.add_argument('--timeout', type=float, default=60)
    f = sub.add_parser('forge')
    f.add_argument('src')
    f.add_argument('dst')
    f.add_argument('--data', type=int, nargs=3, metavar=('LID', 'RID', 'PSN'))
    f.add_argument('--ack', type=int, nargs=3, metavar=('LID', 'RID', 'PSN'))
    f.add_argument('--nack', type=int, metavar='LID')
    f.add_argument('--syn-ack', type=int, metavar='LID')
    f.add_argument('--ep', type=int, default=7000)
    f.add_argument('--src-ep', type=int, default=0)
    f.add_argument('--count', type=int, default=50)
    f.add_argument('--seed', type=int, default=7)
    f = sub.add_parser('nonunicast')
    f.add_argument('ep', type=int)
    f.add_argument('dsts', nargs='+')
    f = sub.add_parser('send')
    f.add_argument('ep', type=int)
    f.add_argument('dsts', nargs='+')
    a = ap.parse_args()
    scale = int(os.environ.get('WAIT_SCALE', '1'))
    if hasattr(a, 'timeout'):
        a.timeout *= scale
    {'synflood': synflood, 'peer': peer, 'forge': forge, 'nonunicast': nonunicast,
     'send': send}[a.cmd](a)


if __name__ == '__main__':
    main()

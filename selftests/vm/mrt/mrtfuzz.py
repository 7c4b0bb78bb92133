#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed and hostile mrt packets from a plain UDP socket, for
05_malformed.sh.  Each mode prints {"reason": packets sent, ...}.

  mrtfuzz.py malformed ADDR PORT N      N packets per reason of
                                        /proc/net/mrt/snmp's malformed_*
  mrtfuzz.py oor ADDR PORT LID RID SRC_EP DST_EP CACK N
                                        DATA for a live PDC, PSNs far
                                        beyond its window
  mrtfuzz.py sack ADDR PORT DPDCID SPDCID UNA NXT N
                                        ACKs for a live sending PDC: SACK
                                        bits only for PSNs never sent, and
                                        a cack beyond every PSN sent
"""
import json
import socket
import struct
import sys
import time

DATA, ACK, NACK, CTRL = 1, 2, 3, 4
SOM, EOM, SYN = 0x08, 0x10, 0x01


def hdr(typ, flags=0, spdcid=0x1111, dpdcid=0x2222, ev=0x3333, ver=1):
    return struct.pack('>BBHHH', ver << 4 | typ, flags, spdcid, dpdcid, ev)


def data(psn=5, src_ep=1, dst_ep=7000, msg_id=1, plen=100, off=0, mlen=100,
         start=0, flags=SOM | EOM, payload=None, **kw):
    body = payload if payload is not None else b'\0' * plen
    return hdr(DATA, flags, **kw) + struct.pack('>IHHHHIII', psn, src_ep, dst_ep, msg_id,
                                                plen, off, mlen, start) + body


def ack(cack=0, ack_psn=0, base=0, bitmap=0, rcvd=0, ooo=0, pen=0, mpr=4, svc=0, res=0, **kw):
    return hdr(ACK, **kw) + struct.pack('>IIIQIHBBHH', cack, ack_psn, base, bitmap, rcvd,
                                        ooo, pen, mpr, svc, res)


def nack(psn=0, code=1, vendor=0, res=0, rcvd=0, payload=0, **kw):
    return hdr(NACK, **kw) + struct.pack('>IBBHII', psn, code, vendor, res, rcvd, payload)


def ctrl(typ=1, cflags=0, opaque=0, psn=0, **kw):
    return hdr(CTRL, **kw) + struct.pack('>BBHI', typ, cflags, opaque, psn)


def cases():
    """(reason, packet) pairs: each packet is malformed for that reason only."""
    d = data()
    return [
        ('short', d[:7]),
        ('short', d[:31]),
        ('short', ack()[:39]),
        ('version', bytes([0x21]) + d[1:]),
        ('version', bytes([0x21]) + d[1:20]),  # short too: the version comes first
        ('type', bytes([0x17]) + d[1:]),
        ('flags', data(flags=SOM | EOM | 0x80)),
        ('flags', hdr(CTRL, flags=1) + ctrl()[8:]),
        ('reserved', data(start=9)),           # start_psn without SYN
        ('reserved', ack(res=1)),
        ('reserved', nack(vendor=1)),
        ('pdcid', data(spdcid=0)),
        ('pdcid', data(dpdcid=0)),             # no SYN
        ('pdcid', ack(dpdcid=0)),
        ('length', d + b'extra'),              # more payload than announced
        ('length', ack() + b'x'),
        ('offset', data(off=950, mlen=1000)),
        ('offset', data(off=0xffffff9c, mlen=100)),
        ('boundary', data(off=100, mlen=1000, flags=SOM)),
        ('boundary', data(off=0, mlen=1000, flags=EOM)),
        ('penalty', ack(pen=128)),
        ('window', ack(mpr=9)),
        ('window', data(flags=SOM | EOM | SYN, dpdcid=0, psn=20000, start=0)),
        ('code', nack(code=0x7f)),
        ('code', ctrl(typ=99)),
    ]


def main():
    mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fam = socket.AF_INET6 if ':' in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    sent = {}

    def tx(reason, pkt):
        s.sendto(pkt, (addr, port))
        sent[reason] = sent.get(reason, 0) + 1
        time.sleep(0.001)               # paced: no queue overflows

    if mode == 'malformed':
        n = int(sys.argv[4])
        for _ in range(n):
            for reason, pkt in cases():
                tx(reason, pkt)
    elif mode == 'oor':
        lid, rid, src_ep, dst_ep, cack, n = map(int, sys.argv[4:10])
        for i in range(n):
            tx('oor', data(psn=(cack + 100000 + i) & 0xffffffff, src_ep=src_ep,
                           dst_ep=dst_ep, spdcid=rid, dpdcid=lid, flags=0, mlen=1000,
                           off=100))
    elif mode == 'sack':
        dpdcid, spdcid, una, nxt, n = map(int, sys.argv[4:9])
        far = (nxt + 1000000) & 0xffffffff
        for i in range(n):
            # a stale cack (nothing new) and SACK bits a million PSNs on
            tx('unsent', ack(cack=una, ack_psn=far, base=far, bitmap=(1 << 64) - 1,
                             spdcid=spdcid, dpdcid=dpdcid, mpr=4))
            # a cack beyond every PSN sent: nothing of it is believed
            tx('cack_beyond', ack(cack=far, ack_psn=far, base=far, bitmap=1,
                                  spdcid=spdcid, dpdcid=dpdcid, mpr=4))
    print(json.dumps(sent))


if __name__ == '__main__':
    main()

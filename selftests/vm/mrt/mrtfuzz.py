#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed and hostile mrt packets from a plain UDP socket, for
05_malformed.sh.  Each mode prints {"reason": packets sent, ...}.

  mrtfuzz.py malformed ADDR PORT N      N packets per reason of
                                        /proc/net/mrt/snmp's malformed_*
  mrtfuzz.py oor ADDR PORT LID RID SRC_EP DST_EP CACK KEY RKEY N
                                        DATA for a live PDC, PSNs far
                                        beyond its window
  mrtfuzz.py sack ADDR PORT DPDCID SPDCID UNA NXT KEY RKEY N
                                        ACKs for a live sending PDC: SACK
                                        bits only for PSNs never sent, and
                                        a cack beyond every PSN sent

KEY is the receiving PDC's own key, RKEY its peer's (hex, as
/proc/net/mrt/pdcs shows them to root): without them every packet to a
PDC is refused (bad_key_in) before anything else looks at it.
"""
import json
import socket
import struct
import sys
import time

DATA, ACK, NACK, CTRL = 1, 2, 3, 4
SOM, EOM, SYN = 0x08, 0x10, 0x01


VERSION = 2
DATA_MIN = 48                           # the smallest data packet (an ACK's size)


def hdr(typ, flags=0, spdcid=0x1111, dpdcid=0x2222, ev=0x3333, skey=0x44444444,
        dkey=0x55555555, ver=VERSION):
    return struct.pack('>BBHHHII', ver << 4 | typ, flags, spdcid, dpdcid, ev, skey, dkey)


def data(psn=5, src_ep=1, dst_ep=7000, msg_id=1, plen=100, off=0, mlen=100,
         start=0, flags=SOM | EOM, payload=None, **kw):
    """A DATA packet; a payload under 8 bytes is padded with zeros (unless
    payload gives the bytes after the header as they are)."""
    if payload is None:
        payload = b'\0' * max(plen, DATA_MIN - 40)
    return hdr(DATA, flags, **kw) + struct.pack('>IHHHHIII', psn, src_ep, dst_ep, msg_id,
                                                plen, off, mlen, start) + payload


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
    v1 = struct.pack('>BBHHH', 0x11, SOM | EOM, 0x1111, 0x2222, 0x3333)
    return [
        ('short', d[:15]),
        ('short', d[:39]),
        ('short', ack()[:47]),
        ('old_version', v1 + d[8:]),           # version 1: no keys
        ('old_version', v1),
        ('version', bytes([0x31]) + d[1:]),
        ('version', bytes([0x31]) + d[1:10]),  # short too: the version comes first
        ('type', bytes([0x27]) + d[1:]),
        ('flags', data(flags=SOM | EOM | 0x80)),
        ('flags', hdr(CTRL, flags=1) + ctrl()[16:]),
        ('reserved', data(start=9)),           # start_psn without SYN
        ('reserved', ack(res=1)),
        ('reserved', nack(vendor=1)),
        ('reserved', data(plen=3, mlen=3, payload=b'abc\0\0\0\0\1')),  # padding not zero
        ('pdcid', data(spdcid=0)),
        ('pdcid', data(dpdcid=0)),             # no SYN
        ('pdcid', data(flags=SOM | EOM | SYN)),  # a SYN naming a dpdcid
        ('pdcid', ack(dpdcid=0)),
        ('key', data(skey=0)),
        ('key', data(dkey=0)),                 # no SYN
        ('key', ack(dkey=0)),
        ('key', nack(spdcid=0, code=0x0e)),    # a stateless NACK with an skey
        ('length', d + b'extra'),              # more payload than announced
        ('length', ack() + b'x'),
        ('length', data(plen=3, mlen=3, payload=b'abc' + bytes(6))),  # past the padding
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
        lid, rid, src_ep, dst_ep, cack = map(int, sys.argv[4:9])
        key, rkey = (int(x, 16) for x in sys.argv[9:11])
        n = int(sys.argv[11])
        for i in range(n):
            tx('oor', data(psn=(cack + 100000 + i) & 0xffffffff, src_ep=src_ep,
                           dst_ep=dst_ep, spdcid=rid, dpdcid=lid, flags=0, mlen=1000,
                           off=100, skey=rkey, dkey=key))
    elif mode == 'sack':
        dpdcid, spdcid, una, nxt = map(int, sys.argv[4:8])
        key, rkey = (int(x, 16) for x in sys.argv[8:10])
        n = int(sys.argv[10])
        far = (nxt + 1000000) & 0xffffffff
        for i in range(n):
            # a stale cack (nothing new) and SACK bits a million PSNs on
            tx('unsent', ack(cack=una, ack_psn=far, base=far, bitmap=(1 << 64) - 1,
                             spdcid=spdcid, dpdcid=dpdcid, mpr=4, skey=rkey, dkey=key))
            # a cack beyond every PSN sent: nothing of it is believed
            tx('cack_beyond', ack(cack=far, ack_psn=far, base=far, bitmap=1,
                                  spdcid=spdcid, dpdcid=dpdcid, mpr=4, skey=rkey,
                                  dkey=key))
    print(json.dumps(sent))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes the seed corpora of selftests/fuzz/ (corpus/<target>/), so they
can be regenerated and reviewed; the files are committed.  Each target's
fuzzer reads its first byte as described in fuzz_<target>.c.

  selftests/fuzz/mkseeds.py [DIR]      (default: corpus/ next to this file)
"""
import hashlib
import os
import random
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'vm', 'mrt'))
import mrtfuzz as m  # noqa: E402  (the VM fuzzer's packet builders)


def wire():
    SOM, EOM, SYN = m.SOM, m.EOM, m.SYN
    yield m.data(psn=7, flags=SOM | EOM | SYN, start=7, dpdcid=0, dkey=0)
    yield m.data(psn=7, flags=SOM | SYN, start=7, dpdcid=0, dkey=0xc00c1e, mlen=3000,
                 plen=1400)
    yield m.data(psn=8, off=0, mlen=3000, plen=1400, flags=SOM)
    yield m.data(psn=9, off=1400, mlen=3000, plen=1400, flags=0)
    yield m.data(psn=10, off=2800, mlen=3000, plen=200, flags=EOM)
    yield m.data(psn=11, plen=1400, mlen=1400, payload=b'')   # trimmed
    yield m.data(psn=12, plen=0, mlen=0)
    yield m.ack(cack=5, ack_psn=9, base=5, bitmap=0x11, rcvd=12000, ooo=2, pen=3)
    yield m.ack(cack=0xfffffff0, ack_psn=0x10, base=0xffffffd1, bitmap=(1 << 64) - 1)
    yield m.data(psn=13, plen=3, mlen=3)                        # padded
    for code in (1, 2, 0x0a, 0x0b, 0x10, 0xc1):
        yield m.nack(psn=9, code=code, rcvd=1400, payload=1400)
    for code in (0x0a, 0x0e, 0x0f, 0xc0):                       # stateless
        yield m.nack(psn=9, code=code, spdcid=0, skey=0, payload=0xc00c1e)
    for typ in range(1, 4):
        yield m.ctrl(typ=typ, opaque=0x1234, psn=33)


def psn():
    rnd = random.Random(1)
    for n in (16, 64, 256, 1024):
        yield bytes(rnd.randrange(256) for _ in range(n))
    # near the wrap: first PSN 0xffffff00, then sends, ACKs, arrivals
    yield bytes([1]) + struct.pack('<I', 0xffffff00) + bytes([3, 70, 4, 0, 0, 1, 0] +
                                                              [0xff] * 8 + [6, 50, 0, 1, 0, 0, 40])


def attr():
    # first byte: which attribute (modulo their number); then the text
    texts = (b'0', b'1000\n', b'mrc', b'reps', b'4294967296', b' 5 ')
    for i in range(0, 120, 5):
        yield bytes([i]) + texts[i % len(texts)]


def ccreplay():
    nscc = (b'0 send bytes=100000\n0 loss bytes=4156\n100 ack bytes=4156 rtt=11000\n'
            b'200 ack bytes=4156 rtt=11000 ecn=1 pen=4\n300 trim bytes=4156 rtt=9000\n'
            b'400 nack bytes=4156\n500 cack bytes=8312\n600 ack bytes=4156 restore=1 service=100\n')
    dcqcn = b'0 tx pkts=100\n10 cnp\n20 cnp n=3\n1000000 tick\n2000000 tx pkts=4294967295\n'
    swift = (b'0 ack rtt=20000 acked=10\n100 ack rtt=90000 acked=1 srtt=50000\n'
             b'200 rto srtt=50000\n300 recovery\n400 ack rtt=1 acked=1 nomd=1\n')
    yield b'\0' + nscc
    yield b'\1' + nscc
    yield b'\2' + dcqcn
    yield b'\3' + swift
    yield b'\0' + b'# a comment\n\n0 ack bytes=1 # trailing\n'


def tc():
    for words in (
            'rate 10gbit limit 1mb',
            'rate 1001bit limit 1.5kb ecn_min 30kb ecn_max 120kb ecn_prob 20',
            'rate 12.5kbit limit 3.999999999068677425384521484375gb',
            'rate 1.5TiBps trim_dscp_in 0x8000000000000001',
            'rate 400mbit trim_at 64kb trim_size 128 trim_dscp 46 trim_limit 16kb',
            'trim_dscp_in 8-15,46 clear_stats',
            'limit 100000 ecn_max 0'):
        yield b'\0' + words.encode()
    # a TCA_OPTIONS payload: rate (u64) and limit (u32) attributes
    opts = struct.pack('<HHQ', 12, 2, 10 ** 10) + struct.pack('<HHI', 8, 3, 1 << 20)
    yield b'\1' + opts
    yield b'\2' + bytes(64)
    yield b'\2' + bytes(range(256)) * 2


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus')
    for name, gen in (('wire', wire), ('psn', psn), ('attr', attr),
                      ('ccreplay', ccreplay), ('tc', tc)):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        for seed in gen():
            h = hashlib.sha1(seed).hexdigest()[:16]
            with open(os.path.join(d, h), 'wb') as f:
                f.write(seed)


if __name__ == '__main__':
    main()

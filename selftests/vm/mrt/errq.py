#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The mrt socket API's errors, for 04_errors.sh.

  errq.py fail ADDR EP COOKIE WAIT     send one message; print the first
                                       error-queue entry (JSON) within WAIT s
  errq.py limits ADDR EP               EMSGSIZE and EAGAIN (JSON)
  errq.py serve ADDR EP N READY        receive N messages, print the count
"""
import json
import select
import socket
import struct
import sys
import time

SOL_MRT, MRT_COOKIE, IPPROTO_MRT = 253, 4, 253
RECVERR = {(socket.SOL_IP, 11), (41, 25)}


def mk(addr):
    fam = socket.AF_INET6 if ':' in addr else socket.AF_INET
    return socket.socket(fam, socket.SOCK_RDM, IPPROTO_MRT)


def send(s, addr, ep, data, cookie, flags=0):
    s.sendmsg([data], [(SOL_MRT, MRT_COOKIE, struct.pack('=Q', cookie))], flags, (addr, ep))


def first_err(s, wait):
    deadline = time.monotonic() + wait
    p = select.poll()
    p.register(s, select.POLLERR)       # POLLERR: the error queue has one
    while time.monotonic() < deadline:
        if not any(ev & select.POLLERR for _, ev in p.poll(200)):
            continue
        data, anc, flags, peer = s.recvmsg(64, 256, socket.MSG_ERRQUEUE)
        for lvl, typ, d in anc:
            if (lvl, typ) in RECVERR:
                e = struct.unpack('=IBBBBII', d[:16])
                return {'errno': e[0], 'origin': e[1], 'type': e[2], 'info': e[5],
                        'cookie': struct.unpack('=Q', data[:8])[0],
                        'peer': [peer[0], peer[1]], 'errqueue_flag': bool(flags & socket.MSG_ERRQUEUE)}
    return None


def main():
    mode, addr, ep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == 'fail':
        s = mk(addr)
        send(s, addr, ep, b'x' * 3000, int(sys.argv[4]))
        print(json.dumps(first_err(s, float(sys.argv[5]))))
        if len(sys.argv) > 6:   # then the same socket to another peer
            other = sys.argv[6]
            send(s, other, ep, b'y' * 100, 7)
            print(json.dumps({'other_sent': True}))
    elif mode == 'limits':
        s = mk(addr)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        sndbuf = s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
        out = {'sndbuf': sndbuf}
        try:
            send(s, addr, ep, b'z' * (sndbuf + 1), 1, socket.MSG_DONTWAIT)
            out['above_sndbuf'] = 'sent'
        except OSError as e:
            out['above_sndbuf'] = e.errno
        # a blocking one streams through the buffer; the peer has no
        # socket on ep, so its PDC fails while the rest waits for room
        try:
            send(s, addr, ep, b's' * (sndbuf + 1), 3)
            out['streamed'] = 'sent'
        except OSError as e:
            out['streamed'] = e.errno
        n, err = 0, None
        while n < 10000:
            try:
                send(s, addr, ep, b'w' * 30000, 2, socket.MSG_DONTWAIT)
                n += 1
            except OSError as e:
                err = e.errno
                break
        out['dontwait_sent'], out['dontwait_errno'] = n, err
        print(json.dumps(out))
    elif mode == 'serve':
        s = mk(addr)
        s.bind((addr, ep))
        open(sys.argv[5], 'w').close()
        n, want = 0, int(sys.argv[4])
        s.settimeout(60)
        try:
            while n < want:
                s.recv(1 << 20)
                n += 1
        except socket.timeout:
            pass
        print(json.dumps({'received': n}))


if __name__ == '__main__':
    main()

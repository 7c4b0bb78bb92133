#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Digest-checked messages over mrt sockets, for the VM selftests.

  mrtmsg.py server ADDR EP --count N [--timeout S] [--rcvbuf B] [--ordered]
                   [--peer ADDR] [--count-file F] [--rmem-log F]
  mrtmsg.py client ADDR EP --count N [--max-size B] [--seed S] [--sndbuf B]
                   [--confirm] [--cookie-base C] [--wait S]
                   [--while-exists F --count-file F] [--fail-nth N]

Every message of 40 bytes or more is a sequence number, the CRC-32 of
the rest, and a body that the sequence number gives (its SHA-256,
repeated), which the server checks byte for byte; shorter ones (0 to 39 bytes) are the sequence number's bytes cut
to the size, so the server counts each message once, by sequence number,
and checks it whole.  Sizes run from 0 to --max-size, skewed toward the
small (2 ** (log2(max) * u^2), u uniform; 2 % are empty), so small and
large messages both occur and a run's bytes stay moderate.  Each prints one JSON line.

--timeout, --wait and --stall (with --stall-while) are bounds, not durations:
each is multiplied by the environment's WAIT_SCALE (the runner's --scale,
4 under make check-debug), as lib.sh's busywait is.
"""
import argparse
import hashlib
import json
import os
import random
import select
import socket
import struct
import sys
import time
import zlib

SOL_MRT = 253
IPPROTO_MRT = 253
MRT_CONFIRM = 3
MRT_ORDERED = 2
MRT_COOKIE = 4
MRT_EVS = 5
MRT_EE_FAILED = 1
MRT_EE_DELIVERED = 2
IP_RECVERR = 11
IPV6_RECVERR = 25
SOL_IPV6 = 41


def family_of(addr):
    return socket.AF_INET6 if ':' in addr else socket.AF_INET


def sizes(count, max_size, seed):
    rng = random.Random(seed)
    for i in range(count):
        if max_size == 0 or rng.random() < 0.02:
            yield 0
        else:
            # 2 ** (bits * u^2): every size from 1 B to max_size, the
            # small ones more often (a mean of max_size / 29 at 4 MiB)
            yield min(max_size, int(2 ** (max_size.bit_length() * rng.random() ** 2)))


def body_of(seq, n):
    block = hashlib.sha256(struct.pack('>Q', seq)).digest() * 2
    return (block * (n // 64 + 1))[:n]


def message(seq, size):
    if size < 40:
        return struct.pack('>Q', seq)[:size].ljust(size, b'\0')
    body = body_of(seq, size - 40)
    return struct.pack('>QI', seq, zlib.crc32(body)).ljust(40, b'\0') + body


def check(data):
    """Returns (seq or None, ok) for a received message: its CRC-32, and
    every byte against the content its sequence number gives."""
    if len(data) < 40:
        return None, True
    seq, crc = struct.unpack('>QI', data[:12])
    body = data[40:]
    return seq, zlib.crc32(body) == crc and body == body_of(seq, len(body))


def mksock(addr, bufopt, size):
    s = socket.socket(family_of(addr), socket.SOCK_RDM, IPPROTO_MRT)
    if size:
        s.setsockopt(socket.SOL_SOCKET, bufopt, size)
    return s


def parse_err(anc):
    for level, typ, data in anc:
        if (level, typ) in ((socket.SOL_IP, IP_RECVERR), (SOL_IPV6, IPV6_RECVERR)):
            errno_, origin, etype, code, pad, info, edata = struct.unpack('=IBBBBII', data[:16])
            return errno_, etype, info
    return None


def drain_errq(s, report):
    while True:
        try:
            data, anc, flags, addr = s.recvmsg(64, 256, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        e = parse_err(anc)
        if not e:
            report['errq_bad'] += 1
            continue
        cookie = struct.unpack('=Q', data[:8])[0] if len(data) >= 8 else None
        errno_, etype, info = e
        if etype == MRT_EE_DELIVERED:
            report['confirmed'] += 1
            report['confirmed_cookies'].append(cookie)
        else:
            report['errors'].append({'errno': errno_, 'cookie': cookie, 'len': info,
                                     'peer': list(addr[:2])})


MRT_INFO = 1
INFO_FIELDS = ('size pdcs cwnd max_cwnd inflight base_rtt_ns srtt_us avg_delay_ns qa fi '
               'msgs_sent msgs_rcvd msgs_failed rtx_sack rtx_trim rtx_rto rto_events trims '
               'rcvbuf_drops rmem wmem rxq_msgs pad').split()


def mrt_info(s):
    raw = s.getsockopt(SOL_MRT, MRT_INFO, 512)
    vals = struct.unpack('=II' + 'Q' * 19 + 'II', raw[:struct.calcsize('=II' + 'Q' * 19 + 'II')])
    return dict(zip(INFO_FIELDS, vals))


def server(a):
    s = mksock(a.addr, socket.SO_RCVBUF, a.rcvbuf)
    if a.ordered:
        s.setsockopt(SOL_MRT, MRT_ORDERED, 1)
    s.bind((a.addr, a.ep))
    if a.ready:
        open(a.ready, 'w').close()
    if a.stall:
        # not reading: what the receive buffer holds meanwhile
        end, peak = time.monotonic() + a.stall, 0
        while time.monotonic() < end and (not a.stall_while or
                                          os.path.exists(a.stall_while)):
            peak = max(peak, mrt_info(s)['rmem'])
            time.sleep(0.1)
        info = mrt_info(s)
        if a.stall_report:
            with open(a.stall_report, 'w') as f:
                json.dump({'peak_rmem': peak, 'rcvbuf': s.getsockopt(socket.SOL_SOCKET,
                           socket.SO_RCVBUF), 'rcvbuf_drops': info['rcvbuf_drops'],
                           'rxq_msgs': info['rxq_msgs']}, f)
    seen, bad, dups, small, nbytes, order_breaks, last = set(), 0, 0, 0, 0, 0, -1
    foreign = 0
    deadline = time.monotonic() + a.timeout
    n, count, counted = 0, a.count, False
    rmem_peak, rcvbuf = 0, s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    while n < count and time.monotonic() < deadline:
        if a.rmem_log:
            # what the receive buffer holds now (the kernel's count, read
            # at one instant), and the most it held when looked at
            rmem = mrt_info(s)['rmem']
            rmem_peak = max(rmem_peak, rmem)
            try:
                with open(a.rmem_log + '.tmp', 'w') as f:
                    json.dump({'rmem': rmem, 'peak': rmem_peak, 'rcvbuf': rcvbuf,
                               'received': n, 'foreign': foreign}, f)
                os.rename(a.rmem_log + '.tmp', a.rmem_log)
            except OSError:
                pass                    # the test is gone

        if a.count_file and not counted and os.path.exists(a.count_file):
            count, counted = int(open(a.count_file).read()), True
            continue
        r, _, _ = select.select([s], [], [], max(0.0, min(0.1 if a.rmem_log else 1.0,
                                                          deadline - time.monotonic())))
        if not r:
            continue
        data, anc, flags, addr = s.recvmsg(a.bufsize)
        if a.peer and socket.inet_pton(s.family, addr[0]) != socket.inet_pton(s.family, a.peer):
            foreign += 1
            continue
        n += 1
        nbytes += len(data)
        if not flags & socket.MSG_EOR or flags & socket.MSG_TRUNC:
            bad += 1
            continue
        seq, ok = check(data)
        if seq is None:
            small += 1
            continue
        if not ok:
            bad += 1
        elif seq in seen:
            dups += 1
        else:
            seen.add(seq)
            if seq < last:
                order_breaks += 1
            last = seq
    print(json.dumps({'received': n, 'distinct': len(seen), 'small': small, 'bad': bad,
                      'dups': dups, 'bytes': nbytes, 'order_breaks': order_breaks,
                      'foreign': foreign, 'rmem_peak': rmem_peak, 'rcvbuf': rcvbuf,
                      'digests': sorted(seen)[-1:] and hashlib.sha256(
                          ','.join(map(str, sorted(seen))).encode()).hexdigest()}))


def fail_nth(n):
    """Writes n to this thread's fail-nth (fault injection: its n-th
    allocation that may be failed fails; 0 turns it off), after reading
    what was there."""
    path = '/proc/thread-self/fail-nth'   # not seekable: one open each way
    with open(path) as f:
        left = int(f.read().strip() or 0)
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, str(n).encode())
    finally:
        os.close(fd)
    return left


def client(a):
    s = mksock(a.addr, socket.SO_SNDBUF, a.sndbuf)
    if a.confirm:
        s.setsockopt(SOL_MRT, MRT_CONFIRM, 1)
    report = {'sent': 0, 'big': 0, 'bytes': 0, 'errors': [], 'confirmed': 0,
              'confirmed_cookies': [], 'errq_bad': 0, 'send_errors': {}}
    if a.evs:
        base, count = (int(x) for x in a.evs.split(','))
        s.setsockopt(SOL_MRT, MRT_EVS, struct.pack('=HH', base, count))
        report['evs'] = list(struct.unpack('=HH', s.getsockopt(SOL_MRT, MRT_EVS, 4)))
    pauses = [int(x) for x in a.pause_at.split(',')] if a.pause_at else []
    for seq, size in enumerate(sizes(a.count, a.max_size, a.seed)):
        if a.while_exists and not os.path.exists(a.while_exists):
            break
        if seq in pauses:
            # every message before confirmed, then wait for the test's go
            deadline = time.monotonic() + a.wait
            while (report['confirmed'] + len(report['errors']) < report['sent'] and
                   time.monotonic() < deadline):
                select.select([s], [], [], 0.2)
                drain_errq(s, report)
            open(os.path.join(a.pause_dir, f'paused.{seq}'), 'w').close()
            while (not os.path.exists(os.path.join(a.pause_dir, f'go.{seq}')) and
                   time.monotonic() < deadline):
                select.select([s], [], [], 0.1)
                drain_errq(s, report)
        data = message(seq, size)
        anc = [(SOL_MRT, MRT_COOKIE, struct.pack('=Q', a.cookie_base + seq))]
        nth = a.fail_nth if seq == 0 else 0
        while True:
            try:
                if nth:
                    fail_nth(nth)
                try:
                    s.sendmsg([data], anc, socket.MSG_DONTWAIT if a.dontwait else 0,
                              (a.addr, a.ep))
                finally:
                    if nth:
                        # what was left of the count (0: a failure was
                        # injected), then off
                        report['fail_nth_left'] = fail_nth(0)
                break
            except OSError as e:
                if e.errno == 11:       # EAGAIN: wait for room
                    report['eagain'] = report.get('eagain', 0) + 1
                    select.select([], [s], [], 1.0)
                    continue
                report['send_errors'][e.strerror] = report['send_errors'].get(e.strerror, 0) + 1
                break
        else:
            continue
        report['sent'] += 1
        if a.interval:
            time.sleep(a.interval)
        report['big'] += size >= 40
        report['bytes'] += size
        drain_errq(s, report)
    if a.count_file:
        with open(a.count_file + '.tmp', 'w') as f:
            f.write(str(report['sent']))
        os.rename(a.count_file + '.tmp', a.count_file)
    deadline = time.monotonic() + a.wait
    want = report['sent'] if a.confirm else 0
    while time.monotonic() < deadline:
        drain_errq(s, report)
        if a.confirm and report['confirmed'] + len(report['errors']) >= want:
            break
        if not a.confirm and a.expect_errors and len(report['errors']) >= a.expect_errors:
            break
        select.select([s], [], [], 0.2)
    drain_errq(s, report)
    report['confirmed_cookies'] = len(set(report['confirmed_cookies']))
    print(json.dumps(report))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('mode', choices=['server', 'client'])
    p.add_argument('addr')
    p.add_argument('ep', type=int)
    p.add_argument('--count', type=int, default=100)
    p.add_argument('--max-size', type=int, default=65536)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--timeout', type=float, default=120)
    p.add_argument('--wait', type=float, default=0)
    p.add_argument('--rcvbuf', type=int, default=0)
    p.add_argument('--sndbuf', type=int, default=0)
    p.add_argument('--bufsize', type=int, default=1 << 23)
    p.add_argument('--ordered', action='store_true')
    p.add_argument('--confirm', action='store_true')
    p.add_argument('--expect-errors', type=int, default=0)
    p.add_argument('--cookie-base', type=int, default=1000)
    p.add_argument('--family', help='ignored: from the address')
    p.add_argument('--ready')
    p.add_argument('--stall', type=float, default=0, help='server: seconds before reading')
    p.add_argument('--stall-report', help='server: JSON of the stall to this file')
    p.add_argument('--stall-while', help='server: stall (at most --stall seconds) only while '
                   'this file exists')
    p.add_argument('--dontwait', action='store_true', help='client: MSG_DONTWAIT, poll on EAGAIN')
    p.add_argument('--interval', type=float, default=0, help='client: seconds between messages')
    p.add_argument('--pause-at', default='', help='client: message numbers (a,b,...) before '
                   'which to wait, once all before are confirmed, for PAUSE_DIR/go.N '
                   '(PAUSE_DIR/paused.N says it waits)')
    p.add_argument('--pause-dir', default='/tmp')
    p.add_argument('--fail-nth', type=int, default=0,
                   help='client: the first sendmsg() runs with this thread\'s fail-nth at N '
                   '(debug kernels: its N-th allocation fault injection may fail, fails); '
                   'reports fail_nth_left, 0 when it fired')
    p.add_argument('--evs', help='client: BASE,COUNT, the socket\'s own EV set (MRT_EVS)')
    p.add_argument('--while-exists', help='client: send messages (at most --count) while '
                   'this file exists')
    p.add_argument('--count-file', help='client: write the number of messages sent here '
                   'when done; server: expect that many once the file exists')
    p.add_argument('--peer', help='server: count only messages from this address; others '
                   'are "foreign"')
    p.add_argument('--rmem-log', help='server: keep the receive buffer\'s use (MRT_INFO) '
                   'now and at its most, as JSON in this file, every 0.1 s at least')
    a = p.parse_args()
    scale = int(os.environ.get('WAIT_SCALE', '1'))
    a.timeout *= scale
    a.wait *= scale
    if a.stall_while:
        a.stall *= scale
    (server if a.mode == 'server' else client)(a)


if __name__ == '__main__':
    sys.exit(main())

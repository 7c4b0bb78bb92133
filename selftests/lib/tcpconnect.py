# SPDX-License-Identifier: GPL-2.0
"""A TCP connection with a chosen congestion control, retried while the
server is not listening yet (the flow tools of the tests and the bench
start server and client at the same time)."""
import errno
import select
import socket
import time


def connect(addr, port, cc=None, timeout=10.0):
    """Connects to (addr, port) with congestion control cc; retries refusals."""
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(fam, socket.SOCK_STREAM)
        if cc:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
        try:
            s.connect((addr, port))
            return s
        except ConnectionRefusedError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


TCP_SYN_SENT = 2
TCPI_OPT_ECN = 8


def tcp_info(s):
    """The fields of TCP_INFO (Linux 6.1 struct tcp_info) the tests read.

    6.1's tcp_get_info() reads sk_pacing_rate and snd_cwnd before it takes
    the socket lock (srtt after), so an ACK processed meanwhile can pair
    one ACK's rate with the next one's srtt.  Two reads in a row that agree
    on rate, window and srtt saw one instant ("stable": true); up to 50
    tries."""
    prev = None
    for _ in range(50):
        d = _tcp_info_once(s)
        key = (d["pacing_rate"], d["cwnd"], d["rtt_us"])
        if prev == key:
            d["stable"] = True
            return d
        prev = key
    d["stable"] = False
    return d


def _tcp_info_once(s):
    b = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
    cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
    return {
        "cc": cc.split(b"\0")[0].decode(),
        "state": b[0],
        "ecn": bool(b[5] & TCPI_OPT_ECN),
        "mss": int.from_bytes(b[16:20], "little"),
        "unacked": int.from_bytes(b[24:28], "little"),
        "rtt_us": int.from_bytes(b[68:72], "little"),
        "cwnd": int.from_bytes(b[80:84], "little"),
        "pacing_rate": int.from_bytes(b[104:112], "little"),
        "sport": s.getsockname()[1],
    }


def connect_cc_in_syn_sent(addr, port, cc, timeout=10.0):
    """Connects without blocking and sets congestion control cc while the
    SYN is out (so the module's init runs in SYN_SENT, as it does for a
    setsockopt during a non-blocking connect).  Returns the socket and the
    state the socket was in when cc was set."""
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(fam, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex((addr, port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
        # Read after: still SYN_SENT now means SYN_SENT while cc was set.
        state = tcp_info(s)["state"]
        _, w, _ = select.select([], [s], [], max(deadline - time.monotonic(), 0))
        err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if w and not err:
            s.setblocking(True)
            return s, state
        s.close()
        if err != errno.ECONNREFUSED or time.monotonic() > deadline:
            raise OSError(err or errno.ETIMEDOUT, "connect failed")
        time.sleep(0.05)

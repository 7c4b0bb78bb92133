# SPDX-License-Identifier: GPL-2.0
"""A TCP connection with a chosen congestion control, retried while the
server is not listening yet (the flow tools of the tests and the bench
start server and client at the same time)."""
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

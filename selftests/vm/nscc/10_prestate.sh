#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nscc's hooks before init(): TCP gives a socket its congestion control
# when the socket is made, and runs init() only once the handshake is
# over, but calls the control's hooks before that too: a SYN that times
# out enters loss (ssthresh(), CA_EVENT_LOSS), and so does a reconnect
# after a disconnect (connect(AF_UNSPEC)).  Each must find no state and do
# nothing; the VM harness fails the test on any oops.  Both sockets of a
# later connection still start nscc (counted in "sockets").
source "$(dirname "$0")/../lib.sh"

allow_cc nscc || exit 1
setup_ns A B || exit 1
link_ns "$A" a0 1 "$B" b0 2
ip netns exec "$A" sysctl -qw net.ipv4.tcp_congestion_control=nscc
# 198.18.0.9 is nobody's: its SYNs go out (the neighbour is pinned) and
# are never answered, so the SYN retransmission timer fires.
ip -n "$A" neigh add 198.18.0.9 lladdr 02:00:00:00:00:09 dev a0 nud permanent

before=$(nscc_stat "$A" sockets)
ip netns exec "$A" python3 - <<'PY'
import socket
import sys

s = socket.socket()
s.settimeout(3.5)		# the SYN's RTO fires at 1 s and at 3 s
try:
    s.connect(("198.18.0.9", 5001))
    sys.exit("connected to nobody")
except (socket.timeout, OSError):
    pass
PY
check $? "nscc sockets whose SYN times out are survived (CA_EVENT_LOSS before init)"
[[ $(nscc_stat "$A" sockets) == "$before" ]]
check $? "nscc's init never ran for them (sockets stays $before)"
[[ $(nscc_stat "$A" rto) == 0 ]]
check $? "a SYN timeout is not one of nscc's RTOs (rto 0)"

# A socket that connected, disconnected (connect(AF_UNSPEC)) and whose next
# SYN times out: release() ran, the state is gone, hooks run again.
ip netns exec "$B" python3 -c '
import socket
ls = socket.create_server(("198.18.0.2", 5001))
c, _ = ls.accept()
try:
    while c.recv(65536):
        pass
except ConnectionResetError:	# the disconnect resets the connection
    pass
' &
srv=$!
ip netns exec "$A" python3 - "$TOP" <<'PY'
import ctypes
import socket
import struct
import sys

sys.path.insert(0, sys.argv[1] + "/selftests/lib")
import tcpconnect  # noqa: E402

s = tcpconnect.connect("198.18.0.2", 5001, cc="nscc")
s.sendall(b"x" * 4096)
# connect() with AF_UNSPEC disconnects a TCP socket (tcp_disconnect()).
unspec = struct.pack("H", socket.AF_UNSPEC) + bytes(14)
libc = ctypes.CDLL(None, use_errno=True)
if libc.connect(s.fileno(), unspec, len(unspec)) != 0:
    sys.exit(f"disconnect failed: errno {ctypes.get_errno()}")
s.settimeout(3.5)
try:
    s.connect(("198.18.0.9", 5001))
    sys.exit("connected to nobody")
except (socket.timeout, OSError):
    pass
s.close()
PY
check $? "a reconnect after a disconnect, whose SYN times out, is survived"
kill $srv 2>/dev/null
wait $srv 2>/dev/null
exit $RET

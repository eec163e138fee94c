#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send numbered UDP datagrams and count the echoes that come back intact.

udp_echo.py DST_IP DST_PORT COUNT SIZE: sends COUNT datagrams of SIZE bytes
(a sequence number, then random bytes) from port 5555 to DST_IP:DST_PORT,
2 ms apart, and waits for echoes until 3 s after the last one was sent.
Prints "sent N echoed M intact K": an echo is intact when it is byte for byte
one of the datagrams sent, and each counts once. When some did not come back
intact, " missing" and their sequence numbers (at most 20) follow.
"""
import os
import select
import socket
import sys
import time

dst, port, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# Never fragmented: a datagram the path cannot carry whole fails to send.
# IP_MTU_DISCOVER = IP_PMTUDISC_DO (<linux/in.h>; Python's socket module
# does not name them).
IP_MTU_DISCOVER, IP_PMTUDISC_DO = 10, 2
s.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO)
s.bind(("0.0.0.0", 5555))
sent = {}
echoed = 0
intact = set()


def drain(deadline):
    global echoed
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        r, _, _ = select.select([s], [], [], left)
        if not r:
            return
        data, _ = s.recvfrom(65536)
        echoed += 1
        seq = int.from_bytes(data[:4], "big")
        if sent.get(seq) == data:
            intact.add(seq)


for i in range(count):
    payload = i.to_bytes(4, "big") + os.urandom(size - 4)
    sent[i] = payload
    s.sendto(payload, (dst, port))
    drain(time.monotonic() + 0.002)
drain(time.monotonic() + 3)
missing = [i for i in range(count) if i not in intact]
tail = " missing " + ",".join(map(str, missing[:20])) if missing else ""
print(f"sent {count} echoed {echoed} intact {len(intact)}{tail}")

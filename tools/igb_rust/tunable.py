#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Get or set an ethtool u32 tunable through SIOCETHTOOL and print the
errno name on failure (ethtool's CLI does not print it for get-tunable).

usage: tunable.py IFNAME rx-copybreak|tx-copybreak [VALUE]
prints the value, or OK after a set; on error prints the errno name
(EINVAL, EOPNOTSUPP, ...) and exits 1.
"""
import ctypes
import errno
import fcntl
import socket
import struct
import sys

SIOCETHTOOL = 0x8946
ETHTOOL_GTUNABLE = 0x48
ETHTOOL_STUNABLE = 0x49
IDS = {"rx-copybreak": 1, "tx-copybreak": 2}
ETHTOOL_TUNABLE_U32 = 3


def main():
    ifname, name = sys.argv[1], sys.argv[2]
    value = int(sys.argv[3]) if len(sys.argv) > 3 else None
    cmd = ETHTOOL_GTUNABLE if value is None else ETHTOOL_STUNABLE
    buf = ctypes.create_string_buffer(
        struct.pack("IIIII", cmd, IDS[name], ETHTOOL_TUNABLE_U32, 4, value or 0))
    ifr = struct.pack("16sP", ifname.encode(), ctypes.addressof(buf))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        fcntl.ioctl(s, SIOCETHTOOL, ifr)
    except OSError as e:
        # 95 is both ENOTSUP and EOPNOTSUPP on Linux; the kernel means the latter.
        name = "EOPNOTSUPP" if e.errno == errno.EOPNOTSUPP else errno.errorcode.get(e.errno)
        print(name or str(e.errno))
        sys.exit(1)
    if value is None:
        print(struct.unpack_from("I", buf.raw, 16)[0])
    else:
        print("OK")


if __name__ == "__main__":
    main()

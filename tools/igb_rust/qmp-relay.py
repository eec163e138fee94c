#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of the guest's QEMU monitor requests.

The guest cannot reach QEMU's monitor, so it drops requests as files into a
folder it shares with the host; this relay runs each through QMP and writes
the answer next to it. Only `set_link` on the guest's own NICs and the
injection of a PCIe error into one of them or their root ports (the human
monitor's `pcie_aer_inject_error`, for the AER test) are allowed.

usage: qmp-relay.py SOCKET DIR
"""
import json
import os
import re
import socket
import sys
import time

ALLOWED = {"set_link"}
# The QEMU device ids of the NICs and their root ports (scripts/vm.sh) and an
# error name, -c for correctable.
HMP_ALLOWED = re.compile(r"pcie_aer_inject_error (-c )?(dut|peer|rp1|rp2) [A-Z_]+")


def allowed(cmd):
    if not isinstance(cmd, dict):
        return False
    if cmd.get("execute") in ALLOWED:
        return True
    args = cmd.get("arguments")
    if cmd.get("execute") == "human-monitor-command" and isinstance(args, dict):
        line = args.get("command-line", "")
        return isinstance(line, str) and HMP_ALLOWED.fullmatch(line) is not None
    return False


def connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def main():
    sock_path, qdir = sys.argv[1], sys.argv[2]
    s = connect(sock_path, time.time() + 120)
    f = s.makefile("rw")
    f.readline()  # greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    f.flush()
    f.readline()
    while True:
        for name in sorted(os.listdir(qdir)):
            if not name.endswith(".req"):
                continue
            req = os.path.join(qdir, name)
            try:
                with open(req) as r:
                    cmd = json.load(r)
            except (OSError, ValueError):
                continue
            os.unlink(req)
            if not allowed(cmd):
                answer = {"error": "not allowed"}
            else:
                f.write(json.dumps(cmd) + "\n")
                f.flush()
                while True:
                    answer = json.loads(f.readline())
                    if "event" not in answer:
                        break
            with open(req[:-4] + ".done", "w") as d:
                json.dump(answer, d)
        time.sleep(0.1)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError):
        sys.exit(0)

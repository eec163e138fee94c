#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of the guest's QEMU monitor requests.

The guest cannot reach QEMU's monitor, so it drops requests as files into a
folder it shares with the host; this relay runs each through QMP and writes
the answer next to it. Only `set_link` on the guest's own NICs is allowed.

usage: qmp-relay.py SOCKET DIR
"""
import json
import os
import socket
import sys
import time

ALLOWED = {"set_link"}


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
            if cmd.get("execute") not in ALLOWED:
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

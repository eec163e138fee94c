#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The driver as the steps of its patch series.

The driver's sources are its last step. Comments mark what an earlier step
leaves out, so that each step is the driver as far as it goes, and builds:

    //@ from STEP        the lines up to the matching `//@ end` land with
    ...                  STEP (a block inside it is of a later step)
    //@ end
    CODE //@ STEP        this line lands with STEP
    //@ until STEP: CODE at the steps before STEP, the line is CODE (what
                         STEP replaces); from STEP on, it is gone

A source file lands with the step that declares its module. The markers
never reach the series: every step is written without them, and the last
step is the sources less their markers.

    steps.py list                   the steps: NAME<TAB>SUBJECT, in order
    steps.py body NAME              the commit message body of step NAME
    steps.py write SRC NAME OUT     the driver in SRC as of step NAME, to OUT
    steps.py check SRC              every marker names a step; blocks close
"""

import os
import re
import sys

# The steps, in order: name, subject, body.
STEPS = [
    ("probe", "net: ethernet: intel: add igb_rust, a Rust driver for the 82576",
     """The first step of igb_rust, a driver for the Intel 82576 written in
Rust on top of the networking abstractions, with no unsafe code: the
PCI probe of a copper port, the MAC reset, the NVM (checksum and
permanent address), the interrupt vectors and the net_device with its
NAPI instances. The interface registers with its permanent address; the
data path comes in a later patch, until which a frame the stack hands
the driver is dropped and counted.

The Kconfig entry and the Makefile line build it in tree."""),
    ("link", "igb_rust: bring the link up through the PHY",
     """Open powers the PHY up, resets it and starts autonegotiation with
the advertised modes; the link interrupt and a watchdog follow the
link, set the carrier and report speed and duplex, and configure flow
control from the resolved pause abilities. Stop powers the PHY down."""),
    ("datapath", "igb_rust: add the data path",
     """The RX and TX descriptor rings, one queue pair per MSI-X vector
with its NAPI instance: RX from page_pool pages (headers copied into a
small skb under the copybreak, page fragments above it, frames over
several buffers), checksum, RSS hash and VLAN tag offloads; TX with
scatter/gather, checksum and TSO contexts, VLAN insertion, byte queue
limits and the stop/wake protocol; the TX hang check and its reset;
unicast and multicast filters, promiscuous modes, the VLAN filter
table, MTU changes and the MAC address."""),
    ("ethtool", "igb_rust: add ethtool operations",
     """Driver information, channels (queue pairs) and ring sizes changed
while the interface is up, link settings and autonegotiation restart,
pause parameters, interrupt coalescing (static and adaptive), the RSS
indirection table, key and hashed fields, the register dump, the NVM,
port identification, the self-test and the copybreak tunable."""),
    ("xdp", "igb_rust: add XDP",
     """XDP programs on every RX queue, with every verdict: PASS (with the
metadata and the hints for the RSS hash and the VLAN tag), DROP, TX on
a ring of the queue's own, REDIRECT, and ndo_xdp_xmit for frames
redirected to this device; multi-buffer frames for MTUs over a page."""),
    ("pm", "igb_rust: add power management, error recovery and Wake-on-LAN",
     """Suspend and resume, with or without the interface up; the wake-up
filters of ethtool's Wake-on-LAN settings armed for the sleep; PCIe
error recovery (a frozen link, the slot reset and the resume of the
traffic); the reset with backoff when the device stops answering."""),
    ("stats", "igb_rust: add statistics",
     """The MAC's counters, accumulated by the watchdog, as the interface's
64-bit statistics, the per-queue statistics of the netdev netlink
family, the pause frame statistics, and ethtool -S: the MAC's counters,
each queue's software counters and the page_pool counters."""),
]
NAMES = [s[0] for s in STEPS]

BLOCK = re.compile(r"^\s*//@ from (\w+)\s*$")
END = re.compile(r"^\s*//@ end\s*$")
LINE = re.compile(r"^(.*?)\s*//@ (\w+)\s*$")
UNTIL = re.compile(r"^(\s*)//@ until (\w+): (.*)$")
MOD = re.compile(r"^\s*(?:pub(?:\(crate\))? )?mod (\w+);$")


def index(name, where):
    if name not in NAMES:
        raise SystemExit(f"{where}: unknown step {name!r} (steps: {' '.join(NAMES)})")
    return NAMES.index(name)


def render(text, at, where):
    """TEXT as of step index AT (len(STEPS) - 1 is the last)."""
    out = []
    blocks = []
    for n, line in enumerate(text.split("\n"), 1):
        here = f"{where}:{n}"
        m = BLOCK.match(line)
        if m:
            inner = index(m.group(1), here)
            if blocks and inner < blocks[-1]:
                raise SystemExit(f"{here}: a block of an earlier step inside a later one")
            blocks.append(inner)
            continue
        if END.match(line):
            if not blocks:
                raise SystemExit(f"{here}: `//@ end` without `//@ from`")
            blocks.pop()
            continue
        if blocks and blocks[-1] > at:
            continue
        m = UNTIL.match(line)
        if m:
            if index(m.group(2), here) > at:
                out.append(m.group(1) + m.group(3))
            continue
        m = LINE.match(line)
        if m and "//@" not in m.group(1):
            if index(m.group(2), here) <= at:
                out.append(m.group(1))
            continue
        if "//@" in line:
            raise SystemExit(f"{here}: a marker this script does not know: {line.strip()}")
        out.append(line)
    if blocks:
        raise SystemExit(f"{where}: a block is not closed")
    # Removed lines leave no double blank line, and no blank line before a
    # closing brace.
    res = []
    for line in out:
        if not line.strip() and res and not res[-1].strip():
            continue
        if line.strip().startswith("}") and res and not res[-1].strip() and len(res) > 1:
            res.pop()
        res.append(line)
    return "\n".join(res)


def write(src, name, dst):
    at = index(name, "step")
    os.makedirs(dst, exist_ok=True)
    root = "igb_rust.rs"
    files = {root}
    todo = [root]
    while todo:
        f = todo.pop()
        text = render(open(os.path.join(src, f)).read(), at, f)
        for line in text.split("\n"):
            m = MOD.match(line)
            if m and m.group(1) + ".rs" not in files:
                files.add(m.group(1) + ".rs")
                todo.append(m.group(1) + ".rs")
        with open(os.path.join(dst, f), "w") as out:
            out.write(text)
    for f in sorted(os.listdir(src)):
        if not f.endswith(".rs"):
            with open(os.path.join(src, f)) as i, open(os.path.join(dst, f), "w") as o:
                o.write(i.read())
        elif f not in files and os.path.exists(os.path.join(dst, f)):
            os.remove(os.path.join(dst, f))


def main(argv):
    if len(argv) >= 1 and argv[0] == "list":
        for name, subject, _ in STEPS:
            print(f"{name}\t{subject}")
    elif len(argv) == 2 and argv[0] == "body":
        print(STEPS[index(argv[1], "body")][2])
    elif len(argv) == 4 and argv[0] == "write":
        write(argv[1], argv[2], argv[3])
    elif len(argv) == 2 and argv[0] == "check":
        for f in sorted(os.listdir(argv[1])):
            if f.endswith(".rs"):
                render(open(os.path.join(argv[1], f)).read(), len(STEPS) - 1, f)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

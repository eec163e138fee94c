#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The driver as the steps of its patch series.

The driver's sources are its last step. Comments mark what an earlier step
leaves out, so that each step is the driver as far as it goes, and builds:

    //@ from STEP        the lines up to the matching `//@ end` land with
    ...                  STEP (a block inside it is of a later step)
    //@ end              (or CODE //@ end: CODE is the block's last line)
    CODE //@ STEP        this line lands with STEP
    //@ until STEP: CODE at the steps before STEP, the line is CODE (what
                         STEP replaces); from STEP on, it is gone

A source file lands with the step that declares its module. The markers
never reach the series: every step is written without them, and the last
step is the sources less their markers.

    steps.py list                   the steps' names, in order
    steps.py subject NAME           the commit subject of step NAME
    steps.py body NAME              the commit message body of step NAME
    steps.py write SRC NAME OUT [RUSTFMT CONFIG]
                                    the driver in SRC as of step NAME, to OUT
                                    (NAME "last": the last step), formatted
                                    by RUSTFMT with the kernel's CONFIG
    steps.py check SRC              the markers are sound at every step: each
                                    names a step, blocks close and nest in
                                    order, no `until` is dead, no doc comment
                                    or attribute loses its item
"""

import os
import re
import subprocess
import sys

# The steps, in order: name, subject, body.
STEPS = [
    # The first step's message is patches/0010's, which also adds the Kconfig
    # entry and the Makefile line.
    ("probe", None, None),
    ("link", "igb_rust: bring the link up through the PHY",
     """Open powers the PHY up (after a reset of it when the MAC was reset)
and starts autonegotiation with every speed and duplex mode and both
pause directions; the link interrupt (vector 0's other causes) and a
watchdog every two seconds report the link, set the carrier and program
flow control as the partner agreed (IEEE 802.3 annex 28B). Stop powers
the PHY down."""),
    ("datapath", "igb_rust: add the data path",
     """The RX and TX descriptor rings, one queue pair per MSI-X vector
with its NAPI instance and page pool: RX into page_pool pages
(copybreak, frames over several buffers), checksum, RSS hash and VLAN
tag offloads, the queue in use recorded; TX with scatter/gather, the
checksum and TSO context descriptor, VLAN insertion, byte queue limits
and the stop/wake protocol, netpoll included; RSS over the queues in
use; unicast, multicast and promiscuous filters, the VLAN filter
table, the MTU and the MAC address; the TX hang check and the reset
that recovers from it (and from a device reset or a TX timeout), with
backoff when it fails; the software counters as the interface's
statistics. Copybreak and adaptive interrupt moderation (DIM) are
here, off until ethtool turns them on (next patch)."""),
    ("ethtool", "igb_rust: add ethtool operations",
     """Driver information, channels (queue pairs) and ring sizes changed
while the interface is up (allocating first, keeping the link), link
settings and autonegotiation restart, pause parameters, interrupt
coalescing (static and adaptive), the RSS indirection table, key and
hashed fields, the register dump, the NVM, port identification, the
self-test and the rx-copybreak tunable."""),
    ("xdp", "igb_rust: add XDP",
     """XDP programs on every RX queue, with every verdict: PASS (with the
metadata and the kfunc hints for the RSS hash and the VLAN tag), DROP,
TX on the queue's own TX ring, REDIRECT, and ndo_xdp_xmit for frames
redirected to this device; multi-buffer frames for programs that take
them, and an MTU limit for those that do not."""),
    ("pm", "igb_rust: add power management, error recovery and Wake-on-LAN",
     """Suspend and resume, with the interface up or down, reset the MAC
on the way back; PCIe error recovery and a function reset go through
the same callbacks (the PCI glue detaches and attaches the interface).
ethtool's Wake-on-LAN settings arm the wake-up filters for the sleep on
the ports that can wake the system (on quad-port cards, the first)."""),
    ("stats", "igb_rust: add statistics",
     """The MAC's counters, collected by the watchdog before they wrap, as
the interface's 64-bit statistics; the per-queue statistics of the
netdev netlink family (with what queues taken out of use counted); the
pause frame statistics; and ethtool -S: each queue's software counters,
the device's recovery counters, the MAC's counters and the page_pool
counters."""),
    ("ptp", "igb_rust: add the PTP hardware clock",
     """The 82576's system timer (SYSTIM) as a PTP hardware clock: read with
the system's timestamps around the read, set and stepped in software
over the counter (as a timecounter), steered in frequency through the
increment (TIMINCA), read by the clock's worker every 9 minutes, well
before the counter wraps, and its increment programmed again when a
MAC reset cleared it. ethtool -T reports the clock and the software
TX timestamps."""),
    ("xsk", "igb_rust: add AF_XDP zero-copy",
     """A queue an AF_XDP socket binds in zero-copy mode receives into the
socket's buffers and sends from them while an XDP program is attached
(as C igb does): the ring is rebuilt from the pool when the socket
binds, when a program comes or goes, and on ethtool -G, with the
device told the pool's frame size; the program's redirect hands the
buffer to the socket without a copy, a frame it passes is copied into
an skb, one it sends with XDP_TX is copied into a page of its own. The
poll sends what the socket queued, one data descriptor per frame on
the queue's TX ring, and completes each once the device reports it
sent. The ring waits for buffers user space gives back (need_wakeup),
and ndo_xsk_wakeup fires the queue's interrupt. Frames over several
buffers are dropped in zero-copy mode."""),
    ("sriov", "igb_rust: add SR-IOV as the physical function",
     """Writing sriov_numvfs enables up to 7 virtual functions (the device
has 8 pools, the PF keeps one), served by the kernel's igbvf driver. The
PF moves to the pool after the VFs' with one queue pair: frames are
sorted into pools by their address (VMDq), broadcast and multicast go
to the pools that ask for them, and frames between pools are switched
inside the device. The PF answers the VFs' mailbox from the poll of its
"other" vector: reset (their MAC address and clear to send), MAC
address, multicast hashes and frame size; VLAN filters for VFs are
refused. A MAC reset of the PF clears what the VFs asked for: they are
told and ask again. The PF only touches its own interrupt vectors, and
the VFs are disabled before the driver unbinds."""),
]
NAMES = [s[0] for s in STEPS]

BLOCK = re.compile(r"^\s*//@ from (\w+)\s*$")
END = re.compile(r"^(.*?)\s*//@ end\s*$")
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
    # A line was left out since the last one kept: only there may a blank
    # line go (no double blank line, none before a closing brace).
    gap = False
    # The last line kept is a doc comment or an attribute, whose item must
    # not be left out under it.
    doc = False

    def keep(line):
        nonlocal gap, doc
        if gap and not line.strip() and out and not out[-1].strip():
            return
        if gap and line.strip().startswith("}") and len(out) > 1 and not out[-1].strip():
            out.pop()
        out.append(line)
        gap = False
        doc = line.strip().startswith(("///", "#["))

    def leave(line, here):
        nonlocal gap
        gap = True
        code = line.strip()
        if doc and code and not code.startswith(("//", "#[")):
            raise SystemExit(f"{here}: left out under a doc comment or attribute that stays")

    for n, line in enumerate(text.split("\n"), 1):
        here = f"{where}:{n}"
        m = BLOCK.match(line)
        if m:
            inner = index(m.group(1), here)
            if blocks and inner < blocks[-1]:
                raise SystemExit(f"{here}: a block of an earlier step inside a later one")
            blocks.append(inner)
            gap = True
            continue
        m = END.match(line)
        if m:
            if not blocks:
                raise SystemExit(f"{here}: `//@ end` without `//@ from`")
            if "//@" in m.group(1):
                raise SystemExit(f"{here}: two markers on one line")
            # `CODE //@ end` (as rustfmt may put it): CODE is the block's last line.
            if m.group(1).strip():
                if blocks[-1] <= at:
                    keep(m.group(1))
                else:
                    leave(m.group(1), here)
            blocks.pop()
            gap = True
            continue
        m = UNTIL.match(line)
        if m:
            step = index(m.group(2), here)
            # Inside a block, it exists only from the block's step on.
            if blocks and step <= blocks[-1]:
                raise SystemExit(f"{here}: `until {m.group(2)}` inside a block of a later step")
            if not (blocks and blocks[-1] > at) and step > at:
                keep(m.group(1) + m.group(3))
            else:
                gap = True
            continue
        if blocks and blocks[-1] > at:
            leave(line, here)
            continue
        m = LINE.match(line)
        if m and "//@" not in m.group(1):
            if index(m.group(2), here) <= at:
                keep(m.group(1))
            else:
                leave(m.group(1), here)
            continue
        if "//@" in line:
            raise SystemExit(f"{here}: a marker this script does not know: {line.strip()}")
        keep(line)
    if blocks:
        raise SystemExit(f"{where}: a block is not closed")
    return "\n".join(out)


def write(src, name, dst):
    at = len(STEPS) - 1 if name == "last" else index(name, "step")
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
    if len(argv) == 1 and argv[0] == "list":
        for name, _, _ in STEPS:
            print(name)
    elif len(argv) == 2 and argv[0] in ("subject", "body"):
        text = STEPS[index(argv[1], argv[0])][1 if argv[0] == "subject" else 2]
        if text is None:
            raise SystemExit(f"step {argv[1]}: its message is patches/0010's")
        print(text)
    elif len(argv) in (4, 6) and argv[0] == "write":
        write(argv[1], argv[2], argv[3])
        if len(argv) == 6:
            rs = sorted(os.path.join(argv[3], f) for f in os.listdir(argv[3]) if f.endswith(".rs"))
            subprocess.run([argv[4], "--edition", "2021", "--config-path", argv[5]] + rs, check=True)
    elif len(argv) == 2 and argv[0] == "check":
        for f in sorted(os.listdir(argv[1])):
            if f.endswith(".rs"):
                for at in range(len(STEPS)):
                    render(open(os.path.join(argv[1], f)).read(), at, f)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

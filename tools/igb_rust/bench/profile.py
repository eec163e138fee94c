#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a benchmark cell's guest instructions went, by function.

usage: profile.py RESULTS-DIR DIR SIZE VARIANT [REP [CPU]]
  e.g. profile.py results/bench/latest rx 64 rust-cb256

Reads profile.txt (hottest translated blocks per window, from the plugin),
the guest's symbol tables saved by guest.sh and the cell's packet count, and
prints the functions with the most instructions per packet on that CPU
(default: CPU 1, the DUT's).
"""
import bisect
import csv
import os
import sys


def symbols(paths):
    syms = []
    for p in paths:
        if not os.path.exists(p):
            continue
        with open(p) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] in "tTwW":
                    name = parts[2] + (" " + parts[3] if len(parts) > 3 else "")
                    syms.append((int(parts[0], 16), name))
    syms.sort()
    return syms


def main():
    res, d, size, variant = sys.argv[1:5]
    rep = sys.argv[5] if len(sys.argv) > 5 else "1"
    cpu = sys.argv[6] if len(sys.argv) > 6 else "1"
    label = f"{d},{size},{variant},{rep}"
    pkts = 0
    with open(os.path.join(res, "raw.csv")) as f:
        for row in csv.DictReader(f):
            if f"{row['dir']},{row['size']},{row['variant']},{row['rep']}" == label:
                pkts = int(row["packets"])
                if d == "rx" and int(row.get("udp_noports") or 0) > 0:
                    pkts = int(row["udp_noports"])
    entries = None
    with open(os.path.join(res, "profile.txt")) as f:
        for line in f:
            head, _, rest = line.partition(f" cpu{cpu} ")
            if head == label:
                entries = rest.split()
    if entries is None or not pkts:
        raise SystemExit(f"no profile or no packets for {label} cpu{cpu}")
    syms = symbols(
        [os.path.join(res, "kallsyms.kernel"), os.path.join(res, f"kallsyms.{variant}.{rep}")]
    )
    addrs = [a for a, _ in syms]
    by = {}
    for e in entries:
        a, _, n = e.partition(":")
        a = int(a, 16)
        i = bisect.bisect_right(addrs, a) - 1
        name = syms[i][1] if i >= 0 and a - addrs[i] < 1 << 16 else f"user/unknown {a:#x}"
        by[name] = by.get(name, 0) + int(n)
    total = sum(by.values())
    print(f"{label} cpu{cpu}: {pkts} packets, {total / pkts:,.0f} insns/packet in the top blocks")
    for name, n in sorted(by.items(), key=lambda kv: -kv[1])[:40]:
        print(f"{n / pkts:10,.1f}  {name}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass

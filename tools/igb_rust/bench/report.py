#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a `make bench` run: bench.csv, bench.md and bench.png.

usage: report.py RESULTS-DIR

Reads raw.csv (one row per measured cell and repetition, written by
guest.sh), tcp.csv with the iperf3 reports of the bulk TCP cells, and
machine.txt. Medians over repetitions, with the spread
(min..max); instructions per packet are counted on the DUT's CPU 1, where its
interrupts and NAPI run, and split by address range (driver .text, Rust
helpers and kernel crate, page_pool, skb functions).
"""
import csv
import json
import os
import statistics
import sys

NAMES = {
    "c": "C igb",
    "rust-cb0": "igb_rust cb=0",
    "rust-cb256": "igb_rust cb=256",
    "rust-cb512": "igb_rust cb=512",
    "ceiling": "drop in driver",
    "c-xdp": "C igb XDP_DROP",
    "rust-xdp": "igb_rust XDP_DROP",
    "c-zc": "C igb zero-copy",
    "rust-zc": "igb_rust zero-copy",
    "c-copy": "C igb copy mode",
    "rust-copy": "igb_rust copy mode",
}

# What each variant is compared with: the same XDP program or AF_XDP mode on C igb.
REF = {"rust-xdp": "c-xdp", "rust-zc": "c-zc", "rust-copy": "c-copy"}

# The sections: pktgen cells, then the AF_XDP cells (their dir is the socket's mode).
TITLES = {
    "rx": "RX (peer pktgen -> DUT)",
    "tx": "TX (DUT pktgen -> peer)",
    "rxdrop": "AF_XDP rxdrop (peer pktgen -> DUT queue 0 -> socket, dropped; DUT rx pps)",
    "txpush": "AF_XDP txpush (socket -> DUT queue 0 -> peer; DUT tx pps)",
    "l2fwd": "AF_XDP l2fwd (peer pktgen -> socket, MACs swapped, back out of queue 0; DUT tx pps)",
}
XSK_MODES = ("rxdrop", "txpush", "l2fwd")


def parse_insn(field):
    out = {}
    for kv in filter(None, field.split(";")):
        k, _, v = kv.partition("=")
        out[k] = int(v)
    return out


def load(res):
    cells = {}
    with open(os.path.join(res, "raw.csv")) as f:
        for row in csv.DictReader(f):
            key = (row["dir"], int(row["size"]), row["variant"])
            pkts = int(row["packets"])
            # RX: count what reached the DUT's stack (UDP, closed port); the driver's own
            # counter may include frames it counted but did not deliver.
            if row["dir"] == "rx" and int(row.get("udp_noports") or 0) > 0:
                delivered = int(row["udp_noports"])
                c_del = cells.setdefault(("_delivered",) + key, [])
                c_del.append(delivered / pkts if pkts else 0)
                pkts = delivered
            insn = parse_insn(row.get("insn") or "")
            c = cells.setdefault(key, {"pps": [], "soft": [], "busy": [], "ppi": [], "ipp": {}})
            irqs = int(row.get("irqs") or 0)
            if irqs > 0:
                c["ppi"].append(pkts / irqs)
            c["pps"].append(float(row["pps"]))
            c["soft"].append(float(row["soft_pct"]))
            c["busy"].append(float(row["busy_pct"]))
            if pkts > 0 and insn:
                per = {
                    "dut": insn.get("cpu1.total", 0),
                    "drv": insn.get("cpu1.drv", 0)
                    + insn.get("cpu1.rust_help", 0)
                    + insn.get("cpu1.rust_core", 0),
                    "page_pool": insn.get("cpu1.page_pool", 0),
                    "skb": insn.get("cpu1.skb", 0),
                    "all": sum(v for k, v in insn.items() if k.endswith(".total")),
                }
                for k, v in per.items():
                    c["ipp"].setdefault(k, []).append(v / pkts)
    return cells


def load_tcp(res):
    """The bulk TCP cells: per (dir, variant), lists over repetitions."""
    path = os.path.join(res, "tcp.csv")
    cells = {}
    if not os.path.exists(path):
        return cells
    with open(path) as f:
        for row in csv.DictReader(f):
            name = f"iperf.{row['dir']}.{row['variant']}.{row['rep']}.json"
            with open(os.path.join(res, name)) as jf:
                end = json.load(jf)["end"]
            rcvd = end["sum_received"]
            mb = rcvd["bytes"] / 1e6
            c = cells.setdefault((row["dir"], row["variant"]), {})
            c.setdefault("mbps", []).append(rcvd["bits_per_second"] / 1e6)
            c.setdefault("retrans", []).append(end["sum_sent"].get("retransmits", 0))
            c.setdefault("soft", []).append(float(row["soft_pct"]))
            if int(row["queued"]) > 0:
                c.setdefault("rmem_per_byte", []).append(int(row["rmem"]) / int(row["queued"]))
            insn = parse_insn(row.get("insn") or "")
            if insn and mb > 0:
                drv = sum(insn.get(k, 0) for k in ("cpu1.drv", "cpu1.rust_help", "cpu1.rust_core"))
                c.setdefault("ipm", []).append(insn.get("cpu1.total", 0) / mb)
                c.setdefault("ipm_drv", []).append(drv / mb)
    return cells


def tcp_section(tcp):
    """The markdown of the TCP cells."""
    md = [
        "",
        "## Bulk TCP (iperf3, one stream, DUT end on CPU 1)",
        "",
        "Mbit/s is what the receiver got (median, min..max); instructions are CPU 1's per "
        "megabyte delivered (the DUT's interrupts, NAPI, stack and iperf3 end; `drv` as above); "
        "retransmits are the sender's, summed over the repetitions; rmem/byte is what the DUT's "
        "socket is charged per byte of 32 KB it holds unread (skb truesize over payload).",
        "",
        "| driver | RX Mbit/s | RX insn/MB | RX retrans | RX rmem/byte | TX Mbit/s | TX insn/MB "
        "| TX retrans |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def mbps(c):
        return f"{med(c['mbps']):.0f} ({min(c['mbps']):.0f}..{max(c['mbps']):.0f})" if c else "-"

    def ipm(c):
        if not c or "ipm" not in c:
            return "-"
        return f"{fmt_int(med(c['ipm']))} (drv {fmt_int(med(c['ipm_drv']))})"

    for v in [v for v in NAMES if any(k[1] == v for k in tcp)]:
        rx, tx = tcp.get(("rx", v)), tcp.get(("tx", v))
        rpb = rx and med(rx.get("rmem_per_byte", []))
        md.append(
            f"| {NAMES[v]} | {mbps(rx)} | {ipm(rx)} | {sum(rx['retrans']) if rx else '-'} "
            f"| {'-' if rpb is None else f'{rpb:.2f}'} | {mbps(tx)} | {ipm(tx)} "
            f"| {sum(tx['retrans']) if tx else '-'} |"
        )
    ratios = []
    for d in ("rx", "tx"):
        a, b = tcp.get((d, "rust-cb0")), tcp.get((d, "c"))
        if a and b and "ipm" in a and "ipm" in b:
            ratios.append(
                f"{d.upper()} {med(a['ipm']) / med(b['ipm']):.3f}x "
                f"(drv {med(a['ipm_drv']) / med(b['ipm_drv']):.3f}x)"
            )
    if ratios:
        md += ["", "igb_rust cb=0 / C igb, instructions per MB: " + ", ".join(ratios) + "."]
    return md


def med(xs):
    return statistics.median(xs) if xs else None


def fmt_int(x):
    return "-" if x is None else f"{x:,.0f}"


def ratio(a, b):
    return None if a is None or not b else a / b


def main():
    res = sys.argv[1]
    machine = {}
    with open(os.path.join(res, "machine.txt")) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            machine[k] = v
    cells = load(res)
    delivered = {k[1:]: v for k, v in cells.items() if k[0] == "_delivered"}
    cells = {k: v for k, v in cells.items() if k[0] != "_delivered"}
    dirs = [d for d in TITLES if any(k[0] == d for k in cells)]
    sizes = sorted({k[1] for k in cells})
    variants = [v for v in NAMES if any(k[2] == v for k in cells)]

    rows = []
    for (d, s, v), c in sorted(cells.items()):
        cref = cells.get((d, s, REF.get(v, "c")))
        r = {
            "dir": d,
            "size": s,
            "variant": v,
            "n": len(c["pps"]),
            "pps_median": med(c["pps"]),
            "pps_min": min(c["pps"]),
            "pps_max": max(c["pps"]),
            "soft_pct_median": med(c["soft"]),
            "busy_pct_median": med(c["busy"]),
            "pkts_per_irq_median": med(c["ppi"]),
            "delivered_per_counted": med(delivered.get((d, s, v), [])),
        }
        for k in ("dut", "drv", "page_pool", "skb", "all"):
            r[f"insn_{k}_per_pkt"] = med(c["ipp"].get(k, []))
        r["pps_ratio_vs_c"] = ratio(r["pps_median"], cref and med(cref["pps"]))
        r["insn_ratio_vs_c"] = ratio(
            r["insn_dut_per_pkt"], cref and med(cref["ipp"].get("dut", []))
        )
        r["drv_ratio_vs_c"] = ratio(
            r["insn_drv_per_pkt"], cref and med(cref["ipp"].get("drv", []))
        )
        rows.append(r)
    with open(os.path.join(res, "bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["dir"])
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()})
    by = {(r["dir"], r["size"], r["variant"]): r for r in rows}

    md = ["# igb_rust vs C igb: pktgen + sar", ""]
    md.append(
        f"{machine.get('date', '')}, commit {machine.get('commit', '?')}: "
        f"host {machine.get('host_cpu', '?')} "
        f"({machine.get('host_cores', '?')} cores), {machine.get('qemu', '?')}, "
        f"accelerator {machine.get('accel', '?').upper()}, {machine.get('guest_cpus', '?')} guest CPUs, "
        f"kernel {machine.get('kernel', '?')}; {machine.get('dur', '')}."
    )
    md.append("")
    md.append(
        "Frame sizes are on the wire with FCS. PPS is the DUT's `sar -n DEV` rate "
        "(RX: rxpck/s, TX: txpck/s), median of the repetitions with min..max; "
        "soft is CPU 1's `%soft` from `sar -u ALL -P ALL`. Instructions are guest "
        "instructions per packet on CPU 1 (the DUT's interrupts, NAPI and, for TX, pktgen; "
        "RX packets are those the DUT's UDP layer received, see delivered_per_counted in the CSV), "
        "counted by the TCG plugin; `drv` is the driver's own code (for igb_rust with "
        "its Rust helpers and kernel-crate functions). AF_XDP cells: the socket "
        "(tools/igb_rust/xsk_rx.c) runs on CPU 0, the DUT's queue 0 on CPU 1; `all` is both CPUs' "
        "total (with the peer's C igb and pktgen, which run on CPU 0, and the socket's loop)."
    )
    for d in dirs:
        md += ["", f"## {TITLES[d]}", ""]
        md.append("| driver | " + " | ".join(f"{s} B" for s in sizes) + " |")
        md.append("|---|" + "---|" * len(sizes))
        for v in variants:
            if not any((d, s, v) in by for s in sizes):
                continue
            cellv = []
            for s in sizes:
                r = by.get((d, s, v))
                if not r:
                    cellv.append("")
                    continue
                ppi = r["pkts_per_irq_median"]
                cellv.append(
                    f"{fmt_int(r['pps_median'])} ({fmt_int(r['pps_min'])}..{fmt_int(r['pps_max'])})"
                    f" soft {r['soft_pct_median']:.0f}%"
                    + ("" if ppi is None else f", {ppi:.1f} pkt/irq")
                )
            md.append(f"| {NAMES[v]} pps | " + " | ".join(cellv) + " |")
            cellv = []
            for s in sizes:
                r = by.get((d, s, v))
                if not r or r["insn_dut_per_pkt"] is None:
                    cellv.append("-")
                    continue
                cellv.append(
                    f"{fmt_int(r['insn_dut_per_pkt'])} (drv {fmt_int(r['insn_drv_per_pkt'])}"
                    + (f", all {fmt_int(r['insn_all_per_pkt'])})" if d in XSK_MODES else ")")
                )
            md.append(f"| {NAMES[v]} insn/pkt | " + " | ".join(cellv) + " |")
        md += [
            "",
            "igb_rust / C igb (PPS ratio; instructions ratio, lower is better, of the CPU 1 "
            "total and of `drv`; XDP_DROP and AF_XDP against C igb doing the same):",
            "",
        ]
        md.append("| igb_rust | " + " | ".join(f"{s} B" for s in sizes) + " |")
        md.append("|---|" + "---|" * len(sizes))
        for v in variants:
            if not v.startswith("rust") or not any((d, s, v) in by for s in sizes):
                continue
            cellv = []
            for s in sizes:
                r = by.get((d, s, v))
                if not r or r["pps_ratio_vs_c"] is None:
                    cellv.append("-")
                    continue
                ir, dr = r["insn_ratio_vs_c"], r["drv_ratio_vs_c"]
                cellv.append(
                    f"{r['pps_ratio_vs_c']:.3f}x; insn {'-' if ir is None else f'{ir:.3f}x'}"
                    f" (drv {'-' if dr is None else f'{dr:.3f}x'})"
                )
            md.append(f"| {NAMES[v]} | " + " | ".join(cellv) + " |")
    tcp = load_tcp(res)
    if tcp:
        md += tcp_section(tcp)
    pp = os.path.join(res, "pp_bench.txt")
    if os.path.exists(pp) and os.path.getsize(pp):
        md += ["", "## page_pool dma_sync_size microbenchmark (ns per alloc + recycle)", "", "```"]
        md += open(pp).read().rstrip().splitlines()
        md.append("```")
    with open(os.path.join(res, "bench.md"), "w") as f:
        f.write("\n".join(md) + "\n")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: matplotlib missing, no bench.png", file=sys.stderr)
        return
    if not dirs:
        return
    fig, axes = plt.subplots(2, len(dirs), figsize=(6 * len(dirs), 8), squeeze=False)
    for j, d in enumerate(dirs):
        for v in variants:
            pts = [(s, by[(d, s, v)]) for s in sizes if (d, s, v) in by]
            if not pts:
                continue
            xs = [s for s, _ in pts]
            ys = [r["pps_median"] for _, r in pts]
            lo = [r["pps_median"] - r["pps_min"] for _, r in pts]
            hi = [r["pps_max"] - r["pps_median"] for _, r in pts]
            axes[0][j].errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=NAMES[v])
            ins = [(s, r["insn_dut_per_pkt"]) for s, r in pts if r["insn_dut_per_pkt"]]
            if ins:
                axes[1][j].plot([s for s, _ in ins], [i for _, i in ins], marker="o", label=NAMES[v])
        axes[0][j].set_title(f"{d.upper()}: packets/s (median, min..max)", fontsize=9)
        axes[1][j].set_title(f"{d.upper()}: guest instructions per packet, DUT CPU", fontsize=9)
        for i in range(2):
            axes[i][j].set_xscale("log", base=2)
            axes[i][j].set_xticks(sizes, [str(s) for s in sizes])
            axes[i][j].set_xlabel("frame size (bytes)")
            axes[i][j].grid(True, alpha=0.3)
            axes[i][j].legend(fontsize=8)
    fig.suptitle(
        f"igb_rust vs C igb, {machine.get('accel', '?').upper()}, {machine.get('qemu', '')}", fontsize=9
    )
    fig.tight_layout()
    fig.savefig(os.path.join(res, "bench.png"), dpi=90)


if __name__ == "__main__":
    main()

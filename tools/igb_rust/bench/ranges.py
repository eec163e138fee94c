#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the address ranges insn_count.so attributes guest instructions to.

usage: ranges.py kernel OUT               (the kernel's part, once per boot)
       ranges.py module MODULE KO OUT     (one module's .text line)

Runs in the guest; the window file is "label ...", the module line and the
kernel part, concatenated. Ranges:
  drv        the module's .text (start from sysfs, size from the .ko)
  page_pool  kernel functions with "page_pool" in their name
  skb        kernel functions with "skb" in their name
  rust_help  the kernel's rust_helper_* C wrappers (the Rust driver's calls)
  rust_core  Rust functions built into the kernel (the kernel crate)
"""
import struct
import sys


def text_size(ko):
    """Size of the .text section of an ELF64 little-endian object."""
    with open(ko, "rb") as f:
        elf = f.read()
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)

    def sh(i):
        return struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)

    stroff = sh(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, _, size, *_ = sh(i)
        end = elf.index(b"\0", stroff + name)
        if elf[stroff + name:end] == b".text":
            return size
    raise SystemExit(f"{ko}: no .text section")


def kernel_functions():
    """(address, name) of every function built into the kernel, sorted."""
    syms = []
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3 or parts[1] not in "tTwW":
                continue
            syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return syms


def main():
    what, args = sys.argv[1], sys.argv[2:]
    lines = []
    if what == "module":
        module, ko, out = args
        with open(f"/sys/module/{module}/sections/.text") as f:
            start = int(f.read(), 16)
        lines.append(f"drv {start:x} {start + text_size(ko):x}")
    elif what == "kernel":
        out, = args
        syms = kernel_functions()
        for (addr, name), nxt in zip(syms, syms[1:]):
            end = nxt[0]
            if end <= addr or end - addr > 1 << 20:
                continue
            if "page_pool" in name:
                cat = "page_pool"
            elif "skb" in name:
                cat = "skb"
            elif name.startswith("rust_helper_"):
                cat = "rust_help"
            elif name.startswith("_R"):
                cat = "rust_core"
            else:
                continue
            lines.append(f"{cat} {addr:x} {end:x}")
    else:
        raise SystemExit(__doc__)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The igb_rust test suite, run inside the guest by `make check`.
# Prints TAP; the host counts the lines and prints the summary.
set -u
. "$(dirname "$0")/lib.sh"

run_part() { . "$(dirname "$0")/tests/$1.sh"; }

# On the debug kernel, the checkers the final dmesg test relies on are live.
if [ "${IGB_RUST_KVARIANT:-}" = debug ]; then
	[ -e /sys/kernel/debug/dma-api ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	missing=""
	dmesg | grep -q 'KernelAddressSanitizer initialized' || missing+=" KASAN"
	[ -e /proc/lockdep ] || missing+=" lockdep"
	[ "$(cat /sys/kernel/debug/dma-api/disabled 2>/dev/null)" = N ] || missing+=" DMA-API-debug"
	[ -e /sys/kernel/debug/kmemleak ] || missing+=" kmemleak"
	[ -e /sys/kernel/debug/fail_page_alloc ] || missing+=" fail_page_alloc"
	if [ -z "$missing" ]; then
		ok "debug kernel: KASAN, lockdep, DMA-API debug, kmemleak, fault injection active"
	else
		fail "debug kernel: KASAN, lockdep, DMA-API debug, kmemleak, fault injection active" "missing:$missing"
	fi
fi

for part_name in ${TESTS:-boot probe datapath steps board copybreak ethtool ptp xdp xsk sriov selftests stress ppbench}; do
	part_t0=$(date +%s)
	echo "igb_rust check: part $part_name" > /dev/kmsg
	run_part "$part_name"
	echo "# part $part_name took $(( $(date +%s) - part_t0 )) s" >> "$TAP"
done

# Last: nothing in the kernel log that indicates a bug, and no leaks.
dmesg > "$OUT/dmesg.txt"
# What the kernel's own early boot printed before the first test (the boot
# KUnit suites, the Rust doctests among them, or the first part of this
# suite) ran no code of ours: a splat there (once, on the debug kernel: an
# interrupt during cpu_detect(), before KASAN's shadow covered its irq_desc)
# is shown, not counted.
first=$(grep -n -m1 -E 'KTAP version|igb_rust check: part' "$OUT/dmesg.txt" | cut -d: -f1)
early=$(head -n "$((${first:-1} - 1))" "$OUT/dmesg.txt" | grep -E "$BAD_DMESG" | head -5)
if [ -n "$early" ]; then
	note "the kernel's early boot, before any test ran, has a splat (not counted):"
	echo "$early" | sed 's/^/#   /' | tee -a "$TAP"
fi
bad=$(tail -n +"${first:-1}" "$OUT/dmesg.txt" | grep -E "$BAD_DMESG" | head -20)
if [ -z "$bad" ]; then
	ok "dmesg has no splat (WARN/BUG/Oops, lockdep, KASAN, UBSAN, DMA-API, ref_tracker, leaks)"
else
	fail "dmesg has no splat (WARN/BUG/Oops, lockdep, KASAN, UBSAN, DMA-API, ref_tracker, leaks)" "$bad"
fi
# DMA-API debugging prints only its first error; it counts all of them.
if [ -r /sys/kernel/debug/dma-api/error_count ]; then
	e=$(cat /sys/kernel/debug/dma-api/error_count)
	check "DMA-API debugging counted no errors ($e)" test "$e" = 0
fi
leaks=$(kmemleak_scan 2>&1)
if [ -z "$leaks" ]; then ok "kmemleak reports no leaks"; else fail "kmemleak reports no leaks" "$(echo "$leaks" | head -30)"; fi
echo "1..$T_N" >> "$TAP"

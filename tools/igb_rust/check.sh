#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The igb_rust test suite, run inside the guest by `make check`.
# Prints TAP; the host counts the lines and prints the summary.
set -u
. "$(dirname "$0")/lib.sh"

run_part() { . "$(dirname "$0")/tests/$1.sh"; }

for t in ${TESTS:-boot probe datapath copybreak selftests ppbench}; do
	run_part "$t"
done

# Last: nothing in the kernel log that indicates a bug, and no leaks.
dmesg > "$OUT/dmesg.txt"
bad=$(grep -E "$BAD_DMESG" "$OUT/dmesg.txt" | head -20)
if [ -z "$bad" ]; then ok "dmesg has no WARN/BUG/Oops/leak"; else fail "dmesg has no WARN/BUG/Oops/leak" "$bad"; fi
leaks=$(kmemleak_scan 2>&1)
if [ -z "$leaks" ]; then ok "kmemleak reports no leaks"; else fail "kmemleak reports no leaks" "$(echo "$leaks" | head -30)"; fi
echo "1..$T_N" >> "$TAP"
